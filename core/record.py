"""Foil records, typed: what the pipeline writes (:class:`FoilRecord`) and what a curator keeps (:class:`CuratedRecord`).

JSON is the wire format (JSONL files, the curation journal); in memory a record is typed, and a reader
turns a JSON object back into one with ``from_json``, which rejects a malformed record with a one-line
:class:`~core.errors.InputError` and a hint. ``FoilRecord.from_json(r).to_json() == r`` for every record
the pipeline or the workbench writes. A record without a foil (a refused edit, a sentence that gave none)
has ``foil`` None and says why in ``error``; :attr:`FoilRecord.has_foil` is what readers ask.

>>> r = FoilRecord.from_json({"source": "The cat sat.", "foil": "The cat did not sit.", "rule": "PN"})
>>> r.has_foil, r.to_json()["foil"]
(True, 'The cat did not sit.')
>>> try:
...     FoilRecord.from_json({"source": "A.", "foil": 3})
... except InputError as exc:
...     print(exc.message)
a foil record's 'foil' is int, not a string or null
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from core.errors import InputError

_HINT = "foil records are what `smithtui foils` writes (one JSON object a line); see docs/architecture.md"


def _bad(name: str, value: Any, want: str) -> InputError:
    return InputError(f"a foil record's {name!r} is {type(value).__name__}, not {want}", hint=_HINT)


def _text(d: Mapping[str, Any], name: str, default: str | None = "", *, null: bool = False) -> Any:
    value = d.get(name, default)
    if isinstance(value, str) or (value is None and (null or default is None)):
        return value
    raise _bad(name, value, "a string or null" if null or default is None else "a string")


def _flag(d: Mapping[str, Any], name: str, default: bool | None = None) -> bool | None:
    value = d.get(name, default)
    if value is None or isinstance(value, bool):
        return value
    raise _bad(name, value, "true, false or null")


def _texts(d: Mapping[str, Any], name: str) -> tuple[str, ...]:
    value = d.get(name) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _bad(name, value, "a list of strings")
    return tuple(value)


def _object(d: Mapping[str, Any], name: str) -> dict[str, Any] | None:
    value = d.get(name)
    if value is None or isinstance(value, dict):
        return value
    raise _bad(name, value, "an object or null")


def _spans(d: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    value = d.get("changed_spans") or []
    ok = isinstance(value, list) and all(
        isinstance(s, list) and len(s) == 2 and all(isinstance(i, int) and not isinstance(i, bool) for i in s)
        for s in value
    )
    if not ok:
        raise _bad("changed_spans", value, "a list of [start, end] integer pairs")
    return tuple((s[0], s[1]) for s in value)


def _lists(d: Mapping[str, Any], name: str, kind: type) -> dict[str, tuple[Any, ...]]:
    value = d.get(name) or {}
    ok = isinstance(value, dict) and all(
        isinstance(v, list) and all(isinstance(x, kind) and not isinstance(x, bool) for x in v) for v in value.values()
    )
    if not ok:
        raise _bad(name, value, f"an object of {kind.__name__} lists")
    return {k: tuple(v) for k, v in value.items()}


def foil_key(source: str, paraphrase: str | None, foil: str | None, rule: str | None, variant: str, nodes: Iterable[str]) -> str:
    """A stable key for a foil: its texts and edit, hashed (the basket's identity of a foil).

    The same edit realized with a hand-edited text gets a different key.

    >>> foil_key("a", None, "b", "PN", "", ()) == foil_key("a", "", "b", "PN", "", [])
    True
    """
    parts = [source, paraphrase or "", foil or "", rule or "", variant, ",".join(map(str, nodes))]
    return hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


def sentence_id(text: str) -> str:
    """The row id of a sentence crafted on the workbench (its records' ``row_id``).

    >>> sentence_id("The cat sat.")
    'wb-74c64c3377'
    """
    return "wb-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


SENTENCE_STAGES = ("input", "parse", "rules", "worker")
"""Where a sentence can fail before any edit is realized (a record with ``stage`` set: the short form)."""


@dataclass(frozen=True)
class FoilRecord:
    """One foil (or one failure) of one sentence; the fields and their meaning are in docs/architecture.md.

    A record with ``stage`` set is a sentence that produced no foil at all (its JSON is the short form:
    id, row_id, source, paraphrase, foil, rule, error, stage, kept); every other record is one edit.
    """

    source: str
    foil: str | None
    id: str = ""
    row_id: str = ""
    paraphrase: str | None = None
    rule: str | None = None
    rule_name: str = ""
    variant: str = ""
    description: str = ""
    nodes: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)  # the edit's details (JSON values): sense choice, roles
    graph_before: str = ""
    graph_after: str = ""
    changed_spans: tuple[tuple[int, int], ...] = ()
    changed_text: tuple[str, ...] = ()
    aligned_tokens: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    alignment: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    alternatives: tuple[str, ...] = ()
    clipped: bool = False
    verdicts: tuple[Mapping[str, Any], ...] = ()
    validated: bool | None = None
    kept: bool | None = None
    decided_by: str = ""
    parser: str = ""
    generator: str = ""
    error: str | None = None
    stage: str | None = None
    provenance: Mapping[str, Any] | None = None  # None: the record carries none (a manifest may hold it)
    fluency: Mapping[str, Any] | None = None
    input_notes: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)  # fields this class does not know, kept as they are

    @property
    def has_foil(self) -> bool:
        """A usable foil: a text, and no error (what CSV, cards, triples and hardness count)."""
        return bool(self.foil) and self.error is None

    def key(self) -> str:
        """:func:`foil_key` of this record."""
        return foil_key(self.source, self.paraphrase, self.foil, self.rule, self.variant, self.nodes)

    def with_decision(self, kept: bool | None, decided_by: str) -> FoilRecord:
        return replace(self, kept=kept, decided_by=decided_by)

    def to_json(self) -> dict[str, Any]:
        """The JSON object (field order fixed: the byte layout of ``smithtui foils`` output)."""
        head = {"id": self.id, "row_id": self.row_id, "source": self.source, "paraphrase": self.paraphrase,
                "foil": self.foil, "rule": self.rule}  # fmt: skip
        if self.stage is not None:
            out = {**head, "error": self.error, "stage": self.stage, "kept": self.kept}
            if self.provenance is not None:
                out["provenance"] = dict(self.provenance)
        else:
            out = {
                **head,
                "rule_name": self.rule_name,
                "variant": self.variant,
                "description": self.description,
                "nodes": list(self.nodes),
                "details": dict(self.details),
                "graph_before": self.graph_before,
                "graph_after": self.graph_after,
                "changed_spans": [list(span) for span in self.changed_spans],
                "changed_text": list(self.changed_text),
                "aligned_tokens": {k: list(v) for k, v in self.aligned_tokens.items()},
                "alignment": {k: list(v) for k, v in self.alignment.items()},
                "alternatives": list(self.alternatives),
                "clipped": self.clipped,
                "verdicts": [dict(v) for v in self.verdicts],
                "validated": self.validated,
                "kept": self.kept,
                "decided_by": self.decided_by,
                "parser": self.parser,
                "generator": self.generator,
                "error": self.error,
                **({"provenance": dict(self.provenance)} if self.provenance is not None else {}),
                "fluency": None if self.fluency is None else dict(self.fluency),
            }
        if self.input_notes:
            out["input_notes"] = list(self.input_notes)
        return {**out, **self.extra}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> FoilRecord:
        """Read a JSON object back (types checked); raises :class:`~core.errors.InputError` on a malformed one.

        Only ``source`` and ``foil`` are required; a missing field takes its default.
        """
        if not isinstance(d, Mapping):
            raise InputError(f"a foil record is {type(d).__name__}, not a JSON object", hint=_HINT)
        for name in ("source", "foil"):
            if name not in d:
                raise InputError(f"a foil record has no {name!r} field", hint=_HINT)
        verdicts = d.get("verdicts") or []
        if not isinstance(verdicts, list) or not all(isinstance(v, dict) for v in verdicts):
            raise _bad("verdicts", verdicts, "a list of objects")
        clipped = _flag(d, "clipped", False)
        stage = _text(d, "stage", None)
        return cls(
            source=_text(d, "source"),
            foil=_text(d, "foil", None),
            id=_text(d, "id"),
            row_id=_text(d, "row_id"),
            paraphrase=_text(d, "paraphrase", None),
            rule=_text(d, "rule", None),
            rule_name=_text(d, "rule_name"),
            variant=_text(d, "variant"),
            description=_text(d, "description"),
            nodes=_texts(d, "nodes"),
            details=_object(d, "details") or {},
            graph_before=_text(d, "graph_before"),
            graph_after=_text(d, "graph_after"),
            changed_spans=_spans(d),
            changed_text=_texts(d, "changed_text"),
            aligned_tokens=_lists(d, "aligned_tokens", str),
            alignment=_lists(d, "alignment", int),
            alternatives=_texts(d, "alternatives"),
            clipped=bool(clipped),
            verdicts=tuple(verdicts),
            validated=_flag(d, "validated"),
            kept=_flag(d, "kept"),
            decided_by=_text(d, "decided_by"),
            parser=_text(d, "parser"),
            generator=_text(d, "generator"),
            error=_text(d, "error", None),
            stage=stage,
            provenance=_object(d, "provenance"),
            fluency=_object(d, "fluency"),
            input_notes=_texts(d, "input_notes"),
            extra={k: v for k, v in d.items() if k not in _FOIL_FIELDS},
        )


_FOIL_FIELDS = frozenset(FoilRecord.__dataclass_fields__) - {"extra"}

PENDING = "pending"  # a curated field: what was still being scored when the foil was decided
SCORED = "scored"  # a curated field: False while anything is pending (an export says so on the row)


@dataclass(frozen=True)
class CuratedRecord:
    """A foil as the curator decided it: the engine's :class:`FoilRecord` plus what the workbench adds.

    ``record.kept`` / ``record.decided_by`` are the curator's once decided (``engine_decision`` keeps the
    engine's). A field left None is not written (a hand-made record need not carry every one).

    >>> c = CuratedRecord.from_json({"source": "A.", "foil": "B.", "pending": ["validation"], "scored": False})
    >>> c.pending, c.record.foil, c.to_json()["scored"]
    (('validation',), 'B.', False)
    """

    record: FoilRecord
    spotcheck: Mapping[str, Mapping[str, Any]] | None = None  # model -> {sim_foil, sim_reference, reference, margin, fooled}
    edited_by_hand: bool | None = None
    original_foil: str | None = None  # the generated text, when edited by hand
    pending: tuple[str, ...] | None = None  # "validation", "fluency", model names
    engine_decision: Mapping[str, Any] | None = None  # {kept, decided_by} of the engine, once a person decided
    curation_id: str | None = None  # the journal's key
    scored: bool | None = None
    rescore_error: str | None = None  # why a restored record could not be re-scored

    def key(self) -> str:
        """The basket key: the journal's ``curation_id`` when it has one, else :meth:`FoilRecord.key`."""
        return self.curation_id or self.record.key()

    def to_json(self) -> dict[str, Any]:
        out = self.record.to_json()
        for name in _CURATED_FIELDS:
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value) if name == PENDING else dict(value) if isinstance(value, Mapping) else value
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CuratedRecord:
        """Read a curated record (journal entry, basket); raises :class:`~core.errors.InputError` on a malformed one."""
        if not isinstance(d, Mapping):
            raise InputError(f"a curated record is {type(d).__name__}, not a JSON object", hint=_HINT)
        spot = _object(d, "spotcheck")
        if spot is not None and not all(isinstance(v, dict) for v in spot.values()):
            raise _bad("spotcheck", spot, "an object of objects")
        pending = d.get(PENDING)
        return cls(
            record=FoilRecord.from_json({k: v for k, v in d.items() if k not in _CURATED_FIELDS}),
            spotcheck=spot,
            edited_by_hand=_flag(d, "edited_by_hand"),
            original_foil=_text(d, "original_foil", None),
            pending=None if pending is None else _texts(d, PENDING),
            engine_decision=_object(d, "engine_decision"),
            curation_id=_text(d, "curation_id", None),
            scored=_flag(d, SCORED),
            rescore_error=_text(d, "rescore_error", None),
        )


_CURATED_FIELDS = (
    "spotcheck", "edited_by_hand", "original_foil", PENDING, "engine_decision", "curation_id", SCORED, "rescore_error",
)  # fmt: skip


def as_foil(record: Mapping[str, Any] | FoilRecord | CuratedRecord) -> FoilRecord:
    """The :class:`FoilRecord` of a JSON object, a foil record or a curated one (readers accept all three)."""
    if isinstance(record, FoilRecord):
        return record
    if isinstance(record, CuratedRecord):
        return record.record
    return FoilRecord.from_json({k: v for k, v in record.items() if k not in _CURATED_FIELDS})


def as_curated(record: Mapping[str, Any] | FoilRecord | CuratedRecord) -> CuratedRecord:
    """The :class:`CuratedRecord` of a JSON object or record (a plain foil record has no curated fields)."""
    if isinstance(record, CuratedRecord):
        return record
    if isinstance(record, FoilRecord):
        return CuratedRecord(record)
    return CuratedRecord.from_json(record)


def as_json(record: Mapping[str, Any] | FoilRecord | CuratedRecord) -> Mapping[str, Any]:
    """The JSON object of a typed record (a JSON object passes through): what writers write."""
    return record.to_json() if isinstance(record, (FoilRecord, CuratedRecord)) else record
