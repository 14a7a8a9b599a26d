"""`smithtui foils` end to end on real parses, WordNet and the aligned realizer."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from smithtui.cli import main

SAMPLE = Path(__file__).resolve().parents[1] / "sample_data" / "sentences.txt"


@pytest.fixture(scope="module")
def sample_run(tmp_path_factory) -> list[dict]:
    out = tmp_path_factory.mktemp("foils") / "f.jsonl"
    assert main(["foils", "--input", str(SAMPLE), "--out", str(out), "--seed", "3", "--per-rule", "2"]) == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_every_rule_yields_foils_on_ordinary_sentences(sample_run):
    foils = [r for r in sample_run if r.get("foil") and not r.get("error")]
    assert {r["rule"] for r in foils} == {"PN", "RS", "US", "AR", "HS"}
    for r in foils:
        assert r["foil"] != r["source"]
        assert r["graph_before"] != r["graph_after"]
        assert r["verdicts"] and r["verdicts"][0]["validator"] == "roundtrip"
        assert r["provenance"]["seed"] == 3
        assert "penman" in {k.lower() for k in r["provenance"]["versions"]}


def test_known_foils_appear(sample_run):
    foils = {(r["source"], r["foil"]) for r in sample_run if r.get("foil")}
    assert ("The cat chased the mouse.", "The cat did not chase the mouse.") in foils or any(
        s == "The cat chased the mouse." for s, _ in foils
    )


def test_same_seed_same_output(tmp_path, sample_run):
    out = tmp_path / "again.jsonl"
    assert main(["foils", "--input", str(SAMPLE), "--out", str(out), "--seed", "3", "--per-rule", "2"]) == 0
    again = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r.get("foil"), r.get("rule")) for r in again] == [(r.get("foil"), r.get("rule")) for r in sample_run]


def test_csv_layout_and_bad_inputs(tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_text("The hungry dog ate the meat.\n\n" + "word " * 1200 + "\n🙂🙂🙂\n\x07\x08\n", encoding="utf-8")
    out = tmp_path / "f.csv"
    assert main(["foils", "--input", str(src), "--out", str(out), "--rules", "PN,AR"]) == 0
    with open(out, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and {r["modification_type"] for r in rows} <= {"polarity_negation", "antonym"}
    jsonl = tmp_path / "f.jsonl"
    assert main(["foils", "--input", str(src), "--out", str(jsonl)]) == 0
    errors = [json.loads(x) for x in jsonl.read_text(encoding="utf-8").splitlines() if '"error": "' in x]
    reasons = " | ".join(e["error"] for e in errors if e.get("stage") == "input")
    assert "too long" in reasons and "no words" in reasons


def test_clear_errors_without_traceback(tmp_path, capsys):
    bad = tmp_path / "b.csv"
    bad.write_text("a,b\n1,2\n", encoding="utf-8")
    assert main(["foils", "--input", str(bad), "--out", str(tmp_path / "o.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "no sentence column" in err and "hint:" in err and "Traceback" not in err
    assert main(["foils", "--input", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert main(["foils", "--input", str(bad), "--out", str(tmp_path / "o.jsonl"), "--rules", "XX"]) == 2


def _csv_foils(path: Path) -> list[tuple[str, str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return [(r["original_sentence"], r["modified_sentence"]) for r in csv.DictReader(fh)]


def test_one_csv_rule_for_the_cli_streamed_collected_and_the_basket(tmp_path, sample_run):
    """Kept foils only by default; --include-dropped adds the ones the decision dropped; the basket export
    (each record accepted by a person) writes all; the same function (core.export.in_csv) decides each time."""
    from core.curated import export_records

    foils = [r for r in sample_run if r.get("foil") and not r.get("error")]
    kept = [(r["source"], r["foil"]) for r in foils if r["kept"]]
    assert kept and len(kept) < len(foils), "the sample must hold kept and dropped foils"
    base = ["foils", "--input", str(SAMPLE), "--seed", "3", "--per-rule", "2", "--no-card"]
    streamed, collected, everything = tmp_path / "s.csv", tmp_path / "c.csv", tmp_path / "all.csv"
    assert main([*base, "--out", str(streamed)]) == 0
    assert main([*base, "--out", str(collected), "--amr-out", str(tmp_path / "g.amr")]) == 0  # held in memory
    assert main([*base, "--out", str(everything), "--include-dropped"]) == 0
    assert _csv_foils(streamed) == _csv_foils(collected) == kept
    assert _csv_foils(everything) == [(r["source"], r["foil"]) for r in foils]
    assert export_records(sample_run, tmp_path / "basket.csv").count == len(foils)
    assert _csv_foils(tmp_path / "basket.csv") == _csv_foils(everything)
