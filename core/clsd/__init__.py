"""Cross-lingual semantic discrimination (CLSD): can a model pick the true translation out of distractors?

Modules, one concept each: :mod:`core.clsd.tasks` (items, tasks,
datasets), :mod:`core.clsd.data` (readers for the CLSD, pivot, swap-annotation and generic
layouts), :mod:`core.clsd.swaps` (swap annotations joined to a task), :mod:`core.clsd.metrics` (P@1, pooled
recall@1, overlaps, Levenshtein bins, similarity change), :mod:`core.clsd.pos`
(part-of-speech taggers for the swapped word), :mod:`core.clsd.pivot`
(English pivot texts from files or a seq2seq model), :mod:`core.clsd.distractors`
(new distractors from the foil engine or an OpenAI-compatible endpoint) and
:mod:`core.clsd.run` (the whole evaluation, with progress and cancel).
"""
