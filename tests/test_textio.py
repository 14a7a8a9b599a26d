"""Robust reading (encodings, binary, malformed tables) and atomic writing."""

from __future__ import annotations

import json
import os

import pytest

from core.errors import InputError
from core.journal import Journal
from core.textio import (
    atomic_write_csv,
    atomic_write_jsonl,
    atomic_writer,
    pick_column,
    read_rows,
    read_text,
    sniff_encoding,
)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "cp1252"])
def test_read_text_sniffs_common_encodings(tmp_path, encoding):
    path = tmp_path / "t.txt"
    path.write_bytes("Café déjà vu.\nZweite Zeile.\n".encode(encoding))
    assert read_text(path) == "Café déjà vu.\nZweite Zeile.\n"


def test_sniff_utf16_without_bom():
    assert sniff_encoding("plain ascii text".encode("utf-16-be")) == "utf-16-be"


def test_binary_file_is_refused(tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(bytes(range(256)) * 20)
    with pytest.raises(InputError, match="binary"):
        read_text(path)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(InputError, match="not found"):
        read_text(tmp_path / "nope.txt")
    with pytest.raises(InputError, match="folder"):
        read_text(tmp_path)


def test_read_rows_formats(tmp_path):
    (tmp_path / "a.csv").write_text('sentence,paraphrase\n"Hi, there.",Hello.\n', encoding="utf-8")
    (tmp_path / "a.tsv").write_text("sentence\tparaphrase\nHi.\tHello.\n", encoding="utf-16")
    (tmp_path / "a.jsonl").write_text(json.dumps({"sentence": "Hi."}) + "\n\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("One.\n\n  \nTwo.\n", encoding="utf-8")
    assert read_rows(tmp_path / "a.csv") == [{"sentence": "Hi, there.", "paraphrase": "Hello."}]
    assert read_rows(tmp_path / "a.tsv") == [{"sentence": "Hi.", "paraphrase": "Hello."}]
    assert read_rows(tmp_path / "a.jsonl") == [{"sentence": "Hi."}]
    assert [r["sentence"] for r in read_rows(tmp_path / "a.txt")] == ["One.", "Two."]


def test_malformed_tables_name_the_problem(tmp_path):
    (tmp_path / "bad.jsonl").write_text('{"a": 1}\n{oops\n', encoding="utf-8")
    with pytest.raises(InputError, match="line 2"):
        read_rows(tmp_path / "bad.jsonl")
    (tmp_path / "bad.csv").write_text("a,b\n1,2,3\n", encoding="utf-8")
    with pytest.raises(InputError, match="more fields"):
        read_rows(tmp_path / "bad.csv")
    (tmp_path / "empty.csv").write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="empty"):
        read_rows(tmp_path / "empty.csv")


def test_pick_column():
    assert pick_column(["Original_Sentence", "x"], None, ["original_sentence"], path="f", what="s") == "Original_Sentence"
    assert pick_column(["a"], None, ["sentence"], path="f", what="s") is None
    with pytest.raises(InputError, match="columns are: a"):
        pick_column(["a"], "missing", [], path="f", what="s")


def test_atomic_writer_keeps_old_file_on_failure(tmp_path):
    path = tmp_path / "out.jsonl"
    atomic_write_jsonl(path, [{"n": 1}])
    with pytest.raises(RuntimeError), atomic_writer(path) as fh:
        fh.write("partial")
        raise RuntimeError("disk full")
    assert path.read_text(encoding="utf-8") == '{"n": 1}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]  # no temporary file left behind


def test_atomic_write_csv_columns(tmp_path):
    path = tmp_path / "o.csv"
    assert atomic_write_csv(path, [{"a": "x,y", "b": 2, "c": "dropped"}], ["a", "b"]) == 1
    assert path.read_text(encoding="utf-8").splitlines() == ["a,b", '"x,y",2']


def test_journal_survives_a_torn_last_line(tmp_path):
    journal = Journal(tmp_path / "j.jsonl")
    journal.append({"action": "accept", "id": "a"})
    journal.append({"action": "reject", "id": "b"})
    with open(journal.path, "a", encoding="utf-8") as fh:
        fh.write('{"action": "acc')  # a crash mid-write
    entries = list(journal.replay())
    assert [e["id"] for e in entries] == ["a", "b"]
    assert journal.skipped_lines == 1
    assert os.path.getsize(journal.path) > 0


def test_an_unclosed_quote_stops_the_read_with_its_line(tmp_path):
    """It used to merge the following rows into one field, silently (issue #17)."""
    to_eof = tmp_path / "eof.csv"
    to_eof.write_text('sentence,paraphrase\nThe cat sat.,ok\nThe dog ran.,"never closed\nThe bird sang.,x\n')
    with pytest.raises(InputError, match=r"line 3: a quote opened here is never closed"):
        read_rows(to_eof)
    swallowing = tmp_path / "swallow.tsv"
    swallowing.write_text('sentence\tparaphrase\n"The cat sat.\tok\nThe dog ran.\tfine\nThe bird sang."\tx\n')
    with pytest.raises(InputError, match=r"line 2: a quoted field runs on to line 4"):
        read_rows(swallowing)
    stray = tmp_path / "stray.tsv"
    stray.write_text('sentence\tparaphrase\n"The cat sat.\tok\nThe dog" ran.\tx\n')
    with pytest.raises(InputError, match=r"line 2: not valid TSV .*found on line 3"):
        read_rows(stray)


def test_a_real_multi_line_field_is_kept_and_lines_are_counted(tmp_path):
    from core.textio import read_table_lines

    p = tmp_path / "ok.csv"
    p.write_text('sentence,paraphrase\n\n"The cat\nsat.",The cat was sitting.\nThe dog ran.,The dog was running.\n')
    assert [(n, r["sentence"]) for n, r in read_table_lines(p)] == [(3, "The cat\nsat."), (5, "The dog ran.")]
    assert read_rows(p)[0]["paraphrase"] == "The cat was sitting."


def _strict(text: str):
    def refuse(name: str):
        raise ValueError(f"non-standard JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


def test_json_we_write_parses_strictly(tmp_path):
    import numpy as np

    from core.textio import atomic_write_json, atomic_write_jsonl, to_json

    value = {"auc": float("nan"), "ci": [float("-inf"), 0.5], "np": np.float64("nan"), "arr": np.array([1.0, np.inf])}
    assert _strict(to_json(value)) == {"auc": None, "ci": [None, 0.5], "np": None, "arr": [1.0, None]}
    atomic_write_json(tmp_path / "r.json", value)
    atomic_write_jsonl(tmp_path / "r.jsonl", [value, {"ok": 1.5}])
    assert _strict((tmp_path / "r.json").read_text(encoding="utf-8"))["np"] is None
    assert [_strict(line)["ok"] if "ok" in line else None for line in (tmp_path / "r.jsonl").read_text().splitlines()]


def test_foil_records_parse_strictly_without_a_fluency_score(tmp_path):
    from smithtui.cli import main

    src, out = tmp_path / "s.txt", tmp_path / "f.jsonl"
    src.write_text("The cat chased the mouse.\n", encoding="utf-8")
    assert main(["foils", "--input", str(src), "--out", str(out), "--fluency", "none"]) == 0
    records = [_strict(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert records and all(r["fluency"]["delta"] is None for r in records if r.get("foil"))
