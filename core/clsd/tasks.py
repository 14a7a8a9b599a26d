"""What a CLSD set is: items (a source, its true translation, distractors), tasks by direction, datasets.

A *task* is one direction of a set: a source sentence, its true translation (the
*target*) and k distractors in the target language. Rows that cannot be scored fairly
are kept as :class:`RowIssue` values (excluded from P@1 and counted by reason).

>>> norm_text("  a  b ")
'a b'
>>> direction_key("de", "fr")
'de-fr'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.errors import InputError

LANGUAGE_NAMES: Mapping[str, str] = {
    "de": "German",
    "fr": "French",
    "en": "English",
    "es": "Spanish",
    "it": "Italian",
    "nl": "Dutch",
    "pt": "Portuguese",
}
"""Column names of the published layout, by language code."""

ADV_COLUMN = re.compile(r"^([a-z]{2,3})_adv(\d+)$", re.IGNORECASE)

DIRECT = "direct"
PIVOT = "pivot"


def norm_text(text: Any) -> str:
    """Whitespace-normalised text; None and NaN-like values become ``""``."""
    if text is None:
        return ""
    return " ".join(str(text).split())


def direction_key(source_lang: str, target_lang: str) -> str:
    """The key of a direction, e.g. ``'de-fr'`` (source German, candidates French)."""
    return f"{source_lang}-{target_lang}"


def direction_label(key: str) -> str:
    """Display form of a direction key: ``'de-fr'`` -> ``'DE→FR'``.

    >>> direction_label("de-fr")
    'DE→FR'
    """
    src, _, tgt = key.partition("-")
    return f"{src.upper()}→{tgt.upper()}" if tgt else key


@dataclass(frozen=True)
class CLSDItem:
    """One usable row of a task: source, true target, distractors (in column order)."""

    id: str
    source: str
    target: str
    distractors: tuple[str, ...]
    line: int = 0  # line in the file (data rows start at 2); 0 when not from a file

    @property
    def candidates(self) -> tuple[str, ...]:
        """The target first, then the distractors."""
        return (self.target, *self.distractors)


@dataclass(frozen=True)
class RowIssue:
    """A row excluded from scoring, with the reason (``empty distractor``, ``distractor equals target``...)."""

    id: str
    line: int
    reason: str
    column: str = ""

    def describe(self) -> str:
        where = f" ({self.column})" if self.column else ""
        return f"row {self.id} (line {self.line}): {self.reason}{where}"


@dataclass(frozen=True)
class CLSDTask:
    """One direction of one set under one condition (``direct`` or ``pivot``)."""

    set_name: str
    direction: str  # e.g. "de-fr"
    source_lang: str
    target_lang: str
    source_column: str
    target_column: str
    distractor_columns: tuple[str, ...]
    items: tuple[CLSDItem, ...]
    issues: tuple[RowIssue, ...] = ()
    condition: str = DIRECT
    path: str = ""
    text_lang: str = ""  # language the texts are in, when not the direction's (pivot: "en")

    @property
    def n_rows(self) -> int:
        """Rows read (usable and excluded)."""
        return len(self.items) + len({i.id for i in self.issues})

    @property
    def label(self) -> str:
        return direction_label(self.direction)

    def excluded_counts(self) -> dict[str, int]:
        """How many rows were excluded, by reason (a row with several problems counts once per reason)."""
        seen: set[tuple[str, str]] = set()
        counts: Counter[str] = Counter()
        for issue in self.issues:
            if (issue.id, issue.reason) not in seen:
                seen.add((issue.id, issue.reason))
                counts[issue.reason] += 1
        return dict(counts)

    def texts(self) -> list[str]:
        """Every text of the task (sources, targets, distractors), with repeats."""
        out: list[str] = []
        for item in self.items:
            out.append(item.source)
            out.extend(item.candidates)
        return out


@dataclass(frozen=True)
class CLSDDataset:
    """A set read from one file: its tasks by direction key."""

    name: str
    path: str
    layout: str  # "clsd" | "generic"
    tasks: Mapping[str, CLSDTask] = field(default_factory=dict)
    condition: str = DIRECT
    n_rows: int = 0

    @property
    def directions(self) -> list[str]:
        return list(self.tasks)

    def task(self, direction: str) -> CLSDTask:
        try:
            return self.tasks[direction]
        except KeyError:
            raise InputError(
                f"{self.name} has no direction {direction!r}",
                hint=f"directions are: {', '.join(self.tasks) or '(none)'}",
            ) from None
