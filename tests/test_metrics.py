"""Metrics on hand-computed cases: perfect separation, all ties, reversed, mixed; bootstrap; Spearman; Jaccard."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import InputError
from core.evaluate.metrics import (
    bootstrap_ci,
    bootstrap_triplet,
    count_ties,
    harmonic_mean,
    jaccard,
    jaccard_divergence,
    roc_auc,
    spearman,
    triplet_accuracy,
    triplet_scores,
    words,
)


def test_perfect_separation():
    sp, sn = [0.9, 0.8, 0.7], [0.1, 0.2, 0.3]
    assert triplet_scores(sp, sn) == {"tacc": 1.0, "auc": 1.0, "hm": 1.0}


def test_all_ties_under_each_policy():
    sp = sn = [0.5, 0.5, 0.5, 0.5]
    assert triplet_accuracy(sp, sn) == 0.0  # strict: the paper
    assert triplet_accuracy(sp, sn, ties="lenient") == 1.0  # the released notebook's >=
    assert triplet_accuracy(sp, sn, ties="half") == 0.5
    assert roc_auc(sp, sn) == 0.5
    assert triplet_scores(sp, sn)["hm"] == 0.0
    assert count_ties(sp, sn) == 4


def test_reversed():
    assert triplet_scores([0.1, 0.2], [0.9, 0.8]) == {"tacc": 0.0, "auc": 0.0, "hm": 0.0}


def test_mixed_by_hand():
    sp, sn = [0.9, 0.4, 0.6], [0.5, 0.5, 0.6]
    # wins: 0.9>0.5 yes, 0.4>0.5 no, 0.6==0.6 tie
    assert triplet_accuracy(sp, sn) == pytest.approx(1 / 3)
    assert triplet_accuracy(sp, sn, ties="half") == pytest.approx(1.5 / 3)
    # AUC: 0.9 beats all 3; 0.4 beats none; 0.6 beats 0.5, 0.5 and ties 0.6 -> (3 + 0 + 2.5) / 9
    assert roc_auc(sp, sn) == pytest.approx(5.5 / 9)
    tacc, auc = 1 / 3, 5.5 / 9
    assert triplet_scores(sp, sn)["hm"] == pytest.approx(2 * tacc * auc / (tacc + auc))


def test_harmonic_mean():
    assert harmonic_mean(0.5, 0.5) == 0.5
    assert harmonic_mean(1.0, 0.0) == 0.0
    assert harmonic_mean(0.8, 0.6) == pytest.approx(0.96 / 1.4)


@pytest.mark.parametrize(
    ("sp", "sn", "hint"),
    [([0.1, 0.2], [0.3], "length"), ([], [], "no triples"), ([0.1, float("nan")], [0.2, 0.3], "NaN")],
)
def test_bad_input_is_a_clear_error(sp, sn, hint):
    with pytest.raises(InputError) as err:
        triplet_accuracy(sp, sn)
    assert hint.lower() in str(err.value).lower()


def test_unknown_tie_policy():
    with pytest.raises(InputError, match="tie policy"):
        triplet_accuracy([1], [0], ties="sometimes")


def test_vectorised_bootstrap_equals_generic_bootstrap():
    rng = np.random.default_rng(0)
    sp = np.round(rng.random(300), 2)  # rounding makes ties, the hard case for AUC
    sn = np.round(rng.random(300) * 0.9, 2)
    fast = bootstrap_triplet(sp, sn, n_boot=200, seed=7)
    assert fast["tacc"] == pytest.approx(bootstrap_ci(triplet_accuracy, sp, sn, n_boot=200, seed=7), abs=1e-12)
    assert fast["auc"] == pytest.approx(bootstrap_ci(roc_auc, sp, sn, n_boot=200, seed=7), abs=1e-12)

    def hm(p, n):
        return harmonic_mean(triplet_accuracy(p, n), roc_auc(p, n))

    assert fast["hm"] == pytest.approx(bootstrap_ci(hm, sp, sn, n_boot=200, seed=7), abs=1e-12)


def test_bootstrap_is_seeded_and_brackets_the_estimate():
    rng = np.random.default_rng(1)
    sp, sn = rng.random(200) + 0.2, rng.random(200)
    a = bootstrap_triplet(sp, sn, n_boot=300, seed=3)
    assert a == bootstrap_triplet(sp, sn, n_boot=300, seed=3)
    assert a != bootstrap_triplet(sp, sn, n_boot=300, seed=4)
    lo, hi = a["tacc"]
    assert lo <= triplet_accuracy(sp, sn) <= hi
    assert bootstrap_triplet([0.9] * 5, [0.1] * 5, n_boot=50, seed=0)["auc"] == (1.0, 1.0)


def test_spearman_by_hand():
    # d = (0, 1, 1, 0): rho = 1 - 6 * 2 / (4 * 15) = 0.8
    assert spearman([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    assert np.isnan(spearman([1, 1, 1], [1, 2, 3]))
    with pytest.raises(InputError):
        spearman([1, 2], [1, 2, 3])


def test_words_and_jaccard():
    assert words("The cat, the HAT!") == ["the", "cat", "the", "hat"]
    # sets {the, cat, sat} and {the, cat, ran}: 2 shared of 4
    assert jaccard("The cat sat.", "the cat ran") == 0.5
    assert jaccard_divergence("The cat sat.", "the cat ran") == 0.5
    assert jaccard("", "") == 1.0
    assert jaccard_divergence("a", "") == 1.0
    assert jaccard("Über Köln", "über köln") == 1.0
