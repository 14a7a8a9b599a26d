"""The default rule variants on real spaCy parses: what they produce and, above all, what they never produce.

Each failure class comes from the hand-judged quality study (issue #12): "no" inside a prepositional or time
phrase, double negations, a dangling preposition or quantifier after a deletion, role swaps that are not
role swaps, and the small tagger's verb-as-noun mistake.
"""

from __future__ import annotations

import re

import pytest

from core.errors import ConfigError
from core.foils.parse.dep import DependencyParser
from core.foils.realize.aligned import AlignedRealizer
from core.foils.rules import lexicon
from core.foils.rules.edits import DEFAULT_VARIANTS, OPT_IN, RELEASED_VARIANTS, enumerate_edits, parse_variants

needs_wordnet = pytest.mark.skipif(not lexicon.wordnet_available(), reason="WordNet not installed: run `make wordnet`")

SENTENCES = [
    "The nurse examined the patient carefully.",
    "A boy found a wallet on the bus.",
    "The plane landed safely despite the storm.",
    "More than 300 people attended the concert.",
    "She drinks tea every morning.",
    "They visited their grandparents last week.",
    "We had lunch after the meeting.",
    "She did not like the film.",
    "The teacher gave the students a difficult test.",
    "Tom is taller than his brother.",
    "The chef cut the bread with a sharp knife.",
    "The company hired twenty new engineers last month.",
    "He always forgets his keys.",
    "If it rains, we will stay at home.",
    "The plumber fixed the leaking pipe.",
    "The pigeons ate the bread.",
    "She could scarcely afford the rent.",
    "She denied that she had taken the money.",
    "We left before the guests arrived.",
    "Did you remember the milk?",
    "We had to cancel the picnic because it started raining.",
    "The fire destroyed two barns, officials said Wednesday.",
    "Lady Pemberton was considered the proudest woman in the county.",
    "We must finish the painting before the school year begins next month.",
    "When the fever at last abated, the doctor left.",
    "She left the band to pursue a solo career.",
    "Nobody in the village knew the stranger.",
    "The tomatoes are finally turning red.",
    "The lasagna was eaten before I even got home.",
    "The mayor said she had not received any money.",
    "She could not bring herself to read it until the guests had left.",
    "The film was longer than I expected.",
    "Nobody knew where the curate had come from.",
    "She did not see the letter.",
    "Wornell married Mildred.",
    "They have two sons.",
    "These tomatoes taste sweeter than the supermarket ones.",
    '"That Was Often" was cancelled after one season.',
    "She was pleased when Tom brought her flowers.",
    "His name is `` Born into wealth '' in Yoruba.",
    "In 2011, 78.8 % were Romanians and 1.4 % Germans.",
    "We need to get to the airport by noon.",
    "The laundry was put away before dinner.",
    "The spaniel followed the maid from one room to the next.",
    "The umbrellas belong to the guests.",
    "The cottage is close to the river, on the old road to the mill, in the valley.",
    "The house was sold in 1990 to a doctor, then in 2004 to a farmer.",
    "The report consists of three short chapters.",
    "The village is on the main road to the coast.",
    "Among the guests were two famous painters.",
    "The Tigers beat the Lions 27 - 21 on Saturday.",
    "My brother still hasn't returned the drill he borrowed.",
    "She had not touched her dinner at all.",
    "Excuse me, is this the way to the station?",
    "Let's take the early train and have lunch in town.",
    "Seldom had the village seen such a storm.",
    "Little was said about the broken window.",
    "It was the best meal we have eaten in years.",
    "We walked along the beach almost every evening.",
    "Ask the landlord whether the flat has a parking space.",
    "Prices rose sharply in March, the agency said.",
    "A small fortune was spent on the new roof.",
    "The new drug helps patients recover faster after surgery.",
    "The candles flickered and went out.",
    "Our dog barks at the postman every single morning.",
    "Honestly, this new kettle is louder than a jet engine.",
    "We waited an hour for the bus, and then, of course, two of them arrived together.",
    "All the seats in the hall had been booked weeks ago.",
    "The boy reached for the biscuit tin on the top shelf.",
    "He was a tall, stooping gentleman with a grey beard.",
    "After the game, the children were covered in mud from head to toe.",
    "Young Harrow owed his tailor forty pounds and his landlord a good deal more.",
    "My bus was cancelled, so I'll be about half an hour late.",
    "I promised Dan I would help him move his couch.",
    "Our new dentist is much friendlier than the one we had before.",
    "This hotel room is smaller than the photos on the website made it look.",
    "The coach was delayed at the inn by a lame horse, a quarrelsome ostler, and the landlord's temper.",
    "The kids were hungry because they skipped lunch.",
    "The shop closed early since the owner was ill.",
    "Our neighbor's dog barks every time a car pulls into the driveway.",
    "The opposition leader, Thomas Okonjo, accused ministers of lying.",
    "Few could afterwards recall a single thing he had said.",
    "She is going to sell the house.",
    "Let's meet at the coffee shop next to the bookstore around noon.",
    "The court ruled that the council had acted unlawfully.",
    "Gusts of up to 80 miles per hour could hit the coast.",
    "If the merger goes ahead, the company will grow.",
    "Mr Thorne was not a cruel man.",
    "The dinner passed in a careful civility which so often conceals a great deal of dislike.",
    "Her face, though not strictly handsome, had an openness which won the confidence of all.",
    "She made sure that no two rivals were ever seated together.",
    "By the time the coach reached the town the snow lay thick upon the roofs.",
    "There are some kindnesses which cost the giver nothing.",
    "The car was towed away because I parked in a bay reserved for residents.",
    "Cyclists in Northam were twice as likely to be injured as those in neighbouring towns.",
    "The trial was adjourned after a juror fell ill.",
    "Rory Jennings, who plays the butler, plays the young villain in the radio series.",
    "Scientists in Oslo have identified a bacterium that breaks down plastic.",
]


@pytest.fixture(scope="module")
def foils() -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(sentence, rule) -> [(variant, foil text)] for every realizable default edit."""
    parser, realizer = DependencyParser(), AlignedRealizer()
    out: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for parsed in parser.parse(SENTENCES):
        for rule, edits in enumerate_edits(parsed, ("PN", "RS", "US")).items():
            texts = []
            for edit in edits:
                real = realizer.realize(edit)
                if real.error is None:
                    texts.append((edit.variant, real.text))
            out[(parsed.text, rule)] = texts
    return out


def all_foils(foils, rule: str) -> list[str]:
    return [text for (_, r), found in foils.items() if r == rule for _, text in found]


def test_defaults_leave_the_released_behaviours_opt_in():
    opt_in = {"PN:any-node", "RS:agent-patient-any", "RS:two-leaf", "US:object", "US:leaf", "AR:indirect"}
    assert opt_in | {"HS:abstract", "HS:verb"} == OPT_IN
    assert DEFAULT_VARIANTS["HS"] == ("hypernym",) and RELEASED_VARIANTS["HS"] == ("hypernym", "abstract", "verb")
    assert "any-node" not in DEFAULT_VARIANTS["PN"] and "two-leaf" not in DEFAULT_VARIANTS["RS"]
    assert parse_variants(["PN:any-node"])["PN"] == ("any-node",)
    assert parse_variants([])["US"] == DEFAULT_VARIANTS["US"]
    assert RELEASED_VARIANTS["RS"] == ("agent-patient-any", "two-leaf")
    with pytest.raises(ConfigError, match="unknown PN variant"):
        parse_variants(["PN:everything"])
    with pytest.raises(ConfigError, match="RULE:variant"):
        parse_variants(["any-node"])


@needs_wordnet
def test_pn_never_puts_no_inside_a_phrase_or_doubles_a_negation(foils):
    pn = all_foils(foils, "PN")
    prepositions = r"(on|in|at|after|before|despite|with|into|to|from|by|of)"
    assert not [f for f in pn if re.search(rf"\b{prepositions} no\b", f)], pn
    assert not [f for f in pn if re.search(r"\bno (last|next|every)\b|\bno (morning|week|month|yesterday)\b", f)]
    assert not [f for f in pn if re.search(r"\bnot\b.*\bno\b|\bno\b.*\bnot\b", f)], pn
    got = dict(foils)
    assert ("determiner", "No boy found a wallet on the bus.") in got[("A boy found a wallet on the bus.", "PN")]
    assert ("unnegate", "She liked the film.") in got[("She did not like the film.", "PN")]
    assert ("main-predicate", "He does not always forget his keys.") in got[("He always forgets his keys.", "PN")]
    assert ("clause-predicate", "If it does not rain, we will stay at home.") in got[
        ("If it rains, we will stay at home.", "PN")
    ]


def test_pn_determiner_is_quantifying_or_plural_and_clauses_are_finite(foils):
    got = dict(foils)
    assert ("determiner", "No pigeons ate the bread.") in got[("The pigeons ate the bread.", "PN")]
    assert "determiner" not in {v for v, _ in got[("A boy found a wallet on the bus.", "PN")] if "no wallet" in _}
    plumber = [text for variant, text in got[("The plumber fixed the leaking pipe.", "PN")] if variant == "determiner"]
    assert plumber == []  # "fixed no leaking pipe": a definite singular does not take "no"
    band = got[("She left the band to pursue a solo career.", "PN")]
    assert not [text for variant, text in band if variant == "clause-predicate"], band  # "not to pursue"
    assert [variant for variant, _ in band] == ["main-predicate"]
    assert not [text for text in all_foils(foils, "PN") if text.startswith("Nobody")]  # "Nobody ... did not know"


def test_pn_makes_no_double_negation_no_negated_time_clause_and_no_negated_question(foils):
    got = dict(foils)
    assert got[("She could scarcely afford the rent.", "PN")] == []  # "could not scarcely afford"
    denied = got[("She denied that she had taken the money.", "PN")]
    assert denied and not [text for variant, text in denied if variant == "clause-predicate"]  # "denied ... not"
    left = got[("We left before the guests arrived.", "PN")]
    assert left and not [text for variant, text in left if variant != "main-predicate"]  # "before ... did not arrive"
    assert got[("Did you remember the milk?", "PN")] == []  # "Did you not remember the milk?" asks the same


def test_pn_respects_polarity_items_comparisons_and_a_negative_governing_clause(foils):
    got = dict(foils)
    assert got[("The tomatoes are finally turning red.", "PN")] == []  # "are not finally turning red"
    assert got[("The lasagna was eaten before I even got home.", "PN")] == []  # "even" under the negation
    said = got[("The mayor said she had not received any money.", "PN")]
    assert "unnegate" not in {variant for variant, _ in said}  # "she had received any money"
    until = got[("She could not bring herself to read it until the guests had left.", "PN")]
    assert "unnegate" not in {variant for variant, _ in until}  # "could bring herself to read it until"
    assert ("unnegate", "She saw the letter.") in got[("She did not see the letter.", "PN")]
    film = got[("The film was longer than I expected.", "PN")]
    assert film and not [text for variant, text in film if variant == "clause-predicate"]  # "than I did not expect"
    assert got[("Nobody knew where the curate had come from.", "PN")] == []  # "Nobody knew where ... had not come"


def test_no_swap_of_a_symmetric_relation_no_edit_in_a_title_no_bare_pro_form_no_negated_time(foils):
    got = dict(foils)
    assert got[("Wornell married Mildred.", "RS")] == []  # "Mildred married Wornell" says the same
    assert got[("They have two sons.", "RS")] == []  # "Two sons have them"
    assert not [f for _, f in got[("These tomatoes taste sweeter than the supermarket ones.", "US")] if "the ones" in f]
    title = got[('"That Was Often" was cancelled after one season.', "PN")]
    assert [f for _, f in title] == ['"That Was Often" was not cancelled after one season.']
    assert not [f for _, f in got[("His name is `` Born into wealth '' in Yoruba.", "US")] if "wealth" not in f]
    assert not [f for _, f in got[("In 2011, 78.8 % were Romanians and 1.4 % Germans.", "US")] if "and %" in f]
    pleased = got[("She was pleased when Tom brought her flowers.", "PN")]
    assert pleased and "clause-predicate" not in {v for v, _ in pleased}  # validation refuses a negated time


def test_us_keeps_a_goal_a_particle_and_both_ends_of_a_route(foils):
    got = dict(foils)
    airport = [f for _, f in got[("We need to get to the airport by noon.", "US")]]
    assert airport and not [f for f in airport if "airport" not in f]  # "to get by noon"
    assert not [f for _, f in got[("The laundry was put away before dinner.", "US")] if "away" not in f]
    route = [f for _, f in got[("The spaniel followed the maid from one room to the next.", "US")]]
    assert not [f for f in route if "from one room" not in f or "to the next" not in f]
    assert got[("The umbrellas belong to the guests.", "US")] == []  # "The umbrellas belong."


def test_us_drops_a_direct_object_only_as_the_opt_in_object_variant(foils):
    tea = dict(foils)[("She drinks tea every morning.", "US")]
    assert "She drinks every morning." not in [text for _, text in tea]
    parser, realizer = DependencyParser(), AlignedRealizer()
    [parsed] = parser.parse(["She drinks tea every morning."])
    opted = enumerate_edits(parsed, ("US",), {"US": ("object",)})["US"]
    assert [realizer.realize(e).text for e in opted] == ["She drinks every morning."]
    assert {e.variant for e in opted} == {"object"}


def test_us_never_leaves_a_bare_time_noun_nor_breaks_a_set_phrase(foils):
    got = dict(foils)
    month = [text for _, text in got[("We must finish the painting before the school year begins next month.", "US")]]
    assert month and not [text for text in month if text.endswith("begins month.")]
    assert not [
        text for _, text in got[("When the fever at last abated, the doctor left.", "US")] if " at abated" in text
    ]


def test_rs_never_swaps_a_predicate_nominal_with_its_subject(foils):
    assert dict(foils)[("Lady Pemberton was considered the proudest woman in the county.", "RS")] == []


def test_pn_negates_the_result_of_a_cause_and_the_report_not_its_parenthetical(foils):
    got = dict(foils)
    picnic = got[("We had to cancel the picnic because it started raining.", "PN")]
    assert ("main-predicate", "We did not have to cancel the picnic because it started raining.") in picnic
    assert not [text for _, text in picnic if "not because" in text]
    fire = got[("The fire destroyed two barns, officials said Wednesday.", "PN")]
    assert fire == [("main-predicate", "The fire did not destroy two barns, officials said Wednesday.")]


@needs_wordnet
def test_us_never_leaves_a_dangling_word(foils):
    us = all_foils(foils, "US")
    assert us, "US must still apply"
    for foil in us:
        assert not re.search(r"\b(despite|on|in|at|after|with|into|than|every|last)\s*[.,]", foil), foil
        assert not re.match(r"(Than|Every)\b", foil), foil
    assert "The nurse examined carefully." not in us  # "examine" needs its object
    got = dict(foils)
    assert ("adjunct", "The plane landed safely.") in got[("The plane landed safely despite the storm.", "US")]
    assert ("adjunct", "We had lunch.") in got[("We had lunch after the meeting.", "US")]
    assert ("adjunct", "They visited their grandparents.") in got[("They visited their grandparents last week.", "US")]
    assert ("modifier", "The chef cut the bread with a knife.") in got[
        ("The chef cut the bread with a sharp knife.", "US")
    ]
    assert not [
        f
        for f in got[("More than 300 people attended the concert.", "US")]
        if "Than" in f or "than 300" not in f.lower()
    ]


def test_pn_leaves_polarity_items_set_phrases_and_reports_alone(foils):
    got = {key[0]: [text for _, text in found] for key, found in foils.items() if key[1] == "PN"}
    assert not [f for f in got["My brother still hasn't returned the drill he borrowed."] if "still has " in f]
    assert not [f for f in got["She had not touched her dinner at all."] if "had touched" in f]  # "... at all"
    assert got["Excuse me, is this the way to the station?"] == []  # "Do not excuse me"
    assert not [f for f in got["Let's take the early train and have lunch in town."] if "let's" in f.lower()]
    assert got["Seldom had the village seen such a storm."] == []  # "Did not seldom have ..."
    assert got["Little was said about the broken window."] == []  # "Little was not said"
    assert not [f for f in got["It was the best meal we have eaten in years."] if "have not eaten" in f]
    assert got["We walked along the beach almost every evening."] == []  # "did not walk ... almost every evening"
    assert not [f for f in got["Ask the landlord whether the flat has a parking space."] if "does not have" in f]
    assert got["Prices rose sharply in March, the agency said."] == ["Prices did not rise sharply in March, the agency said."]
    assert "No small fortune was spent on the new roof." not in got["A small fortune was spent on the new roof."]
    assert not [f for f in got["The new drug helps patients recover faster after surgery."] if "do not recover" in f]
    assert got["Our neighbor's dog barks every time a car pulls into the driveway."] == [
        "Our neighbor's dog does not bark every time a car pulls into the driveway."
    ]  # "every time a car does not pull in", "every time no car pulls in"
    assert not [f for f in got["The opposition leader, Thomas Okonjo, accused ministers of lying."] if "No " in f]
    assert not [f for f in got["Few could afterwards recall a single thing he had said."] if "had not said" in f]
    assert "She is not going to sell the house." in got["She is going to sell the house."]
    assert not [f for f in got["Our new dentist is much friendlier than the one we had before."] if "did not have" in f]
    civility = got["The dinner passed in a careful civility which so often conceals a great deal of dislike."]
    assert "The dinner passed in a careful civility which does not so often conceal a great deal of dislike." in civility
    assert not [f for f in got["Her face, though not strictly handsome, had an openness which won the confidence of all."] if "though strictly" in f]
    assert not [f for f in got["She made sure that no two rivals were ever seated together."] if "some two" in f]
    coach = got["By the time the coach reached the town the snow lay thick upon the roofs."]
    assert coach and not [f for f in coach if "did not reach" in f]
    assert got["There are some kindnesses which cost the giver nothing."] == []  # "There are not some kindnesses"
    candles = got["The candles flickered and went out."]
    assert "The candles flickered and did not go out." in candles
    assert "The candles did not flicker and went out." not in candles


def test_us_never_strands_a_preposition_a_needed_phrase_or_one_end_of_a_score(foils):
    got = {key: [text for _, text in found] for key, found in foils.items() if key[1] == "US"}
    cottage = got[("The cottage is close to the river, on the old road to the mill, in the valley.", "US")]
    assert "The cottage is close to the river, in the valley." in cottage  # "on" goes with its phrase and comma
    assert not [f for f in cottage if re.search(r"\bon ,|\bon,", f)]
    sold = got[("The house was sold in 1990 to a doctor, then in 2004 to a farmer.", "US")]
    assert sold and not [f for f in sold if re.search(r"\bin (to|,)", f)]  # "then in to a farmer"
    assert "The report consists." not in got[("The report consists of three short chapters.", "US")]
    assert "The village is." not in got[("The village is on the main road to the coast.", "US")]
    assert not [f for f in got[("Among the guests were two famous painters.", "US")] if f.startswith("Were")]
    assert not [
        f for f in got[("The Tigers beat the Lions 27 - 21 on Saturday.", "US")] if "27 -" in f and "21" not in f
    ]
    assert not [f for f in got[("Our dog barks at the postman every single morning.", "US")] if "every morning" in f]
    assert not [f for f in got[("Honestly, this new kettle is louder than a jet engine.", "US")] if "Honestly" not in f]
    waited = got[("We waited an hour for the bus, and then, of course, two of them arrived together.", "US")]
    assert waited and not [f for f in waited if "of course" not in f]  # the speaker's stance is no content
    assert not [f for f in got[("All the seats in the hall had been booked weeks ago.", "US")] if "booked ago" in f]
    assert not [f for f in got[("The boy reached for the biscuit tin on the top shelf.", "US")] if "reached on" in f]
    assert "He was a stooping gentleman with a grey beard." in got[
        ("He was a tall, stooping gentleman with a grey beard.", "US")
    ]  # the first of two listed modifiers takes its comma along
    assert not [f for f in got[("Let's meet at the coffee shop next to the bookstore around noon.", "US")] if "next around" in f]
    assert "The court ruled that the council had acted." not in got[
        ("The court ruled that the council had acted unlawfully.", "US")
    ]
    assert not [f for f in got[("Gusts of up to 80 miles per hour could hit the coast.", "US")] if "per" not in f]
    assert not [f for f in got[("If the merger goes ahead, the company will grow.", "US")] if "ahead" not in f]
    assert "Mr Thorne was not a man." not in got[("Mr Thorne was not a cruel man.", "US")]
    assert not [f for f in got[("The car was towed away because I parked in a bay reserved for residents.", "US")] if "reserved." in f]
    northam = got[("Cyclists in Northam were twice as likely to be injured as those in neighbouring towns.", "US")]
    assert not [f for f in northam if f.endswith("as those.")]
    assert "The trial was adjourned after a juror fell." not in got[("The trial was adjourned after a juror fell ill.", "US")]
    assert not [f for f in got[("There are some kindnesses which cost the giver nothing.", "US")] if "the nothing" in f]
    mud = got[("After the game, the children were covered in mud from head to toe.", "US")]
    assert mud and not [f for f in mud if "from head to toe" not in f]  # both ends of a route
    owed = got[("Young Harrow owed his tailor forty pounds and his landlord a good deal more.", "US")]
    assert not [f for f in owed if "his forty" in f]  # no possessive left without its noun
    late = got[("My bus was cancelled, so I'll be about half an hour late.", "US")]
    assert late and not [f for f in late if f.endswith("I'll be.")]  # no copula without its complement


def test_rs_never_moves_a_pro_form_a_list_a_controlled_clause_or_a_pronoun_before_its_noun(foils):
    got = {key[0]: [text for _, text in found] for key, found in foils.items() if key[1] == "RS"}
    assert not [f for f in got["I promised Dan I would help him move his couch."] if f.startswith("Dan promised")]
    assert got["Our new dentist is much friendlier than the one we had before."] == []  # "The one we had before is"
    assert got["This hotel room is smaller than the photos on the website made it look."] == []
    assert got["The coach was delayed at the inn by a lame horse, a quarrelsome ostler, and the landlord's temper."] == []
    assert got["The kids were hungry because they skipped lunch."] == []  # "They skipped lunch because the kids ..."
    assert got["The shop closed early since the owner was ill."] == []  # "since" reads as time or cause
    assert got["Rory Jennings, who plays the butler, plays the young villain in the radio series."] == []
    assert got["Scientists in Oslo have identified a bacterium that breaks down plastic."] == []  # a clause inside


@needs_wordnet
def test_rs_swaps_arguments_that_can_trade_places(foils):
    got = dict(foils)
    assert ("recipient", "The students gave the teacher a difficult test.") in got[
        ("The teacher gave the students a difficult test.", "RS")
    ]
    assert ("comparison", "His brother is taller than Tom.") in got[("Tom is taller than his brother.", "RS")]
    assert all(variant != "two-leaf" for (_, rule), found in foils.items() if rule == "RS" for variant, _ in found)


def test_the_tagger_mistake_on_bit_is_repaired():
    parser = DependencyParser()
    for text in ("The old snake bit the young tiger near the river.", "A snake bit the farmer in the field."):
        [parsed] = parser.parse([text])
        concepts = {c for _, _, c in parsed.graph.instances()}
        assert "bite-01" in concepts and "bit" not in concepts, parsed.penman
        assert parsed.metadata.get("retagged")
    [plain] = parser.parse(["The end of the long war."])  # a verbless title is left alone
    assert "retagged" not in plain.metadata and {c for _, _, c in plain.graph.instances()} >= {"end", "war"}


CLAUSE_SWAPS = {
    "Although he was tired, he finished the report.": "Although he finished the report, he was tired.",
    "She smiled, although she was worried.": "She was worried, although she smiled.",
    "Even though Anna had little money, she bought the painting.": (
        "Even though she bought the painting, Anna had little money."
    ),
    "If it rains, the streets get wet.": "If the streets get wet, it rains.",
    "When the bell rang, the children ran outside.": "When the children ran outside, the bell rang.",
    "He left before she arrived.": "She arrived before he left.",
    "If the train is late, we will miss the concert.": None,  # "if we will miss the concert, the train is late"
    "We waited until the rain stopped.": None,  # "the rain stopped until we waited"
    "Tom cooked while Anna read.": None,  # a contrast: swapping the clauses changes nothing
}


def test_rs_swaps_concessive_condition_and_time_clauses_only_when_tenses_and_subordinator_allow():
    from core.foils.rules.edits import rs_edits
    from core.foils.validate.roundtrip import RoundTripValidator
    from core.types import FoilCandidate

    parser, realizer = DependencyParser(), AlignedRealizer()
    validator = RoundTripValidator(parser)
    for parsed in parser.parse(list(CLAUSE_SWAPS)):
        edits = [e for e in rs_edits(parsed) if e.variant == "clauses"]
        if CLAUSE_SWAPS[parsed.text] is None:
            assert edits == [], parsed.text
            continue
        [edit] = edits
        real = realizer.realize(edit)
        assert real.text == CLAUSE_SWAPS[parsed.text]
        [verdict] = validator.score([FoilCandidate(edit, real)])
        assert verdict.passed is True, verdict.reason


def test_rs_trades_same_kind_arguments_and_a_route():
    from core.foils.rules.edits import rs_edits

    parser, realizer = DependencyParser(), AlignedRealizer()
    expected = {
        "The truck hit the car.": ("agent-patient", "The car hit the truck."),
        "He moved the books from the shelf to the table.": (
            "recipient",
            "He moved the books from the table to the shelf.",
        ),
        "The chef cut the bread.": None,  # bread cannot cut: no swap
        "The storm destroyed the bridge.": None,
        "The old tractor towed the caravan.": None,  # two unlike things: "The caravan towed the old tractor"
        "The bus overtook the tram.": ("agent-patient", "The tram overtook the bus."),  # two of a kind
    }
    for parsed in parser.parse(list(expected)):
        got = [(e.variant, realizer.realize(e).text) for e in rs_edits(parsed)]
        assert got == ([expected[parsed.text]] if expected[parsed.text] else []), parsed.text


def realized(sentences: list[str], rules: tuple[str, ...], variant: str | None = None) -> dict[str, list[str]]:
    """Sentence -> the realized default edits of ``rules`` (of one ``variant`` when given) on real parses."""
    parser, realizer = DependencyParser(), AlignedRealizer()
    got = {}
    for p in parser.parse(sentences):
        edits = [e for found in enumerate_edits(p, rules).values() for e in found if variant in (None, e.variant)]
        got[p.text] = [r.text for r in map(realizer.realize, edits) if r.error is None]
    return got


@needs_wordnet
def test_ar_hs_leave_compound_heads_named_phrases_and_quantity_adjectives_alone():
    sentences = [
        "She bought oat milk at the pharmacy.",
        "The prime minister met opposition leaders.",
        "After the rain the whole yard looked brighter.",
        "It was the brightest comet of the past century.",
        "My big sister bought a new car.",
        "The rectory stood a little apart from the village.",
        "We don't have any eggs left, so pancakes are off the menu.",
        "The trial was adjourned after a juror fell ill.",
        "A painting by a little-known artist sold for two million pounds at auction.",
    ]
    got = realized(sentences, ("AR", "HS"))
    assert not [f for f in got["She bought oat milk at the pharmacy."] if "oat milk" not in f]  # "oat dairy product"
    assert not [f for f in got["The prime minister met opposition leaders."] if "prime minister" not in f]
    assert not [f for f in got["The prime minister met opposition leaders."] if "opposition leaders" not in f]
    assert not [f for f in got["After the rain the whole yard looked brighter."] if "whole yard" not in f]
    assert not [f for f in got["It was the brightest comet of the past century."] if "past century" not in f]
    assert not [f for f in got["The rectory stood a little apart from the village."] if "a little" not in f]
    assert not [f for f in got["We don't have any eggs left, so pancakes are off the menu."] if " left," not in f]
    assert not [f for f in got["The trial was adjourned after a juror fell ill."] if "fell ill" not in f]
    assert not [f for f in got["A painting by a little-known artist sold for two million pounds at auction."] if "bought" in f]
    sister = got["My big sister bought a new car."]  # an adjective with its noun ("big sister") is no fixed phrase
    assert "My little sister bought a new car." in sister and "My big brother bought a new car." in sister


@needs_wordnet
def test_ar_converse_trades_before_and_after_only_where_they_introduce_a_time():
    sentences = [
        "We left before the guests arrived.",
        "After the storm, the neighbors cleaned the street.",
        "He was named after his grandfather.",
        "She looked after the children.",
        "He left after dinner and before the dance.",
        "The carriage stopped before the gates.",
        "The hound caught the fox before the hunters had even mounted.",
        "Police are appealing for witnesses after a tractor was stolen from a farm.",
        "Tom was promoted to manager after only six months at the warehouse.",
    ]
    got = realized(sentences, ("AR",), "converse")
    assert got["We left before the guests arrived."] == ["We left after the guests arrived."]
    assert got["After the storm, the neighbors cleaned the street."] == [
        "Before the storm, the neighbors cleaned the street."
    ]
    assert got["He was named after his grandfather."] == []  # a person: "named before his grandfather"
    assert got["She looked after the children."] == []
    assert got["He left after dinner and before the dance."] == []  # the converse is there already
    assert got["The carriage stopped before the gates."] == []  # a place: "stopped after the gates"
    assert got["The hound caught the fox before the hunters had even mounted."] == []  # "after ... had even"
    assert got["Police are appealing for witnesses after a tractor was stolen from a farm."] == []  # tenses clash
    assert got["Tom was promoted to manager after only six months at the warehouse."] == []  # "before only six"


@needs_wordnet
def test_us_keeps_an_object_the_parser_read_as_an_adverbial():
    # sentences of sample_data/quality-fresh7 that the small model mis-parses: "sunscreen" as an adverb, "nearly an
    # hour" as a noun adverbial of "needed", "Waiting times" as "Waiting" plus a time; and "got there"
    sentences = [
        "You should bring sunscreen even if the forecast says it will be cloudy.",
        "Although the recipe said forty minutes, the chicken needed nearly an hour in our oven.",
        "Waiting times at Eastmoor General Hospital's emergency department have fallen to their lowest level.",
        "I didn't realise the museum was closed on Mondays until we got there.",
        "It's supposed to rain all weekend, so we might postpone the camping trip.",
        "Prices rose sharply in March.",
    ]
    got = realized(sentences, ("US",))
    assert "You should bring even if the forecast says it will be cloudy." not in got[sentences[0]]
    assert not [f for f in got[sentences[1]] if "needed in" in f]
    assert not [f for f in got[sentences[2]] if f.startswith("Waiting at")]
    assert not [f for f in got[sentences[3]] if f.endswith("got.")]
    assert "It's supposed to rain, so we might postpone the camping trip." in got[sentences[4]]  # a weather verb
    assert "Prices rose in March." in got[sentences[5]]  # a real adverb after an intransitive use


@needs_wordnet
def test_ar_hs_refuse_contradicted_levels_stuck_verbs_and_category_hypernyms():
    sentences = [
        "Shares in the bank fell to their lowest price in a decade.",
        "The ban will remain in place until the autumn.",
        "Having resolved to call upon her aunt the following morning, Lucy retired early, though she slept but little.",
        "The vet examined our dog on Monday.",
        "The doctor saw my mother at noon.",
        "The old housekeeper shook her head and declared that no good had ever come of it.",
    ]
    got = realized(sentences, ("AR", "HS"))
    assert not [f for f in got[sentences[0]] if "rose" in f or "highest" in f]  # the superlative records the fall
    assert not [f for f in got[sentences[1]] if "change" in f]  # "would change in place"
    assert not [f for f in got[sentences[2]] if "but much" in f]
    assert not [f for f in got[sentences[3]] if "domestic animal" in f]
    assert not [f for f in got[sentences[4]] if "caregiver" in f]
    assert not [f for f in got[sentences[5]] if "body part" in f]
    assert "The doctor saw my father at noon." in got[sentences[4]]  # AR still works there


def test_pn_leaves_degree_phrases_and_so_as_comparisons_alone():
    sentences = [
        "The old man hesitated a bit before he answered the question.",  # "did not hesitate a bit": not at all
        "Her hands trembled a little as she poured the tea.",
        "There is no vanity so obstinate as that which disguises itself as humility.",
        "Poverty, she reflected, was not so hard to bear as the constant pretence of wealth.",
        "She saw a little boy in the garden.",
    ]
    got = realized(sentences, ("PN",))
    assert not [f for f in got[sentences[0]] if "hesitate a bit" in f]
    assert not [f for f in got[sentences[1]] if "tremble a little" in f]
    assert not [f for f in got[sentences[2]] if f.startswith("There is a vanity so")]  # "so ... as" needs its "no"
    assert not [f for f in got[sentences[3]] if "was so hard" in f]
    assert "She did not see a little boy in the garden." in got[sentences[4]]  # "little" of a noun is no degree


@needs_wordnet
def test_us_keeps_a_phrase_its_verb_needs_and_a_misread_noun_rs_reads_they_by_its_noun():
    us = realized(
        [
            "The wheat stood ripe beneath a wind that smelt of the sea.",
            "Archaeologists have uncovered a mosaic floor dating from the second century.",
            "Strangers mistook her reserve for pride.",
            "The washing machine stopped halfway through the cycle.",
            "Nothing could have been more agreeable than the garden, with its sundial green with moss.",
            "The laundry smelled wonderfully fresh by the evening.",
            "He gave his daughter a pearl brooch on her birthday.",
        ],
        ("US",),
    )
    assert not [f for f in us["The wheat stood ripe beneath a wind that smelt of the sea."] if "smelt." in f]
    assert not [f for f in us["Archaeologists have uncovered a mosaic floor dating from the second century."] if "dating." in f]
    assert "Strangers mistook her reserve." not in us["Strangers mistook her reserve for pride."]
    assert "The washing machine stopped through the cycle." not in us["The washing machine stopped halfway through the cycle."]
    assert not [f for f in us["Nothing could have been more agreeable than the garden, with its sundial green with moss."] if "its green" in f]
    assert "The laundry smelled wonderfully fresh." in us["The laundry smelled wonderfully fresh by the evening."]
    assert "He gave his daughter a brooch on her birthday." in us["He gave his daughter a pearl brooch on her birthday."]
    rs = realized(
        [
            "How long should I boil these potatoes before I mash them?",
            "The guests arrived late, so we fed them in the kitchen.",
        ],
        ("RS",),
    )
    assert not [f for f in rs["How long should I boil these potatoes before I mash them?"] if "mash me" in f]
    assert "The guests arrived late, so they fed us in the kitchen." in rs["The guests arrived late, so we fed them in the kitchen."]
    ar = realized(
        [
            "It was generally agreed that young Thomas would come to no good.",
            "The fire was brought under control after six hours, officials said.",
            "The company unveiled a foldable tablet on Thursday.",
        ],
        ("AR",),
    )
    assert not [f for f in ar["It was generally agreed that young Thomas would come to no good."] if "no bad" in f or "no evil" in f]
    assert not [f for f in ar["The fire was brought under control after six hours, officials said."] if "before six" in f]
    assert not [f for f in ar["The company unveiled a foldable tablet on Thursday."] if "veiled" in f.replace("unveiled", "")]


@needs_wordnet
def test_hs_fits_a_plural_possessive_to_its_new_word():
    source = "Kenyan runner Grace Wanjiru broke the women's course record in Berlin."
    got = realized([source], ("HS",))[source]
    assert got and not [f for f in got if "s's" in f], got  # "the adults' course record", never "adults's"


@needs_wordnet
def test_us_keeps_what_go_a_participle_a_from_phrase_or_an_infinitive_completes():
    sentences = [
        "My manager gave the team a day off after the product launch went smoothly.",
        "Grace Wanjiru broke the course record on Sunday, finishing in two hours and 14 minutes.",
        "The court agreed to hear a case challenging a law that bars companies from collecting data.",
        "It was agreed that young Thomas would come to no good, a prophecy he seemed quite determined to fulfil.",
        "He went quickly to the door.",
    ]
    got = realized(sentences, ("US",))
    assert not [f for f in got[sentences[0]] if f.endswith("went.") or "gave the team after" in f]
    assert not [f for f in got[sentences[1]] if f.endswith("finishing.")]
    assert not [f for f in got[sentences[2]] if "bars companies." in f]
    assert not [f for f in got[sentences[3]] if f.endswith("determined.")]
    assert "He went to the door." in got[sentences[4]]  # "go" with a goal keeps its manner optional


@needs_wordnet
def test_round_c_guards_double_negatives_shared_auxiliaries_pairs_and_measures():
    pn = realized(
        [
            "The little parlour was so crammed with china that a visitor scarcely dared to breathe.",
            "Her heart betrayed her utterly the moment he entered the room.",
            "The retailer will close 35 stores and cut around 1,200 jobs, the company said.",
        ],
        ("PN",),
    )
    assert not [f for f in pn["The little parlour was so crammed with china that a visitor scarcely dared to breathe."] if "no visitor" in f]
    assert not [f for f in pn["Her heart betrayed her utterly the moment he entered the room."] if "did not enter" in f]
    assert not [f for f in pn["The retailer will close 35 stores and cut around 1,200 jobs, the company said."] if "did not cut" in f]
    us = realized(
        [
            "A faint smell of lavender and camphor clung to the linen cupboard.",
            "Scientists detected water vapour on a planet 120 light years away.",
            "In his vocabulary that was the highest of compliments.",
            "They kept a French cook and spoke of nothing else.",
        ],
        ("US",),
    )
    assert not [f for f in us["A faint smell of lavender and camphor clung to the linen cupboard."] if "and clung" in f]
    assert not [f for f in us["Scientists detected water vapour on a planet 120 light years away."] if "planet away" in f]
    assert "In his vocabulary that was the highest." not in us["In his vocabulary that was the highest of compliments."]
    assert not [f for f in us["They kept a French cook and spoke of nothing else."] if f.endswith("spoke.")]
    ar = realized(["We've been trying to find a babysitter for Saturday night, without much luck."], ("AR", "HS"))
    found = ar["We've been trying to find a babysitter for Saturday night, without much luck."]
    assert not [f for f in found if "Saturday day" in f or "little luck" in f]


@needs_wordnet
def test_rs_reads_animacy_in_context_and_keeps_possessives_orders_and_ellipses_in_place():
    neighbours = "Our new neighbours brought us a tray of homemade samosas when they moved in."
    sentences = {
        "The rabbit has been chewing the skirting boards ever since we let it roam indoors.": "boards have been chewing",
        "Our neighbour lent us her ladder because ours snapped last autumn.": "",  # "We lent our neighbour her ladder"
        "Our flat is smaller than theirs, but it gets a lot more sunshine.": "Theirs is",
        "Don't forget to label the lunchboxes, because the teachers keep finding unclaimed ones.": "because don't",
        "Long after the guests had departed, he sat alone by the dying fire.": "after he sat",
        "The old clergyman spoke seldom, but when he did, his words carried a gentle authority.": "he did.",
    }
    got = realized([*sentences, neighbours], ("RS",))
    for sentence, refused in sentences.items():
        assert not [f for f in got[sentence] if refused in f], (sentence, got[sentence])
    # "neighbours" leans to "a nearby object" by less than the sense margin: still people, the swap stays
    assert "We brought our new neighbours a tray of homemade samosas when they moved in." in got[neighbours]


@needs_wordnet
def test_hs_ar_refuse_the_pairs_no_judged_foil_made_usable():
    got = realized(
        [
            "The child regarded the stranger with grave curiosity.",
            "Strong winds are expected along the northern coast.",
            "The referee gave our striker a yellow card.",
            "Two men were arrested in connection with the theft.",
            "The new intern handled the angry customer calmly.",
            "Officials confirmed an outbreak of foot rot among sheep on four farms.",
        ],
        ("AR", "HS"),
    )
    found = [f for foils in got.values() for f in foils]
    assert not [f for f in found if re.search(r"\b(intruder|shore|paper|civilians|consumer|workplaces)\b", f)], found


@needs_wordnet
def test_ar_gender_antonyms_agree_with_the_copula_subject_and_a_spouse_title():
    son = "She had been told that he was the son of a bankrupt."
    widow = "Mrs. Whitlow, who had buried two husbands, considered herself an authority on marriage."
    sister = "Anne was more sensible than her elder sister."
    got = realized([son, widow, sister], ("AR",))
    assert not [f for f in got[son] if "daughter" in f]  # "he was the daughter"
    assert not [f for f in got[widow] if "wives" in f]  # Mrs. Whitlow's spouses
    assert "Anne was more sensible than her elder brother." in got[sister]  # "her" is Anne's: the antonym stays


def test_pn_negates_a_coordinated_verb_that_has_its_own_tense():
    colonel = "The Colonel had served twenty years in India and spoke of it constantly."
    stores = "The retailer will close 35 stores and cut around 1,200 jobs."
    got = realized([colonel, stores], ("PN",))
    assert "The Colonel had served twenty years in India and did not speak of it constantly." in got[colonel]
    assert not [f for f in got[stores] if "did not cut" in f]  # "cut" shares "will"


def test_rs_swaps_a_so_clause_with_its_reason_and_pn_negates_its_polite_order():
    ferry = "We missed the ferry by two minutes, so we had lunch at the harbour café."
    assert "We had lunch at the harbour café, so we missed the ferry by two minutes." in realized([ferry], ("RS",))[ferry]
    floor = "I've booked the cleaners for the ninth, so please clear the bedroom floor by then."
    assert "I've booked the cleaners for the ninth, so please do not clear the bedroom floor by then." in realized(
        [floor], ("PN",)
    )[floor]  # not "so please not clear"


@needs_wordnet
def test_ar_refuses_a_verb_antonym_without_the_recipient_the_source_verb_names():
    from core.foils.rules.substitute import _complements

    sold, opened = "The old mill was sold at auction to a young couple.", "They plan to open the mill to visitors."
    assert not [f for f in realized([sold], ("AR",))[sold] if "bought" in f]  # "was bought ... to a young couple"
    uses = {}
    for p in DependencyParser().parse([sold, opened]):
        verb = next(t for t in p.tokens if t.lemma in ("sell", "open"))
        uses[verb.lemma] = _complements(p, verb)
    assert "to-somebody" in uses["sell"] and "to-somebody" not in uses["open"]  # open's frames name no recipient
