"""The stage registry, `smithtui models`, and the whole paper pipeline on the tiny models."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tiny_models import TinyModels, one_torch_thread, session_models

from core.config import PipelineSettings, Settings, apply_overrides, load_settings
from core.errors import ConfigError, ModelMissingError
from core.foils.registry import (
    STAGES,
    available_backends,
    check_backends,
    make_generator,
    make_parser,
    make_validators,
)


@pytest.fixture(scope="session")
def tiny(tmp_path_factory) -> TinyModels:
    return session_models(tmp_path_factory)


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    yield from one_torch_thread()


@pytest.fixture(scope="module")
def config_file(tiny: TinyModels, tmp_path_factory) -> Path:
    """The README's config shape, pointed at the tiny models."""
    path = tmp_path_factory.mktemp("cfg") / "smithtui.toml"
    path.write_text(
        f"""[pipeline]
parser = "amrlib"
generator = "amrlib"
validators = ["roundtrip", "nli"]
policies = ["contradiction>0.9", "roundtrip"]
rules = ["PN"]
per_rule = 3
amr_parse_model = "{tiny.parse_dir}"
amr_parse_tokenizer = "{tiny.tokenizer_dir}"
amr_generate_model = "{tiny.generate_dir}"
nli_model = "{tiny.nli_dir}"
device = "cpu"
batch_size = 8
num_beams = 4
num_ret_seq = 2
""",
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def neural(config_file: Path) -> PipelineSettings:
    return load_settings(config_file, environ={}).pipeline


def test_listing_names_every_backend_without_loading():
    infos = available_backends()
    assert {(b.stage, b.name) for b in infos} >= {
        ("parse", "dep"),
        ("parse", "amrlib"),
        ("generate", "aligned"),
        ("generate", "amrlib"),
        ("validate", "roundtrip"),
        ("validate", "nli"),
    }
    assert {b.stage for b in infos} == set(STAGES)
    amr = next(b for b in infos if b.name == "amrlib" and b.stage == "parse")
    assert not amr.usable and "no amrlib parse model configured" in amr.why_not and "amrlib-models" in amr.install_hint


def test_listing_with_the_tiny_models_configured(neural: PipelineSettings, tiny: TinyModels):
    usable = {(b.stage, b.name): b for b in available_backends(neural)}
    assert usable["parse", "amrlib"].usable and usable["parse", "amrlib"].model == str(tiny.parse_dir)
    assert usable["generate", "amrlib"].usable and usable["validate", "nli"].usable
    broken = dataclasses.replace(
        neural, nli_model=str(tiny.nli_two_label_dir), amr_generate_model=str(tiny.no_meta_dir)
    )
    infos = {(b.stage, b.name): b for b in available_backends(broken)}
    assert "2-label classifier" in infos["validate", "nli"].why_not
    assert "amrlib_meta.json" in infos["generate", "amrlib"].why_not


def test_factories_build_the_named_backends(neural: PipelineSettings):
    from core.foils.neural.amrlib import AmrlibGenerator, AmrlibParser
    from core.foils.neural.nli import NLIValidator
    from core.foils.validate.roundtrip import RoundTripValidator

    parser = make_parser(neural)
    assert isinstance(parser, AmrlibParser) and parser.batch_size == 8 and parser.num_beams == 4
    generator = make_generator(neural)
    assert isinstance(generator, AmrlibGenerator) and generator.num_ret_seq == 2
    validators = make_validators(neural, parser)
    assert [type(v) for v in validators] == [RoundTripValidator, NLIValidator]


def test_factories_refuse_unknown_names_and_bad_models(neural: PipelineSettings, tmp_path: Path):
    # typed settings refuse unknown backend names before any factory sees them (core/config.py Literal choices)
    with pytest.raises(ValueError, match="'dep' or 'amrlib'"):
        dataclasses.replace(neural, parser="spring")
    with pytest.raises(ValueError, match="'aligned' or 'amrlib'"):
        dataclasses.replace(neural, generator="gpt")
    with pytest.raises(ValueError, match="'roundtrip' or 'nli'"):
        dataclasses.replace(neural, validators=("vibes",))
    with pytest.raises(ConfigError, match=r"pipeline\.parser = 'spring'") as err:
        apply_overrides(Settings(pipeline=neural), {"pipeline.parser": "spring"})
    assert "dep, amrlib" in str(err.value)
    with pytest.raises(ModelMissingError, match="folder not found"):
        make_parser(dataclasses.replace(neural, amr_parse_model=str(tmp_path / "gone")))


def test_the_paper_pipeline_end_to_end(neural: PipelineSettings):
    from core.foils.pipeline import FoilPipeline
    from core.inputs import InputRow

    pipe = FoilPipeline.from_settings(neural)
    records = list(pipe.run([InputRow("r1", "The dog chased the cat."), InputRow("r2", "The girl is happy.")]))
    by_foil = {(r["row_id"], r["variant"], r["foil"]): r for r in records}
    main = by_foil["r1", "main-predicate", "The dog did not chase the cat."]
    assert main["kept"] is True
    assert "contradiction>0.9" in main["decided_by"] and "roundtrip" in main["decided_by"]
    assert len(main["alternatives"]) >= 1 and main["alternatives"][0] == main["foil"]
    nli = next(v for v in main["verdicts"] if v["validator"] == "nli")
    assert nli["probabilities"]["fwd.contradiction"] > 0.9 and "rev.entailment" in nli["probabilities"]
    dropped = [r for r in records if r["kept"] is False]
    assert all(r["decided_by"] for r in dropped)


def test_models_command_lists_and_checks(config_file: Path, tiny: TinyModels, capsys):
    from smithtui.cli import main

    assert main(["--config", str(config_file), "models"]) == 0
    out = capsys.readouterr().out
    assert "* parse     amrlib" in out and "Embedders" in out
    assert main(["--config", str(config_file), "models", "check", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert {(r["stage"], r["name"]) for r in results} == {
        ("parse", "amrlib"),
        ("generate", "amrlib"),
        ("validate", "roundtrip"),
        ("validate", "nli"),
    }
    assert all(r["ok"] for r in results)


def test_models_check_says_what_is_missing(config_file: Path, tiny: TinyModels, capsys):
    from smithtui.cli import main

    code = main(["--config", str(config_file), "models", "check", "--nli-model", str(tiny.nli_unnamed_dir)])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL validate  nli" in out and "unnamed labels" in out and "to fix: set pipeline.nli_labels" in out
    assert (
        main(
            [
                "--config",
                str(config_file),
                "models",
                "check",
                "--nli-labels",
                "contradiction,neutral,entailment",
                "--nli-model",
                str(tiny.nli_unnamed_dir),
            ]
        )
        == 0
    )
    capsys.readouterr()


def test_check_reports_unselected_configured_models(neural: PipelineSettings, tmp_path: Path):
    settings = dataclasses.replace(
        neural, generator="aligned", validators=(), amr_generate_model=str(tmp_path / "gone")
    )
    results = {(r.stage, r.name): r for r in check_backends(settings)}
    assert results["parse", "amrlib"].ok and results["parse", "amrlib"].selected
    assert results["generate", "aligned"].ok
    unselected = results["generate", "amrlib"]
    assert not unselected.selected and not unselected.ok
    assert "folder not found" in unselected.message and "amrlib-models/releases" in unselected.hint
