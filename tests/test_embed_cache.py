"""The on-disk embedding cache, with a real model (paraphrase-MiniLM-L3-v2 ONNX, the fastest to load)."""

from __future__ import annotations

import sqlite3
import threading

import numpy as np
import pytest

from core.embed.cache import EmbeddingCache
from core.embed.registry import get_embedder, resolve
from core.errors import CancelledError, InputError

TEXTS = [
    "A man is eating food.",
    "A man is eating a meal.",
    "A plane is taking off.",
    "The cat sleeps on the sofa.",
    "Stocks fell sharply on Monday after the announcement.",
    "She did not go to the party.",
]


class Counting:
    """Wraps a real embedder and records how many texts reached the model."""

    def __init__(self, inner):
        self.inner = inner
        self.calls: list[int] = []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def encode(self, texts):
        self.calls.append(len(texts))
        return self.inner.encode(texts)


@pytest.fixture(scope="module")
def spec():
    s = resolve("paraphrase-minilm-l3")
    if not s.usable:
        pytest.skip(s.why_not)
    return s


@pytest.fixture(scope="module")
def model(spec):
    return get_embedder(spec.name, load=False, shared=False).load()


def test_dedupes_and_reads_back(tmp_path, model):
    cache = EmbeddingCache(tmp_path)
    emb = Counting(model)
    texts = TEXTS + TEXTS[:3]
    first = cache.encode(emb, texts)
    assert first.shape == (9, 384) and first.dtype == np.float32
    assert sum(emb.calls) == 6  # each distinct text once
    assert cache.stats["unique"] == 6 and cache.stats["embedded"] == 6 and cache.stats["hits"] == 0
    np.testing.assert_allclose(first[6:], first[:3])
    np.testing.assert_allclose(first[:6], model.encode(TEXTS), atol=1e-5)

    emb.calls.clear()
    again = cache.encode(emb, list(reversed(texts)))
    assert emb.calls == [] and cache.stats["hits"] == 6
    np.testing.assert_array_equal(again, first[::-1])

    more = cache.encode(emb, [*TEXTS, "A brand new sentence."])
    assert sum(emb.calls) == 1 and cache.stats["hits"] == 6
    assert more.shape == (7, 384)


def test_warm_cache_does_not_load_the_model(tmp_path, spec, model):
    EmbeddingCache(tmp_path).encode(model, TEXTS)
    fresh = get_embedder(spec.name, load=False, shared=False)
    assert not fresh.loaded
    vecs = EmbeddingCache(tmp_path).encode(fresh, TEXTS)
    assert not fresh.loaded
    np.testing.assert_allclose(vecs, model.encode(TEXTS), atol=1e-5)


def test_key_follows_vector_settings_not_speed_settings(tmp_path, spec):
    cache = EmbeddingCache(tmp_path)

    def own(**overrides):
        return get_embedder(spec.name, overrides=overrides, load=False, shared=False)

    base = own()
    assert cache.path_for(base) == cache.path_for(own(batch_size=4, threads=1))
    assert cache.path_for(base) != cache.path_for(own(prefix="query: "))
    assert cache.path_for(base) != cache.path_for(own(max_length=16))


def test_corrupt_file_is_moved_aside_and_rebuilt(tmp_path, model):
    cache = EmbeddingCache(tmp_path)
    path = cache.path_for(model)
    path.write_bytes(b"this is not an SQLite database" * 100)
    vecs = cache.encode(model, TEXTS[:2])
    assert vecs.shape == (2, 384)
    assert any("moved it to" in w for w in cache.warnings)
    assert list(tmp_path.glob("*.bad-*"))
    assert EmbeddingCache(tmp_path).encode(model, TEXTS[:2]).shape == (2, 384)


def test_file_from_another_cache_format_is_replaced(tmp_path, model):
    cache = EmbeddingCache(tmp_path)
    cache.encode(model, TEXTS[:2])
    with sqlite3.connect(cache.path_for(model)) as con:
        con.execute("UPDATE meta SET v = '0' WHERE k = 'format'")
    emb = Counting(model)
    again = EmbeddingCache(tmp_path)
    again.encode(emb, TEXTS[:2])
    assert any("cache format '0'" in w for w in again.warnings)
    assert sum(emb.calls) == 2  # re-embedded, not trusted


def test_damaged_rows_are_re_embedded(tmp_path, model):
    cache = EmbeddingCache(tmp_path)
    cache.encode(model, TEXTS[:3])
    with sqlite3.connect(cache.path_for(model)) as con:
        con.execute("UPDATE vectors SET v = x'00ff' WHERE rowid = 1")
    emb = Counting(model)
    again = EmbeddingCache(tmp_path)
    vecs = again.encode(emb, TEXTS[:3])
    assert sum(emb.calls) == 1
    np.testing.assert_allclose(vecs, model.encode(TEXTS[:3]), atol=1e-5)


def test_interrupted_run_keeps_finished_chunks(tmp_path, model):
    cache = EmbeddingCache(tmp_path, chunk_size=2)
    cancel = threading.Event()

    def progress(done, total):
        if done >= 2:
            cancel.set()

    with pytest.raises(CancelledError):
        cache.encode(model, TEXTS, progress=progress, cancel=cancel)
    emb = Counting(model)
    resumed = EmbeddingCache(tmp_path, chunk_size=2)
    resumed.encode(emb, TEXTS)
    assert resumed.stats["hits"] == 2 and sum(emb.calls) == 4


def test_concurrent_readers_and_writers(tmp_path, model):
    results: list[np.ndarray] = []
    errors: list[BaseException] = []

    def work():
        try:
            results.append(EmbeddingCache(tmp_path).encode(model, TEXTS))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for r in results:
        np.testing.assert_allclose(r, results[0], atol=1e-6)


def test_unwritable_folder_still_embeds(tmp_path, model):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cache = EmbeddingCache(blocker / "cache")
    assert cache.encode(model, TEXTS[:2]).shape == (2, 384)
    assert any("unavailable" in w for w in cache.warnings)


def test_disabled_cache_and_bad_texts(tmp_path, model):
    cache = EmbeddingCache(tmp_path, enabled=False)
    assert cache.encode(model, TEXTS[:2]).shape == (2, 384)
    assert not list(tmp_path.iterdir())
    with pytest.raises(InputError, match="not a string"):
        cache.encode(model, ["ok", float("nan")])
    with pytest.raises(InputError, match="list of texts"):
        cache.encode(model, "one string")
    assert cache.encode(model, []).shape[0] == 0


@pytest.fixture
def read_only_copy(tmp_path):
    """A real read-only bind mount of a folder (needs root and mount(8); skips otherwise)."""
    import shutil
    import subprocess

    src, ro = tmp_path / "src", tmp_path / "ro"
    src.mkdir()
    ro.mkdir()
    if not shutil.which("mount") or subprocess.run(["mount", "--bind", str(src), str(ro)], capture_output=True).returncode:
        pytest.skip("cannot bind-mount here (needs root)")
    try:
        if subprocess.run(["mount", "-o", "remount,ro,bind", str(ro)], capture_output=True).returncode:
            pytest.skip("cannot remount read-only here")
        yield src, ro
    finally:
        subprocess.run(["umount", str(ro)], capture_output=True)


def test_a_valid_cache_on_a_read_only_mount_is_used_not_moved(read_only_copy, model):
    src, ro = read_only_copy
    writer = EmbeddingCache(src)
    expected = writer.encode(model, TEXTS)
    files = sorted(p.name for p in src.iterdir())
    cache = EmbeddingCache(ro)
    emb = Counting(model)
    got = cache.encode(emb, [*TEXTS, "A new sentence nobody cached."])
    assert np.array_equal(got[: len(TEXTS)], expected)
    assert cache.stats["hits"] == len(TEXTS) and sum(emb.calls) == 1  # only the new text reached the model
    assert any("read-only" in w for w in cache.warnings) and not any("moved" in w for w in cache.warnings)
    assert sorted(p.name for p in src.iterdir()) == files  # nothing moved aside, nothing added
