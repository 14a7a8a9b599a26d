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
    "FoilPipeline": ".foils.pipeline",
    "evaluate_triples": ".evaluate.evaluation",
    "read_triples": ".evaluate.triples",
    "get_embedder": ".embed.registry",
    "Settings": ".config",
    "load_settings": ".config",
}
__all__ = ["__version__", *_FACE]

__getattr__ = lazy_face(__name__, _FACE)
