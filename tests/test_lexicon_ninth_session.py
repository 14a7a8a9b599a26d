"""Lexicon entries of the ninth session (issue 12), each for a failure judged on two or more sets: a product recall
is no act of memory, "ill" is no adverb of manner, and four hypernyms name the same person or a technical class."""

from __future__ import annotations

import pytest

from core.foils.rules import lexicon
from core.foils.rules.hypernyms import sense_hypernyms
from tests.test_rules_defaults import realized

pytestmark = pytest.mark.skipif(not lexicon.wordnet_available(), reason="WordNet not installed: run `make wordnet`")


def test_ar_leaves_a_product_recall_alone_but_not_a_memory():
    vans = "Halvorsen Motors has recalled 12,000 vans because of a fault in the brakes."
    name = "He could not recall her name."
    got = realized([vans, name], ("AR",))
    assert not [f for f in got[vans] if "forgot" in f]  # "has forgotten 12,000 vans"
    assert "He could not forget her name." in got[name]


def test_ar_does_not_turn_well_into_ill():
    dined = "Mr. Pendleworth had dined too well and spoken too freely."
    assert not [f for f in realized([dined], ("AR",))[dined] if "too ill" in f]


def test_hs_never_offers_a_near_synonym_or_technical_class_for_these_people_and_things():
    assert "trainer" not in [c.lemma for c in sense_hypernyms("coach.n.01", "coach")]
    assert "beneficiary" not in [c.lemma for c in sense_hypernyms("pensioner.n.01", "pensioner")]
    assert "customer" not in [c.lemma for c in sense_hypernyms("buyer.n.01", "buyer")]
    assert "regulator" not in [c.lemma for c in sense_hypernyms("thermostat.n.01", "thermostat")]
    assert [c.lemma for c in sense_hypernyms("cousin.n.01", "cousin")] == ["relative"]  # others stay
