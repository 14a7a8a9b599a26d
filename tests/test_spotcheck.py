"""Spot checks on real embedders: margins, the fooled flag and its tie policy, errors as values."""

from __future__ import annotations

import threading
from typing import ClassVar

import numpy as np
import pytest

from core.errors import CancelledError
from core.evaluate.spotcheck import check_model, fooled_count, iter_spot_checks, spot_check

SOURCE = "The dog bit the man."
PARAPHRASE = "The man was bitten by the dog."
SWAP = "The man bit the dog."  # role swap: the same words
NEG = "The dog did not bite the man."


@pytest.fixture(scope="module")
def lexical():
    from core.embed.registry import get_embedder

    return {"bow": get_embedder("bow"), "tfidf": get_embedder("tfidf")}


@pytest.fixture(scope="module")
def minilm():
    from core.embed.registry import get_embedder

    return get_embedder("minilm")


def test_bag_of_words_cannot_see_a_role_swap(lexical) -> None:
    swap, neg = check_model(lexical["bow"], SOURCE, [SWAP, NEG])
    assert swap.reference == "original" and swap.sim_reference == pytest.approx(1.0)
    assert swap.fooled and swap.margin == pytest.approx(0.0, abs=1e-6)  # a tie counts as fooled
    assert not neg.fooled and neg.margin > 0


def test_paraphrase_is_the_reference_when_given(lexical) -> None:
    (swap,) = check_model(lexical["bow"], SOURCE, [SWAP], PARAPHRASE)
    assert swap.reference == "paraphrase"
    # the swap shares every word with the source, the passive paraphrase does not
    assert swap.sim_foil > swap.sim_reference and swap.fooled and swap.margin < 0
    blank = check_model(lexical["bow"], SOURCE, [SWAP], "   ")
    assert blank[0].reference == "original"


def test_tfidf_is_fitted_per_check_on_a_copy(lexical) -> None:
    tfidf = lexical["tfidf"]
    before = getattr(tfidf, "_df", None)
    first = check_model(tfidf, SOURCE, [NEG])[0]
    again = check_model(tfidf, SOURCE, [NEG])[0]
    other = check_model(tfidf, "Cats sleep all day long.", ["Cats never sleep all day long."])[0]
    assert first.sim_foil == pytest.approx(again.sim_foil)
    assert getattr(tfidf, "_df", None) is before  # the shared embedder is untouched
    assert other.ok and 0 < other.sim_foil < 1


def test_minilm_separates_negation_better_than_bow(lexical, minilm) -> None:
    checks = spot_check({"bow": lexical["bow"], "minilm": minilm}, SOURCE, [SWAP, NEG], PARAPHRASE)
    assert set(checks) == {"bow", "minilm"}
    m_swap, _m_neg = checks["minilm"]
    assert -1.0 <= m_swap.sim_foil <= 1.0 and m_swap.sim_reference > 0.8
    assert m_swap.margin == pytest.approx(m_swap.sim_reference - m_swap.sim_foil)
    assert fooled_count(checks, 0) >= 1  # bow at least is fooled by the swap


def test_a_failing_model_is_reported_not_raised(lexical) -> None:
    class Broken:
        name = "broken"
        info: ClassVar[dict] = {}

        def encode(self, texts):
            raise RuntimeError("weights are corrupt")

    class Short:
        name = "short"
        info: ClassVar[dict] = {}

        def encode(self, texts):
            return np.ones((1, 3), dtype=np.float32)

    checks = spot_check({"broken": Broken(), "short": Short(), "bow": lexical["bow"]}, SOURCE, [SWAP, NEG])
    assert all(not c.ok and "corrupt" in c.error for c in checks["broken"])
    assert all(not c.ok and "vectors" in c.error for c in checks["short"])
    assert all(c.ok for c in checks["bow"])
    assert fooled_count(checks, 1) == 0


def test_no_foils_and_cancel(lexical) -> None:
    assert check_model(lexical["bow"], SOURCE, []) == []
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(CancelledError):
        list(iter_spot_checks(lexical, SOURCE, [NEG], cancel=cancel))
    seen = []
    list(iter_spot_checks(lexical, SOURCE, [NEG], progress=lambda d, t: seen.append((d, t))))
    assert seen == [(1, 2), (2, 2)]
