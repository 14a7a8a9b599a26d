"""Guards added for failures the judges found (issue 12, eighth session: after27 and after28), each on the real
parse of a judged failure and of a sentence the guard must leave alone."""

from __future__ import annotations

import pytest

from core.foils.parse.dep import DependencyParser
from core.foils.rules import lexicon
from core.foils.rules.antecedents import strands_pronoun
from core.foils.rules.wordnet_facts import animate_share, main_sense_frames, verb_prepositions
from tests.test_rules_defaults import realized

needs_wordnet = pytest.mark.skipif(not lexicon.wordnet_available(), reason="WordNet not installed: run `make wordnet`")


def test_rs_keeps_a_relative_or_that_clause_out_of_a_clause_swap():
    candle = "The room was lit by a single candle, whose feeble flame trembled whenever the door was opened."
    revenue = "The retailer said on Monday that annual revenue rose 14 percent after demand for cargo bikes doubled."
    got = realized([candle, revenue], ("RS",), "clauses")
    assert got[candle] == []  # "the door was opened whenever whose feeble flame trembled"
    assert got[revenue] == []  # "said demand doubled after that annual revenue rose"
    tired = "Although he was tired, he finished the report."
    assert "Although he finished the report, he was tired." in realized([tired], ("RS",), "clauses")[tired]


@needs_wordnet
def test_rs_refuses_a_phrase_the_verb_owns_moving_with_its_noun_and_things_acting_as_people():
    assert verb_prepositions("accuse") == {"of"}
    assert 11 in main_sense_frames("destroy") and 11 not in main_sense_frames("eat")
    porter = "A jury acquitted a hotel night porter of theft."
    sock = "Why does the washing machine always eat one sock from every pair?"
    truck = "The truck destroyed the car."
    fence = "The truck destroyed the fence."
    got = realized([porter, sock, truck, fence], ("RS",), "agent-patient")
    assert got[porter] == []  # "A hotel night porter of theft acquitted a jury"
    assert got[sock] == []  # "one sock always eat the washing machine": the machine stands for nobody who eats
    assert "The car destroyed the truck." in got[truck]  # a thing can destroy a thing of its kind
    assert got[fence] == []  # twelfth session: two unlike things do not trade places (0 of 11 judged usable)


def test_us_keeps_than_with_its_comparative_and_a_clause_with_its_word():
    vans = "Sales of electric vans rose more sharply in the second quarter than analysts had expected."
    mist = "The valley lay hushed in a silver mist, from which only the tops of the elms emerged."
    till = "The manager was not impressed by how slowly the new till processed card payments."
    deeply = "He was unwilling to let her see how deeply the accusation had struck him."
    got = realized([vans, mist, till, deeply], ("US",))
    assert not [f for f in got[vans] if "quarter than" in f and "more" not in f]
    assert not [f for f in got[mist] if "which" not in f and "mist, only" in f]
    assert not [f for f in got[till] if "by the new till" in f]
    assert "He was unwilling to let her see the accusation had struck him." in got[deeply]


def test_us_keeps_a_pronouns_only_antecedent():
    marta = "I gave the receipt to Marta because she handles the office petty cash."
    shop = "Could you drop the spare keys at the bicycle shop before it closes at six?"
    pets = "The cat chased the puppy under the table until both of them fell asleep."
    got = realized([marta, shop, pets], ("US",))
    assert not [f for f in got[marta] if "Marta" not in f]
    assert not [f for f in got[shop] if "shop" not in f]
    assert "The cat chased the puppy until both of them fell asleep." in got[pets]  # "them": the cat and the puppy
    parsed = DependencyParser().parse([marta])[0]
    to = next(t.i for t in parsed.tokens if t.text == "to")
    assert strands_pronoun(parsed, {to, to + 1}) and not strands_pronoun(parsed, {to - 1})


@needs_wordnet
def test_ar_reads_little_late_and_old_in_their_use():
    little = "Little was said at breakfast, and Agnes buttered her toast in silence."
    fair = "The meeting was moved to Thursday because half the team is at the trade fair."
    late = "A collection of shop signs by the late artist Mabel Quarrie has been donated to the gallery."
    visitor = "A late visitor knocked at the door after midnight."
    locksmith = "The old locksmith bent over the casket with a lamp at his elbow."
    castle = "The old castle stood on a hill above the town."
    got = realized([little, fair, late, visitor, locksmith, castle], ("AR",))
    assert not [f for f in got[little] if f.startswith("Big")]
    assert not [f for f in got[fair] if "unfair" in f]
    assert not [f for f in got[late] if "early artist" in f]
    assert "An early visitor knocked at the door after midnight." in got[visitor]
    assert "The young locksmith bent over the casket with a lamp at his elbow." in got[locksmith]
    assert "The new castle stood on a hill above the town." in got[castle]


@needs_wordnet
def test_hs_names_a_hypernym_by_its_word_for_that_sense_and_drops_far_ones():
    hat = "She set down her hat on the table."
    attic = "The old typewriter in the attic still works better than my laptop keyboard."
    got = realized([hat, attic], ("HS",))
    assert not [f for f in got[hat] if " wear " in f]  # clothing.n.01 is "clothing" in the tagged corpus, not "wear"
    assert not [f for f in got[attic] if "in the floor" in f]


def test_pn_leaves_a_bare_infinitive_read_as_a_conjunct_alone():
    shilling = "He gave the boy a shilling and bade him hold his tongue."
    got = realized([shilling], ("PN",))[shilling]
    assert not [f for f in got if "do not hold" in f]
    assert "He gave the boy a shilling and did not bid him hold his tongue." in got
    walked = "She locked the door and walked to the station."  # a conjunct in the tense of its head is negated
    assert "She locked the door and did not walk to the station." in realized([walked], ("PN",))[walked]


@needs_wordnet
def test_rs_reads_animacy_from_tagged_uses_when_the_vectors_cannot_tell():
    assert animate_share("flight") < 0.5 < animate_share("neighbor")
    flights = "Northvale Airport cancelled 43 flights on Monday after a software failure."
    assert realized([flights], ("RS",), "agent-patient")[flights] == []  # "43 flights cancelled Northvale Airport"


@needs_wordnet
def test_ar_leaves_a_gerund_listed_with_nouns_alone():
    taught = "The children were taught French and drawing by their governess."
    assert not [f for f in realized([taught], ("AR",))[taught] if "pushing" in f]


def test_pn_negates_a_conjunct_of_an_order_as_an_order():
    cups = "Wash the cups and put them on the shelf."  # "put" tagged as a past tense
    assert "Wash the cups and do not put them on the shelf." in realized([cups], ("PN",))[cups]


@needs_wordnet
def test_recurring_failures_of_three_held_out_sets_are_refused():
    wife, widow = "The vicar's wife counted the silver spoons twice.", "The widow lived alone in the cottage."
    hidden, hid = "Police found a phone hidden in his shoe.", "He hid the key under the mat."
    asked, said = "Has anyone fed the cat yet?", "I haven't fed the cat yet."
    sum_, plumber = "The pottery was sold to an investor for an undisclosed sum.", "Tell Dad the plumber is coming at ten."
    hs = realized([wife, widow], ("HS",))
    assert "The vicar's partner counted the silver spoons twice." in hs[wife]
    assert not [f for f in hs[wife] if "woman" in f]  # the relation goes with a plain "woman"
    assert "The woman lived alone in the cottage." in hs[widow]
    ar = realized([hidden, hid, plumber], ("AR",))
    assert not [f for f in ar[hidden] if "shown" in f] and "He showed the key under the mat." in ar[hid]
    assert not [f for f in ar[plumber] if "going" in f]
    us = realized([asked, said, sum_], ("US",))
    assert "Has anyone fed the cat?" not in us[asked] and "I haven't fed the cat." in us[said]
    assert not [f for f in us[sum_] if "for a sum" in f]


def test_rs_leaves_a_question_or_a_modal_out_of_a_clause_swap():
    asked = "Can you water the plants tomorrow, because I will be away until Friday?"
    told = "You should water the plants tomorrow because I will be away until Friday."
    plain = "The match was cancelled because the pitch was flooded."
    got = realized([asked, told, plain], ("RS",), "agent-patient")
    assert got[asked] == []  # "I will be away until Friday you water the plants tomorrow, because can?"
    assert got[told] == []  # "You I will be away until Friday water the plants tomorrow because should."
    assert got[plain] == ["The pitch was flooded because the match was cancelled."]


def test_rs_leaves_a_reflexive_and_us_a_complex_preposition_whole():
    washed, carried = "The children washed themselves in the river.", "Her brother carried himself with great dignity."
    groom = "Thomas the groom led the old mare into the yard."  # the parser gives "led" two subjects
    got = realized([washed, carried, groom], ("RS",))
    assert got[washed] == [] and got[carried] == []  # "Themselves washed the children in the river."
    assert got[groom] == []  # "Thomas the old mare led the groom into the yard."
    police = "Police questioned three teenagers in connection with the burglary."
    drops = realized([police], ("US",))[police]
    assert "Police questioned three teenagers in connection." not in drops
    assert "Police questioned three teenagers." in drops  # the whole phrase may go


@needs_wordnet
def test_hs_offers_no_hypernym_judged_unusable_on_two_sets():
    from core.foils.rules.hypernyms import sense_hypernyms

    assert [c.lemma for c in sense_hypernyms("deep-freeze.n.01", "freezer")] == []  # not "fridge"
    assert [c.lemma for c in sense_hypernyms("lookout.n.01", "sentinel")] == []  # not "watchman"
    assert [c.lemma for c in sense_hypernyms("cousin.n.01", "cousin")] == ["relative"]  # the walk is unchanged
    assert [c.lemma for c in sense_hypernyms("hospital.n.01", "hospital")] == []  # "raised money for a building"
    assert [c.lemma for c in sense_hypernyms("sky.n.01", "sky")] == []  # "the light had gone from the gas"
    assert [c.lemma for c in sense_hypernyms("oxygen.n.01", "oxygen")] == ["gas"]  # "survive without gas" stays


@needs_wordnet
def test_hs_leaves_a_word_people_do_not_use_for_the_thing_and_an_informal_variant():
    from core.foils.rules.hypernyms import sense_hypernyms

    assert [c.lemma for c in sense_hypernyms("wallet.n.01", "wallet")] == []  # "he loses his container"
    assert [c.lemma for c in sense_hypernyms("milk.n.01", "milk")] == []  # nor, farther up, "some liquid"
    assert [c.lemma for c in sense_hypernyms("wife.n.01", "wife")] == ["partner"]  # "his woman" goes, "partner" stays
    assert [c.lemma for c in sense_hypernyms("box.n.01", "box")] == ["container"]  # a box is a container
    assert [c.lemma for c in sense_hypernyms("dad.n.01", "dad")] == []  # "Dad -> Father": the same person
    assert [c.lemma for c in sense_hypernyms("father.n.01", "father")] == ["parent"]


def test_rs_does_not_make_an_occasion_act_on_a_person():
    moved = "My manager moved the weekly meeting to Thursday."
    missed = "I missed the meeting because my train was late."
    cheered = "The audience applauded the orchestra."
    got = realized([moved, missed, cheered], ("RS",), "agent-patient")
    assert got[moved] == []  # "The weekly meeting moved my manager to Thursday."
    assert not [f for f in got[missed] if f.startswith("The meeting missed me")]
    assert got[cheered] == ["The orchestra applauded the audience."]  # an audience is people, and acts


def test_hs_keeps_a_gendered_person_a_later_pronoun_names_and_calls_no_bicycle_a_container():
    son = "My sister gave her son a new bicycle for his birthday."
    aunt = "Her aunt gave her a small purse of green silk."
    ben = "Ben is taller than his father now, and he keeps reminding everyone."
    got = realized([son, aunt, ben], ("HS",))
    assert not [f for f in got[son] if "her child" in f]  # "his birthday" says the child is a son
    assert not [f for f in got[son] if "container" in f]  # WordNet files a wheeled vehicle under container too
    assert "My sister gave her son a new vehicle for his birthday." in got[son]
    assert "Her relative gave her a small purse of green silk." in got[aunt]  # "her" is the niece: the aunt is lost
    assert "Ben is taller than his parent now, and he keeps reminding everyone." in got[ben]  # "he" is Ben


def test_rs_makes_no_animal_act_on_a_person_but_a_person_may_act_on_an_animal():
    fed = "You can feed the cat tonight if I am not back before eight."
    vet = "The vet examined the puppy carefully."
    scratched = "The cat scratched the delivery man when he reached for the gate."
    got = realized([fed, vet, scratched], ("RS",), "agent-patient")
    assert got[fed] == []  # "The cat can feed you tonight ..."
    assert got[vet] == []  # "The puppy examined the vet carefully."
    assert got[scratched] == ["The delivery man scratched the cat when he reached for the gate."]


@needs_wordnet
def test_hs_calls_no_horse_the_equine_but_a_cat_still_the_feline():
    from core.foils.rules.hypernyms import sense_hypernyms

    assert [c.lemma for c in sense_hypernyms("horse.n.01", "horse")] == []
    assert [c.lemma for c in sense_hypernyms("cat.n.01", "cat")] == ["feline"]


@needs_wordnet
def test_hs_holds_an_office_of_a_place_and_counts_a_phrase_by_its_head():
    office = "The mayor of Dunhallow opened the new swimming pool on Saturday."
    mayor = "The mayor opened the new swimming pool on Saturday."
    kin = "The daughter of Mr Penrose married a sailor."
    fields = "Two cranes were seen on farmland near the estuary."
    plumber = "Our plumber will look at the boiler tomorrow."
    got = realized([office, mayor, kin, fields, plumber], ("HS",))
    assert not [f for f in got[office] if "of Dunhallow" in f and "mayor" not in f]  # "the politician of Dunhallow"
    assert "The politician opened the new swimming pool on Saturday." in got[mayor]  # no office named: it stays
    assert "The child of Mr Penrose married a sailor." in got[kin]  # kinship is no office
    assert not [f for f in got[fields] if "on rural area" in f]  # a bare count noun is not English there
    assert not [f for f in got[plumber] if "artisan" in f]


def test_hs_takes_only_a_mass_hypernym_after_some():
    from core.foils.rules.substitute import _fits_number

    parsed = DependencyParser().parse(["Could you buy some cheese on the way home?"])[0]
    cheese = next(t.i for t in parsed.tokens if t.text == "cheese")
    assert _fits_number(parsed, cheese, "food")  # "some food"
    assert not _fits_number(parsed, cheese, "dairy product")  # "some dairy product"


@needs_wordnet
def test_ar_reads_at_least_as_a_comment_a_counted_day_as_24_hours_and_a_recall_of_counted_goods():
    comment = "The bus was late again, but at least it was warm inside."
    bound = "The repairs will take at least three weeks."
    counted = "We stayed with my aunt for four days in June."
    goods = "The bakery recalled hundreds of loaves after a customer found a bolt in one."
    got = realized([comment, bound, counted, goods], ("AR",))
    assert not [f for f in got[comment] if "at most" in f]
    assert "The repairs will take at most three weeks." in got[bound]  # a bound keeps its opposite
    assert not [f for f in got[counted] if "night" in f]
    assert not [f for f in got[goods] if "forgot" in f]


def test_us_keeps_a_numbers_article_and_a_compounds_article():
    raised = "They raised an impressive twelve thousand dollars for the school."
    maid = "The old housekeeper scolded the kitchen maid for letting the spaniel in."
    got = realized([raised, maid], ("US",))
    assert "They raised a twelve thousand dollars for the school." not in got[raised]
    assert "They raised an impressive twelve thousand dollars." in got[raised]
    assert not [f for f in got[maid] if "scolded maid" in f]  # the parser hung "the" on "kitchen"
    assert "The housekeeper scolded the kitchen maid for letting the spaniel in." in got[maid]


def test_a_noun_the_small_tagger_reads_as_a_verb_is_reparsed():
    from core.foils.parse.dep import DependencyParser

    parsed = DependencyParser().parse(["The old housekeeper scolded the kitchen maid for letting the spaniel in."])[0]
    maid = next(t for t in parsed.tokens if t.text == "maid")
    assert maid.pos == "NOUN" and parsed.metadata.get("retagged") == "en_core_web_md"
    kept = DependencyParser().parse(["Please text me when you get to the station."])[0]
    assert "retagged" not in kept.metadata  # "text" is a verb the md tagger agrees on: nothing to repair


def test_pn_leaves_an_inversion_a_degree_clause_a_false_auxiliary_and_a_comment_before_do_support_alone():
    inverted = "Down the lane came the carrier's cart, creaking under a load of apples."
    degree = "Her silence showed how deeply the letter had hurt her."
    helped = "Hundreds of fans helped push the stranded bus out of the snow."  # the parser files "helped" as an aux
    alleged = "Police questioned a woman who allegedly sold fake tickets outside the stadium."
    probably = "The match will probably end before the rain arrives."
    got = realized([inverted, degree, helped, alleged, probably], ("PN",))
    assert not [f for f in got[inverted] if "did not come" in f]  # "Down the lane did not come the cart"
    assert not [f for f in got[degree] if "had not hurt" in f]  # a negative island
    assert "Her silence did not show how deeply the letter had hurt her." in got[degree]
    assert not [f for f in got[helped] if "helped not" in f]
    assert not [f for f in got[alleged] if "did not allegedly" in f]
    assert "The match will probably not end before the rain arrives." in got[probably]  # after an auxiliary: fine


def test_rs_lets_no_one_sentence_or_fine_the_office_holder():
    fined = "A magistrate fined the landlord for ignoring repeated warnings about the damp."
    got = realized([fined], ("RS",), "agent-patient")
    assert got[fined] == []  # "The landlord fined a magistrate"


def test_hs_leaves_a_compound_the_parser_split_and_pn_a_noun_read_as_a_verb():
    from core.foils.parse.dep import DependencyParser
    from core.foils.rules.index import misagreed
    from core.foils.rules.substitute import _fixed_expression

    split = DependencyParser().parse(["My uncle swapped the rusty bathroom tap for a shiny one."])[0]
    assert [t.dep for t in split.tokens[5:7]] == ["dobj", "dobj"]  # the parser's two objects
    assert _fixed_expression(split, 5)  # so HS never writes "the rusty room tap"
    assert not [f for f in realized([split.text], ("HS",))[split.text] if "room tap" in f]

    parsed = DependencyParser().parse(["Hand me that sieve quickly, or the rice will stick to the pan."])[0]
    sieve = next(t for t in parsed.tokens if t.text == "sieve")
    assert sieve.pos != "VERB" or misagreed(parsed, sieve)  # never "Hand me that do not sieve quickly"
    got = realized(["Hand me that sieve quickly, or the rice will stick to the pan."], ("PN",))
    assert not [f for f in got["Hand me that sieve quickly, or the rice will stick to the pan."] if "do not sieve" in f]


def test_pn_negates_no_ever_clause_and_makes_no_idiom_of_no():
    ever = "She promised to forgive him, whatever mistake he had made that summer."
    shortage = "A shortage of drivers has delayed deliveries across the county."
    got = realized([ever, shortage], ("PN",))
    assert not [f for f in got[ever] if "had not made" in f]
    assert not [f for f in got[shortage] if f.startswith("No shortage")]  # "no shortage of" is "plenty of"
    assert "A shortage of drivers has not delayed deliveries across the county." in got[shortage]


def test_pn_puts_no_no_on_a_subject_its_clause_presupposes():
    after = "The school closed early because a pipe burst in the boiler room."
    stranding = "A fallen tree blocked the lane, stranding a bus full of pensioners."
    seen = "On Monday a stranger was seen walking along the towpath."
    got = realized([after, stranding, seen], ("PN",), "determiner")
    assert got[after] == []  # "because no pipe burst in the boiler room"
    assert got[stranding] == []  # "No fallen tree blocked the lane, stranding ..."
    assert got[seen] == ["On Monday no stranger was seen walking along the towpath."]  # a participle the verb takes


def test_pn_keeps_a_not_but_contrast_whole():
    parcel = "The box contained not the old photographs but a bundle of unpaid bills."
    forgive = "She could forgive him his temper, but not his silences at dinner."
    got = realized([parcel, forgive], ("PN",))
    assert not [f for f in got[parcel] if "did not contain not" in f or "contained the old photographs but" in f]
    assert not [f for f in got[forgive] if "but his silences" in f]


@needs_wordnet
def test_ar_keeps_last_night_and_hs_calls_no_pond_a_lake():
    from core.foils.rules.hypernyms import sense_hypernyms

    late = "The neighbours argued loudly in the garden last night."
    got = realized([late], ("AR",))
    assert not [f for f in got[late] if "last day" in f]  # the final day, not yesterday
    assert [c.lemma for c in sense_hypernyms("pond.n.01", "pond")] == []  # "the farmer's lake"


def test_pn_asks_no_alternative_question_again_and_doubles_no_negated_subject():
    either = "Is the bakery on Elm Road still closed, or has it reopened?"
    nobody = "Although the archdeacon preached for an hour and a quarter, not one of the congregation could afterwards recall his text."
    caused = "Heavy rain caused the River Ossel to burst its banks on 14 March."
    got = realized([either, nobody, caused], ("PN",))
    assert not [f for f in got[either] if "has it not reopened" in f]  # asks the same thing
    assert not [f for f in got[nobody] if "could not afterwards" in f]  # "not one ... could not"
    assert "Heavy rain did not cause the River Ossel to burst its banks on 14 March." in got[caused]
    assert not [f for f in got[caused] if "not to burst" in f]


@needs_wordnet
def test_ar_writes_no_coined_antonym_and_reads_local_people_as_from_the_area():
    drivers = "Motorists and drivers were told to stay off the flooded bypass."
    local = "Local beekeepers say the wet spring has halved the honey harvest."  # "National beekeepers say"
    paper = "She writes a weekly column for the local newspaper."
    got = realized([drivers, local, paper], ("AR",))
    assert not [f for f in got[drivers] if "nondriver" in f]
    assert not [f for f in got[local] if f.startswith("National")]
    assert "She writes a weekly column for the national newspaper." in got[paper]


@needs_wordnet
def test_hs_calls_no_arm_a_limb():
    from core.foils.rules.hypernyms import NOT_CALLED

    offered = "The old colonel offered his arm to the nervous bride."
    got = realized([offered], ("HS",))
    assert not [f for f in got[offered] if "limb" in f]
    assert {("violin", "string"), ("retailer", "distributor")} <= NOT_CALLED
    from core.foils.rules.hypernyms import sense_hypernyms

    assert sense_hypernyms("baronet.n.01", "baronet") == []  # a two-word hypernym is refused too: "the blue blood"


def test_us_leaves_no_preposition_percentage_article_or_quantity_stranded():
    prompt = "The mechanic fixed the puncture in under ten minutes."
    share = "Profits at the brewery rose 9 per cent last year."
    dozen = (
        "Sir Roderick praised the squire's claret so warmly that the squire was obliged to send him a dozen bottles."
    )
    fleet = "Prices for fresh fish rose again this month as storms kept much of the coastal fleet in harbour."
    got = realized([prompt, share, dozen, fleet], ("US",))
    assert not [f for f in got[prompt] if f.endswith(" in.")]
    assert not [f for f in got[share] if "rose per cent" in f]
    assert not [f for f in got[dozen] if " a bottles" in f]
    assert not [f for f in got[fleet] if f.endswith("kept much.")]


def test_pn_leaves_a_result_a_misread_noun_and_a_polite_question_alone():
    result = "A burst water main flooded the high street overnight, forcing six shops to close."
    saying = "Sales at the bakery chain rose by four per cent last year, according to its annual report."
    lanes = "Is it quicker to take the motorway, or should we stick to the country lanes past the reservoir?"
    polite = "Excuse me, would it be a nuisance to trade places so my partner and I can sit together?"
    however = (
        "However little she esteemed her aunt's judgement, Harriet was obliged to confess that on this occasion the "
        "old lady had been right."
    )
    got = realized([result, saying, lanes, polite, however], ("PN",))
    assert not [f for f in got[result] if "did not flood" in f]  # "forcing six shops to close" hangs on nothing
    assert "Sales at the bakery chain did not rise by four per cent last year, according to its annual report." in got[saying]
    assert not [f for f in got[lanes] if "does not lane" in f or "should we not" in f]
    assert not [f for f in got[polite] if "would it not be" in f]
    assert not [f for f in got[however] if "she did not esteem" in f]


def test_us_keeps_a_great_many_and_however_whole():
    many = "The old colonel had a great many stories about the siege."
    however = (
        "However little she esteemed her aunt's judgement, Harriet was obliged to confess that on this occasion the "
        "old lady had been right."
    )
    got = realized([many, however], ("US",))
    assert not [f for f in got[many] if " a many " in f]
    assert not [f for f in got[however] if f.startswith("Little she")]


def test_pn_leaves_a_participle_an_inversion_at_last_and_however_painful_alone():
    urging = "Protesters gathered outside the county hall on Monday, urging councillors to save the library."
    inverted = "In the shrubbery behind the parsonage grew a tangle of laurels and briars."
    at_last = "The fever which had kept poor Lucinda in her chamber broke at last on the morning of the harvest supper."
    painful = "She resolved, however painful the interview might prove, to tell her aunt the whole truth."
    got = realized([urging, inverted, at_last, painful], ("PN",))
    assert not [f for f in got[urging] if "did not gather" in f]  # "urging councillors" hangs on a non-event
    assert not [f for f in got[inverted] if "did not grow" in f]
    assert not [f for f in got[at_last] if "did not break at last" in f]
    assert not [f for f in got[painful] if "might not prove" in f]


def test_us_keeps_a_subject_an_inversions_phrase_a_score_and_a_three_word_lemma():
    fire = "The drawing-room was cold and dim, for the fire had been let die, and the candles smoked."
    inverted = "In the shrubbery behind the parsonage grew a tangle of laurels and briars."
    votes = "Members of the district council backed, by nine votes to four, a proposal to shut two libraries."
    jabs = "Health chiefs urged families to check that jabs are up to date."
    got = realized([fire, inverted, votes, jabs], ("US",))
    assert not [f for f in got[fire] if "dim, had been" in f]
    assert not [f for f in got[inverted] if f.startswith("Grew")]
    assert not [f for f in got[votes] if "backed, to four" in f]
    assert not [f for f in got[jabs] if f.endswith("are up.")]
    ar = realized([jabs], ("AR",))
    assert not [f for f in ar[jabs] if "down to date" in f]
