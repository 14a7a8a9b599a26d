"""Workbench responsiveness: first frame, generate key → filled candidates table, cancel → idle.

1. First frame: a fresh interpreter runs ``smithtui`` headless (real settings, a
   temporary journal) and reports when the first frame has been drawn; the time
   is measured from just before the process starts (interpreter start and all
   imports included). Target ≤ 1.0 s.
2. Generate → table: with the default backends (spaCy parser, WordNet rules,
   realizer, round-trip validator) and three embedders (bow, tfidf, minilm) already
   loaded, press ctrl+g on a 20-word sentence and time until the table has its rows
   ("rows") and until every cell is filled: three margins, the fluency deltas and the verdicts ("all").
   Target ≤ 0.5 s for the rows.
3. Cancel → idle, on every job screen: Compare (three models over the shared PAWS
   triples), Variation (MiniLM over a shared Austen novel) and CLSD (MiniLM over the
   shared WMT19 set), each with an empty embedding cache so the job really computes.
   Once the job has reported progress, press escape and time until the screen is idle
   again (Run enabled), and until its worker thread has really stopped. Target ≤ 2 s.
   Skipped when the shared data is absent.

Prints medians, the ratio to each target and the machine's load average (the
machines are shared; a busy machine inflates every figure).

    python bench/tui.py [--runs 5] [--skip first,generate,cancel]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("NLTK_DATA", str(ROOT / ".nltk_data"))

FIRST_FRAME_TARGET = 1.0
GENERATE_TARGET = 0.5
CANCEL_TARGET = 2.0
SHARED = Path(os.environ.get("SMITH_SHARED_DATA", ROOT.parent / "shared" / "data"))
if not SHARED.exists():
    SHARED = Path("/work/shared/data")
MODELS = ("bow", "tfidf", "minilm")
SENTENCES_20 = (
    "The young doctor quickly treated the injured boy in the small hospital near the old railway station early yesterday morning.",
    "My older sister bought a red bicycle for her son because he finally passed his difficult driving test last week.",
    "The angry farmer chased the hungry fox away from the chicken house before the little children woke up this morning.",
    "A famous young architect designed the tall glass tower that now dominates the skyline of the busy old harbour city.",
    "The city committee rejected the expensive new proposal after a long debate because the mayor did not trust the builders.",
)

CHILD = r"""
import sys, time
sys.path.insert(0, {root!r})
from core.config import load_settings
from smithtui.app import make_app

def first(app):
    print("FIRST_FRAME", flush=True)
    app.exit()

app = make_app(load_settings(), journal={journal!r}, restore="never", warm=False, on_first_frame=first)
app.run(headless=True, size=(120, 40))
"""


def first_frame_times(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            code = CHILD.format(root=str(ROOT), journal=str(Path(tmp) / "journal.jsonl"))
            start = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp
            )
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("FIRST_FRAME"):
                    times.append(time.perf_counter() - start)
                    break
            proc.wait(timeout=60)
    return times


async def generate_times(runs: int) -> tuple[list[float], list[float], int]:
    from core.config import Settings, apply_overrides
    from smithtui.app import Backends, make_app

    settings = apply_overrides(Settings(), {"models.embedders": ",".join(MODELS)})
    backends = Backends(settings)
    backends.warm_pipeline()
    _ = backends.pipeline().validators
    backends.provenance()
    for name in MODELS:
        backends.embedder(name)
    rows_t: list[float] = []
    all_t: list[float] = []
    n_rows = 0
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(settings, backends=backends, journal=Path(tmp) / "j.jsonl", restore="never", warm=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            # one warm-up pass so that first-call costs (lazy imports, WordNet caches) are not counted
            for sentence in (SENTENCES_20[0], *[SENTENCES_20[i % len(SENTENCES_20)] for i in range(runs)]):
                screen.query_one("#sentence").value = sentence
                await pilot.press("ctrl+g")
                while "done" not in screen.timings:
                    await asyncio.sleep(0.002)
                await app.workers.wait_for_complete()
                await pilot.pause()
                t = screen.timings
                rows_t.append(t["candidates"] - t["pressed"])
                all_t.append(max(v for k, v in t.items() if k in ("verdicts", "fluency") or k.startswith("model:")) - t["pressed"])
                n_rows = max(n_rows, len(screen.rows))
    return rows_t[1:], all_t[1:], n_rows


async def _wait(predicate: object, timeout: float) -> bool:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if predicate():  # type: ignore[operator]
            return True
        await asyncio.sleep(0.005)
    return False


async def cancel_times(runs: int) -> dict[str, list[float]]:
    """Seconds from escape to an idle screen and to a stopped worker, per job screen (a fresh, empty cache each run)."""
    from textual.widgets import Input, ProgressBar, SelectionList

    from core.config import Settings, apply_overrides
    from smithtui.app import make_app

    paws = SHARED / "sentencesmith" / "paws_samples_1737x6.csv"
    book = SHARED / "books" / "austen_emma.txt"
    clsd = SHARED / "clsd" / "CLSD_wmt2019_adversarial_dataset.csv"
    out: dict[str, list[float]] = {"compare": [], "variation": [], "clsd": []}
    stopped: dict[str, list[float]] = {name: [] for name in out}
    if not (paws.exists() and book.exists() and clsd.exists()):
        print(f"cancel → idle: shared data not found under {SHARED}; skipped")
        return {}
    for _ in range(runs):
        for screen_name in out:
            with tempfile.TemporaryDirectory() as tmp:
                settings = apply_overrides(
                    Settings(), {"models.embedders": "minilm", "models.cache_dir": str(Path(tmp) / "cache")}
                )
                app = make_app(settings, journal=Path(tmp) / "j.jsonl", restore="never", warm=False)
                async with app.run_test(size=(120, 40)) as pilot:
                    await pilot.pause()
                    key = {"compare": "f3", "variation": "f5", "clsd": "f6"}[screen_name]
                    await pilot.press(key)
                    await pilot.pause()
                    screen = app.screen
                    if screen_name == "compare":
                        screen.load_worker(str(paws))
                        await _wait(lambda s=screen: s.source == str(paws), 60)
                        bar, idle = screen.query_one("#progress", ProgressBar), (lambda s=screen: not s.running)
                    elif screen_name == "variation":
                        screen.query_one("#var-books", Input).value = str(book)
                        screen.query_one("#var-models", Input).value = "minilm"
                        bar, idle = screen.query_one("#var-progress", ProgressBar), (lambda s=screen: s._cancel is None)
                    else:
                        screen.query_one("#clsd-data", Input).value = str(clsd)
                        models = screen.query_one("#clsd-models", SelectionList)
                        models.deselect_all()
                        models.select("minilm")
                        bar, idle = screen.query_one("#clsd-progress", ProgressBar), (lambda s=screen: s._cancel is None)
                    await pilot.press("ctrl+r")
                    started = await _wait(lambda b=bar: (b.progress or 0) > 0, 120)
                    if not started:
                        print(f"  {screen_name}: the job reported no progress within 120 s; run skipped")
                        continue
                    t0 = time.perf_counter()
                    await pilot.press("escape")
                    if await _wait(idle, 120):
                        out[screen_name].append(time.perf_counter() - t0)
                    await app.workers.wait_for_complete()
                    stopped[screen_name].append(time.perf_counter() - t0)
    return {**out, **{f"{name} (worker stopped)": times for name, times in stopped.items()}}


def report(label: str, times: list[float], target: float | None = None) -> None:
    if not times:
        print(f"{label:<48} no measurement")
        return
    med = statistics.median(times)
    line = f"{label:<48} median {med:6.3f} s  (min {min(times):.3f}, max {max(times):.3f}, n={len(times)})"
    if target:
        line += f"  ratio to target {med / target:.2f} (target ≤ {target} s)"
    print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: first, generate, cancel")
    args = parser.parse_args()
    skip = {p.strip() for p in args.skip.split(",") if p.strip()}
    print(f"cpus {os.cpu_count()}  load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if "first" not in skip:
        report("time to first frame (process start → frame)", first_frame_times(args.runs), FIRST_FRAME_TARGET)
    if "generate" not in skip:
        rows, full, n = asyncio.run(generate_times(args.runs))
        report(f"generate key → candidates table rows ({n} max)", rows, GENERATE_TARGET)
        report(f"generate key → every cell ({len(MODELS)} models, fluency, verdicts)", full)
    if "cancel" not in skip:
        for name, times in asyncio.run(cancel_times(max(1, args.runs // 2))).items():
            report(f"cancel → idle on {name}", times, CANCEL_TARGET)
    print(f"load average after {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
