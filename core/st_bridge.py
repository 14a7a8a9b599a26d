"""sentence-transformers bridge: a foil evaluator for ST training loops.

``FoilTripletEvaluator(triples)`` is a ``sentence_transformers`` evaluator (built on first use,
so importing this module never imports torch): pass it to ``SentenceTransformerTrainer(evaluator=...)``
or call it on a model. It scores the model with :func:`core.evaluate.evaluation.evaluate_triples`, so its
TACC/AUC/HM are exactly ``smithtui eval``'s, overall and per rule::

    from core.st_bridge import FoilTripletEvaluator
    evaluator = FoilTripletEvaluator("held_out.parquet", name="foils")
    evaluator(model)  # {"foils_tacc": 0.71, "foils_auc": ..., "foils_PN_tacc": ..., ...}

Sentence, paraphrase and foil are embedded alike with ``model.encode`` (``encode="symmetric"``,
the paper's setting); ``encode="query-document"`` uses ``encode_query`` for the sentence and
``encode_document`` for the rest, as ST's own ``TripletEvaluator`` does.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any


def metrics_of(result: Any, rules: bool = True) -> dict[str, float]:
    """Flat metrics of one :class:`~core.evaluate.results.ModelResult`: ``tacc, auc, hm`` and ``<RULE>_tacc`` etc.

    >>> from core.evaluate.results import ModelResult, RuleResult
    >>> m = ModelResult("x", True, tacc=0.5, auc=0.75, hm=0.6, per_rule={"PN": RuleResult("PN", 2, 0.0, 0.5, 0.0, 0)})
    >>> metrics_of(m)
    {'tacc': 0.5, 'auc': 0.75, 'hm': 0.6, 'PN_tacc': 0.0, 'PN_auc': 0.5, 'PN_hm': 0.0}
    """
    out = {"tacc": float(result.tacc), "auc": float(result.auc), "hm": float(result.hm)}
    if rules:
        for rule, r in result.per_rule.items():
            out |= {f"{rule}_tacc": float(r.tacc), f"{rule}_auc": float(r.auc), f"{rule}_hm": float(r.hm)}
    return out


def _build_class() -> type:
    from sentence_transformers.evaluation import SentenceEvaluator

    from core.evaluate.evaluation import evaluate_triples
    from core.evaluate.triples import TripleSet, read_triples

    class FoilTripletEvaluator(SentenceEvaluator):
        """Per-rule TACC/AUC/HM of a model on foil triples (a file path, a TripleSet, or records)."""

        def __init__(
            self,
            triples: str | os.PathLike[str] | TripleSet | Iterable[Mapping[str, Any]],
            *,
            name: str = "foils",
            ties: str = "strict",
            encode: str = "symmetric",
            per_rule: bool = True,
        ) -> None:
            super().__init__()
            self.triples = read_triples(triples) if isinstance(triples, str | os.PathLike) else triples
            self.name, self.ties, self.encode, self.per_rule = name, ties, encode, per_rule
            self.primary_metric = "tacc"  # as MTEB main_score; auc and hm are reported beside it
            self.last_result: Any = None

        def __call__(self, model: Any, output_path: str | None = None, epoch: int = -1, steps: int = -1) -> dict:
            result = evaluate_triples(self.triples, [model], cache=None, n_boot=0, ties=self.ties, encode=self.encode)
            self.last_result = result
            scored = result.models[0]
            if not scored.ok:
                from core.errors import SmithError

                raise SmithError(f"foil evaluation failed: {scored.error}", hint=scored.hint)
            metrics = self.prefix_name_to_metrics(metrics_of(scored, self.per_rule), self.name)
            self.store_metrics_in_model_card_data(model, metrics, epoch, steps)
            return metrics

        def get_config_dict(self) -> dict[str, Any]:
            return {"ties": self.ties, "encode": self.encode}

    return FoilTripletEvaluator


_built: dict[str, type] = {}


def __getattr__(name: str) -> Any:
    if name == "FoilTripletEvaluator":
        if name not in _built:
            _built[name] = _build_class()
        return _built[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
