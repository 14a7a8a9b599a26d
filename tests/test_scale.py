"""Streaming, sharded, resumable foil runs on the local, process and Dask engines (real parses, real WordNet).

Workers are expensive (each loads spaCy and WordNet), so the inputs are the 20 sample sentences,
foils are not validated, and each engine starts once.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scale_support

from core.batch import run_foils
from core.config import PipelineSettings, Settings
from core.engines import EngineSpec, run_tasks
from core.errors import ConfigError, InputError
from core.foils.pipeline import FoilPipeline
from core.inputs import iter_input_rows, iter_inputs, read_input_rows
from core.shards import MANIFEST, ShardedOutput, read_parts, shard_rows
from core.textio import iter_rows, read_rows
from smithtui.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data" / "sentences.txt"
TESTS = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _workers_import_support(monkeypatch):
    """Spawned workers import ``scale_support`` and this checkout's ``core`` by name."""
    paths = [str(ROOT), str(TESTS), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))


def folder_bytes(folder: Path) -> dict[str, bytes]:
    """Every result file of a sharded folder (the run history in runs.jsonl left out)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name != "runs.jsonl"}


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """The 20 sample sentences, sequentially (local engine), in shards of 2 rows."""
    out = tmp_path_factory.mktemp("ref") / "run"
    summary = run_foils(str(SAMPLE), out, validate=False, shard_size=2)
    assert (summary.shards, summary.made, summary.failed) == (10, 10, {})
    assert summary.counts["foils"] > 70  # real foils: 80 now, 22 of them AR and HS (an environment without WordNet gives only error records)
    return out


# -- streaming input --------------------------------------------------------------------------
def test_streamed_rows_match_the_whole_file_readers(tmp_path):
    (tmp_path / "a.csv").write_text('sentence,paraphrase\n"Hi, there.",Hello.\nBye.,\n', encoding="utf-8")
    (tmp_path / "a.tsv").write_text("text\nÜber den Fluss.\n", encoding="utf-16")
    (tmp_path / "a.txt").write_bytes(b"One.\r\n\r\nTwo.\r\n")
    (tmp_path / "a.jsonl").write_text('{"sentence": "A."}\n\n{"sentence": "B."}\n', encoding="utf-8")
    for name in ("a.csv", "a.tsv", "a.txt", "a.jsonl"):
        assert list(iter_rows(tmp_path / name)) == read_rows(tmp_path / name)
    rows = iter_input_rows(tmp_path / "a.csv")
    assert next(rows).sentence == "Hi, there."  # a generator: rows come as they are read
    assert read_input_rows(tmp_path / "a.txt")[1].id == "L3"


def test_several_inputs_and_globs_get_ids_qualified_by_file(tmp_path):
    for sub in ("x", "y"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "book.txt").write_text(f"The {sub} cat sat.\nThe dog ran.\n", encoding="utf-8")
    from core.inputs import expand_inputs

    paths = expand_inputs([str(tmp_path / "*" / "book.txt")])
    rows = list(iter_inputs(paths))
    ids = [r.id for r in rows]
    assert len(set(ids)) == 4 and ids[0].endswith("x/book.txt:L1") and ids[2].endswith("y/book.txt:L1")
    with pytest.raises(InputError, match="no file matches"):
        expand_inputs([str(tmp_path / "*.csv")])


def test_pipeline_run_consumes_a_generator_lazily():
    pipe = FoilPipeline.from_settings(Settings())
    consumed = []

    def rows():
        for row in iter_input_rows(SAMPLE):
            consumed.append(row.id)
            yield row

    records = pipe.run(rows(), validate=False, batch_size=4)
    first = next(records)
    assert first["row_id"] == "L1" and len(consumed) == 4  # one batch read, not the whole file


# -- the sharded folder -----------------------------------------------------------------------
def test_parts_hold_the_sequential_records_and_the_manifest_the_provenance(reference, tmp_path):
    manifest = json.loads((reference / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["total_shards"] == 10 and sorted(manifest["shards"]) == [f"{i:05d}" for i in range(10)]
    assert manifest["provenance"]["seed"] == 13 and manifest["inputs"][0]["sha256"]
    parts = list(read_parts(reference))
    assert {r.pop("run") for r in parts} == {manifest["run"]}
    single = tmp_path / "f.jsonl"
    assert main(["foils", "--input", str(SAMPLE), "--out", str(single), "--no-validate"]) == 0
    whole = [json.loads(line) for line in single.read_text(encoding="utf-8").splitlines()]
    assert whole and [{**r, "provenance": manifest["provenance"]} for r in parts] == whole  # nothing lost


def test_a_finished_run_refuses_to_be_overwritten_or_resumed_with_other_settings(reference, tmp_path):
    with pytest.raises(InputError, match="already holds a run"):
        run_foils(str(SAMPLE), reference, validate=False, shard_size=2)
    with pytest.raises(InputError, match="differs in provenance"):
        run_foils(str(SAMPLE), reference, validate=False, shard_size=2, resume=True,
                  settings=Settings(pipeline=PipelineSettings(seed=14)))  # fmt: skip
    summary = run_foils(str(SAMPLE), reference, validate=False, shard_size=2, resume=True)
    assert (summary.made, summary.resumed) == (0, 10)


def test_resume_redoes_a_part_that_was_damaged(reference, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(reference, copy)
    (copy / "part-00003.jsonl").write_bytes(b'{"truncated')
    out = ShardedOutput.open(copy, {k: v for k, v in json.loads((copy / MANIFEST).read_text()).items()
                                    if k not in ("format", "run", "shards", "failed", "total_shards")}, resume=True)  # fmt: skip
    assert 3 not in out.done() and len(out.done()) == 9
    summary = run_foils(str(SAMPLE), copy, validate=False, shard_size=2, resume=True)
    assert summary.made == 1 and folder_bytes(copy) == folder_bytes(reference)


def test_flags_that_need_a_folder_say_so(tmp_path, capsys):
    assert main(["foils", "--input", str(SAMPLE), "--out", str(tmp_path / "f.jsonl"), "--engine", "dask"]) == 2
    assert "need a sharded run" in capsys.readouterr().err
    with pytest.raises(ConfigError, match="needs --engine dask"):
        EngineSpec("process", address="tcp://127.0.0.1:8786")
    with pytest.raises(InputError, match="at least 1 row"):
        list(shard_rows([], 0))


# -- engines: results identical, dead workers survived ---------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("engine", ["process", "dask"])
def test_engines_retry_a_task_whose_worker_died_and_record_one_that_always_kills_it(engine, tmp_path):
    spec = EngineSpec(engine, workers=2, retries=1)
    once = {o.key: o for o in run_tasks(spec, scale_support.die_once, [(i, (str(tmp_path), i)) for i in range(5)])}
    assert {k: o.value for k, o in once.items()} == {i: i * i for i in range(5)}
    assert (tmp_path / "died-1").exists()  # task 1 really killed its worker once
    always = {o.key: o for o in run_tasks(spec, scale_support.always_die, [(i, (i,)) for i in range(5)])}
    assert always[3].value is None and "died" in (always[3].error or "") and always[3].attempts == 2
    assert {k: o.value for k, o in always.items() if k != 3} == {0: 0, 1: 1, 2: 4, 4: 16}
    raised = {o.key: o for o in run_tasks(spec, scale_support.fail_on, [(i, (i,)) for i in range(4)])}
    assert raised[2].error == "ValueError: two is not allowed" and raised[3].value == 9


def _worker_processes() -> list:
    import psutil

    return [
        p for p in psutil.Process().children(recursive=True)
        if "spawn_main" in " ".join(p.cmdline()) and "resource_tracker" not in " ".join(p.cmdline())
    ]  # fmt: skip


@pytest.mark.slow
def test_dask_local_cluster_gives_the_sequential_output_though_a_worker_is_killed_mid_run(reference, tmp_path):
    out = tmp_path / "dask"
    killed: list[int] = []

    def progress(done: int, total: int) -> None:
        if done and not killed and (workers := _worker_processes()):
            killed.append(workers[0].pid)
            os.kill(workers[0].pid, signal.SIGKILL)  # a worker busy with its next shard

    summary = run_foils(str(SAMPLE), out, validate=False, shard_size=2, progress=progress,
                        engine=EngineSpec("dask", workers=2, retries=1))  # fmt: skip
    assert killed and summary.failed == {} and summary.made == 10
    assert len(summary.workers) == 2 and all(w["seconds"] > 0 for w in summary.workers.values())
    assert folder_bytes(out) == folder_bytes(reference)


@pytest.mark.slow
def test_process_pool_gives_the_sequential_output(reference, tmp_path):
    out = tmp_path / "process"
    summary = run_foils(str(SAMPLE), out, validate=False, shard_size=2, engine=EngineSpec("process", workers=2))
    assert summary.failed == {} and folder_bytes(out) == folder_bytes(reference)


# -- kill -9 and --resume -----------------------------------------------------------------------
@pytest.mark.slow
def test_kill_9_then_resume_gives_the_uninterrupted_output(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text(SAMPLE.read_text(encoding="utf-8") * 10, encoding="utf-8")  # 200 rows, 20 shards of 10
    reference = tmp_path / "uninterrupted"
    run_foils(str(src), reference, validate=False, shard_size=10)
    out = tmp_path / "killed"
    flags = ["foils", "--input", str(src), "--out", f"{out}/", "--no-validate", "--shard-size", "10"]
    cmd = [sys.executable, "-c", "import sys; from smithtui.cli import main; sys.exit(main())", *flags]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            shards = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["shards"]
        except (OSError, json.JSONDecodeError):  # not written yet (never half-written: it is atomic)
            shards = {}
        if len(shards) >= 3:
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.005)
    assert proc.wait(timeout=60) == -signal.SIGKILL, "the run ended before it could be killed"
    done_at_kill = {int(k) for k in json.loads((out / MANIFEST).read_text(encoding="utf-8"))["shards"]}
    assert 3 <= len(done_at_kill) < 20
    before = {p.name: p.stat().st_mtime_ns for p in out.glob("part-*")}
    assert main([*flags, "--resume"]) == 0
    assert folder_bytes(out) == folder_bytes(reference)
    listed = {f"part-{i:05d}.jsonl" for i in done_at_kill}
    assert all((out / n).stat().st_mtime_ns == before[n] for n in listed)  # finished shards were not redone
    assert len(set(before) - listed) <= 1  # at most the one shard in flight (one worker) was written, unlisted
    assert not list(out.glob(".part-*.tmp"))  # no temporary file left behind
    assert len((out / "runs.jsonl").read_text(encoding="utf-8").splitlines()) == 2


def test_cancel_stops_between_shards(tmp_path):
    from core.errors import CancelledError

    cancel = threading.Event()
    cancel.set()
    with pytest.raises(CancelledError):
        run_foils(str(SAMPLE), tmp_path / "c", validate=False, shard_size=2, cancel=cancel)


# -- eval: models spread over workers ------------------------------------------------------------
def _scores(result) -> list[dict]:
    """What must not depend on the engine: every model's metrics (timings and cache use left out)."""
    keep = ("name", "ok", "error", "n", "tacc", "auc", "hm", "ties", "tacc_ci", "auc_ci", "hm_ci", "per_rule")
    return [{k: m[k] for k in keep} for m in result.to_dict(scores=True)["models"]]


@pytest.mark.slow
def test_eval_spreads_models_over_dask_workers_with_the_same_scores(reference, tmp_path):
    from core.embed.cache import EmbeddingCache
    from core.evaluate.evaluation import evaluate_triples
    from core.evaluate.spread import evaluate_spread
    from core.evaluate.triples import triples_from_records

    records = [r for r in read_parts(reference) if r.get("foil") and not r.get("error")]
    ts = triples_from_records([{**r, "paraphrase": r["source"].replace(".", " indeed.")} for r in records])
    names = ["bow", "tfidf", "static-64", "bogus"]
    local = evaluate_triples(ts, names, EmbeddingCache(tmp_path / "local-cache"), 13, n_boot=50)
    spread = evaluate_spread(ts, names, EngineSpec("dask", workers=2), cache_dir=str(tmp_path / "worker-cache"),
                             seed=13, n_boot=50)  # fmt: skip
    assert [m.name for m in spread.models] == names and spread.models[2].ok and not spread.models[3].ok
    assert _scores(spread) == _scores(local)
    assert spread.dataset == local.dataset and spread.provenance["engine"]["name"] == "dask"
    assert list((tmp_path / "worker-cache").iterdir())  # the worker filled its own cache on disk


@pytest.mark.slow
def test_hardness_on_a_process_pool_gives_the_local_report(tmp_path):
    from core.evaluate.hardness import hardness_report

    pairs = ROOT / "sample_data" / "pairs.csv"
    local_records: list[dict] = []
    pool_records: list[dict] = []
    local = hardness_report(pairs, models=("tfidf",), n_boot=0, records_out=local_records)
    pool = hardness_report(pairs, models=("tfidf",), n_boot=0, records_out=pool_records,
                           engine=EngineSpec("process", workers=2))  # fmt: skip
    assert pool_records == local_records and local_records
    for label, block in local["sets"].items():
        assert {k: v for k, v in pool["sets"][label].items() if k != "models"} == {
            k: v for k, v in block.items() if k != "models"
        }
        for model, scores in block.get("models", {}).items():
            assert pool["sets"][label]["models"][model] == scores


def test_workers_with_other_versions_are_refused():
    from core.batch import check_versions

    check_versions({"spacy": "3.8.18"}, {"tcp://w1": {"versions": {"spacy": "3.8.18", "extra": "1"}}})
    with pytest.raises(ConfigError, match=r"tcp://w2 runs other package versions: spacy 3.8.18 here, 3.7.0 there"):
        check_versions({"spacy": "3.8.18"}, {"tcp://w2": {"versions": {"spacy": "3.7.0"}}})


def test_parquet_parts_hold_the_same_records(reference, tmp_path):
    import pyarrow.parquet as pq

    out = tmp_path / "pq"
    run_foils(str(SAMPLE), out, validate=False, shard_size=10, part_format="parquet")
    table = pq.read_table(out / "part-00000.parquet").to_pylist()
    jsonl = [r for r in read_parts(reference)][: len(table)]
    assert [(r["id"], r["foil"]) for r in table] == [(r["id"], r["foil"]) for r in jsonl]


def test_eval_reads_a_sharded_folder_like_the_single_file(tmp_path, capsys):
    from core.evaluate.triples import read_triples

    pairs = ROOT / "sample_data" / "pairs.csv"
    folder, single = tmp_path / "sharded", tmp_path / "single.jsonl"
    run_foils(str(pairs), folder, validate=False, shard_size=3)
    assert main(["foils", "--input", str(pairs), "--out", str(single), "--no-validate"]) == 0
    sharded, whole = read_triples(folder), read_triples(single)
    key = [(t.source, t.paraphrase, t.foil, t.rule, t.id) for t in whole.triples]
    assert key and [(t.source, t.paraphrase, t.foil, t.rule, t.id) for t in sharded.triples] == key
    assert sharded.layout == "foil-engine" and sharded.sha256
    assert main(["eval", "--triples", str(folder), "--models", "bow", "--n-boot", "0", "--no-cache", "-q"]) == 0
    assert "bow" in capsys.readouterr().out
