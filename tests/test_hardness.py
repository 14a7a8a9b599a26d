"""The foil-hardness benchmark on our own pairs and on a slice of the paper's PAWS file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.evaluate.hardness import hardness_report, lexical_stats, markdown_table, read_pairs
from core.evaluate.triples import Triple
from smithtui.cli import main

PAIRS = Path(__file__).resolve().parents[1] / "sample_data" / "pairs.csv"


def test_lexical_stats_by_hand():
    triples = [
        Triple("the cat sat", "the cat was sitting", "the cat sat not", "PN"),  # J(s,f)=3/4 >= J(s,p)=2/5
        Triple("a b", "a b", "a c", "HS"),  # J(s,f)=1/3 < 1
    ]
    stats = lexical_stats(triples)
    assert stats["n"] == 2
    assert stats["jaccard_foil"] == pytest.approx((0.75 + 1 / 3) / 2)
    assert stats["jaccard_paraphrase"] == pytest.approx((0.4 + 1.0) / 2)
    assert stats["foil_at_least_as_close"] == 0.5


def test_read_pairs_dedupes_and_limits(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("sentence,paraphrase\nA b.,B a.\nA b.,B a.\nC d.,\nE f.,F e.\n", encoding="utf-8")
    pairs, foils = read_pairs(path)
    assert [(p.sentence, p.paraphrase) for p in pairs] == [("A b.", "B a."), ("E f.", "F e.")]
    assert foils == []
    assert len(read_pairs(path, limit=1)[0]) == 1


def test_report_on_our_pairs_with_bow():
    report = hardness_report(PAIRS, models=(), n_boot=0)
    ours = report["sets"]["ours"]
    assert report["pairs"] == 8
    assert ours["n_triples"] > 0
    assert ours["validation"]["all"]["emitted"] >= ours["n_triples"]
    lex = ours["lexical"]["all"]
    # Our foils edit the source in place: about as close to it as the paraphrases are (US now drops whole
    # phrases, "on the bus", so a foil can lose a few more words than a paraphrase changes).
    assert lex["jaccard_foil"] > lex["jaccard_paraphrase"] - 0.05
    assert "bow" in ours["models"] and 0.0 <= ours["models"]["bow"]["all"]["tacc"] <= 1.0
    assert "paper" not in report["sets"]
    assert "| ours | all |" in markdown_table(report)


def test_paws_slice_side_by_side(shared_data, tmp_path):
    paws = shared_data / "sentencesmith" / "paws_samples_1737x6.csv"
    out = tmp_path / "h"
    assert main(["hardness", "--pairs", str(paws), "--limit", "6", "--models", "", "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert set(report["sets"]) == {"ours", "paper"}
    paper = report["sets"]["paper"]["lexical"]["all"]
    ours = report["sets"]["ours"]["lexical"]["all"]
    assert ours["jaccard_foil"] > paper["jaccard_foil"]
    assert report["provenance"]["input_sha256"]
    assert (out / "foils.jsonl").read_text(encoding="utf-8").strip()


def test_a_refused_edit_is_replaced_by_the_rules_next_edit():
    # "Wright" is a name: PN any-node picks it up only through the entity, which the realizer refuses;
    # RS two-leaf offers swaps the realizer refuses (a name with a modifier). Each sampled slot that has
    # realizable alternatives must end up with a foil, not with the refusal.
    from core.foils.pipeline import FoilPipeline
    from core.foils.rules.edits import enumerate_edits
    from core.inputs import InputRow

    pipeline = FoilPipeline.from_settings()
    text = "Wright moved from Chapel Hill , NC to New York in 1998 with his old friends ."
    records = list(pipeline.run([InputRow("r1", text, "x")], validate=False))
    by_rule = pipeline.rank(enumerate_edits(pipeline.parse([text])[0]))  # AR/HS: the best replacement per node
    per_rule = pipeline.settings.per_rule
    for rule, edits in by_rule.items():
        realizable = [c for c in pipeline.realize(edits) if c.realization.error is None]
        foils = [r for r in records if r["rule"] == rule and r["error"] is None]
        assert len(foils) == min(per_rule, len(realizable)), rule
