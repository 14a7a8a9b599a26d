"""core.foils.rules.lexicon against the real WordNet 3.0 (project-local .nltk_data, see `make wordnet`)."""

from __future__ import annotations

import pytest

from core.foils.rules import antonyms as antonym_search
from core.foils.rules import hypernyms as hypernym_search
from core.foils.rules import lexicon
from core.foils.rules.antonyms import antonyms
from core.foils.rules.hypernyms import hypernyms
from core.foils.rules.lexicon import Candidate, wn_pos

needs_wordnet = pytest.mark.skipif(not lexicon.wordnet_available(), reason="WordNet not installed: run `make wordnet`")


def lemmas(cands: list[Candidate]) -> list[str]:
    return [c.lemma for c in cands]


@needs_wordnet
@pytest.mark.parametrize(
    ("word", "pos", "expected"),
    [
        ("happy", "ADJ", ["unhappy"]),
        ("good", "ADJ", ["bad"]),  # "evil" answers a rare sense (good.a.03): only frequent senses count
        ("old", "ADJ", ["young", "new"]),
        ("win", "VERB", ["lose"]),
        ("remember", "VERB", ["forget"]),
        ("possible", "ADJ", ["impossible"]),
    ],
)
def test_direct_antonyms_ranked_by_sense_frequency(word, pos, expected):
    assert lemmas(antonyms(word, pos)) == expected


@needs_wordnet
def test_antonym_candidate_fields_and_score_order():
    [first, second] = antonyms("old", "ADJ")
    assert first == Candidate("young", "young.a.01", 108)
    assert second.synset == "new.a.01"
    assert first.score >= second.score


@needs_wordnet
def test_satellite_adjectives_reach_antonyms_through_their_head():
    # "huge" is only a satellite of large.a.01, whose lemmas' antonyms are small / little
    assert lemmas(antonyms("huge", "ADJ"))[:2] == ["small", "little"]
    assert lemmas(antonyms("quick", "ADJ"))[0] == "slow"


@needs_wordnet
def test_derivational_antonyms_for_words_without_a_direct_one():
    # "winner" has a direct antonym; an adverb whose adjective has one is reached via its pertainym
    assert lemmas(antonyms("winner", "NOUN")) == ["loser"]
    assert "slowly" in lemmas(antonyms("quickly", "ADV"))


@needs_wordnet
@pytest.mark.parametrize(
    ("word", "pos"),
    [("chase", "VERB"), ("cat", "NOUN"), ("mouse", "NOUN"), ("she", "PRON"), ("the", "DET"), ("", "ADJ")],
)
def test_no_antonym_means_empty(word, pos):
    assert antonyms(word, pos) == []


@needs_wordnet
@pytest.mark.parametrize(
    ("word", "pos", "first"),
    [
        ("cat", "NOUN", "feline"),
        ("snake", "NOUN", "reptile"),  # diapsid (never in the tagged corpus) is walked through
        ("team", "NOUN", "organization"),  # "unit" and "group" are abstract (issue 12)
        ("house", "NOUN", "building"),
        ("chase", "VERB", "pursue"),
    ],
)
def test_hypernyms_first_choice(word, pos, first):
    assert lemmas(hypernyms(word, pos))[0] == first


@needs_wordnet
def test_hypernyms_walk_to_readable_levels_and_skip_abstract_tops():
    assert lemmas(hypernyms("bus", "NOUN")) == ["public transport", "transport"]  # multi-word with a space
    assert hypernyms("postman", "NOUN") == []  # "delivery boy" is far (FAR_SYNSETS) and not walked through
    assert "solid food" not in lemmas(hypernyms("bread", "NOUN"))
    assert "diapsid" not in lemmas(hypernyms("snake", "NOUN"))
    for word in ("cat", "snake", "idea", "person", "team"):
        for cand in hypernyms(word, "NOUN"):
            assert cand.synset not in hypernym_search.ABSTRACT_SYNSETS
            assert cand.lemma not in {"entity", "object", "whole", "abstraction", "physical entity"}
    assert hypernyms("person", "NOUN") == []  # everything above person is too abstract


@needs_wordnet
def test_hypernyms_for_adjectives_and_unknown_words_are_empty():
    assert hypernyms("happy", "ADJ") == []
    assert hypernyms("qwzxv", "NOUN") == []
    assert hypernyms("cat", "DET") == []


@needs_wordnet
def test_lookups_are_cached_and_return_fresh_lists():
    first = hypernyms("cat", "NOUN")
    first.append(Candidate("x", "x", 0))
    assert Candidate("x", "x", 0) not in hypernyms("cat", "NOUN")
    assert hypernym_search._hypernyms.cache_info().hits >= 1


@needs_wordnet
def test_lexicon_info_names_version_and_path():
    info = lexicon.lexicon_info()
    assert info["wordnet_version"] == "3.0"


def test_wn_pos_mapping():
    assert [wn_pos(p) for p in ("ADJ", "NOUN", "PROPN", "VERB", "AUX", "ADV", "s", "noun", "PRON")] == [
        "a",
        "n",
        "n",
        "v",
        "v",
        "r",
        "a",
        "n",  # case-insensitive
        None,
    ]


def test_missing_wordnet_raises_model_missing_with_the_fix(tmp_path, monkeypatch):
    import nltk.corpus
    import nltk.data
    from nltk.corpus.reader import WordNetCorpusReader
    from nltk.corpus.util import LazyCorpusLoader

    from core.errors import ModelMissingError

    monkeypatch.setattr(nltk.data, "path", [])
    monkeypatch.setattr(nltk.corpus, "wordnet", LazyCorpusLoader("wordnet", WordNetCorpusReader, None))
    monkeypatch.setattr(lexicon, "PROJECT_NLTK_DATA", tmp_path)
    monkeypatch.setattr(lexicon, "_WN", None)
    monkeypatch.setenv("NLTK_DATA", str(tmp_path))
    with pytest.raises(ModelMissingError) as info:
        lexicon.wordnet()
    assert str(info.value).startswith("WordNet is not installed")
    assert "make wordnet" in info.value.hint and "nltk.download('wordnet')" in info.value.hint
    assert not lexicon.wordnet_available()


def test_nltk_data_env_is_searched(tmp_path, monkeypatch):
    monkeypatch.setenv("NLTK_DATA", str(tmp_path))
    path = lexicon._search_path()
    assert path[0] == str(lexicon.PROJECT_NLTK_DATA)
    assert path[1] == str(tmp_path)


@needs_wordnet
def test_antonyms_come_from_frequent_senses_and_readable_words():
    # red -> achromatic (colour cluster head) and bloodless (a rare sense) are no antonyms a reader accepts
    assert antonyms("red", "ADJ") == []
    assert lemmas(antonyms("new", "ADJ")) == ["old"]  # not "worn" (never in the tagged corpus)


@needs_wordnet
def test_verb_hypernyms_are_common_non_light_verbs_with_the_same_transitivity():
    # chase -> go ("The cat went the mouse") is intransitive and light; pursue takes an object
    assert lemmas(hypernyms("chase", "VERB", transitive=True)) == ["pursue"]
    assert hypernyms("chase", "VERB", transitive=False) == []
    assert "speak" not in lemmas(hypernyms("deliver", "VERB", transitive=True))  # "delivered the letters"
    assert "speak" in lemmas(hypernyms("deliver", "VERB", transitive=False))
    treat = lemmas(hypernyms("treat", "VERB", transitive=True))
    assert "interact" not in treat and "act" not in treat
    for verb in ("win", "build", "appear", "live", "make"):
        assert not set(lemmas(hypernyms(verb, "VERB"))) & {"be", "get", "make", "change", "go", "act"}


def test_concurrent_queries_from_worker_threads_agree_with_sequential_ones():
    # nltk's WordNet reader shares file handles: the workbench's parse and generate workers used to
    # read each other's lines ("WordNetError: line '02535093 41 v 02 chase ...'").
    from concurrent.futures import ThreadPoolExecutor

    words = [("chase", "VERB"), ("old", "ADJ"), ("team", "NOUN"), ("win", "VERB"), ("happy", "ADJ"),
             ("deliver", "VERB"), ("letter", "NOUN"), ("doctor", "NOUN"), ("quickly", "ADV"), ("buy", "VERB"),
             ("river", "NOUN"), ("young", "ADJ"), ("remember", "VERB"), ("bridge", "NOUN"), ("sell", "VERB")]  # fmt: skip

    def query(item):
        lemma, pos = item
        return [c.lemma for c in antonym_search.antonyms(lemma, pos)], [
            c.lemma for c in hypernym_search.hypernyms(lemma, pos)
        ]

    lexicon.clear_cache()
    with ThreadPoolExecutor(max_workers=8) as pool:
        concurrent = list(pool.map(query, words * 4))
    lexicon.clear_cache()
    sequential = [query(item) for item in words * 4]
    assert concurrent == sequential


def test_word_frequency_table_agrees_with_nltk_sense_counts():
    # The table (from cntlist.rev, keys of existing senses only) must say what summing Lemma counts
    # over wn.lemmas(word) says, without loading synsets. The oracle counts each sense once: nltk
    # can list a lemma twice when morphy finds two base forms of one word ("cutlass", "cutlas").
    import random

    wn = lexicon.wordnet()
    names = sorted(wn._lemma_pos_offset_map)
    words = [*random.Random(5).sample(names, 400), "several", "floating", "feline", "diapsid", "geese", "Dog"]
    for word in words:
        unique = {lem.key(): lem for lem in wn.lemmas(lexicon._key(word))}
        expected = sum(lexicon.sense_count(lem) for lem in unique.values())
        assert lexicon.word_frequency(word) == expected, word


def test_word_frequency_falls_back_to_nltk_without_index_sense(monkeypatch):
    monkeypatch.setattr(lexicon, "_WORD_COUNTS", None)
    lexicon._word_frequency_from_synsets.cache_clear()
    assert lexicon.word_frequency("feline") > 0 and lexicon.word_frequency("diapsid") == 0
