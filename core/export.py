"""Foil records and their exports: JSONL (the source of truth), SentenceSmith CSV, typed Parquet, ST triplets.

A foil record is a :class:`core.record.FoilRecord` (JSON: ``to_json``); the exports read JSON objects or
records alike (``from_json`` checks each). Every export is atomic (temporary file,
fsync, rename), so an interrupted or failed write leaves the old file intact.

>>> SENTENCESMITH_TYPES["PN"], RULE_FROM_SENTENCESMITH["RD"]
('polarity_negation', 'US')
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any

import penman

from core.errors import InputError
from core.foils.amr.graph import write_penman
from core.record import CuratedRecord, FoilRecord, as_curated, as_foil, as_json
from core.textio import atomic_write_csv, atomic_write_jsonl, atomic_writer, finite_json, to_json
from core.types import RULE_NAMES, FoilCandidate, Realization, Verdict

SENTENCESMITH_COLUMNS = (
    "original_sentence",
    "modified_sentence",
    "modification_type",
    "semantic_relationship",
    "paraphrase",
)
"""Column layout of the SentenceSmith paper's released CSV files."""

SENTENCESMITH_TYPES: Mapping[str, str] = {
    "PN": "polarity_negation",
    "RS": "RS",
    "US": "RD",
    "AR": "antonym",
    "HS": "hypernym",
}
RULE_FROM_SENTENCESMITH: Mapping[str, str] = {v: k for k, v in SENTENCESMITH_TYPES.items()}


def verdict_dict(verdict: Verdict) -> dict[str, Any]:
    return {
        "validator": verdict.validator,
        "passed": verdict.passed,
        "score": round(float(verdict.score), 6),
        "reason": verdict.reason,
        "probabilities": {k: round(float(v), 6) for k, v in verdict.probabilities.items()},
    }


def verdict_of(d: Mapping[str, Any]) -> Verdict:
    """A :class:`~core.types.Verdict` from its record form (the inverse of :func:`verdict_dict`); a malformed one
    (not an object, a score or probability that is no number) is an :class:`~core.errors.InputError` with a hint.

    >>> verdict_of({"validator": "roundtrip", "passed": True, "score": 0.9}).score
    0.9
    >>> verdict_of({"validator": "nli", "score": "high"})
    Traceback (most recent call last):
    ...
    core.errors.InputError: malformed 'nli' verdict: score 'high' is not a number (hint: fix it in the file, or clear the record's verdicts and mark it pending validation)
    """
    if not isinstance(d, Mapping):
        raise InputError(f"malformed verdict {d!r}: not an object", hint=_VERDICT_HINT)
    name = str(d.get("validator", ""))
    probabilities = d.get("probabilities") or {}
    if not isinstance(probabilities, Mapping):
        raise InputError(f"malformed {name!r} verdict: probabilities {probabilities!r} are not an object", hint=_VERDICT_HINT)
    return Verdict(
        name,
        d.get("passed"),
        _number(d.get("score") or 0.0, name, "score"),
        str(d.get("reason", "")),
        {str(k): _number(v, name, f"probability {k!r}") for k, v in probabilities.items()},
    )


_VERDICT_HINT = "fix it in the file, or clear the record's verdicts and mark it pending validation"


def _number(value: Any, validator: str, what: str) -> float:
    if isinstance(value, bool):
        value = "true" if value else "false"  # float(True) is 1.0: a boolean score is a malformed file, not a score
    try:
        return float(value)
    except (TypeError, ValueError):
        raise InputError(f"malformed {validator!r} verdict: {what} {value!r} is not a number", hint=_VERDICT_HINT) from None


def foil_record(
    candidate: FoilCandidate,
    verdicts: Sequence[Verdict] = (),
    *,
    row_id: str = "",
    paraphrase: str | None = None,
    kept: bool | None = None,
    decided_by: str = "",
    provenance: Mapping[str, Any] | None = None,
    fluency: Mapping[str, Any] | None = None,
) -> FoilRecord:
    """The record of one foil: texts, edit, graphs, changed span, verdicts, fluency, provenance.

    ``fluency`` is ``{scorer, source, foil, delta}`` (:func:`core.foils.fluency.relative_fluency`);
    None (not scored) is kept as null so every record has the field. A refused edit has ``foil`` None.
    """
    edit = candidate.edit
    real = candidate.realization
    source = edit.source
    aligned = {
        var: tuple(source.tokens[i].text for i in source.alignment.get(var, ()) if i < len(source.tokens))
        for var in edit.nodes
    }
    passed = [v.passed for v in verdicts]
    return FoilRecord(
        id=f"{row_id}:{edit.rule}:{edit.variant}:{','.join(edit.nodes)}" if row_id else edit.key,
        row_id=row_id,
        source=source.text,
        paraphrase=paraphrase,
        foil=None if real.error else real.text,  # a refused edit has no foil (its text is the source)
        rule=edit.rule,
        rule_name=RULE_NAMES.get(edit.rule, edit.rule),
        variant=edit.variant,
        description=edit.description,
        nodes=tuple(edit.nodes),
        details=finite_json(edit.details),  # tuples as lists, no NaN: what the JSON reads back
        graph_before=source.penman,
        graph_after=write_penman(_with_sentence(edit.graph, real), indent=3),  # = penman.encode, ~3x faster
        changed_spans=tuple((s, e) for s, e in real.changed_spans),
        changed_text=tuple(real.text[s:e] for s, e in real.changed_spans),
        aligned_tokens=aligned,
        alignment=dict(source.alignment),  # graph key -> source token indices
        alternatives=tuple(real.alternatives),
        clipped=real.clipped,
        verdicts=tuple(verdict_dict(v) for v in verdicts),
        validated=(all(p is True for p in passed) if passed else None),
        kept=kept,
        decided_by=decided_by,
        parser=source.parser,
        generator=real.generator,
        error=real.error,
        provenance=dict(provenance) if provenance else None,
        fluency=None if fluency is None else dict(fluency),
    )


def _with_sentence(graph: penman.Graph, real: Realization) -> penman.Graph:
    """The edited graph under its own sentence: ``# ::snt`` the foil (and ``# ::tok`` its tokens when known),
    not the source's; a refused edit's graph carries no sentence."""
    metadata = {k: v for k, v in graph.metadata.items() if k not in ("snt", "tok")}
    if not real.error:
        metadata = {"snt": real.text, **({"tok": " ".join(real.tokens)} if real.tokens else {}), **metadata}
    return penman.Graph(graph.triples, top=graph.top, epidata=graph.epidata, metadata=metadata)


def error_record(
    row_id: str, source: str, paraphrase: str | None, stage: str, reason: str, provenance: Mapping[str, Any] | None
) -> FoilRecord:
    """The record of a sentence that produced no foil, with the stage and the reason (``foil`` None)."""
    return FoilRecord(
        id=f"{row_id}:error", row_id=row_id, source=source, paraphrase=paraphrase, foil=None, rule=None,
        error=reason, stage=stage, kept=False, provenance=dict(provenance) if provenance else None,
    )  # fmt: skip


def sentencesmith_row(record: Mapping[str, Any] | FoilRecord | CuratedRecord) -> dict[str, str]:
    """One record in the SentenceSmith CSV layout; a foil not fully scored says so in its relationship.

    >>> sentencesmith_row({"source": "A.", "foil": "B.", "rule": "PN", "pending": ["validation"]})["semantic_relationship"]
    'NOT SCORED (pending: validation)'
    """
    curated = as_curated(record)
    rec = curated.record
    relation = "; ".join(
        f"{v['validator']}: {'passed' if v['passed'] else 'failed' if v['passed'] is False else 'n/a'} "
        f"({v['score']:.2f}) {v['reason']}"
        for v in rec.verdicts
    )
    if curated.pending:
        relation = f"NOT SCORED (pending: {', '.join(curated.pending)})" + (f"; {relation}" if relation else "")
    if not rec.has_foil:
        raise InputError(f"record {rec.id or rec.source!r} has no foil: it is no CSV row", hint="filter with in_csv")
    return {
        "original_sentence": rec.source,
        "modified_sentence": rec.foil or "",
        "modification_type": SENTENCESMITH_TYPES.get(rec.rule or "", rec.rule or ""),
        "semantic_relationship": relation,
        "paraphrase": rec.paraphrase or "",
    }


def write_jsonl(path: str | os.PathLike[str], records: Iterable[Mapping[str, Any] | FoilRecord | CuratedRecord]) -> int:
    """Write records (JSON objects or typed records) as JSONL, atomically. Returns the count."""
    return atomic_write_jsonl(path, map(as_json, records))


def in_csv(record: Mapping[str, Any] | FoilRecord | CuratedRecord, *, include_dropped: bool = False) -> bool:
    """Whether a record is a row of the SentenceSmith CSV: a foil (no error), kept by the pipeline's decision.

    ``kept`` False (the decision dropped it) needs ``include_dropped``; ``kept`` None (not decided, e.g. a
    record a person accepted into the basket) counts as kept. A record without a foil (``foil`` None: a
    refused edit, a failed sentence) is never a row. The CLI and the basket export both ask this.

    >>> recs = ({"source": "A.", "foil": "B.", "kept": True}, {"source": "A.", "foil": "B.", "kept": False},
    ...         {"source": "A.", "foil": None, "error": "x"})
    >>> [in_csv(r) for r in recs]
    [True, False, False]
    >>> in_csv(recs[1], include_dropped=True)
    True
    """
    rec = as_foil(record)
    return rec.has_foil and (include_dropped or rec.kept is not False)


def write_sentencesmith_csv(
    path: str | os.PathLike[str] | IO[str], records: Iterable[Mapping[str, Any]], *, include_dropped: bool = False
) -> int:
    """Write the :func:`in_csv` records in the SentenceSmith column layout; returns the rows written.

    ``path`` is a file name (written atomically) or an open text stream (the caller's atomic writer, so a
    long run streams its rows instead of holding them).
    """
    typed = (as_curated(r) for r in records)
    rows = (sentencesmith_row(r) for r in typed if in_csv(r, include_dropped=include_dropped))
    if isinstance(path, (str, os.PathLike)):
        return atomic_write_csv(path, rows, SENTENCESMITH_COLUMNS)
    writer = csv.DictWriter(path, fieldnames=list(SENTENCESMITH_COLUMNS))
    writer.writeheader()
    n = 0
    for row in rows:
        writer.writerow(row)
        n += 1
    return n


# -- Parquet: typed nested columns ------------------------------------------------------------
def _foil_types(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Arrow types of the foil-record fields (the same for every export, whatever the rows hold)."""
    import pyarrow as pa

    text, texts = pa.string(), pa.list_(pa.string())
    labels = sorted({k for r in records for v in r.get("verdicts") or () for k in (v.get("probabilities") or {})})
    verdict = pa.struct(
        [
            ("validator", text),
            ("passed", pa.bool_()),
            ("score", pa.float64()),
            ("reason", text),
            ("probabilities", pa.struct([(k, pa.float64()) for k in labels]) if labels else pa.null()),
        ]
    )
    types: dict[str, Any] = dict.fromkeys(
        ("id", "row_id", "source", "paraphrase", "foil", "rule", "rule_name", "variant", "description"), text
    )
    types |= dict.fromkeys(("graph_before", "graph_after", "decided_by", "parser", "generator", "error", "stage"), text)
    types |= dict.fromkeys(("validated", "kept", "clipped", "scored"), pa.bool_())
    types |= {
        "nodes": texts,
        "pending": texts,
        "changed_spans": pa.list_(pa.list_(pa.int64())),
        "changed_text": texts,
        "alternatives": texts,
        "aligned_tokens": pa.list_(pa.struct([("node", text), ("tokens", texts)])),
        "alignment": pa.list_(pa.struct([("node", text), ("tokens", pa.list_(pa.int64()))])),
        "verdicts": pa.list_(verdict),
        "fluency": pa.struct([("scorer", text), ("source", pa.float64()), ("foil", pa.float64()), ("delta", pa.float64())]),
    }
    return types


def _parquet_value(key: str, value: Any) -> Any:
    if key in ("aligned_tokens", "alignment") and isinstance(value, Mapping):  # variables vary: a list, not a struct
        return [{"node": k, "tokens": list(v)} for k, v in value.items()]
    if key == "verdicts" and value:
        return [{**v, "probabilities": v.get("probabilities") or None} for v in value]
    return value


def parquet_table(records: Sequence[Mapping[str, Any]]) -> tuple[Any, list[str]]:
    """Records as an Arrow table with typed nested columns, and the names of columns stored as JSON text.

    Known foil fields get fixed types (``verdicts`` a list of structs, ``changed_spans`` a list of
    int lists, ``aligned_tokens`` a list of ``{node, tokens}``); other fields are inferred by Arrow
    (``provenance`` becomes a struct). Only a column Arrow cannot type (mixed kinds of values) falls
    back to JSON text, and it is named in the second value.

    >>> table, as_json = parquet_table([{"id": "a", "nodes": ["x"], "extra": {"n": 1}}, {"id": "b", "error": "e"}])
    >>> str(table.schema.field("nodes").type), str(table.schema.field("extra").type), as_json
    ('list<item: string>', 'struct<n: int64>', [])
    """

    import pyarrow as pa

    keys = list(dict.fromkeys(k for r in records for k in r))
    known = _foil_types(records)
    columns, fields, as_json = [], [], []
    for key in keys:
        values = [_parquet_value(key, r.get(key)) for r in records]
        try:
            array = pa.array(values, type=known.get(key))
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
            as_json.append(key)
            array = pa.array([None if v is None else to_json(v) for v in values])
        columns.append(array)
        fields.append(pa.field(key, array.type))
    return pa.Table.from_arrays(columns, schema=pa.schema(fields)), as_json


def write_parquet(path: str | os.PathLike[str], records: Sequence[Mapping[str, Any]]) -> int:
    """Write records to Parquet with typed nested columns (see :func:`parquet_table`), atomically."""
    import pyarrow.parquet as pq

    records = [as_json(r) for r in records]
    table, _ = parquet_table(records)
    with atomic_writer(path, mode="wb") as fh:
        pq.write_table(table, fh)
    return len(records)


# -- sentence-transformers triplets ------------------------------------------------------------
ST_TRIPLET_COLUMNS = ("anchor", "positive", "negative", "rule", "id")
"""The columns sentence-transformers' triplet losses read (``anchor, positive, negative``), plus rule and id."""


def st_triplet_rows(records: Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
    """Kept foils with a paraphrase as ``anchor / positive / negative`` rows: the foil is the hard negative.

    >>> st_triplet_rows([{"source": "A", "paraphrase": "B", "foil": "C", "rule": "PN", "id": "1", "kept": True},
    ...                  {"source": "A", "paraphrase": None, "foil": "D", "rule": "HS"}])
    [{'anchor': 'A', 'positive': 'B', 'negative': 'C', 'rule': 'PN', 'id': '1'}]
    """
    out = []
    for rec in map(as_foil, records):
        if rec.has_foil and rec.paraphrase and rec.source and rec.kept is not False:
            out.append({"anchor": rec.source, "positive": rec.paraphrase, "negative": str(rec.foil),
                        "rule": rec.rule or "", "id": rec.id})  # fmt: skip
    return out


def write_st_triplets(path: str | os.PathLike[str], records: Iterable[Mapping[str, Any]]) -> int:
    """Write ``anchor, positive, negative, rule, id`` rows as .parquet, .jsonl or (otherwise) .csv, atomically."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = st_triplet_rows(records)
    suffix = os.fspath(path).lower().rsplit(".", 1)[-1]
    if suffix in ("parquet", "pq"):
        table = pa.table({c: pa.array([r[c] for r in rows], type=pa.string()) for c in ST_TRIPLET_COLUMNS})
        with atomic_writer(path, mode="wb") as fh:
            pq.write_table(table, fh)
        return len(rows)
    if suffix in ("jsonl", "ndjson", "json"):
        return atomic_write_jsonl(path, rows)
    return atomic_write_csv(path, rows, ST_TRIPLET_COLUMNS)
