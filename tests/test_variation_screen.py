"""The Variation screen, headless: run a tiny book with the lexical baselines, see the maps, cancel, errors."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from textual.widgets import DataTable, Label, Sparkline, Static

from core.config import Settings
from core.progress import check_cancel
from core.variation.run import RegistrySource
from smithtui.screens.variation import VariationScreen, downsample, heatmap_text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_support import Host, wait_until

TINY = Path(__file__).resolve().parents[1] / "sample_data" / "tiny_book.txt"


async def _wait(pilot, predicate, timeout: float = 120.0) -> None:
    await wait_until(pilot, predicate, timeout)


def _status(screen: VariationScreen) -> str:
    return str(screen.query_one("#var-status", Label).render())


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> RegistrySource:
    return RegistrySource(tmp_path_factory.mktemp("screen-cache"))


def test_run_shows_maps_series_and_passages(source: RegistrySource) -> None:
    async def scenario() -> None:
        screen = VariationScreen(Settings(), books=[str(TINY)], models=["bow", "tfidf"], source=source)
        app = Host(screen)
        async with app.run_test(size=(140, 45)) as pilot:
            await pilot.press("ctrl+r")
            await _wait(pilot, lambda: screen.run_result is not None)
            await pilot.pause()
            corr = str(screen.query_one("#var-corr", Static).render())
            assert "SSM r" in corr and "bow" in corr and "tfidf" in corr
            assert "PAF" in str(screen.query_one("#var-fraction", Static).render())
            await pilot.press("m")
            assert "NAF" in str(screen.query_one("#var-fraction", Static).render())
            await pilot.press("m")
            assert "DDAF" in str(screen.query_one("#var-fraction", Static).render())
            spark = screen.query_one("#var-series", Sparkline)
            assert len(list(spark.data or [])) == len(screen.run_result.books[0].book) - 1
            await pilot.press("s")
            assert "tfidf" in str(screen.query_one("#var-series-label", Label).render())
            table = screen.query_one("#var-passages", DataTable)
            assert table.row_count >= 3
            assert "done: tiny_book" in _status(screen)

    asyncio.run(scenario())


class _SlowSource:
    """Wraps the real source; waits (cancellably) before encoding so the test can press escape mid-run."""

    def __init__(self, inner: RegistrySource) -> None:
        self.inner = inner
        self.started = threading.Event()

    def check(self, models) -> None:
        self.inner.check(models)

    def encode(self, model, texts, progress=None, cancel=None):
        self.started.set()
        for _ in range(200):
            check_cancel(cancel)
            time.sleep(0.05)
        return self.inner.encode(model, texts, progress, cancel)

    def info(self, model):
        return self.inner.info(model)


def test_cancel_stops_the_worker(source: RegistrySource) -> None:
    async def scenario() -> None:
        slow = _SlowSource(source)
        screen = VariationScreen(Settings(), books=[str(TINY)], models=["bow"], source=slow)
        app = Host(screen)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("ctrl+r")
            await _wait(pilot, slow.started.is_set)
            await pilot.press("escape")
            await _wait(pilot, lambda: "cancelled" in _status(screen))
            assert screen.run_result is None
            assert not screen.query_one("#var-run").disabled

    asyncio.run(scenario())


def test_bad_book_shows_a_message_not_a_crash(source: RegistrySource, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("")

    async def scenario() -> None:
        screen = VariationScreen(Settings(), books=[str(empty)], models=["bow"], source=source)
        app = Host(screen)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("ctrl+r")
            await _wait(pilot, lambda: "no usable book" in _status(screen))
            assert "is empty" in _status(screen)

    asyncio.run(scenario())


def test_heatmap_and_downsample_helpers() -> None:
    text = heatmap_text(np.array([[1.0, np.nan], [0.2, 1.0]]), ["alpha", "beta"], title="t", lo=0, hi=1)
    lines = text.plain.splitlines()
    assert lines[0] == "t" and "–" in lines[2] and "0.20" in lines[3]
    assert any(span.style and "rgb" in str(span.style) for span in text.spans)
    assert len(downsample(np.arange(1000.0), 100)) == 100


def test_run_and_cancel_buttons_work_like_the_keys(source: RegistrySource) -> None:
    async def scenario() -> None:
        slow = _SlowSource(source)
        screen = VariationScreen(Settings(), books=[str(TINY)], models=["bow"], source=slow)
        app = Host(screen)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.click("#var-run")
            await _wait(pilot, slow.started.is_set)
            assert screen.query_one("#var-run").disabled and not screen.query_one("#var-cancel").disabled
            await pilot.click("#var-cancel")
            await _wait(pilot, lambda: "cancelled" in _status(screen))
            assert not screen.query_one("#var-run").disabled and screen.query_one("#var-cancel").disabled

    asyncio.run(scenario())


class _SteppingSource(_SlowSource):
    """Reports real progress in steps, then holds (cancellably) so the test reads the status mid-run."""

    def encode(self, model, texts, progress=None, cancel=None):
        for done in range(0, len(texts) + 1, max(1, len(texts) // 5)):
            check_cancel(cancel)
            time.sleep(0.1)
            if progress is not None:
                progress(done, len(texts))
        self.started.set()
        for _ in range(400):
            check_cancel(cancel)
            time.sleep(0.05)
        return self.inner.encode(model, texts, progress, cancel)


def test_progress_shows_the_stage_model_and_eta_and_the_bar_is_still_before_a_run(source: RegistrySource) -> None:
    from textual.widgets import ProgressBar

    async def scenario() -> None:
        slow = _SteppingSource(source)
        screen = VariationScreen(Settings(), books=[str(TINY)], models=["bow"], source=slow)
        async with Host(screen).run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            bar = screen.query_one("#var-progress", ProgressBar)
            assert bar.total == 1 and bar.progress == 0  # a set total: no indeterminate animation before a run
            await pilot.press("ctrl+r")
            await _wait(pilot, slow.started.is_set)
            await pilot.pause(0.2)
            status = _status(screen)
            assert "embed tiny_book · bow" in status and "ETA" in status, status
            done, total = screen.counts
            assert 0 < done <= total and f"{done}/{total}" in status
            await pilot.press("escape")
            await _wait(pilot, lambda: "cancelled" in _status(screen))
            assert bar.total == 1 and bar.progress == 0  # still again once idle

    asyncio.run(scenario())


def test_slash_filters_the_passage_list(source: RegistrySource) -> None:
    async def scenario() -> None:
        screen = VariationScreen(Settings(), books=[str(TINY)], models=["bow", "tfidf"], source=source)
        async with Host(screen).run_test(size=(120, 40)) as pilot:
            await pilot.press("ctrl+r")
            await _wait(pilot, lambda: screen.run_result is not None)
            await pilot.pause()
            table = screen.query_one("#var-passages", DataTable)
            every = screen.run_result.books[0].passages
            assert table.row_count == len(every) >= 3
            word = next(w for w in every[0].text.split() if len(w) > 4).strip(".,;:!?\"'").lower()
            await pilot.press("slash")
            assert screen.focused is screen.query_one("#var-search")
            for ch in word:
                await pilot.press(ch)  # m and s are typed, not taken as keys
            await pilot.pause()
            wanted = [p for p in every if word in f"{p.sentence_id} {p.text}".lower()]
            assert 1 <= table.row_count == len(wanted) <= len(every)
            shown = [str(table.get_row_at(i)[5]).lower() for i in range(table.row_count)]
            assert all(word in text for text in shown)
            assert f"{len(wanted)} of {len(every)} match" in str(screen.query_one("#var-passages-label", Label).render())
            await pilot.press("escape")  # back to the table, nothing cancelled, the filter kept
            assert screen.focused is table and table.row_count == len(wanted)
            assert "done: tiny_book" in _status(screen)
            await pilot.press("slash", *["backspace"] * len(word), "enter")
            await pilot.pause()
            assert table.row_count == len(every) and screen.focused is table
            await pilot.resize_terminal(80, 24)  # at 80 columns each passage is cut to fit, with an ellipsis
            await pilot.pause()
            widths = [sum(c.get_render_width(table) for c in table.columns.values())]
            assert widths[0] <= 80 - 2, widths
            assert any(str(table.get_row_at(i)[5]).endswith("…") for i in range(table.row_count))

    asyncio.run(scenario())
