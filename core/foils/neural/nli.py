"""NLI validation with any Hugging Face sequence-classification model (hub id or local folder).

The paper keeps a foil when an NLI model (``juliussteen/DeBERTa-v3-FaithAug``) says the foil
contradicts the source with probability > 0.9. This validator scores both directions
(source → foil, ``fwd``; foil → source, ``rev``) in batches and returns all three
probabilities per direction in :attr:`Verdict.probabilities` (``fwd.contradiction``,
``rev.entailment``, ...); the filter policies (:mod:`core.foils.policies`) decide.

Labels come from the model's ``id2label`` (case-insensitive; ``entailment``/``neutral``/
``contradiction`` and common variants); models with unnamed labels (``LABEL_0``...) need
the order spelled out (``pipeline.nli_labels``).

>>> map_labels({0: "CONTRADICTION", 1: "Neutral", 2: "entailment"})
{'entailment': 2, 'neutral': 1, 'contradiction': 0}
>>> map_labels({"0": "LABEL_0", "1": "LABEL_1", "2": "LABEL_2"}, ["entailment", "neutral", "contradiction"])
{'entailment': 0, 'neutral': 1, 'contradiction': 2}
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from core.config import PipelineSettings
from core.errors import ConfigError, InputError, ModelMissingError
from core.foils.neural.loading import locate_model, quiet_transformers, read_json
from core.hub import load_once, resolve_device
from core.progress import ProgressCallback, check_cancel, report
from core.types import FoilCandidate, Verdict

LABELS: tuple[str, ...] = ("entailment", "neutral", "contradiction")
DIRECTIONS: tuple[str, ...] = ("fwd", "rev")
PAPER_THRESHOLD = 0.9
_SYNONYMS = {
    "entailment": "entailment",
    "entail": "entailment",
    "entails": "entailment",
    "entailed": "entailment",
    "neutral": "neutral",
    "contradiction": "contradiction",
    "contradict": "contradiction",
    "contradicts": "contradiction",
    "contradictory": "contradiction",
    "contradicted": "contradiction",
}
_LABEL_HINT = 'set pipeline.nli_labels to the label order of the model, e.g. ["contradiction", "neutral", "entailment"]'


def canonical_label(name: str) -> str | None:
    """``'CONTRADICTION'`` → ``'contradiction'``; None for names that are not NLI labels."""
    return _SYNONYMS.get(re.sub(r"[^a-z]", "", str(name).lower()))


def map_labels(
    id2label: Mapping[Any, str], override: Sequence[str] = (), *, model: str = "the model"
) -> dict[str, int]:
    """``{"entailment": i, "neutral": j, "contradiction": k}`` for a classifier's output indices.

    ``override`` lists the labels in the model's index order and wins over ``id2label``.
    Raises :class:`ConfigError` for a classifier without exactly three labels, unnamed
    labels without an override, or names that are not NLI labels.
    """
    names = {int(k): str(v) for k, v in id2label.items()}
    if sorted(names) != list(range(len(names))):
        raise ConfigError(
            f"{model}: id2label indices {sorted(names)} are not 0..n-1", hint="fix the model's config.json"
        )
    if len(names) != 3:
        shown = ", ".join(names[i] for i in sorted(names))
        raise ConfigError(
            f"{model} is a {len(names)}-label classifier ({shown}); NLI validation needs 3 labels "
            "(entailment, neutral, contradiction)",
            hint="use a 3-way NLI model (MNLI/SNLI/ANLI-style), e.g. juliussteen/DeBERTa-v3-FaithAug",
        )
    if override:
        if len(override) != 3:
            raise ConfigError(f"pipeline.nli_labels has {len(override)} names; {model} has 3 labels", hint=_LABEL_HINT)
        mapped = [canonical_label(n) for n in override]
        source = "pipeline.nli_labels"
    else:
        mapped = [canonical_label(names[i]) for i in range(3)]
        source = f"{model}'s id2label"
        if all(re.fullmatch(r"label_?\d+", names[i].lower()) for i in range(3)):
            raise ConfigError(
                f"{model} has unnamed labels ({', '.join(names[i] for i in range(3))}); "
                "which index is contradiction is unknown",
                hint=_LABEL_HINT + " (see the model card)",
            )
    if sorted(m or "" for m in mapped) != sorted(LABELS):
        shown = ", ".join(override) if override else ", ".join(names[i] for i in range(3))
        raise ConfigError(
            f"{source} ({shown}) is not a permutation of entailment, neutral, contradiction", hint=_LABEL_HINT
        )
    return {label: mapped.index(label) for label in LABELS}


def read_id2label(folder: str | Path) -> dict[int, str]:
    """A model folder's ``id2label`` from its config.json, without loading weights."""
    config = read_json(Path(folder) / "config.json", what=f"NLI model {folder}", hint="the folder is incomplete")
    id2label = config.get("id2label")
    if not isinstance(id2label, dict) or not id2label:
        n = int(config.get("num_labels", 2))
        return {i: f"LABEL_{i}" for i in range(n)}
    return {int(k): str(v) for k, v in id2label.items()}


def describe(probs: Mapping[str, float], direction: str) -> str:
    """``'fwd contradiction 0.97 (neutral 0.02, entailment 0.01)'`` (highest first)."""
    ranked = sorted(LABELS, key=lambda lab: -probs[lab])
    rest = ", ".join(f"{lab} {probs[lab]:.2f}" for lab in ranked[1:])
    return f"{direction} {ranked[0]} {probs[ranked[0]]:.2f} ({rest})"


class NLIValidator:
    """Scores (source, foil) pairs in both directions with a 3-way NLI classifier."""

    name = "nli"

    def __init__(
        self,
        model: str,
        *,
        labels: Sequence[str] = (),
        device: str = "cpu",
        batch_size: int = 16,
        max_length: int = 256,
        threshold: float = PAPER_THRESHOLD,
    ) -> None:
        if int(batch_size) < 1:
            raise ConfigError(f"pipeline.batch_size must be at least 1 (got {batch_size})")
        self.spec = model
        self.path = _locate(model)
        self.labels = tuple(labels)
        self.label_index: dict[str, int] | None = None
        if Path(self.path).is_dir():  # a hub id still to download is checked once loaded
            self.label_index = map_labels(read_id2label(self.path), self.labels, model=f"NLI model {model}")
        self.device = resolve_device(device)
        self.batch_size = int(batch_size)
        self.max_length = int(max_length)
        self.threshold = float(threshold)

    @classmethod
    def from_settings(cls, pipeline: PipelineSettings) -> NLIValidator:
        return cls(
            pipeline.nli_model, labels=pipeline.nli_labels, device=pipeline.device, batch_size=pipeline.batch_size
        )

    @property
    def info(self) -> dict[str, Any]:
        from core.provenance import package_version

        return {
            "backend": "nli",
            "model": self.spec,
            "path": self.path,
            "labels": self.label_index,
            "device": self.device,
            "batch_size": self.batch_size,
            "max_length": self.max_length,
            "threshold": self.threshold,
            "transformers": package_version("transformers"),
        }

    def load(self) -> None:
        """Load the model now (it is otherwise loaded on the first batch)."""
        self._model()

    def _model(self) -> tuple[Any, Any, threading.Lock]:
        def build() -> tuple[Any, Any, threading.Lock]:
            quiet_transformers()
            from transformers import AutoModelForSequenceClassification, AutoTokenizer

            local = Path(self.path).is_dir()
            try:
                tokenizer = AutoTokenizer.from_pretrained(self.path, local_files_only=local)
                model = AutoModelForSequenceClassification.from_pretrained(self.path, local_files_only=local)
            except Exception as exc:
                raise ModelMissingError(
                    f"cannot load NLI model {self.spec}: {type(exc).__name__}: {exc}",
                    hint="DeBERTa-v3 tokenizers need sentencepiece (pip install sentencepiece); "
                    "check that the folder holds config, weights and tokenizer files",
                ) from exc
            model.to(self.device).eval()
            return model, tokenizer, threading.Lock()

        model, tokenizer, lock = load_once(("nli", self.path, self.device), build)
        if self.label_index is None:
            self.label_index = map_labels(model.config.id2label, self.labels, model=f"NLI model {self.spec}")
        return model, tokenizer, lock

    def predict(
        self,
        premises: Sequence[str],
        hypotheses: Sequence[str],
        *,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> list[dict[str, float]]:
        """``{"entailment": p, "neutral": p, "contradiction": p}`` for each premise → hypothesis pair."""
        if len(premises) != len(hypotheses):
            raise InputError(f"{len(premises)} premises but {len(hypotheses)} hypotheses")
        if not premises:
            return []
        import torch

        model, tokenizer, lock = self._model()
        assert self.label_index is not None
        max_len = min(self.max_length, int(getattr(tokenizer, "model_max_length", self.max_length) or self.max_length))
        order = sorted(range(len(premises)), key=lambda i: len(premises[i]) + len(hypotheses[i]), reverse=True)
        out: list[dict[str, float]] = [{} for _ in premises]
        for start in range(0, len(order), self.batch_size):
            check_cancel(cancel)
            chunk = order[start : start + self.batch_size]
            with lock, torch.inference_mode():
                enc = tokenizer(
                    [premises[i] for i in chunk],
                    [hypotheses[i] for i in chunk],
                    padding=True,
                    truncation=True,
                    max_length=max_len,
                    return_tensors="pt",
                ).to(self.device)
                probs = model(**enc).logits.float().softmax(-1).cpu().tolist()
            for i, row in zip(chunk, probs, strict=True):
                out[i] = {label: float(row[idx]) for label, idx in self.label_index.items()}
            report(progress, min(start + self.batch_size, len(order)), len(order))
        return out

    def score_pairs(
        self,
        sources: Sequence[str],
        foils: Sequence[str],
        *,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> list[Verdict]:
        """One verdict per (source, foil): both directions; ``passed`` is the paper's fwd contradiction > 0.9."""
        if len(sources) != len(foils):
            raise InputError(f"{len(sources)} sources but {len(foils)} foils")
        verdicts: list[Verdict | None] = [None] * len(sources)
        valid = []
        for i, (src, foil) in enumerate(zip(sources, foils, strict=True)):
            if not str(src).strip() or not str(foil).strip():
                verdicts[i] = Verdict(self.name, None, 0.0, "empty source or foil text: nothing to judge")
            else:
                valid.append(i)
        if valid:
            prem = [sources[i] for i in valid] + [foils[i] for i in valid]
            hyp = [foils[i] for i in valid] + [sources[i] for i in valid]
            probs = self.predict(prem, hyp, progress=progress, cancel=cancel)
            for k, i in enumerate(valid):
                fwd, rev = probs[k], probs[k + len(valid)]
                table = {f"{d}.{lab}": p[lab] for d, p in (("fwd", fwd), ("rev", rev)) for lab in LABELS}
                verdicts[i] = Verdict(
                    validator=self.name,
                    passed=fwd["contradiction"] > self.threshold,
                    score=fwd["contradiction"],
                    reason=f"{describe(fwd, 'fwd')}; {describe(rev, 'rev')}",
                    probabilities=table,
                )
        return [v for v in verdicts if v is not None]

    def score(
        self,
        candidates: Sequence[FoilCandidate],
        *,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> list[Verdict]:
        """Verdicts for foil candidates; a candidate without foil text gets ``passed=None``."""
        texts = [("" if c.realization.error else c.text) for c in candidates]
        verdicts = self.score_pairs([c.source_text for c in candidates], texts, progress=progress, cancel=cancel)
        return [
            Verdict(self.name, None, 0.0, f"no foil to judge: {c.realization.error}") if c.realization.error else v
            for c, v in zip(candidates, verdicts, strict=True)
        ]


def _locate(model: str) -> str:
    if not model.strip():
        raise ModelMissingError(
            "no NLI model configured",
            hint="set pipeline.nli_model to a 3-way NLI model folder or hub id "
            "(the paper's: juliussteen/DeBERTa-v3-FaithAug)",
        )
    return locate_model(model, what="NLI model", setting="pipeline.nli_model")


def check_nli_model(model: str, labels: Sequence[str] = ()) -> None:
    """Raise the error :class:`NLIValidator` would raise for this model, without loading weights."""
    path = _locate(model)
    if Path(path).is_dir():
        map_labels(read_id2label(path), labels, model=f"NLI model {model}")
