"""What an evaluation returns: per rule (:class:`RuleResult`), per model (:class:`ModelResult`) and the
whole run (:class:`EvalResult`), each with ``to_dict`` for the results JSON (scores rounded to 6 places).

>>> RuleResult("PN", 2, 0.5, 0.75, 0.6, 0).to_dict()["tacc_ci"] is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core.evaluate.table import table_rows

Interval = tuple[float, float]


def rounded(x: float | None, nd: int = 6) -> float | None:
    """``x`` as a float rounded to ``nd`` places (None stays None)."""
    return None if x is None else round(float(x), nd)


def rounded_ci(ci: Interval | None) -> list[float] | None:
    """An interval as ``[low, high]`` rounded to 6 places (None stays None)."""
    return None if ci is None else [round(float(ci[0]), 6), round(float(ci[1]), 6)]


@dataclass
class RuleResult:
    """Scores of one model on the triples of one rule."""

    rule: str
    n: int
    tacc: float
    auc: float
    hm: float
    ties: int
    tacc_ci: Interval | None = None
    auc_ci: Interval | None = None
    hm_ci: Interval | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n, "tacc": rounded(self.tacc), "auc": rounded(self.auc), "hm": rounded(self.hm), "ties": self.ties,
            "tacc_ci": rounded_ci(self.tacc_ci), "auc_ci": rounded_ci(self.auc_ci), "hm_ci": rounded_ci(self.hm_ci),
        }  # fmt: skip


@dataclass
class ModelResult:
    """One model's scores (or why it has none), its provenance, timings and cache use."""

    name: str
    ok: bool
    error: str = ""
    hint: str = ""
    info: dict[str, Any] = field(default_factory=dict)
    n: int = 0
    tacc: float | None = None
    auc: float | None = None
    hm: float | None = None
    ties: int = 0
    tacc_ci: Interval | None = None
    auc_ci: Interval | None = None
    hm_ci: Interval | None = None
    per_rule: dict[str, RuleResult] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    cache: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    bad_rows: dict[str, int] = field(default_factory=dict)
    sim_pos: np.ndarray | None = None  # per usable triple, in triple order
    sim_neg: np.ndarray | None = None
    rows: np.ndarray | None = None  # the file row of each scored triple

    def to_dict(self, scores: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name, "ok": self.ok, "error": self.error or None, "hint": self.hint or None,
            "info": self.info, "n": self.n, "tacc": rounded(self.tacc), "auc": rounded(self.auc), "hm": rounded(self.hm),
            "ties": self.ties, "tacc_ci": rounded_ci(self.tacc_ci), "auc_ci": rounded_ci(self.auc_ci), "hm_ci": rounded_ci(self.hm_ci),
            "per_rule": {r: v.to_dict() for r, v in self.per_rule.items()},
            "timings": {k: round(v, 3) for k, v in self.timings.items()},
            "cache": self.cache, "warnings": self.warnings, "bad_rows": self.bad_rows,
        }  # fmt: skip
        if scores and self.sim_pos is not None and self.sim_neg is not None and self.rows is not None:
            out["scores"] = {
                "row": self.rows.tolist(),
                "sim_pos": [round(float(x), 6) for x in self.sim_pos],
                "sim_neg": [round(float(x), 6) for x in self.sim_neg],
            }
        return out


@dataclass
class EvalResult:
    """Every model's result on one triple set, with the dataset summary and provenance."""

    models: list[ModelResult]
    dataset: dict[str, Any]
    params: dict[str, Any]
    provenance: dict[str, Any]

    def get(self, name: str) -> ModelResult:
        for m in self.models:
            if m.name == name:
                return m
        raise KeyError(name)

    @property
    def rules(self) -> list[str]:
        """The rules present, in ``RULES`` order, then others."""
        return list(self.dataset.get("rules", {}))

    def to_dict(self, scores: bool = False) -> dict[str, Any]:
        """JSON-ready: ``scores=True`` adds the per-triple similarities of every model."""
        return {
            "format": "smithtui-eval/1",
            "params": self.params,
            "dataset": self.dataset,
            "models": [m.to_dict(scores) for m in self.models],
            "provenance": self.provenance,
        }

    def table_rows(self) -> list[dict[str, Any]]:
        """One flat row per model: the columns of the terminal and CSV tables."""
        return table_rows(self.to_dict())
