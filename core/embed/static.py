"""The 64-d static (Model2Vec-style, tokenlearn) model of ``tokenlearn-static-model``, read with ``model2vec``.

Static embeddings: a weighted mean of per-token vectors, no context. Thousands of
sentences per second; useful as a fast, context-blind reference point. The package's
own Rust encoder agrees with model2vec to a mean cosine of 0.995; model2vec is the
reference implementation, so it is used here.
"""

from __future__ import annotations

import numpy as np

from core.embed.base import BaseEmbedder


class StaticEmbedder(BaseEmbedder):
    kind = "model2vec"

    def _load(self) -> None:
        from model2vec import StaticModel

        self._model = StaticModel.from_pretrained(self.location)
        self.dim = int(self._model.dim)

    def _encode(self, texts: list[str]) -> np.ndarray:
        kwargs = {"max_length": self.settings.max_length} if self.settings.max_length else {}
        return self._model.encode(texts, batch_size=max(self.settings.batch_size, 256), **kwargs)
