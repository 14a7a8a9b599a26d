"""core stays headless: no textual/smithtui, and no heavy ML import at module import time."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import core

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = ("textual", "smithtui", "torch", "transformers", "sentence_transformers", "amrlib", "onnxruntime", "matplotlib")


def core_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(core.__path__, prefix="core."))


def test_every_core_module_imports_light():
    script = (
        "import importlib, sys, json\n"
        f"mods = {core_modules()!r}\n"
        f"forbidden = {FORBIDDEN!r}\n"
        "bad = {}\n"
        "for m in mods:\n"
        "    before = set(sys.modules)\n"
        "    importlib.import_module(m)\n"
        "loaded = [f for f in forbidden if f in sys.modules]\n"
        "print(json.dumps(loaded))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", f"core imported heavy or UI modules at import time: {out.stdout}"


def test_core_sources_never_import_ui():
    for path in (ROOT / "core").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for line in text.splitlines():
            stripped = line.strip()
            assert not stripped.startswith(("import textual", "from textual", "import smithtui", "from smithtui")), path
