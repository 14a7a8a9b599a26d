"""Semantic variation in long texts (Mistry & Minai): books, SSMs, model agreement, novelty, figures.

Modules: :mod:`books` (text to sentences), :mod:`ssm` (similarity matrices, full and blocked),
:mod:`agreement` (Pearson maps, PAF/NAF/DDAF), :mod:`novelty`, :mod:`figures` (matplotlib, lazy),
:mod:`run` (the whole study over books and models, with output files).
"""
