"""Single-token-swap annotations of distractors: what a row says (:func:`parse_details`), the annotation
(:class:`SwapAnnotation`, read by :func:`core.clsd.data.read_swaps`) and its join to a task's rows
(:func:`match_swaps`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.clsd.tasks import CLSDTask

_SWAP = re.compile(r"""^\s*swap\s*:?\s*(['"])(.*?)\1\s+with\s+(['"])(.*?)\3\s*$""", re.IGNORECASE | re.DOTALL)
_ADDITION = re.compile(r"""^\s*addition\s+of\s+(['"])(.*?)\1\s*$""", re.IGNORECASE | re.DOTALL)


def parse_details(details: str) -> tuple[str, str, str]:
    """Parse an annotation's ``Details``: ``(operation, old, new)``.

    >>> parse_details("Swap: 'Bonn' with 'Berlin'")
    ('swap', 'Bonn', 'Berlin')
    >>> parse_details("Addition of 'nicht'")
    ('addition', '', 'nicht')
    >>> parse_details("something else")
    ('other', '', '')
    """
    m = _SWAP.match(details or "")
    if m:
        return "swap", m.group(2), m.group(4)
    m = _ADDITION.match(details or "")
    if m:
        return "addition", "", m.group(2)
    return "other", "", ""


@dataclass(frozen=True)
class SwapAnnotation:
    """One annotated single-token change of a distractor (from the ``*_swaps_ner_pos.tsv`` files)."""

    dataset: str
    row_id: str
    column: str  # e.g. "de_adv3"
    language: str  # language of the distractor, from the column prefix
    operation: str  # "swap" | "addition" | "other"
    old: str
    new: str
    pos: str  # annotated universal POS ("" when absent)
    entity_type: str
    equivalent: bool | None  # annotators judged the change meaning-preserving
    original: str  # the true sentence in the distractor's language
    adversarial: str
    line: int


@dataclass(frozen=True)
class SwapMatch:
    """Annotations joined to a task: the ones that match its rows, and why the others did not."""

    matched: tuple[tuple[SwapAnnotation, int, int], ...]  # (annotation, item index, distractor index)
    unmatched: tuple[tuple[SwapAnnotation, str], ...]  # (annotation, reason)


def match_swaps(task: CLSDTask, swaps: Sequence[SwapAnnotation]) -> SwapMatch:
    """Join annotations to ``task`` rows by (row id, distractor column), checking that the texts agree."""
    index = {item.id: k for k, item in enumerate(task.items)}
    cols = {c.lower(): j for j, c in enumerate(task.distractor_columns)}
    matched: list[tuple[SwapAnnotation, int, int]] = []
    unmatched: list[tuple[SwapAnnotation, str]] = []
    for s in swaps:
        if s.language and s.language != task.target_lang:
            continue
        k = index.get(s.row_id)
        j = cols.get(s.column.lower())
        if k is None:
            unmatched.append((s, "row not scored in this set"))
        elif j is None:
            unmatched.append((s, f"no column {s.column}"))
        elif task.items[k].distractors[j] != s.adversarial:
            unmatched.append((s, "distractor text differs from the annotation"))
        elif task.items[k].target != s.original:
            unmatched.append((s, "target text differs from the annotation"))
        else:
            matched.append((s, k, j))
    return SwapMatch(tuple(matched), tuple(unmatched))
