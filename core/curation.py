"""Curation: the basket of accepted foils, kept safe by a write-ahead journal.

Every decision (accept, reject, undo) is appended to a :class:`~core.journal.Journal`
(flushed and fsynced) *before* it changes the in-memory state, so a killed
terminal loses nothing: replaying the journal rebuilds the basket exactly. The
journal holds many sessions; each starts with a ``begin`` entry that either
continues the previous session (a restore) or starts empty. Replay checks every
entry (types included) and skips, counts and describes the bad ones; it never fails.
One app writes a journal at a time: a session holds the journal's file lock, and
:func:`open_session` moves a second window to a sibling journal instead.

Journal entries (one JSON object a line, ``v`` = format version)::

    {"v": 1, "seq": 7, "ts": "...", "session": "s-…", "action": "begin", "restored_from": null}
    {"action": "input", "sentence": "...", "paraphrase": "..."}
    {"action": "accept", "key": "…", "record": {...}}
    {"action": "reject", "key": "…", "record": {...}}
    {"action": "update", "key": "…", "record": {...}}  # scores that arrived after the decision
    {"action": "undo", "target": 9}         # undoes the decision with seq 9
    {"action": "export", "path": "...", "format": "csv", "count": 2}
    {"action": "end"}

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "journal.jsonl"
>>> s = CurationSession.open(path, restore=False)
>>> _ = s.accept({"source": "The cat sat.", "foil": "The cat did not sit.", "rule": "PN"})
>>> len(s.basket)
1
>>> previous_session(path).accepted   # what a restarted app would offer to restore
1
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from core.curated import (
    CurationError,
    ExportResult,
    export_records,
    json_of,
    record_key,
    with_scored,
)
from core.errors import InputError
from core.journal import Journal, JournalLocked
from core.provenance import timestamp
from core.record import PENDING, CuratedRecord, as_curated

JOURNAL_VERSION = 1


DECISIONS = ("accept", "reject")


ACTIONS = ("begin", "input", *DECISIONS, "update", "undo", "export", "end")


class JournalInUse(CurationError):
    """Another session (another window, another process) holds the journal."""


def sibling_journals(path: str | os.PathLike[str], count: int = 20) -> list[Path]:
    """The journal at ``path`` and the siblings a second, third... window uses.

    >>> [p.name for p in sibling_journals("j/journal.jsonl", 3)]
    ['journal.jsonl', 'journal-2.jsonl', 'journal-3.jsonl']
    """
    p = Path(path)
    return [p, *(p.with_name(f"{p.stem}-{n}{p.suffix}") for n in range(2, count + 1))]


def open_session(path: str | os.PathLike[str], *, restore: bool | None = None) -> tuple[CurationSession, Path]:
    """Open a session on the first journal of :func:`sibling_journals` no other window holds.

    Returns the session and the journal it writes. ``restore`` as in :meth:`CurationSession.open`.
    """
    for candidate in sibling_journals(path):
        try:
            return CurationSession.open(candidate, restore=bool(restore)), candidate
        except JournalInUse:
            continue
    raise JournalInUse(f"{path} and its siblings are all in use", hint="close some smithtui windows")


class Decision(NamedTuple):
    """One decision on the undo stack, with what it replaced (so undo can put it back)."""

    seq: int
    key: str
    action: str  # "accept" | "reject"
    record: dict[str, Any]
    prev_status: str | None
    prev_record: dict[str, Any] | None
    position: int | None  # where the key sat in the basket before


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value: Any, *, empty: bool = True) -> bool:
    return isinstance(value, str) and (empty or bool(value))


def entry_problem(entry: Mapping[str, Any]) -> str | None:
    """Why a journal entry cannot be replayed (None when it can): types included.

    >>> entry_problem({"v": 1, "seq": None, "action": "end"})
    'seq is not a positive integer'
    >>> entry_problem({"v": 1, "seq": 3, "action": "undo", "target": 2}) is None
    True
    """
    if not _is_int(entry.get("seq")) or entry["seq"] < 1:
        return "seq is not a positive integer"
    action = entry.get("action")
    if action not in ACTIONS:
        return f"unknown action {action!r}" if isinstance(action, str) else "action is not a string"
    for name in ("session", "ts"):
        if name in entry and not _is_text(entry[name]):
            return f"{name} is not a string"
    if action == "begin":
        if not _is_text(entry.get("session"), empty=False):
            return "begin without a session id"
        if entry.get("restored_from") is not None and not _is_text(entry["restored_from"]):
            return "restored_from is not a string"
    elif action in (*DECISIONS, "update"):
        if not _is_text(entry.get("key"), empty=False):
            return f"{action} without a key"
        record = entry.get("record")
        if not isinstance(record, dict):
            return f"{action} without a record object"
        try:
            foil = CuratedRecord.from_json(record).record
        except InputError as exc:
            return f"{action} record: {exc.message}"
        if not foil.source or not foil.foil:
            return f"{action} record without source and foil texts"
    elif action == "undo":
        if entry.get("target") is not None and not _is_int(entry["target"]):
            return "undo target is not an integer"
    elif action == "input":
        if not _is_text(entry.get("sentence")):
            return "input sentence is not a string"
        if entry.get("paraphrase") is not None and not _is_text(entry["paraphrase"]):
            return "input paraphrase is not a string"
    elif action == "export" and ("count" in entry and not _is_int(entry["count"])):
        return "export count is not an integer"
    return None


@dataclass
class CurationState:
    """The pure state machine behind a session: apply journal entries in order."""

    basket: dict[str, dict[str, Any]] = field(default_factory=dict)  # key -> record, in acceptance order
    status: dict[str, str] = field(default_factory=dict)  # key -> "accept" | "reject"
    undo_stack: list[Decision] = field(default_factory=list)
    decisions: int = 0
    session: str = ""
    started: str = ""
    ended: bool = False
    last_input: dict[str, Any] | None = None
    exports: int = 0

    def reset(self) -> None:
        self.basket.clear()
        self.status.clear()
        self.undo_stack.clear()
        self.decisions = 0
        self.ended = False
        self.last_input = None
        self.exports = 0

    def apply(self, entry: Mapping[str, Any]) -> dict[str, Any] | None:
        """Apply one entry; for ``undo`` returns the decision entry it reverted.

        An entry that :func:`entry_problem` rejects changes nothing.
        """
        if entry_problem(entry) is not None:
            return None
        action = entry["action"]
        if action == "begin":
            if not entry.get("restored_from"):
                self.reset()
            self.session = str(entry["session"])
            self.started = str(entry.get("ts") or "")
            self.ended = False
        elif action in DECISIONS:
            key, record = entry["key"], {**entry["record"], "curation_id": entry["key"]}
            keys = list(self.basket)
            position = keys.index(key) if key in self.basket else None
            self.undo_stack.append(
                Decision(entry["seq"], key, action, record, self.status.get(key), self.basket.get(key), position)
            )
            self.status[key] = action
            if action == "accept":
                self.basket[key] = record
            else:
                self.basket.pop(key, None)
            self.decisions += 1
        elif action == "update":
            self._update(entry["key"], {**entry["record"], "curation_id": entry["key"]})
        elif action == "undo":
            target = entry.get("target")
            while self.undo_stack:
                d = self.undo_stack.pop()
                if target is not None and d.seq != target:
                    continue  # a stale target: skip to it (entries are strictly ordered)
                self.basket.pop(d.key, None)
                if d.prev_status is None:
                    self.status.pop(d.key, None)
                else:
                    self.status[d.key] = d.prev_status
                if d.prev_record is not None:
                    items = list(self.basket.items())
                    at = len(items) if d.position is None else min(d.position, len(items))
                    items.insert(at, (d.key, d.prev_record))
                    self.basket = dict(items)
                self.decisions = max(0, self.decisions - 1)
                return {"seq": d.seq, "key": d.key, "action": d.action, "record": d.record}
        elif action == "input":
            self.last_input = {"sentence": entry.get("sentence") or "", "paraphrase": entry.get("paraphrase") or ""}
        elif action == "export":
            self.exports += 1
        elif action == "end":
            self.ended = True
        return None

    def _update(self, key: str, record: dict[str, Any]) -> None:
        """Complete a decided record (scores that arrived later); undo history sees the completed one."""
        if key in self.basket:
            self.basket[key] = record
        self.undo_stack[:] = [
            d._replace(
                record=record if d.key == key else d.record,
                prev_record=record if d.key == key and d.prev_record is not None else d.prev_record,
            )
            for d in self.undo_stack
        ]


@dataclass(frozen=True)
class SessionSummary:
    """What the journal holds for the latest session: shown when offering a restore."""

    session: str
    started: str
    ended: bool  # True when the app quit cleanly
    accepted: int
    rejected: int
    decisions: int
    last_input: Mapping[str, Any] | None
    skipped_lines: int  # torn or corrupt journal lines that were ignored
    problems: tuple[str, ...] = ()  # one line per skipped entry: "line 7: seq is not a positive integer"

    @property
    def restorable(self) -> bool:
        return self.accepted > 0 or self.decisions > 0

    def describe(self) -> str:
        how = "ended normally" if self.ended else "was interrupted"
        text = (
            f"The last session (started {self.started or 'unknown'}) {how}: "
            f"{self.accepted} foil(s) in the basket, {self.decisions} decision(s)."
        )
        if self.skipped_lines:
            text += f" {self.skipped_lines} damaged journal line(s) were skipped"
            text += f" ({'; '.join(self.problems[:3])}{'; …' if len(self.problems) > 3 else ''})."
        return text


def _replay(journal: Journal) -> tuple[CurationState, int]:
    """Rebuild the state from every valid entry; bad ones are reported on ``journal.problems``."""
    state = CurationState()
    last_seq = 0
    for line, entry in journal.entries():
        problem = entry_problem(entry)
        if problem is not None:
            journal.skip(line, problem)
            continue
        state.apply(entry)
        last_seq = max(last_seq, entry["seq"])
    return state, last_seq


def previous_session(path: str | os.PathLike[str]) -> SessionSummary | None:
    """Summarise the latest session in the journal at ``path`` (None when there is none)."""
    journal = Journal(path)
    if not journal.exists():
        return None
    state, _ = _replay(journal)
    if not state.session and not state.decisions:
        return None
    rejected = sum(1 for v in state.status.values() if v == "reject")
    return SessionSummary(
        session=state.session,
        started=state.started,
        ended=state.ended,
        accepted=len(state.basket),
        rejected=rejected,
        decisions=state.decisions,
        last_input=state.last_input,
        skipped_lines=journal.skipped_lines,
        problems=tuple(journal.problems),
    )


def _decided(action: str, record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` with the curator's decision (see :meth:`CurationSession.accept`).

    >>> r = _decided("accept", {"foil": "B.", "kept": False, "decided_by": "roundtrip failed"})
    >>> r["kept"], r["decided_by"], r["engine_decision"]
    (True, 'curator', {'kept': False, 'decided_by': 'roundtrip failed'})
    """
    if "engine_decision" in record:  # a curated record decided again (undo, redo from the basket)
        engine = record["engine_decision"]
    else:
        engine = {"kept": record.get("kept"), "decided_by": record.get("decided_by", "")}
    return {**record, "kept": action == "accept", "decided_by": "curator", "engine_decision": engine}


class CurationSession:
    """A curation session: decisions journaled first, then applied to the basket."""

    def __init__(self, journal: Journal, state: CurationState, next_seq: int) -> None:
        self.journal = journal
        self.state = state
        self._seq = next_seq

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, restore: bool, session_id: str | None = None) -> CurationSession:
        """Start a session on the journal at ``path``, continuing the previous one when ``restore``.

        The session holds the journal's lock until :meth:`close`; raises
        :class:`JournalInUse` when another session holds it.
        """
        journal = Journal(path)
        try:
            journal.lock()
        except JournalLocked as exc:
            raise JournalInUse(
                f"the journal {path} is in use by another smithtui window",
                hint="close the other window, or give this one its own journal (--journal PATH)",
            ) from exc
        except OSError as exc:
            raise CurationError(
                f"cannot lock the journal {path}: {exc.strerror or exc}", hint="check its folder"
            ) from exc
        try:
            state, last_seq = _replay(journal) if journal.exists() else (CurationState(), 0)
            previous = state.session if restore and state.session else None
            session = cls(journal, state, last_seq + 1)
            session._write(
                {"action": "begin", "session": session_id or f"s-{secrets.token_hex(4)}", "restored_from": previous}
            )
        except OSError as exc:
            journal.unlock()
            raise CurationError(
                f"cannot read the journal {path}: {exc.strerror}", hint="check its permissions"
            ) from exc
        except BaseException:
            journal.unlock()
            raise
        return session

    # -- reading -----------------------------------------------------------
    @property
    def basket(self) -> list[dict[str, Any]]:
        """Accepted records, in the order they were accepted."""
        return list(self.state.basket.values())

    @property
    def session_id(self) -> str:
        return self.state.session

    def status_of(self, record_or_key: Mapping[str, Any] | CuratedRecord | str) -> str | None:
        """``"accept"``, ``"reject"`` or None for a record (or key) not decided yet."""
        key = record_or_key if isinstance(record_or_key, str) else record_key(record_or_key)
        return self.state.status.get(key)

    @property
    def can_undo(self) -> bool:
        return bool(self.state.undo_stack)

    # -- writing -----------------------------------------------------------
    def _write(self, entry: dict[str, Any]) -> dict[str, Any]:
        full = {"v": JOURNAL_VERSION, "seq": self._seq, "ts": timestamp(), "session": self.state.session, **entry}
        if entry.get("action") == "begin":
            full["session"] = entry["session"]
        try:
            self.journal.append(full)
        except OSError as exc:
            raise CurationError(
                f"cannot write the journal {self.journal.path}: {exc.strerror or exc}",
                hint="free some disk space or set ui.journal to a writable path; the decision was not recorded",
            ) from exc
        self._seq += 1
        self.state.apply(full)
        return full

    def _decide(self, action: str, record: Mapping[str, Any] | CuratedRecord) -> str:
        curated = as_curated(record)  # a malformed record fails here, in one line
        if not curated.record.source or not curated.record.foil:
            raise InputError("a foil record needs 'source' and 'foil' texts", hint="generate a foil first")
        key = curated.key()
        entry = with_scored({**_decided(action, json_of(record)), "curation_id": key})
        self._write({"action": action, "key": key, "record": entry})
        return key

    def accept(self, record: Mapping[str, Any] | CuratedRecord) -> str:
        """Put a foil in the basket (journaled); returns its key.

        A person's decision overrides the engine's: the curated record says ``kept`` true (accept) or false
        (reject), ``decided_by: "curator"``, and keeps the engine's ``{kept, decided_by}`` as ``engine_decision``.
        """
        return self._decide("accept", record)

    def reject(self, record: Mapping[str, Any] | CuratedRecord) -> str:
        """Mark a foil rejected (and take it out of the basket if it was there); returns its key."""
        return self._decide("reject", record)

    def peek_undo(self) -> dict[str, Any] | None:
        """What :meth:`undo` would revert: ``{"seq", "key", "action", "record"}``, or None."""
        if not self.state.undo_stack:
            return None
        d = self.state.undo_stack[-1]
        return {"seq": d.seq, "key": d.key, "action": d.action, "record": d.record}

    def undo(self) -> dict[str, Any] | None:
        """Revert the latest decision not undone yet; returns what :meth:`peek_undo` described, or None."""
        undone = self.peek_undo()
        if undone is not None:
            self._write({"action": "undo", "target": undone["seq"]})
        return undone

    def complete(self, record: Mapping[str, Any] | CuratedRecord) -> bool:
        """Fill in a decided record whose scores arrived after the decision (journaled).

        Returns False (and writes nothing) when the record is not decided or no longer in the basket.
        """
        curated = as_curated(record)
        key = curated.key()
        if key not in self.state.basket:
            return False
        record = _decided(
            "accept", json_of(record)
        )  # only basket records are completed; the engine's word is the new one
        self._write({"action": "update", "key": key, "record": with_scored({**record, "curation_id": key})})
        return True

    @property
    def pending(self) -> int:
        """How many foils in the basket are not fully scored yet."""
        return sum(1 for r in self.state.basket.values() if r.get(PENDING))

    def unscored(self) -> list[dict[str, Any]]:
        """The basket's records still missing scores (e.g. the app quit before they arrived)."""
        return [dict(r) for r in self.state.basket.values() if r.get(PENDING)]

    def note_input(self, sentence: str, paraphrase: str | None = None) -> None:
        """Remember the sentence being worked on (restored with the session)."""
        self._write({"action": "input", "sentence": sentence, "paraphrase": paraphrase or ""})

    def close(self) -> None:
        """Mark the session as ended cleanly and release the journal (best effort: a full disk must not block quitting)."""
        if not self.journal.locked:
            return
        with contextlib.suppress(CurationError):
            self._write({"action": "end"})
        self.journal.unlock()

    def export(self, path: str | os.PathLike[str], fmt: str | None = None) -> ExportResult:
        """Export the basket (see :func:`export_records`) and journal the export."""
        result = export_records(self.basket, path, fmt)
        self.note_export(result)
        return result

    def note_export(self, result: ExportResult) -> None:
        """Journal an export done elsewhere (e.g. in a worker thread); best effort."""
        with contextlib.suppress(CurationError):  # the export succeeded; the journal entry is only a note
            self._write({"action": "export", "path": str(result.path), "format": result.format, "count": result.count})
