"""Guards of the tenth session's after34 (issue 12), on sentences of our own: only groups of people or animals act
(a pair of shoes does not), a language is no nationality, an institution that gives to people is not swapped with
them, a clock time keeps its "half past", a conjunction keeps its conjunct, and a word the tagger took for a verb
is not negated."""

from __future__ import annotations

import pytest

from core.foils.rules import lexicon
from core.foils.rules.drop_guards import clock_time
from core.foils.rules.index import misagreed
from core.foils.rules.wordnet_facts import animate_kind
from core.types import ParsedSentence, Token
from tests.test_rules_defaults import realized

pytestmark = pytest.mark.skipif(not lexicon.wordnet_available(), reason="WordNet not installed: run `make wordnet`")


def test_only_groups_of_people_or_animals_act():
    assert [animate_kind(s) for s in ("police.n.01", "herd.n.01", "people.n.01", "pair.n.01", "set.n.01")] == [
        "group", "group", "group", "", ""
    ]  # fmt: skip


def test_rs_swaps_neither_a_set_of_things_nor_a_language_nor_a_giving_institution():
    shoes = "We bought three pairs of school shoes in the sale."
    latin = "Nora was sent to a school abroad, where she learned French and made friends."
    bonus = "Halvern Mills gave its workers a bonus of £500 after a record year."
    test = "The teacher gave the students a test."
    got = realized([shoes, latin, bonus, test], ("RS",))
    assert got[shoes] == [] and got[latin] == [] and got[bonus] == []
    assert got[test] == ["The students gave the teacher a test."]  # people giving people still swap


def _tokens(words: str, tags: list[str], deps: list[str], heads: list[int]) -> tuple[Token, ...]:
    return tuple(
        Token(i, w, w.lower(), "X", t, d, h, 0) for i, (w, t, d, h) in enumerate(zip(words.split(), tags, deps, heads, strict=True))
    )


def test_us_keeps_half_past_with_its_hour():
    tokens = _tokens("We met at half past ten", ["PRP", "VBD", "IN", "PDT", "IN", "CD"], ["x"] * 6, [1] * 6)
    sentence = ParsedSentence("We met at half past ten", None, tokens=tokens)
    assert clock_time(sentence, {3}) and clock_time(sentence, {3, 4})
    assert not clock_time(sentence, {2, 3, 4, 5})  # the whole time phrase may go
    meet = "We usually eat at half past seven."
    assert realized([meet], ("US",))[meet] == ["We eat at half past seven."]  # not "We usually eat at past seven."


def test_us_keeps_a_conjunction_with_a_conjunct_after_it():
    got = realized(["Could you check whether the bus leaves at eight or at nine?"], ("US",))
    assert not [f for f in next(iter(got.values())) if f.endswith("or?")]


def test_pn_leaves_a_word_the_tagger_took_for_a_verb():
    words = "his coat damp with rain"
    coat = ParsedSentence(words, None, tokens=_tokens(words, ["PRP$", "NN", "VBP", "IN", "NN"],
                                                      ["poss", "nsubj", "conj", "prep", "pobj"], [1, 2, 2, 2, 3]))
    assert misagreed(coat, coat.tokens[2])  # "his coat do not damp"
    words = "why does the cat sleep"
    cat = ParsedSentence(words, None, tokens=_tokens(words, ["WRB", "VBZ", "DT", "NN", "VBP"],
                                                     ["advmod", "aux", "det", "nsubj", "ROOT"], [4, 4, 3, 4, 4]))
    assert not misagreed(cat, cat.tokens[4])  # under "does" the tagger's VBP is a base form
