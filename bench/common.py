"""Shared helpers for the benchmarks: timing medians, sample sentences, shared data lookup."""

from __future__ import annotations

import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("SMITH_SHARED_DATA", ROOT.parent / "shared" / "data"))
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("NLTK_DATA", str(ROOT / ".nltk_data"))


def median_time(fn: Callable[[], Any], repeats: int = 3) -> tuple[float, Any]:
    """Median wall time of ``repeats`` calls and the last result."""
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def book_sentences(name: str = "austen_emma.txt", n: int = 600, min_words: int = 5, max_words: int = 30) -> list[str]:
    """``n`` ordinary sentences from a shared-data novel (simple regex split; the bench needs text, not precision)."""
    path = SHARED_DATA / "books" / name
    if not path.exists():
        raise SystemExit(f"shared data not found at {path}; set SMITH_SHARED_DATA")
    text = path.read_text(encoding="utf-8", errors="replace")
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
    out: list[str] = []
    for para in paragraphs:
        for sent in re.split(r"(?<=[.!?])\s+(?=[A-Z\"'])", para):
            words = sent.split()
            if min_words <= len(words) <= max_words and sent[-1:] in ".!?" and not sent.isupper():
                out.append(sent.strip("_ "))
                if len(out) >= n:
                    return out
    return out
