"""Foil records and their exports: JSONL (the source of truth), SentenceSmith CSV, Parquet.

A foil record is a plain JSON-able dict. Every export is atomic (temporary file,
fsync, rename), so an interrupted or failed write leaves the old file intact.

>>> SENTENCESMITH_TYPES["PN"], RULE_FROM_SENTENCESMITH["RD"]
('polarity_negation', 'US')
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import penman

from core.graph import write_penman
from core.textio import atomic_write_csv, atomic_write_jsonl, atomic_writer
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


def foil_record(
    candidate: FoilCandidate,
    verdicts: Sequence[Verdict] = (),
    *,
    row_id: str = "",
    paraphrase: str | None = None,
    kept: bool | None = None,
    decided_by: str = "",
    provenance: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON record of one foil: texts, edit, graphs, changed span, verdicts, provenance."""
    edit = candidate.edit
    real = candidate.realization
    source = edit.source
    aligned = {
        var: [source.tokens[i].text for i in source.alignment.get(var, ()) if i < len(source.tokens)]
        for var in edit.nodes
    }
    passed = [v.passed for v in verdicts]
    return {
        "id": f"{row_id}:{edit.rule}:{edit.variant}:{','.join(edit.nodes)}" if row_id else edit.key,
        "row_id": row_id,
        "source": source.text,
        "paraphrase": paraphrase,
        "foil": None if real.error else real.text,  # a refused edit has no foil (its text is the source)
        "rule": edit.rule,
        "rule_name": RULE_NAMES.get(edit.rule, edit.rule),
        "variant": edit.variant,
        "description": edit.description,
        "nodes": list(edit.nodes),
        "graph_before": source.penman,
        "graph_after": write_penman(_with_sentence(edit.graph, real), indent=3),  # = penman.encode, ~3x faster
        "changed_spans": [list(span) for span in real.changed_spans],
        "changed_text": [real.text[s:e] for s, e in real.changed_spans],
        "aligned_tokens": aligned,
        "alternatives": list(real.alternatives),
        "clipped": real.clipped,
        "verdicts": [verdict_dict(v) for v in verdicts],
        "validated": (all(p is True for p in passed) if passed else None),
        "kept": kept,
        "decided_by": decided_by,
        "parser": source.parser,
        "generator": real.generator,
        "error": real.error,
        **({"provenance": dict(provenance)} if provenance else {}),
    }


def _with_sentence(graph: penman.Graph, real: Realization) -> penman.Graph:
    """The edited graph under its own sentence: ``# ::snt`` the foil (and ``# ::tok`` its tokens when known),
    not the source's; a refused edit's graph carries no sentence."""
    metadata = {k: v for k, v in graph.metadata.items() if k not in ("snt", "tok")}
    if not real.error:
        metadata = {"snt": real.text, **({"tok": " ".join(real.tokens)} if real.tokens else {}), **metadata}
    return penman.Graph(graph.triples, top=graph.top, epidata=graph.epidata, metadata=metadata)


def error_record(
    row_id: str, source: str, paraphrase: str | None, stage: str, reason: str, provenance: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The record of a sentence that produced no foil, with the stage and the reason."""
    return {
        "id": f"{row_id}:error",
        "row_id": row_id,
        "source": source,
        "paraphrase": paraphrase,
        "foil": None,
        "rule": None,
        "error": reason,
        "stage": stage,
        "kept": False,
        **({"provenance": dict(provenance)} if provenance else {}),
    }


def sentencesmith_row(record: Mapping[str, Any]) -> dict[str, str]:
    """One record in the SentenceSmith CSV layout."""
    verdicts = record.get("verdicts") or []
    relation = "; ".join(
        f"{v['validator']}: {'passed' if v['passed'] else 'failed' if v['passed'] is False else 'n/a'} "
        f"({v['score']:.2f}) {v['reason']}"
        for v in verdicts
    )
    return {
        "original_sentence": record.get("source") or "",
        "modified_sentence": record.get("foil") or "",
        "modification_type": SENTENCESMITH_TYPES.get(record.get("rule") or "", record.get("rule") or ""),
        "semantic_relationship": relation,
        "paraphrase": record.get("paraphrase") or "",
    }


def write_jsonl(path: str | os.PathLike[str], records: Iterable[Mapping[str, Any]]) -> int:
    """Write records as JSONL, atomically. Returns the count."""
    return atomic_write_jsonl(path, records)


def write_sentencesmith_csv(path: str | os.PathLike[str], records: Iterable[Mapping[str, Any]]) -> int:
    """Write foil records (errors skipped) in the SentenceSmith column layout, atomically."""
    rows = (sentencesmith_row(r) for r in records if r.get("foil") and not r.get("error"))
    return atomic_write_csv(path, rows, SENTENCESMITH_COLUMNS)


def write_parquet(path: str | os.PathLike[str], records: Sequence[Mapping[str, Any]]) -> int:
    """Write records to Parquet (nested fields as JSON strings), atomically."""
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    columns: dict[str, list[Any]] = {}
    keys: list[str] = []
    for record in records:
        for key in record:
            if key not in columns:
                columns[key] = []
                keys.append(key)
    for record in records:
        for key in keys:
            value = record.get(key)
            if isinstance(value, (dict, list, tuple)):
                value = json.dumps(value, ensure_ascii=False)
            columns[key].append(value)
    table = pa.table({k: pa.array([None if v is None else str(v) if not isinstance(v, (bool, int, float)) else v for v in columns[k]]) for k in keys})
    with atomic_writer(path, mode="wb") as fh:
        pq.write_table(table, fh)
    return len(records)
