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
    ".pipeline": ("FoilPipeline",),
    ".events": (
        "Parsed",
        "EditsFound",
        "CandidatesRealized",
        "SpotChecked",
        "FluencyScored",
        "Verdicts",
        "Decided",
        "StageFailed",
        "Event",
        "explore",
        "score",
        "spot_check",
        "failure",
    ),
    ".registry": ("available_backends", "check_backends", "make_parser", "selected_backends"),
    ".amr.export": ("write_amr_corpus",),
    ".amr.smatch": ("score_parser",),
}
__getattr__, __all__ = lazy_face(__name__, _FACE)
