"""What a curator keeps and hands on: the curated record of a foil, its re-scoring, and the basket's exports.

:func:`curated_record` builds the record the workbench curates from a pipeline candidate, :func:`record_key` and
:func:`candidate_key` name a foil in the basket, :func:`rescore_record` completes a foil decided before its scores
arrived, and :func:`export_records` writes the basket (JSONL, CSV, Parquet, the SentenceSmith layout) atomically.
The journaled session that holds the basket is :mod:`core.curation`.

>>> record_key({"source": "The cat sat.", "foil": "The cat did not sit.", "rule": "PN"}) == record_key(
...     {"source": "The cat sat.", "foil": "The cat did not sit.", "rule": "PN", "kept": True})
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import InputError, SmithError
from core.record import PENDING, SCORED, CuratedRecord, FoilRecord, as_curated, foil_key, sentence_id

EXPORT_FORMATS: Mapping[str, str] = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
}


class CurationError(SmithError):
    """The journal or an export could not be written (disk full, permissions, ...)."""


def word_overlap(sentence: str, paraphrase: str) -> float:
    """The share of the paraphrase's words that also occur in the sentence (case-folded, 0..1).

    A paraphrase of *this* sentence shares most of its words; a leftover from another one does not.

    >>> round(word_overlap("The cat chased the mouse.", "The mouse was chased by the cat."), 2)
    0.67
    >>> word_overlap("She is happy.", "The mouse was chased by the cat.")
    0.0
    """

    def words(text: str) -> set[str]:
        return {w for w in (t.strip(".,;:!?\"'()").lower() for t in text.split()) if w.isalnum()}

    theirs = words(paraphrase)
    return len(theirs & words(sentence)) / len(theirs) if theirs else 1.0


def record_key(record: Mapping[str, Any] | FoilRecord | CuratedRecord) -> str:
    """A stable key for a foil record (:meth:`core.record.CuratedRecord.key`): its texts and edit, hashed.

    The same edit realized with a hand-edited text gets a different key.

    >>> record_key({"source": "a", "foil": "b"}) == record_key({"source": "a", "foil": "b", "extra": 1})
    True
    """
    return as_curated(record).key()


def candidate_key(candidate: Any, paraphrase: str | None) -> str:
    """The basket key of a realized candidate (:class:`core.types.FoilCandidate`) under ``paraphrase``:
    the same as :func:`record_key` of its record, without building one."""
    edit = candidate.edit
    return foil_key(
        edit.source.text, paraphrase or None, candidate.realization.text, edit.rule, edit.variant, edit.nodes
    )


def curated_record(
    pipe: Any,
    candidate: Any,
    verdicts: Sequence[Any] | None,
    fluency: Mapping[str, Any] | None,
    *,
    paraphrase: str | None,
    provenance: Mapping[str, Any] | None,
    checks: Mapping[str, Any],
    original_foil: str | None = None,
    pending: Sequence[str] = (),
) -> CuratedRecord:
    """The record a curator decides on: the engine's record of ``candidate`` (:meth:`FoilPipeline.record`,
    decision included) with the models' spot checks (``checks``: name -> ModelCheck or None), the generated
    text when the foil was edited by hand (``original_foil``) and what is still being scored (``pending``)."""
    record = pipe.record(
        candidate, verdicts, fluency, row_id=sentence_id(candidate.edit.source.text), paraphrase=paraphrase or None,
        provenance=provenance,
    )  # fmt: skip
    return CuratedRecord(
        record,
        spotcheck={m: spotcheck_entry(c) for m, c in checks.items() if c is not None and c.ok},
        edited_by_hand=original_foil is not None,
        original_foil=original_foil,
        pending=tuple(pending),
    )


def json_of(record: Mapping[str, Any] | CuratedRecord) -> dict[str, Any]:
    """What the journal stores: a typed record's JSON, or a (checked) JSON object as it came."""
    return record.to_json() if isinstance(record, CuratedRecord) else dict(record)


def with_scored(record: dict[str, Any]) -> dict[str, Any]:
    """``scored`` is False while anything is pending, so no export passes empty verdicts off as a judgement."""
    record[SCORED] = not record.get(PENDING)
    return record


def spotcheck_entry(check: Any) -> dict[str, Any]:
    """One model's spot check (:class:`core.evaluate.spotcheck.ModelCheck`) as a curated record stores it."""
    return {
        "sim_foil": round(check.sim_foil, 6),
        "sim_reference": round(check.sim_reference, 6),
        "reference": check.reference,
        "margin": round(check.margin, 6),
        "fooled": check.fooled,
    }


def rescore_record(pipe: Any, record: Mapping[str, Any], embedder_for: Callable[[str], Any]) -> dict[str, Any]:
    """Compute what a curated record still misses (its ``pending`` list): validation, fluency, model checks.

    The foil's edit is rebuilt from its source (parse, the rules, the realizer) and matched by
    rule, variant and nodes; the stored foil text is kept (a hand edit stays as it was). Raises
    :class:`~core.errors.SmithError` when the edit cannot be rebuilt; a model that cannot load
    stays pending. ``embedder_for(name)`` returns a loaded embedder.
    """
    from dataclasses import replace

    from core.evaluate.spotcheck import check_model
    from core.export import verdict_dict, verdict_of
    from core.types import Realization

    curated = as_curated(record)
    rec = curated.record
    pending = list(curated.pending or [])
    out = dict(json_of(record))
    source, foil, paraphrase = rec.source, str(rec.foil or ""), rec.paraphrase or None
    if not foil:
        raise SmithError("this record has no foil to score", hint="a refused edit has foil null")
    if "validation" in pending or "fluency" in pending:
        parsed = pipe.parse_one(source)
        if not parsed.ok:
            raise SmithError(f"cannot re-parse the source: {parsed.error}", hint="the foil stays marked not scored")
        want = (rec.rule, rec.variant, list(rec.nodes))
        edits = [e for rule in pipe.edits(parsed).values() for e in rule]
        edit = next((e for e in edits if (e.rule, e.variant, list(e.nodes)) == want), None)
        if edit is None:
            raise SmithError(
                f"the rules no longer make this {want[0]} {want[1]} edit", hint="the foil stays marked not scored"
            )
        [candidate] = pipe.realize([edit])
        if candidate.realization.error is not None or candidate.realization.text != foil:
            real = Realization(text=foil, changed_spans=rec.changed_spans, generator=rec.generator or "hand")
            candidate = replace(candidate, realization=real)
        if "validation" in pending:
            verdicts = pipe.validate([candidate])[0]
            passed = [v.passed for v in verdicts]
            out["verdicts"] = [verdict_dict(v) for v in verdicts]
            out["validated"] = all(p is True for p in passed) if passed else None
            pending.remove("validation")
        else:
            verdicts = [verdict_of(v) for v in out.get("verdicts") or ()]
        if "fluency" in pending:
            out["fluency"] = pipe.fluency([candidate])[0]
            pending.remove("fluency")
        _decide_again(pipe, out, verdicts, rec.rule)
    checks = dict(curated.spotcheck or {})
    for model in [m for m in pending if m not in ("validation", "fluency")]:
        try:
            embedder = embedder_for(model)
        except Exception:  # unavailable now: it stays pending (and the row says so)
            continue
        [check] = check_model(embedder, source, [foil], paraphrase, name=model)
        if check.ok:
            checks[model] = spotcheck_entry(check)
            pending.remove(model)
    out["spotcheck"] = checks
    out[PENDING] = pending
    out.pop("rescore_error", None)
    return with_scored(out)


def _decide_again(pipe: Any, out: dict[str, Any], verdicts: list[Any], rule: str | None) -> None:
    """The engine's keep/drop decision from the verdicts and fluency a rescore just completed: in
    ``engine_decision`` when a curator has decided (the basket shows and exports it beside the curator's), else in
    ``kept`` / ``decided_by``. Without it the record kept the decision made while its scores were pending."""
    kept, why = pipe.decide(verdicts, out.get("fluency"), rule)
    if out.get("decided_by") == "curator":
        out["engine_decision"] = {"kept": kept, "decided_by": why}
    else:
        out["kept"], out["decided_by"] = kept, why


@dataclass(frozen=True)
class ExportResult:
    path: Path
    format: str
    count: int


def export_format(path: str | os.PathLike[str], fmt: str | None = None) -> str:
    """The export format for ``path``: ``jsonl``, ``csv`` or ``parquet`` (named, or from the suffix).

    >>> export_format("foils.csv"), export_format("x.PARQUET"), export_format("x.txt", "jsonl")
    ('csv', 'parquet', 'jsonl')
    """
    if fmt:
        fmt = fmt.lower().lstrip(".")
        if fmt not in set(EXPORT_FORMATS.values()):
            raise InputError(f"unknown export format {fmt!r}", hint="use jsonl, csv or parquet")
        return fmt
    suffix = Path(path).suffix.lower()
    if suffix not in EXPORT_FORMATS:
        raise InputError(
            f"cannot tell the export format of {Path(path).name!r}",
            hint="end the file name with .jsonl, .csv (SentenceSmith layout) or .parquet",
        )
    return EXPORT_FORMATS[suffix]


def export_records(
    records: Sequence[Mapping[str, Any]] | Iterable[Mapping[str, Any]],
    path: str | os.PathLike[str],
    fmt: str | None = None,
) -> ExportResult:
    """Write foil records atomically as JSONL, SentenceSmith CSV or Parquet.

    The CSV holds every foil of ``records`` (:func:`core.export.in_csv` with ``include_dropped``): a basket
    record was accepted by a person, which overrides the validators' decision.

    A failed write (a full disk, a read-only folder) raises :class:`CurationError`
    and leaves any existing file at ``path`` untouched.
    """
    from core.export import write_jsonl, write_parquet, write_sentencesmith_csv

    records = list(records)
    fmt = export_format(path, fmt)
    if not records:
        raise InputError("the basket is empty: nothing to export", hint="accept some foils first (key a)")
    target = Path(path).expanduser()
    if target.is_dir():
        raise InputError(f"{target} is a folder", hint="give a file name, e.g. foils.jsonl")

    def csv_all(path: Path, recs: Sequence[Mapping[str, Any]]) -> int:  # a person accepted each: none is dropped
        return write_sentencesmith_csv(path, recs, include_dropped=True)

    writer = {"jsonl": write_jsonl, "csv": csv_all, "parquet": write_parquet}[fmt]
    try:
        count = writer(target, records)
        from core.dataset_card import write_dataset_card

        write_dataset_card(target, records, fmt, count=count)  # README.md card for datasets.load_dataset(folder)
    except OSError as exc:
        raise CurationError(
            f"cannot write {target}: {exc.strerror or exc}",
            hint="free some disk space or choose another folder; the basket and journal are unchanged",
        ) from exc
    return ExportResult(path=target, format=fmt, count=count)
