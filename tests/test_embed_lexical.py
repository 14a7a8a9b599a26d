"""The lexical baselines: exact bag-of-words and TF-IDF cosines computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from core.embed.lexical import LexicalEmbedder


def test_bow_cosine_by_hand():
    v = LexicalEmbedder("bow", weighting="binary").encode(["The cat sat, the cat!", "the cat ran", "dogs bark"])
    # sets {the, cat, sat} and {the, cat, ran}: 2 / sqrt(3 * 3)
    assert float(v[0] @ v[1]) == pytest.approx(2 / 3)
    assert float(v[0] @ v[2]) == 0.0
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-6)


def test_tfidf_by_hand_and_fitted_corpus():
    emb = LexicalEmbedder("tfidf", weighting="tfidf").fit(["a b", "a c", "a b", "d"])  # distinct: a b, a c, d
    n = 3
    idf = {w: math.log((1 + n) / (1 + df)) + 1 for w, df in {"a": 2, "b": 1, "c": 1, "d": 1, "e": 0}.items()}
    assert emb.idf("a") == pytest.approx(idf["a"])
    assert emb.idf("e") == pytest.approx(idf["e"])  # unseen word: df = 0
    v = emb.encode(["a b", "a c"])
    expected = idf["a"] ** 2 / (idf["a"] ** 2 + idf["b"] ** 2)
    assert float(v[0] @ v[1]) == pytest.approx(expected, rel=1e-6)
    assert emb.info["idf_corpus"]["distinct_texts"] == 3
    again = LexicalEmbedder("tfidf", weighting="tfidf").fit(["d", "a c", "a b"])
    assert again.corpus_sha256 == emb.corpus_sha256  # order does not matter: deterministic


def test_sparse_and_dense_agree():
    emb = LexicalEmbedder("tfidf", weighting="tfidf")
    texts = ["the cat sat on the mat", "on the mat the cat sat", "a dog"]
    dense = emb.encode(texts)
    sparse = emb.encode_sparse(texts).toarray()
    np.testing.assert_allclose(dense, sparse, atol=1e-6)
    assert float(dense[0] @ dense[1]) == pytest.approx(1.0)  # same bag of words
    assert not LexicalEmbedder("bow", weighting="binary").cacheable


def test_shared_unfitted_tfidf_keeps_no_state():
    from core.embed.registry import get_embedder
    from core.errors import InputError

    emb = get_embedder("tfidf")
    first = emb.encode(["a b", "a c"])
    emb.encode(["x y z", "b b b", "q"])
    np.testing.assert_allclose(emb.encode(["a b", "a c"]), first)
    assert not emb.fitted
    with pytest.raises(InputError, match="not a string"):
        emb.encode(["a", None])
