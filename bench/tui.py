"""Workbench responsiveness: time to first frame, and generate key → filled candidates table.

1. First frame: a fresh interpreter runs ``smithtui`` headless (real settings, a
   temporary journal) and reports when the first frame has been drawn; the time
   is measured from just before the process starts (interpreter start and all
   imports included). Target ≤ 1.5 s.
2. Generate → table: with the default backends (spaCy parser, WordNet rules,
   realizer, round-trip validator) and three embedders (bow, tfidf, minilm) already
   loaded, press ctrl+g on a 20-word sentence and time until the table has its rows
   ("rows") and until every cell is filled: three margins and the verdicts ("all").
   Target ≤ 0.5 s for the rows.

Prints medians, the ratio to each target and the machine's load average (the
machines are shared; a busy machine inflates every figure).

    python bench/tui.py [--runs 5]
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

FIRST_FRAME_TARGET = 1.5
GENERATE_TARGET = 0.5
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
                all_t.append(max(v for k, v in t.items() if k in ("verdicts",) or k.startswith("model:")) - t["pressed"])
                n_rows = max(n_rows, len(screen.rows))
    return rows_t[1:], all_t[1:], n_rows


def report(label: str, times: list[float], target: float | None = None) -> None:
    med = statistics.median(times)
    line = f"{label:<48} median {med:6.3f} s  (min {min(times):.3f}, max {max(times):.3f}, n={len(times)})"
    if target:
        line += f"  ratio to target {med / target:.2f} (target ≤ {target} s)"
    print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"cpus {os.cpu_count()}  load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    report("time to first frame (process start → frame)", first_frame_times(args.runs), FIRST_FRAME_TARGET)
    rows, full, n = asyncio.run(generate_times(args.runs))
    report(f"generate key → candidates table rows ({n} max)", rows, GENERATE_TARGET)
    report(f"generate key → every cell ({len(MODELS)} models + verdicts)", full)
    print(f"load average after {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
