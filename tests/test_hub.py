"""core.hub: one answer to "are we offline", the hub-cache lookup, the device, and loading once."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tiny_models import TinyModels, one_torch_thread, session_models

from core import hub
from core.embed import packaged
from core.embed.registry import get_embedder, resolve
from core.errors import ConfigError, ModelMissingError


@pytest.mark.parametrize(
    ("env", "offline"),
    [
        ({}, False),
        ({"HF_HUB_OFFLINE": "1"}, True),
        ({"HF_HUB_OFFLINE": "TRUE"}, True),
        ({"HF_HUB_OFFLINE": " yes "}, True),
        ({"TRANSFORMERS_OFFLINE": "on"}, True),
        ({"HF_HUB_OFFLINE": "0", "TRANSFORMERS_OFFLINE": "1"}, True),
        ({"HF_HUB_OFFLINE": "0"}, False),
        ({"HF_HUB_OFFLINE": "false"}, False),  # clsd.pivot used to read any value but "0" as offline
        ({"HF_HUB_OFFLINE": ""}, False),
    ],
)
def test_offline_is_one_rule(env, offline):
    assert hub.is_offline(env) is offline


def test_transformers_offline_alone_makes_an_uncached_hub_id_unusable(monkeypatch):
    """The embedder registry used to look at HF_HUB_OFFLINE only."""
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    spec = resolve("someone/some-model-that-is-not-cached")
    assert not spec.usable and "offline (TRANSFORMERS_OFFLINE=1)" in spec.why_not
    assert "TRANSFORMERS_OFFLINE" in spec.install_hint
    with pytest.raises(ModelMissingError):
        get_embedder("someone/some-model-that-is-not-cached")


def _fake_hub(root: Path, repo_id: str, commit: str, files_from: Path) -> Path:
    """A Hugging Face cache entry laid out as huggingface_hub writes it (refs/main, snapshots/<commit>/...)."""
    repo = root / f"models--{repo_id.replace('/', '--')}"
    snapshot = repo / "snapshots" / commit
    for f in files_from.rglob("*"):
        if f.is_file():
            target = snapshot / f.relative_to(files_from)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(f)  # the real cache links snapshot files to blobs
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(commit, encoding="utf-8")
    return snapshot


@pytest.fixture
def hub_cache(tmp_path, monkeypatch) -> Path:
    import huggingface_hub.constants

    root = tmp_path / "hub"
    root.mkdir()
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(root))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return root


def test_cached_snapshot_reads_the_cache_layout(hub_cache):
    src = packaged.minilm_dir()
    snapshot = _fake_hub(hub_cache, "acme/mini", "0123abc", src)
    assert hub.cached_snapshot("acme/mini") == snapshot
    assert hub.cached_snapshot("acme/mini", revision="0123abc") == snapshot
    assert hub.cached_snapshot("acme/other") is None
    assert hub.cached_snapshot("./acme/mini") is None and hub.cached_snapshot("") is None
    (hub_cache / "models--acme--mini" / "refs" / "main").write_text("deadbeef", encoding="utf-8")
    assert hub.cached_snapshot("acme/mini") is None  # a ref to a snapshot that is not there


def test_a_cached_hub_model_resolves_and_loads_once_offline(hub_cache):
    """The registry and the backends find the same cache entry, and the embedder it names really encodes."""
    from core.foils.neural.loading import locate_model

    _fake_hub(hub_cache, "acme/mini", "0123abc", packaged.minilm_dir())
    spec = resolve("acme/mini")
    assert spec.usable and spec.kind == "sentence-transformers" and spec.version == "hub:0123abc"
    assert locate_model("acme/mini", what="model", setting="x") == str(hub.cached_snapshot("acme/mini"))
    emb = get_embedder("acme/mini")
    assert get_embedder("acme/mini") is emb
    assert ("embedder", "acme/mini", "sentence-transformers", "acme/mini", "hub:0123abc", ()) in hub.loaded_keys()
    texts = ["The cat sat on the mat.", "A dog barked."]
    np.testing.assert_allclose(emb.encode(texts), get_embedder("minilm").encode(texts), atol=1e-5)


def test_load_once_builds_once_across_threads_and_caches_no_failure():
    calls: list[int] = []
    gate = threading.Event()

    def build() -> object:
        gate.wait(5)
        calls.append(1)
        return object()

    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(hub.load_once(("test_hub", "shared"), build))) for _ in range(6)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join()
    assert len(calls) == 1 and len(got) == 6 and all(g is got[0] for g in got)

    def broken() -> object:
        raise RuntimeError("weights are corrupt")

    with pytest.raises(RuntimeError):
        hub.load_once(("test_hub", "broken"), broken)
    assert hub.load_once(("test_hub", "broken"), lambda: "second try") == "second try"


def test_device_choice():
    assert hub.resolve_device("cpu") == hub.resolve_device("") == "cpu"
    with pytest.raises(ConfigError, match="unknown device"):
        hub.resolve_device("gpu0")
    import torch

    if torch.cuda.is_available():
        assert hub.resolve_device("auto") == "cuda:0"
        with pytest.raises(ConfigError, match="only"):
            hub.resolve_device(f"cuda:{torch.cuda.device_count()}")
    else:
        assert hub.resolve_device("auto") == "cpu"
        with pytest.raises(ConfigError, match="no CUDA GPU"):
            hub.resolve_device("cuda:0")


@pytest.fixture(scope="session")
def tiny(tmp_path_factory) -> TinyModels:
    return session_models(tmp_path_factory)


@pytest.fixture
def one_thread():
    yield from one_torch_thread()


def test_a_backend_model_given_as_hub_id_is_found_in_the_cache_and_loaded_once(hub_cache, tiny, one_thread):
    """The tiny NLI classifier the suite trains, placed in the hub cache under a hub id: found offline
    (no folder named), loaded once for two validators, and predicting what the folder itself predicts."""
    from core.foils.neural.nli import NLIValidator

    snapshot = _fake_hub(hub_cache, "acme/tiny-nli", "feedbeef", tiny.nli_dir)
    first, second = NLIValidator("acme/tiny-nli"), NLIValidator("acme/tiny-nli", batch_size=1)
    assert first.path == second.path == str(snapshot)
    assert first._model()[0] is second._model()[0]
    assert ("nli", str(snapshot), "cpu") in hub.loaded_keys()
    pairs = (["The dog chased the cat."], ["The dog did not chase the cat."])
    [got], [want] = first.predict(*pairs), NLIValidator(str(tiny.nli_dir)).predict(*pairs)
    assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k], abs=1e-6) for k in want)
