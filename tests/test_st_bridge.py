"""sentence-transformers bridge: model objects in evaluate_triples, FoilTripletEvaluator in a real fine-tune.

The fine-tune runs a few steps of MultipleNegativesRankingLoss on exported anchor/positive/negative
triplets (the packaged all-MiniLM-L6-v2): it checks the wiring, not the quality.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from core.embed import packaged
from core.evaluate.evaluation import ENCODE_MODES, evaluate_triples
from core.evaluate.triples import read_triples
from smithtui.cli import main

PAIRS = Path(__file__).resolve().parents[1] / "sample_data" / "pairs.csv"
st = pytest.importorskip("sentence_transformers")
datasets = pytest.importorskip("datasets", reason="the ecosystem extra (datasets) is not installed")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def _one_torch_thread():
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("st")
    args = ["foils", "--input", str(PAIRS), "--paraphrase-column", "paraphrase", "--seed", "7", "--no-validate"]
    out = {"records": root / "foils.jsonl", "triplets": root / "triplets" / "train.jsonl"}
    assert main([*args, "--out", str(out["records"])]) == 0
    assert main([*args, "--out", str(out["triplets"]), "--format", "st-triplets"]) == 0
    return out


@pytest.fixture()
def minilm():
    return st.SentenceTransformer(str(packaged.minilm_dir()), device="cpu", local_files_only=True)


def test_a_model_object_scores_like_its_registry_name(exported, minilm):
    ts = read_triples(exported["records"])
    by_name = evaluate_triples(ts, ["minilm"], cache=None, n_boot=0).models[0]
    by_object = evaluate_triples(ts, [minilm], cache=None, n_boot=0).models[0]
    assert by_name.ok and by_object.ok, (by_name.error, by_object.error)
    assert abs(by_name.tacc - by_object.tacc) < 1e-6 and abs(by_name.auc - by_object.auc) < 1e-6
    np.testing.assert_allclose(by_object.sim_pos, by_name.sim_pos, atol=1e-5)
    assert by_name.info["encode"] == by_object.info["encode"] == ENCODE_MODES["symmetric"]
    asym = evaluate_triples(ts, [minilm], cache=None, n_boot=0, encode="query-document").models[0]
    assert asym.ok and asym.info["encode"] == ENCODE_MODES["query-document"]


def test_objects_without_encode_are_a_per_model_error(exported):
    ts = read_triples(exported["records"])
    result = evaluate_triples(ts, [object(), "bow"], cache=None, n_boot=0)
    assert not result.models[0].ok and "no encode method" in result.models[0].error
    assert result.models[1].ok


def test_fine_tune_with_mnrl_and_the_foil_evaluator(exported, minilm, tmp_path):
    from sentence_transformers import SentenceTransformerTrainer, SentenceTransformerTrainingArguments
    from sentence_transformers.losses import MultipleNegativesRankingLoss

    from core.st_bridge import FoilTripletEvaluator

    rows = [json.loads(x) for x in exported["triplets"].read_text(encoding="utf-8").splitlines()]
    assert rows and set(rows[0]) == {"anchor", "positive", "negative", "rule", "id"}
    train = datasets.load_dataset("json", data_files=str(exported["triplets"]), split="train", cache_dir=str(tmp_path / "hf-datasets"))
    train = train.select_columns(["anchor", "positive", "negative"]).select(range(min(16, len(train))))
    evaluator = FoilTripletEvaluator(exported["records"], name="foils")
    before = evaluator(minilm)
    assert evaluator.primary_metric == "foils_tacc"
    assert {"foils_tacc", "foils_auc", "foils_hm", "foils_PN_tacc"} <= set(before)
    same = evaluate_triples(read_triples(exported["records"]), [minilm], cache=None, n_boot=0).models[0]
    assert before["foils_tacc"] == pytest.approx(same.tacc, abs=1e-9)

    first = minilm.encode(["The cat chased the mouse."])
    args = SentenceTransformerTrainingArguments(
        output_dir=str(tmp_path / "run"), max_steps=3, per_device_train_batch_size=4, learning_rate=1e-4,
        seed=13, report_to=[], save_strategy="no", logging_strategy="no", eval_strategy="no", use_cpu=True,
        dataloader_num_workers=0,
    )  # fmt: skip
    trainer = SentenceTransformerTrainer(
        model=minilm, args=args, train_dataset=train, loss=MultipleNegativesRankingLoss(minilm), evaluator=evaluator
    )
    trainer.train()
    after = evaluator(minilm)
    assert set(after) == set(before)
    assert not np.allclose(minilm.encode(["The cat chased the mouse."]), first)  # the steps changed the weights
    assert all(0.0 <= v <= 1.0 for v in after.values())
