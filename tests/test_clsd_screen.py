"""The CLSD screen, headless: run the tiny set with the bow baseline, browse wrong rows, cancel, bad input."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from textual.widgets import DataTable, Label, SelectionList, Static

from core.config import Settings, apply_overrides
from core.progress import check_cancel
from smithtui.screens.clsd import CLSDScreen, diff_words

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_support import Host, wait_until

DATA = Path(__file__).parent / "data"
TINY = DATA / "clsd_tiny.csv"
TINY_PIVOT = DATA / "clsd_tiny_pivot.csv"


async def _wait(pilot, predicate, timeout: float = 120.0) -> None:
    await wait_until(pilot, predicate, timeout, describe=lambda: _status(pilot.app.screen))


def _status(screen: CLSDScreen) -> str:
    return str(screen.query_one("#clsd-status", Label).render())


def blocking_model(started: threading.Event, steps: int = 0):
    """A ``registry_model`` stand-in: its encoder reports ``steps`` progress steps (0.1 s each), sets
    ``started``, then blocks for up to 20 s, checking cancel every 0.05 s."""
    from core.clsd.run import ModelSpec

    def make(name, settings=None):
        def encode(texts, progress=None, cancel=None):
            for done in range(0, len(texts) + 1, max(1, len(texts) // steps)) if steps else ():
                check_cancel(cancel)
                time.sleep(0.1)
                if progress is not None:
                    progress(done, len(texts))
            started.set()
            for _ in range(400):
                check_cancel(cancel)
                time.sleep(0.05)
            return np.ones((len(texts), 3), dtype=np.float32)

        return ModelSpec(name, encode)

    return make


@pytest.fixture
def settings(tmp_path) -> Settings:
    return apply_overrides(Settings(), {"models.cache_dir": str(tmp_path / "cache")})


def test_run_fills_the_table_and_browses_wrong_rows(settings) -> None:
    async def scenario() -> None:
        screen = CLSDScreen(settings, data=str(TINY), pivot=str(TINY_PIVOT), models=["bow"])
        async with Host(screen).run_test(size=(150, 50)) as pilot:
            assert screen.query_one("#clsd-models", SelectionList).selected == ["bow"]
            await pilot.press("ctrl+r")
            await _wait(pilot, lambda: screen.report is not None or "error" in _status(screen))
            await pilot.pause()
            results = screen.query_one("#clsd-results", DataTable)
            assert results.row_count == 4  # two directions × direct and pivot
            rows = [results.get_row_at(i) for i in range(4)]
            assert {(r[1], r[2]) for r in rows} == {("DE→FR", "direct"), ("FR→DE", "direct"),
                                                   ("DE→FR", "pivot"), ("FR→DE", "pivot")}
            fr_de = next(r for r in rows if r[1] == "FR→DE" and r[2] == "direct")
            assert fr_de[5] == "4" and "distractor equals target: 1" in fr_de[6]
            assert "done: clsd_tiny" in _status(screen)
            wrong = screen.query_one("#clsd-wrong", DataTable)
            first = screen.report.results[0]
            n_wrong = sum(not r.correct for r in first.rows)
            assert n_wrong > 0 and wrong.row_count == n_wrong
            detail = screen.query_one("#clsd-detail", Static).render()
            assert " won " in str(detail) and "target" in str(detail)
            # the winning distractor's changed words carry the highlight style
            marked = [detail.plain[s.start : s.end] for s in detail.spans if getattr(s.style, "reverse", False)]
            winner = screen._wrong[0].winning_distractor
            assert marked and all(m in winner.split() and m not in screen._wrong[0].item.target.split() for m in marked)
            await pilot.press("down")  # next result line: its wrong rows replace the list
            await pilot.pause()
            second = screen.report.results[1]
            label = str(screen.query_one("#clsd-wrong-label", Label).render())
            assert second.condition in label and f"of {second.n_scored}" in label
            await pilot.press("w", "down")
            await pilot.pause()
            assert screen.query_one("#clsd-wrong", DataTable).has_focus

    asyncio.run(scenario())


def test_bad_input_is_reported_and_the_screen_survives(settings, tmp_path) -> None:
    async def scenario() -> None:
        screen = CLSDScreen(settings, data=str(tmp_path / "absent.csv"), models=["bow"])
        async with Host(screen).run_test(size=(150, 50)) as pilot:
            await pilot.press("ctrl+r")
            await _wait(pilot, lambda: "file not found" in _status(screen))
            bad = tmp_path / "bad.csv"
            bad.write_text("Index,French,de_adv1\n0,a,b\n", encoding="utf-8")
            screen.query_one("#clsd-data").value = str(bad)
            await pilot.press("ctrl+r")
            await _wait(pilot, lambda: "missing column German" in _status(screen))
            screen.query_one("#clsd-models", SelectionList).deselect_all()
            await pilot.press("ctrl+r")
            assert "tick at least one model" in _status(screen)

    asyncio.run(scenario())


def test_cancel_stops_the_worker(settings, monkeypatch) -> None:
    import core.clsd.run as run_mod

    started = threading.Event()
    monkeypatch.setattr(run_mod, "registry_model", blocking_model(started))

    async def scenario() -> None:
        screen = CLSDScreen(settings, data=str(TINY), models=["bow"])
        async with Host(screen).run_test(size=(150, 50)) as pilot:
            await pilot.press("ctrl+r")
            await _wait(pilot, started.is_set)
            await pilot.press("escape")
            await _wait(pilot, lambda: _status(screen) == "cancelled", timeout=20)
            assert screen.report is None
            assert not screen.query_one("#clsd-run").disabled

    asyncio.run(scenario())


def test_diff_words_marks_only_changed_words() -> None:
    t = diff_words("Die Katze schläft auf dem Sofa.", "Die Katze schläft unter dem Sofa.")
    assert t.plain == "Die Katze schläft unter dem Sofa."
    assert [t.plain[s.start : s.end] for s in t.spans] == ["unter"]


def test_progress_shows_the_current_model_and_eta(settings, monkeypatch) -> None:
    from textual.widgets import ProgressBar

    import core.clsd.run as run_mod

    started = threading.Event()
    monkeypatch.setattr(run_mod, "registry_model", blocking_model(started, steps=4))

    async def scenario() -> None:
        screen = CLSDScreen(settings, data=str(TINY), models=["bow"])
        async with Host(screen).run_test(size=(150, 50)) as pilot:
            await pilot.pause()
            bar = screen.query_one("#clsd-progress", ProgressBar)
            assert bar.total == 1 and bar.progress == 0  # still before a run
            await pilot.press("ctrl+r")
            await _wait(pilot, started.is_set)
            await pilot.pause(0.2)
            status = _status(screen)
            assert "bow: embedding" in status and "ETA" in status, status
            await pilot.press("escape")
            await _wait(pilot, lambda: _status(screen) == "cancelled", timeout=20)

    asyncio.run(scenario())
