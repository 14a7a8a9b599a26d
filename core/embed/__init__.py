"""Sentence embedders: a registry of named backends, lexical baselines and an on-disk cache.

Listing is free (:func:`core.embed.registry.list_embedders`); loading pays for weights once
per process (:func:`core.embed.registry.get_embedder`). Every embedder returns float32
rows, L2-normalised unless its ``normalize`` setting is off; :class:`core.embed.cache.EmbeddingCache`
keeps them on disk keyed by model, version, settings and text.
"""
