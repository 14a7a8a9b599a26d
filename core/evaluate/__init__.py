"""Evaluating embedders on (sentence, paraphrase, foil) triples: readers, metrics, spot checks, hardness."""
