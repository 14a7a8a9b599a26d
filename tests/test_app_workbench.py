"""Headless functional tests of the workbench on the real offline backends (spaCy, WordNet, MiniLM).

Every test drives the app with key presses through Textual's Pilot.
"""

from __future__ import annotations

import csv
import dataclasses
import errno
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from textual import events
from textual.widgets import DataTable, Input, OptionList, Static

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
    settings_for,
    settle,
    type_text,
)

from core.curation import previous_session
from core.export import SENTENCESMITH_COLUMNS
from core.types import RULES
from smithtui.screens.workbench import WorkbenchScreen
from smithtui.widgets.dialogs import ConfirmScreen, PromptScreen

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def backends():
    return loaded_backends()


def table_rules(screen: WorkbenchScreen) -> list[str]:
    table = screen.query_one("#candidates", DataTable)
    return [str(table.get_row_at(i)[1]) for i in range(table.row_count)]


EVERY_RULE = "The young doctor quickly treated the injured soldier."  # HS has "soldier" -> "man" ("doctor": none)
EVERY_RULE_PARAPHRASE = "The injured soldier was quickly treated by the young doctor."


def test_type_a_sentence_apply_each_rule_accept_two_and_export(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = await craft(app, pilot, EVERY_RULE, EVERY_RULE_PARAPHRASE)
            assert isinstance(screen, WorkbenchScreen)
            # the graph, with the words each node aligns to
            assert "treat-01" in str(screen.query_one("#graph").root.label)
            # every rule applies to this sentence; the rule list counts them
            counts = {rule: len(screen.by_rule.get(rule, [])) for rule in RULES}
            assert all(counts[r] > 0 for r in RULES), counts
            assert len(screen.rows) == sum(counts.values())
            # every realized foil got a verdict and a margin per model
            realized = [r for r in screen.rows if not r.error]
            assert realized and all(r.verdicts for r in realized)
            assert all(set(r.checks) == set(MODELS) for r in realized)
            # the role swap keeps every word: the bag-of-words model is fooled by it
            rs = [r for r in realized if r.edit.rule == "RS" and r.edit.variant == "agent-patient"]
            assert rs and rs[0].checks["bow"].fooled

            # apply each rule in turn through the rule list (keyboard only)
            rules = screen.query_one("#rules", OptionList)
            rules.focus()
            ids = [rules.get_option_at_index(i).id for i in range(rules.option_count)]
            for rule in RULES:
                while rules.get_option_at_index(rules.highlighted).id != f"rule:{rule}":
                    await pilot.press("down")
                await pilot.pause()
                assert set(table_rules(screen)) == {rule}
                assert len(table_rules(screen)) == len([r for r in realized if r.edit.rule == rule])
            assert "all" in ids
            await pilot.press("home")
            await pilot.pause()
            assert len(table_rules(screen)) == len(realized)  # failed edits stay behind f
            await pilot.press("f")
            await pilot.pause()
            assert len(table_rules(screen)) == len(screen.rows)
            await pilot.press("f")
            await pilot.pause()

            # accept two foils with the keyboard (the cursor moves on after each decision)
            await pilot.press("c")
            assert screen.focused is screen.query_one("#candidates")
            accepted = await decide(pilot, screen, "aa")
            await pilot.pause()
            assert len(app.curation.basket) == 2
            assert [rec["foil"] for rec in app.curation.basket] == accepted
            table = screen.query_one("#candidates", DataTable)
            marks = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
            assert marks.count("✓") == 2

            # export through the dialog, as JSONL and as SentenceSmith CSV
            for name in ("foils.jsonl", "foils.csv"):
                await pilot.press("ctrl+s")
                await pilot.pause()
                assert isinstance(app.screen, PromptScreen)
                await pilot.press("ctrl+u")
                await type_text(pilot, str(tmp_path / name))
                await pilot.press("enter")
                await settle(app, pilot)
            assert not notices(app, "error"), notices(app, "error")

        records = [json.loads(line) for line in (tmp_path / "foils.jsonl").read_text().splitlines()]
        assert [r["foil"] for r in records] == accepted
        for rec in records:
            assert rec["source"] == EVERY_RULE and rec["paraphrase"] == EVERY_RULE_PARAPHRASE
            assert rec["rule"] in RULES and rec["graph_after"] and rec["description"]
            assert set(rec["spotcheck"]) == set(MODELS)
            assert all(c["reference"] == "paraphrase" for c in rec["spotcheck"].values())
            assert rec["verdicts"] and rec["verdicts"][0]["validator"]
            assert rec["provenance"]["seed"] == 13
            assert rec["edited_by_hand"] is False
        with open(tmp_path / "foils.csv", newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        assert tuple(rows[0]) == SENTENCESMITH_COLUMNS
        assert [r["modified_sentence"] for r in rows] == accepted
        # the journal recorded both decisions and both exports
        actions = [json.loads(x)["action"] for x in (tmp_path / "journal.jsonl").read_text().splitlines()]
        assert actions.count("accept") == 2 and actions.count("export") == 2 and actions[-1] == "end"

    run(scenario())


def test_reject_undo_and_hand_edit_rescores(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = await craft(app, pilot, "The cat chased the small mouse.")
            await pilot.press("escape")  # from the input to the candidates
            assert screen.focused is screen.query_one("#candidates")
            await pilot.press("a", "r")
            assert len(app.curation.basket) == 1
            await pilot.press("u")
            await pilot.pause()
            assert len(app.curation.basket) == 1
            await pilot.press("u", "u")
            await pilot.pause()
            assert app.curation.basket == []
            assert any("nothing to undo" in n for n in notices(app))

            # edit the selected foil by hand: it is re-validated and re-checked
            table = screen.query_one("#candidates", DataTable)
            table.move_cursor(row=0)
            row = screen.current_row()
            await pilot.press("e")
            await pilot.pause()
            assert isinstance(app.screen, PromptScreen)
            await pilot.press("ctrl+u")
            await type_text(pilot, "The cat chased the small mouse.")  # the source itself: must fool everyone
            await pilot.press("enter")
            await settle(app, pilot)
            assert row.edited and row.text == "The cat chased the small mouse." and row.original_text
            assert row.verdicts is not None and set(row.checks) == set(MODELS)
            assert all(c.fooled for c in row.checks.values())
            assert str(table.get_row_at(0)[0]) == "✎"
            await pilot.press("a")
            rec = app.curation.basket[0]
            assert rec["edited_by_hand"] and rec["original_foil"] == row.original_text

    run(scenario())


def test_graph_node_highlights_its_words(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = await craft(app, pilot, SENTENCE)
            await pilot.press("escape", "t")
            tree = screen.query_one("#graph")
            assert screen.focused is tree
            await pilot.press("down")  # :ARG0 d / doctor
            await pilot.pause()
            var = tree.cursor_node.data
            words = {screen.parsed.tokens[i].text for i in screen.parsed.alignment[var]}
            rendered = screen.query_one("#sentence-view", Static).render()
            highlighted = {rendered.plain[s.start : s.end] for s in rendered.spans}
            assert words and words <= highlighted

    run(scenario())


def test_kill_and_restore_the_journal(tmp_path: Path) -> None:
    """A crash mid-session: the journal on disk at that moment restores everything in a new app."""
    crash_copy = tmp_path / "crashed" / "journal.jsonl"

    async def first_session() -> list[dict]:
        app = app_for(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = await craft(app, pilot, SENTENCE, PARAPHRASE)
            await decide(pilot, screen, "aara")
            await pilot.press("u")
            await pilot.pause()
            basket = app.curation.basket
            # the terminal dies here: whatever is on disk now is all the next start gets
            crash_copy.parent.mkdir()
            shutil.copy(tmp_path / "journal.jsonl", crash_copy)
            return basket

    async def second_session(expected: list[dict]) -> None:
        app = app_for(tmp_path, restore="ask", journal=crash_copy)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("y")
            await pilot.pause()
            assert app.curation.basket == expected
            screen = app.get_screen_for_mode("workbench")
            assert screen.query_one("#sentence", Input).value == SENTENCE
            assert screen.query_one("#paraphrase", Input).value == PARAPHRASE
            # the basket screen shows them
            await pilot.press("f4")
            await pilot.pause()
            assert app.screen.query_one("#basket-table", DataTable).row_count == len(expected)

    expected = run(first_session())
    assert len(expected) == 2
    summary = previous_session(crash_copy)
    assert summary is not None and not summary.ended
    run(second_session(expected))

    async def declined() -> None:
        app = app_for(tmp_path, restore="ask", journal=crash_copy)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            assert app.curation.basket == []

    run(declined())


def test_bad_input_keeps_the_app_usable(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            view = screen.query_one("#sentence-view", Static)
            # empty input: an inline message, nothing runs
            await pilot.press("enter")
            await settle(app, pilot)
            assert "Type a sentence first" in str(view.render())
            assert screen.rows == []
            # a 5,000-character paste
            sentence = screen.query_one("#sentence", Input)
            sentence.post_message(events.Paste("word " * 1000))
            await pilot.pause()
            await pilot.press("enter")
            await settle(app, pilot)
            assert "too long" in str(view.render())
            assert screen.rows == []
            # text in another language: a warning, foils still come
            await craft(app, pilot, "Le chat a chassé la souris dans le jardin.")
            assert any("does not look like English" in n for n in notices(app, "warning"))
            # a file that is not what it claims
            fake = tmp_path / "sentences.csv"
            fake.write_bytes(bytes(range(256)) * 8)
            await pilot.press("ctrl+o")
            await type_text(pilot, str(fake))
            await pilot.press("enter")
            await pilot.pause()
            assert any("cannot load sentences" in n and "not readable text" in n for n in notices(app, "error"))
            # an unknown file
            await pilot.press("ctrl+o")
            await type_text(pilot, str(tmp_path / "missing.txt"))
            await pilot.press("enter")
            await pilot.pause()
            assert any("file not found" in n for n in notices(app, "error"))
            # still usable: a normal sentence works, decisions are journaled
            await craft(app, pilot, SENTENCE)
            assert screen.rows
            await pilot.press("escape", "a")
            assert len(app.curation.basket) == 1

    run(scenario())


def test_a_sentence_no_rule_applies_to(tmp_path: Path) -> None:
    async def scenario() -> None:
        settings = settings_for(MODELS, **{"pipeline.rules": "RS"})
        app = app_for(tmp_path, settings=settings)
        pipe = app.backends.pipeline()
        app.backends._pipeline = dataclasses.replace(pipe, settings=settings.pipeline)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = await craft(app, pilot, "Hello.")
            assert screen.rows == []
            assert "No rule applies" in str(screen.query_one("#detail", Static).render())
            await pilot.press("escape", "a")
            assert any("no candidate selected" in n for n in notices(app, "warning"))

    run(scenario())


def test_missing_model_is_reported_and_the_others_still_score(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path, models=("bow", "no-such-model"))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = await craft(app, pilot, SENTENCE)
            realized = [r for r in screen.rows if not r.error]
            assert all(r.checks["bow"] is not None for r in realized)
            assert all(r.checks["no-such-model"] is None for r in realized)
            assert any("no-such-model" in n for n in notices(app, "warning"))
            assert "no-such-model ✗" in str(screen.query_one("#status", Static).render())

    run(scenario())


def test_full_disk_on_export_keeps_basket_and_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = await craft(app, pilot, SENTENCE)
            await decide(pilot, screen, "aa")
            journal_before = (tmp_path / "journal.jsonl").read_bytes()
            target = tmp_path / "foils.parquet"
            target.write_bytes(b"previous export")
            real_fsync = os.fsync

            def full(fd: int) -> None:
                raise OSError(errno.ENOSPC, "No space left on device")

            monkeypatch.setattr(os, "fsync", full)
            await pilot.press("ctrl+s", "ctrl+u")
            await type_text(pilot, str(target))
            await pilot.press("enter")
            await settle(app, pilot)
            monkeypatch.setattr(os, "fsync", real_fsync)
            assert any("No space left" in n for n in notices(app, "error"))
            assert target.read_bytes() == b"previous export"
            assert (tmp_path / "journal.jsonl").read_bytes() == journal_before
            assert len(app.curation.basket) == 2
            # and it still works once there is room again
            await pilot.press("ctrl+s", "ctrl+u")
            await type_text(pilot, str(target))
            await pilot.press("enter")
            await settle(app, pilot)
            import pyarrow.parquet as pq

            assert len(pq.read_table(target).to_pylist()) == 2

    run(scenario())


def test_samples_palette_help_and_keys(tmp_path: Path) -> None:
    async def scenario() -> None:
        settings = settings_for(MODELS, **{"ui.keys": {"accept": "y", "nonsense": "z"}, "ui.theme": "no-such-theme"})
        app = app_for(tmp_path, settings=settings)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert app.key_overrides == {"workbench.accept": "y"} and app.unknown_keys == ["nonsense"]
            assert any("nonsense" in n for n in notices(app, "warning"))
            assert any("unknown theme 'no-such-theme'" in n for n in notices(app, "warning"))
            screen = app.screen
            # a sample sentence, crafted at once
            await pilot.press("ctrl+n")
            await settle(app, pilot)
            assert screen.query_one("#sentence", Input).value == app.samples[0][0]
            assert screen.rows
            # the rebound accept key
            await pilot.press("escape", "y")
            assert len(app.curation.basket) == 1
            # help lists every screen's keys with the override applied
            await pilot.press("f1")
            await pilot.pause()
            text = str(app.screen.query_one("#help-keys", Static).render())
            assert "workbench.accept" in text and "Craft" in text and "compare.run" in text
            await pilot.press("escape")
            # the palette has an entry per action, for loading files and for the samples
            titles = [c.title for c in app.get_system_commands(app.screen)]
            for wanted in ("Accept", "Reject", "Undo", "Craft", "Load sentences from a file…", "Load triples for Compare…"):
                assert wanted in titles
            assert any(t.startswith("Sample: ") for t in titles)
            # screens switch by keys
            await pilot.press("f3")
            await pilot.pause()
            assert app.current_mode == "compare"
            await pilot.press("f4")
            await pilot.pause()
            assert app.current_mode == "basket"
            await pilot.press("f2")
            await pilot.pause()
            assert app.current_mode == "workbench"

    run(scenario())


def test_variation_and_clsd_screens_open_by_key(tmp_path: Path) -> None:
    from smithtui.app import OPTIONAL_SCREENS

    async def scenario() -> None:
        app = app_for(tmp_path, optional_screens=None)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for mode, key in (("variation", "f5"), ("clsd", "f6")):
                if mode not in app.optional_screens:
                    continue
                await pilot.press(key)
                await pilot.pause()
                assert app.current_mode == mode
                assert type(app.screen).__name__ == OPTIONAL_SCREENS[mode][1]
            await pilot.press("f2")
            await pilot.pause()
            assert app.current_mode == "workbench"
            assert not notices(app, "error")

    run(scenario())
