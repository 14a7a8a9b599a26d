"""SSM statistics and model agreement: the blocked path equals the plain full-matrix computation."""

from __future__ import annotations

import itertools
import threading
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

from core.errors import CancelledError, ConfigError, InputError
from core.variation.agreement import MATRICES, agreement_full, analyse_blocked, mean_agreement
from core.variation.ssm import (
    SSMParams,
    block_rows_for,
    normalise,
    pooled_zssm,
    ssm_stats,
    ssm_stats_full,
    successive_series,
    zscored_ssm,
)


def _models(n: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Four models with known relations: b is a noisy copy of a, c unrelated, d non-negative (bow-like)."""
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(n, 24))
    return {
        "a": base + 0.4 * rng.normal(size=(n, 24)),
        "b": base + 1.0 * rng.normal(size=(n, 24)),
        "c": rng.normal(size=(n, 12)),
        "d": np.abs(rng.normal(size=(n, 40))),
    }


def _assert_same(full, blocked) -> None:
    assert full.models == blocked.models and full.n_pairs == blocked.n_pairs
    for name in ("series_corr", "ssm_corr"):
        np.testing.assert_allclose(blocked.matrix(name), full.matrix(name), rtol=0, atol=1e-10)
    for name in ("paf", "naf", "ddaf"):
        np.testing.assert_array_equal(blocked.matrix(name), full.matrix(name))
    for m in full.models:
        assert blocked.stats[m].mean == pytest.approx(full.stats[m].mean, abs=1e-12)
        assert blocked.stats[m].std == pytest.approx(full.stats[m].std, abs=1e-12)


@pytest.mark.parametrize("block_rows", [1, 2, 7, 64, 150])
def test_blocked_equals_full(block_rows: int) -> None:
    embs = _models(150)
    _assert_same(agreement_full(embs), analyse_blocked(embs, block_rows=block_rows).agreement)


@pytest.mark.parametrize(
    "params", [SSMParams(diagonal="include"), SSMParams(ddof=1), SSMParams(threshold=0.5), SSMParams(threshold=1.5)]
)
def test_blocked_equals_full_for_every_definition(params: SSMParams) -> None:
    embs = _models(90, seed=3)
    _assert_same(agreement_full(embs, params), analyse_blocked(embs, params, block_rows=13).agreement)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 40), rows=st.integers(1, 50), seed=st.integers(0, 10_000))
def test_blocked_equals_full_property(n: int, rows: int, seed: int) -> None:
    embs = _models(n, seed)
    _assert_same(agreement_full(embs), analyse_blocked(embs, block_rows=rows).agreement)


def test_sparse_embeddings_match_dense() -> None:
    embs = _models(80, seed=5)
    sp = {m: sparse.csr_matrix(np.where(np.abs(E) > 0.8, E, 0.0)) for m, E in embs.items()}
    dense = {m: E.toarray() for m, E in sp.items()}
    _assert_same(agreement_full(dense), analyse_blocked(sp, block_rows=9).agreement)


def test_fractions_partition_the_pairs_and_ddaf_is_asymmetric() -> None:
    ag = analyse_blocked(_models(120), block_rows=17).agreement
    total = ag.paf + ag.naf + ag.ddaf + ag.ddaf.T
    np.testing.assert_allclose(total, 1.0, atol=1e-12)
    assert not np.allclose(ag.ddaf, ag.ddaf.T)
    np.testing.assert_array_equal(np.diag(ag.ddaf), 0.0)
    np.testing.assert_allclose(ag.paf, ag.paf.T)
    # known structure: a and b share a base, c is unrelated
    i = {m: k for k, m in enumerate(ag.models)}
    assert ag.ssm_corr[i["a"], i["b"]] > 0.3 > 0.1 > abs(ag.ssm_corr[i["a"], i["c"]])
    assert ag.paf[i["a"], i["b"]] > ag.paf[i["a"], i["c"]]
    assert ag.ranked_pairs("ssm_corr")[0][:2] == ("a", "b")


def test_stats_exact_against_full_matrix() -> None:
    E = normalise(_models(60)["d"])
    S = E @ E.T
    for params in (SSMParams(), SSMParams(diagonal="include"), SSMParams(ddof=1)):
        a, b = ssm_stats(E, params), ssm_stats_full(S, params)
        assert a.count == b.count
        assert a.mean == pytest.approx(b.mean, abs=1e-12) and a.std == pytest.approx(b.std, abs=1e-12)


def test_series_is_the_first_superdiagonal() -> None:
    E = normalise(_models(40)["a"])
    np.testing.assert_allclose(successive_series(E, ssm_stats(E)), np.diagonal(zscored_ssm(E), 1), atol=1e-12)


def test_pooled_heatmap_equals_tile_means_of_the_full_matrix() -> None:
    E = normalise(_models(97)["b"])
    Z = zscored_ssm(E)
    np.fill_diagonal(Z, np.nan)
    edges = np.unique(np.linspace(0, 97, 11).astype(int))
    expected = np.array(
        [[np.nanmean(Z[a0:a1, b0:b1]) for b0, b1 in itertools.pairwise(edges)] for a0, a1 in itertools.pairwise(edges)]
    )
    got = pooled_zssm(E, ssm_stats(E), 10, memory_mb=0.01)
    np.testing.assert_allclose(got, expected, atol=1e-12)


def test_pooling_blocked_in_the_analysis_pass() -> None:
    embs = _models(50)
    res = analyse_blocked(embs, block_rows=6, pool_size=8)
    E = normalise(embs["c"])
    np.testing.assert_allclose(res.pooled["c"], pooled_zssm(E, ssm_stats(E), 8), atol=1e-12)


def test_degenerate_model_gives_nan_not_a_crash() -> None:
    embs = _models(30)
    embs["same"] = np.ones((30, 5))
    full, blocked = agreement_full(embs), analyse_blocked(embs, block_rows=4).agreement
    k = blocked.models.index("same")
    assert blocked.stats["same"].degenerate
    assert np.isnan(blocked.ssm_corr[k, 0]) and np.isnan(full.ssm_corr[k, 0])
    assert blocked.paf[k].sum() == 0 and blocked.naf[k].sum() == 0
    assert blocked.to_json()["ssm_corr"][k][0] is None


def test_zero_rows_are_allowed() -> None:
    embs = _models(40)
    embs["d"][5] = 0.0
    _assert_same(agreement_full(embs), analyse_blocked(embs, block_rows=3).agreement)


def test_bad_inputs() -> None:
    with pytest.raises(InputError, match="at least 3"):
        analyse_blocked({"a": np.eye(2)})
    with pytest.raises(InputError, match="expected 10"):
        analyse_blocked({"a": np.ones((10, 3)), "b": np.ones((9, 3))})
    with pytest.raises(InputError, match="NaN"):
        analyse_blocked({"a": np.full((5, 3), np.nan)})
    with pytest.raises(InputError, match="no embeddings"):
        analyse_blocked({})
    with pytest.raises(ConfigError):
        SSMParams(diagonal="maybe")


def test_cancel_and_progress() -> None:
    seen: list[tuple[int, int]] = []
    analyse_blocked(_models(30), block_rows=10, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (3, 3)
    ev = threading.Event()
    ev.set()
    with pytest.raises(CancelledError):
        analyse_blocked(_models(30), block_rows=10, cancel=ev)


def test_mean_over_books() -> None:
    a = analyse_blocked(_models(40, 1)).agreement
    b = analyse_blocked(_models(60, 2)).agreement
    mean = mean_agreement([a, b])
    assert mean.books == 2 and mean.method == "mean"
    for name in MATRICES:
        np.testing.assert_allclose(mean.matrix(name), (a.matrix(name) + b.matrix(name)) / 2)
    assert set(mean.to_json()["std"]) == set(MATRICES)


def test_memory_grows_with_block_not_n_squared() -> None:
    """A book whose full matrices would not fit the budget still runs, within the budget."""
    n, k = 3000, 4
    rng = np.random.default_rng(0)
    embs = {f"m{i}": rng.normal(size=(n, 16)).astype(np.float32) for i in range(k)}
    full_bytes = k * n * n * 8  # what the full path holds: one float64 N×N per model
    budget_mb = 8
    tracemalloc.start()
    try:
        res = analyse_blocked(embs, memory_mb=budget_mb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert res.agreement.block_rows == block_rows_for(n, k, budget_mb)
    assert peak < 3 * budget_mb * 2**20 < full_bytes / 10
