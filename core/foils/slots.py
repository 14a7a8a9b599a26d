"""The slots of a batch: each sampled edit's foil, replaced by the rule's next edit (its seeded reserve) when the
realizer refuses it (up to :data:`REPLACEMENT_TRIES` times) or the keep policies drop it (up to
:data:`FILTER_RETRIES` times), so that a sentence gets ``per_rule`` kept foils of a rule when it has them.
Used by :meth:`core.foils.pipeline.FoilPipeline.run`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from core.inputs import InputRow
from core.types import Edit, FoilCandidate, Realization, Verdict

if TYPE_CHECKING:
    from core.foils.pipeline import FoilPipeline

Known = dict[int, tuple[Realization, dict[str, Any]]]
"""id(edit) -> (its realization, its fluency): the AR/HS foils ranking has realized and scored already."""
REPLACEMENT_TRIES = 32
"""How many replacement edits a sampled slot tries when the realizer refuses its edit."""
FILTER_RETRIES = 3
"""How many replacement edits a sampled slot tries when the filter policies drop its foil (each is validated)."""


def replace_unrealizable(
    pipe: FoilPipeline,
    jobs: list[tuple[InputRow, Edit]],
    candidates: list[FoilCandidate],
    slots: Iterable[int],
    reserve: Callable[[int], list[Edit]],
    known: Known,
) -> None:
    """Give each slot (of ``slots``) whose edit the realizer refused the rule's next reserve edit, up to
    :data:`REPLACEMENT_TRIES` times; ``jobs`` and ``candidates`` change in place."""
    failing = [i for i in slots if candidates[i].realization.error is not None]
    for _ in range(REPLACEMENT_TRIES):
        retry = [(i, rest.pop(0)) for i, rest in ((i, reserve(i)) for i in failing) if rest]
        if not retry:
            break
        for (i, edit), cand in zip(retry, pipe.realize([e for _, e in retry], known), strict=True):
            jobs[i] = (jobs[i][0], edit)
            candidates[i] = cand
        failing = [i for i, _ in retry if candidates[i].realization.error is not None]


def verdicts_for(pipe: FoilPipeline, candidates: Sequence[FoilCandidate], validate: bool) -> list[list[Verdict]]:
    """Each realized candidate's verdicts ([] for a refused one, and for all without ``validate``)."""
    verdicts: list[list[Verdict]] = [[] for _ in candidates]
    ok = [i for i, c in enumerate(candidates) if c.realization.error is None]
    if validate and ok:
        for i, v in zip(ok, pipe.validate([candidates[i] for i in ok]), strict=True):
            verdicts[i] = v
    return verdicts


def refill(
    pipe: FoilPipeline,
    jobs: list[tuple[InputRow, Edit]],
    candidates: list[FoilCandidate],
    fluency: list[dict[str, Any] | None],
    verdicts: list[list[Verdict]],
    reserve: Callable[[int], list[Edit]],
    known: Known,
) -> dict[int, list[tuple[FoilCandidate, list[Verdict], dict[str, Any] | None]]]:
    """Replace a slot's foil that the filter policies drop with the rule's next reserve edit, up to
    :data:`FILTER_RETRIES` times, so that a sentence gets ``per_rule`` kept foils of a rule when it has them.
    ``jobs``, ``candidates``, ``fluency`` and ``verdicts`` change in place; returns, per slot, the dropped
    (candidate, verdicts, fluency) in the order they were tried (their records say why they were dropped)."""
    dropped: dict[int, list[tuple[FoilCandidate, list[Verdict], dict[str, Any] | None]]] = {}

    def filtered(i: int) -> bool:
        if candidates[i].realization.error is not None:
            return False  # refused by the realizer: its reserves were tried already
        return not pipe.decide(verdicts[i], fluency[i], jobs[i][1].rule)[0]

    slots = [i for i in range(len(jobs)) if filtered(i)]
    for _ in range(FILTER_RETRIES):
        retry = []
        for i in slots:  # two slots of one rule share its reserve: each takes the next edit in turn
            rest = reserve(i)
            if rest:
                dropped.setdefault(i, []).append((candidates[i], verdicts[i], fluency[i]))
                jobs[i] = (jobs[i][0], rest.pop(0))
                retry.append(i)
        if not retry:
            break
        for i, cand in zip(retry, pipe.realize([jobs[i][1] for i in retry], known), strict=True):
            candidates[i] = cand
        replace_unrealizable(pipe, jobs, candidates, retry, reserve, known)
        fresh = [candidates[i] for i in retry]
        for i, fl, vs in zip(retry, pipe.fluency(fresh, known), verdicts_for(pipe, fresh, True), strict=True):
            fluency[i], verdicts[i] = fl, vs
        slots = [i for i in retry if filtered(i)]
    return dropped
