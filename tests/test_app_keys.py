"""The keyboard flow a newcomer meets (issue 15, item 6): focus after Enter, footer keys, key bursts, pastes.

Key bursts are posted to the app all at once, as a terminal delivers keys typed
fast, pasted without bracketed paste, or sent by ``tmux send-keys``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Input

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_support import SENTENCE, app_for, loaded_backends, run, settle, type_text

from smithtui.widgets.dialogs import PromptScreen

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def backends():
    return loaded_backends()


def burst(app, keys: list[tuple[str, str | None]]) -> None:
    for key, char in keys:
        app.post_message(events.Key(key, char))


def letters(text: str) -> list[tuple[str, str | None]]:
    return [("space" if c == " " else c, c) for c in text]


def test_after_enter_the_decision_keys_work_and_show_in_the_footer(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path, models=("bow",))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert screen.focused is screen.query_one("#sentence")
            await type_text(pilot, SENTENCE)
            await pilot.press("enter")
            assert screen.focused is screen.query_one("#candidates")  # not the sentence box
            footer_keys = set(screen.active_bindings)
            assert {"a", "r", "u", "e", "m"} <= footer_keys
            await settle(app, pilot)
            await pilot.press("a")
            assert len(app.curation.basket) == 1
            assert screen.query_one("#sentence", Input).value == SENTENCE  # no stray "a"

    run(scenario())


def test_keys_in_a_burst_after_i_or_tab_are_not_lost(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path, models=("bow",))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            screen.set_focus(screen.query_one("#candidates"))
            burst(app, [("i", "i"), *letters("Hello there")])
            await pilot.pause()
            assert screen.query_one("#sentence", Input).value == "Hello there"
            burst(app, [("tab", None), *letters("a paraphrase")])
            await pilot.pause()
            assert screen.query_one("#paraphrase", Input).value == "a paraphrase"
            # escape leaves the box, i comes back (selecting its text, so typing replaces it); letters that
            # are pane keys elsewhere (i, c, t, l) are typed inside a box
            burst(app, [("escape", None), ("i", "i"), *letters("little cat")])
            await pilot.pause()
            assert screen.query_one("#sentence", Input).value == "little cat"

    run(scenario())


def test_a_paste_on_the_candidates_goes_to_the_sentence_box_not_to_the_keys(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = app_for(tmp_path, models=("bow",))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            await type_text(pilot, SENTENCE)
            await pilot.press("enter")
            await settle(app, pilot)
            screen.query_one("#sentence", Input).value = ""
            app.post_message(events.Paste("The rebel leader easily escaped the angry guards."))
            await pilot.pause()
            assert not isinstance(app.screen, PromptScreen)  # the "e" did not open the edit dialog
            assert app.curation.basket == []  # the "a"s accepted nothing
            assert screen.focused is screen.query_one("#sentence")
            assert screen.query_one("#sentence", Input).value == "The rebel leader easily escaped the angry guards."

    run(scenario())
