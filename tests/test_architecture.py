"""core stays headless: no textual/smithtui, and no heavy ML import at module import time."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

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


FIRST_PARTY = ("core", "smithtui")
IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError"}


def _imports_first_party(node: ast.AST) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Import) and any(a.name.split(".")[0] in FIRST_PARTY for a in n.names):
            return True
        if isinstance(n, ast.ImportFrom) and n.level == 0 and (n.module or "").split(".")[0] in FIRST_PARTY:
            return True
    return False


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return handler.type is None or any(isinstance(k, ast.Name) and k.id in IMPORT_ERRORS for k in kinds)


def test_first_party_imports_are_never_guarded():
    """A first-party import behind ``except ImportError`` turns a bug into a silent fallback; only optional
    third-party packages may be guarded (put them in a try of their own)."""
    guarded = []
    for path in [*(ROOT / "core").rglob("*.py"), *(ROOT / "smithtui").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Try)
                and any(_catches_import_error(h) for h in node.handlers)
                and any(_imports_first_party(stmt) for stmt in node.body)
            ):
                guarded.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert guarded == [], f"first-party imports behind an ImportError guard: {guarded}"



FACES = ("core", "core.foils", "core.evaluate", "core.embed", "core.clsd", "core.variation")


def test_every_face_name_resolves():
    """A face lists names and their modules; a name moved or renamed without updating the table fails here,
    not in the UI at the first click (the lookup is lazy)."""
    for face in FACES:
        package = importlib.import_module(face)
        for name in package.__all__:
            value = getattr(package, name)
            assert not callable(value) or value.__name__ == name, (face, name, value)
        with pytest.raises(AttributeError, match=f"module '{face}' has no attribute 'no_such_name'"):
            package.no_such_name  # noqa: B018
