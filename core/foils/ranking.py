"""Rank replacements in context: of the AR/HS candidates for one node, keep the most fluent foil.

AR and HS often offer several lemmas for one node (one :class:`~core.types.Edit` each, the node in
``Edit.details["node"]``). Each is realized, the whole foil is scored with a fluency scorer
(:mod:`core.foils.fluency`) relative to its source, and per (rule, node) only the best candidate is kept,
and only when its fluency delta is at least ``threshold``. Ties keep the rule's own order (the
first candidate), so the result is deterministic. Candidates the realizer refuses are dropped
here, so sampling never picks them. Other rules pass through unchanged.

>>> rank_replacements({"PN": []}, generator=None, scorer=None, threshold=-1.0).by_rule
{'PN': []}
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.foils.fluency import FluencyScorer, relative_fluency
from core.protocols import Generator
from core.types import Edit, Realization

RANKED_RULES: tuple[str, ...] = ("AR", "HS")


@dataclass(frozen=True)
class Ranked:
    """The edits by rule after ranking, and per ranked rule how many candidates went in and came out."""

    by_rule: dict[str, list[Edit]]
    considered: dict[str, int] = field(default_factory=dict)
    kept: dict[str, int] = field(default_factory=dict)
    below_threshold: dict[str, int] = field(default_factory=dict)
    realized: dict[int, tuple[Realization, dict[str, Any]]] = field(default_factory=dict)
    """id(edit) -> (its realization, its fluency) for every kept edit, so the pipeline need not realize and score
    the foils it samples from them a second time (valid while ``by_rule`` holds the edits)."""


def rank_replacements(
    by_rule: Mapping[str, Sequence[Edit]],
    generator: Generator | None,
    scorer: FluencyScorer | None,
    threshold: float | Mapping[str, float],
    rules: Sequence[str] = RANKED_RULES,
) -> Ranked:
    """Keep, per (rule, node), the candidate whose realized foil is most fluent relative to the source.

    A candidate whose delta is below ``threshold`` (one for all rules, or per rule) is dropped even when it is its
    node's only one.
    With no scorer (or the ``none`` scorer) the edits come back unchanged.
    """
    out = {rule: list(edits) for rule, edits in by_rule.items()}
    todo = [(rule, e) for rule in rules for e in out.get(rule, ())]
    if not todo or scorer is None or generator is None or scorer.name == "none":
        return Ranked(out)
    realized = generator.generate([e for _, e in todo])
    usable = [(rule, e, r.text) for (rule, e), r in zip(todo, realized, strict=True) if r.error is None]
    scores = relative_fluency(scorer, [e.source.text for _, e, _ in usable], [text for _, _, text in usable])
    best: dict[tuple[str, str], tuple[float, int]] = {}  # (rule, node) -> (delta, position in usable)
    below: dict[str, int] = {}
    limits = threshold if isinstance(threshold, Mapping) else dict.fromkeys(rules, threshold)
    for pos, ((rule, edit, _), fl) in enumerate(zip(usable, scores, strict=True)):
        delta = fl["delta"] if fl["delta"] is not None else math.inf  # unscored: cannot rank, keep
        if delta < limits.get(rule, -math.inf):
            below[rule] = below.get(rule, 0) + 1
            continue
        key = (rule, str(edit.details.get("node", ",".join(edit.nodes))))
        if key not in best or delta > best[key][0]:
            best[key] = (delta, pos)
    keep = {id(usable[pos][1]) for _, pos in best.values()}
    realization = {id(e): r for (_, e), r in zip(todo, realized, strict=True)}
    memo = {id(usable[pos][1]): (realization[id(usable[pos][1])], scores[pos]) for _, pos in best.values()}
    considered, kept = {}, {}
    for rule in rules:
        if rule in out:
            considered[rule] = len(out[rule])
            out[rule] = [e for e in out[rule] if id(e) in keep]
            kept[rule] = len(out[rule])
    return Ranked(out, considered, kept, below, memo)
