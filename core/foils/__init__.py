"""The foil engine: parse a sentence into a graph, edit it by rule, realize and validate the foils.

Its face (what the workbench and the commands use; each name loads on first use, so
``import core.foils`` stays light):

>>> import core.foils
>>> core.foils.FoilPipeline.__module__
'core.foils.pipeline'
"""

from __future__ import annotations

from core.faces import lazy_face

_FACE = {
    "FoilPipeline": ".pipeline",
    "available_backends": ".registry",
    "check_backends": ".registry",
    "make_parser": ".registry",
    "selected_backends": ".registry",
    "write_amr_corpus": ".amr.export",
    "score_parser": ".amr.smatch",
}
__all__ = list(_FACE)

__getattr__ = lazy_face(__name__, _FACE)
