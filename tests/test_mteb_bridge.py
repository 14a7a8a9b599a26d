"""MTEB bridge: our results load with mteb's reader; an exported foil task runs under mteb with our TACC."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from core.evaluate.triples import read_triples
from core.mteb_bridge import content_hash
from smithtui.cli import main

PAIRS = Path(__file__).resolve().parents[1] / "sample_data" / "pairs.csv"
mteb = pytest.importorskip("mteb", reason="the ecosystem extra (mteb) is not installed")
st = pytest.importorskip("sentence_transformers")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict[str, Path]:
    """Real foils from sample pairs, scored by `smithtui eval` with --out, --out-mteb and --plot."""
    root = tmp_path_factory.mktemp("mteb")
    foils = root / "paws_like.jsonl"
    args = ["foils", "--input", str(PAIRS), "--paraphrase-column", "paraphrase", "--seed", "11", "--no-validate"]
    assert main([*args, "--out", str(foils)]) == 0
    out = {"foils": foils, "json": root / "eval.json", "mteb": root / "results", "plots": root / "plots"}
    assert main(["eval", "--triples", str(foils), "--models", "bow,minilm", "--no-cache", "--n-boot", "200", "-q",
                 "--out", str(out["json"]), "--out-mteb", str(out["mteb"]), "--plot", str(out["plots"])]) == 0  # fmt: skip
    return out


def test_our_results_load_with_mtebs_reader(run):
    ours = json.loads(run["json"].read_text(encoding="utf-8"))
    files = sorted(run["mteb"].glob("*/*/*.json"))
    assert {f.parts[-3] for f in files} == {"bow", "minilm"}
    revision = content_hash(read_triples(run["foils"]))
    for path in files:
        result = mteb.TaskResult.from_disk(path)
        model = next(m for m in ours["models"] if m["name"] == path.parts[-3])
        assert result.task_name == "SmithFoils_paws_like" and result.dataset_revision == revision
        assert result.get_score() == pytest.approx(model["tacc"], abs=1e-6)  # main score: TACC
        scores = result.scores["test"][0]
        assert scores["hf_subset"] == "default" and scores["languages"] == ["eng-Latn"]
        assert scores["auc"] == pytest.approx(model["auc"], abs=1e-6) and scores["hm"] == pytest.approx(model["hm"], abs=1e-6)
        for rule, per in model["per_rule"].items():
            assert scores[f"{rule}_tacc"] == pytest.approx(per["tacc"], abs=1e-6)


def test_exported_task_runs_under_mteb_with_the_same_tacc(run, tmp_path):
    from core.embed import packaged

    folder = tmp_path / "task"
    assert main(["export-task", "--triples", str(run["foils"]), "--out", str(folder)]) == 0
    assert {p.name for p in folder.iterdir()} >= {"task.json", "smith_foil_task.py", "README.md", "data"}
    spec = importlib.util.spec_from_file_location("smith_foil_task", folder / "smith_foil_task.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    task = module.load_task(folder)
    model = st.SentenceTransformer(str(packaged.minilm_dir()), device="cpu", local_files_only=True)
    result = mteb.evaluate(model, task, cache=None, show_progress_bar=False).task_results[0]
    ours = next(m for m in json.loads(run["json"].read_text(encoding="utf-8"))["models"] if m["name"] == "minilm")
    scores = result.scores["test"][0]
    assert result.get_score() == pytest.approx(ours["tacc"], abs=1e-6)
    assert scores["auc"] == pytest.approx(ours["auc"], abs=1e-6)
    for rule, per in ours["per_rule"].items():
        assert scores[f"{rule}_tacc"] == pytest.approx(per["tacc"], abs=1e-6)
    assert result.dataset_revision == content_hash(read_triples(run["foils"]))


def test_eval_plots_are_one_png_per_figure(run):
    pngs = sorted(p.name for p in run["plots"].iterdir())
    assert pngs == ["paws_like_roc.png", "paws_like_tacc_per_rule.png"]
    for name in pngs:
        data = (run["plots"] / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
