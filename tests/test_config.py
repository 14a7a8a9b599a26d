"""Settings layering: defaults → TOML → environment → CLI."""

from __future__ import annotations

import pytest

from core.config import Settings, apply_overrides, load_settings
from core.errors import ConfigError


def test_layering_order(tmp_path):
    cfg = tmp_path / "smithtui.toml"
    cfg.write_text('[pipeline]\nseed = 5\nrules = ["PN", "RS"]\n[models]\nembedders = ["bow"]\n', encoding="utf-8")
    env = {"SMITH_PIPELINE__SEED": "6", "SMITH_PIPELINE__PER_RULE": "3"}
    s = load_settings(cfg, cli_overrides={"pipeline.seed": 7}, environ=env)
    assert s.pipeline.seed == 7  # CLI wins
    assert s.pipeline.per_rule == 3  # environment over default
    assert s.pipeline.rules == ("PN", "RS")  # TOML
    assert s.models.embedders == ("bow",)
    assert s.source == str(cfg)


def test_comma_lists_and_none_overrides():
    s = apply_overrides(Settings(), {"pipeline.rules": "PN, AR", "pipeline.seed": None})
    assert s.pipeline.rules == ("PN", "AR")
    assert s.pipeline.seed == Settings().pipeline.seed


@pytest.mark.parametrize(
    ("overrides", "match"),
    [({"pipeline.nope": 1}, "unknown setting"), ({"bogus.seed": 1}, "unknown section"), ({"pipeline.seed": "x"}, "must be")],
)
def test_bad_settings_are_named(overrides, match):
    with pytest.raises(ConfigError, match=match):
        apply_overrides(Settings(), overrides)


def test_bad_toml_and_missing_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[pipeline\nseed=1", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(bad, environ={})
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "missing.toml", environ={})


# Every bad value: one line naming the key and what is allowed (issue 16, ≥ 15 cases).
BAD_CASES = [
    ({"pipeline.parser": "depp"}, "pipeline.parser", "dep, amrlib", "did you mean 'dep'"),
    ({"pipeline.generator": "t5"}, "pipeline.generator", "aligned, amrlib", ""),
    ({"pipeline.device": "cdua"}, "pipeline.device", "cpu, cuda, cuda:N, auto", ""),
    ({"pipeline.validators": "roundtrip,nil"}, "pipeline.validators", "roundtrip, nli", "did you mean 'nli'"),
    ({"pipeline.rules": "PN,XX"}, "pipeline.rules", "PN, RS, US, AR, HS", ""),
    ({"pipeline.seed": "x"}, "pipeline.seed", "must be an integer", ""),
    ({"pipeline.seed": -1}, "pipeline.seed", ">= 0", ""),
    ({"pipeline.per_rule": 0}, "pipeline.per_rule", ">= 1", ""),
    ({"pipeline.batch_size": "2.5"}, "pipeline.batch_size", "must be an integer", ""),
    ({"pipeline.amr_use_tense": "maybe"}, "pipeline.amr_use_tense", "auto, true, false", ""),
    ({"pipeline.policies": "contradiction>>0.9"}, "pipeline.policies", "policies look like", ""),
    ({"pipeline.parserr": "dep"}, "pipeline.parserr", "pipeline has: parser", "did you mean 'parser'"),
    ({"pipline.seed": 1}, "pipline", "sections are: pipeline, models, ui, clsd", "did you mean 'pipeline'"),
    ({"models.threads": -2}, "models.threads", ">= 0", ""),
    ({"models.embeders": "bow"}, "models.embeders", "models has: embedders", "did you mean 'embedders'"),
    ({"clsd.ties": "draw"}, "clsd.ties", "fail, pass", ""),
    ({"clsd.llm_enabled": "ture"}, "clsd.llm_enabled", "true or false", ""),
    ({"clsd.llm_timeout": 0}, "clsd.llm_timeout", "> 0", ""),
    ({"clsd.llm_url": "localhost:8000"}, "clsd.llm_url", "http://", ""),
    ({"clsd.sed": 3}, "clsd.sed", "clsd has:", "did you mean 'seed'"),
    ({"ui.keys": "q"}, "ui.keys", "must be a table", ""),
]


@pytest.mark.parametrize(("overrides", "key", "allowed", "suggestion"), BAD_CASES, ids=[c[1] for c in BAD_CASES])
def test_bad_config_table(overrides, key, allowed, suggestion):
    with pytest.raises(ConfigError) as info:
        apply_overrides(Settings(), overrides)
    text = str(info.value)
    assert "\n" not in text
    assert key in text and allowed in text
    assert suggestion in text


def test_bad_values_name_their_origin(tmp_path):
    with pytest.raises(ConfigError, match=r"clsd.llm_enabled = 'ture' \(from \$SMITH_CLSD__LLM_ENABLED\)"):
        load_settings(environ={"SMITH_CLSD__LLM_ENABLED": "ture"})
    with pytest.raises(ConfigError, match=r"unknown section 'pipelin' \(from \$SMITH_PIPELIN__SEED\)"):
        load_settings(environ={"SMITH_PIPELIN__SEED": "1"})
    with pytest.raises(ConfigError, match=r"unknown setting pipeline.sed \(from \$SMITH_PIPELINE__SED\)"):
        load_settings(environ={"SMITH_PIPELINE__SED": "1"})
    cfg = tmp_path / "smithtui.toml"
    cfg.write_text('[pipeline]\nparser = "depp"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"pipeline.parser = 'depp' \(in {cfg}\): must be one of dep, amrlib"):
        load_settings(cfg, environ={})
    cfg.write_text('[clsd]\nllm_enabled = "ture"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"in .*smithtui\.toml"):
        load_settings(cfg, environ={})
    with pytest.raises(ConfigError, match=r"pipeline.seed = 'x' \(from the command line\)"):
        load_settings(environ={}, cli_overrides={"pipeline.seed": "x"})


def test_strict_flags_and_choices_accept_the_good_spellings():
    s = load_settings(environ={"SMITH_CLSD__LLM_ENABLED": "yes", "SMITH_PIPELINE__PARSER": "AMRLIB"})
    assert s.clsd.llm_enabled is True and s.pipeline.parser == "amrlib"
    assert apply_overrides(Settings(), {"clsd.llm_enabled": "0"}).clsd.llm_enabled is False
    assert apply_overrides(Settings(), {"pipeline.device": "CUDA:1"}).pipeline.device == "cuda:1"
    assert apply_overrides(Settings(), {"pipeline.amr_use_tense": True}).pipeline.amr_use_tense == "true"
    assert load_settings(environ={"SMITH_UI__KEYS__QUIT": "ctrl+q"}).ui.keys == {"quit": "ctrl+q"}


def test_sections_stay_frozen_hashable_and_replaceable():
    import dataclasses

    s = Settings()
    assert hash(s.pipeline) == hash(Settings().pipeline)
    assert s.pipeline == Settings().pipeline
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.pipeline.seed = 3  # type: ignore[misc]
    changed = dataclasses.replace(s.pipeline, seed=3)
    assert changed.seed == 3 and changed.parser == "dep"
    with pytest.raises(ValueError, match=r"literal_error|dep"):
        dataclasses.replace(s.pipeline, parser="depp")  # replace re-validates


def test_user_config_and_data_dirs_come_from_platformdirs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SMITH_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "conf"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    user = tmp_path / "conf" / "smithtui" / "smithtui.toml"
    user.parent.mkdir(parents=True)
    user.write_text("[pipeline]\nseed = 99\n", encoding="utf-8")
    s = load_settings(environ={})
    assert s.pipeline.seed == 99 and s.source == str(user)
    assert s.data_dir() == tmp_path / "data" / "smithtui"
    assert s.cache_dir() == tmp_path / "data" / "smithtui" / "embeddings"
    (tmp_path / "smithtui.toml").write_text("[pipeline]\nseed = 5\n", encoding="utf-8")
    assert load_settings(environ={}).pipeline.seed == 5  # the folder's file wins over the user's
