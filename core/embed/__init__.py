"""Sentence embedders: a registry of named backends, lexical baselines and an on-disk cache.

Listing is free (:func:`core.embed.registry.list_embedders`); loading pays for weights once
per process (:func:`core.embed.registry.get_embedder`). Every embedder returns float32
rows, L2-normalised unless its ``normalize`` setting is off; :class:`core.embed.cache.EmbeddingCache`
keeps them on disk keyed by model, version, settings and text.

The face (each name loads on first use, so ``import core.embed`` loads no model library):

>>> import core.embed
>>> core.embed.get_embedder.__module__, core.embed.EmbeddingCache.__module__
('core.embed.registry', 'core.embed.cache')
"""

from __future__ import annotations

from core.faces import lazy_face

_FACE = {
    ".registry": ("get_embedder", "list_embedders", "resolve", "usable_embedders"),
    ".cache": ("EmbeddingCache",),
}
__getattr__, __all__ = lazy_face(__name__, _FACE)
