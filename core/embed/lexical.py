"""Lexical baselines: bag-of-words cosine and TF-IDF cosine. Foils are built to fool them.

Both use :func:`core.evaluate.metrics.words` (lower-cased ``\\w+`` runs; punctuation dropped).

* ``bow``: binary word-presence vectors, cosine = ``|A ∩ B| / sqrt(|A| |B|)``.
* ``tfidf``: raw term counts times a smoothed IDF, ``idf(w) = ln((1 + N) / (1 + df(w))) + 1``
  (scikit-learn's default formula), rows L2-normalised. The IDF is fitted on a corpus of
  *distinct* texts: :func:`core.evaluate.evaluation.evaluate_triples` fits it on every distinct
  sentence, paraphrase and foil of the triple set being evaluated (so it is deterministic
  for a given file, and its hash is in the provenance). A word the corpus lacks gets
  ``df = 0``. Without :meth:`LexicalEmbedder.fit`, each ``encode`` call uses its own texts as the corpus.

Vectors live in a vocabulary built per call, so only cosines within one call are
meaningful; :meth:`LexicalEmbedder.encode_sparse` gives the exact sparse matrix and
``encode`` the same rows dense (fine for a few thousand texts). These baselines are not
cached: recomputing them is faster than a lookup.

>>> bow = LexicalEmbedder("bow", weighting="binary")
>>> v = bow.encode(["the cat sat", "the cat ran", "dogs bark"])
>>> round(float(v[0] @ v[1]), 4), round(float(v[0] @ v[2]), 4)
(0.6667, 0.0)
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from core import __version__
from core.embed.base import BaseEmbedder, EmbedSettings, text_list
from core.evaluate.metrics import words

WEIGHTINGS = ("binary", "tfidf")


class LexicalEmbedder(BaseEmbedder):
    """Word-count vectors with binary or TF-IDF weights."""

    kind = "lexical"
    cacheable = False

    def __init__(self, name: str, *, weighting: str, settings: EmbedSettings | None = None) -> None:
        if weighting not in WEIGHTINGS:
            raise ValueError(f"weighting must be one of {WEIGHTINGS}")
        model_id = "bag-of-words cosine (binary)" if weighting == "binary" else "TF-IDF cosine (smoothed idf)"
        super().__init__(name, model_id, version=f"core-{__version__}", settings=settings or EmbedSettings())
        self.weighting = weighting
        self._df: Counter[str] | None = None
        self._n_docs = 0
        self.corpus_sha256 = ""

    @property
    def info(self) -> dict[str, object]:
        info = super().info
        info["tokenizer"] = "lower-cased \\w+ runs"
        if self.weighting == "tfidf":
            info["idf_corpus"] = {"distinct_texts": self._n_docs, "sha256": self.corpus_sha256}
        return info

    def cache_identity(self) -> dict[str, object]:
        return {**super().cache_identity(), "idf_corpus": self.corpus_sha256}

    def _load(self) -> None:
        return None  # nothing to load

    @staticmethod
    def _document_frequencies(corpus: Iterable[str]) -> tuple[Counter[str], int, str]:
        docs = sorted(set(corpus))
        digest = hashlib.sha256()
        for d in docs:
            digest.update(d.encode("utf-8") + b"\0")
        return Counter(w for d in docs for w in set(words(d))), len(docs), digest.hexdigest()

    def fit(self, corpus: Iterable[str]) -> LexicalEmbedder:
        """Fit the IDF on the distinct texts of ``corpus`` (no effect for ``bow``); returns self.

        Fit an instance of your own (``get_embedder(name, shared=False)``) rather than the one
        :func:`~core.embed.registry.get_embedder` shares across the process.
        """
        self._df, self._n_docs, self.corpus_sha256 = self._document_frequencies(corpus)
        return self

    @property
    def fitted(self) -> bool:
        return self._df is not None

    def idf(self, word: str) -> float:
        """Smoothed IDF of ``word`` in the fitted corpus."""
        df = self._df.get(word, 0) if self._df is not None else 0
        return math.log((1 + self._n_docs) / (1 + df)) + 1.0

    def encode_sparse(self, texts: Sequence[str]) -> Any:
        """L2-normalised rows as a ``scipy.sparse.csr_matrix`` over this call's vocabulary."""
        from scipy.sparse import csr_matrix

        items = self._prepare(list(texts))
        tokens = [words(t) for t in items]
        vocab = {w: i for i, w in enumerate(sorted({w for ws in tokens for w in ws}))}
        idf: dict[str, float] = {}
        if self.weighting == "tfidf":
            if self._df is not None:
                idf = {w: self.idf(w) for w in vocab}
            else:  # not fitted: this call's distinct texts are the corpus (nothing is stored)
                df, n_docs, _ = self._document_frequencies(items)
                idf = {w: math.log((1 + n_docs) / (1 + df.get(w, 0))) + 1.0 for w in vocab}
        data: list[float] = []
        cols: list[int] = []
        indptr = [0]
        for ws in tokens:
            counts = Counter(ws)
            if self.weighting == "binary":
                row = {vocab[w]: 1.0 for w in counts}
            else:
                row = {vocab[w]: c * idf[w] for w, c in counts.items()}
            norm = math.sqrt(sum(v * v for v in row.values())) or 1.0
            for col in sorted(row):
                cols.append(col)
                data.append(row[col] / norm)
            indptr.append(len(cols))
        return csr_matrix(
            (np.asarray(data, dtype=np.float64), np.asarray(cols, dtype=np.int64), np.asarray(indptr)),
            shape=(len(items), max(1, len(vocab))),
        )

    def _prepare(self, texts: list[str]) -> list[str]:
        prefix = self.settings.prefix
        return [prefix + t for t in texts] if prefix else texts

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Dense rows of :meth:`encode_sparse` as float32."""
        items = text_list(texts)
        if not items:
            return np.zeros((0, 0), dtype=np.float32)
        matrix = self.encode_sparse(items).toarray().astype(np.float32)
        self.dim = int(matrix.shape[1])
        return matrix
