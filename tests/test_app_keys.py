"""The keyboard flow a newcomer meets (issue 15, item 6): focus after Enter, footer keys, key bursts, pastes.

Key bursts are posted to the app all at once, as a terminal delivers keys typed
fast, pasted without bracketed paste, or sent by ``tmux send-keys``.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

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


@contextlib.asynccontextmanager
async def started(tmp_path: Path, size: tuple[int, int] = (120, 40), **options: Any):
    """The app (model bow unless ``models=``) running headless at ``size``, past its first frame: ``(app, pilot)``."""
    options.setdefault("models", ("bow",))
    app = app_for(tmp_path, **options)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        yield app, pilot


def test_after_enter_the_decision_keys_work_and_show_in_the_footer(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with started(tmp_path) as (app, pilot):
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
        async with started(tmp_path) as (app, pilot):
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
        async with started(tmp_path) as (app, pilot):
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


# The default rules refuse few edits; this sentence's agent-patient swap inside the infinitive is one
# ("'parents' is not written inside the phrase of 'vaccinate'"), and its main swap is realized. ("met" no longer
# serves: RS leaves the arguments of a symmetric relation alone; nor does "the boy whom the girl kissed": RS now
# refuses to move a phrase with a clause inside before the realizer is asked.)
WITH_FAILED_EDIT = "Doctors urged parents to vaccinate their children before winter."


def test_filters_failed_edits_glyphs_and_file_prompts(tmp_path: Path) -> None:
    """Issue 15, item 8: failed edits behind f, a visible rule filter reset per sentence, / filters, path prompts."""
    from textual.widgets import DataTable, OptionList

    (tmp_path / "sentences-for-the-demo.txt").write_text("The cat chased the small mouse.\n", encoding="utf-8")

    async def scenario() -> None:
        async with started(tmp_path) as (app, pilot):
            screen = app.screen
            await type_text(pilot, WITH_FAILED_EDIT)
            await pilot.press("enter")
            await settle(app, pilot)
            table = screen.query_one("#candidates", DataTable)
            failed = [r for r in screen.rows if r.error]
            assert failed, "this sentence has edits the realizer refuses"
            shown = {table.coordinate_to_cell_key((n, 0)).row_key.value for n in range(table.row_count)}
            assert not shown & {str(r.index) for r in failed}  # the cursor never lands on them
            all_label = str(screen.query_one("#rules", OptionList).get_option_at_index(0).prompt)
            assert f"({len(screen.rows) - len(failed)})" in all_label and f"+{len(failed)} failed" in all_label
            await pilot.press("f")
            assert table.row_count == len(screen.rows)
            await pilot.press("f")
            # distinct glyphs: a rejected foil is ⊘, a fooled model ⚑, a failed verdict ✗
            await pilot.press("r")
            assert str(table.get_row_at(0)[0]) == "⊘"
            rs = next(n for n in range(table.row_count) if str(table.get_row_at(n)[1]) == "RS")
            assert str(table.get_row_at(rs)[2]).startswith("⚑")  # bag of words cannot see a role swap
            # / narrows the table as you type; escape goes back to it with the filter shown
            await pilot.press("slash")
            await type_text(pilot, "did not")
            await pilot.pause()
            assert 0 < table.row_count < len(screen.rows) - len(failed)
            assert all("did not" in str(table.get_row_at(n)[-1]) for n in range(table.row_count))
            await pilot.press("escape")
            assert screen.focused is table and screen.query_one("#search").display
            # a rule chosen on one sentence does not silently filter the next
            screen.filter = "rule:HS"
            await pilot.press("i", "ctrl+u")
            await type_text(pilot, "The cat chased the small mouse.")
            await pilot.press("enter")
            await settle(app, pilot)
            assert screen.filter == "all" and screen.search == "" and not screen.query_one("#search").display
            assert {str(table.get_row_at(n)[1]) for n in range(table.row_count)} > {"HS"}
            # file prompts complete paths (Tab) and remember the last one
            await pilot.press("ctrl+o", "ctrl+u")
            await type_text(pilot, str(tmp_path / "sentences-for"))
            await pilot.pause()
            await pilot.press("tab", "enter")
            await settle(app, pilot)
            assert app.samples == [("The cat chased the small mouse.", "")]
            await pilot.press("ctrl+o")
            await pilot.pause()
            assert app.screen.query_one("#prompt-input", Input).value == str(tmp_path / "sentences-for-the-demo.txt")
            await pilot.press("escape")
            # the basket has a / filter too
            await pilot.press("c", "a")
            await pilot.press("f4")
            await pilot.pause()
            basket = app.screen.query_one("#basket-table", DataTable)
            assert basket.row_count == 1
            await pilot.press("slash")
            await type_text(pilot, "no such words")
            await pilot.pause()
            assert basket.row_count == 0
            await pilot.press("ctrl+u")
            await pilot.pause()
            assert basket.row_count == 1

    run(scenario())


def test_quit_cancels_a_running_job_and_says_so(tmp_path: Path) -> None:
    """Issue 15, item 9: ctrl+q during a job cancels it (the CLI prints the note) instead of leaving it running."""
    import threading

    from smithtui.launch import wait_for_jobs

    held = threading.Event()
    app = app_for(tmp_path, models=("bow",))
    pipe = app.backends._pipeline

    class Slow:
        def __getattr__(self, name):
            return getattr(pipe, name)

        def validate(self, candidates):
            held.wait(60)
            return pipe.validate(candidates)

    app.backends._pipeline = Slow()

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await type_text(pilot, SENTENCE)
            await pilot.press("enter")
            for _ in range(200):
                await pilot.pause(0.05)
                if app.screen.rows:
                    break
            cancel = app.screen._cancel
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert cancel.is_set()
            held.set()  # the stage that was running finishes now (a running stage is not interrupted, only what follows)

    run(scenario())
    assert "cancelled the running job(s) on: workbench" in app.quit_note
    assert wait_for_jobs(10)


def test_ctrl_s_on_a_job_screen_saves_that_screens_results(tmp_path: Path) -> None:
    """Issue 15, item 9: ctrl+s on CLSD saved the basket; it saves the CLSD report (and the stale wrong-rows line goes)."""
    import json

    from textual.app import App
    from textual.widgets import Label

    from core.config import Settings, apply_overrides
    from smithtui.screens.clsd import CLSDScreen

    data = Path(__file__).parent / "data"
    settings = apply_overrides(Settings(), {"models.cache_dir": str(tmp_path / "cache")})
    screen = CLSDScreen(settings, data=str(data / "clsd_tiny.csv"), models=["bow"])

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(screen)

    async def scenario() -> None:
        async with Host().run_test(size=(150, 50)) as pilot:
            await pilot.press("ctrl+s")  # nothing to save yet: a warning, no dialog
            await pilot.pause()
            assert not isinstance(pilot.app.screen, PromptScreen)
            await pilot.press("ctrl+r")
            for _ in range(2400):
                await pilot.pause(0.05)
                if screen.report is not None:
                    break
            await pilot.pause()
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(pilot.app.screen, PromptScreen)
            await pilot.press("ctrl+u")
            await type_text(pilot, str(tmp_path / "clsd.json"))
            await pilot.press("enter")
            await pilot.pause()
            assert "wrong rows: bow" in str(screen.query_one("#clsd-wrong-label", Label).render())
            screen.action_run()  # a new run clears the previous run's wrong-rows line at once
            assert str(screen.query_one("#clsd-wrong-label", Label).render()).startswith("wrong rows: run an")
            for _ in range(2400):
                await pilot.pause(0.05)
                if screen._cancel is None:
                    break

    run(scenario())
    saved = json.loads((tmp_path / "clsd.json").read_text(encoding="utf-8"))
    assert saved["results"] and {r["model"] for r in saved["results"]} == {"bow"}


def test_the_model_choice_is_shared_with_compare_and_kept_across_restarts(tmp_path: Path) -> None:
    from textual.widgets import SelectionList

    from smithtui.widgets.dialogs import ModelPickerScreen

    async def first() -> None:
        async with started(tmp_path, models=("bow", "tfidf")) as (app, pilot):
            await pilot.press("escape", "m")  # the model picker, from the candidates
            await pilot.pause()
            assert isinstance(app.screen, ModelPickerScreen)
            picker = app.screen.query_one("#model-list", SelectionList)
            picker.deselect("tfidf")
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.models == ("bow",)
            await pilot.press("f3")
            await pilot.pause()
            compare = app.screen.query_one("#compare-models", SelectionList)
            assert compare.selected == ["bow"]
            compare.select("minilm")  # chosen in Compare: the workbench follows
            await pilot.pause()
            await pilot.press("f2")
            await pilot.pause()
            assert set(app.screen.models) == {"minilm", "bow"}

    async def second() -> None:
        async with started(tmp_path, models=("bow", "tfidf")) as (app, _pilot):  # the config still says bow, tfidf
            assert set(app.screen.models) == {"minilm", "bow"}

    run(first())
    run(second())


def test_clsd_models_embed_in_small_chunks_with_a_cancel_check_between() -> None:
    """Why escape stops a CLSD run within a chunk: the screen's models embed CANCEL_CHUNK texts per call."""
    import threading

    import numpy as np

    from core.clsd.run import ModelSpec
    from core.errors import CancelledError
    from smithtui.screens.clsd import chunked

    calls: list[int] = []
    stop = threading.Event()

    def encode(texts, progress=None, cancel=None):
        calls.append(len(texts))
        if progress is not None:
            progress(len(texts), len(texts))
        if len(calls) == 2:
            stop.set()  # the user presses escape while the second chunk embeds
        return np.array([[len(t), 1.0] for t in texts], dtype=np.float32)

    neural = chunked(ModelSpec("m", encode, {"kind": "sentence-transformers"}), 2)
    seen: list[tuple[int, int]] = []
    out = neural.encode(["a", "bb", "ccc", "dddd", "e"], progress=lambda d, t: seen.append((d, t)))
    assert calls == [2, 2, 1] and out[:, 0].tolist() == [1, 2, 3, 4, 1] and seen[-1] == (5, 5)
    calls.clear()
    stop.clear()
    with pytest.raises(CancelledError):
        neural.encode(["a", "bb", "ccc", "dddd", "e"], cancel=stop)
    assert calls == [2, 2]  # stopped before the third chunk
    lexical = ModelSpec("bow", encode, {"kind": "lexical"})
    assert chunked(lexical, 2) is lexical  # fits its vocabulary on one call's texts: left whole


def test_the_last_path_of_each_file_prompt_is_kept_across_restarts(tmp_path: Path) -> None:
    """Issue 15, item 8: a file prompt offers the path given last time, also after the app restarts."""
    sentences = tmp_path / "my sentences.txt"
    sentences.write_text("The cat chased the small mouse.\n", encoding="utf-8")
    out = tmp_path / "out" / "basket.csv"
    out.parent.mkdir()

    async def first() -> None:
        async with started(tmp_path) as (app, pilot):
            await pilot.press("ctrl+o", "ctrl+u")
            await type_text(pilot, str(sentences))
            await pilot.press("enter")
            await settle(app, pilot)
            await pilot.press("escape", "a", "ctrl+s", "ctrl+u")  # to the candidates, accept, export
            await type_text(pilot, str(out))
            await pilot.press("enter")
            await settle(app, pilot)
            assert out.exists(), app.notices

    async def second() -> None:
        async with started(tmp_path, restore="always") as (app, pilot):
            await pilot.press("ctrl+o")
            await pilot.pause()
            assert app.screen.query_one("#prompt-input", Input).value == str(sentences)
            await pilot.press("escape")
            await pilot.press("f3", "ctrl+o")  # a prompt of another kind was never given a path: its own default
            await pilot.pause()
            assert app.screen.query_one("#prompt-input", Input).value == ""
            await pilot.press("escape", "f2", "ctrl+s")
            await pilot.pause()
            assert len(app.curation.basket) == 1
            assert app.screen.query_one("#prompt-input", Input).value == str(out)

    run(first())
    state = json.loads((tmp_path / "ui-state.json").read_text(encoding="utf-8"))
    assert state["last_paths"] == {"sentences": str(sentences), "export": str(out)}
    assert "models" not in state  # never chosen in the app: the config's choice still rules
    run(second())


def paste_keys(app, text: str) -> None:
    """Post ``text`` as key events all at once, as a terminal without bracketed paste sends a paste."""
    for ch in text:
        key = {" ": "space", "\n": "enter"}.get(ch, ch)
        app.post_message(events.Key(key, None if ch == "\n" else ch))


def test_an_unbracketed_paste_on_a_pane_runs_no_keys(tmp_path: Path) -> None:
    """Issue 15, item 6: a paste sent as bare key events (no bracketed-paste markers) is text, not a/r/u/e."""
    from textual.widgets import DataTable

    pasted = "The rebel leader easily escaped the angry guards."

    async def scenario() -> None:
        async with started(tmp_path) as (app, pilot):
            screen = app.screen
            await type_text(pilot, SENTENCE)
            await pilot.press("enter")
            await settle(app, pilot)
            table = screen.query_one("#candidates", DataTable)
            assert screen.focused is table and table.row_count
            screen.query_one("#sentence", Input).value = ""
            paste_keys(app, "every reader accepts")  # e, r, a, u: edit, reject, accept, undo on a pane
            await pilot.pause()
            assert not isinstance(app.screen, PromptScreen)  # the "e" did not open the edit dialog
            assert app.curation.basket == [] and not app.curation.can_undo  # no a, no r
            assert screen.focused is screen.query_one("#sentence")
            assert screen.query_one("#sentence", Input).value == "every reader accepts"
            assert any("sentence box" in msg for _, _, msg in app.notices)
            # typed keys still work as keys: one at a time, as a person presses them
            await pilot.press("escape", "a")
            await pilot.pause()
            assert len(app.curation.basket) == 1
            # on the basket (no sentence box) a burst is dropped, with a notice
            await pilot.press("f4")
            await pilot.pause()
            basket = app.screen
            assert basket.focused is basket.query_one("#basket-table")
            paste_keys(app, pasted + "\n")  # its d would remove, its u undo
            await pilot.pause()
            assert len(app.curation.basket) == 1 and app.screen is basket
            assert any("faster than anyone types" in msg for _, _, msg in app.notices)
            await pilot.press("d")  # and a single d still removes
            await pilot.pause()
            assert app.curation.basket == []

    run(scenario())


def test_ctrl_u_then_text_in_one_burst_keeps_the_text(tmp_path: Path) -> None:
    """Found by hand in tmux: ctrl+u and a path sent together left the prompt empty (the letters went in first)."""

    async def scenario() -> None:
        async with started(tmp_path, size=(80, 24)) as (app, pilot):
            box = app.screen.query_one("#sentence", Input)
            box.value = "an old sentence"
            box.cursor_position = len(box.value)
            burst(app, [("ctrl+u", None), *letters("The cat sat."), ("left", None), ("backspace", None)])
            await pilot.pause()
            assert box.value == "The cat sa." and box.cursor_position == len("The cat sa")
            burst(app, [("end", None), ("ctrl+u", None), *letters("Dogs bark."), ("enter", None)])  # Enter still crafts
            await settle(app, pilot)
            assert app.screen.parsed is not None and app.screen.parsed.text == "Dogs bark."

    run(scenario())


@contextlib.asynccontextmanager
async def on_variation(tmp_path: Path):
    """The app at 80x24 with the optional screens, on the Variation screen (F5): ``(app, pilot)``."""
    from smithtui.app import OPTIONAL_SCREENS

    async with started(tmp_path, size=(80, 24), optional_screens=OPTIONAL_SCREENS) as (app, pilot):
        await pilot.press("f5")
        await pilot.pause()
        yield app, pilot


def test_the_variation_screen_takes_a_typed_or_pasted_path_in_its_book_box(tmp_path: Path) -> None:
    """Found by hand in tmux: on F5 a typed path went nowhere (no box had the focus; now the book box has)."""

    async def scenario() -> None:
        async with on_variation(tmp_path) as (app, pilot):
            screen = app.screen
            books = screen.query_one("#var-books", Input)
            assert screen.focused is books
            screen.set_focus(screen.query_one("#var-passages"))
            burst(app, letters("/data/emma.txt"))  # a paste on the passage list: into the book box, no / filter
            await pilot.pause()
            assert books.value == "/data/emma.txt" and not screen.query_one("#var-search").display

    run(scenario())


def test_tab_in_a_burst_moves_on_before_the_next_letters(tmp_path: Path) -> None:
    """Found by hand in tmux: on F5, 'path Tab ctrl+u minilm' sent at once put 'minilm' in the book box."""

    async def scenario() -> None:
        async with on_variation(tmp_path) as (app, pilot):
            screen = app.screen
            burst(app, [*letters("/data/emma.txt"), ("tab", None), ("ctrl+u", None), *letters("minilm")])
            await pilot.pause()
            assert screen.query_one("#var-books", Input).value == "/data/emma.txt"
            assert screen.query_one("#var-models", Input).value == "minilm"

    run(scenario())


def test_the_warm_up_reports_each_backend_through_the_apps_own_message(tmp_path: Path) -> None:
    """Issue 14 item 5: BackendStatus is nested in SmithApp, which posts it from its warm-up worker and handles it."""
    from app_support import wait_until

    app = app_for(tmp_path, models=("bow",))
    app.warm = True  # the shared backends are loaded already: the warm-up only reports them ready

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: app.backend_state.get("pipeline", ("",))[0] == "ready", timeout=60)
            await app.workers.wait_for_complete()

    run(scenario())
    assert app.backend_state["pipeline"][0] == "ready"
    assert type(app).BackendStatus.handler_name == "on_smith_app_backend_status"
