"""The basket and its journal: decisions, undo, crash-and-restore, atomic exports."""

from __future__ import annotations

import csv
import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core.curated import CurationError, export_format, export_records, record_key
from core.curation import CurationSession, previous_session
from core.errors import InputError
from core.export import SENTENCESMITH_COLUMNS

ROOT = Path(__file__).resolve().parents[1]


def rec(n: int, rule: str = "PN", paraphrase: str | None = "A feline chased a rodent.") -> dict:
    return {
        "source": "The cat chased the mouse.",
        "paraphrase": paraphrase,
        "foil": f"The cat did not chase the mouse {n}.",
        "rule": rule,
        "variant": "main-predicate",
        "nodes": ["c"],
        "description": f"negate chase-01 #{n}",
        "verdicts": [{"validator": "roundtrip", "passed": True, "score": 0.9, "reason": "ok", "probabilities": {}}],
    }


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    return tmp_path / "journal.jsonl"


def test_accept_reject_undo(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    k1, k2 = s.accept(rec(1)), s.accept(rec(2))
    assert [r["curation_id"] for r in s.basket] == [k1, k2]
    s.reject(rec(1))
    assert [r["curation_id"] for r in s.basket] == [k2]
    assert s.status_of(k1) == "reject"
    undone = s.undo()  # begin=1, accept=2, accept=3, reject=4
    assert (undone["seq"], undone["key"], undone["action"], undone["record"]["foil"]) == (4, k1, "reject", rec(1)["foil"])
    assert [r["curation_id"] for r in s.basket] == [k1, k2]  # back in its old place
    assert s.status_of(k1) == "accept"
    s.undo()
    s.undo()
    assert s.basket == [] and not s.can_undo
    assert s.undo() is None


def test_accepting_twice_keeps_one_and_undo_restores(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1))
    s.accept(rec(1))
    assert len(s.basket) == 1
    s.undo()
    assert len(s.basket) == 1
    s.undo()
    assert s.basket == []


def test_hand_edited_foil_is_a_different_item() -> None:
    a = rec(1)
    b = {**a, "foil": a["foil"].replace("not", "never")}
    assert record_key(a) != record_key(b)


def test_records_without_texts_are_refused(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    with pytest.raises(InputError):
        s.accept({"source": "x", "foil": ""})
    assert s.basket == []


def test_restore_after_abandoning_the_session(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    s.note_input("The cat chased the mouse.", "A feline chased a rodent.")
    for n in range(3):
        s.accept(rec(n))
    s.reject(rec(1))
    s.accept(rec(7, rule="HS"))
    s.undo()
    expected = s.basket
    s.journal.unlock()  # abandoned: no close(), as when the terminal is killed (the kernel drops the lock)
    del s

    summary = previous_session(journal)
    assert summary is not None and summary.restorable and not summary.ended
    assert summary.accepted == 2 and summary.rejected == 1
    assert summary.last_input == {"sentence": "The cat chased the mouse.", "paraphrase": "A feline chased a rodent."}
    assert "interrupted" in summary.describe()

    restored = CurationSession.open(journal, restore=True)
    assert restored.basket == expected
    # decisions keep going after a restore, and a second crash loses nothing either
    restored.accept(rec(9))
    restored.journal.unlock()
    again = CurationSession.open(journal, restore=True)
    assert [r["foil"] for r in again.basket] == [*(r["foil"] for r in expected), rec(9)["foil"]]
    # undo still reaches decisions made before the restore
    again.undo()  # the accept of #9
    again.undo()  # the reject of #1, made before the crash: #1 is back in its place
    assert [r["foil"] for r in again.basket] == [rec(n)["foil"] for n in range(3)]


def test_declining_restore_starts_empty_but_keeps_the_journal(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1))
    s.close()
    assert previous_session(journal).ended
    fresh = CurationSession.open(journal, restore=False)
    assert fresh.basket == []
    lines = journal.read_text().splitlines()
    assert any(json.loads(line)["action"] == "accept" for line in lines)
    assert previous_session(journal).accepted == 0


def test_torn_last_line_is_skipped(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1))
    with open(journal, "a", encoding="utf-8") as fh:
        fh.write('{"v": 1, "seq": 99, "action": "acc')  # a crash mid-write
    s.journal.unlock()  # the process died
    summary = previous_session(journal)
    assert summary.accepted == 1 and summary.skipped_lines == 1
    restored = CurationSession.open(journal, restore=True)
    assert len(restored.basket) == 1
    restored.accept(rec(2))  # appending after a torn line still gives a readable journal
    assert previous_session(journal).accepted == 2


def test_no_journal_means_nothing_to_restore(tmp_path: Path) -> None:
    assert previous_session(tmp_path / "none.jsonl") is None
    (tmp_path / "empty.jsonl").write_text("")
    assert previous_session(tmp_path / "empty.jsonl") is None


def test_journal_write_failure_changes_nothing(journal: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1))

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(CurationError, match="No space left"):
        s.accept(rec(2))
    monkeypatch.undo()
    assert len(s.basket) == 1


def test_killed_process_loses_nothing(journal: Path) -> None:
    """A real SIGKILL right after three decisions: the next process restores all of them."""
    code = textwrap.dedent(
        f"""
        import os, signal, sys
        sys.path.insert(0, {str(ROOT)!r})
        from core.curation import CurationSession
        s = CurationSession.open({str(journal)!r}, restore=False)
        for n in range(3):
            s.accept({{"source": "The cat sat.", "foil": f"The cat did not sit {{n}}.", "rule": "PN"}})
        os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert proc.returncode == -signal.SIGKILL
    restored = CurationSession.open(journal, restore=True)
    assert [r["foil"] for r in restored.basket] == [f"The cat did not sit {n}." for n in range(3)]


def test_exports_in_three_formats(journal: Path, tmp_path: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1, "PN"))
    s.accept(rec(2, "HS", paraphrase=None))
    out = s.export(tmp_path / "out" / "foils.jsonl")
    assert out.count == 2 and out.format == "jsonl"
    lines = [json.loads(x) for x in (tmp_path / "out" / "foils.jsonl").read_text().splitlines()]
    assert [r["foil"] for r in lines] == [rec(1)["foil"], rec(2)["foil"]]

    s.export(tmp_path / "foils.csv")
    with open(tmp_path / "foils.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert tuple(rows[0]) == SENTENCESMITH_COLUMNS
    assert [r["modification_type"] for r in rows] == ["polarity_negation", "hypernym"]
    assert rows[1]["paraphrase"] == ""

    import pyarrow.parquet as pq

    s.export(tmp_path / "foils.parquet")
    table = pq.read_table(tmp_path / "foils.parquet").to_pylist()
    assert [r["rule"] for r in table] == ["PN", "HS"]
    assert previous_session(journal).accepted == 2  # exports do not touch the basket


def test_export_errors(journal: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InputError, match="empty"):
        export_records([], tmp_path / "a.jsonl")
    with pytest.raises(InputError, match="format"):
        export_format(tmp_path / "a.xlsx")
    with pytest.raises(InputError, match="folder"):
        export_records([rec(1)], tmp_path, "jsonl")

    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1))
    target = tmp_path / "foils.jsonl"
    target.write_text("old contents\n")
    journal_before = journal.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(CurationError, match="No space left"):
        s.export(target)
    monkeypatch.undo()
    assert target.read_text() == "old contents\n"  # atomic: the old file survives
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".foils")]  # no temp litter
    assert journal.read_bytes() == journal_before
    assert len(s.basket) == 1


# -- journal replay: every torn and garbled variant (issue 17, item 2) --------------------------


def _journal_of_one_session(journal: Path) -> tuple[list[str], list[dict]]:
    s = CurationSession.open(journal, restore=False)
    s.note_input("The cat chased the mouse.", "A feline chased a rodent.")
    s.accept(rec(1))
    s.accept(rec(2))
    s.reject(rec(1))
    s.undo()
    s.accept(rec(3, rule="HS"))
    basket = s.basket
    s.journal.unlock()  # the process dies without an "end"
    return journal.read_text(encoding="utf-8").splitlines(keepends=True), basket


def test_replay_survives_a_tear_at_every_byte(journal: Path, tmp_path: Path) -> None:
    """Cut the journal at every byte: replay never fails, and keeps exactly the whole lines before the cut."""
    lines, _ = _journal_of_one_session(journal)
    data = "".join(lines).encode("utf-8")
    expected: dict[int, list[int]] = {}  # the state a journal of the first k whole lines gives
    for k in range(len(lines) + 1):
        p = tmp_path / f"whole-{k}.jsonl"
        p.write_text("".join(lines[:k]), encoding="utf-8")
        summary = previous_session(p)
        expected[k] = [] if summary is None else [summary.accepted, summary.decisions]
    ends = [len("".join(lines[: k + 1]).encode("utf-8")) for k in range(len(lines))]
    torn = tmp_path / "torn.jsonl"
    for cut in range(1, len(data)):
        torn.write_bytes(data[:cut])
        complete = sum(1 for e in ends if e - 1 <= cut)  # a line missing only its newline is whole
        summary = previous_session(torn)
        got = [] if summary is None else [summary.accepted, summary.decisions]
        assert got == expected[complete], cut
        mid_line = cut not in ends and cut + 1 not in ends  # a partial line, not just a missing newline
        if summary is not None and mid_line:
            assert summary.skipped_lines == 1 and "line" in summary.problems[0]
        # and the next session appends after the tear without losing its own entries
        if cut == len(data) // 2:
            s = CurationSession.open(torn, restore=False)
            s.accept(rec(8))
            s.close()
            assert previous_session(torn).accepted == 1


def test_a_new_session_after_a_torn_line_is_not_glued_onto_it(journal: Path) -> None:
    """Issue 17 2(a): the next session's first entry must not glue onto the torn line and be lost."""
    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1))
    s.close()
    with open(journal, "a", encoding="utf-8") as fh:
        fh.write('{"v": 1, "seq": 4, "action": "accept", "key": "x", "rec')  # crash mid-append
    fresh = CurationSession.open(journal, restore=False)  # the user declines the restore
    fresh.accept(rec(2))
    fresh.journal.unlock()
    summary = previous_session(journal)
    assert summary.session == fresh.session_id  # the session start is the new one, not the old
    assert summary.accepted == 1 and summary.skipped_lines == 1
    again = CurationSession.open(journal, restore=True)
    assert [r["foil"] for r in again.basket] == [rec(2)["foil"]]  # the declined foil #1 does not come back


def test_an_entry_glued_onto_a_torn_line_by_an_old_version_is_salvaged(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    s.accept(rec(1))
    s.close()
    text = journal.read_text(encoding="utf-8")
    glued = '{"v": 1, "seq": 9, "act' + json.dumps({"v": 1, "seq": 10, "ts": "t", "session": "s-new", "action": "begin", "restored_from": None})
    journal.write_text(text + glued + "\n", encoding="utf-8")
    summary = previous_session(journal)
    assert summary.session == "s-new" and summary.accepted == 0 and summary.skipped_lines == 1


GARBLED = [
    ('"seq": null', "seq"),
    ('"seq": "7"', "seq"),
    ('"seq": true', "seq"),
    ('"seq": -3', "seq"),
    ('"action": 5', "action"),
    ('"action": "explode"', "unknown action"),
    ('"key": null', "key"),
    ('"key": 42', "key"),
    ('"record": "a string"', "record"),
    ('"record": {"source": 1, "foil": "x"}', "'source' is int, not a string"),
    ('"target": "2"', "target"),
    ('"session": 3', "session"),
    ('"sentence": ["a"]', "sentence"),
]


@pytest.mark.parametrize("field_json,why", GARBLED)
def test_a_wrong_typed_entry_is_skipped_and_reported_not_fatal(journal: Path, field_json: str, why: str) -> None:
    """Issue 17 2(b): one wrong-typed entry used to crash start-up in CurationState.apply."""
    lines, basket = _journal_of_one_session(journal)
    name = field_json.split(":")[0].strip('"')
    where = {"key": 2, "record": 2, "target": 5, "sentence": 1}.get(name, 2)  # 0 begin, 1 input, 2 accept, ...
    entry = json.loads(lines[where])
    entry.update(json.loads("{" + field_json + "}"))
    bad = tmp = journal.with_name("bad.jsonl")
    tmp.write_text("".join([*lines[:where], json.dumps(entry) + "\n", *lines[where + 1 :]]), encoding="utf-8")
    summary = previous_session(bad)
    assert summary is not None and summary.skipped_lines == 1
    assert why in summary.problems[0] and summary.problems[0].startswith(f"line {where + 1}:")
    assert "damaged journal line" in summary.describe()
    restored = CurationSession.open(bad, restore=True)  # never raises
    assert len(restored.basket) <= len(basket) + 1


@pytest.mark.parametrize(
    "line",
    ["[1, 2, 3]", '"just a string"', "null", "{not json", "\x00\x00\x00", '{"v": 1}', "{}" * 3, "[" * 5000],
)
def test_garbage_lines_are_skipped(journal: Path, line: str) -> None:
    lines, basket = _journal_of_one_session(journal)
    journal.write_text("".join([*lines[:3], line + "\n", *lines[3:]]), encoding="utf-8")
    summary = previous_session(journal)
    assert summary.skipped_lines == 1 and summary.problems[0].startswith("line 4:")
    restored = CurationSession.open(journal, restore=True)
    assert restored.basket == basket


# -- one writer per journal (issue 15, item 5) ---------------------------------------------------


def test_a_second_session_cannot_share_a_journal(journal: Path) -> None:
    from core.curation import JournalInUse, open_session

    first = CurationSession.open(journal, restore=False)
    with pytest.raises(JournalInUse, match="in use"):
        CurationSession.open(journal, restore=False)
    second, where = open_session(journal, restore=False)  # what the app does: a sibling journal
    assert where == journal.with_name("journal-2.jsonl")
    first.accept(rec(1))
    second.accept(rec(2))
    second.undo()
    first.close()
    second.close()
    # each journal replays to exactly its own window's work
    assert [r["foil"] for r in CurationSession.open(journal, restore=True).basket] == [rec(1)["foil"]]
    assert previous_session(where).accepted == 0
    seqs = [json.loads(x)["seq"] for x in journal.read_text().splitlines()]
    assert seqs == sorted(set(seqs))  # no collisions


def test_a_second_process_is_refused_while_the_first_holds_the_journal(journal: Path) -> None:
    first = CurationSession.open(journal, restore=False)
    code = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from core.curation import CurationSession, JournalInUse
        try:
            CurationSession.open({str(journal)!r}, restore=False)
        except JournalInUse as exc:
            print("refused:", exc.message)
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "refused: the journal" in proc.stdout, proc.stderr
    first.close()
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "refused" not in proc.stdout and proc.returncode == 0, proc.stderr


# -- decisions before the scores arrive (issue 15, item 2) ----------------------------------------


def test_a_pending_record_is_completed_in_the_basket_and_survives_restore(journal: Path) -> None:
    s = CurationSession.open(journal, restore=False)
    early = {**rec(1), "verdicts": [], "validated": None, "spotcheck": {}, "pending": ["validation", "bow"]}
    s.accept(early)
    assert s.pending == 1
    done = {**rec(1), "validated": True, "spotcheck": {"bow": {"margin": -0.1, "fooled": True}}, "pending": []}
    assert s.complete(done)
    assert s.pending == 0 and s.basket[0]["validated"] is True and s.basket[0]["spotcheck"]["bow"]["fooled"]
    assert not s.complete(rec(5))  # never decided: nothing written
    s.reject(rec(1))
    s.undo()  # undoing the reject brings back the completed record, not the early one
    assert s.basket[0]["validated"] is True
    s.journal.unlock()
    restored = CurationSession.open(journal, restore=True)
    assert restored.basket[0]["spotcheck"]["bow"]["fooled"] and restored.pending == 0


def test_the_curator_decides_and_the_engine_decision_is_kept(journal: Path) -> None:
    """A foil the engine dropped can be accepted: the basket says kept (curator), still counts as a triple,
    keeps the engine's decision, and takes the engine's new decision when late scores complete it."""
    from core.evaluate.triples import triples_from_records

    s = CurationSession.open(journal, restore=False)
    dropped = {**rec(1), "kept": False, "decided_by": "roundtrip: negation missing"}
    s.accept(dropped)
    (got,) = s.basket
    assert (got["kept"], got["decided_by"]) == (True, "curator")
    assert got["engine_decision"] == {"kept": False, "decided_by": "roundtrip: negation missing"}
    assert len(triples_from_records(s.basket, layout="foil-engine", path="basket")) == 1
    assert s.complete({**rec(1), "kept": True, "decided_by": "roundtrip passed"})
    (got,) = s.basket
    assert got["engine_decision"] == {"kept": True, "decided_by": "roundtrip passed"} and got["kept"] is True
    basket = s.basket
    s.close()
    again = CurationSession.open(journal, restore=True)  # the journal replays the same records
    assert again.basket == basket
    again.close()
