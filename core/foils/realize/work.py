"""The aligned realizer's working copy of a sentence: token slots that are edited, moved and rendered.

A :class:`Sentence` is the read-only view of one parsed source (dependency children, subtrees,
aligned tokens); a :class:`Work` is a mutable list of :class:`Slot` (one per source token, plus
inserted words) that renders back to text with the source's own whitespace, and reports the
character spans that changed.

>>> from core.types import Token
>>> toks = (Token(0, "Cats", "cat", "NOUN", "NNS", "nsubj", 1, 0, " "),
...         Token(1, "sleep", "sleep", "VERB", "VBP", "ROOT", 1, 5, ""),
...         Token(2, ".", ".", "PUNCT", ".", "punct", 1, 10, ""))
>>> work = Work(Sentence(toks, {}))
>>> work.insert_before(1, ["do", "not"])
>>> work.render()
('Cats do not sleep.', ((5, 11),))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from core.foils.realize import morph
from core.types import Token

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
NAME_ENTITIES = frozenset(
    {"PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE"}
)
# Quantity words that act like determiners (PN's "no" placement, RS's slot check).
DET_LIKE = frozenset({"many", "much", "more", "most", "few", "several", "some", "any", "enough", "other", "such"})
_CLAUSE_PUNCT = frozenset({",", ";", ":"})
_CLOSING_PUNCT = frozenset({",", ";", ":", ".", "!", "?", ")", "]", "..."})


class Unrealizable(Exception):
    """An edit that cannot be written into the source's words; becomes ``Realization.error``."""


class Sentence:
    """Read-only view of a parsed source: tokens, dependency children, aligned tokens per node."""

    def __init__(self, tokens: Sequence[Token], alignment: Mapping[str, Sequence[int]]) -> None:
        self.tokens = tuple(tokens)
        self.alignment = alignment
        n = len(self.tokens)
        self.children: list[list[int]] = [[] for _ in range(n)]
        for tok in self.tokens:
            if tok.head != tok.i and 0 <= tok.head < n:
                self.children[tok.head].append(tok.i)
        self.owner: dict[int, set[str]] = {}
        for key, idxs in alignment.items():
            if ":" in key:
                continue
            for i in idxs:
                self.owner.setdefault(i, set()).add(key)
        words = [t.i for t in self.tokens if any(ch.isalpha() for ch in t.text)]
        self.first_word = words[0] if words else 0
        self.text = "".join(t.text + t.whitespace for t in self.tokens)
        self.articles = frozenset(t.i for t in self.tokens if t.text.lower() in ("a", "an"))
        self._subtrees: dict[int, tuple[int, ...]] = {}

    def tok(self, i: int) -> Token:
        return self.tokens[i]

    def head(self, tok: Token) -> Token:
        return self.tokens[tok.head] if 0 <= tok.head < len(self.tokens) else tok

    def kids(self, i: int, *deps: str) -> list[Token]:
        """Children of token ``i`` in order, optionally only those with one of ``deps``."""
        return [self.tokens[c] for c in self.children[i] if not deps or self.tokens[c].dep in deps]

    def quoted(self, i: int) -> bool:
        """Token ``i`` stands inside quotation marks."""
        return self._quoted[i]

    @cached_property
    def _quoted(self) -> tuple[bool, ...]:
        return quoted_tokens(self.tokens)

    def subtree(self, i: int) -> tuple[int, ...]:
        """Sorted indices of token ``i`` and all its descendants."""
        if i not in self._subtrees:
            out, stack = [], [i]
            while stack:
                j = stack.pop()
                out.append(j)
                stack.extend(self.children[j])
            self._subtrees[i] = tuple(sorted(out))
        return self._subtrees[i]

    def subject(self, i: int) -> Token | None:
        found = self.kids(i, *SUBJECT_DEPS)
        return found[0] if found else None

    def phrase_text(self, idxs: Iterable[int]) -> str:
        return "".join(self.tokens[i].text + self.tokens[i].whitespace for i in sorted(idxs)).strip()

    def node_tokens(self, var: str, concepts: Mapping[str, str] | None = None) -> list[Token]:
        """The tokens aligned to graph node ``var``; :class:`Unrealizable` when there are none
        (``concepts`` names the node in that message)."""
        idxs = [i for i in self.alignment.get(var, ()) if 0 <= i < len(self.tokens)]
        if not idxs:
            concept = concepts.get(var, "") if concepts is not None else ""
            label = f"{var} / {concept}" if concept else var
            raise Unrealizable(f"node ({label}) has no aligned token, so its words cannot be edited in place")
        return [self.tokens[i] for i in sorted(set(idxs))]

    def node_head(self, var: str, concepts: Mapping[str, str] | None = None, parent: str | None = None) -> Token:
        """The syntactic head among the tokens aligned to ``var`` (the one whose head is outside).

        A re-entrant node (``she`` for both "She" and "her") has several such heads; ``parent`` picks
        the occurrence closest below the parent node's tokens in the dependency tree.
        """
        toks = self.node_tokens(var, concepts)
        inside = {t.i for t in toks}
        heads = [t for t in toks if t.head == t.i or t.head not in inside] or toks[:1]
        if len(heads) == 1 or not parent:
            return heads[0]
        anchors = set(self.alignment.get(parent, ()))
        best, best_dist = heads[0], None
        for tok in heads:
            cur, dist = tok, 0
            while cur.i not in anchors and cur.head != cur.i and dist < len(self.tokens):
                cur, dist = self.tokens[cur.head], dist + 1
            if cur.i in anchors and (best_dist is None or dist < best_dist):
                best, best_dist = tok, dist
        return best

    def is_proper(self, tok: Token) -> bool:
        """Names and ``I`` keep their capital letter wherever they move."""
        if tok.pos == "DET" and tok.text.lower() in ("the", "a", "an"):
            return False  # "from the Sydney Water Board": the article of a name is not part of it
        return (
            tok.pos == "PROPN"
            or tok.ent_type in NAME_ENTITIES
            or tok.text == "I"
            or (len(tok.text) > 1 and tok.text.isupper())
        )


_TOGGLING_QUOTES = frozenset({'"', "``", "''", "`"})
_OPENING_QUOTES = frozenset({"“", "‘"})
_CLOSING_QUOTES = frozenset({"”", "’"})


def quoted_tokens(tokens: Sequence[Token]) -> tuple[bool, ...]:
    """Per token, whether it stands inside quotation marks (cached per token tuple: rules ask once per node)."""
    return _quoted_tokens(tuple(tokens))


@lru_cache(maxsize=1024)
def _quoted_tokens(tokens: tuple[Token, ...]) -> tuple[bool, ...]:
    """Whether each token stands inside quotation marks (a title or a quotation).

    >>> from core.types import Token
    >>> marks = lambda text: _quoted_tokens(tuple(Token(i, w, w, "X", "X", "dep", 0, 0) for i, w in enumerate(text.split())))
    >>> marks('a " b " c'), marks("a ` ` b ` ` c")
    ((False, False, True, False, False), (False, False, False, True, False, False, False))
    """
    out, inside, prev = [], False, ""
    for tok in tokens:
        if tok.text in _TOGGLING_QUOTES:  # `` and '' pair up in either order (PAWS writes '' ... ``)
            if not (tok.text == "`" and prev == "`"):  # "``" split into two backticks is one mark
                inside = not inside
            out.append(False)
        elif tok.text in _CLOSING_QUOTES:
            inside = False
            out.append(False)
        elif tok.text in _OPENING_QUOTES:
            inside = True
            out.append(False)
        else:
            out.append(inside)
        prev = tok.text
    return tuple(out)


@dataclass(slots=True)
class Slot:
    """One word of the foil: its text, the whitespace after it, and the source token it came from."""

    text: str
    ws: str
    src: int | None = None
    changed: bool = False
    deleted: bool = False

    @property
    def is_word(self) -> bool:
        return any(ch.isalnum() for ch in self.text)


class Work:
    """A mutable copy of the source's tokens; every edit marks the slots it touches as changed."""

    def __init__(self, sent: Sentence) -> None:
        self.sent = sent

    @cached_property
    def slots(self) -> list[Slot]:
        """One slot per source token, made on first use (many edits are refused before touching any)."""
        return [Slot(t.text, t.whitespace, t.i) for t in self.sent.tokens]

    # -- lookup
    def index(self, src: int) -> int:
        for k, slot in enumerate(self.slots):
            if slot.src == src:
                return k
        raise KeyError(src)

    def slot(self, src: int) -> Slot:
        return self.slots[self.index(src)]

    def is_deleted(self, src: int) -> bool:
        return self.slot(src).deleted

    def current(self, src: int) -> str:
        return self.slot(src).text

    # -- edits
    def replace(self, src: int, text: str) -> None:
        slot = self.slot(src)
        if slot.text != text:
            slot.text = text
            slot.changed = True

    def delete(self, src: int) -> None:
        slot = self.slot(src)
        slot.deleted = True
        slot.changed = True

    def detach(self, src: int) -> None:
        """Put a space before ``src``: a contraction written out as its own word ("I'll" -> "I won't")."""
        k = self.index(src)
        if k > 0:
            self.slots[k - 1].ws = " "

    def insert_before(self, src: int, words: Sequence[str]) -> None:
        k = self.index(src)
        self.slots[k:k] = [Slot(w, " ", None, changed=True) for w in words]

    def insert_after(self, src: int, words: Sequence[str], *, attach: bool = False) -> None:
        """Insert after ``src``; ``attach`` glues the first word on (``John`` + ``'s``)."""
        k = self.index(src)
        anchor = self.slots[k]
        new = [Slot(w, " ", None, changed=True) for w in words]
        new[-1].ws = anchor.ws
        anchor.ws = "" if attach else " "
        self.slots[k + 1 : k + 1] = new

    def swap_spans(self, first: tuple[int, int], second: tuple[int, int]) -> None:
        """Exchange two disjoint source-token spans (inclusive, ``first`` before ``second``).

        Each phrase keeps its inner spacing and takes the trailing whitespace of the place it moves to.
        """
        (a0, a1), (b0, b1) = first, second
        ka0, ka1, kb0, kb1 = self.index(a0), self.index(a1), self.index(b0), self.index(b1)
        span_a, span_b = self.slots[ka0 : ka1 + 1], self.slots[kb0 : kb1 + 1]
        tail_a, tail_b = span_a[-1].ws, span_b[-1].ws
        span_a[-1].ws, span_b[-1].ws = tail_b, tail_a
        for slot in (*span_a, *span_b):
            slot.changed = True
        self.slots = self.slots[:ka0] + span_b + self.slots[ka1 + 1 : kb0] + span_a + self.slots[kb1 + 1 :]

    # -- clean-up passes
    def _kept(self) -> list[int]:
        return [k for k, s in enumerate(self.slots) if not s.deleted]

    def fix_punctuation(self) -> None:
        """Drop a comma/semicolon/colon left dangling by a deletion: sentence-initial, before other
        punctuation, or right after the deleted word."""
        slots = self.slots
        if not any(s.deleted for s in slots) and not (slots and slots[0].text in _CLAUSE_PUNCT):
            return  # nothing dangles without a deletion, except a sentence-initial comma
        changed = True
        while changed:
            changed = False
            kept = self._kept()
            for n, k in enumerate(kept):
                slot = self.slots[k]
                if slot.text not in _CLAUSE_PUNCT or slot.src is None:
                    continue
                prev_k = kept[n - 1] if n > 0 else None
                next_k = kept[n + 1] if n + 1 < len(kept) else None
                gap_before = prev_k is None or k > prev_k + 1  # slots between kept ones are deleted
                gap_after = next_k is not None and next_k > k + 1
                leading = all(not self.slots[j].is_word for j in kept[:n])
                dangling = next_k is not None and self.slots[next_k].text in _CLOSING_PUNCT
                beside_deleted = (k > 0 and self.slots[k - 1].deleted) or (
                    k + 1 < len(self.slots) and self.slots[k + 1].deleted
                )
                orphaned = beside_deleted and (self._list_comma(k) or self._enclosed_gap(k))
                if (leading and gap_before) or (dangling and (gap_before or gap_after)) or orphaned:
                    slot.deleted = slot.changed = True
                    changed = True
                    break

    def _list_comma(self, k: int) -> bool:
        """The comma at slot ``k`` separates two modifiers of one head ("the big, red ball"): it goes with
        either of them."""
        src, tokens = self.slots[k].src, self.sent.tokens
        if src is None or not 0 < src < len(tokens) - 1:
            return False
        head = tokens[src].head
        return tokens[src - 1].head == head and tokens[src + 1].head == head and src < head

    def _enclosed_gap(self, k: int) -> bool:
        """The deleted words just before the comma at slot ``k`` began the sentence or followed another comma
        (a phrase set off by commas, "The hospital, which serves 40,000 residents, will close"): the comma
        goes with them. A comma after a deleted phrase inside a clause marks the clause's end and stays
        ("If it keeps raining like this, we should cancel" minus "like this")."""
        j = k - 1
        while j >= 0 and self.slots[j].deleted and self.slots[j].text not in _CLAUSE_PUNCT:
            j -= 1
        if j == k - 1:
            return False
        return j < 0 or self.slots[j].text in _CLAUSE_PUNCT

    def fix_articles(self) -> None:
        """Re-choose ``a``/``an`` wherever the word after an article changed or moved."""
        if not any(s.text.lower() in ("a", "an") for s in self.slots if s.changed or s.src in self.sent.articles):
            return
        kept = self._kept()
        for n, k in enumerate(kept):
            slot = self.slots[k]
            if slot.text.lower() not in ("a", "an"):
                continue
            if slot.src is not None and self.sent.tokens[slot.src].tag != "DT":
                continue
            nxt = next((self.slots[j] for j in kept[n + 1 :] if self.slots[j].is_word), None)
            if nxt is None:
                continue
            moved = slot.src is None or nxt.src != slot.src + 1
            if not (slot.changed or nxt.changed or moved):
                continue
            new = morph.match_case(morph.indefinite_article(nxt.text), slot.text)
            if new != slot.text:
                slot.text = new
                slot.changed = True

    def fix_capitals(self) -> None:
        """Sentence-initial capital stays at position 0: capitalise the new first word, lower the old one."""
        first_src = self.sent.first_word
        first_tok = self.sent.tokens[first_src]
        if not first_tok.text[:1].isupper():
            return
        new_first = next((s for s in self.slots if not s.deleted and s.is_word), None)
        if new_first is None:
            return
        if new_first.text[:1].islower():
            new_first.text = morph.capitalise(new_first.text)
            new_first.changed = True
        if new_first.src == first_src:
            return
        old = next((s for s in self.slots if s.src == first_src and not s.deleted), None)
        if old is not None and not self.sent.is_proper(first_tok) and old.text == first_tok.text:
            lowered = morph.decapitalise(old.text)
            if lowered != old.text:
                old.text = lowered
                old.changed = True

    # -- output
    def tokens(self) -> tuple[str, ...]:
        """The foil's tokens: the kept slots' words (an inserted "did not" is two tokens)."""
        return tuple(word for k in self._kept() for word in self.slots[k].text.split())

    def render(self) -> tuple[str, tuple[tuple[int, int], ...]]:
        """The foil text and the merged character spans that changed (deletions give zero-width spans)."""
        slots = self.slots
        kept = self._kept()  # every slot between two kept ones is deleted
        parts: list[str] = []
        spans: list[tuple[int, int]] = [(0, 0)] if kept and kept[0] > 0 else []
        pos = 0
        for n, k in enumerate(kept):
            slot = slots[k]
            end = pos + len(slot.text)
            if slot.changed:
                spans.append((pos, end))
            nxt = kept[n + 1] if n + 1 < len(kept) else len(slots)
            ws = slots[nxt - 1].ws
            parts += (slot.text, ws)
            pos = end + len(ws)
            if nxt > k + 1:
                spans.append((pos, pos))
        text = "".join(parts)
        return text, _merge_spans(spans, text)


def _merge_spans(spans: list[tuple[int, int]], text: str) -> tuple[tuple[int, int], ...]:
    """Merge changed spans separated only by whitespace; keep deletion points not inside a changed span."""
    merged: list[list[int]] = []
    for start, end in sorted(sp for sp in spans if sp[1] > sp[0]):
        if merged and not text[merged[-1][1] : start].strip():
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    points = {
        s for s, e in spans if s == e and not any(a <= s <= b or (b < s and not text[b:s].strip()) for a, b in merged)
    }
    return tuple(sorted([(a, b) for a, b in merged] + [(p, p) for p in points]))
