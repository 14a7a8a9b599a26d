"""The offline dependency parser: a spaCy parse becomes an AMR-style graph."""
