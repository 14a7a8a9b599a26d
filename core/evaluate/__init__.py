"""Evaluating embedders on (sentence, paraphrase, foil) triples: readers, metrics, spot checks, hardness.

Its face (each name loads on first use):

>>> import core.evaluate
>>> core.evaluate.evaluate_triples.__module__, core.evaluate.table_rows.__module__
('core.evaluate.evaluation', 'core.evaluate.table')
"""

from __future__ import annotations

from core.faces import lazy_face

_FACE = {
    ".evaluation": ("BLIND_PREFIX", "compare_results", "evaluate_triples", "is_blind"),
    ".hardness": ("hardness_report", "markdown_table", "rebalanced_records", "summary_rows"),
    ".metrics": ("check_n_boot",),
    ".plots": ("plot_eval",),
    ".rebalance": ("check_bounds", "plan_rebalance", "rebalance_scorer", "rebalance_set", "rebalance_triples"),
    ".spotcheck": ("check_model",),
    ".spread": ("evaluate_spread",),
    ".table": ("table_rows", "write_table"),
    ".triples": ("read_triples", "triples_from_records"),
}
__getattr__, __all__ = lazy_face(__name__, _FACE)
