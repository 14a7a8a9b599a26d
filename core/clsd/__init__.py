"""Cross-lingual semantic discrimination (CLSD): can a model pick the true translation out of distractors?

Modules, one concept each: :mod:`core.clsd.tasks` (items, tasks,
datasets), :mod:`core.clsd.data` (readers for the CLSD, pivot, swap-annotation and generic
layouts), :mod:`core.clsd.swaps` (swap annotations joined to a task), :mod:`core.clsd.metrics` (P@1, pooled
recall@1, overlaps, Levenshtein bins, similarity change), :mod:`core.clsd.pos`
(part-of-speech taggers for the swapped word), :mod:`core.clsd.pivot`
(English pivot texts from files or a seq2seq model), :mod:`core.clsd.distractors`
(new distractors from the foil engine or an OpenAI-compatible endpoint) and
:mod:`core.clsd.run` (the whole evaluation, with progress and cancel).

The face (each name loads on first use):

>>> import core.clsd
>>> core.clsd.run_clsd.__module__, core.clsd.read_dataset.__module__
('core.clsd.run', 'core.clsd.data')
"""

from __future__ import annotations

from core.faces import lazy_face

_FACE = {
    ".data": ("PIVOT", "check_pivot", "direction_label", "limit_rows", "read_dataset", "read_swaps"),
    ".distractors": ("PairRow", "distractor_rows", "generate"),
    ".pivot": ("make_translator", "translate_dataset", "write_clsd"),
    ".run": ("ModelSpec", "registry_model", "run_clsd"),
}
__getattr__, __all__ = lazy_face(__name__, _FACE)
