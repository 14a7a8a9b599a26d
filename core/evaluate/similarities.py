"""Cosine similarities of a model object on a triple set: ``sim(s, p)`` and ``sim(s, f)`` per triple.

A model object is anything with ``encode(texts)`` (a ``SentenceTransformer`` being fine-tuned, say); with
``encode="query-document"`` and ``encode_query``/``encode_document`` the sentence is embedded as a query.

>>> import numpy as np
>>> cosines(np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0]]), np.array([0, 0]), np.array([1, 2])).round(3).tolist()
[0.707, 0.0]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from core.errors import InputError
from core.evaluate.triples import TripleSet

ENCODE_MODES: Mapping[str, str] = {
    "symmetric": "encode: sentence, paraphrase and foil alike (no query/document prompts)",
    "query-document": "encode_query for the sentence, encode_document for paraphrase and foil (ST TripletEvaluator)",
}
"""How texts are embedded; named (registry) models always use ``symmetric``."""


def model_name(model: Any) -> str:
    """A display name for a registry name or a model object (its folder or hub id when it has one).

    >>> model_name(" bow "), model_name(type("Enc", (), {"encode": None})())
    ('bow', 'Enc')
    """
    if isinstance(model, str):
        return model.strip()
    card = getattr(model, "model_card_data", None)
    for value in (getattr(model, "name", None), getattr(card, "model_id", None), getattr(card, "base_model", None)):
        if isinstance(value, str) and value:
            return value
    return type(model).__name__


def _encode_with(fn: Any, texts: list[str]) -> np.ndarray:
    import inspect

    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        params = {}
    kwargs = {k: v for k, v in (("convert_to_numpy", True), ("show_progress_bar", False)) if k in params}
    return np.asarray(fn(texts, **kwargs), dtype=np.float64)


def object_similarities(model: Any, ts: TripleSet, encode: str) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """sim(s, p) and sim(s, f) of a model object, and what it was (class, encode mode)."""
    if not callable(getattr(model, "encode", None)):
        raise InputError(f"{type(model).__name__} has no encode method", hint="pass a model name or an encoder")
    sources = list(dict.fromkeys(t.source for t in ts.triples))
    others = list(dict.fromkeys(x for t in ts.triples for x in (t.paraphrase, t.foil)))
    if encode == "query-document" and hasattr(model, "encode_query") and hasattr(model, "encode_document"):
        qs, ds = _encode_with(model.encode_query, sources), _encode_with(model.encode_document, others)
        used = "query-document"
    else:
        both = _encode_with(model.encode, list(dict.fromkeys(sources + others)))
        qs, ds = both[: len(sources)], both
        index = {t: i for i, t in enumerate(dict.fromkeys(sources + others))}
        others = list(index)
        used = "symmetric"
    si = {t: i for i, t in enumerate(sources)}
    oi = {t: i for i, t in enumerate(others)}
    a = np.array([si[t.source] for t in ts.triples])
    matrix = np.vstack([qs, ds])
    off = len(sources)
    sp = cosines(matrix, a, np.array([off + oi[t.paraphrase] for t in ts.triples]))
    sn = cosines(matrix, a, np.array([off + oi[t.foil] for t in ts.triples]))
    info = {"kind": "object", "class": f"{type(model).__module__}.{type(model).__qualname__}", "encode": ENCODE_MODES[used]}
    return sp, sn, info


def cosines(matrix: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine of ``matrix[a]`` and ``matrix[b]`` (dense or scipy sparse), float64; zero rows give 0."""
    if hasattr(matrix, "multiply"):  # scipy sparse, rows already L2-normalised
        ma, mb = matrix[a], matrix[b]
        dots = np.asarray(ma.multiply(mb).sum(axis=1), dtype=np.float64).ravel()
        na = np.sqrt(np.asarray(ma.multiply(ma).sum(axis=1), dtype=np.float64).ravel())
        nb = np.sqrt(np.asarray(mb.multiply(mb).sum(axis=1), dtype=np.float64).ravel())
    else:
        m = np.asarray(matrix, dtype=np.float64)
        ma, mb = m[a], m[b]
        dots = np.einsum("ij,ij->i", ma, mb)
        na, nb = np.linalg.norm(ma, axis=1), np.linalg.norm(mb, axis=1)
    denom = na * nb
    out = np.divide(dots, denom, out=np.zeros_like(dots), where=denom > 0)
    return np.clip(out, -1.0, 1.0)
