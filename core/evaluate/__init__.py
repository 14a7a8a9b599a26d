"""Evaluating embedders on (sentence, paraphrase, foil) triples: readers, metrics, spot checks, hardness.

Its face (each name loads on first use):

>>> import core.evaluate
>>> core.evaluate.evaluate_triples.__module__, core.evaluate.table_rows.__module__
('core.evaluate.evaluation', 'core.evaluate.table')
"""

from __future__ import annotations

from core.faces import lazy_face

_FACE = {
    "BLIND_PREFIX": ".evaluation",
    "compare_results": ".evaluation",
    "evaluate_triples": ".evaluation",
    "is_blind": ".evaluation",
    "hardness_report": ".hardness",
    "markdown_table": ".hardness",
    "summary_rows": ".hardness",
    "check_n_boot": ".metrics",
    "plot_eval": ".plots",
    "check_model": ".spotcheck",
    "evaluate_spread": ".spread",
    "table_rows": ".table",
    "write_table": ".table",
    "read_triples": ".triples",
    "triples_from_records": ".triples",
}
__all__ = list(_FACE)

__getattr__ = lazy_face(__name__, _FACE)
