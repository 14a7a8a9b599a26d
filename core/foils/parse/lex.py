"""Word lists and small lexical helpers for the dependency-based AMR parser.

>>> words_to_number("two hundred and five")
'205'
>>> words_to_number("1,000")
'1000'
>>> words_to_number("several") is None
True
>>> adverb_to_adjective("happily"), adverb_to_adjective("quickly"), adverb_to_adjective("fully")
('happy', 'quick', 'full')
"""

from __future__ import annotations

import re

# Personal pronouns -> AMR pronoun concept (any case, possessives included).
PRONOUNS: dict[str, str] = {
    "i": "i", "me": "i", "my": "i", "mine": "i", "myself": "i",
    "you": "you", "your": "you", "yours": "you", "yourself": "you", "yourselves": "you", "thee": "you",
    "thou": "you", "thy": "you",
    "he": "he", "him": "he", "his": "he", "himself": "he",
    "she": "she", "her": "she", "hers": "she", "herself": "she",
    "it": "it", "its": "it", "itself": "it",
    "we": "we", "us": "we", "our": "we", "ours": "we", "ourselves": "we",
    "they": "they", "them": "they", "their": "they", "theirs": "they", "themselves": "they",
}  # fmt: skip

RELATIVE_WORDS = frozenset({"who", "whom", "which", "that", "whose", "where", "when", "why"})
WH_WORDS = frozenset({"who", "whom", "what", "which", "whose", "where", "when", "why", "how"})

# Modal auxiliaries -> (AMR concept, negation goes on the modal rather than on the verb).
MODALS: dict[str, tuple[str, bool]] = {
    "can": ("possible-01", True),
    "could": ("possible-01", True),
    "may": ("possible-01", False),
    "might": ("possible-01", False),
    "must": ("obligate-01", False),
    "should": ("recommend-01", False),
    "ought": ("recommend-01", False),
}

# Determiners that carry meaning (others, such as articles, are dropped).
DET_MOD = frozenset({"this", "that", "these", "those", "all", "every", "each", "another", "other", "both", "either",
                     "neither", "such", "whatever", "same"})  # fmt: skip
DET_QUANT = frozenset({"some", "any", "many", "much", "few", "several", "more", "most", "less", "little", "enough"})

DEGREE_WORDS = frozenset({"very", "so", "too", "quite", "rather", "extremely", "really", "more", "most", "less",
                          "least", "pretty", "fairly", "somewhat", "almost", "nearly", "enough", "completely",
                          "entirely", "totally", "absolutely", "highly", "incredibly", "terribly", "awfully"})  # fmt: skip
TIME_ADVERBS = frozenset({"now", "then", "today", "tonight", "yesterday", "tomorrow", "soon", "already", "recently",
                          "later", "early", "late", "afterwards", "afterward", "once", "before", "ever", "always",
                          "formerly", "lately", "presently", "immediately", "suddenly", "finally", "eventually",
                          "meanwhile", "nowadays", "sometime"})  # fmt: skip
FREQUENCY_ADVERBS = frozenset({"often", "sometimes", "usually", "seldom", "rarely", "frequently", "occasionally"})
LOCATION_ADVERBS = frozenset({"here", "there", "everywhere", "somewhere", "anywhere", "nowhere", "away", "home",
                              "abroad", "outside", "inside", "upstairs", "downstairs", "nearby", "far", "back",
                              "up", "down", "out", "off", "around", "ahead"})  # fmt: skip
NOT_LY_ADVERBS = frozenset({"only", "early", "likely", "family", "holy", "ugly", "silly", "lonely", "lovely", "friendly",
                            "daily", "weekly", "monthly", "yearly", "lively", "jolly", "rely", "reply", "apply",
                            "supply", "imply", "fly", "ally", "july", "nearly", "hardly", "scarcely", "barely",
                            "merely", "really", "simply", "truly", "certainly", "probably", "perhaps", "surely",
                            "exactly", "especially", "particularly", "mostly", "partly", "largely", "mainly",
                            "directly", "accordingly", "consequently", "apparently", "obviously", "clearly",
                            "evidently", "actually", "namely", "likewise"})  # fmt: skip

# Prepositions -> AMR role (context-dependent ones are decided in the builder).
PREP_ROLES: dict[str, str] = {
    "in": ":location", "on": ":location", "at": ":location", "under": ":location", "near": ":location",
    "inside": ":location", "outside": ":location", "above": ":location", "below": ":location",
    "beneath": ":location", "behind": ":location", "beside": ":location", "besides": ":location",
    "between": ":location", "among": ":location", "amongst": ":location", "around": ":location",
    "within": ":location", "upon": ":location", "over": ":location", "beyond": ":location", "across": ":path",
    "along": ":path", "through": ":path", "throughout": ":location", "past": ":path", "via": ":path",
    "during": ":time", "from": ":source", "into": ":destination", "onto": ":destination", "toward": ":direction",
    "towards": ":direction", "about": ":topic", "concerning": ":topic", "regarding": ":topic",
    "despite": ":concession", "like": ":prep-like", "as": ":prep-as", "except": ":prep-except",
    "against": ":prep-against", "without": ":prep-without", "per": ":prep-per", "unlike": ":prep-unlike",
}  # fmt: skip
TIME_PREPS = frozenset({"before", "after", "until", "till", "since"})  # wrapped: (a / after :op1 X)

CALENDAR_NAMES = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
                            "february", "march", "april", "may", "june", "july", "august", "september", "october",
                            "november", "december", "christmas", "easter"})  # fmt: skip
"""Names of days, months and feasts."""
TIME_NOUNS = (CALENDAR_NAMES - {"may"}) | frozenset(  # "may" is far more often the modal
    {"morning", "evening", "night", "day", "week", "month", "year", "time", "moment", "hour", "minute", "second",
     "afternoon", "noon", "midnight", "dawn", "dusk", "sunset", "sunrise", "century", "decade", "period", "while",
     "age", "childhood", "youth", "season", "spring", "summer", "autumn", "fall", "winter", "weekend", "today",
     "tomorrow", "yesterday", "breakfast", "dinner", "supper", "lunch", "tea"}
)  # fmt: skip

ANIMATE_NOUNS = frozenset({"man", "woman", "child", "boy", "girl", "person", "people", "friend", "father", "mother",
                           "brother", "sister", "son", "daughter", "husband", "wife", "king", "queen", "prince",
                           "princess", "lady", "gentleman", "sir", "madam", "family", "uncle", "aunt", "cousin",
                           "baby", "teacher", "doctor", "student", "neighbour", "neighbor", "servant", "master",
                           "captain", "everyone", "everybody", "someone", "somebody", "anyone", "anybody",
                           "nobody", "grown-up"})  # fmt: skip

# spaCy NER label -> AMR named-entity type (labels not listed are not treated as names).
ENT_TYPES: dict[str, str] = {
    "PERSON": "person", "ORG": "organization", "GPE": "country", "LOC": "location", "FAC": "facility",
    "PRODUCT": "product", "EVENT": "event", "WORK_OF_ART": "work-of-art", "LANGUAGE": "language", "LAW": "law",
}  # fmt: skip
CITIES = frozenset({"london", "paris", "berlin", "rome", "madrid", "vienna", "moscow", "tokyo", "beijing", "delhi",
                    "new york", "los angeles", "chicago", "boston", "washington", "san francisco", "sydney",
                    "toronto", "bath", "brighton", "oxford", "cambridge", "manchester", "liverpool", "edinburgh",
                    "dublin", "amsterdam", "brussels", "geneva", "zurich", "lisbon", "athens", "prague",
                    "warsaw", "budapest", "cairo", "istanbul", "hong kong", "singapore", "bombay", "mumbai",
                    "weymouth", "highbury", "richmond", "portsmouth", "bristol", "york", "birmingham"})  # fmt: skip
TITLES = frozenset({"mr", "mr.", "mrs", "mrs.", "ms", "ms.", "miss", "dr", "dr.", "sir", "lady", "lord", "st", "st."})

CAUSE_MARKS = frozenset({"because", "since"})
ADVCL_MARK_ROLES: dict[str, str] = {
    "if": ":condition", "unless": ":condition", "when": ":time", "whenever": ":time", "while": ":time",
    "as": ":time", "once": ":time", "although": ":concession", "though": ":concession", "whereas": ":contrast",
    "so": ":purpose", "than": ":compared-to", "like": ":manner", "where": ":location", "wherever": ":location",
    "whether": ":condition",
}  # fmt: skip

ORDINALS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "twentieth": 20, "hundredth": 100, "last": -1,
}  # fmt: skip

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "a": 1, "an": 1, "dozen": 12,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
_DIGITS = re.compile(r"^[+-]?\d[\d,]*(\.\d+)?$")


def words_to_number(text: str) -> str | None:
    """The number a numeral spells (``"two" -> "2"``), or None when it is not a plain number."""
    words = text.lower().replace("-", " ").split()
    if not words:
        return None
    if len(words) == 1 and _DIGITS.match(words[0]):
        value = words[0].replace(",", "")
        return value.lstrip("+")
    total = current = 0
    seen = False
    for w in words:
        if w == "and":
            continue
        if w in _UNITS:
            if w in ("a", "an") and seen:
                return None
            current += _UNITS[w]
            seen = True
        elif w in _SCALES:
            current = max(current, 1) * _SCALES[w]
            if _SCALES[w] >= 1000:
                total += current
                current = 0
            seen = True
        elif _DIGITS.match(w):
            current += int(float(w.replace(",", "")))
            seen = True
        else:
            return None
    return str(total + current) if seen else None


def adverb_to_adjective(lemma: str) -> str:
    """The adjective a manner adverb derives from (``happily -> happy``); unchanged when not a ``-ly`` adverb."""
    if not lemma.endswith("ly") or len(lemma) <= 4 or lemma in NOT_LY_ADVERBS:
        return lemma
    if lemma in _LY_EXCEPTIONS:
        return _LY_EXCEPTIONS[lemma]
    if lemma.endswith("ically"):
        return lemma[:-4]
    if lemma.endswith("ily"):
        return lemma[:-3] + "y"
    if lemma.endswith(("ably", "ibly")):
        return lemma[:-1] + "e"
    if lemma.endswith("lly") and not lemma.endswith("ally"):
        return lemma[:-1]
    return lemma[:-2]


_LY_EXCEPTIONS = {"gently": "gentle", "subtly": "subtle", "wholly": "whole", "truly": "true", "duly": "due",
                  "publicly": "public", "amply": "ample", "idly": "idle", "nobly": "noble", "humbly": "humble",
                  "feebly": "feeble", "singly": "single", "doubly": "double", "terribly": "terrible"}  # fmt: skip
