"""``smithtui serve``: a real textual-serve server on loopback, and refusal of a public address without consent."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from smithtui.cli import main

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_public_host_is_refused_without_consent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err
    assert "would let other machines use the workbench" in err and "hint:" in err
    assert main(["serve", "--port", "70000"]) == 2


def listening_hosts(port: int) -> set[str]:
    """Local addresses listening on ``port``, from /proc/net/tcp (IPv4)."""
    hosts = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        addr, p = local.split(":")
        if int(p, 16) == port and state == "0A":  # LISTEN
            hosts.add(socket.inet_ntoa(bytes.fromhex(addr)[::-1]))
    return hosts


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs /proc/net/tcp")
def test_serve_listens_on_loopback_only_and_serves_the_page(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from smithtui.cli import main; raise SystemExit(main())", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        page = ""
        for _ in range(120):
            time.sleep(0.5)
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as resp:
                    page = resp.read().decode("utf-8", "replace")
                break
            except OSError:
                if proc.poll() is not None:
                    break
        assert "SentenceSmith Workbench" in page, proc.stderr.read().decode() if proc.poll() is not None else page
        assert listening_hosts(port) == {"127.0.0.1"}
    finally:
        proc.terminate()
        proc.wait(timeout=20)
