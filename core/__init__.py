"""SentenceSmith core: the headless library behind the workbench.

It never imports ``textual`` or ``smithtui``; heavy ML libraries are imported
only inside the backend that needs them. The names below are its face, loaded
on first use (``import core`` stays cheap):

>>> import core
>>> core.FoilPipeline.__module__, core.evaluate_triples.__module__
('core.foils.pipeline', 'core.evaluate.evaluation')
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_FACE = {
    "FoilPipeline": "core.foils.pipeline",
    "evaluate_triples": "core.evaluate.evaluation",
    "read_triples": "core.evaluate.triples",
    "get_embedder": "core.embed.registry",
    "Settings": "core.config",
    "load_settings": "core.config",
}
__all__ = ["__version__", *_FACE]


def __getattr__(name: str) -> Any:
    if name not in _FACE:
        raise AttributeError(f"module 'core' has no attribute {name!r}")
    return getattr(importlib.import_module(_FACE[name]), name)
