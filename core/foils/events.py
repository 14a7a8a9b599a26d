"""One sentence, stage by stage: the events :meth:`core.foils.pipeline.FoilPipeline.explore` yields.

The workbench shows a sentence's foils as they are made: the parse, every applicable edit, the realized
candidates, each model's spot check, fluency, the validators' verdicts and the engine's keep/drop decision.
:func:`explore` runs those stages in that order and yields one small frozen event per stage, so a caller
only forwards them (and stops pulling to cancel: the next stage runs only when the next event is asked for).
A stage that fails yields :class:`StageFailed`; a failed validation or fluency stage leaves the foils on
show (their verdicts empty, their fluency n/a), a failed parse or realization ends the run.

>>> [cls.__name__ for cls in EVENTS]
['Parsed', 'EditsFound', 'CandidatesRealized', 'SpotChecked', 'FluencyScored', 'Verdicts', 'Decided', 'StageFailed']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.errors import SmithError
from core.types import RULES, Edit, FoilCandidate, ParsedSentence, Verdict

if TYPE_CHECKING:
    from core.foils.pipeline import FoilPipeline
    from core.record import FoilRecord

NOT_ENGLISH = "This does not look like English: the parser and the rules are English-only, expect odd foils."


@dataclass(frozen=True)
class Parsed:
    """The sentence parsed (``parsed.ok`` False: it cannot be used, ``parsed.error`` says why); ``note`` a warning."""

    parsed: ParsedSentence
    note: str = ""


@dataclass(frozen=True)
class EditsFound:
    """Every applicable edit of each rule (a rule that does not apply maps to [])."""

    by_rule: Mapping[str, list[Edit]]


@dataclass(frozen=True)
class CandidatesRealized:
    """Every edit realized, in rule order (a refused edit's realization has ``error`` set)."""

    candidates: tuple[FoilCandidate, ...]


@dataclass(frozen=True)
class SpotChecked:
    """One model's check of the foils at ``indices`` (``error``: the model could not load; ``checks`` empty)."""

    model: str
    indices: tuple[int, ...]
    checks: tuple[Any, ...]  # core.evaluate.spotcheck.ModelCheck, one per index
    error: str = ""


@dataclass(frozen=True)
class FluencyScored:
    """Each foil's ``{scorer, source, foil, delta}`` at ``indices`` (delta None: the scorer gave no score)."""

    indices: tuple[int, ...]
    fluency: tuple[dict[str, Any] | None, ...]


@dataclass(frozen=True)
class Verdicts:
    """Each validator's verdict for the foils at ``indices`` (empty lists when validation failed)."""

    indices: tuple[int, ...]
    verdicts: tuple[tuple[Verdict, ...], ...]


@dataclass(frozen=True)
class Decided:
    """The engine's record of every candidate, its keep/drop decision included: what ``smithtui foils`` writes."""

    records: tuple[FoilRecord, ...]


@dataclass(frozen=True)
class StageFailed:
    """A stage failed (``stage``: generate, validation, fluency); ``hint`` says what to do."""

    stage: str
    error: str
    hint: str = ""


Event = Parsed | EditsFound | CandidatesRealized | SpotChecked | FluencyScored | Verdicts | Decided | StageFailed
EVENTS = (Parsed, EditsFound, CandidatesRealized, SpotChecked, FluencyScored, Verdicts, Decided, StageFailed)


def failure(stage: str, exc: Exception) -> StageFailed:
    """A stage's exception as an event: a SmithError's message and hint, else the exception's type and text."""
    if isinstance(exc, SmithError):
        return StageFailed(stage, exc.message, exc.hint)
    return StageFailed(stage, f"{type(exc).__name__}: {exc}")


def explore(
    pipe: FoilPipeline,
    sentence: str,
    paraphrase: str | None = None,
    *,
    models: Sequence[str] = (),
    embedder_for: Callable[[str], Any] | None = None,
    row_id: str = "",
    provenance: Mapping[str, Any] | None = None,
) -> Iterator[Event]:
    """Parse, find every edit, realize, spot-check ``models``, score fluency, validate, decide: one event each.

    ``embedder_for(name)`` returns a loaded embedder (the caller's cache); ``row_id`` defaults to
    :func:`core.record.sentence_id` of the sentence, ``provenance`` goes into the decided records.
    """
    try:
        from core.inputs import looks_english

        parsed = pipe.parse_one(sentence)
        yield Parsed(parsed, "" if not parsed.ok or looks_english(parsed.text) else NOT_ENGLISH)
        if not parsed.ok:
            return
        by_rule = pipe.edits(parsed)
        yield EditsFound(by_rule)
        edits = [e for rule in RULES for e in by_rule.get(rule, [])]
        if not edits:
            return
        candidates = pipe.realize(edits)
        yield CandidatesRealized(tuple(candidates))
    except Exception as exc:  # a backend failure ends the run; the caller stays usable
        yield failure("generate", exc)
        return
    ok = [i for i, c in enumerate(candidates) if c.realization.error is None]
    verdicts: dict[int, tuple[Verdict, ...]] = {}
    fluency: dict[int, dict[str, Any] | None] = {}
    for event in score(pipe, [candidates[i] for i in ok], ok, paraphrase, models=models, embedder_for=embedder_for):
        if isinstance(event, Verdicts):
            verdicts.update(zip(event.indices, event.verdicts, strict=True))
        elif isinstance(event, FluencyScored):
            fluency.update(zip(event.indices, event.fluency, strict=True))
        yield event
    from core.foils.pipeline import annotate_records
    from core.inputs import InputRow
    from core.record import sentence_id

    row_id = row_id or sentence_id(parsed.text)
    keep = {"row_id": row_id, "paraphrase": paraphrase or None, "provenance": provenance}
    records = [pipe.record(c, verdicts.get(i, ()), fluency.get(i), **keep) for i, c in enumerate(candidates)]
    yield Decided(tuple(annotate_records([InputRow(row_id, sentence, paraphrase or None)], records)))


def score(
    pipe: FoilPipeline,
    candidates: Sequence[FoilCandidate],
    indices: Sequence[int],
    paraphrase: str | None = None,
    *,
    models: Sequence[str] = (),
    embedder_for: Callable[[str], Any] | None = None,
    validate: bool = True,
    fluency: bool = True,
) -> Iterator[SpotChecked | FluencyScored | Verdicts | StageFailed]:
    """The scoring stages for ``candidates`` (shown at ``indices``): each model's spot check, fluency, validation.

    Also what a hand-edited foil or a foil decided before its scores arrived needs (``validate`` / ``fluency``
    False skip a stage it has already). Nothing at all when ``indices`` is empty.
    """
    if not indices:
        return
    at, chosen = tuple(indices), list(candidates)
    for model in models:
        yield spot_check(model, chosen, at, paraphrase, embedder_for)
    if fluency:
        try:
            scores = pipe.fluency(chosen)
        except SmithError as exc:
            yield failure("fluency", exc)
            scores = [{"scorer": pipe.settings.fluency, "source": None, "foil": None, "delta": None} for _ in chosen]
        yield FluencyScored(at, tuple(scores))
    if validate:
        try:
            found = [tuple(v) for v in pipe.validate(chosen)]
        except Exception as exc:  # foils stay on show without verdicts
            yield failure("validation", exc)
            found = [() for _ in chosen]
        yield Verdicts(at, tuple(found))


def spot_check(
    model: str,
    candidates: Sequence[FoilCandidate],
    indices: tuple[int, ...],
    paraphrase: str | None,
    embedder_for: Callable[[str], Any] | None,
) -> SpotChecked:
    """One model's sim(source, foil) against sim(source, paraphrase) for each candidate (all of one source)."""
    from core.evaluate.spotcheck import check_model

    if embedder_for is None:
        return SpotChecked(model, indices, (), "no embedders given")
    try:
        embedder = embedder_for(model)
    except Exception as exc:
        return SpotChecked(model, indices, (), str(exc) if isinstance(exc, SmithError) else f"{type(exc).__name__}: {exc}")
    source = candidates[0].source_text
    checks = check_model(embedder, source, [c.text for c in candidates], paraphrase or None, name=model)
    return SpotChecked(model, indices, tuple(checks))
