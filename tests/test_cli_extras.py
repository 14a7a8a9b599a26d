"""`python -m smithtui`, shell completion, py.typed, and the a/an rule."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.foils.realize.morph import indefinite_article
from smithtui.cli import main
from smithtui.commands.completion import completion_script

ROOT = Path(__file__).resolve().parents[1]


def test_python_dash_m_runs_the_cli():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "smithtui", "--version"], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout.startswith("smithtui ")
    bad = subprocess.run([sys.executable, "-m", "smithtui", "eval"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "no triples given" in bad.stderr


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_scripts_name_every_command_and_flag(shell, capsys):
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    assert script == completion_script(shell)
    for word in ("foils", "eval", "export-task", "completion", "--amr-out", "--out-mteb", "st-triplets"):
        assert word in script


def test_bash_completion_loads_and_completes():
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash here")
    script = completion_script("bash")
    probe = script + '\nCOMP_WORDS=(smithtui exp); COMP_CWORD=1; COMP_LINE="smithtui exp"; COMP_POINT=12\n'
    probe += "_shtab_smithtui; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
    out = subprocess.run([bash, "-c", probe], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "export-task" in out.stdout.split()


def test_packages_are_typed():
    assert (ROOT / "core" / "py.typed").is_file() and (ROOT / "smithtui" / "py.typed").is_file()
    assert 'core = ["py.typed"]' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


ARTICLES = {
    "herbivore": "a", "utensil": "a", "unanimous": "a", "U-turn": "a", "X-ray": "an", "hour": "an",
    "honest": "an", "heir": "an", "unhappy": "an", "user": "a", "uniform": "a", "European": "a", "one": "a",
    "FBI": "an", "MRI": "an", "UN": "a", "NASA": "a", "apple": "an", "dog": "a", "8": "an", "11-year-old": "an", "110": "a", "18,000": "an", "80s": "an", "1": "a",
}  # fmt: skip


def test_indefinite_article_follows_the_initial_sound():
    assert {w: indefinite_article(w) for w in ARTICLES} == ARTICLES
    assert indefinite_article('"odd') == "an" and indefinite_article("") == "a"
