"""Who can act (core.foils.rules.animacy): a creature is animate and an animal's part is not; an institution that
acts on a person is not swapped with that person (issue 12, ninth session: judged absurd swaps)."""

from __future__ import annotations

import pytest

from core.foils.parse.dep import DependencyParser
from core.foils.rules import lexicon
from core.foils.rules.animacy import animate_word, group
from core.foils.rules.index import index_for
from core.foils.rules.wordnet_facts import animate_kind, first_animate_kind
from tests.test_rules_defaults import realized

pytestmark = pytest.mark.skipif(not lexicon.wordnet_available(), reason="WordNet not installed: run `make wordnet`")


def test_an_animals_part_or_genus_is_no_creature():
    assert animate_kind("dog.n.01") == "animal" and animate_kind("nurse.n.01") == "person"
    assert animate_kind("police.n.01") == "group"
    assert animate_kind("foreleg.n.01") == "" and animate_kind("hoof.n.01") == ""  # WordNet files both as noun.animal
    assert first_animate_kind("wing") == "" and first_animate_kind("spaniel") == "animal"
    assert animate_kind("no_such.n.01") == ""
    assert animate_word("", "foreleg") is False and animate_word("", "farrier") is True


def test_group_is_an_institution_or_a_group_noun_not_a_person():
    parsed = DependencyParser().parse(["Police in Harlow Creek arrested two men on Tuesday."])[0]
    idx = index_for(parsed)
    by_word = {idx.concepts[v]: v for v in idx.concepts}
    assert group(parsed, idx, by_word["police"], None) is True
    assert group(parsed, idx, by_word["man"], None) is False


def test_rs_does_not_let_a_person_do_what_an_institution_did_to_them():
    police = "Police in Harlow Creek arrested two men on Tuesday."
    court = "The court ordered the landlord to return the deposits."
    foreleg = "The farrier examined the mare's foreleg for a long while."
    nurse = "The nurse examined the patient."
    fans = "The defending champions defeated the debating team from Kellow College."
    got = realized([police, court, foreleg, nurse, fans], ("RS",), "agent-patient")
    assert got[police] == [] and got[court] == []  # "Two men arrested police", "The landlord ordered the court"
    assert got[foreleg] == []  # "The mare's foreleg examined the farrier"
    assert "The patient examined the nurse." in got[nurse]
    assert got[fans]  # a person acting on a group keeps its swap: the team may defeat the champions
