"""The aligned realizer: exact foils for the worked examples (real parser + rules) and surface grammar cases.

Two kinds of fixtures: end-to-end (``DependencyParser`` → ``enumerate_edits`` → ``AlignedRealizer``)
for the sentences of ``docs/foil-examples.md``, and hand-aligned spaCy parses for surface cases the
rules may not happen to produce (contractions, agreement, pronoun case, commas, casing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial as _partial

import penman
import pytest

from core.foils.realize.aligned import AlignedRealizer
from core.foils.realize.morph import agree_verb, indefinite_article, inflect
from core.foils.rules import edits as _rules
from core.foils.rules.lexicon import LexicalOptions
from core.protocols import Generator
from core.types import Edit, ParsedSentence, Realization, Token

# These tests pin the first round's rule behaviour (the released code's variants included, and AR/HS words
# whose sense the vectors barely decide: "won the final", "old postmen"); the new defaults are tested in
# tests/test_rules_defaults.py.
enumerate_edits = _partial(
    _rules.enumerate_edits, variants=_rules.RELEASED_VARIANTS, lexical=LexicalOptions(sense_margin=0.0)
)

REALIZER = AlignedRealizer()


# ---------------------------------------------------------------- end-to-end fixtures


@pytest.fixture(scope="session")
def parser():
    from core.foils.parse.dep import DependencyParser

    return DependencyParser()


@pytest.fixture(scope="session")
def examples(parser) -> dict[str, ParsedSentence]:
    sentences = [
        "The cat chased the mouse.",
        "She is happy because her team won the final.",
        "The letters were delivered by two old postmen.",
        "He cannot remember her name.",
    ]
    return {p.text: p for p in parser.parse(sentences)}


def _concepts(parsed: ParsedSentence) -> dict[str, str]:
    return {v: str(c) for v, _, c in parsed.graph.instances()}


def find_edit(parsed: ParsedSentence, rule: str, **want: object) -> Edit:
    """The enumerated edit of ``rule`` whose nodes have the given concepts / details."""

    concepts = _concepts(parsed)
    found = []
    for edit in enumerate_edits(parsed, rules=(rule,)).get(rule, []):
        d = edit.details
        if "node" in want and concepts.get(d.get("node")) != want["node"]:
            continue
        if "pair" in want and {concepts.get(d.get("a")), concepts.get(d.get("b"))} != set(want["pair"]):
            continue
        if "event" in want and concepts.get(d.get("event")) != want["event"]:
            continue
        if any(k in want and d.get(k) != want[k] for k in ("action", "new_lemma")):
            continue
        if "variant" in want and edit.variant != want["variant"]:
            continue
        found.append(edit)
    assert found, f"no {rule} edit matching {want} for {parsed.text!r}"
    return found[0]


def test_the_docs_hs_example_is_a_deliberate_departure(examples):
    """foil-examples.md shows "her team" -> "her unit"; judged by hand, hypernyms of groups and institutions
    ("the organization", "the gathering") were mostly not usable, so HS leaves group nouns alone (docs/foil-rules.md)."""
    parsed = examples["She is happy because her team won the final."]
    assert [e.description for e in enumerate_edits(parsed, rules=("HS",))["HS"] if "team" in e.description] == []


FOIL_EXAMPLES = [
    # (sentence, rule, selector, expected foil)
    ("The cat chased the mouse.", "PN", {"node": "chase-01", "action": "negate"}, "The cat did not chase the mouse."),
    ("The cat chased the mouse.", "RS", {"pair": ("cat", "mouse")}, "The mouse chased the cat."),
    ("The cat chased the mouse.", "US", {"node": "mouse"}, "The cat chased."),
    ("The cat chased the mouse.", "HS", {"node": "cat", "new_lemma": "feline"}, "The feline chased the mouse."),
    (
        "She is happy because her team won the final.",
        "PN",
        {"node": "happy-01", "action": "negate"},
        "She is not happy because her team won the final.",
    ),
    (
        "She is happy because her team won the final.",
        "PN",
        {"node": "win-01", "action": "negate"},
        "She is happy because her team did not win the final.",
    ),
    (
        "She is happy because her team won the final.",
        "RS",
        {"pair": ("team", "final")},
        "She is happy because the final won her team.",
    ),
    (
        "She is happy because her team won the final.",
        "AR",
        {"node": "happy-01", "new_lemma": "unhappy"},
        "She is unhappy because her team won the final.",
    ),
    (
        "She is happy because her team won the final.",
        "AR",
        {"node": "win-01", "new_lemma": "lose"},
        "She is happy because her team lost the final.",
    ),
    (
        "The letters were delivered by two old postmen.",
        "PN",
        {"node": "deliver-01", "action": "negate"},
        "The letters were not delivered by two old postmen.",
    ),
    (
        # the doc allows re-chosen determiners ("The two old postmen were delivered by letters."); ours keeps them
        "The letters were delivered by two old postmen.",
        "RS",
        {"pair": ("postman", "letter"), "variant": "agent-patient-any"},
        "Two old postmen were delivered by the letters.",
    ),
    (
        "The letters were delivered by two old postmen.",
        "US",
        {"node": "old"},
        "The letters were delivered by two postmen.",
    ),
    (
        "The letters were delivered by two old postmen.",
        "AR",
        {"node": "old", "new_lemma": "young"},  # old.a.01, "(used especially of persons)": postmen are persons
        "The letters were delivered by two young postmen.",  # as ../shared/docs/foil-examples.md has it
    ),
    ("He cannot remember her name.", "PN", {"node": "possible-01", "action": "unnegate"}, "He can remember her name."),
    ("He cannot remember her name.", "RS", {"pair": ("he", "she")}, "She cannot remember his name."),
    (
        "He cannot remember her name.",
        "AR",
        {"node": "remember-01", "new_lemma": "forget"},
        "He cannot forget her name.",
    ),
]


def test_postmen_are_no_delivery_boys(examples):
    """mailman.n.01's only hypernym, deliveryman.n.01 ("delivery boy"), was judged no kind above postmen (issue 12):
    it is a FAR_SYNSETS entry, so HS leaves the postmen alone rather than walk on to "employee"."""
    edits = enumerate_edits(examples["The letters were delivered by two old postmen."], rules=("HS",))["HS"]
    assert not [e for e in edits if "postman" in e.description]


@pytest.mark.parametrize(("sentence", "rule", "selector", "expected"), FOIL_EXAMPLES)
def test_foil_examples_end_to_end(examples, sentence, rule, selector, expected):
    edit = find_edit(examples[sentence], rule, **selector)
    [result] = REALIZER.generate([edit])
    assert result.error is None, result.error
    assert result.text == expected
    assert result.generator == "aligned"
    assert result.changed_spans, "a foil must say where it changed"


def test_clause_swap_moves_whole_clauses(examples):
    edit = find_edit(examples["She is happy because her team won the final."], "RS", pair=("win-01", "happy-01"))
    assert REALIZER.generate([edit])[0].text == "Her team won the final because she is happy."


def test_unrealizable_edits_are_error_values(examples):
    parsed = examples["The cat chased the mouse."]
    subject_drop = find_edit(parsed, "US", node="cat")
    letters = examples["The letters were delivered by two old postmen."]
    mixed_swap = find_edit(letters, "RS", pair=("letter", "old"))
    results = REALIZER.generate([subject_drop, mixed_swap])
    assert [r.text for r in results] == [parsed.text, letters.text]
    assert "subject" in results[0].error
    assert "adjective" in results[1].error


def test_all_enumerated_edits_realize_without_exceptions(examples):

    for parsed in examples.values():
        edits = [e for es in enumerate_edits(parsed).values() for e in es]
        results = REALIZER.generate(edits)
        assert len(results) == len(edits)
        for result in results:
            assert isinstance(result, Realization)
            assert (result.error is None) != (result.text == parsed.text)


def test_is_a_generator_backend():
    assert isinstance(REALIZER, Generator)
    assert REALIZER.name == "aligned"


# ---------------------------------------------------------------- hand-aligned fixtures

DUMMY = penman.decode("(x / thing)")


def hand(nlp, text: str, **align: int | Sequence[int]) -> ParsedSentence:
    """A real spaCy parse with a hand-written node -> token alignment."""
    doc = nlp(text)
    tokens = tuple(
        Token(t.i, t.text, t.lemma_, t.pos_, t.tag_, t.dep_, t.head.i, t.idx, t.whitespace_, t.ent_type_) for t in doc
    )
    alignment = {k.replace("__", ":"): (v,) if isinstance(v, int) else tuple(v) for k, v in align.items()}
    return ParsedSentence(text=text, graph=DUMMY, tokens=tokens, alignment=alignment, parser="hand")


def realize(parsed: ParsedSentence, rule: str, details: Mapping[str, object]) -> Realization:
    edit = Edit(rule=rule, variant="test", description="", nodes=(), source=parsed, edited=DUMMY, details=details)
    return REALIZER.generate([edit])[0]


NEGATE = [
    ("The dog bites the man.", 2, "The dog does not bite the man."),
    ("The dogs chase the cats.", 2, "The dogs do not chase the cats."),
    ("I bite my nails.", 1, "I do not bite my nails."),
    ("Bite the apple.", 0, "Do not bite the apple."),
    ("He has eaten.", 2, "He has not eaten."),
    ("The letters were delivered.", 3, "The letters were not delivered."),
    ("She will go.", 2, "She will not go."),
    ("She could go.", 2, "She could not go."),
    ("She can go.", 2, "She cannot go."),
    ("She is happy.", 2, "She is not happy."),
    ("Is she happy?", 2, "Is she not happy?"),
    ("She seems happy.", 2, "She seems not happy."),
    ("He became a doctor.", 3, "He became no doctor."),
    ("He has a car.", 1, "He does not have a car."),
    ("I want to go home.", 3, "I want not to go home."),
    ("The cat chased the mouse.", 1, "No cat chased the mouse."),
    ("Old postmen deliver letters.", 1, "No old postmen deliver letters."),
    ("My brother hates waiting in long lines.", 2, "My brother does not hate waiting in long lines."),  # lemma "hat"
    ("The league fined the club.", 2, "The league did not fine the club."),  # lemma "fin"
    ("She will certainly forbid it.", 3, "She will certainly not forbid it."),
    ("She definitely knew the answer.", 2, "She definitely did not know the answer."),  # a speaker adverb stays first
    ("Dale has been married since 1984.", 3, "Dale has not been married since 1984."),
    ("I SAW IT.", 1, "I DID NOT SEE IT."),
    ("The whole family assembled in the drawing room.", 3, "The whole family did not assemble in the drawing room."),
]


@pytest.mark.parametrize(("text", "node", "expected"), NEGATE)
def test_negation(nlp, text, node, expected):
    result = realize(hand(nlp, text, v=node), "PN", {"node": "v", "action": "negate"})
    assert result.error is None, result.error
    assert result.text == expected


UNNEGATE = [
    ("The dog doesn't bite the man.", 4, "The dog bites the man."),
    ("The dog does not bite the man.", 4, "The dog bites the man."),
    ("He didn't go home.", 3, "He went home."),
    ("They don't sing.", 3, "They sing."),
    ("He won't go.", 3, "He will go."),
    ("He can't stop.", 3, "He can stop."),
    ("He cannot stop.", 3, "He can stop."),
    ("Don't bite!", 2, "Bite!"),
    ("Isn't she happy?", 3, "Is she happy?"),
    ("Doesn't he bite?", 3, "Does he bite?"),
    ("They are not happy.", 3, "They are happy."),
    ("Mary's dog never barks.", 4, "Mary's dog barks."),
    ("No dogs barked.", 1, "Some dogs barked."),
    ("He ate no apple.", 3, "He ate an apple."),
]


@pytest.mark.parametrize(("text", "node", "expected"), UNNEGATE)
def test_unnegation_undoes_do_support_and_contractions(nlp, text, node, expected):
    result = realize(hand(nlp, text, v=node), "PN", {"node": "v", "action": "unnegate"})
    assert result.error is None, result.error
    assert result.text == expected


def test_negation_uses_the_aligned_polarity_token(nlp):
    # the parser records which word carries the negation: "He can|not remember"
    parsed = hand(nlp, "He cannot remember her name.", p=1, p__polarity=2, r=3)
    assert realize(parsed, "PN", {"node": "p", "action": "unnegate"}).text == "He can remember her name."
    # negating the verb under a negated modal keeps the modal's own negation
    assert realize(parsed, "PN", {"node": "r", "action": "negate"}).text == "He cannot not remember her name."
    assert "already negated" in realize(parsed, "PN", {"node": "p", "action": "negate"}).error


def test_negation_errors_are_values(nlp):
    parsed = hand(nlp, "John saw her team.", j=0, t=3)
    assert "cannot negate" in realize(parsed, "PN", {"node": "j", "action": "negate"}).error
    assert "her" in realize(parsed, "PN", {"node": "t", "action": "negate"}).error
    assert "no negation" in realize(parsed, "PN", {"node": "t", "action": "unnegate"}).error


SWAPS = [
    # agreement follows the new subject
    ("The cats chase the mouse.", 1, 4, "The mouse chases the cats."),
    ("The cats were chasing a mouse.", 1, 5, "A mouse was chasing the cats."),
    # pronoun case follows the role
    ("I am watching him.", 0, 3, "He is watching me."),
    ("She likes the cat.", 0, 3, "The cat likes her."),
    ("John likes her dog.", 0, 2, "She likes John's dog."),
    ("He remembers Mary's name.", 0, 2, "Mary remembers his name."),
    # capitals: names keep theirs, the sentence-initial one moves
    ("Mary saw John.", 0, 2, "John saw Mary."),
    ("An old man saw a dog.", 2, 5, "A dog saw an old man."),
    # whole phrases move, relative clauses included
    ("The man who saw the dog chased the cat.", 1, 8, "The cat chased the man who saw the dog."),
    ("The owner of the dog left.", 1, 4, "The dog of the owner left."),
]


@pytest.mark.parametrize(("text", "a", "b", "expected"), SWAPS)
def test_role_swap(nlp, text, a, b, expected):
    result = realize(hand(nlp, text, a=a, b=b), "RS", {"a": "a", "b": "b"})
    assert result.error is None, result.error
    assert result.text == expected


def test_swap_refuses_a_phrase_and_its_own_modifier(nlp):
    result = realize(hand(nlp, "Her team won.", s=0, t=1), "RS", {"a": "s", "b": "t"})
    assert "own modifier" in result.error


DROPS = [
    ("Yesterday, he left.", 0, "He left."),
    ("He left, yesterday.", 3, "He left."),
    ("An old man left.", 1, "A man left."),
    ("He saw cats and dogs.", 4, "He saw cats."),
    ("He sat on the chair.", 4, "He sat."),
    ("He cannot remember her name.", 4, "He cannot remember the name."),
    ("The big, red ball bounced.", 1, "The red ball bounced."),
    ("She bought the big, red ball.", 5, "She bought the big ball."),
    ("If it rains like this, we stay.", 4, "If it rains, we stay."),  # the comma ends the clause: it stays
    ("He won on Sunday, ending the run.", 3, "He won, ending the run."),
]


@pytest.mark.parametrize(("text", "node", "expected"), DROPS)
def test_deletion_cleans_up_determiners_prepositions_and_commas(nlp, text, node, expected):
    result = realize(hand(nlp, text, v=node), "US", {"node": "v"})
    assert result.error is None, result.error
    assert result.text == expected


def test_deleting_a_subject_is_refused(nlp):
    result = realize(hand(nlp, "She is happy.", s=0), "US", {"node": "s"})
    assert result.text == "She is happy."
    assert "subject" in result.error


SUBSTITUTIONS = [
    ("A happy dog barked.", 1, "unhappy", "An unhappy dog barked."),
    ("An old man left.", 1, "young", "A young man left."),
    ("She was happier than him.", 2, "unhappy", "She was unhappier than him."),
    ("Happy dogs bark.", 0, "unhappy", "Unhappy dogs bark."),
    ("He gave up smoking.", (1, 2), "continue", "He continued smoking."),
    ("He ate a banana.", 3, "edible_fruit", "He ate an edible fruit."),
    ("The postmen arrived.", 1, "employee", "The employees arrived."),
    ("THE CAT SAT.", 1, "feline", "THE FELINE SAT."),
    ("He watched the DVD.", 3, "storage_device", "He watched the storage device."),  # an acronym, not capitals
]


@pytest.mark.parametrize(("text", "node", "lemma", "expected"), SUBSTITUTIONS)
def test_substitution_reinflects_and_fixes_articles(nlp, text, node, lemma, expected):
    result = realize(hand(nlp, text, v=node), "AR", {"node": "v", "new_lemma": lemma, "new_concept": lemma})
    assert result.error is None, result.error
    assert result.text == expected


def test_changed_spans_point_at_the_new_words(nlp):
    result = realize(hand(nlp, "The cat chased the mouse.", v=2), "PN", {"node": "v", "action": "negate"})
    assert [result.text[s:e] for s, e in result.changed_spans] == ["did not chase"]
    swap = realize(hand(nlp, "The cats chase the mouse.", a=1, b=4), "RS", {"a": "a", "b": "b"})
    assert [swap.text[s:e] for s, e in swap.changed_spans] == ["The mouse chases the cats"]
    drop = realize(hand(nlp, "He sat on the chair.", v=4), "US", {"node": "v"})
    assert drop.changed_spans == ((6, 6),)  # a deletion is a point in the foil


def test_missing_alignment_and_unparsed_sources_are_error_values(nlp):
    parsed = hand(nlp, "The cat sat.", c=1)
    assert "no aligned token" in realize(parsed, "HS", {"node": "z", "new_lemma": "feline"}).error
    bare = ParsedSentence(text="The cat sat.", graph=DUMMY)
    assert "alignment" in realize(bare, "PN", {"node": "c", "action": "negate"}).error
    failed = ParsedSentence(text="", graph=DUMMY, error="empty sentence")
    assert "not parsed" in realize(failed, "PN", {"node": "c"}).error
    assert "unknown rule" in realize(parsed, "XX", {"node": "c"}).error
    assert "'node'" in realize(parsed, "US", {}).error


def test_generate_reports_progress_and_honours_cancel(nlp):
    import threading

    from core.errors import CancelledError

    parsed = hand(nlp, "The cat chased the mouse.", v=2)
    edit = Edit("PN", "t", "", (), parsed, DUMMY, {"node": "v", "action": "negate"})
    seen: list[tuple[int, int]] = []
    REALIZER.generate([edit, edit], progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 2), (2, 2)]
    stop = threading.Event()
    stop.set()
    with pytest.raises(CancelledError):
        REALIZER.generate([edit], cancel=stop)


# ---------------------------------------------------------------- word helpers


def test_word_helpers():
    assert inflect("lose", "VBD") == "lost"
    assert inflect("employee", "NNS") == "employees"
    assert inflect("give up", "VBD") == "gave up"
    assert inflect("ice cream", "NNS") == "ice creams"
    assert [indefinite_article(w) for w in ("apple", "unit", "hour", "European", "FBI", "dog")] == [
        "an", "a", "an", "a", "an", "a",
    ]  # fmt: skip
    assert agree_verb("is", "be", "VBZ", 3, True) == "are"
    assert agree_verb("'re", "be", "VBP", 3, False) == "'s"
    assert agree_verb("has", "have", "VBZ", 3, True) == "have"
    assert agree_verb("chased", "chase", "VBD", 3, True) == "chased"


# ---------------------------------------------------------------- regressions from the PAWS hardness runs


@pytest.mark.parametrize(
    ("text", "node"),
    [
        ("An old man left.", 1),  # "A not old man left." is not English and re-parses without the negation
        ("He quickly treated the wound.", 1),  # "He not quickly treated ..." reads as negating the verb
        ("He acquired his many offices.", 3),  # "his not many offices"
    ],
)
def test_negation_refuses_attributive_adjectives_and_adverbs(nlp, text, node):
    result = realize(hand(nlp, text, v=node), "PN", {"node": "v", "action": "negate"})
    assert result.error is not None and result.text == text


def test_negation_of_a_bare_quantifier_and_a_reason(nlp):
    many = realize(hand(nlp, "He acquired lands and many offices.", v=4), "PN", {"node": "v", "action": "negate"})
    assert many.text == "He acquired lands and not many offices."
    because = realize(hand(nlp, "He left because he was tired.", v=2), "PN", {"node": "v", "action": "negate"})
    assert because.text == "He left not because he was tired."


def test_unnegation_of_a_mass_noun_and_no_longer(nlp):
    water = realize(hand(nlp, "He drank no water.", v=3), "PN", {"node": "v", "action": "unnegate"})
    assert water.text == "He drank some water."
    longer = realize(hand(nlp, "It is no longer used.", v=3), "PN", {"node": "v", "action": "unnegate"})
    assert longer.error is not None  # "It is a longer used." is not English


def test_swap_moves_a_conjunct_alone(nlp):
    text = "They came from Paris, Rome and Berlin."
    result = realize(hand(nlp, text, a=3, b=7), "RS", {"a": "a", "b": "b"})
    assert result.text == "They came from Berlin, Rome and Paris."


def test_swap_refuses_phrases_that_do_not_fit_each_others_slot(nlp):
    # a noun modifier with an argument: "Telecommunications belongs to the Dutch Simyo group"
    mod = realize(hand(nlp, "Simyo belongs to the telecommunications group.", a=0, b=4), "RS", {"a": "a", "b": "b"})
    assert "slot" in mod.error
    # a date with a non-date: "In fieldwork he ... led 1938"
    date = realize(hand(nlp, "In 1938 he led fieldwork.", a=1, b=4), "RS", {"a": "a", "b": "b"})
    assert "date" in date.error


def test_substitution_keeps_names_and_bare_superlatives(nlp):
    name = realize(hand(nlp, "The UEFA Cup was won by Feyenoord.", v=2), "HS", {"node": "v", "new_lemma": "container"})
    assert "name" in name.error
    most = realize(
        hand(nlp, "It is the most used fiber.", v=3), "AR", {"node": "v", "new_lemma": "least", "old_lemma": "most"}
    )
    assert most.text == "It is the least used fiber."


def test_swap_lowers_the_article_of_a_name_that_leaves_the_start(nlp):
    text = "The Water Board took the supply from Sydney."
    result = realize(hand(nlp, text, a=(0, 1, 2), b=7), "RS", {"a": "a", "b": "b"})
    assert result.text == "Sydney took the supply from the Water Board."


def test_swap_refuses_a_controller_written_outside_the_clause(nlp):
    # "Kabir" is the object of "asks" and only understood as the one who ends: moving it rewrites "asks"
    parsed = hand(nlp, "Sarika asks Kabir to end his plan.", e=4, k=2, p=6)
    result = realize(parsed, "RS", {"event": "e", "a": "k", "b": "p", "roles": (":ARG0", ":ARG1")})
    assert "not written inside" in result.error


def test_do_support_reads_an_irregular_past_the_tagger_called_present(parser):
    # spaCy's small model tags "rang" in "the bells rang" VBP with lemma "rang": "do not rang" was written
    [p] = parser.parse(["We waited until the bells rang for dinner."])
    # (a time clause is no default PN target, "until the bells did not ring" reads badly; the opt-in any-node does it)
    found = _rules.enumerate_edits(p, ("PN",), {"PN": ("any-node",)})["PN"]
    edits = [e for e in found if p.graph.triples and e.description.startswith("negate rang")]  # the tagger's lemma
    assert [r.text for r in REALIZER.generate(edits)] == ["We waited until the bells did not ring for dinner."]


def test_unnegating_no_one_and_no_in_a_phrase(parser):
    [one, phrase] = parser.parse(["She never spoke of it to no one.", "He sent her a message of no consequence."])
    texts = [r.text for r in REALIZER.generate(_rules.enumerate_edits(one, ("PN",))["PN"]) if r.error is None]
    assert "She never spoke of it to someone." in texts and not [t for t in texts if "a one" in t]
    texts = [r.text for r in REALIZER.generate(_rules.enumerate_edits(phrase, ("PN",))["PN"]) if r.error is None]
    assert texts == ["He sent her a message of some consequence."]  # not "of a consequence"
