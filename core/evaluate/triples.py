"""Reading (sentence, paraphrase, foil) triples from the layouts users bring.

Three layouts are recognised from the columns (or named with ``layout=``):

* ``foil-engine``: this project's JSONL records with keys ``source``, ``paraphrase``,
  ``foil``, ``rule`` (records with an ``error``, or ``kept: false``, are skipped and counted);
* ``sentencesmith``: the paper's CSV (``original_sentence``, ``modified_sentence``,
  ``modification_type``, ``paraphrase``); its rule names map RD→US, RS→RS, antonym→AR,
  hypernym→HS, polarity_negation→PN;
* ``generic``: any CSV/TSV/JSONL whose columns are named like sentence/anchor,
  paraphrase/positive and foil/negative (or chosen with ``columns=``).

A row that cannot be used (an empty or NaN text, a missing paraphrase) never stops the
read: it is counted in :attr:`TripleSet.bad` with its row number and reason.

>>> ts = triples_from_records([
...     {"source": "A cat sat.", "paraphrase": "A cat was sitting.", "foil": "A cat did not sit.", "rule": "PN"},
...     {"source": "A dog ran.", "paraphrase": None, "foil": "A dog walked.", "rule": "HS"},
... ])
>>> len(ts), ts.bad_counts()
(1, {'missing paraphrase': 1})
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.record import as_foil
from core.textio import pick_column, read_table_lines, read_text, table_format
from core.types import RULES

LAYOUTS: tuple[str, ...] = ("foil-engine", "sentencesmith", "generic")
_READ = ("source", "paraphrase", "foil", "rule", "variant", "id", "error", "kept")  # the record fields a triple needs
_NULLS = dict.fromkeys(("paraphrase", "foil", "rule", "error", "kept"))  # an empty cell of these is null, else ""
PARQUET_SUFFIXES = (".parquet", ".pq")

SENTENCESMITH_RULES: Mapping[str, str] = {
    "RD": "US",
    "RS": "RS",
    "antonym": "AR",
    "hypernym": "HS",
    "polarity_negation": "PN",
}
"""The paper's ``modification_type`` values and this project's rule codes."""

SOURCE_COLUMNS = ("source", "original_sentence", "sentence", "anchor", "sentence1", "premise", "text")
PARAPHRASE_COLUMNS = ("paraphrase", "positive", "pos", "sentence2", "hypothesis")
FOIL_COLUMNS = ("foil", "modified_sentence", "negative", "neg", "hard_negative", "sentence3")
RULE_COLUMNS = ("rule", "modification_type", "edit", "type", "category", "label")

_NAN_STRINGS = frozenset({"nan", "none", "null", "na", "n/a", "<na>"})


@dataclass(frozen=True)
class Triple:
    """One (sentence, paraphrase, foil) triple; ``rule`` is a code from ``RULES`` when known."""

    source: str
    paraphrase: str
    foil: str
    rule: str = ""
    row: int = 0  # 1-based row (line) number in the file; 0 for in-memory records
    variant: str = ""
    id: str = ""


@dataclass(frozen=True)
class BadRow:
    """A row that was skipped, and why."""

    row: int
    reason: str


@dataclass(frozen=True)
class TripleSet:
    """The usable triples of one input, the skipped rows, and where they came from."""

    triples: tuple[Triple, ...]
    bad: tuple[BadRow, ...] = ()
    path: str = ""
    layout: str = ""
    sha256: str = ""
    columns: Mapping[str, str] = field(default_factory=dict)
    n_rows: int = 0

    def __len__(self) -> int:
        return len(self.triples)

    def __iter__(self) -> Iterator[Triple]:
        return iter(self.triples)

    def bad_counts(self) -> dict[str, int]:
        """Skipped rows counted by reason."""
        return dict(Counter(b.reason for b in self.bad))

    def rule_counts(self) -> dict[str, int]:
        """Usable triples per rule, in ``RULES`` order, then other rules alphabetically."""
        counts = Counter(t.rule for t in self.triples)
        order = [r for r in RULES if r in counts] + sorted(r for r in counts if r not in RULES)
        return {r: counts[r] for r in order}

    def unique_texts(self) -> list[str]:
        """Every distinct text (sentences, paraphrases, foils) in first-seen order."""
        seen: dict[str, None] = {}
        for t in self.triples:
            seen.setdefault(t.source)
            seen.setdefault(t.paraphrase)
            seen.setdefault(t.foil)
        return list(seen)


def _missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    text = str(value).strip()
    return not text or text.lower() in _NAN_STRINGS


def _has_surrogate(text: str) -> bool:
    """True for text holding a lone surrogate (JSON ``"\\ud800"``): it has no UTF-8 form."""
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


def normalise_rule(value: Any) -> str:
    """A rule code: ``RULES`` entries as given, SentenceSmith names mapped, others kept verbatim.

    >>> normalise_rule("polarity_negation"), normalise_rule("pn"), normalise_rule("")
    ('PN', 'PN', '')
    """
    if _missing(value):
        return ""
    text = str(value).strip()
    if text in SENTENCESMITH_RULES:
        return SENTENCESMITH_RULES[text]
    if text.upper() in RULES:
        return text.upper()
    lowered = {k.lower(): v for k, v in SENTENCESMITH_RULES.items()}
    return lowered.get(text.lower(), text)


def detect_layout(columns: Sequence[str]) -> str:
    """Which layout a set of column names is.

    >>> detect_layout(["original_sentence", "modified_sentence", "modification_type", "paraphrase"])
    'sentencesmith'
    >>> detect_layout(["id", "source", "paraphrase", "foil", "rule", "error"])
    'foil-engine'
    """
    cols = {c.strip().lower() for c in columns}
    if {"original_sentence", "modified_sentence"} <= cols:
        return "sentencesmith"
    if {"source", "foil"} <= cols:
        return "foil-engine"
    return "generic"


def _layout_columns(layout: str, columns: Sequence[str], chosen: Mapping[str, str], path: str) -> dict[str, str]:
    fixed = {
        "foil-engine": {"source": "source", "paraphrase": "paraphrase", "foil": "foil", "rule": "rule"},
        "sentencesmith": {
            "source": "original_sentence",
            "paraphrase": "paraphrase",
            "foil": "modified_sentence",
            "rule": "modification_type",
        },
    }.get(layout, {})
    candidates = {
        "source": SOURCE_COLUMNS,
        "paraphrase": PARAPHRASE_COLUMNS,
        "foil": FOIL_COLUMNS,
        "rule": RULE_COLUMNS,
    }
    unknown = set(chosen) - set(candidates)
    if unknown:
        raise InputError(
            f"unknown column role(s): {', '.join(sorted(unknown))}", hint="roles are: source, paraphrase, foil, rule"
        )
    out: dict[str, str] = {}
    for role, cands in candidates.items():
        wanted = chosen.get(role) or None
        if wanted is None and role in fixed:
            wanted = fixed[role] if fixed[role] in columns else None
        col = pick_column(columns, wanted, cands, path=path, what=role)
        if col is None and role != "rule":
            raise InputError(
                f"{path}: no {role} column found",
                hint=f"name it with columns={{'{role}': NAME}} (--column {role}=NAME); columns are: {', '.join(columns)}",
            )
        if col is not None:
            out[role] = col
    return out


def triples_from_records(
    records: Iterable[Mapping[str, Any]],
    *,
    layout: str | None = None,
    columns: Mapping[str, str] | None = None,
    path: str = "",
    include_rejected: bool = False,
    first_row: int = 1,
) -> TripleSet:
    """Build a :class:`TripleSet` from dict records (file rows, or the foil engine's records in memory).

    ``include_rejected`` keeps foil-engine records marked ``kept: false``.
    """
    rows = list(records)
    names: list[str] = []
    for r in rows:
        for k in r:
            if k not in names:
                names.append(k)
    if layout is not None and layout not in LAYOUTS:
        raise InputError(f"unknown triple layout {layout!r}", hint=f"use one of: {', '.join(LAYOUTS)}")
    label = path or "records"
    if not rows:
        return TripleSet((), (), path=path, layout=layout or "", n_rows=0)
    layout = layout or detect_layout(names)
    cols = _layout_columns(layout, names, dict(columns or {}), label)
    triples: list[Triple] = []
    bad: list[BadRow] = []
    for n, rec in enumerate(rows, first_row):
        if layout == "foil-engine":
            try:
                read = {k: _NULLS.get(k, "") if _missing(rec[k]) else rec[k] for k in _READ if k in rec}  # NaN cells
                typed = as_foil(read)  # a malformed record is a bad row, said in one line
            except InputError as exc:
                bad.append(BadRow(n, f"malformed foil record: {exc.message}"))
                continue
            if typed.error is not None:  # a refused edit or a failed sentence: foil None, never a triple
                bad.append(BadRow(n, "foil engine error"))
                continue
            if typed.kept is False and not include_rejected:
                bad.append(BadRow(n, "rejected by the foil engine's filter"))
                continue
        values = {role: rec.get(col) for role, col in cols.items()}
        missing = [role for role in ("source", "paraphrase", "foil") if _missing(values[role])]
        if missing:
            bad.append(BadRow(n, "missing " + " and ".join(missing)))
            continue
        if any(_has_surrogate(str(values[role])) for role in ("source", "paraphrase", "foil")):
            bad.append(BadRow(n, "invalid text (a lone UTF-16 surrogate such as \\ud800)"))
            continue  # no model can encode it: skip the row, not fail every model
        triples.append(
            Triple(
                source=str(values["source"]).strip(),
                paraphrase=str(values["paraphrase"]).strip(),
                foil=str(values["foil"]).strip(),
                rule=normalise_rule(values.get("rule")),
                row=n,
                variant="" if _missing(rec.get("variant")) else str(rec.get("variant")),
                id="" if _missing(rec.get("id")) else str(rec.get("id")),
            )
        )
    return TripleSet(tuple(triples), tuple(bad), path=path, layout=layout, columns=cols, n_rows=len(rows))


def read_triples(
    path: str | os.PathLike[str],
    *,
    layout: str | None = None,
    columns: Mapping[str, str] | None = None,
    include_rejected: bool = False,
) -> TripleSet:
    """Read triples from a CSV/TSV/JSONL/Parquet file, or a sharded ``smithtui foils --out DIR/`` folder
    (layout detected from the columns unless given).

    Raises :class:`~core.errors.InputError` for a file that cannot be read at all;
    bad rows are counted, not raised.
    """
    from core.provenance import file_sha256

    p = Path(path)
    if p.is_dir() and (p / "manifest.json").exists():
        return _read_sharded(p, layout=layout, columns=columns, include_rejected=include_rejected)
    fmt = "parquet" if p.suffix.lower() in PARQUET_SUFFIXES else table_format(p)
    if fmt == "txt":
        raise InputError(
            f"{p}: cannot tell the table format from the suffix {p.suffix!r}",
            hint="use a .csv, .tsv, .jsonl or .parquet file",
        )
    if fmt == "parquet":
        rows, broken = _read_parquet(p), []
        lines = list(range(1, len(rows) + 1))  # Parquet rows are numbered from 1
    elif fmt == "jsonl":
        rows, lines, broken = _read_jsonl(p)
    else:
        numbered = read_table_lines(p, fmt=fmt)
        rows, lines, broken = [r for _, r in numbered], [n for n, _ in numbered], []
    ts = triples_from_records(rows, layout=layout, columns=columns, path=str(p), include_rejected=include_rejected)
    # Row numbers are file line numbers.
    triples = tuple(
        Triple(t.source, t.paraphrase, t.foil, t.rule, lines[t.row - 1], t.variant, t.id) for t in ts.triples
    )
    bad = tuple(sorted([BadRow(lines[b.row - 1], b.reason) for b in ts.bad] + broken, key=lambda b: b.row))
    return TripleSet(
        triples,
        bad,
        path=str(p),
        layout=ts.layout,
        sha256=file_sha256(p),
        columns=ts.columns,
        n_rows=ts.n_rows + len(broken),
    )


def _read_parquet(path: Path) -> list[dict[str, Any]]:
    """The rows of a Parquet file (typed nested columns come back as lists and dicts)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path).to_pylist()
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"{path}: not a readable Parquet file ({exc})", hint="re-export it, or use .jsonl") from exc


def _read_sharded(
    folder: Path, *, layout: str | None, columns: Mapping[str, str] | None, include_rejected: bool
) -> TripleSet:
    """The triples of a sharded ``smithtui foils --out DIR/`` folder (its finished parts, in input order);
    row numbers count records from 1, and the hash is the manifest's."""
    from core.provenance import file_sha256
    from core.shards import MANIFEST, read_parts

    rows = list(read_parts(folder))
    ts = triples_from_records(rows, layout=layout, columns=columns, path=str(folder), include_rejected=include_rejected)
    return dataclasses.replace(ts, sha256=file_sha256(folder / MANIFEST))


def _read_jsonl(path: Path) -> tuple[list[dict[str, Any]], list[int], list[BadRow]]:
    """JSON objects with their line numbers; a line that is not a JSON object is a bad row."""
    import json

    rows: list[dict[str, Any]] = []
    lines: list[int] = []
    broken: list[BadRow] = []
    for n, line in enumerate(read_text(path).split("\n"), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            broken.append(BadRow(n, "not valid JSON"))
            continue
        if not isinstance(value, dict):
            broken.append(BadRow(n, "not a JSON object"))
            continue
        rows.append(value)
        lines.append(n)
    return rows, lines, broken
