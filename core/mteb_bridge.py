"""MTEB bridge: ``smithtui eval`` results as MTEB ``TaskResult`` JSON, and foil sets as MTEB tasks.

Results follow MTEB's layout ``DIR/<model>/<revision>/<task>.json``; each file loads with
``mteb.TaskResult.from_disk``. Scores are per split (``test``) and subset (``default``) with
``main_score`` = TACC and AUC, HM and per-rule scores as extra keys. The dataset revision is a
content hash of the triples, so a result and an exported task of the same set share it.

>>> from core.evaluate.triples import triples_from_records
>>> ts = triples_from_records([{"source": "a", "paraphrase": "b", "foil": "c", "rule": "PN"}])
>>> len(content_hash(ts)), task_name_for("my foils.jsonl")
(40, 'SmithFoils_my_foils')
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

from core.textio import atomic_writer, to_json

SPLIT = "test"
SUBSET = "default"
LANGUAGES = ["eng-Latn"]
TASK_MODULE = "smith_foil_task.py"


def content_hash(ts: Any) -> str:
    """40 hex digits of SHA-256 over the triples (sentence, paraphrase, foil, rule), in order."""
    digest = hashlib.sha256()
    for t in ts.triples:
        digest.update(json.dumps([t.source, t.paraphrase, t.foil, t.rule], ensure_ascii=False).encode() + b"\n")
    return digest.hexdigest()[:40]


def task_name_for(path: str | os.PathLike[str] | None) -> str:
    """``SmithFoils_<file stem>`` with only letters, digits and underscores."""
    stem = Path(path).stem if path else "set"
    return "SmithFoils_" + (re.sub(r"\W+", "_", stem).strip("_") or "set")


def _mteb_version() -> str | None:
    from core.provenance import package_version

    return package_version("mteb")


def subset_scores(model: Any) -> dict[str, Any]:
    """MTEB scores of one :class:`~core.evaluate.results.ModelResult` for split ``test``, subset ``default``."""
    from core.st_bridge import metrics_of

    scores: dict[str, Any] = metrics_of(model)
    if model.tacc_ci is not None:
        scores |= {"tacc_ci_low": float(model.tacc_ci[0]), "tacc_ci_high": float(model.tacc_ci[1])}
    return {**scores, "main_score": float(model.tacc), "hf_subset": SUBSET, "languages": LANGUAGES}


def task_result(result: Any, model: Any, task_name: str, revision: str) -> dict[str, Any]:
    """The MTEB ``TaskResult`` JSON of one model on one triple set."""
    import time

    return {
        "dataset_revision": revision,
        "task_name": task_name,
        "mteb_version": _mteb_version(),
        "scores": {SPLIT: [subset_scores(model)]},
        "evaluation_time": round(float(model.timings.get("total_s", 0.0)), 3),
        "kg_co2_emissions": None,
        "date": time.time(),
    }


def _safe(name: str) -> str:
    return re.sub(r"[^\w.\-]+", "_", name.replace("/", "__")) or "model"


def write_mteb_results(result: Any, ts: Any, out_dir: str | os.PathLike[str], task_name: str | None = None) -> list[Path]:
    """Write one TaskResult file per scored model under ``out_dir``; models that failed are skipped, and so
    are blind fluency baselines (``blind:trigram``), which are no embedding model a leaderboard could list."""
    from core.evaluate.evaluation import is_blind

    name = task_name or task_name_for(ts.path)
    revision = content_hash(ts)
    written = []
    for model in result.models:
        if not model.ok or is_blind(model.name):
            continue
        model_rev = str(model.info.get("version") or model.info.get("model_id") or "no_revision_available")
        target = Path(out_dir) / _safe(model.name) / _safe(model_rev) / f"{name}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        with atomic_writer(target) as fh:
            fh.write(to_json(task_result(result, model, name, revision), indent=2))
        written.append(target)
    return written


def export_mteb_task(
    ts: Any, folder: str | os.PathLike[str], *, name: str | None = None, license: str = "not specified"
) -> Path:
    """Write ``folder`` as an MTEB-runnable task: ``data/test.parquet``, ``task.json``, the task module, README.

    Returns the folder. Load it with ``smith_foil_task.load_task()`` (see :mod:`core.mteb_task`).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    from core.errors import InputError

    if not ts.triples:
        raise InputError(f"no usable triples in {ts.path or 'the input'}", hint="check the columns and the layout")
    root = Path(folder)
    (root / "data").mkdir(parents=True, exist_ok=True)
    columns = {
        "anchor": [t.source for t in ts.triples],
        "positive": [t.paraphrase for t in ts.triples],
        "negative": [t.foil for t in ts.triples],
        "rule": [t.rule for t in ts.triples],
        "id": [t.id for t in ts.triples],
    }
    with atomic_writer(root / "data" / "test.parquet", mode="wb") as fh:
        pq.write_table(pa.table({k: pa.array(v, type=pa.string()) for k, v in columns.items()}), fh)
    counts = dict(Counter(t.rule for t in ts.triples if t.rule))
    task = name or task_name_for(ts.path)
    meta = {
        "name": task,
        "description": f"SentenceSmith foils from {Path(ts.path).name if ts.path else 'memory'}: does the model rank "
        "the paraphrase above the meaning-changed foil? (smithtui export-task)",
        "revision": content_hash(ts),
        "data_file": "data/test.parquet",
        "n": len(ts.triples),
        "rules": sorted(counts),
        "counts_per_rule": counts,
        "license": license,
        "source": {"path": ts.path, "sha256": ts.sha256},
    }
    with atomic_writer(root / "task.json") as fh:
        fh.write(to_json(meta, indent=2))
    shutil.copyfile(Path(__file__).with_name("mteb_task.py"), root / TASK_MODULE)
    with atomic_writer(root / "README.md") as fh:
        fh.write(
            f"# {task}\n\n{meta['description']}\n\n{meta['n']} triples; revision `{meta['revision']}`.\n\n"
            "```python\nimport importlib.util, mteb\n"
            f'spec = importlib.util.spec_from_file_location("smith_foil_task", "{TASK_MODULE}")\n'
            "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
            "result = mteb.evaluate(mteb.get_model(\"sentence-transformers/all-MiniLM-L6-v2\"), module.load_task())\n"
            "```\n"
        )
    return root
