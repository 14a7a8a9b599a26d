"""Filter policies as data: parsing, combination, and which policy decided (no models needed)."""

from __future__ import annotations

import pytest

from core.config import apply_overrides, load_settings
from core.errors import ConfigError
from core.foils.policies import (
    MutualEntailmentPolicy,
    ProbabilityPolicy,
    ValidatorPolicy,
    apply_policies,
    parse_policies,
    parse_policy,
)
from core.types import Verdict


def nli(fwd: tuple[float, float, float], rev: tuple[float, float, float] = (0.1, 0.1, 0.8)) -> Verdict:
    """A verdict from (entailment, neutral, contradiction) per direction."""
    probs = {}
    for d, values in (("fwd", fwd), ("rev", rev)):
        probs.update(
            {f"{d}.{lab}": p for lab, p in zip(("entailment", "neutral", "contradiction"), values, strict=True)}
        )
    return Verdict("nli", probs["fwd.contradiction"] > 0.9, probs["fwd.contradiction"], "", probs)


@pytest.mark.parametrize(
    ("text", "canonical", "kind"),
    [
        ("contradiction>0.9", "contradiction>0.9", ProbabilityPolicy),
        ("  Contradiction >= 0.90 ", "contradiction>=0.9", ProbabilityPolicy),
        ("rev.entailment<0.5", "rev.entailment<0.5", ProbabilityPolicy),
        ("neutral in [0.5,0.8]", "neutral in [0.5,0.8]", ProbabilityPolicy),
        ("neutral in (0.5, 0.8]", "neutral in (0.5,0.8]", ProbabilityPolicy),
        ("either.neutral in 0.5..0.8", "either.neutral in [0.5,0.8]", ProbabilityPolicy),
        ("not mutual entailment", "not mutual entailment", MutualEntailmentPolicy),
        ("not mutual entailment > 0.5", "not mutual entailment>0.5", MutualEntailmentPolicy),
        ("roundtrip", "roundtrip", ValidatorPolicy),
    ],
)
def test_policy_forms(text, canonical, kind):
    policy = parse_policy(text)
    assert isinstance(policy, kind) and policy.text == canonical


@pytest.mark.parametrize("bad", ["contradiction>1.5", "neutral in [0.8,0.5]", "contradicton>0.9", "keep if good", ""])
def test_bad_policies_say_what_is_allowed(bad):
    with pytest.raises(ConfigError) as err:
        parse_policies([bad]) if bad else parse_policy(bad)
    assert err.value.hint


def test_paper_main_and_ablation():
    strong, weak, neutral = nli((0.01, 0.02, 0.97)), nli((0.2, 0.5, 0.3)), nli((0.2, 0.65, 0.15))
    assert [apply_policies(["contradiction>0.9"], [v]).kept for v in (strong, weak, neutral)] == [True, False, False]
    assert [apply_policies(["neutral in [0.5,0.8]"], [v]).kept for v in (strong, weak, neutral)] == [False, True, True]
    d = apply_policies(["contradiction>0.9"], [weak])
    assert d.policy == "contradiction>0.9" and d.reason == "contradiction>0.9: fwd.contradiction 0.300 not > 0.9"


def test_mutual_entailment():
    paraphrase = nli((0.9, 0.05, 0.05), (0.8, 0.1, 0.1))
    one_way = nli((0.9, 0.05, 0.05), (0.2, 0.7, 0.1))
    assert not apply_policies("not mutual entailment", [paraphrase]).kept
    assert apply_policies("not mutual entailment", [one_way]).kept
    assert apply_policies("not mutual entailment>0.85", [paraphrase]).kept  # rev entailment 0.8 is not > 0.85


def test_directions_both_and_either():
    v = nli((0.0, 0.05, 0.95), (0.3, 0.6, 0.1))
    assert apply_policies("contradiction>0.9", [v]).kept
    assert not apply_policies("both.contradiction>0.9", [v]).kept
    assert apply_policies("either.contradiction>0.9", [v]).kept
    assert "rev.contradiction 0.100" in apply_policies("both.contradiction>0.9", [v]).reason


def test_combined_policies_report_the_deciding_one():
    v = nli((0.01, 0.02, 0.97))
    ok_rt, bad_rt = Verdict("roundtrip", True, 1.0, "negation found"), Verdict("roundtrip", False, 0.0, "no change")
    kept = apply_policies("contradiction>0.9 and roundtrip", [v, ok_rt])
    assert kept.kept and kept.policy == "contradiction>0.9 and roundtrip" and "negation found" in kept.reason
    dropped = apply_policies(["contradiction>0.9", "roundtrip"], [v, bad_rt])
    assert (
        not dropped.kept
        and dropped.policy == "roundtrip"
        and dropped.reason == "roundtrip: roundtrip failed: no change"
    )
    assert [c.policy for c in dropped.checks] == ["contradiction>0.9", "roundtrip"]


def test_missing_or_undecided_verdicts_drop_with_a_reason():
    d = apply_policies(["contradiction>0.9"], [Verdict("roundtrip", True, 1.0, "")])
    assert not d.kept and "no NLI verdict" in d.reason and "pipeline.validators" in d.reason
    d = apply_policies(["contradiction>0.9"], [Verdict("nli", None, 0.0, "empty source or foil text")])
    assert not d.kept and "empty source or foil text" in d.reason
    d = apply_policies(["roundtrip"], [Verdict("roundtrip", None, 0.0, "foil did not parse")])
    assert not d.kept and "undecided" in d.reason
    assert apply_policies([], []).kept


def test_policies_from_toml_and_the_command_line(tmp_path):
    cfg = tmp_path / "smithtui.toml"
    cfg.write_text('[pipeline]\npolicies = ["neutral in [0.5,0.8]", "not mutual entailment"]\n', encoding="utf-8")
    settings = load_settings(cfg, environ={})
    assert [p.text for p in parse_policies(settings.pipeline.policies)] == [
        "neutral in [0.5,0.8]",
        "not mutual entailment",
    ]
    # a comma-separated CLI value splits inside the interval; parsing puts it back together
    cli = apply_overrides(settings, {"pipeline.policies": "neutral in [0.5,0.8],roundtrip"})
    assert [p.text for p in parse_policies(cli.pipeline.policies)] == ["neutral in [0.5,0.8]", "roundtrip"]
