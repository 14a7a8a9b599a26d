"""Foil records and their atomic exports."""

from __future__ import annotations

import csv
import json

import penman
import pyarrow.parquet as pq

from core.export import (
    SENTENCESMITH_COLUMNS,
    foil_record,
    sentencesmith_row,
    write_jsonl,
    write_parquet,
    write_sentencesmith_csv,
)
from core.types import Edit, FoilCandidate, ParsedSentence, Realization, Token, Verdict


def _candidate() -> FoilCandidate:
    words = ["The", "cat", "chased", "the", "mouse", "."]
    tokens, idx = [], 0
    for i, w in enumerate(words):
        tokens.append(Token(i=i, text=w, lemma=w.lower(), pos="X", tag="X", dep="dep", head=2, idx=idx))
        idx += len(w) + 1
    before = penman.decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (m / mouse))")
    after = penman.decode("(c / chase-01 :polarity - :ARG0 (c2 / cat) :ARG1 (m / mouse))")
    parsed = ParsedSentence(
        text="The cat chased the mouse.", graph=before, tokens=tuple(tokens), alignment={"c": (2,)}, parser="dep"
    )
    edit = Edit(
        rule="PN", variant="main-predicate", description="negate chase-01", nodes=("c",), source=parsed, edited=after,
        details={"node": "c", "action": "negate"},
    )
    return FoilCandidate(edit, Realization("The cat did not chase the mouse.", ((8, 21),), generator="aligned"))


def test_record_fields():
    verdict = Verdict("roundtrip", True, 0.93, "negation present")
    rec = foil_record(
        _candidate(), [verdict], row_id="R1", paraphrase="The mouse was chased by the cat.", kept=True
    ).to_json()
    assert rec["foil"] == "The cat did not chase the mouse."
    assert rec["rule"] == "PN" and rec["rule_name"] == "polarity negation"
    assert rec["changed_text"] == ["did not chase"]
    assert rec["aligned_tokens"] == {"c": ["chased"]}
    assert ":polarity -" in rec["graph_after"] and ":polarity" not in rec["graph_before"]
    assert rec["validated"] is True and rec["verdicts"][0]["score"] == 0.93
    json.dumps(rec)  # JSON-able


def test_sentencesmith_csv_layout(tmp_path):
    rec = foil_record(_candidate(), [Verdict("roundtrip", True, 0.9, "ok")], row_id="R1", paraphrase="P.").to_json()
    row = sentencesmith_row(rec)
    assert row["modification_type"] == "polarity_negation"
    assert row["semantic_relationship"].startswith("roundtrip: passed (0.90)")
    path = tmp_path / "f.csv"
    assert write_sentencesmith_csv(path, [rec, {"source": "X.", "foil": None, "error": "no rule applies"}]) == 1
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        assert tuple(reader.fieldnames or ()) == SENTENCESMITH_COLUMNS
        assert next(reader)["modified_sentence"] == "The cat did not chase the mouse."


def test_jsonl_and_parquet_round_trip(tmp_path):
    rec = foil_record(_candidate(), [], row_id="R1").to_json()
    assert write_jsonl(tmp_path / "f.jsonl", [rec]) == 1
    assert json.loads((tmp_path / "f.jsonl").read_text(encoding="utf-8"))["foil"] == rec["foil"]
    assert write_parquet(tmp_path / "f.parquet", [rec]) == 1
    table = pq.read_table(tmp_path / "f.parquet").to_pylist()
    assert table[0]["foil"] == rec["foil"]
    assert table[0]["nodes"] == ["c"]  # typed nested columns, not JSON text
    assert table[0]["changed_spans"] == [[8, 21]]
    assert table[0]["aligned_tokens"] == [{"node": "c", "tokens": ["chased"]}]
