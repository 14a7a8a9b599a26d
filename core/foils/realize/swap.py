"""The RS operation: swaps the two aligned phrases (dependency subtrees) or two clauses, fixing pronoun
case, possessives, subject-verb agreement and the sentence-initial capital. One entry: :func:`swap`.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.foils.realize import morph
from core.foils.realize.details import detail, head_of, parent_of
from core.foils.realize.work import DET_LIKE, SUBJECT_DEPS, Sentence, Unrealizable, Work
from core.types import Edit, Token

_MODIFIER_DEPS = frozenset({"poss", "amod", "compound", "nummod", "det", "nmod", "case", "advmod", "npadvmod"})


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

    def connective(i: int) -> bool:  # the "so" of "A, so B" stays between the clauses when they trade places
        t = sent.tok(i)
        return t.dep == "advmod" and t.text.lower() == "so" and t.head == tok.i

    while lo < tok.i and (dangling(lo) or connective(lo)):
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
        (ta.dep, ta.pos) != (tb.dep, tb.pos) or (ta.text.lower() in DET_LIKE) != (tb.text.lower() in DET_LIKE)
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
    main, sub = head_of(work, detail(edit, "a"), concepts), head_of(work, detail(edit, "b"), concepts)
    main, sub = _copula(sent, main), _copula(sent, sub)  # "he was tired": the clause is headed by "was"
    if sub.head != main.i or sub.dep != "advcl":
        raise Unrealizable(f"'{sub.text}' does not head a subordinate clause of '{main.text}'")
    span_sub, span_main = _clause_spans(sent, main, sub)
    first, second = sorted((span_sub, span_main))
    if first[1] >= second[0]:
        raise Unrealizable("the two clauses overlap")
    work.swap_spans(first, second)


def swap(work: Work, edit: Edit, concepts: Mapping[str, str]) -> None:
    if edit.details.get("clauses"):
        _swap_clauses(work, edit, concepts)
        return
    sent = work.sent
    va, vb = detail(edit, "a"), detail(edit, "b")
    roles = tuple(edit.details.get("roles") or (None, None))
    parents = tuple(edit.details.get("parents") or ())
    if len(parents) != 2:
        event = edit.details.get("event")
        parents = (event, event) if event else (parent_of(edit, va, roles[0]), parent_of(edit, vb, roles[1]))
    ta, tb = head_of(work, va, concepts, parents[0]), head_of(work, vb, concepts, parents[1])
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
    head = head_of(work, parent, concepts)
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
