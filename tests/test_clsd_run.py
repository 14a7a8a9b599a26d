"""The whole CLSD evaluation and the ``smithtui clsd`` command, on tiny sets with the bow baseline and synthetic models."""

from __future__ import annotations

import csv
import itertools
import json
import socket
import threading
from pathlib import Path

import numpy as np
import pytest

from core.clsd.data import check_pivot, read_clsd, read_swaps
from core.clsd.run import ModelSpec, registry_model, run_clsd
from core.clsd.tasks import PIVOT
from core.config import Settings, apply_overrides
from core.errors import CancelledError, ModelMissingError
from core.textio import json_default
from smithtui.cli import main

DATA = Path(__file__).parent / "data"
TINY = DATA / "clsd_tiny.csv"
TINY_PIVOT = DATA / "clsd_tiny_pivot.csv"


def oracle(texts, progress=None, cancel=None):
    """A 'perfect translator' model: each row's source and target share a direction, distractors do not."""
    data = read_clsd(TINY)
    concept: dict[str, int] = {}
    for task in data.tasks.values():
        for n, item in enumerate(task.items):
            concept[item.source] = concept[item.target] = n
    rng = np.random.default_rng(0)
    base = rng.normal(size=(len(concept) + 1, 16))
    out = np.stack([base[concept[t]] if t in concept else rng.normal(size=16) for t in texts]).astype(np.float32)
    if progress:
        progress(len(texts), len(texts))
    return out


def constant(texts, progress=None, cancel=None):
    """Every text the same vector: every row is a tie, so strict P@1 is 0 (and 1 when ties pass)."""
    return np.ones((len(texts), 4), dtype=np.float32)


def broken(texts, progress=None, cancel=None):
    raise ModelMissingError("weights not installed", hint="pip install them")


@pytest.fixture(scope="module")
def tiny():
    direct = read_clsd(TINY)
    return direct, check_pivot(direct, read_clsd(TINY_PIVOT, condition=PIVOT))


def test_scores_every_direction_and_condition(tiny):
    direct, pivot = tiny
    seen, results = [], []
    report = run_clsd(
        direct,
        [ModelSpec("oracle", oracle), ModelSpec("constant", constant), ModelSpec("broken", broken)],
        pivot=pivot,
        pos=False,
        progress=lambda d, t: seen.append((d, t)),
        on_result=results.append,
    )
    assert report.model_errors == {"broken": "weights not installed (hint: pip install them)"}
    summary = {(s["model"], s["direction"], s["condition"]): s for s in report.summary()}
    assert summary[("oracle", "de-fr", "direct")]["p_at_1"] == 1.0
    assert summary[("oracle", "fr-de", "direct")]["n_scored"] == 4
    assert summary[("oracle", "fr-de", "direct")]["excluded"] == {"empty distractor": 1, "distractor equals target": 1}
    assert summary[("constant", "de-fr", "direct")]["p_at_1"] == 0.0  # ties fail
    assert summary[("constant", "de-fr", "direct")]["pooled_recall_at_1"] == 0.0
    assert len(results) == 8 and seen[-1][0] == seen[-1][1]
    assert all(b[0] >= a[0] for a, b in itertools.pairwise(seen))
    wrong = report.wrong_rows("constant", "de-fr")
    assert len(wrong) == 6 and wrong[0].winning_distractor == wrong[0].item.distractors[0]
    kinds = {(o["kind"], o["direction"], o["condition"] if "condition" in o else o["model"]) for o in report.overlaps}
    assert ("models", "de-fr", "direct") in kinds and ("conditions", "de-fr", "oracle") in kinds
    record = json.loads(json.dumps(report.to_dict(), default=json_default))
    assert record["provenance"]["settings"]["ties"] == "fail"
    assert record["provenance"]["files"]["data"]["sha256"]
    assert len(record["results"][0]["rows"][0]["cosines"]) == 5


def test_ties_pass_policy(tiny):
    direct, _ = tiny
    report = run_clsd(direct, [ModelSpec("constant", constant)], pos=False, ties="pass")
    assert {r.p_at_1 for r in report.results} == {1.0}


def test_cancel_stops_the_run(tiny):
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(CancelledError):
        run_clsd(tiny[0], [ModelSpec("oracle", oracle)], pos=False, cancel=cancel)


def test_bow_baseline_from_the_registry_with_pos_and_annotations(tiny, tmp_path):
    direct, pivot = tiny
    settings = apply_overrides(Settings(), {"models.cache_dir": str(tmp_path / "cache")})
    swaps = read_swaps(DATA / "clsd_swaps_de.tsv", dataset="tiny")
    report = run_clsd(
        direct, [registry_model("bow", settings)], pivot=pivot, swaps=swaps, directions=["fr-de"], settings=settings
    )
    direct_res = report.result("bow", "fr-de")
    pivot_res = report.result("bow", "fr-de", PIVOT)
    # word overlap cannot bridge German and French, but it sees the English pivot
    assert pivot_res.p_at_1 > direct_res.p_at_1
    pos = {row["pos"]: row for row in direct_res.pos}
    assert pos["ALL"]["n"] == len(direct_res.swaps) >= 8
    assert {"NOUN", "VERB"} <= set(pos)
    swap = next(s for s in direct_res.swaps if s.old == "Steuern")
    assert (swap.new, swap.pos) == ("Preise", "NOUN")
    annotated = next(s for s in direct_res.swaps if s.old == "erhöht" and s.new == "gesenkt")
    assert annotated.annotated_pos == "VERB" and annotated.pos == "VERB"
    assert any("POS tagger agrees with the annotated POS" in n for n in direct_res.notes)
    bins = {b["bin"]: b for b in direct_res.lev_bins}
    assert sum(b["distractors"] for b in bins.values()) == 4 * 4
    assert sum(b["successful"] for b in bins.values()) == sum(not r.correct for r in direct_res.rows)
    assert report.provenance["models"]["bow"]["kind"] == "lexical"


def test_cli_clsd_writes_results_and_rows(tmp_path, capsys):
    out, rows = tmp_path / "results.json", tmp_path / "rows.csv"
    code = main(
        ["clsd", "--data", str(TINY), "--pivot", str(TINY_PIVOT), "--models", "bow", "--out", str(out),
         "--rows-out", str(rows), "--no-pos"]
    )
    assert code == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    assert {(s["direction"], s["condition"]) for s in record["summary"]} == {
        ("de-fr", "direct"), ("fr-de", "direct"), ("de-fr", "pivot"), ("fr-de", "pivot"),
    }
    table = list(csv.DictReader(rows.open(encoding="utf-8")))
    assert len(table) == 6 + 4 + 6 + 4 and {"cos_target", "cos_d4", "winning_distractor"} <= set(table[0])
    printed = capsys.readouterr().out
    assert "DE→FR" in printed and "pivot" in printed


def test_cli_generic_layout_and_clear_errors(tmp_path, capsys):
    out = tmp_path / "r.json"
    code = main(
        ["clsd", "--data", str(DATA / "clsd_generic_en_es.tsv"), "--source-col", "english", "--target-col", "spanish",
         "--distractor-cols", "foil_*", "--source-lang", "en", "--target-lang", "es", "--models", "bow",
         "--out", str(out), "--no-pos"]
    )
    assert code == 0 and json.loads(out.read_text())["summary"][0]["direction"] == "en-es"
    assert main(["clsd", "--data", str(DATA / "clsd_generic_en_es.tsv"), "--models", "bow", "--out", str(out)]) == 2
    assert "--source-col" in capsys.readouterr().err
    assert main(["clsd", "--data", str(TINY), "--models", "no-such-model", "--out", str(out)]) == 2
    assert "unknown embedder" in capsys.readouterr().err


def test_cli_distractors_with_an_unreachable_endpoint(tmp_path, monkeypatch, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("SMITH_CLSD__LLM_ENABLED", "true")
    monkeypatch.setenv("SMITH_CLSD__LLM_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("SMITH_CLSD__LLM_MODEL", "tiny-chat")
    monkeypatch.setenv("SMITH_CLSD__LLM_TIMEOUT", "2")
    code = main(["clsd-distractors", "--input", str(DATA / "clsd_generic_en_es.tsv"), "--target-col", "spanish",
                 "--lang", "es", "--backend", "llm", "--out", str(tmp_path / "d.csv")])
    assert code == 2
    assert "cannot reach the chat endpoint" in capsys.readouterr().err
    assert not (tmp_path / "d.csv").exists()
