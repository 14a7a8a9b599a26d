"""Load-once resources of a worker process, built from picklable settings.

A :class:`~core.foils.pipeline.FoilPipeline` does not pickle (it holds a lock), so a worker
(process pool, Dask worker) is sent the :class:`~core.config.Settings` and builds its
own pipeline on first use; later tasks on that worker reuse it, so spaCy and WordNet
load once per worker, not once per task.

>>> from core.config import Settings
>>> pipeline_for(Settings()) is pipeline_for(Settings())
True
"""

from __future__ import annotations

import os
import threading
import time
from typing import TYPE_CHECKING, Any

from core.config import PipelineSettings, Settings

if TYPE_CHECKING:
    from core.foils.pipeline import FoilPipeline

_PIPELINES: dict[str, FoilPipeline] = {}
_LOCK = threading.Lock()


def _key(settings: PipelineSettings) -> str:
    return repr(settings)


def pipeline_for(settings: Settings | PipelineSettings) -> FoilPipeline:
    """This process's pipeline for ``settings`` (built on the first call, then reused)."""
    from core.foils.pipeline import FoilPipeline

    pipeline_settings = settings.pipeline if isinstance(settings, Settings) else settings
    key = _key(pipeline_settings)
    with _LOCK:
        if key not in _PIPELINES:
            _PIPELINES[key] = FoilPipeline.from_settings(pipeline_settings)
        return _PIPELINES[key]


def peak_rss_mb() -> float:
    """This process's peak resident memory in MiB (Linux/macOS)."""
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def warm_up(settings: Settings | PipelineSettings, validate: bool = True) -> dict[str, Any]:
    """Load the pipeline's backends now (parser, rules and lexicon, realizer, validators when
    ``validate``) and say what it cost: seconds, this process's id and its peak memory.

    Engines call it once per worker before the first shard, so start-up is measured apart
    from throughput.
    """
    from core.inputs import InputRow

    start = time.perf_counter()
    pipeline = pipeline_for(settings)
    # one real sentence through every stage: spaCy, WordNet and the lexicon tables load now
    list(pipeline.run([InputRow("warm-up", "The happy dog quickly chased the small cat.")], validate=validate))
    from core.provenance import environment

    return {
        "seconds": round(time.perf_counter() - start, 3),
        "pid": os.getpid(),
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "versions": environment()["packages"],
    }
