"""The small, batch-first protocols every backend implements.

Backends are chosen by name (see ``core.foils.registry``); these protocols are all the
pipeline knows about them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from core.types import Edit, FoilCandidate, ParsedSentence, Realization, Verdict


@runtime_checkable
class Parser(Protocol):
    """Text to graph. ``parse`` never raises for one bad sentence: it raises
    :class:`~core.errors.InputError` only for unusable input as a whole; per-sentence
    problems come back through :meth:`parse_one` raising and the pipeline recording it."""

    name: str

    def parse(self, sentences: Sequence[str]) -> list[ParsedSentence]: ...


@runtime_checkable
class Generator(Protocol):
    """Edited graph to text. One :class:`Realization` per edit, errors as values."""

    name: str

    def generate(self, edits: Sequence[Edit]) -> list[Realization]: ...


@runtime_checkable
class Validator(Protocol):
    """Judges whether a foil really changed the meaning as the edit intended."""

    name: str

    def score(self, candidates: Sequence[FoilCandidate]) -> list[Verdict]: ...


@runtime_checkable
class Embedder(Protocol):
    """Texts to L2-normalised float32 vectors, shape ``(len(texts), dim)``.

    ``info`` is provenance: model id, version/revision, dimension and settings;
    it keys the embedding cache.
    """

    name: str

    @property
    def info(self) -> dict[str, object]: ...

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...
