"""Typed foil records (core.record): exact JSON round trips on real pipeline output, malformed records refused
in one line, and every reader handling a record without a foil (foil None) as no foil."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from core.curated import export_records
from core.curation import CurationSession, entry_problem
from core.dataset_card import card_metadata
from core.errors import InputError
from core.evaluate.triples import triples_from_records
from core.export import st_triplet_rows, write_sentencesmith_csv
from core.inputs import InputRow
from core.record import CuratedRecord, FoilRecord

REFUSED = "After his service Lockhart lived in Texas but recently moved to Florida."  # PN refuses 'but' (CCONJ)
SENTENCES = [
    InputRow("r1", "The cat chased the mouse.", "The mouse was chased by the cat."),
    InputRow("r2", REFUSED, "Lockhart lived in Texas after his service but moved to Florida lately."),
    InputRow("r3", "!!!", "?"),  # no words: a sentence-level error record (stage input)
]


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    from core.foils.pipeline import FoilPipeline

    return list(FoilPipeline.from_settings().run(SENTENCES))


def test_every_pipeline_record_round_trips_exactly(records: list[dict[str, Any]]) -> None:
    assert len(records) > 5
    for rec in records:
        back = FoilRecord.from_json(rec).to_json()
        assert back == rec
        assert json.dumps(back, ensure_ascii=False) == json.dumps(rec, ensure_ascii=False)  # the same bytes, in order


def test_records_without_a_foil_have_foil_none_and_graphs_carry_the_foils_sentence(records: list[dict[str, Any]]) -> None:
    typed = [FoilRecord.from_json(r) for r in records]
    refused = [r for r in typed if r.error is not None and r.stage is None]
    assert refused, "the pipeline should refuse PN on 'but' in the second sentence"
    for r in refused:
        assert r.foil is None and not r.has_foil and "# ::snt" not in r.graph_after
    sentence_errors = [r for r in typed if r.stage is not None]
    assert [(r.row_id, r.stage, r.foil) for r in sentence_errors] == [("r3", "input", None)]
    foils = [r for r in typed if r.has_foil]
    assert foils
    for r in foils:
        assert f"# ::snt {r.foil}\n" in r.graph_after and f"# ::snt {r.source}\n" in r.graph_before
        tok = next(line for line in r.graph_after.splitlines() if line.startswith("# ::tok "))
        assert tok.removeprefix("# ::tok ").replace(" ", "") == str(r.foil).replace(" ", "")


def test_consumers_never_write_a_missing_foil_as_a_foil(records: list[dict[str, Any]], tmp_path: Path) -> None:
    typed = [FoilRecord.from_json(r) for r in records]
    n_foils = sum(r.has_foil for r in typed)
    path = tmp_path / "all.csv"
    assert write_sentencesmith_csv(path, records, include_dropped=True) == n_foils
    with open(path, encoding="utf-8", newline="") as fh:
        written = [row["modified_sentence"] for row in csv.DictReader(fh)]
    assert written and all(w and w != "None" for w in written)
    meta = card_metadata(records, "all.csv", "csv", count=n_foils)["smithtui"]
    assert meta["errors"] == len(records) - n_foils and sum(meta["counts_per_rule"].values()) == n_foils
    triples = triples_from_records(records, layout="foil-engine", include_rejected=True)
    assert len(triples.triples) == n_foils
    assert all(t.foil and t.foil != "None" for t in triples.triples)
    assert triples.bad_counts()["foil engine error"] == len(records) - n_foils
    assert all(row["negative"] != "None" for row in st_triplet_rows(records))


@pytest.mark.parametrize(
    ("record", "says"),
    [
        ({"source": "A.", "foil": 3}, "'foil' is int"),
        ({"source": "A.", "foil": "B.", "nodes": "c"}, "'nodes' is str, not a list of strings"),
        ({"source": "A.", "foil": "B.", "kept": "yes"}, "'kept' is str, not true, false or null"),
        ({"source": "A.", "foil": "B.", "changed_spans": [[1]]}, "'changed_spans'"),
        ({"foil": "B."}, "no 'source' field"),
        (["A.", "B."], "is list, not a JSON object"),
    ],
)
def test_a_malformed_record_is_refused_in_one_line_with_a_hint(record: Any, says: str) -> None:
    with pytest.raises(InputError) as info:
        FoilRecord.from_json(record)
    assert says in info.value.message and "\n" not in info.value.message and info.value.hint


def test_curated_records_round_trip_and_a_malformed_journal_record_is_a_skipped_entry(
    records: list[dict[str, Any]], tmp_path: Path
) -> None:
    rec = next(r for r in records if FoilRecord.from_json(r).has_foil)
    curated = CuratedRecord.from_json(
        {**rec, "spotcheck": {"bow": {"margin": 0.1}}, "edited_by_hand": False, "pending": ["fluency"]}
    )
    assert curated.pending == ("fluency",) and curated.record.foil == rec["foil"]
    assert CuratedRecord.from_json(curated.to_json()) == curated
    session = CurationSession.open(tmp_path / "j.jsonl", restore=False)
    key = session.accept(curated)
    [kept] = session.basket
    assert kept["curation_id"] == key and kept["kept"] is True and kept["engine_decision"]["kept"] == rec["kept"]
    assert CuratedRecord.from_json(kept).key() == key
    problem = entry_problem({"v": 1, "seq": 2, "action": "accept", "key": "k", "record": {**rec, "pending": "bow"}})
    assert problem == "accept record: a foil record's 'pending' is str, not a list of strings"
    result = export_records(session.basket, tmp_path / "basket.jsonl")
    assert result.count == 1
    session.close()


def test_read_triples_takes_empty_cells_as_null_and_refuses_a_kept_that_is_not_a_boolean() -> None:
    """Foil-engine rows from Parquet or pandas carry NaN for a missing value; a CSV's 'False' is no decision."""
    rows = [
        {"source": float("nan"), "paraphrase": "P.", "foil": "F.", "rule": "PN", "variant": float("nan"), "kept": True},
        {"source": "S.", "paraphrase": "P.", "foil": "F.", "rule": "PN", "error": float("nan"), "kept": "False"},
        {"source": "S.", "paraphrase": "P.", "foil": "F.", "rule": "PN", "error": float("nan"), "kept": True},
    ]
    triples = triples_from_records(rows, layout="foil-engine")
    assert [t.row for t in triples.triples] == [3]
    assert triples.bad_counts() == {
        "missing source": 1,
        "malformed foil record: a foil record's 'kept' is str, not true, false or null": 1,
    }


def test_ar_and_hs_records_carry_the_chosen_sense(tmp_path):
    """Issue 12 item 1: the record's edit details hold the chosen sense, its score and the runner-up."""
    import json

    from smithtui.cli import main

    source = tmp_path / "in.txt"
    source.write_text("The teacher gave the students a difficult test.\nThe letters were delivered by two old postmen.\n")
    out = tmp_path / "out.jsonl"
    assert main(["foils", "--input", str(source), "--out", str(out), "--no-card", "--no-validate"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    lexical = [r for r in records if r["rule"] in ("AR", "HS") and r["foil"]]
    assert lexical
    for r in lexical:
        assert {"sense", "sense_score", "sense_runner_up", "sense_runner_up_score", "sense_method"} <= set(r["details"])
        assert FoilRecord.from_json(r).to_json() == r
