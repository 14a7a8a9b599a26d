"""PN writes a contracted auxiliary's negative as people do ("I'll" -> "I won't", not the stiff "I'll not"), and
does not un-negate "not even" (issue 12, ninth session: 15 judged foils read "a little stiff")."""

from __future__ import annotations

from tests.test_rules_defaults import realized


def test_contracted_auxiliaries_negate_in_their_contracted_negative():
    picnic = "If it rains tomorrow, we'll move the picnic into the garage."
    gym = "When I got to the gym, I realised I'd left my trainers in the car."
    dan = "I promised Dan I'd help him move his couch."
    cleaners = "I've booked the carpet cleaners for the twelfth."
    got = realized([picnic, gym, dan, cleaners], ("PN",))
    assert "If it rains tomorrow, we won't move the picnic into the garage." in got[picnic]
    assert "When I got to the gym, I realised I hadn't left my trainers in the car." in got[gym]
    assert "I promised Dan I wouldn't help him move his couch." in got[dan]
    assert "I haven't booked the carpet cleaners for the twelfth." in got[cleaners]
    assert not [f for f in got[picnic] + got[gym] + got[dan] + got[cleaners] if "'ll not" in f or "'d not" in f]


def test_the_long_form_stays_where_people_use_it():
    certain = "I'll certainly help you."
    late = "We're taking the early train."
    got = realized([certain, late], ("PN",))
    assert "I'll certainly not help you." in got[certain]  # a speaker adverb keeps the long form
    assert "We're not taking the early train." in got[late]  # "we're not" is what people say


def test_not_even_is_not_un_negated():
    painting = "After the auction ended, Dad realised he had bought a painting he didn't even like."
    got = realized([painting], ("PN",), "unnegate")
    assert not [f for f in got[painting] if "even liked" in f]
