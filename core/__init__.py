"""SentenceSmith core: the headless library behind the workbench.

It never imports ``textual`` or ``smithtui``; heavy ML libraries are imported
only inside the backend that needs them. The names below are its face, loaded
on first use (``import core`` stays cheap):

>>> import core
>>> core.FoilPipeline.__module__, core.evaluate_triples.__module__
('core.foils.pipeline', 'core.evaluate.evaluation')
"""

from __future__ import annotations

from core.faces import lazy_face

__version__ = "0.1.0"

_FACE = {
    ".foils.pipeline": ("FoilPipeline",),
    ".evaluate.evaluation": ("evaluate_triples",),
    ".evaluate.triples": ("read_triples",),
    ".embed.registry": ("get_embedder",),
    ".config": ("Settings", "load_settings"),
}
__getattr__, _names = lazy_face(__name__, _FACE)
__all__ = ["__version__", *_names]
