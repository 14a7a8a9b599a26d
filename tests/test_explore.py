"""FoilPipeline.explore: one sentence stage by stage, as typed events (what the workbench forwards)."""

from __future__ import annotations

from typing import Any

import pytest

from core.embed.registry import get_embedder
from core.errors import SmithError
from core.foils import events as ev
from core.foils.pipeline import FoilPipeline
from core.inputs import InputRow
from core.record import FoilRecord, sentence_id

SENTENCE = "The young doctor quickly treated the injured boy."
PARAPHRASE = "The injured boy was quickly treated by the young doctor."


@pytest.fixture(scope="module")
def pipe() -> FoilPipeline:
    return FoilPipeline.from_settings()


@pytest.fixture(scope="module")
def events(pipe: FoilPipeline) -> list[Any]:
    return list(pipe.explore(SENTENCE, PARAPHRASE, models=("bow",), embedder_for=get_embedder, provenance={"seed": 13}))


def test_the_events_come_in_stage_order_one_each(events: list[Any]) -> None:
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["Parsed", "EditsFound", "CandidatesRealized", "SpotChecked", "FluencyScored", "Verdicts", "Decided"]
    parsed, edits, realized, checked, fluency, verdicts, decided = events
    assert parsed.parsed.ok and parsed.note == ""
    n = sum(len(v) for v in edits.by_rule.values())
    assert n == len(realized.candidates) > 5
    ok = tuple(i for i, c in enumerate(realized.candidates) if c.realization.error is None)
    assert checked.model == "bow" and checked.indices == ok and len(checked.checks) == len(ok) and not checked.error
    assert fluency.indices == ok == verdicts.indices and all(len(v) >= 1 for v in verdicts.verdicts)
    assert len(decided.records) == len(realized.candidates)
    assert all(isinstance(r, FoilRecord) and r.row_id == sentence_id(SENTENCE) for r in decided.records)
    assert {r.kept for i, r in enumerate(decided.records) if i in ok} <= {True, False}


def test_decided_records_are_the_clis_records_for_the_same_sentence_and_seed(pipe: FoilPipeline) -> None:
    prov = pipe.provenance()
    [decided] = [e for e in pipe.explore(SENTENCE, PARAPHRASE, provenance=prov) if isinstance(e, ev.Decided)]
    by_id = {r.id: r.to_json() for r in decided.records}
    cli = list(pipe.run([InputRow(sentence_id(SENTENCE), SENTENCE, PARAPHRASE)], provenance=prov))
    assert cli
    for rec in cli:  # the CLI samples per_rule edits of the sentence; explore shows every edit
        assert by_id[rec["id"]] == rec


def test_an_unusable_sentence_ends_after_parsed_and_a_missing_model_is_an_error_event(pipe: FoilPipeline) -> None:
    [only] = list(pipe.explore("!!!"))
    assert isinstance(only, ev.Parsed) and not only.parsed.ok and only.parsed.error == "no words in the sentence"
    events = list(pipe.explore(SENTENCE, models=("no-such-model",), embedder_for=get_embedder))
    [checked] = [e for e in events if isinstance(e, ev.SpotChecked)]
    assert checked.checks == () and "no-such-model" in checked.error
    assert isinstance(events[-1], ev.Decided)  # the other stages still ran


class _BrokenValidator:
    """Fault injection: a validator whose backend fails (the stage must report it, the foils stay)."""

    name = "broken"

    def score(self, candidates: Any) -> Any:
        raise SmithError("the validator's model went away", hint="reload it")


def test_a_failing_validation_stage_is_a_stage_failed_event_and_the_foils_stay() -> None:
    pipe = FoilPipeline.from_settings()
    pipe._validators = [_BrokenValidator()]
    events = list(pipe.explore(SENTENCE))
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["Parsed", "EditsFound", "CandidatesRealized", "FluencyScored", "StageFailed", "Verdicts", "Decided"]
    failed = events[4]
    assert (failed.stage, failed.error, failed.hint) == ("validation", "the validator's model went away", "reload it")
    assert all(v == () for v in events[5].verdicts)


def test_stopping_the_pull_runs_no_further_stage() -> None:
    pipe = FoilPipeline.from_settings()
    events = pipe.explore(SENTENCE)
    assert isinstance(next(events), ev.Parsed)
    assert isinstance(next(events), ev.EditsFound)
    events.close()  # what a cancelled workbench worker does
    assert pipe._generator is None  # the realizer was never asked for
