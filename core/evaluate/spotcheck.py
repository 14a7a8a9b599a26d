"""Spot checks: is an embedding model fooled by a foil, for one sentence?

For a source ``s``, an optional paraphrase ``p`` and foils ``f``, each model gives
cosine similarities (embeddings are L2-normalised, so a dot product). The
*reference* is ``sim(s, p)`` when a paraphrase is given, else ``sim(s, s)`` (the
model's own similarity of the original to itself, ~1.0): without a paraphrase a
model is fooled only when it ranks the foil at least as close as the original,
i.e. cannot tell them apart (a bag-of-words model on a role swap).

* ``margin = sim_reference - sim_foil``: positive means the model keeps the foil
  further away than the reference; the larger, the safer.
* ``fooled = sim_foil >= sim_reference - tolerance``: the paper's strict triplet
  accuracy counts a triple correct only when ``sim(s,p) > sim(s,f)``, so a tie is
  fooled. ``tolerance`` (default 1e-6) absorbs float32 noise so that identical
  vectors always tie.

Embedders with a ``fit`` method (the TF-IDF baseline) are fitted, on a copy, on the
texts of this one check (source, paraphrase and every foil), so their IDF never
leaks from one sentence to the next.

Errors are carried as values: a model that fails to encode gives checks with
``error`` set, never an exception.

>>> import numpy as np
>>> class Toy:
...     name = "toy"
...     info = {"model_id": "toy"}
...     def encode(self, texts):
...         v = np.array([[t.count("a"), t.count("b") + 1.0] for t in texts], dtype=np.float32)
...         return v / np.linalg.norm(v, axis=1, keepdims=True)
>>> checks = check_model(Toy(), "ab", ["ba", "bbb"])
>>> [(c.fooled, round(c.margin, 3)) for c in checks]
[(True, 0.0), (False, 0.106)]
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from core.progress import ProgressCallback, check_cancel, report
from core.protocols import Embedder

DEFAULT_TOLERANCE = 1e-6


@dataclass(frozen=True)
class ModelCheck:
    """One model's judgement of one foil."""

    model: str
    sim_foil: float  # cos(source, foil)
    sim_reference: float  # cos(source, paraphrase), or cos(source, source) without a paraphrase
    reference: str  # "paraphrase" | "original"
    margin: float  # sim_reference - sim_foil (positive: the model separates the foil)
    fooled: bool  # sim_foil >= sim_reference - tolerance
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def _failed(model: str, n: int, reference: str, error: str) -> list[ModelCheck]:
    nan = float("nan")
    return [ModelCheck(model, nan, nan, reference, nan, False, error) for _ in range(n)]


def check_model(
    embedder: Embedder,
    source: str,
    foils: Sequence[str],
    paraphrase: str | None = None,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    name: str | None = None,
) -> list[ModelCheck]:
    """Score every foil against ``source`` with one embedder (texts encoded once, deduplicated)."""
    model = name or getattr(embedder, "name", type(embedder).__name__)
    paraphrase = paraphrase.strip() if paraphrase and paraphrase.strip() else None
    reference = "paraphrase" if paraphrase else "original"
    if not foils:
        return []
    texts = list(dict.fromkeys([source, *([paraphrase] if paraphrase else []), *foils]))
    index = {t: i for i, t in enumerate(texts)}
    try:
        if callable(getattr(embedder, "fit", None)):
            embedder = copy.copy(embedder)
            embedder.fit(texts)
        vectors = np.asarray(embedder.encode(texts), dtype=np.float64)
        if vectors.shape[0] != len(texts):
            raise ValueError(f"encoder returned {vectors.shape[0]} vectors for {len(texts)} texts")
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors = vectors / np.where(norms == 0, 1.0, norms)
    except Exception as exc:  # a broken model must not break the spot check of the others
        return _failed(model, len(foils), reference, f"{type(exc).__name__}: {exc}")
    s = vectors[index[source]]
    ref_vec = vectors[index[paraphrase]] if paraphrase else s
    sim_ref = float(s @ ref_vec)
    out = []
    for foil in foils:
        sim_f = float(s @ vectors[index[foil]])
        out.append(
            ModelCheck(
                model=model,
                sim_foil=sim_f,
                sim_reference=sim_ref,
                reference=reference,
                margin=sim_ref - sim_f,
                fooled=sim_f >= sim_ref - tolerance,
            )
        )
    return out


def iter_spot_checks(
    embedders: Mapping[str, Embedder],
    source: str,
    foils: Sequence[str],
    paraphrase: str | None = None,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> Iterator[tuple[str, list[ModelCheck]]]:
    """Yield ``(model name, checks per foil)`` one model at a time, so a UI can fill columns as they come."""
    total = len(embedders)
    for done, (name, embedder) in enumerate(embedders.items(), 1):
        check_cancel(cancel)
        yield name, check_model(embedder, source, foils, paraphrase, tolerance=tolerance, name=name)
        report(progress, done, total)


def spot_check(
    embedders: Mapping[str, Embedder], source: str, foils: Sequence[str], paraphrase: str | None = None, **options: Any
) -> dict[str, list[ModelCheck]]:
    """All models at once: ``{model: [check per foil]}`` (``options``: those of :func:`iter_spot_checks`)."""
    return dict(iter_spot_checks(embedders, source, foils, paraphrase, **options))


def fooled_count(checks: Mapping[str, Sequence[ModelCheck]], foil_index: int) -> int:
    """How many models the foil at ``foil_index`` fooled."""
    return sum(1 for per_foil in checks.values() if per_foil[foil_index].fooled)
