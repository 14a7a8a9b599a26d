"""Rebalance a triple set so that a blind fluency scorer cannot solve it.

A blind scorer (``blind:trigram``, :mod:`core.foils.fluency`) never reads the source: it prefers
whichever of paraphrase and foil reads more fluently. Where it picks the paraphrase far more often
than chance, the triples test fluency, not meaning; SugarCrepe (Hsieh et al., 2023) removed such
artifacts from its hard negatives by keeping only a subset on which text-only models are near chance.

Here, rule by rule, the triples the blind scorer solves by the widest margin (the foil reads much
worse than the paraphrase) are dropped, one at a time, until its TACC (strict ties, as everywhere
in this project) is at most ``max_tacc``; with ``min_tacc``, the triples it fails by the widest margin
are dropped until its TACC is at least that. No rule is touched that is already inside the bounds, and
as each rule ends inside them, so does the whole set. A triple whose margin is not finite is kept and
counted as unscored.

>>> plan = plan_rebalance([2.0, 1.0, 0.5, -1.0], ["RS"] * 4, max_tacc=0.5)
>>> plan.dropped, plan.rules["RS"].tacc_before, plan.rules["RS"].tacc_after
((0, 1), 0.75, 0.5)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from core.errors import InputError
from core.evaluate.triples import Triple, TripleSet
from core.types import RULES


@dataclass(frozen=True)
class RuleBalance:
    """One rule's triples before and after: how many, the blind TACC, and which were dropped (input indices)."""

    rule: str
    n_before: int
    n_after: int
    tacc_before: float | None
    tacc_after: float | None
    dropped: tuple[int, ...]
    unscored: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_before": self.n_before, "n_after": self.n_after, "tacc_before": self.tacc_before,
            "tacc_after": self.tacc_after, "dropped": len(self.dropped), "unscored": self.unscored,
        }  # fmt: skip


@dataclass(frozen=True)
class Rebalance:
    """Which triples to keep (input indices, in input order), per rule what changed, and the bounds used."""

    kept: tuple[int, ...]
    dropped: tuple[int, ...]
    rules: dict[str, RuleBalance]
    max_tacc: float
    min_tacc: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_tacc": self.max_tacc,
            "min_tacc": self.min_tacc,
            "kept": len(self.kept),
            "dropped": len(self.dropped),
            "rules": {rule: rb.to_dict() for rule, rb in self.rules.items()},
        }


def check_bounds(max_tacc: float, min_tacc: float = 0.0) -> None:
    """Refuse blind TACC bounds that leave out chance (0.5), which no rebalance could reach for every set.

    >>> check_bounds(0.4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    core.errors.InputError: blind TACC bounds [0.0, 0.4] do not contain chance (0.5) (hint: ...)
    """
    if not 0.0 <= min_tacc <= 0.5 <= max_tacc <= 1.0:
        raise InputError(
            f"blind TACC bounds [{min_tacc}, {max_tacc}] do not contain chance (0.5)",
            hint="a ceiling from 0.5 to 1 (e.g. --rebalance 0.6), a floor from 0 to 0.5",
        )


def rebalance_scorer(blind: Sequence[str], ceiling: float) -> str:
    """The blind scorer a rebalance to ``ceiling`` uses: the first of ``blind`` that is not "none", once the ceiling
    is known to be sound (:func:`check_bounds`)."""
    check_bounds(ceiling)
    scorers = [b for b in blind if b != "none"]
    if not scorers:
        raise InputError("--rebalance needs a blind scorer", hint="drop --blind none, or pass --blind trigram")
    return scorers[0]


def _tacc(solved: int, n: int) -> float | None:
    return round(solved / n, 6) if n else None


def _balance_rule(rule: str, indices: list[int], margins: Sequence[float], lo: float, hi: float) -> RuleBalance:
    """Drop the widest-margin solved triples while TACC > ``hi``, the widest-margin failed ones while TACC < ``lo``."""
    scored = [i for i in indices if math.isfinite(margins[i])]
    solved = [i for i in scored if margins[i] > 0]
    failed = [i for i in scored if margins[i] <= 0]
    n, s = len(scored), len(solved)
    before = _tacc(s, n)
    dropped: list[int] = []
    solved.sort(key=lambda i: (-margins[i], i))  # the foil that reads worst beside its paraphrase first
    failed.sort(key=lambda i: (margins[i], i))  # the foil that reads best beside its paraphrase first
    while n and s / n > hi:
        dropped.append(solved.pop(0))
        n, s = n - 1, s - 1
    while n and s / n < lo:
        dropped.append(failed.pop(0))
        n -= 1
    unscored = len(indices) - len(scored)
    return RuleBalance(rule, len(indices), len(indices) - len(dropped), before, _tacc(s, n), tuple(dropped), unscored)


def plan_rebalance(
    margins: Sequence[float], rules: Sequence[str], *, max_tacc: float = 0.6, min_tacc: float = 0.0
) -> Rebalance:
    """Which triples to keep so that, rule by rule, the blind TACC lies in ``[min_tacc, max_tacc]``.

    ``margins[i]`` is the blind scorer's fluency of triple i's paraphrase minus that of its foil
    (positive: it solves the triple); ``rules[i]`` is the triple's rule ("" when unlabelled).
    """
    if len(margins) != len(rules):
        raise InputError(f"{len(margins)} margins for {len(rules)} triples", hint="one margin and one rule per triple")
    check_bounds(max_tacc, min_tacc)
    groups: dict[str, list[int]] = {}
    for i, rule in enumerate(rules):
        groups.setdefault(rule, []).append(i)
    order = [r for r in RULES if r in groups] + sorted(r for r in groups if r not in RULES)
    per_rule = {rule: _balance_rule(rule, groups[rule], margins, min_tacc, max_tacc) for rule in order}
    dropped = {i for rb in per_rule.values() for i in rb.dropped}
    kept = tuple(i for i in range(len(margins)) if i not in dropped)
    return Rebalance(kept, tuple(sorted(dropped)), per_rule, max_tacc, min_tacc)


def blind_margins(triples: Sequence[Triple], scorer: str = "trigram") -> tuple[list[float], dict[str, Any]]:
    """Per triple, the fluency of its paraphrase minus that of its foil under ``scorer``, and the scorer's info.

    The source is never read. Each distinct text is scored once.
    """
    from core.foils.fluency import get_scorer

    fluency = get_scorer(scorer)
    if fluency.name == "none":
        raise InputError("the 'none' fluency scorer cannot rebalance a set", hint="use trigram or smollm2")
    texts = list(dict.fromkeys(x for t in triples for x in (t.paraphrase, t.foil)))
    score = dict(zip(texts, fluency.logprob(texts), strict=True))
    return [score[t.paraphrase] - score[t.foil] for t in triples], fluency.info()


def rebalance_triples(
    triples: Sequence[Triple], scorer: str = "trigram", *, max_tacc: float = 0.6, min_tacc: float = 0.0
) -> tuple[list[Triple], dict[str, Any]]:
    """The triples a blind ``scorer`` cannot solve beyond the bounds (see the module doc), and what was done.

    The summary holds the bounds, per rule the counts and blind TACC before and after, the scorer's
    info, and every dropped triple with its margin (paraphrase minus foil fluency).
    """
    margins, info = blind_margins(triples, scorer)
    plan = plan_rebalance(margins, [t.rule for t in triples], max_tacc=max_tacc, min_tacc=min_tacc)
    summary = {
        **plan.to_dict(),
        "scorer": info,
        "dropped_triples": [
            {"id": triples[i].id, "row": triples[i].row, "rule": triples[i].rule, "paraphrase": triples[i].paraphrase,
             "foil": triples[i].foil, "margin": round(margins[i], 6)}
            for i in plan.dropped
        ],
    }  # fmt: skip
    return [triples[i] for i in plan.kept], summary


def rebalance_set(
    ts: TripleSet, scorer: str = "trigram", *, max_tacc: float = 0.6, min_tacc: float = 0.0
) -> tuple[TripleSet, dict[str, Any]]:
    """A read triple set less what :func:`rebalance_triples` drops (rows, path and skipped rows kept), and
    the summary."""
    kept, summary = rebalance_triples(ts.triples, scorer, max_tacc=max_tacc, min_tacc=min_tacc)
    if ts.triples and not kept:
        raise InputError(
            f"rebalancing {ts.path or 'the triples'} against blind:{scorer} dropped every triple",
            hint="the blind scorer solves every rule's triples; raise the ceiling, or evaluate without --rebalance",
        )
    return replace(ts, triples=tuple(kept)), summary
