"""What a CLSD run returns: per row (:class:`RowResult`), per model, direction and condition
(:class:`TaskResult`), the rows a model got wrong (:class:`WrongRow`) and the whole run (:class:`CLSDReport`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.clsd.metrics import SwapScore
from core.clsd.tasks import DIRECT, PIVOT, CLSDDataset, CLSDItem, CLSDTask


@dataclass(frozen=True)
class RowResult:
    """One row as a model saw it: cosines (target first), correct, the winning distractor (-1: none)."""

    id: str
    cosines: tuple[float, ...]
    correct: bool
    winner: int
    margin: float


@dataclass(frozen=True)
class TaskResult:
    """One model on one direction under one condition."""

    model: str
    direction: str
    condition: str
    n_rows: int
    n_scored: int
    excluded: Mapping[str, int]
    p_at_1: float
    pooled_recall_at_1: float
    pool_size: int
    rows: tuple[RowResult, ...]
    lev_bins: tuple[Mapping[str, Any], ...] = ()
    pos: tuple[Mapping[str, Any], ...] = ()
    swaps: tuple[SwapScore, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.model, self.direction, self.condition)

    def correct_by_id(self) -> dict[str, bool]:
        return {r.id: r.correct for r in self.rows}

    def summary(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "direction": self.direction,
            "condition": self.condition,
            "p_at_1": self.p_at_1,
            "pooled_recall_at_1": self.pooled_recall_at_1,
            "n_scored": self.n_scored,
            "n_rows": self.n_rows,
            "excluded": dict(self.excluded),
            "pool_size": self.pool_size,
        }


@dataclass(frozen=True)
class WrongRow:
    """A row a model got wrong, with the texts: what the screen and exports show."""

    item: CLSDItem
    result: RowResult

    @property
    def winning_distractor(self) -> str:
        return self.item.distractors[self.result.winner] if self.result.winner >= 0 else ""


@dataclass
class CLSDReport:
    """Everything one evaluation produced, with provenance."""

    dataset: CLSDDataset
    pivot: CLSDDataset | None
    results: list[TaskResult]
    overlaps: list[dict[str, Any]]
    model_errors: dict[str, str]
    provenance: dict[str, Any]
    notes: list[str] = field(default_factory=list)

    def result(self, model: str, direction: str, condition: str = DIRECT) -> TaskResult | None:
        return next((r for r in self.results if r.key == (model, direction, condition)), None)

    def summary(self) -> list[dict[str, Any]]:
        """One line per (model, direction, condition)."""
        return [r.summary() for r in self.results]

    def task(self, direction: str, condition: str = DIRECT) -> CLSDTask | None:
        data = self.pivot if condition == PIVOT else self.dataset
        return data.tasks.get(direction) if data is not None else None

    def wrong_rows(self, model: str, direction: str, condition: str = DIRECT) -> list[WrongRow]:
        """The rows ``model`` got wrong, in set order, with their texts."""
        res = self.result(model, direction, condition)
        task = self.task(direction, condition)
        if res is None or task is None:
            return []
        items = {i.id: i for i in task.items}
        return [WrongRow(items[r.id], r) for r in res.rows if not r.correct and r.id in items]

    def to_dict(self, *, rows: bool = True) -> dict[str, Any]:
        """A JSON-ready record (per-row cosine tables included unless ``rows=False``)."""
        out: dict[str, Any] = {
            "dataset": {"name": self.dataset.name, "path": self.dataset.path, "layout": self.dataset.layout},
            "pivot": {"path": self.pivot.path} if self.pivot is not None else None,
            "summary": self.summary(),
            "model_errors": self.model_errors,
            "overlaps": self.overlaps,
            "notes": self.notes,
            "results": [],
            "provenance": self.provenance,
        }
        for r in self.results:
            rec: dict[str, Any] = r.summary() | {
                "lev_bins": list(r.lev_bins),
                "pos": list(r.pos),
                "notes": list(r.notes),
            }
            if rows:
                rec["rows"] = [
                    {"id": x.id, "cosines": list(x.cosines), "correct": x.correct, "winner": x.winner, "margin": x.margin}
                    for x in r.rows
                ]
                rec["swaps"] = [s.__dict__ for s in r.swaps]
            out["results"].append(rec)
        return out


# ---------------------------------------------------------------------------------------------- preparation
