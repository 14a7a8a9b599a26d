"""The US operation: deletes the node's words with their determiners, dangling prepositions and commas.
One entry: :func:`drop`.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.foils.realize.details import detail
from core.foils.realize.work import SUBJECT_DEPS, Unrealizable, Work
from core.types import Edit, Token

_SUBJECTLESS_OK = frozenset({"csubj", "csubjpass"})


def drop(work: Work, edit: Edit, concepts: Mapping[str, str]) -> None:
    sent = work.sent
    var = detail(edit, "node")
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
    _drop_bare_prepositions(work, head, doomed)
    _check_nothing_stranded(work, head, doomed)
    _check_comparison_kept(work, head, doomed)
    _check_clause_word_kept(work, head, doomed)
    # a coordinator left without one of its conjuncts
    if head.dep == "conj":
        siblings = [k for k in sent.kids(head.head, "conj") if k.i not in doomed]
        if not siblings:
            for cc in sent.kids(head.head, "cc", "punct"):
                if cc.i < head.i and (cc.dep == "cc" or cc.text == ","):
                    doomed.add(cc.i)
    for cc in sent.kids(head.i, "cc"):
        doomed.add(cc.i)
    _drop_list_comma(work, doomed)
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


def _drop_bare_prepositions(work: Work, head: Token, doomed: set[int]) -> None:
    """A preposition (chain) left without its object goes too, with its own commas and brackets ("delivered (by
    postmen)", "close to Lough Corrib, (on the N59 road,) in Connemara"); one that keeps another word ("then in
    (1917)") cannot stand without its object, so the drop is refused."""
    sent = work.sent
    cur = head
    while cur.dep in ("pobj", "pcomp") and (sent.head(cur).pos == "ADP" or sent.head(cur).dep in ("prep", "agent")):
        prep = sent.head(cur)
        left = [sent.tok(c) for c in sent.children[prep.i] if c not in doomed]
        if any(t.dep in ("pobj", "pcomp") for t in left):
            return
        if any(t.dep not in ("punct", "cc", "conj") for t in left):
            raise Unrealizable(f"dropping '{cur.text}' would leave '{prep.text}' without its object")
        doomed.add(prep.i)
        doomed.update(t.i for t in left if t.dep in ("punct", "cc"))
        cur = prep


def _drop_list_comma(work: Work, doomed: set[int]) -> None:
    """The first of two comma-separated modifiers takes its comma along: "a tall, stooping gentleman" -> "a
    stooping gentleman", not "a, stooping gentleman"."""
    sent = work.sent
    first, after = min(doomed), max(doomed) + 1
    if first == 0 or after >= len(sent.tokens) or after in doomed or sent.tok(after).text != ",":
        return
    before = sent.tok(first - 1)
    determiner = before.dep in ("det", "poss") or before.text.lower() in ("a", "an", "the")
    if determiner and set(range(first, after)) <= doomed:
        doomed.add(after)


_COMPLEMENT_DEPS = frozenset({"attr", "acomp", "prep", "xcomp", "ccomp", "oprd", "advmod", "npadvmod", "agent"})


def _check_nothing_stranded(work: Work, head: Token, doomed: set[int]) -> None:
    """Refuse a drop that leaves a possessive or determiner without its noun ("owed his tailor forty pounds" ->
    "owed his forty pounds", "its thatch sagging" -> "its sagging"), a list without its first member ("with a brown
    face, a loud laugh and no manners" -> "at twenty, a loud laugh") or a copula without its complement ("I'll be
    about an hour late" -> "I'll be")."""
    sent = work.sent
    kept = [(d, sent.tok(c)) for d in sorted(doomed) for c in sent.children[d] if c not in doomed]
    stranded = [k for _, k in kept if k.dep in ("poss", "det", "case")]
    if stranded:
        raise Unrealizable(f"dropping '{head.text}' would leave '{stranded[0].text}' without its noun")
    listed = [k for d, k in kept if k.dep == "conj" and sent.tok(d).pos in ("NOUN", "PROPN")]
    if listed:
        raise Unrealizable(f"dropping '{head.text}' would leave the list of '{listed[0].text}' without its head")
    governor = sent.head(head)
    if governor.lemma.lower() == "be" and governor.dep not in ("aux", "auxpass"):
        complements = [
            c
            for c in sent.children[governor.i]
            if c not in doomed and c > governor.i and sent.tok(c).dep in _COMPLEMENT_DEPS
        ]  # what stands before the copula ("so I'll be") is no complement
        if not complements:
            raise Unrealizable(f"dropping '{head.text}' would leave '{governor.text}' without its complement")


_COMPARATIVE_WORDS = frozenset({"more", "less", "fewer", "rather", "sooner"})


def _check_comparison_kept(work: Work, head: Token, doomed: set[int]) -> None:
    """Refuse a drop that leaves a "than" without its comparative ("rose more sharply in May than expected" ->
    "rose in May than expected"). A "than" belongs to the nearest comparative before it."""
    sent = work.sent
    for than in (t for t in sent.tokens if t.text.lower() == "than" and t.i not in doomed):
        comparative = next(
            (t for t in reversed(sent.tokens[: than.i]) if t.tag in ("JJR", "RBR") or t.text.lower() in _COMPARATIVE_WORDS),
            None,
        )
        if comparative is not None and comparative.i in doomed:
            raise Unrealizable(f"dropping '{head.text}' would leave 'than' without its comparative")


_RELATIVE_WORDS = frozenset({"which", "who", "whom", "whose"})


def _check_clause_word_kept(work: Work, head: Token, doomed: set[int]) -> None:
    """Refuse a drop that takes the word joining a clause to the sentence: a relative pronoun ("a mist, from which
    only the tops emerged" -> "a mist, only the tops emerged") or a question word after a preposition ("by how
    slowly the till processed payments" -> "by the till processed payments"); "knew what it would cost" -> "knew
    it would cost" and "see how deeply it struck him" -> "see it struck him" stay."""
    sent = work.sent
    words = [sent.tok(i) for i in sorted(doomed) if sent.tok(i).tag in ("WRB", "WDT", "WP", "WP$")]
    after_preposition = min(doomed) > 0 and sent.tok(min(doomed) - 1).pos == "ADP"
    if any(t.text.lower() in _RELATIVE_WORDS for t in words) or (words and after_preposition):
        raise Unrealizable(f"dropping '{head.text}' would take '{words[0].text}', which joins its clause to the sentence")

