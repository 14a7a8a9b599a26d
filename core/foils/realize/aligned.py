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

The operations table (``_OPERATIONS``) maps each rule to its module: :mod:`~core.foils.realize.negate`
(PN), :mod:`~core.foils.realize.swap` (RS), :mod:`~core.foils.realize.drop` (US) and
:mod:`~core.foils.realize.substitute` (AR, HS), over :mod:`~core.foils.realize.details` (what an edit
says) and :mod:`~core.foils.realize.work` (the token slots).

Errors are values: an edit that cannot be realized gives ``Realization(text=source, error=...)``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence

from core.foils.realize.drop import drop
from core.foils.realize.negate import polarity
from core.foils.realize.substitute import substitute
from core.foils.realize.swap import swap
from core.foils.realize.work import Sentence, Unrealizable, Work
from core.progress import ProgressCallback, check_cancel, report
from core.types import Edit, ParsedSentence, Realization


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


_OPERATIONS: dict[str, Callable[[Work, Edit, Mapping[str, str]], None]] = {
    "PN": polarity,
    "RS": swap,
    "US": drop,
    "AR": substitute,
    "HS": substitute,
}
