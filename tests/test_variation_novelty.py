"""Novelty per model, the ensemble across models, and the listed passages."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy import sparse

from core.errors import ConfigError
from core.variation.books import read_book
from core.variation.novelty import NoveltyParams, ensemble, novelty_scores, standardise, top_passages
from core.variation.ssm import normalise, ssm_stats, zscored_ssm

TINY = Path(__file__).resolve().parents[1] / "sample_data" / "tiny_book.txt"


def _emb(n: int = 60, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return normalise(rng.normal(size=(n, 16)))


def test_window_novelty_equals_full_matrix_definition() -> None:
    E = _emb()
    Z = zscored_ssm(E)
    w = 7
    got = novelty_scores(E, ssm_stats(E), NoveltyParams(window=w))
    assert np.isnan(got[0])
    for i in range(1, len(E)):
        lo = max(0, i - w)
        assert got[i] == pytest.approx(-Z[i, lo:i].mean(), abs=1e-12)


def test_global_novelty_equals_full_matrix_definition() -> None:
    E = _emb()
    Z = zscored_ssm(E)
    np.fill_diagonal(Z, np.nan)
    got = novelty_scores(E, ssm_stats(E), NoveltyParams(mode="global"))
    np.testing.assert_allclose(got, -np.nanmean(Z, axis=1), atol=1e-12)


def test_sparse_novelty_matches_dense() -> None:
    rng = np.random.default_rng(2)
    M = np.where(rng.random((40, 30)) > 0.7, 1.0, 0.0)
    M[:, 0] = 1.0
    dense, sp = normalise(M), normalise(sparse.csr_matrix(M))
    for mode in ("window", "global"):
        p = NoveltyParams(mode=mode, window=5)
        np.testing.assert_allclose(
            novelty_scores(sp, ssm_stats(sp), p), novelty_scores(dense, ssm_stats(dense), p), atol=1e-12
        )


def test_an_off_topic_sentence_is_found_by_every_model() -> None:
    rng = np.random.default_rng(4)
    topic = rng.normal(size=(1, 32))
    scores = {}
    for k in range(3):
        X = topic + 0.3 * rng.normal(size=(80, 32))
        X[50] = rng.normal(size=32) * 2
        E = normalise(X)
        scores[f"m{k}"] = novelty_scores(E, ssm_stats(E))
    ens = ensemble(scores, NoveltyParams(top_fraction=0.02))
    assert int(np.nanargmax(ens.score)) == 50
    assert ens.votes[50] == 3
    assert 0 <= ens.kendall_w <= 1
    np.testing.assert_allclose(np.diag(ens.spearman), 1.0)


def test_kendall_w_is_one_for_identical_rankings() -> None:
    x = np.arange(20.0)
    ens = ensemble({"a": x, "b": 2 * x + 1, "c": x**3})
    assert ens.kendall_w == pytest.approx(1.0)
    np.testing.assert_allclose(ens.spread, 0.0, atol=1.2)  # same ranks, different spacing


def test_standardise_keeps_nan_and_handles_constants() -> None:
    out = standardise(np.array([np.nan, 1.0, 2.0, 3.0]))
    assert np.isnan(out[0]) and out[1:].mean() == pytest.approx(0.0)
    assert (standardise(np.ones(4)) == 0).all()


def test_top_passages_have_context_and_skip_short_sentences() -> None:
    book = read_book(TINY)
    n = len(book)
    raw = np.linspace(0, 1, n)
    raw[3] = 10.0  # a strong outlier
    short = next(i for i, s in enumerate(book.sentences) if len(s.text.split()) < 6 and i > 8)
    raw[short] = 20.0
    ens = ensemble({"a": raw, "b": raw + 0.01})
    params = NoveltyParams(top_k=3, context=2, min_words=6)
    passages = top_passages(book, ens, params)
    assert passages[0].sentence_id == 3 and passages[0].rank == 1
    assert short not in [p.sentence_id for p in passages]
    assert passages[0].before == tuple(s.text for s in book.sentences[1:3])
    assert passages[0].after == tuple(s.text for s in book.sentences[4:6])
    ids = [p.sentence_id for p in passages]
    assert all(abs(a - b) > 2 for a in ids for b in ids if a != b)


def test_bad_params() -> None:
    with pytest.raises(ConfigError):
        NoveltyParams(mode="sideways")
    with pytest.raises(ConfigError):
        NoveltyParams(window=0)


def test_length_adjustment_removes_the_short_sentence_effect() -> None:
    rng = np.random.default_rng(7)
    words = rng.integers(2, 60, size=300)
    noise = rng.normal(scale=0.1, size=300)
    scores = {"a": -np.log(words) + noise, "b": -np.log(words) + rng.normal(scale=0.1, size=300)}
    scores["a"][123] += 2.0  # novel for its length
    raw = ensemble(scores, NoveltyParams(adjust_length=False), words=words)
    adjusted = ensemble(scores, NoveltyParams(), words=words)
    assert abs(np.corrcoef(raw.score, np.log(words))[0, 1]) > 0.9
    assert abs(np.corrcoef(adjusted.score, np.log(words))[0, 1]) < 0.1
    assert int(np.nanargmax(adjusted.score)) == 123
