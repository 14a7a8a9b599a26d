"""Each offline packaged model loads with HF_HUB_OFFLINE=1 and embeds with sensible similarities.

Models load once per session (the registry caches them); inputs are a handful of sentences.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from core.embed.registry import get_embedder, resolve

pytestmark = pytest.mark.slow

ENGLISH = ["minilm", "paraphrase-minilm-l3", "use-v3", "e5-small", "static-64", "spacy-md"]
DIMS = {"minilm": 384, "paraphrase-minilm-l3": 384, "use-v3": 512, "e5-small": 384, "static-64": 64, "spacy-md": 300}
ANCHOR, CLOSE, FAR = "A man is eating food.", "A man is eating a meal.", "A plane is taking off."


def _model(name):
    spec = resolve(name)
    if not spec.usable:
        pytest.skip(f"{name}: {spec.why_not} ({spec.install_hint})")
    return get_embedder(name)


def test_runs_offline():
    assert os.environ.get("HF_HUB_OFFLINE") == "1"


@pytest.mark.parametrize("name", ENGLISH)
def test_packaged_model_embeds_and_ranks(name):
    emb = _model(name)
    vecs = emb.encode([ANCHOR, CLOSE, FAR])
    assert vecs.shape == (3, DIMS[name]) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert vecs[0] @ vecs[1] > vecs[0] @ vecs[2]
    info = emb.info
    assert info["dim"] == DIMS[name] and info["name"] == name and "==" in str(info["version"])
    assert emb.encode([]).shape[0] == 0


@pytest.mark.parametrize("name", ["use-v3", "e5-small"])
def test_multilingual_models_match_translations(name):
    emb = _model(name)
    en, fr, de_other = "The cat sleeps on the sofa.", "Le chat dort sur le canapé.", "Der Zug fährt morgen früh ab."
    v = emb.encode([en, fr, de_other])
    assert v[0] @ v[1] > v[0] @ v[2]


def test_onnx_pooling_ignores_padding():
    emb = _model("paraphrase-minilm-l3")
    alone = emb.encode([ANCHOR])
    padded = emb.encode([ANCHOR, "A much longer sentence that forces the batch to be padded to many more tokens."])
    np.testing.assert_allclose(alone[0], padded[0], atol=1e-5)


def test_e5_prefix_setting_changes_vectors():
    query = _model("e5-small").encode([ANCHOR])
    passage = get_embedder("e5-small", overrides={"prefix": "passage: "}).encode([ANCHOR])
    assert float(query[0] @ passage[0]) < 0.9999


def test_spacy_vectors_zero_for_unknown_words():
    v = _model("spacy-md").encode(["qwxzv zzqjk", "The cat sat."])
    assert not v[0].any() and abs(np.linalg.norm(v[1]) - 1) < 1e-5
