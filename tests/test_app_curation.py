"""Pilot tests of the five ways the workbench used to put wrong data into an export (issue 15, items 1-5).

Each drives the real app (spaCy parser, WordNet rules, realizer, round-trip
validator, lexical and MiniLM embedders) with key presses, and checks what lands
in the basket, the journal or the exported file.
"""

from __future__ import annotations

import csv
import json
import os
import stat
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_support import (
    MODELS,
    PARAPHRASE,
    SENTENCE,
    app_for,
    craft,
    decide,
    loaded_backends,
    notices,
    run,
    settle,
    type_text,
)

from core.curation import CurationSession, previous_session
from smithtui.widgets.dialogs import ConfirmScreen

pytestmark = pytest.mark.slow

OTHER = "The old farmer sold the brown horse."


@pytest.fixture(scope="module", autouse=True)
def backends():
    return loaded_backends()


async def type_new_sentence(app: Any, pilot: Any, sentence: str) -> None:
    """What a user does: go to the sentence box, clear it, type the next sentence and press Enter."""
    await pilot.press("i")
    await pilot.press("ctrl+u")  # delete to the start of the line
    screen = app.screen
    screen.query_one("#sentence", Input).action_end()
    await pilot.press("ctrl+u")
    await type_text(pilot, sentence)
    await pilot.press("enter")
    await settle(app, pilot)


def spot_references(screen: Any) -> set[str]:
    return {c.reference for r in screen.rows if not r.error for c in r.checks.values() if c is not None}


# -- 1. a paraphrase belongs to its sentence ------------------------------------------------------


def test_the_next_sentence_is_not_scored_against_the_previous_paraphrase(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = await craft(app, pilot, SENTENCE, PARAPHRASE)
            assert spot_references(screen) == {"paraphrase"}
            await type_new_sentence(app, pilot, OTHER)
            assert screen.query_one("#paraphrase", Input).value == ""
            assert screen.paraphrase == ""
            assert spot_references(screen) == {"original"}  # not sim(S2, P1)
            await decide(pilot, screen, "a")
            assert app.curation.basket[-1]["paraphrase"] is None
            assert any("paraphrase" in n and "previous sentence" in n for n in notices(app))

    run(scenario())


def test_after_a_restore_the_next_sentence_does_not_inherit_the_paraphrase(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    s = CurationSession.open(journal, restore=False)
    s.note_input(SENTENCE, PARAPHRASE)
    s.accept({"source": SENTENCE, "paraphrase": PARAPHRASE, "foil": "The young doctor did not treat the boy.", "rule": "PN"})
    s.journal.unlock()  # the terminal was killed

    async def scenario() -> None:
        app = app_for(tmp_path, restore="ask", journal=journal)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("y")
            await pilot.pause()
            screen = app.screen
            assert screen.query_one("#paraphrase", Input).value == PARAPHRASE
            await type_new_sentence(app, pilot, OTHER)
            assert screen.paraphrase == "" and spot_references(screen) == {"original"}

    run(scenario())


def test_a_paraphrase_sharing_few_words_with_its_sentence_is_flagged(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path, models=("bow",))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await craft(app, pilot, OTHER, "A snake hid under a rock near the river.")
            assert any("shares few words" in n for n in notices(app, "warning"))

    run(scenario())


# -- 2. a decision made before the scores arrive ----------------------------------------------------


class Gate:
    """Holds validation and one embedder until the test opens it (a slow model, made deterministic)."""

    def __init__(self) -> None:
        self.open = threading.Event()

    def wrap(self, obj: Any, method: str) -> Any:
        gate = self

        class Held:
            def __getattr__(self, name: str) -> Any:
                return getattr(obj, name)

        def held(*args: Any, **kwargs: Any) -> Any:
            assert gate.open.wait(60), "the test never opened the gate"
            return getattr(obj, method)(*args, **kwargs)

        h = Held()
        setattr(h, method, held)
        return h


def test_a_foil_accepted_before_scoring_is_completed_in_the_basket(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path)
        gate = Gate()
        app.backends._pipeline = gate.wrap(app.backends._pipeline, "validate")
        app.backends._embedders["minilm"] = gate.wrap(app.backends._embedders["minilm"], "encode")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            screen.query_one("#sentence", Input).focus()
            await type_text(pilot, SENTENCE)
            screen.query_one("#paraphrase", Input).value = PARAPHRASE
            await pilot.press("enter")
            for _ in range(200):  # the candidates are on screen; validation and minilm are still running
                await pilot.pause(0.05)
                if screen.rows:
                    break
            assert screen.rows and screen.busy
            await pilot.press("escape")
            row = next(r for r in screen.rows if not r.error)
            table = screen.query_one("#candidates", DataTable)
            table.move_cursor(row=table.get_row_index(str(row.index)))
            await pilot.press("a")
            await pilot.pause()
            early = app.curation.basket[0]
            assert early["pending"] and app.curation.pending == 1
            await pilot.press("f4")
            await pilot.pause()
            basket_table = app.screen.query_one("#basket-table", DataTable)
            assert "not scored yet" in " ".join(str(c) for c in basket_table.get_row_at(0))
            gate.open.set()
            await settle(app, pilot, rounds=8)
            done = app.curation.basket[0]
            assert not done.get("pending") and app.curation.pending == 0
            assert done["verdicts"] and done["validated"] is not None
            assert set(done["spotcheck"]) == set(MODELS)
            assert "not scored yet" not in " ".join(str(c) for c in basket_table.get_row_at(0))
            await pilot.press("ctrl+s", "ctrl+u")
            await type_text(pilot, str(tmp_path / "foils.csv"))
            await pilot.press("enter")
            await settle(app, pilot)
        with open(tmp_path / "foils.csv", newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        # the completed record is what a restart restores, too
        assert previous_session(tmp_path / "journal.jsonl").accepted == 1
        restored = CurationSession.open(tmp_path / "journal.jsonl", restore=True)
        assert restored.basket[0]["verdicts"] and not restored.basket[0].get("pending")
        validator = restored.basket[0]["verdicts"][0]["validator"]
        assert rows[0]["semantic_relationship"].startswith(f"{validator}: ")  # was empty

    run(scenario())


# -- 3. exports get the user's umask ----------------------------------------------------------------


def test_an_export_is_readable_by_colleagues(tmp_path: Path) -> None:
    """The reliability fix in core/textio.py makes this pass (the temporary file's 0600 used to survive)."""

    async def scenario() -> None:
        app = app_for(tmp_path, models=("bow",))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = await craft(app, pilot, SENTENCE)
            await decide(pilot, screen, "a")
            for name in ("foils.jsonl", "foils.csv"):
                await pilot.press("ctrl+s", "ctrl+u")
                await type_text(pilot, str(tmp_path / name))
                await pilot.press("enter")
                await settle(app, pilot)

    old = os.umask(0o022)
    try:
        run(scenario())
    finally:
        os.umask(old)
    journal_mode = stat.S_IMODE((tmp_path / "journal.jsonl").stat().st_mode)
    for name in ("foils.jsonl", "foils.csv"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o644 == journal_mode, name


# -- 4. undo says what it undid ----------------------------------------------------------------------


def test_undo_of_a_decision_on_an_earlier_sentence_asks_first_and_says_what_it_undid(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path, models=("bow",))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = await craft(app, pilot, SENTENCE)
            [accepted] = await decide(pilot, screen, "a")
            await type_new_sentence(app, pilot, OTHER)
            await pilot.press("escape")
            await pilot.press("u")
            await pilot.pause()
            assert len(app.curation.basket) == 1  # not undone silently
            assert any("earlier sentence" in n and "u again" in n for n in notices(app, "warning"))
            await pilot.press("u")
            await pilot.pause()
            assert app.curation.basket == []
            assert any(n.startswith("undid the accept of") and accepted in n for n in notices(app))
            # on the current sentence, undo acts at once, names the foil and moves the cursor to it
            rows = await decide(pilot, screen, "ar")
            table = screen.query_one("#candidates", DataTable)
            table.move_cursor(row=0)
            await pilot.press("u")
            await pilot.pause()
            assert screen.current_row().text == rows[1]
            assert any(n.startswith("undid the reject of") and rows[1] in n for n in notices(app))

    run(scenario())


# -- 5. two windows on one journal -----------------------------------------------------------------


def test_two_windows_on_one_journal_do_not_corrupt_it(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    other_window = CurationSession.open(journal, restore=False)  # e.g. a second textual-serve tab
    foil = {"source": SENTENCE, "foil": "The young doctor did not treat the injured boy.", "rule": "PN"}
    other_window.accept(foil)

    async def scenario() -> list[str]:
        app = app_for(tmp_path, models=("bow",), journal=journal)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert any("in use by another" in n for n in notices(app, "warning"))
            assert app.journal_path == tmp_path / "journal-2.jsonl"
            screen = await craft(app, pilot, SENTENCE)
            texts = await decide(pilot, screen, "aa")
            await pilot.press("u")
            await pilot.pause()
            other_window.reject(foil)
            other_window.undo()
            return texts[:1]

    kept = run(scenario())
    other_window.close()
    for path in (journal, tmp_path / "journal-2.jsonl"):
        seqs = [json.loads(line)["seq"] for line in path.read_text().splitlines()]
        assert seqs == list(range(1, len(seqs) + 1)), path  # one writer: no collisions
    # after a restart each journal restores exactly its window's basket
    assert [r["foil"] for r in CurationSession.open(journal, restore=True).basket] == [foil["foil"]]
    assert [r["foil"] for r in CurationSession.open(tmp_path / "journal-2.jsonl", restore=True).basket] == kept


# -- the fluency delta: on the candidates, in the basket, in the curated record -----------------------


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
def test_the_fluency_delta_is_shown_and_kept_in_the_curated_record(tmp_path: Path, size: tuple[int, int]) -> None:
    from core.foils.fluency import get_scorer, relative_fluency

    async def scenario() -> None:
        app = app_for(tmp_path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = await craft(app, pilot, SENTENCE, PARAPHRASE)
            table = screen.query_one("#candidates", DataTable)
            assert "fluency" in table.columns  # also at 80x24 with three models
            realized = [r for r in screen.rows if not r.error]
            expected = relative_fluency(get_scorer("trigram"), [SENTENCE] * len(realized), [r.text for r in realized])
            assert [r.fluency for r in realized] == expected  # the real trigram scorer, foil minus source
            for n in range(table.row_count):
                row = screen.rows[int(table.coordinate_to_cell_key((n, 0)).row_key.value)]
                assert str(table.get_row_at(n)[list(table.columns).index("fluency")]) == f"{row.fluency['delta']:+.2f}"
            texts = await decide(pilot, screen, "a")
            record = app.curation.basket[0]
            assert record["foil"] == texts[0] and record["fluency"] == next(r.fluency for r in screen.rows if r.text == texts[0])
            await pilot.press("ctrl+s", "ctrl+u")
            await type_text(pilot, str(tmp_path / "foils.jsonl"))
            await pilot.press("enter")
            await settle(app, pilot)
            await pilot.press("f4")
            await pilot.pause()
            basket = app.screen.query_one("#basket-table", DataTable)
            if size[0] >= 100:
                cell = basket.get_row_at(0)[list(basket.columns).index("fluency")]
                assert str(cell) == f"{record['fluency']['delta']:+.2f}"
            detail = str(app.screen.query_one("#basket-detail").render())
            assert f"delta {record['fluency']['delta']:+.3f}" in detail
        exported = [json.loads(line) for line in (tmp_path / "foils.jsonl").read_text(encoding="utf-8").splitlines()]
        assert exported[0]["fluency"]["scorer"] == "trigram" and exported[0]["fluency"]["delta"] == record["fluency"]["delta"]

    run(scenario())


# -- a foil still unscored when the app quits ------------------------------------------------------------


class Stuck:
    """Validation that gives no verdict while the app runs: it waits until released, then fails."""

    def __init__(self, pipe: Any) -> None:
        self.pipe, self.released = pipe, threading.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pipe, name)

    def validate(self, candidates: Any) -> Any:
        self.released.wait(60)
        raise RuntimeError("the process was gone before validation finished")


def test_a_foil_left_unscored_at_quit_is_marked_in_exports_and_rescored_on_restore(tmp_path: Path) -> None:
    from smithtui.launch import wait_for_jobs

    app = app_for(tmp_path)
    stuck = Stuck(app.backends._pipeline)
    app.backends._pipeline = stuck  # validation never finishes in this run

    async def first() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            await type_text(pilot, SENTENCE)
            screen.query_one("#paraphrase", Input).value = PARAPHRASE
            await pilot.press("enter")
            for _ in range(200):
                await pilot.pause(0.05)
                if screen.rows:
                    break
            await pilot.press("escape")
            await decide(pilot, screen, "a")
            record = app.curation.basket[0]
            assert record["scored"] is False and "validation" in record["pending"]
            for name in ("unscored.csv", "unscored.jsonl"):
                await pilot.press("ctrl+s", "ctrl+u")
                await type_text(pilot, str(tmp_path / name))
                await pilot.press("enter")  # (no settle: the held validation would keep it waiting)
                for _ in range(100):
                    if (tmp_path / name).exists():
                        break
                    await pilot.pause(0.05)
            await pilot.press("ctrl+q")  # waits up to 3 s for the scores, then leaves the foil marked
            for _ in range(100):
                if app.quit_note:
                    break
                await pilot.pause(0.1)
            stuck.released.set()

    run(first())
    assert "1 foil(s) in the basket are not scored yet" in app.quit_note
    with open(tmp_path / "unscored.csv", newline="", encoding="utf-8") as fh:
        [row] = list(csv.DictReader(fh))
    assert row["semantic_relationship"].startswith("NOT SCORED (pending: validation")
    [exported] = [json.loads(line) for line in (tmp_path / "unscored.jsonl").read_text(encoding="utf-8").splitlines()]
    assert exported["scored"] is False and "validation" in exported["pending"] and exported["verdicts"] == []
    assert wait_for_jobs(30)

    again = app_for(tmp_path, restore="always")

    async def second() -> None:
        async with again.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for _ in range(300):
                await settle(again, pilot, rounds=1)
                if again.curation is not None and not again.curation.pending:
                    break
            assert any("re-scoring 1 foil(s)" in n for n in notices(again))
            [done] = again.curation.basket
            assert done["scored"] is True and done["pending"] == [] and done["verdicts"]
            assert done["validated"] is not None and done["fluency"]["delta"] is not None
            assert set(done["spotcheck"]) == set(MODELS) and done["foil"] == record_foil
            await pilot.press("f4")
            await pilot.pause()
            cells = " ".join(str(c) for c in again.screen.query_one("#basket-table", DataTable).get_row_at(0))
            assert "not scored yet" not in cells
            await pilot.press("ctrl+s", "ctrl+u")
            await type_text(pilot, str(tmp_path / "rescored.csv"))
            await pilot.press("enter")
            await settle(again, pilot)

    record_foil = exported["foil"]
    run(second())
    with open(tmp_path / "rescored.csv", newline="", encoding="utf-8") as fh:
        [row] = list(csv.DictReader(fh))
    assert row["semantic_relationship"].startswith("roundtrip: ")


def test_rescoring_refuses_an_edit_the_rules_no_longer_make(backends: Any) -> None:
    from core.curated import rescore_record
    from core.errors import SmithError

    record = {"source": SENTENCE, "foil": "The young doctor did not treat the boy.", "rule": "PN",
              "variant": "no-such-variant", "nodes": ["t"], "pending": ["validation", "bow"]}
    with pytest.raises(SmithError, match="no longer make this PN no-such-variant edit"):
        rescore_record(backends.pipeline(), record, backends.embedder)
    only_models = rescore_record(backends.pipeline(), {**record, "pending": ["bow"]}, backends.embedder)
    assert only_models["scored"] is True and only_models["spotcheck"]["bow"]["reference"] == "original"


def test_rescoring_a_malformed_verdict_is_a_hinted_input_error(backends: Any) -> None:
    """A curated file whose stored verdict has a score that is no number (hand-edited, or from another tool): the
    rescore that reads it back says which verdict and what to do, instead of a bare ValueError."""
    from core.curated import rescore_record
    from core.errors import InputError

    pipe = backends.pipeline()
    edit = next(e for e in pipe.edits(pipe.parse([SENTENCE])[0])["PN"] if e.variant == "main-predicate")
    [candidate] = pipe.realize([edit])
    record = pipe.record(candidate, None, None, validated=True).to_json()
    broken = {**record, "pending": ["fluency"], "verdicts": [{"validator": "roundtrip", "passed": True, "score": "n/a"}]}
    with pytest.raises(InputError, match="malformed 'roundtrip' verdict: score 'n/a' is not a number") as err:
        rescore_record(pipe, broken, backends.embedder)
    assert "pending validation" in (err.value.hint or "")
    fixed = {**broken, "verdicts": [{"validator": "roundtrip", "passed": True, "score": 0.5}]}
    assert rescore_record(pipe, fixed, backends.embedder)["fluency"]["delta"] is not None


def test_rescoring_decides_the_engines_keep_or_drop_again(backends: Any) -> None:
    """A foil curated while its scores were pending carries the engine's decision of that moment (none); the
    rescore that completes validation and fluency records the engine's real decision beside the curator's."""
    from core.curated import rescore_record

    pipe = backends.pipeline()
    parsed = pipe.parse([SENTENCE])[0]
    edit = next(e for e in pipe.edits(parsed)["PN"] if e.variant == "main-predicate")
    [candidate] = pipe.realize([edit])
    record = pipe.record(candidate, None, None, validated=True).to_json()
    assert record["kept"] is None  # nothing decided while validation is pending
    curated = {**record, "kept": True, "decided_by": "curator", "engine_decision": {"kept": None, "decided_by": ""},
               "pending": ["validation", "fluency"]}  # fmt: skip
    done = rescore_record(pipe, curated, backends.embedder)
    engine = done["engine_decision"]
    assert done["kept"] is True and done["decided_by"] == "curator"  # the curator's decision stands
    assert engine["kept"] is True and engine["decided_by"].startswith("roundtrip: roundtrip passed")
    assert "fluency: fluency passed" in engine["decided_by"]
    undecided = rescore_record(pipe, {**record, "pending": ["validation", "fluency"]}, backends.embedder)
    assert undecided["kept"] is True and undecided["decided_by"] == engine["decided_by"]
