"""The models every screen shares: the foil pipeline, the embedders and the embedding cache, each built once.

:class:`Backends` builds nothing until asked (the app's first frame comes before any model loads),
and is safe to call from worker threads. A test or a benchmark hands it ready objects:

>>> from core.config import Settings
>>> b = Backends(Settings(), embedders={"bow": object()})
>>> b.is_loaded("bow"), b.is_loaded("minilm")
(True, False)
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from core.config import Settings


class Backends:
    """The pipeline and embedders, created on first use (thread-safe) and kept for the app's life.

    Pass ready objects (``pipeline=``, ``embedders=``) to reuse them across apps, as the
    tests and the benchmark do.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        pipeline: Any = None,
        embedders: Mapping[str, Any] | None = None,
    ) -> None:
        self.settings = settings
        self._pipeline = pipeline
        self._embedders: dict[str, Any] = dict(embedders or {})
        self._lock = threading.Lock()
        self._specs: list[Any] | None = None
        self._provenance: dict[str, Any] | None = None
        self._cache: Any = None

    def pipeline(self) -> Any:
        """The :class:`core.foils.pipeline.FoilPipeline` (its backends load on first use)."""
        with self._lock:
            if self._pipeline is None:
                from core.foils import FoilPipeline

                self._pipeline = FoilPipeline.from_settings(self.settings)
            return self._pipeline

    def warm_pipeline(self) -> Any:
        """Build the parser, generator and validators now (slow the first time)."""
        pipe = self.pipeline()
        _ = pipe.parser, pipe.generator
        return pipe

    def provenance(self) -> dict[str, Any]:
        if self._provenance is None:
            self._provenance = dict(self.pipeline().provenance())
        return self._provenance

    def is_loaded(self, name: str) -> bool:
        return name in self._embedders

    def embedder(self, name: str) -> Any:
        """The embedder called ``name``: one handed to this app, else the registry's process-wide instance
        (``get_embedder``, loaded once; raises ModelMissingError). Kept here so ``is_loaded`` can tell."""
        emb = self._embedders.get(name)
        if emb is None:
            from core.embed import get_embedder

            emb = self._embedders.setdefault(name, get_embedder(name, settings=self.settings))
        return emb

    def specs(self) -> list[Any]:
        """Every registered embedder with whether it is usable offline (cheap: loads nothing)."""
        if self._specs is None:
            from core.embed import list_embedders  # first-party: an import bug must show, not empty the list

            self._specs = list(list_embedders())
        return self._specs

    def cache(self) -> Any:
        """The on-disk embedding cache used by evaluations (None when unavailable)."""
        if self._cache is None:
            from core.embed import EmbeddingCache  # first-party: no silent fallback to "no cache"
            from smithtui.screens.job import CANCEL_CHUNK

            self._cache = EmbeddingCache(self.settings.cache_dir(), chunk_size=CANCEL_CHUNK)
        return self._cache
