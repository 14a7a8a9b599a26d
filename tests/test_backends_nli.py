"""NLI validator and filter policies on a tiny 3-label BERT classifier trained in this session."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import penman
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tiny_models import TinyModels, one_torch_thread, session_models

from core.errors import ConfigError, ModelMissingError
from core.foils.neural.nli import NLIValidator, map_labels
from core.foils.policies import apply_policies, apply_policies_many
from core.types import Edit, FoilCandidate, ParsedSentence, Realization

SOURCE = "The dog chased the cat."
NEGATED = "The dog did not chase the cat."
PAIRS = [
    ("The dog chased the cat.", "The dog did not chase the cat."),  # contradiction both ways
    ("The girl is happy.", "The girl is unhappy."),  # contradiction
    ("The boy ate an apple.", "The boy ate a fruit."),  # entailed forwards, neutral backwards
    ("The dog chased the cat.", "The dog chased the cat."),  # mutual entailment
    ("The dog chased the cat.", "The girl is happy."),  # neutral
]


@pytest.fixture(scope="session")
def tiny(tmp_path_factory) -> TinyModels:
    return session_models(tmp_path_factory)


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    yield from one_torch_thread()


@pytest.fixture(scope="module")
def nli(tiny: TinyModels) -> NLIValidator:
    return NLIValidator(str(tiny.nli_dir), batch_size=8)


def candidate(source: str, foil: str, error: str | None = None) -> FoilCandidate:
    parsed = ParsedSentence(text=source, graph=penman.decode("(d / dog)"))
    edit = Edit(rule="PN", variant="test", description="test", nodes=(), source=parsed, edited=parsed.graph)
    return FoilCandidate(edit=edit, realization=Realization(text=foil, error=error))


def test_labels_come_from_id2label_in_any_order_and_case(nli: NLIValidator):
    assert nli.label_index == {"entailment": 2, "neutral": 1, "contradiction": 0}
    probs = nli.predict(["The girl is happy."], ["The girl is unhappy."])[0]
    assert set(probs) == {"entailment", "neutral", "contradiction"}
    assert probs["contradiction"] > 0.9 and abs(sum(probs.values()) - 1) < 1e-5


def test_both_directions(nli: NLIValidator):
    verdicts = nli.score_pairs([p for p, _ in PAIRS], [h for _, h in PAIRS])
    v = {i: verdicts[i].probabilities for i in range(len(PAIRS))}
    assert set(v[0]) == {f"{d}.{lab}" for d in ("fwd", "rev") for lab in ("entailment", "neutral", "contradiction")}
    assert v[0]["fwd.contradiction"] > 0.9 and v[0]["rev.contradiction"] > 0.9
    assert v[2]["fwd.entailment"] > 0.9 and v[2]["rev.neutral"] > 0.9  # hypernym: one-way entailment
    assert v[3]["fwd.entailment"] > 0.9 and v[3]["rev.entailment"] > 0.9
    assert verdicts[0].passed is True and verdicts[2].passed is False
    assert verdicts[0].validator == "nli" and verdicts[0].score == v[0]["fwd.contradiction"]
    assert verdicts[0].reason.startswith("fwd contradiction") and "; rev contradiction" in verdicts[0].reason


def test_batching_gives_the_same_probabilities(tiny: TinyModels, nli: NLIValidator):
    single = NLIValidator(str(tiny.nli_dir), batch_size=1)
    premises, hypotheses = [p for p, _ in PAIRS] * 2, [h for _, h in PAIRS] * 2
    batched = nli.predict(premises, hypotheses)
    one_by_one = [single.predict([p], [h])[0] for p, h in zip(premises, hypotheses, strict=True)]
    for a, b in zip(batched, one_by_one, strict=True):
        assert a == pytest.approx(b, abs=1e-5)


def test_unnamed_labels_need_and_honour_an_explicit_order(tiny: TinyModels, nli: NLIValidator):
    with pytest.raises(ConfigError, match="unnamed labels") as err:
        NLIValidator(str(tiny.nli_unnamed_dir))
    assert "nli_labels" in err.value.hint
    explicit = NLIValidator(str(tiny.nli_unnamed_dir), labels=("Contradiction", "NEUTRAL", "entailment"))
    got = explicit.predict([p for p, _ in PAIRS], [h for _, h in PAIRS])
    want = nli.predict([p for p, _ in PAIRS], [h for _, h in PAIRS])
    for a, b in zip(got, want, strict=True):
        assert a == pytest.approx(b, abs=1e-6)


def test_two_label_classifier_is_refused_before_loading(tiny: TinyModels):
    with pytest.raises(ConfigError, match="2-label classifier"):
        NLIValidator(str(tiny.nli_two_label_dir))


def test_label_mapping_errors():
    with pytest.raises(ConfigError, match="not a permutation"):
        map_labels({0: "yes", 1: "maybe", 2: "no"})
    with pytest.raises(ConfigError, match="3 labels"):
        map_labels({0: "a", 1: "b", 2: "c"}, ["entailment", "neutral"])
    assert map_labels({0: "ENTAILMENT", 1: "neutral", 2: "contradictory"}) == {
        "entailment": 0,
        "neutral": 1,
        "contradiction": 2,
    }


def test_hub_id_while_offline_fails_fast(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    start = time.perf_counter()
    with pytest.raises(ModelMissingError, match="DeBERTa-v3-FaithAug") as err:
        NLIValidator("juliussteen/DeBERTa-v3-FaithAug")
    assert time.perf_counter() - start < 5
    assert "huggingface-cli download juliussteen/DeBERTa-v3-FaithAug" in err.value.hint


def test_missing_folder_and_gpu(tiny: TinyModels, tmp_path: Path):
    with pytest.raises(ModelMissingError, match="folder not found"):
        NLIValidator(str(tmp_path / "no" / "such" / "model"))
    import torch

    if not torch.cuda.is_available():
        with pytest.raises(ConfigError, match="no CUDA GPU"):
            NLIValidator(str(tiny.nli_dir), device="cuda:0")


def test_candidates_without_foil_get_undecided_verdicts(nli: NLIValidator):
    out = nli.score([candidate(SOURCE, NEGATED), candidate(SOURCE, "", error="generator failed"), candidate(SOURCE, " ")])
    assert out[0].passed is True
    assert out[1].passed is None and "generator failed" in out[1].reason
    assert out[2].passed is None and out[2].probabilities == {}


def test_policies_keep_and_drop_the_right_records(nli: NLIValidator):
    verdicts = [[v] for v in nli.score([candidate(p, h) for p, h in PAIRS])]
    main = apply_policies_many(["contradiction>0.9"], verdicts)
    assert [d.kept for d in main] == [True, True, False, False, False]
    assert main[2].policy == "contradiction>0.9" and "fwd.contradiction" in main[2].reason
    mutual = apply_policies_many(["not mutual entailment"], verdicts)
    assert [d.kept for d in mutual] == [True, True, True, False, True]
    assert "mutual entailment" in mutual[3].reason
    ablation = apply_policies_many(["rev.neutral in [0.5,1.0]"], verdicts)
    assert [d.kept for d in ablation] == [False, False, True, False, True]
    both = apply_policies_many(["both.contradiction>0.9", "not mutual entailment"], verdicts)
    assert [d.kept for d in both] == [True, True, False, False, False]
    assert both[0].policy == "both.contradiction>0.9 and not mutual entailment"


def test_roundtrip_policy_combines_with_nli(nli: NLIValidator):
    from core.types import Verdict

    nli_verdict = nli.score([candidate(SOURCE, NEGATED)])[0]
    failed_roundtrip = Verdict("roundtrip", False, 0.2, "the negation is not in the re-parsed foil")
    d = apply_policies(["contradiction>0.9", "roundtrip"], [nli_verdict, failed_roundtrip])
    assert not d.kept and d.policy == "roundtrip" and "negation is not" in d.reason
    assert [c.passed for c in d.checks] == [True, False]
    assert apply_policies(["contradiction>0.9", "roundtrip"], [nli_verdict]).reason.startswith("roundtrip: undecided")
