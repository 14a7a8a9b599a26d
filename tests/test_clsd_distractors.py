"""Distractor generation: the foil engine (English) and an OpenAI-compatible endpoint (a local stub server only)."""

from __future__ import annotations

import dataclasses
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from core.clsd.distractors import (
    ChatEndpoint,
    EndpointError,
    PairRow,
    distractor_rows,
    foil_distractors,
    generate,
    llm_distractors,
    load_foil_pipeline,
    parse_answer,
)
from core.config import Settings, apply_overrides
from core.errors import ConfigError, InputError


class _Stub:
    """A bounded local chat server: answers queued replies, records requests."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.replies: list[tuple[int, object, float]] = []  # (status, body, delay)
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length).decode("utf-8"))
                stub.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                status, payload, delay = stub.replies.pop(0) if stub.replies else (500, {"error": "no reply"}, 0)
                time.sleep(delay)
                data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def answer(self, content: str, status: int = 200, delay: float = 0.0) -> None:
        self.replies.append((status, {"choices": [{"message": {"role": "assistant", "content": content}}]}, delay))


@pytest.fixture
def stub() -> Iterator[_Stub]:
    s = _Stub()
    s.thread.start()
    try:
        yield s
    finally:
        s.server.shutdown()
        s.server.server_close()
        s.thread.join(timeout=5)


def _settings(url: str, **extra: object) -> Settings:
    values = {"clsd.llm_enabled": True, "clsd.llm_url": url, "clsd.llm_model": "tiny-chat", "clsd.llm_timeout": 5}
    return apply_overrides(Settings(), values | {f"clsd.{k}": v for k, v in extra.items()})


def test_endpoint_is_off_by_default():
    with pytest.raises(ConfigError, match="off"):
        ChatEndpoint.from_settings(Settings())
    with pytest.raises(ConfigError, match="URL and a model"):
        ChatEndpoint.from_settings(apply_overrides(Settings(), {"clsd.llm_enabled": True}))


def test_llm_distractors_from_a_stub_server(stub, monkeypatch):
    monkeypatch.setenv("TEST_CLSD_KEY", "sekret")
    endpoint = ChatEndpoint.from_settings(_settings(stub.url, llm_api_key_env="TEST_CLSD_KEY"))
    stub.answer(
        '```json\n["Die Katze schläft unter dem Sofa.", "Der Hund schläft auf dem Sofa.", '
        '"Die Katze schläft auf dem Sofa.", "Die Katze spielt auf dem Sofa.", "Die Katze spielt auf dem Sofa.", '
        '"Die Katze schläft nicht auf dem Sofa."]\n```'
    )
    out = llm_distractors(endpoint, "Die Katze schläft auf dem Sofa.", language="de", k=4, seed=5)
    assert [d.text for d in out.distractors] == [
        "Die Katze schläft unter dem Sofa.",
        "Der Hund schläft auf dem Sofa.",
        "Die Katze spielt auf dem Sofa.",
        "Die Katze schläft nicht auf dem Sofa.",
    ]  # the copy of the original and the duplicate are dropped
    assert out.error is None and out.distractors[0].origin == "llm:tiny-chat"
    req = stub.requests[0]
    assert req["path"] == "/v1/chat/completions" and req["auth"] == "Bearer sekret"
    assert req["body"]["model"] == "tiny-chat" and isinstance(req["body"]["seed"], int)
    prompt = req["body"]["messages"][-1]["content"]
    assert "in German" in prompt and "Die Katze schläft auf dem Sofa." in prompt and "JSON list of 4" in prompt


def test_short_answers_are_row_errors_and_generate_writes_the_generic_layout(stub):
    settings = _settings(stub.url)
    stub.answer("1. Le chien dort.\n2. Le chat mange.")
    stub.answer('["Le train part à neuf heures.", "Le bus part à huit heures."]')
    rows = [PairRow("a", "Die Katze schläft.", "Le chat dort."), PairRow("b", "x", ""),
            PairRow("c", "Der Zug fährt um acht.", "Le train part à huit heures.")]
    sets = list(generate(rows, backend="llm", language="fr", settings=settings, k=2))
    assert [s.error for s in sets] == [None, "empty target", None]
    table, cols = distractor_rows(sets, 2)
    assert cols == ["id", "source", "target", "adv1", "adv2", "origins", "error"]
    assert table[0]["adv1"] == "Le chien dort." and table[2]["adv2"] == "Le bus part à huit heures."
    assert len(stub.requests) == 2  # the empty target was never sent


def test_http_errors_and_bad_payloads_are_clear(stub):
    endpoint = ChatEndpoint.from_settings(_settings(stub.url))
    stub.replies.append((500, {"error": "boom"}, 0))
    with pytest.raises(EndpointError, match="HTTP 500"):
        endpoint.chat([{"role": "user", "content": "hi"}])
    stub.replies.append((200, "not json", 0))
    with pytest.raises(EndpointError, match="OpenAI chat format"):
        endpoint.chat([{"role": "user", "content": "hi"}])


def test_unreachable_endpoint_fails_fast_and_alone():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    endpoint = ChatEndpoint(f"http://127.0.0.1:{port}/v1", "tiny-chat", timeout=2)
    start = time.perf_counter()
    with pytest.raises(EndpointError) as err:
        llm_distractors(endpoint, "The cat sleeps.", language="en")
    assert time.perf_counter() - start < 2.5
    assert "cannot reach the chat endpoint" in err.value.message and "llm_url" in err.value.hint


def test_slow_endpoint_times_out(stub):
    endpoint = dataclasses.replace(ChatEndpoint.from_settings(_settings(stub.url)), timeout=0.3)
    stub.answer('["x"]', delay=1.0)
    with pytest.raises(EndpointError, match="cannot reach"):
        endpoint.chat([{"role": "user", "content": "hi"}])


def test_parse_answer_variants():
    assert parse_answer('{"sentences": ["a b", "c d"]}') == ["a b", "c d"]
    assert parse_answer('- "one"\n* two\n(3) three') == ["one", "two", "three"]
    assert parse_answer("") == []


def test_foil_backend_is_english_only():
    with pytest.raises(InputError, match="English"):
        list(generate([PairRow("a", "x", "Le chat dort.")], backend="foils", language="fr", settings=Settings()))
    with pytest.raises(ConfigError, match="unknown distractor backend"):
        list(generate([], backend="magic", language="en", settings=Settings()))


@pytest.mark.slow
def test_foil_engine_writes_seeded_english_distractors():
    pipeline = load_foil_pipeline(Settings())
    a = foil_distractors(pipeline, "The dog chased the cat.", k=3, seed=7)
    b = foil_distractors(pipeline, "The dog chased the cat.", k=3, seed=7)
    assert a == b and len(a.distractors) == 3
    texts = [d.text for d in a.distractors]
    assert "The dog chased the cat." not in texts and len(set(texts)) == 3
    assert all(d.origin.startswith("foil:") for d in a.distractors)
    assert len({d.origin for d in a.distractors}) >= 2  # rules are taken round-robin
