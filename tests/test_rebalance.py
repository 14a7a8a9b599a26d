"""Rebalancing a triple set against a blind fluency scorer: the plan by hand, the real trigram, and hardness."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.errors import InputError
from core.evaluate.evaluation import evaluate_triples
from core.evaluate.hardness import hardness_report, markdown_table
from core.evaluate.rebalance import blind_margins, plan_rebalance, rebalance_triples
from core.evaluate.triples import Triple
from smithtui.cli import main

PAIRS = Path(__file__).resolve().parents[1] / "sample_data" / "pairs.csv"


def test_the_widest_solved_margins_go_first_and_only_as_many_as_the_ceiling_needs():
    # RS: 4 of 5 solved (0.8); dropping the margins 3.0 and 2.0 leaves 2 of 3 (0.667), then 0.5 leaves 1 of 2.
    margins = [3.0, -1.0, 0.5, 2.0, 0.1, 9.0, -9.0]
    rules = ["RS", "RS", "RS", "RS", "RS", "PN", "PN"]
    plan = plan_rebalance(margins, rules, max_tacc=0.6)
    assert plan.rules["RS"].dropped == (0, 3, 2)
    assert (plan.rules["RS"].tacc_before, plan.rules["RS"].tacc_after) == (0.8, 0.5)
    assert plan.rules["PN"].dropped == ()  # already at chance: untouched
    assert plan.kept == (1, 4, 5, 6) and plan.dropped == (0, 2, 3)


def test_a_tie_counts_as_unsolved_and_a_floor_drops_the_widest_failures():
    plan = plan_rebalance([0.0, 0.0, -2.0, -1.0, 1.0], ["AR"] * 5, min_tacc=0.4)
    assert plan.rules["AR"].tacc_before == 0.2  # strict ties: only the margin 1.0 is solved
    # 1 of 4, then 1 of 3, both below 0.4; then a tie goes: 1 of 2.
    assert plan.rules["AR"].dropped == (2, 3, 0) and plan.rules["AR"].tacc_after == 0.5


def test_an_unscored_triple_is_kept_and_counted():
    plan = plan_rebalance([float("nan"), 1.0, 1.0, -1.0], ["HS"] * 4, max_tacc=0.5)
    assert plan.kept == (0, 2, 3) and plan.rules["HS"].unscored == 1


@pytest.mark.parametrize("bounds", [{"max_tacc": 0.4}, {"max_tacc": 0.6, "min_tacc": 0.55}])
def test_bounds_without_chance_are_refused(bounds):
    with pytest.raises(InputError, match="do not contain chance"):
        plan_rebalance([1.0], ["PN"], **bounds)


def test_the_real_trigram_drops_the_broken_foil_and_the_blind_scorer_agrees():
    fluent = "The children played in the garden after school."
    triples = [
        Triple("s1", fluent, "The children garden played in the after school.", "US", id="broken"),
        Triple("s2", "The old man walked home slowly.", "The old man walked home.", "US", id="shorter"),
        Triple("s3", "She opened the window.", "She closed the window.", "US", id="antonym"),
    ]
    margins, info = blind_margins(triples)
    assert info["scorer"] == "trigram" and margins[0] > 0 and margins[0] == max(margins)
    kept, summary = rebalance_triples(triples, max_tacc=0.6)
    assert "broken" not in {t.id for t in kept}
    assert summary["dropped_triples"][0]["id"] == "broken" and summary["dropped_triples"][0]["margin"] > 0
    # The evaluator's blind baseline scores the kept set exactly as the plan says.
    blind = evaluate_triples(kept, ["blind:trigram"], cache=None, n_boot=0).get("blind:trigram")
    assert blind.tacc == pytest.approx(summary["rules"]["US"]["tacc_after"], abs=1e-6) and blind.tacc <= 0.6


def test_hardness_reports_the_rebalanced_set_beside_ours():
    report = hardness_report(PAIRS, models=(), n_boot=0, rebalance=0.5)
    ours, rebalanced = report["sets"]["ours"], report["sets"]["ours-rebalanced"]
    summary = report["rebalance"]
    assert rebalanced["n_triples"] == summary["kept"] == ours["n_triples"] - summary["dropped"]
    for rule, rb in summary["rules"].items():
        assert rb["tacc_after"] is None or rb["tacc_after"] <= 0.5
        assert rebalanced["models"]["blind:trigram"].get(rule, {"tacc": 0})["tacc"] <= 0.5 + 1e-9
    assert "| ours-rebalanced | all |" in markdown_table(report)


def test_hardness_rebalance_needs_a_blind_scorer_and_a_sound_ceiling(tmp_path):
    with pytest.raises(InputError, match="needs a blind scorer"):
        hardness_report(PAIRS, models=(), blind=(), rebalance=0.6)
    with pytest.raises(InputError, match="do not contain chance"):
        hardness_report(PAIRS, models=(), rebalance=0.3)


def test_hardness_command_writes_the_rebalanced_records(tmp_path):
    out = tmp_path / "h"
    assert main(["hardness", "--pairs", str(PAIRS), "--models", "", "--rebalance", "0.5", "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    lines = (out / "rebalanced.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    dropped = {d["id"] for d in report["rebalance"]["dropped_triples"]}
    assert len(records) == report["rebalance"]["kept"] and not dropped & {r["id"] for r in records}
    assert all(r["kept"] is True and r["foil"] for r in records)


def test_eval_rebalances_a_triples_file_before_scoring(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text(
        "sentence,paraphrase,foil,rule\n"
        "s1,The children played in the garden after school.,The children garden played in the after school.,US\n"
        "s2,She opened the window before dinner.,She closed the window before dinner.,AR\n"
        "s3,The old man walked home.,The old man walked home slowly.,US\n"
        "s4,Home the old man walked slowly.,The old man walked home slowly.,US\n"
        "s5,They sold the house in May.,They sold the house in March.,AR\n",
        encoding="utf-8",
    )
    out = tmp_path / "r.json"
    args = ["eval", "--triples", str(path), "--models", "bow", "--n-boot", "0", "--rebalance", "0.5", "--out", str(out)]
    assert main(args) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    # US: 2 of 3 solved; the widest margin goes, by its file row: the trigram prefers the shorter sentence
    # ("walked home." over "walked home slowly.") even more than it dislikes the scrambled foil.
    assert [d["row"] for d in doc["rebalance"]["dropped_triples"]] == [4]
    assert doc["dataset"]["triples"] == 4 and doc["rebalance"]["kept"] == 4
    assert "dropped 1 triple(s) before scoring (US 1)" in capsys.readouterr().err
    assert main([*args[:-2], "--blind", "none", "--out", str(tmp_path / "none.json")]) == 2
    assert "--rebalance needs a blind scorer" in capsys.readouterr().err


def test_a_rebalance_that_leaves_nothing_says_so():
    from core.evaluate.rebalance import rebalance_set
    from core.evaluate.triples import TripleSet

    ts = TripleSet((Triple("s", "The children played in the garden.", "The children garden played in the.", "US"),))
    with pytest.raises(InputError, match="dropped every triple"):
        rebalance_set(ts, max_tacc=0.6)
