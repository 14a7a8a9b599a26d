"""Input sentences for the foil pipeline: reading files and screening each sentence.

A text file gives one sentence per line; CSV/TSV/JSONL give a sentence column and,
optionally, a paraphrase column. Screening never raises for one bad sentence: it
returns the reason, which the pipeline records in the output.

>>> screen_sentence("  The cat sat.  ")
('The cat sat.', None)
>>> screen_sentence("")[1]
'empty sentence'
"""

from __future__ import annotations

import glob
import itertools
import os
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.errors import InputError
from core.textio import iter_rows, pick_column, table_format

MAX_CHARS = 1000
"""Longest sentence the pipeline accepts; longer lines are recorded as failures."""

SENTENCE_COLUMNS = ("sentence", "original_sentence", "source", "text", "sentence1", "premise")
PARAPHRASE_COLUMNS = ("paraphrase", "sentence2", "hypothesis")


@dataclass(frozen=True)
class InputRow:
    """One sentence to craft foils for, with its optional paraphrase."""

    id: str
    sentence: str
    paraphrase: str | None = None


_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves ("\x1b[31m")
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: titles, hyperlinks
    r"|\x1b[P^_][^\x1b]*(?:\x1b\\)?"  # DCS, PM, APC strings
    r"|\x1b[@-Z\\-_]"  # two-byte escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
"""Embedding, override and isolate controls and direction marks: they can reorder what a reader sees."""


def clean_text(text: str) -> tuple[str, list[str]]:
    r"""``text`` without terminal escape sequences, control and bidi characters or lone
    surrogates, whitespace collapsed; and notes saying what was removed.

    >>> clean_text("The cat \x1b[31mchased\x1b[0m the mouse.")
    ('The cat chased the mouse.', ['removed 2 terminal escape sequence(s)'])
    >>> clean_text("abc\u202edef")[1]
    ['removed 1 bidirectional control character(s)']
    """
    notes: list[str] = []
    cleaned, n_ansi = _ANSI.subn("", text)
    if n_ansi:
        notes.append(f"removed {n_ansi} terminal escape sequence(s)")
    counts = {"bidi": 0, "control": 0, "surrogate": 0}
    kept: list[str] = []
    for ch in cleaned:
        cat = unicodedata.category(ch)
        if ch in BIDI_CONTROLS:
            counts["bidi"] += 1
        elif cat == "Cs":
            counts["surrogate"] += 1
        elif cat == "Cc" and ch not in "\t\n\r":
            counts["control"] += 1
        else:
            kept.append(ch)
    for key, what in (
        ("bidi", "bidirectional control character(s)"),
        ("control", "control character(s)"),
        ("surrogate", "invalid character(s) (lone UTF-16 surrogates)"),
    ):
        if counts[key]:
            notes.append(f"removed {counts[key]} {what}")
    return " ".join("".join(kept).split()), notes


ENGLISH_HINT_WORDS = frozenset(
    ["the", "an", "of", "to", "and", "in", "is", "was", "are", "were", "be", "been", "it", "he", "she", "they", "we", "you", "that", "this", "with", "for", "on", "at", "by", "not", "his", "her", "their", "our", "my", "your", "from", "as", "but", "or", "have", "has", "had", "do", "does", "did", "will", "would", "can", "could"]
)


def looks_english(text: str) -> bool:
    """A cheap guard: is the text mostly Latin letters, and (from 4 words on) are ≥ 10% of
    its words common English function words? Only a warning hangs on it.

    >>> looks_english("The cat chased the mouse."), looks_english("Le chat a chassé la souris dans le jardin.")
    (True, False)
    >>> looks_english("猫追老鼠。"), looks_english("القط يطارد الفأر.")
    (False, False)
    """
    letters = [ch for ch in text if ch.isalpha()]
    if letters and sum("LATIN" in unicodedata.name(ch, "") for ch in letters) < 0.5 * len(letters):
        return False
    words = [w.strip(".,;:!?\"'()").lower() for w in text.split()]
    words = [w for w in words if w.isalpha()]
    if len(words) < 4:
        return True
    return sum(w in ENGLISH_HINT_WORDS for w in words) / len(words) >= 0.1


def input_notes(text: str) -> list[str]:
    """What screening changed or suspects in one input sentence (empty when nothing).

    >>> input_notes("Le chat a chassé la souris dans le jardin.")
    ['does not look like English (the foil engine is English-only)']
    """
    cleaned, notes = clean_text(text)
    if cleaned and not looks_english(cleaned):
        notes.append("does not look like English (the foil engine is English-only)")
    return notes


def broken_clusters(source: str, foil: str) -> list[str]:
    r"""Grapheme clusters of ``foil`` (``regex`` ``\X``) made of several code points that
    ``source`` does not have: a word inserted inside an emoji ZWJ sequence or between a
    letter and its combining mark shows up here.

    >>> broken_clusters("We \U0001F469\u200d\U0001F467 left.", "We \U0001F469 not\u200d\U0001F467 left.")
    ['t\u200d']
    >>> broken_clusters("We \U0001F469\u200d\U0001F467 left.", "We \U0001F469\u200d\U0001F467 did not leave.")
    []
    """
    import regex

    have = {c for c in regex.findall(r"\X", source) if len(c) > 1}
    return [c for c in regex.findall(r"\X", foil) if len(c) > 1 and c not in have]


def screen_sentence(text: str) -> tuple[str, str | None]:
    r"""Clean ``text`` (see :func:`clean_text`) and say why it cannot be used (``None`` when it can).

    Emoji are kept (the parser treats them as symbols).

    >>> screen_sentence("a\x00b c")
    ('ab c', None)
    >>> screen_sentence("1234 5678")[1]
    'no words in the sentence'
    """
    cleaned, _ = clean_text(text)
    if not cleaned:
        return "", "empty sentence"
    if len(cleaned) > MAX_CHARS:
        return cleaned, f"sentence too long ({len(cleaned)} characters; the limit is {MAX_CHARS})"
    if not any(ch.isalpha() for ch in cleaned):
        return cleaned, "no words in the sentence"
    return cleaned, None


def read_input_rows(
    path: str | os.PathLike[str],
    *,
    column: str | None = None,
    paraphrase_column: str | None = None,
    fmt: str | None = None,
) -> list[InputRow]:
    """Read sentences (and paraphrases) from a text, CSV, TSV or JSONL file.

    Raises :class:`InputError` when the file or the named column is unusable.
    """
    return list(iter_input_rows(path, column=column, paraphrase_column=paraphrase_column, fmt=fmt))


def iter_input_rows(
    path: str | os.PathLike[str],
    *,
    column: str | None = None,
    paraphrase_column: str | None = None,
    fmt: str | None = None,
    prefix: str = "",
) -> Iterator[InputRow]:
    """Stream the rows of one file (see :func:`read_input_rows`); ``prefix`` qualifies each id.

    Memory stays flat whatever the file's size: rows are read as they are consumed.
    """
    fmt = fmt or table_format(path)
    rows = iter_rows(path, fmt=fmt)
    if fmt == "txt":
        for r in rows:
            yield InputRow(id=f"{prefix}L{r['line']}", sentence=r["sentence"])
        return
    first = next(rows, None)
    if first is None:
        raise InputError(f"{path} has no rows", hint="add a header and at least one row")
    columns = list(first.keys())
    sent_col = pick_column(columns, column, SENTENCE_COLUMNS, path=str(path), what="sentence")
    if sent_col is None:
        raise InputError(
            f"no sentence column in {path}",
            hint=f"name it with --column; columns are: {', '.join(columns)}",
        )
    para_col = pick_column(columns, paraphrase_column, PARAPHRASE_COLUMNS, path=str(path), what="paraphrase")
    for n, row in enumerate(itertools.chain([first], rows), 1):
        sentence = row.get(sent_col)
        paraphrase = row.get(para_col) if para_col else None
        yield InputRow(
            id=f"{prefix}{row.get('id') or row.get('Index') or f'R{n}'}",
            sentence="" if sentence is None else str(sentence),
            paraphrase=str(paraphrase) if paraphrase not in (None, "") else None,
        )


def expand_inputs(patterns: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The input files named by paths and glob patterns (``corpus/*.txt``), in a stable order.

    Each pattern's matches are sorted; a file named twice is read once. A pattern that matches
    nothing is an error.

    >>> expand_inputs("sample_data/sentences.txt")
    [PosixPath('sample_data/sentences.txt')]
    """
    if isinstance(patterns, (str, os.PathLike)):
        patterns = [patterns]
    out: list[Path] = []
    for pattern in patterns:
        text = str(pattern)
        matches = sorted(Path(m) for m in glob.glob(text, recursive=True)) if glob.has_magic(text) else [Path(text)]
        if not matches:
            raise InputError(f"no file matches {text!r}", hint="check the pattern; quote it so the shell leaves it alone")
        for m in matches:
            if m.is_dir():
                raise InputError(f"{m} is a folder, not a file", hint=f"name the files inside it, e.g. '{m}/*.txt'")
            if m not in out:
                out.append(m)
    return out


def file_labels(paths: Sequence[Path]) -> list[str]:
    """Short names that tell input files apart: the file name, or the path when names repeat.

    >>> file_labels([Path("a/x.txt"), Path("b/y.txt")])
    ['x.txt', 'y.txt']
    >>> file_labels([Path("a/x.txt"), Path("b/x.txt")])
    ['a/x.txt', 'b/x.txt']
    """
    names = [p.name for p in paths]
    if len(set(names)) == len(names):
        return names
    return [p.as_posix() for p in paths]


def iter_inputs(
    paths: Sequence[Path],
    *,
    column: str | None = None,
    paraphrase_column: str | None = None,
) -> Iterator[InputRow]:
    """Stream the rows of several files in turn; with more than one file, ids are qualified by file
    (``emma.txt:L12``) so rows of different files never collide."""
    labels = file_labels(paths) if len(paths) > 1 else [""]
    for path, label in zip(paths, labels, strict=False):
        prefix = f"{label}:" if label else ""
        yield from iter_input_rows(path, column=column, paraphrase_column=paraphrase_column, prefix=prefix)
