"""Where a changed sentence differs from its source: one word-level diff for the whole house.

The workbench highlights a foil's new words, the amrlib generator records them on its
realization, and the CLSD screen marks a distractor's differing words; all three ask
:func:`changed_spans`.

>>> changed_spans("The cat sat on the mat.", "The dog sat on the mat.")
((4, 7),)
>>> changed_spans("the cat sat", "The cat sat")
()
>>> changed_spans("the cat sat", "The cat sat", words=WHITESPACE, fold_case=False)
((0, 3),)
"""

from __future__ import annotations

import difflib
import re

WORDS = re.compile(r"\w+|[^\w\s]", re.UNICODE)
"""Words and single punctuation marks ("mat." is two tokens)."""
WHITESPACE = re.compile(r"\S+")
"""Whitespace-separated chunks ("mat." is one token)."""


def changed_spans(
    source: str, text: str, *, words: re.Pattern[str] = WORDS, fold_case: bool = True
) -> tuple[tuple[int, int], ...]:
    """Character spans of ``text`` whose tokens were replaced or inserted relative to ``source``.

    ``words`` says what a token is (:data:`WORDS` or :data:`WHITESPACE`); ``fold_case``
    compares tokens case-insensitively. Deletions leave no span (nothing in ``text`` to mark).

    >>> changed_spans("The cat sat .", "The cat did not sit .", words=WHITESPACE)
    ((8, 19),)
    """
    a = [m.group(0) for m in words.finditer(source)]
    b_matches = list(words.finditer(text))
    b = [m.group(0) for m in b_matches]
    if fold_case:
        a, b = [w.lower() for w in a], [w.lower() for w in b]
    spans: list[tuple[int, int]] = []
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag in ("replace", "insert") and j2 > j1:
            spans.append((b_matches[j1].start(), b_matches[j2 - 1].end()))
    return tuple(spans)
