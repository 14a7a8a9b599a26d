"""Semantic variation in long texts (Mistry & Minai): books, SSMs, model agreement, novelty, figures.

Modules: :mod:`books` (text to sentences), :mod:`ssm` (similarity matrices, full and blocked),
:mod:`agreement` (Pearson maps, PAF/NAF/DDAF), :mod:`novelty`, :mod:`figures` (matplotlib, lazy),
:mod:`run` (the whole study over books and models, with output files).

The face (each name loads on first use):

>>> import core.variation
>>> core.variation.run_variation.__module__, core.variation.SSMParams.__module__
('core.variation.run', 'core.variation.ssm')
"""

from __future__ import annotations

from core.faces import lazy_face

_FACE = {
    ".novelty": ("NoveltyParams",),
    ".run": ("RegistrySource", "VariationConfig", "VariationEvent", "run_variation"),
    ".ssm": ("SSMParams",),
}
__getattr__, __all__ = lazy_face(__name__, _FACE)
