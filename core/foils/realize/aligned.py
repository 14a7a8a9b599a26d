"""Alignment-preserving realizer: writes a graph edit into the source's own words.

Unlike a neural AMR-to-text generator, :class:`AlignedRealizer` never rewrites the sentence: it
edits only the tokens aligned to the nodes the edit touched (plus the function words grammar then
requires: do-support, pronoun case, agreement, ``a``/``an``, dangling prepositions and commas) and
copies every other token, with its spacing and casing, from the source. Foils therefore stay
lexically close to their source, which is what makes them hard for bag-of-words models.

What each rule does on the surface (see ``docs/realizer.md`` for the full list of choices):

- PN negate: ``not`` after the first auxiliary/copula (``can`` → ``cannot``), else do-support
  (``bites`` → ``does not bite``); nouns get ``no`` (``the cat`` → ``no cat``), adjectives and
  adverbs ``not``. Un-negate removes ``not``/``n't``/``never`` and undoes do-support.
- RS: swaps the two aligned phrases (dependency subtrees), fixing pronoun case, possessives,
  subject-verb agreement and the sentence-initial capital.
- US: deletes the node's words with their determiners, dangling prepositions and commas.
- AR/HS: substitutes the new lemma inflected like the old word (``won`` → ``lost``).

Errors are values: an edit that cannot be realized gives ``Realization(text=source, error=...)``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from core.foils.realize import morph
from core.foils.realize.work import NAME_ENTITIES, SUBJECT_DEPS, Sentence, Unrealizable, Work
from core.progress import ProgressCallback, check_cancel, report
from core.types import Edit, ParsedSentence, Realization, Token

_NEG_WORDS = frozenset({"not", "n't", "never", "no", "cannot", "nobody", "nothing", "none", "nowhere", "neither"})
_CONTRACTED_OPERATORS = {"wo": "will", "ca": "can", "sha": "shall", "ai": "is"}
_POSITIVE = {"nobody": "somebody", "nothing": "something", "nowhere": "somewhere", "none": "some", "cannot": "can"}
_NEGATABLE_DETS = frozenset({"the", "a", "an", "some", "any", "this", "that", "these", "those", "every", "each", "all"})
_MODIFIER_DEPS = frozenset({"poss", "amod", "compound", "nummod", "det", "nmod", "case", "advmod", "npadvmod"})
_SUBJECTLESS_OK = frozenset({"csubj", "csubjpass"})


class AlignedRealizer:
    """Generator backend ``aligned``: realizes :class:`Edit` s by editing the aligned source tokens.

    Needs a parser that fills ``ParsedSentence.tokens`` and ``alignment`` (the offline dependency
    parser does); for parsers without alignments every edit comes back as an error value.
    """

    name = "aligned"
    SENTENCE_CACHE = 256
    """How many sources keep their :class:`Sentence` analysis between calls (a pipeline realizes a
    batch, then the replacements of refused edits of the same sentences)."""

    def __init__(self) -> None:
        self._sentences: dict[int, tuple[ParsedSentence, Sentence]] = {}

    def generate(
        self,
        edits: Sequence[Edit],
        *,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> list[Realization]:
        """One :class:`Realization` per edit, in order; never raises for a single bad edit."""
        out: list[Realization] = []
        for n, edit in enumerate(edits):
            check_cancel(cancel)
            out.append(self.realize(edit))
            report(progress, n + 1, len(edits))
        return out

    def realize(self, edit: Edit) -> Realization:
        """Realize one edit."""
        source = edit.source
        if not source.ok:
            return self._error(edit, f"the source sentence was not parsed: {source.error}")
        if not source.tokens or not source.alignment:
            return self._error(
                edit,
                "the source parse has no token alignment; the aligned realizer needs an aligned parser "
                "(e.g. 'dep') or use a neural generator",
            )
        op = _OPERATIONS.get(edit.rule)
        if op is None:
            return self._error(edit, f"unknown rule {edit.rule!r}")
        work = Work(self._sentence(source))
        try:
            op(work, edit, _Concepts(edit))
        except Unrealizable as exc:
            return self._error(edit, str(exc))
        except (KeyError, IndexError, TypeError, ValueError) as exc:  # malformed details or alignment
            return self._error(edit, f"malformed edit for this sentence ({type(exc).__name__}: {exc})")
        work.fix_punctuation()
        work.fix_articles()
        work.fix_capitals()
        text, spans = work.render()
        if text == work.sent.text:
            return self._error(edit, "the edit left the words unchanged")
        return Realization(text=text, changed_spans=spans, generator=self.name, tokens=work.tokens())

    def _sentence(self, source: ParsedSentence) -> Sentence:
        """The read-only analysis of ``source``, shared by all its edits (cached by identity; the cache
        is emptied when full, which suits batches). Safe across threads: dict reads and writes are
        atomic, and two threads racing on one source at worst build its analysis twice."""
        hit = self._sentences.get(id(source))
        if hit is not None and hit[0] is source:
            return hit[1]
        sent = Sentence(source.tokens, source.alignment)
        if len(self._sentences) >= self.SENTENCE_CACHE:
            self._sentences.clear()
        self._sentences[id(source)] = (source, sent)
        return sent

    def _error(self, edit: Edit, message: str) -> Realization:
        return Realization(text=edit.source.text, generator=self.name, error=message)


# ---------------------------------------------------------------- helpers


class _Concepts(Mapping[str, str]):
    """Variable -> concept of the source graph, read only when a message needs a name."""

    def __init__(self, edit: Edit) -> None:
        self._edit = edit
        self._map: dict[str, str] | None = None

    def _load(self) -> dict[str, str]:
        if self._map is None:
            self._map = {}
            for graph in (self._edit.source.graph, self._edit.graph):
                for var, _, concept in graph.instances() if graph is not None else ():
                    self._map.setdefault(var, str(concept))
        return self._map

    def __getitem__(self, var: str) -> str:
        return self._load()[var]

    def __iter__(self):
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


def _detail(edit: Edit, key: str) -> Any:
    if key in edit.details:
        return edit.details[key]
    if key == "node" and edit.nodes:
        return edit.nodes[0]
    raise Unrealizable(f"the {edit.rule} edit has no {key!r} in its details")


def _head(work: Work, var: str, concepts: Mapping[str, str], parent: str | None = None) -> Token:
    return work.sent.node_head(var, concepts, parent)


def _parent(edit: Edit, var: str, role: str | None) -> str | None:
    """The node above ``var`` through ``role`` in the source graph (first match), else None."""
    for src, r, tgt in edit.source.graph.edges():
        if tgt == var and (role is None or r == role):
            return src
    return None


# ---------------------------------------------------------------- PN: negation


def _polarity(work: Work, edit: Edit, concepts: Mapping[str, str]) -> None:
    var = _detail(edit, "node")
    action = edit.details.get("action", "unnegate" if edit.variant == "unnegate" else "negate")
    if action == "unnegate":
        _unnegate(work, var, concepts)
    elif action == "negate":
        _negate(work, var, concepts)
    else:
        raise Unrealizable(f"unknown PN action {action!r}")


def _claimed_negations(sent: Sentence, but: str) -> set[int]:
    """Negation tokens the parser aligned to some other node's ``:polarity``."""
    return {
        i
        for key, idxs in sent.alignment.items()
        if key.endswith(":polarity") and key[: -len(":polarity")] != but
        for i in idxs
    }


def _has_negation(sent: Sentence, tok: Token, var: str) -> bool:
    if sent.alignment.get(f"{var}:polarity"):
        return True
    claimed = _claimed_negations(sent, var)
    heads = [tok]
    if tok.dep in ("aux", "auxpass", "acomp", "attr"):
        heads.append(sent.head(tok))
    return any(
        (k.dep == "neg" or k.text.lower() in ("not", "n't", "never")) and k.i not in claimed
        for h in heads
        for k in sent.kids(h.i)
    )


def _negated_after(sent: Sentence, op: Token) -> bool:
    """``op`` is directly followed by a negation (``can|not``, ``does|n't``)."""
    nxt = op.i + 1
    return nxt < len(sent.tokens) and sent.tok(nxt).text.lower() in ("not", "n't")


def _negate(work: Work, var: str, concepts: Mapping[str, str]) -> None:
    sent = work.sent
    tok = _head(work, var, concepts)
    if _has_negation(sent, tok, var):
        raise Unrealizable(f"'{tok.text}' is already negated; un-negate it instead")
    if tok.dep in ("aux", "auxpass") and tok.head != tok.i:
        if tok.tag == "TO":
            work.insert_before(tok.i, ["not"])
        else:
            _negate_operator(work, tok, sent.head(tok))
    elif tok.dep == "amod" and not _bare_quantifier(sent, tok):
        raise Unrealizable(
            f"cannot negate the attributive '{tok.text}' fluently ('a not {tok.text} ...' is not English "
            "and does not re-parse as negation)"
        )
    elif tok.pos in ("VERB", "AUX"):
        _negate_verb(work, tok)
    elif tok.dep in ("acomp", "attr") and sent.head(tok).lemma.lower() == "be":
        _negate_verb(work, sent.head(tok))  # the copula carries a predicate's negation: "is not happy"
    elif tok.pos == "ADV":
        raise Unrealizable(
            f"cannot negate the adverb '{tok.text}' on the surface: 'not {tok.text}' reads as negating the verb "
            "or is not English"
        )
    elif tok.pos == "ADJ" or (tok.pos in ("SCONJ", "ADP") and tok.dep in ("mark", "prep")):
        work.insert_before(tok.i, ["not"])  # "not many offices", "is known as not active", "not because ..."
    elif tok.pos == "NOUN":
        _negate_noun(work, tok)
    else:
        raise Unrealizable(
            f"cannot negate '{tok.text}' ({tok.pos}) on the surface; only verbs, adjectives, adverbs and "
            "common nouns are negated"
        )


# Common mass nouns: removing "no" gives "some water", not "a water".
_MASS_NOUNS = frozenset(
    {
        "water", "money", "information", "evidence", "advice", "news", "music", "food", "help", "support",
        "research", "knowledge", "equipment", "furniture", "progress", "damage", "rain", "snow", "air", "power",
        "energy", "time", "work", "space", "room", "light", "fun", "luck", "traffic", "weather", "milk", "bread",
        "wine", "beer", "coffee", "tea", "oil", "gas", "blood", "land", "data", "software", "training", "access",
        "control", "interest", "success", "education", "experience", "protection", "funding",
        "attention", "trade", "violence", "peace", "history", "art", "literature", "mail",
    }
)  # fmt: skip
_MASS_SUFFIXES = ("ness", "ism", "ware")
_QUANTIFIERS = frozenset({"many", "much", "more", "enough"})
_SENTENCE_ADVERBS = frozenset(
    {
        "probably", "certainly", "surely", "apparently", "clearly", "obviously", "perhaps", "maybe", "actually",
        "also", "already", "still", "even", "just", "then", "now", "soon", "sometimes", "finally", "suddenly",
        "later", "once", "again", "thus", "therefore", "indeed", "however", "only", "evidently", "presumably",
    }
)  # fmt: skip
"""Adverbs before a verb that stay before the negation ("she probably did not know"); any other adverb there
falls under it ("did not always forget", "did not quickly treat")."""
_DET_LIKE = frozenset({"many", "much", "more", "most", "few", "several", "some", "any", "enough", "other", "such"})


def _bare_quantifier(sent: Sentence, tok: Token) -> bool:
    """``many`` before a noun without a determiner: "not many offices" is English, "his not many ..." is not."""
    if tok.text.lower() not in _QUANTIFIERS:
        return False
    noun = sent.head(tok)
    return not sent.kids(noun.i, "det", "poss", "nummod", "predet") and min(sent.subtree(noun.i)) == tok.i


def _negate_verb(work: Work, verb: Token) -> None:
    sent = work.sent
    auxes = sent.kids(verb.i, "aux", "auxpass")
    if auxes:
        first = auxes[0]
        if first.tag == "TO":
            work.insert_before(first.i, ["not"])
        elif _negated_after(sent, first):  # the auxiliary's own negation: "cannot not remember"
            work.insert_before(verb.i, ["not"])
        else:
            _negate_operator(work, first, verb)
        return
    if verb.lemma.lower() == "be" or verb.tag == "MD":
        _negate_operator(work, verb, verb)
        return
    finite = verb.tag in ("VBZ", "VBD", "VBP") or (
        verb.tag == "VB" and (verb.dep == "ROOT" or sent.subject(verb.i) is not None)
    )
    if finite:
        tag, lemma = verb.tag, verb.lemma
        past = morph.past_tense_lemma(verb.text) if tag in ("VBP", "VBZ") else None
        if past is not None:  # "the bells rang" tagged VBP: "did not ring", not "do not rang"
            tag, lemma = "VBD", past
        do = {"VBZ": "does", "VBD": "did"}.get(tag, "do")
        at = verb.i
        while (
            at > 0
            and sent.tok(at - 1).dep == "advmod"
            and sent.tok(at - 1).head == verb.i
            and (sent.tok(at - 1).text.lower() not in _SENTENCE_ADVERBS)
        ):
            at -= 1  # "always forgets" -> "does not always forget"; "quickly treated" -> "did not quickly treat"
        work.insert_before(at, [morph.match_case(do, verb.text) if verb.text.isupper() else do, "not"])
        work.replace(verb.i, morph.base_form(verb.text, lemma))
    else:  # participle, gerund or bare infinitive: "not sitting", "not eaten"
        work.insert_before(verb.i, ["not"])


def _negate_operator(work: Work, op: Token, clause: Token) -> None:
    """``not`` after a finite auxiliary/copula/modal; after the subject when it is inverted (questions)."""
    sent = work.sent
    subj = sent.subject(clause.i) or sent.subject(op.i)
    if subj is not None and subj.i > op.i:
        work.insert_after(max(sent.subtree(subj.i)), ["not"])
    elif op.text.lower() == "can":
        work.replace(op.i, morph.match_case("cannot", op.text))
    else:
        work.insert_after(op.i, ["not" if not op.text.isupper() else "NOT"])


def _negate_noun(work: Work, noun: Token) -> None:
    sent = work.sent
    if noun.dep in ("compound", "poss", "appos", "nummod", "amod"):
        raise Unrealizable(f"cannot negate '{noun.text}' ({noun.dep}) on the surface")
    if noun.dep == "conj" and sent.head(noun).dep in ("compound", "amod", "nmod"):
        raise Unrealizable(f"cannot negate '{noun.text}': it is a conjunct inside a modifier")
    blockers = sent.kids(noun.i, "poss", "nummod", "quantmod", "predet") + [
        k for k in sent.kids(noun.i, "amod") if k.text.lower() in _DET_LIKE
    ]
    if blockers:
        raise Unrealizable(
            f"cannot negate '{sent.phrase_text(sent.subtree(noun.i))}' with 'no': it already has '{blockers[0].text}'"
        )
    dets = sent.kids(noun.i, "det")
    if dets:
        det = dets[0]
        if det.text.lower() not in _NEGATABLE_DETS:
            raise Unrealizable(f"cannot negate '{det.text} {noun.text}' with 'no'")
        work.replace(det.i, morph.match_case("no", det.text))
    else:
        work.insert_before(min(sent.subtree(noun.i)), ["no"])


def _negation_tokens(sent: Sentence, var: str, concepts: Mapping[str, str]) -> list[Token]:
    key = f"{var}:polarity"
    if sent.alignment.get(key):
        return [sent.tok(i) for i in sorted(set(sent.alignment[key])) if 0 <= i < len(sent.tokens)]
    tok = sent.node_head(var, concepts)
    if tok.text.lower() in _NEG_WORDS:
        return [tok]
    heads = [tok]
    if tok.dep in ("aux", "auxpass", "acomp", "attr", "oprd"):
        heads.append(sent.head(tok))
    found = [
        k
        for h in heads
        for k in sent.kids(h.i)
        if k.dep == "neg" or (k.text.lower() in _NEG_WORDS and k.dep in ("det", "advmod", "neg", "preconj"))
    ]
    return sorted({k.i: k for k in found}.values(), key=lambda t: t.i)


def _unnegate(work: Work, var: str, concepts: Mapping[str, str]) -> None:
    sent = work.sent
    negs = _negation_tokens(sent, var, concepts)
    if not negs:
        tok = sent.node_head(var, concepts)
        raise Unrealizable(f"no negation word found for '{tok.text}' to remove")
    for neg in negs:
        _remove_negation(work, neg)


def _remove_negation(work: Work, neg: Token) -> None:
    sent = work.sent
    low = neg.text.lower()
    if low in ("not", "n't"):
        prev = sent.tok(neg.i - 1) if neg.i > 0 else None
        verb = sent.head(neg)
        if prev is not None and low == "n't" and prev.text.lower() in _CONTRACTED_OPERATORS:
            work.replace(prev.i, morph.match_case(_CONTRACTED_OPERATORS[prev.text.lower()], prev.text))
        if prev is not None and _is_do_support(sent, prev, verb):
            work.delete(prev.i)
            if prev.tag in ("VBZ", "VBD"):
                form = morph.inflect(verb.lemma.lower(), prev.tag)
                work.replace(verb.i, morph.match_case(form, verb.text) if verb.text.isupper() else form)
        work.delete(neg.i)
    elif low == "never":
        work.delete(neg.i)
    elif low == "no":
        head = sent.head(neg)
        if head.pos in ("ADV", "ADJ") or head.tag in ("JJR", "RBR"):  # "no longer" has no positive "a longer"
            raise Unrealizable(f"cannot un-negate '{neg.text} {head.text}' by removing '{neg.text}'")
        if head.text.lower() == "one" and head.i == neg.i + 1:  # "spoke to no one" -> "spoke to someone"
            work.replace(neg.i, morph.match_case("someone", neg.text))
            work.delete(head.i)
            return
        mass = head.lemma.lower() in _MASS_NOUNS or head.lemma.lower().endswith(_MASS_SUFFIXES)
        in_phrase = head.dep == "pobj"  # "of no consequence" -> "of some consequence", not "of a consequence"
        word = "some" if head.tag in ("NNS", "NNPS") or mass or in_phrase else "a"  # a/an: fix_articles
        work.replace(neg.i, morph.match_case(word, neg.text))
    elif low in _POSITIVE:
        work.replace(neg.i, morph.match_case(_POSITIVE[low], neg.text))
    else:
        raise Unrealizable(f"cannot remove the negation carried by '{neg.text}'")


def _is_do_support(sent: Sentence, aux: Token, verb: Token) -> bool:
    """``does``/``did``/``do`` that only carries a negation (``does not bite``), not a question's inversion."""
    if aux.lemma.lower() != "do" or aux.dep != "aux" or aux.head != verb.i or verb.tag != "VB":
        return False
    subj = sent.subject(verb.i)
    return subj is None or subj.i < aux.i


# ---------------------------------------------------------------- RS: role swap


def _phrase(sent: Sentence, tok: Token, other: Token) -> tuple[int, int]:
    """The contiguous span of ``tok``'s subtree, without the dependent that holds ``other``, case markers
    and edge punctuation ("the ideas underlying the plan" swapped with "the plan": "the ideas")."""
    sub = set(sent.subtree(tok.i))
    if other.i in sub:  # nested: drop the whole dependent that leads to the other phrase
        branch = next(c for c in sent.children[tok.i] if other.i in sent.subtree(c))
        sub -= set(sent.subtree(branch))
    for k in sent.kids(tok.i, "conj", "cc", "appos", "preconj"):  # a conjunct moves alone: "Puritan", not
        sub -= set(sent.subtree(k.i))  # "Puritan and Evangelical"; an apposition stays with its place
    for marker in sent.kids(tok.i, "case"):
        sub -= set(sent.subtree(marker.i))
    lo = hi = tok.i
    while lo - 1 in sub:
        lo -= 1
    while hi + 1 in sub:
        hi += 1
    run = set(range(lo, hi + 1))

    def dangling(i: int) -> bool:
        t = sent.tok(i)
        if t.pos == "PUNCT" or t.dep in ("cc", "case", "mark"):
            return True
        return t.dep in ("prep", "agent", "dative") and not set(sent.subtree(i)) <= run

    while lo < tok.i and dangling(lo):
        lo += 1
    while hi > tok.i and dangling(hi):
        hi -= 1
    return lo, hi


_NOMINAL = frozenset({"NOUN", "PROPN", "PRON", "NUM"})


def _category(tok: Token) -> str:
    if tok.pos in _NOMINAL:
        return "noun phrase"
    if tok.pos in ("VERB", "AUX"):
        return "clause"
    return {"ADJ": "adjective", "ADV": "adverb"}.get(tok.pos, tok.pos.lower())


def _swappable(sent: Sentence, ta: Token, tb: Token) -> tuple[Token, Token]:
    """Heads of two phrases of the same kind; a predicate adjective/noun swapped with a clause stands for its copula."""
    ca, cb = _category(ta), _category(tb)
    if ca != cb and "clause" in (ca, cb):
        ta, tb = (_copula(sent, ta) if ca != "clause" else ta), (_copula(sent, tb) if cb != "clause" else tb)
        ca, cb = _category(ta), _category(tb)
    if ca != cb:
        raise Unrealizable(
            f"cannot swap the {ca} '{ta.text}' with the {cb} '{tb.text}': the sentence would no longer parse"
        )
    return ta, tb


_SLOT_CLASSES = {
    **dict.fromkeys(("compound", "amod", "nmod", "nummod", "quantmod"), "a modifier before a noun"),
    **dict.fromkeys(("npadvmod", "advmod", "tmod"), "an adverbial"),
    "appos": "an apposition",
}
_TIME_ENTITIES = frozenset({"DATE", "TIME"})


def _glued_hyphen(sent: Sentence, i: int, neighbour: int) -> bool:
    """Token ``i`` is a hyphen written without a space against token ``neighbour`` ("E-Plus")."""
    if not 0 <= i < len(sent.tokens) or sent.tok(i).text not in ("-", "–"):
        return False
    return sent.tok(min(i, neighbour)).whitespace == ""


def _hyphenated(sent: Sentence, tok: Token) -> bool:
    """``tok`` is glued to a hyphen: part of "two-dimensional" or "pre-rendered"."""
    before = tok.i > 0 and sent.tok(tok.i - 1).text in ("-", "–") and sent.tok(tok.i - 1).whitespace == ""
    after = tok.i + 1 < len(sent.tokens) and sent.tok(tok.i + 1).text in ("-", "–") and tok.whitespace == ""
    return bool(before or after)


def _same_slot(sent: Sentence, ta: Token, tb: Token) -> None:
    """Two phrases can trade places only when each fits the other's slot: a noun modifier with a noun
    modifier, an adverbial with an adverbial, and a date or time with a date or time ("led 1938" is no foil,
    and its re-parse reads "in fieldwork" as a place, not the intended time)."""
    sa, sb = _SLOT_CLASSES.get(ta.dep, "an argument"), _SLOT_CLASSES.get(tb.dep, "an argument")
    if sa != sb:
        raise Unrealizable(f"cannot swap '{ta.text}' ({sa}) with '{tb.text}' ({sb}): neither fits the other's slot")
    if sa != "an argument" and (
        (ta.dep, ta.pos) != (tb.dep, tb.pos) or (ta.text.lower() in _DET_LIKE) != (tb.text.lower() in _DET_LIKE)
    ):
        raise Unrealizable(
            f"cannot swap the modifiers '{ta.text}' ({ta.dep}) and '{tb.text}' ({tb.dep}): different kinds"
        )
    for t in (ta, tb):
        if _hyphenated(sent, t):
            raise Unrealizable(f"cannot move '{t.text}' out of its hyphenated word")
    if (ta.ent_type in _TIME_ENTITIES) != (tb.ent_type in _TIME_ENTITIES):
        raise Unrealizable(f"cannot swap '{ta.text}' with '{tb.text}': only one of them is a date or time")


def _copula(sent: Sentence, tok: Token) -> Token:
    head = sent.head(tok)
    if tok.dep in ("acomp", "attr", "oprd") and head.lemma.lower() == "be":
        return head
    return tok


def _role_case(sent: Sentence, dest: Token) -> str:
    if dest.tag in ("PRP$", "WP$") or dest.dep == "poss":
        return "poss"
    if dest.dep in SUBJECT_DEPS:
        return "nom"
    if dest.dep == "conj":  # a conjunct takes the case of the first conjunct
        return _role_case(sent, sent.head(dest))
    return "acc"


def _clause_spans(sent: Sentence, main: Token, sub: Token) -> tuple[tuple[int, int], tuple[int, int]]:
    """The bodies of a main clause and its adverbial clause, without the subordinator, the comma between
    them and the final punctuation: the two spans a clause swap exchanges."""
    sub_all = sorted(sent.subtree(sub.i))
    lo, hi = sub_all[0], sub_all[-1]

    def subordinator(t: Token) -> bool:  # "although", "even though" ("even" modifies the mark), "when" (advmod WRB)
        before_mark = t.i + 1 < len(sent.tokens) and sent.tok(t.i + 1).dep == "mark"
        wh = t.tag == "WRB" and t.head == sub.i
        return (
            t.dep == "mark"
            or t.pos == "PUNCT"
            or (t.dep == "advmod" and (sent.head(t).dep == "mark" or before_mark or wh))
        )

    while lo <= hi and subordinator(sent.tok(lo)):
        lo += 1
    while hi >= lo and sent.tok(hi).pos == "PUNCT":
        hi -= 1
    rest = [i for i in sorted(sent.subtree(main.i)) if i not in set(sub_all)]
    while rest and sent.tok(rest[0]).pos == "PUNCT":
        rest.pop(0)
    while rest and (sent.tok(rest[-1]).pos == "PUNCT" or sent.tok(rest[-1]).dep == "cc"):
        rest.pop()
    if not rest or rest != list(range(rest[0], rest[-1] + 1)) or lo > hi:
        raise Unrealizable(f"the clauses of '{main.text}' and '{sub.text}' are not two separate phrases")
    return (lo, hi), (rest[0], rest[-1])


def _swap_clauses(work: Work, edit: Edit, concepts: Mapping[str, str]) -> None:
    sent = work.sent
    main, sub = _head(work, _detail(edit, "a"), concepts), _head(work, _detail(edit, "b"), concepts)
    main, sub = _copula(sent, main), _copula(sent, sub)  # "he was tired": the clause is headed by "was"
    if sub.head != main.i or sub.dep != "advcl":
        raise Unrealizable(f"'{sub.text}' does not head a subordinate clause of '{main.text}'")
    span_sub, span_main = _clause_spans(sent, main, sub)
    first, second = sorted((span_sub, span_main))
    if first[1] >= second[0]:
        raise Unrealizable("the two clauses overlap")
    work.swap_spans(first, second)


def _swap(work: Work, edit: Edit, concepts: Mapping[str, str]) -> None:
    if edit.details.get("clauses"):
        _swap_clauses(work, edit, concepts)
        return
    sent = work.sent
    va, vb = _detail(edit, "a"), _detail(edit, "b")
    roles = tuple(edit.details.get("roles") or (None, None))
    parents = tuple(edit.details.get("parents") or ())
    if len(parents) != 2:
        event = edit.details.get("event")
        parents = (event, event) if event else (_parent(edit, va, roles[0]), _parent(edit, vb, roles[1]))
    ta, tb = _head(work, va, concepts, parents[0]), _head(work, vb, concepts, parents[1])
    if ta.i == tb.i:
        raise Unrealizable(f"'{ta.text}' stands for both swapped nodes")
    for tok, parent in ((ta, parents[0]), (tb, parents[1])):
        _in_clause(work, tok, parent, concepts)
    ta, tb = _swappable(sent, ta, tb)
    for inner, outer in ((ta, tb), (tb, ta)):
        if inner.head == outer.i and inner.dep in _MODIFIER_DEPS:
            raise Unrealizable(f"cannot swap '{outer.text}' with its own modifier '{inner.text}'")
    _same_slot(sent, ta, tb)
    span_a, span_b = _phrase(sent, ta, tb), _phrase(sent, tb, ta)
    for lo, hi in (span_a, span_b):
        if _glued_hyphen(sent, lo - 1, lo) or _glued_hyphen(sent, hi + 1, hi):
            raise Unrealizable(f"cannot move '{sent.phrase_text(range(lo, hi + 1))}' out of its hyphenated word")
    if not (span_a[1] < span_b[0] or span_b[1] < span_a[0]):
        raise Unrealizable(f"the phrases of '{ta.text}' and '{tb.text}' overlap")
    first, second = sorted((span_a, span_b))
    work.swap_spans(first, second)
    _fit_role(work, ta, span_a, tb)
    _fit_role(work, tb, span_b, ta)
    for moved, dest in ((ta, tb), (tb, ta)):
        if dest.dep in ("nsubj", "nsubjpass"):
            _agree(work, moved, dest)


def _in_clause(work: Work, tok: Token, parent: str | None, concepts: Mapping[str, str]) -> None:
    """``tok`` must be written inside its parent's phrase: a controller ("asks Kabir to end ...") or the
    head a participle modifies ("an album ... featuring") stands outside the clause, and moving it rewrites
    the wrong clause."""
    if parent is None or not work.sent.alignment.get(parent):
        return
    head = _head(work, parent, concepts)
    if head.pos not in ("VERB", "AUX") or tok.pos not in _NOMINAL:
        return
    if head.i != tok.i and tok.i not in work.sent.subtree(head.i):
        raise Unrealizable(f"'{tok.text}' is not written inside the phrase of '{head.text}'")


def _fit_role(work: Work, moved: Token, span: tuple[int, int], dest: Token) -> None:
    """Give the moved phrase the case its new place requires: he/him/his, John/John's."""
    sent = work.sent
    case = _role_case(sent, dest)
    markers = [m for m in sent.kids(dest.i, "case") if m.text in ("'s", "'", "’s", "’")]
    identity = morph.pronoun_identity(moved.text) if moved.pos == "PRON" else None
    if identity is not None:
        work.replace(moved.i, morph.pronoun_form(identity, case))
        if case == "poss":
            for marker in markers:
                work.delete(marker.i)
    elif case == "poss" and not markers:
        last = sent.tok(span[1])
        marker = "'" if last.tag in ("NNS", "NNPS") and last.text.endswith("s") else "'s"
        work.insert_after(span[1], [marker], attach=True)


def _agreement(sent: Sentence, tok: Token) -> tuple[int, bool]:
    identity = morph.pronoun_identity(tok.text) if tok.pos == "PRON" else None
    coordinated = any(k.text.lower() == "and" for k in sent.kids(tok.i, "cc")) and bool(sent.kids(tok.i, "conj"))
    return morph.agreement_of(identity, tok.tag, plural_hint=coordinated)


def _agree(work: Work, new_subject: Token, old_subject: Token) -> None:
    """Re-inflect the finite verb of ``old_subject``'s clause for the phrase that moved into its place."""
    sent = work.sent
    old, new = _agreement(sent, old_subject), _agreement(sent, new_subject)
    if old == new:
        return
    clause = sent.head(old_subject)
    auxes = [a for a in sent.kids(clause.i, "aux", "auxpass") if a.tag not in ("TO",)]
    finite = auxes[0] if auxes else clause
    if finite.tag not in ("VBZ", "VBP", "VBD"):
        return
    form = morph.agree_verb(work.current(finite.i), finite.lemma.lower(), finite.tag, *new)
    work.replace(finite.i, form)


# ---------------------------------------------------------------- US: underspecification


def _drop(work: Work, edit: Edit, concepts: Mapping[str, str]) -> None:
    sent = work.sent
    var = _detail(edit, "node")
    toks = sent.node_tokens(var, concepts)
    head = sent.node_head(var, concepts, edit.details.get("parent"))
    if head.head == head.i or head.dep == "ROOT":
        raise Unrealizable(f"'{head.text}' is the main word of the sentence; dropping it leaves no sentence")
    if head.dep in SUBJECT_DEPS and head.dep not in _SUBJECTLESS_OK:
        raise Unrealizable(
            f"dropping the subject '{sent.phrase_text(sent.subtree(head.i))}' would leave "
            f"'{sent.head(head).text}' without one"
        )
    dropped = set(edit.details.get("subtree") or (var,))  # a whole phrase drops all its nodes' words
    others = {i for i, owners in sent.owner.items() if owners - dropped}
    doomed = {t.i for t in toks}
    for other in dropped - {var}:
        doomed |= {i for i in sent.alignment.get(other, ()) if 0 <= i < len(sent.tokens)}
    stack = sorted(doomed)
    while stack:
        i = stack.pop()
        for c in sent.children[i]:
            if c in others or c in doomed:
                continue
            doomed.add(c)
            stack.append(c)
    # a preposition (chain) left without its object goes too: "delivered (by postmen)"
    cur = head
    while cur.dep in ("pobj", "pcomp") and (sent.head(cur).pos == "ADP" or sent.head(cur).dep in ("prep", "agent")):
        prep = sent.head(cur)
        if set(sent.children[prep.i]) - doomed:
            break
        doomed.add(prep.i)
        cur = prep
    # a coordinator left without one of its conjuncts
    if head.dep == "conj":
        siblings = [k for k in sent.kids(head.head, "conj") if k.i not in doomed]
        if not siblings:
            for cc in sent.kids(head.head, "cc", "punct"):
                if cc.i < head.i and (cc.dep == "cc" or cc.text == ","):
                    doomed.add(cc.i)
    for cc in sent.kids(head.i, "cc"):
        doomed.add(cc.i)
    for i in sorted(doomed):  # a hyphen glued to a deleted word: "non-Israeli" minus "non"
        for j, glued in ((i + 1, sent.tok(i).whitespace == ""), (i - 1, i > 0 and sent.tok(i - 1).whitespace == "")):
            if glued and 0 <= j < len(sent.tokens) and sent.tok(j).text in ("-", "–") and j not in doomed:
                doomed.add(j)
    for i in sorted(doomed):
        work.delete(i)
    if head.dep == "poss":  # "her name" -> "the name"
        noun = sent.head(head)
        if not [d for d in sent.kids(noun.i, "det") if d.i not in doomed]:
            left = min(i for i in sent.subtree(noun.i) if i not in doomed)
            work.insert_before(left, ["the"])


# ---------------------------------------------------------------- AR / HS: substitution


def _substitute(work: Work, edit: Edit, concepts: Mapping[str, str]) -> None:
    sent = work.sent
    var = _detail(edit, "node")
    lemma = str(edit.details.get("new_lemma") or "").strip()
    if not lemma:
        lemma = _lemma_of_concept(str(_detail(edit, "new_concept")))
    lemma = " ".join(lemma.replace("_", " ").split())
    if not lemma:
        raise Unrealizable("the substitution has an empty new lemma")
    toks = sent.node_tokens(var, concepts)
    head = sent.node_head(var, concepts)
    if head.ent_type in NAME_ENTITIES or (head.pos == "PROPN" and not head.text.isupper()):
        name = sent.phrase_text(t.i for t in toks)
        raise Unrealizable(f"'{head.text}' is part of a name ('{name}'): a name keeps its words")
    old_lemma = str(edit.details.get("old_lemma") or "").lower()
    if head.text.lower() in (old_lemma, head.lemma.lower()) and head.tag in ("JJS", "RBS", "JJR", "RBR"):
        form = morph.match_case(lemma, head.text)  # "most" -> "least", not "most least"
    else:
        form = morph.match_case(morph.inflect(lemma, head.tag), head.text)  # "Mad for Madonna" -> "Sane for ..."
    work.replace(head.i, form)
    for tok in toks:
        if tok.i != head.i:
            work.delete(tok.i)


def _lemma_of_concept(concept: str) -> str:
    """``lose-02`` → ``lose``; ``ice-cream`` stays (no sense suffix)."""
    stem, _, sense = concept.rpartition("-")
    return stem if stem and sense.isdigit() else concept


_OPERATIONS: dict[str, Callable[[Work, Edit, Mapping[str, str]], None]] = {
    "PN": _polarity,
    "RS": _swap,
    "US": _drop,
    "AR": _substitute,
    "HS": _substitute,
}
