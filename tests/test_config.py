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
    [({"pipeline.nope": 1}, "unknown setting"), ({"bogus.seed": 1}, "unknown setting"), ({"pipeline.seed": "x"}, "cannot use")],
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
