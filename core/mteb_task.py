"""A foil set as an MTEB task. Copied verbatim into every ``smithtui export-task`` folder.

This module is standalone (numpy, scikit-learn, ``datasets`` and ``mteb`` only, imported on use) so
the exported folder runs wherever ``mteb`` does::

    import importlib.util, mteb
    spec = importlib.util.spec_from_file_location("smith_foil_task", "FOLDER/smith_foil_task.py")
    module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)
    task = module.load_task()
    result = mteb.evaluate(model, task, cache=None)

Scores, per split ``test`` and subset ``default``: ``tacc`` (main: the share of triples with
cos(sentence, paraphrase) > cos(sentence, foil), ties fail), ``auc`` (ROC AUC of paraphrase vs foil
similarities), ``hm`` (their harmonic mean), and ``<RULE>_tacc/_auc/_hm`` per edit rule. Every text
is embedded alike (no query/document prompt), as ``smithtui eval`` does, so the numbers match it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
COLUMNS = ("anchor", "positive", "negative")


def triplet_scores(sim_pos: Any, sim_neg: Any) -> dict[str, float]:
    """TACC (strict ties), ROC AUC and their harmonic mean.

    >>> triplet_scores([0.9, 0.4], [0.1, 0.6])
    {'tacc': 0.5, 'auc': 0.75, 'hm': 0.6}
    """
    import numpy as np
    from sklearn.metrics import roc_auc_score

    p, n = np.asarray(sim_pos, dtype=np.float64), np.asarray(sim_neg, dtype=np.float64)
    tacc = float((p > n).mean())
    auc = float(roc_auc_score(np.r_[np.ones(p.size), np.zeros(n.size)], np.r_[p, n]))
    return {"tacc": tacc, "auc": auc, "hm": 0.0 if tacc + auc <= 0 else 2.0 * tacc * auc / (tacc + auc)}


def cosines(a: Any, b: Any) -> Any:
    """Row-wise cosine in float64; a zero row gives 0."""
    import numpy as np

    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    denom = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    dots = np.einsum("ij,ij->i", a, b)
    return np.clip(np.divide(dots, denom, out=np.zeros_like(dots), where=denom > 0), -1.0, 1.0)


def load_task(folder: str | Path | None = None) -> Any:
    """The MTEB task of an exported folder (default: the folder holding this file)."""
    from datasets import load_dataset
    from mteb._create_dataloaders import create_dataloader
    from mteb.abstasks.abstask import AbsTask
    from mteb.abstasks.task_metadata import TaskMetadata

    root = Path(folder) if folder else HERE
    meta = json.loads((root / "task.json").read_text(encoding="utf-8"))

    class SmithFoilTask(AbsTask):
        metadata = TaskMetadata(
            name=meta["name"],
            description=meta["description"],
            dataset={"path": str(root), "revision": meta["revision"]},
            type="PairClassification",
            category="t2t",
            modalities=["text"],
            eval_splits=["test"],
            eval_langs=["eng-Latn"],
            main_score="tacc",
            license=meta.get("license", "not specified"),
            sample_creation="created",
            annotations_creators="derived",
            reference=None,
            bibtex_citation="",
        )

        def load_data(self, num_proc: int | None = None, **kwargs: Any) -> None:
            if self.data_loaded:
                return
            self.dataset = load_dataset("parquet", data_files={"test": str(root / meta["data_file"])})
            self.data_loaded = True

        def _encode(self, model: Any, data: Any, column: str, encode_kwargs: Any, **where: Any) -> Any:
            texts = data.select_columns([column]).rename_columns({column: "text"})
            loader = create_dataloader(texts, task_metadata=self.metadata, **encode_kwargs)
            return model.encode(loader, task_metadata=self.metadata, prompt_type=None, **where, **encode_kwargs)

        def _evaluate_subset(self, model: Any, data_split: Any, *, encode_kwargs: Any, hf_split: str,
                             hf_subset: str, **kwargs: Any) -> dict[str, float]:  # fmt: skip
            import numpy as np

            where = {"hf_split": hf_split, "hf_subset": hf_subset}
            a, p, n = (self._encode(model, data_split, c, encode_kwargs, **where) for c in COLUMNS)
            sim_pos, sim_neg = cosines(a, p), cosines(a, n)
            scores = triplet_scores(sim_pos, sim_neg)
            rules = np.asarray(data_split["rule"], dtype=object)
            for rule in meta["rules"]:
                mask = rules == rule
                if mask.any():
                    scores |= {f"{rule}_{k}": v for k, v in triplet_scores(sim_pos[mask], sim_neg[mask]).items()}
            return scores

        def _calculate_descriptive_statistics_from_split(self, split: str, **kwargs: Any) -> dict[str, Any]:
            return {"num_samples": meta["n"], "rules": meta["counts_per_rule"]}

    return SmithFoilTask()
