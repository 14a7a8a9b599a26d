"""The garbage-collector tuning: pauses nest, survive exceptions and threads, and can be turned off."""

from __future__ import annotations

import gc
import threading

import pytest

from core import collector


def test_pause_turns_collection_off_and_back_on():
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():  # nested: still off
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_pause_restores_after_an_exception():
    with pytest.raises(RuntimeError), collector.paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_pause_leaves_a_disabled_collector_disabled():
    gc.disable()
    try:
        with collector.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_overlapping_pauses_from_threads_restore_once_the_last_ends():
    first_in, second_done = threading.Event(), threading.Event()
    seen: list[bool] = []

    def long_batch() -> None:
        with collector.paused():
            first_in.set()
            second_done.wait(5)
            seen.append(gc.isenabled())  # the other thread's exit must not turn it back on

    t = threading.Thread(target=long_batch)
    t.start()
    first_in.wait(5)
    with collector.paused():
        pass
    second_done.set()
    t.join(5)
    assert seen == [False]
    assert gc.isenabled()


def test_tuning_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("SMITH_GC_TUNING", "0")
    frozen = gc.get_freeze_count()
    assert collector.freeze_loaded("nothing") is False
    assert gc.get_freeze_count() == frozen
    with collector.paused():
        assert gc.isenabled()


def test_freeze_moves_live_objects_out_of_the_scans(monkeypatch):
    monkeypatch.delenv("SMITH_GC_TUNING", raising=False)
    keep = [[i] for i in range(1000)]  # tracked containers alive now
    assert collector.freeze_loaded("test lists") is True
    assert gc.get_freeze_count() >= len(keep)
