"""CLSD metrics on synthetic vectors: strict P@1, pooled recall@1, overlaps, Levenshtein bins, similarity change."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.clsd.metrics import (
    SwapScore,
    bin_label,
    build_pool,
    cosine_table,
    error_overlap,
    levenshtein_bins,
    levenshtein_ratio,
    p_at_1,
    pooled_recall_at_1,
    pos_table,
    similarity_change,
    winners,
)
from core.errors import InputError


def unit(*v: float) -> np.ndarray:
    a = np.array(v, dtype=np.float32)
    return a / np.linalg.norm(a)


def test_strict_p_at_1_fails_ties_and_identical_vectors():
    src = np.stack([unit(1, 0, 0), unit(0, 1, 0)])
    cands = np.stack(
        [
            np.stack([unit(1, 0.1, 0), unit(1, 0.5, 0), unit(0, 0, 1)]),  # target closest: correct
            np.stack([unit(0, 1, 0), unit(0, 1, 0), unit(1, 0, 0)]),  # a distractor identical to the target: tie
        ]
    )
    table = cosine_table(src, cands)
    assert p_at_1(table).tolist() == [True, False]
    assert p_at_1(table, ties="pass").tolist() == [True, True]
    assert winners(table).tolist() == [-1, 0]
    with pytest.raises(InputError):
        p_at_1(table, ties="maybe")
    with pytest.raises(InputError, match="shape mismatch"):
        cosine_table(src, cands[:, :, :2])


def test_winner_is_the_highest_distractor_not_a_fixed_column():
    table = np.array([[0.5, 0.1, 0.9, 0.6], [0.5, 0.7, 0.2, 0.1]])
    assert winners(table).tolist() == [1, 0]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_p_at_1_ignores_distractor_order(seed):
    rng = np.random.default_rng(seed)
    table = rng.normal(size=(20, 5))
    perm = np.concatenate([[0], 1 + rng.permutation(4)])
    assert (p_at_1(table) == p_at_1(table[:, perm])).all()


def test_pooled_recall_matches_brute_force():
    rng = np.random.default_rng(3)
    texts = [[f"t{i}", f"d{i}a", f"d{i}b"] for i in range(12)]
    texts[5][1] = "t2"  # a distractor of row 5 is row 2's target: pooled once
    pool, gold = build_pool(texts)
    assert len(pool) == 12 * 3 - 1 and pool[gold[2]] == "t2"
    vecs = {t: rng.normal(size=8) for t in pool}
    src = np.stack([vecs[row[0]] + rng.normal(scale=0.8, size=8) for row in texts])
    pool_m = np.stack([vecs[t] for t in pool])
    got = pooled_recall_at_1(src, pool_m, gold, chunk=5)
    s = src / np.linalg.norm(src, axis=1, keepdims=True)
    p = pool_m / np.linalg.norm(pool_m, axis=1, keepdims=True)
    expected = [int(np.argmax(s[i] @ p.T)) == gold[i] for i in range(len(texts))]
    assert got.tolist() == expected


def test_error_overlap_between_runs():
    a = {"1": False, "2": False, "3": True, "4": True}
    b = {"1": False, "2": True, "3": False, "4": True, "5": False}
    r = error_overlap(a, b)
    assert (r["n"], r["a_wrong"], r["b_wrong"], r["both_wrong"]) == (4, 2, 2, 1)
    assert r["jaccard"] == pytest.approx(1 / 3) and r["both_wrong_ids"] == ["1"]
    assert math.isnan(error_overlap({"1": True}, {"1": True})["jaccard"])


def test_levenshtein_ratio_and_bins():
    assert levenshtein_ratio("abcd", "abcd") == 1.0
    assert levenshtein_ratio("abcd", "abxd") == 0.75
    assert [bin_label(x) for x in (0.0, 0.3, 0.59, 0.6, 0.85, 0.9, 0.999, 1.0)] == [
        "<0.3", "[0.3,0.6)", "[0.3,0.6)", "[0.6,0.7)", "[0.8,0.9)", "[0.9,1.0)", "[0.9,1.0)", ">=1.0",
    ]


def test_bins_count_the_distractor_that_won():
    target = "abcdefghij"
    near = "abcdefghiX"  # ratio 0.9
    far = "abcdeXXXXX"  # ratio 0.5
    rows = [(target, (far, near)), (target, (far, near)), (target, (far, near))]
    # row 0: the far distractor won; row 1: the near one; row 2: correct
    bins = {b["bin"]: b for b in levenshtein_bins([t for t, _ in rows], [d for _, d in rows], [0, 1, -1])}
    assert bins["[0.3,0.6)"]["distractors"] == 3 and bins["[0.3,0.6)"]["successful"] == 1
    assert bins["[0.9,1.0)"]["successful"] == 1
    assert bins["[0.9,1.0)"]["share"] == pytest.approx(1 / 3)
    assert bins["[0.3,0.6)"]["share_of_successes"] == pytest.approx(0.5)
    # a fixed-column analysis (the notebook's bug) would have put both successes in one bin
    assert sum(b["successful"] for b in bins.values()) == 2


def test_similarity_change_and_pos_table():
    cross, mono = similarity_change(np.array([0.8, 0.5]), np.array([0.4, 0.5]), np.array([0.9, 0.7]))
    assert cross.tolist() == pytest.approx([0.5, 0.0]) and mono.tolist() == pytest.approx([0.1, 0.3])
    scores = [
        SwapScore("0", 0, "a", "b", "NOUN", 0.1, 0.2, True),
        SwapScore("1", 0, "a", "b", "NOUN", 0.2, 0.3, False),
        SwapScore("2", 0, "a", "b", "NOUN", 0.3, 0.5, False),
        SwapScore("3", 1, "a", "b", "VERB", 0.0, 0.1, True),
    ]
    table = {r["pos"]: r for r in pos_table(scores)}
    assert table["NOUN"]["n"] == 3 and table["NOUN"]["won_share"] == pytest.approx(1 / 3)
    assert table["NOUN"]["pearson"] == pytest.approx(np.corrcoef([0.1, 0.2, 0.3], [0.2, 0.3, 0.5])[0, 1])
    assert math.isnan(table["VERB"]["pearson"])  # one swap: no correlation
    assert table["ALL"]["n"] == 4 and table["ALL"]["won"] == 2
