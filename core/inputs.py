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

import os
import unicodedata
from dataclasses import dataclass

from core.errors import InputError
from core.textio import pick_column, read_rows, table_format

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
    fmt = fmt or table_format(path)
    rows = read_rows(path, fmt=fmt)
    if fmt == "txt":
        return [InputRow(id=f"L{r['line']}", sentence=r["sentence"]) for r in rows]
    if not rows:
        raise InputError(f"{path} has no rows", hint="add a header and at least one row")
    columns = list(rows[0].keys())
    sent_col = pick_column(columns, column, SENTENCE_COLUMNS, path=str(path), what="sentence")
    if sent_col is None:
        raise InputError(
            f"no sentence column in {path}",
            hint=f"name it with --column; columns are: {', '.join(columns)}",
        )
    para_col = pick_column(columns, paraphrase_column, PARAPHRASE_COLUMNS, path=str(path), what="paraphrase")
    out = []
    for n, row in enumerate(rows, 1):
        sentence = row.get(sent_col)
        paraphrase = row.get(para_col) if para_col else None
        out.append(
            InputRow(
                id=str(row.get("id") or row.get("Index") or f"R{n}"),
                sentence="" if sentence is None else str(sentence),
                paraphrase=str(paraphrase) if paraphrase not in (None, "") else None,
            )
        )
    return out
