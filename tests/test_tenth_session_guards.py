"""Guards of the tenth session (issue 12, after32), each pinned on sentences of our own: "no" never quantifies an
ordinal or superlative noun phrase, un-negation keeps the minimiser "a single", AR neither repeats a word the
sentence already holds nor replaces a modal's concept, US keeps "arm in arm" whole, and RS never swaps a
parenthetical clause."""

from __future__ import annotations

import pytest

from core.foils.rules import lexicon
from core.foils.rules.wordnet_facts import sense_words
from tests.test_rules_defaults import realized

pytestmark = pytest.mark.skipif(not lexicon.wordnet_available(), reason="WordNet not installed: run `make wordnet`")


def test_pn_determiner_leaves_ordinal_and_superlative_phrases_alone():
    last, best, boy = "The last guests left the party early.", "The best players missed the final.", "A boy found the key."
    got = realized([last, best, boy], ("PN",))
    assert got[last] == ["The last guests did not leave the party early."]  # not "No last guests left"
    assert got[best] == ["The best players did not miss the final."]  # not "No best players missed"
    assert "No boy found the key." in got[boy]  # an ordinary subject still takes "no"


def test_pn_does_not_unnegate_a_clause_with_a_single():
    name = "No one could name a single winner of the prize."
    assert realized([name], ("PN",))[name] == []  # not "Someone could name a single winner"


def test_sense_words_reads_a_comparative_adjective_by_its_senses():
    assert "older" in sense_words("elder", "a")
    assert "older" not in sense_words("young", "a")


def test_ar_never_names_what_another_word_of_the_sentence_already_means():
    elder = "The elder brother was taller than the younger."
    young = "The young brother was taller than his sister."
    got = realized([elder, young], ("AR",))
    assert got[elder] == ["The elder brother was shorter than the younger."]  # not "taller than the older"
    assert "The old brother was taller than his sister." in got[young]  # nothing else in it means "old"


def test_ar_leaves_the_concept_of_a_modal_written_as_another_word_alone():
    able = "She will be able to come tomorrow."
    assert realized([able], ("AR",))[able] == []  # possible-01 from "able to": not "will be impossible to come"


def test_us_keeps_a_noun_preposition_noun_pair_whole():
    church = "The two old friends walked to church arm in arm."
    got = realized([church], ("US",))[church]
    assert got == ["The two friends walked to church arm in arm."]  # not "walked to church arm", "walked to arm in arm"


def test_rs_never_swaps_a_parenthetical_clause():
    aside = "Although Tom had promised to keep quiet, he admitted, before dinner was served, that he had told his sister everything."
    plain = "Although Tom had promised to keep quiet, he told his sister everything."
    got = realized([aside, plain], ("RS",))
    assert got[aside] == []  # not "Although he admitted, Tom had promised to keep quiet, before dinner ..."
    assert got[plain] == ["Although he told his sister everything, Tom had promised to keep quiet."]


def test_hs_offers_no_politician_for_a_campaigner_and_no_fabric_for_a_towel():
    from core.foils.rules.hypernyms import sense_hypernyms

    assert sense_hypernyms("campaigner.n.01", "campaigner") == []  # WordNet knows only the candidate sense
    assert sense_hypernyms("towel.n.01", "towel") == []  # "a load of fabrics": a piece of cloth is no fabric
    assert [c.lemma for c in sense_hypernyms("mayor.n.01", "mayor")] == ["politician"]  # the other sense stays
