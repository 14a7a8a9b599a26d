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


def screen_sentence(text: str) -> tuple[str, str | None]:
    """Clean ``text`` and say why it cannot be used (``None`` when it can).

    Control characters are removed, whitespace collapsed; emoji are kept (the
    parser treats them as symbols).

    >>> screen_sentence("a\\x00b c")
    ('ab c', None)
    >>> screen_sentence("1234 5678")[1]
    'no words in the sentence'
    """
    cleaned = "".join(ch for ch in text if unicodedata.category(ch) != "Cc" or ch in "\t\n")
    cleaned = " ".join(cleaned.split())
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
