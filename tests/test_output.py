"""The one output helper (core/output.py): special files refused, permissions kept, temporaries cleaned."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from core.output import OutputError, atomic_writer, check_output, remove_stale_temporaries
from core.textio import atomic_write_text

RECORD = {"id": "r1:PN", "row_id": "r1", "source": "The cat sat.", "foil": "The cat did not sit.", "rule": "PN",
          "variant": "negate", "kept": True, "paraphrase": "The cat was sitting."}  # fmt: skip


@pytest.fixture
def umask():
    """Set the process umask for one test, then restore it."""
    old = os.umask(0o022)
    os.umask(old)
    yield lambda mask: os.umask(mask)
    os.umask(old)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_new_exports_get_the_umask(tmp_path, umask, mask, mode):
    """Workbench bug #15.3: exports were written -rw------- whatever the umask."""
    from core.curated import export_records
    from core.export import write_sentencesmith_csv

    umask(mask)
    for name in ("basket.jsonl", "basket.csv", "basket.parquet"):
        export_records([RECORD], tmp_path / name)
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name
    write_sentencesmith_csv(tmp_path / "direct.csv", [RECORD])
    assert stat.S_IMODE((tmp_path / "direct.csv").stat().st_mode) == mode


def test_a_replaced_file_keeps_its_permissions(tmp_path, umask):
    target = tmp_path / "results.json"
    target.write_text("old")
    target.chmod(0o640)
    umask(0o077)
    atomic_write_text(target, "new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o640


def _device(tmp_path: Path, name: str, major: int, minor: int) -> Path:
    """As root, a private device node (a regression must never replace the machine's /dev/null);
    otherwise the real one, which a user cannot replace."""
    if os.geteuid() != 0:
        return Path("/dev") / name
    node = tmp_path / name
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
    return node


@pytest.mark.parametrize(("name", "major", "minor"), [("null", 1, 3), ("full", 1, 7), ("zero", 1, 5)])
def test_devices_are_refused_and_left_alone(tmp_path, name, major, minor):
    device = _device(tmp_path, name, major, minor)
    with pytest.raises(OutputError, match="character device"):
        atomic_write_text(device, "x")
    assert stat.S_ISCHR(os.stat(device).st_mode)


def test_fifos_and_symlinks_to_devices_are_refused(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="FIFO"):
        atomic_write_text(fifo, "x")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    link = tmp_path / "null-link"
    link.symlink_to(_device(tmp_path, "null", 1, 3))
    with pytest.raises(OutputError, match="character device"):
        atomic_write_text(link, "x")
    assert link.is_symlink()


def test_a_symlink_to_a_regular_file_is_followed_and_kept(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    atomic_write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputError, match="No space left") as err:
        atomic_write_text(target, "new\n")
    assert err.value.errno == errno.ENOSPC and isinstance(err.value, OSError)
    assert "free some space" in err.value.hint
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_an_exception_mid_write_removes_the_temporary(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(KeyboardInterrupt), atomic_writer(target) as fh:
        fh.write("half")
        raise KeyboardInterrupt
    assert not list(tmp_path.iterdir())


def test_stale_temporaries_of_killed_runs_are_removed_live_ones_kept(tmp_path):
    target = tmp_path / "foils.jsonl"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f".foils.jsonl.{int(dead.stdout)}.abc123.tmp"
    stale.write_text("20 MB of a killed run")
    live = tmp_path / f".foils.jsonl.{os.getppid()}.def456.tmp"  # a running process: maybe writing now
    live.write_text("in progress")
    other = tmp_path / f".other.jsonl.{int(dead.stdout)}.abc123.tmp"
    other.write_text("another target's")
    atomic_write_text(target, "done\n")
    assert not stale.exists() and live.exists() and other.exists()
    assert remove_stale_temporaries(tmp_path / "other.jsonl") == [other]


def test_check_output_names_the_problem_before_any_work(tmp_path):
    a_file = tmp_path / "f"
    a_file.write_text("x")
    with pytest.raises(OutputError, match="is a folder"):
        check_output(tmp_path)
    with pytest.raises(OutputError, match="is a file"):
        check_output(a_file / "out.json")
    with pytest.raises(OutputError, match="is a file, not a folder"):
        check_output(a_file, folder=True)
    assert check_output(tmp_path / "new" / "deeper" / "out.json").parent.is_dir()


def test_check_output_sees_a_real_read_only_mount(tmp_path):
    src, ro = tmp_path / "src", tmp_path / "ro"
    src.mkdir()
    ro.mkdir()
    if subprocess.run(["mount", "--bind", str(src), str(ro)], capture_output=True).returncode:
        pytest.skip("cannot bind-mount here (needs root)")
    try:
        if subprocess.run(["mount", "-o", "remount,ro,bind", str(ro)], capture_output=True).returncode:
            pytest.skip("cannot remount read-only")
        with pytest.raises(OutputError, match="read-only") as err:
            check_output(ro / "out.json")
        assert "write somewhere else" in err.value.hint
    finally:
        subprocess.run(["umount", str(ro)], capture_output=True)


def test_writers_in_the_repo_go_through_the_helper():
    """Every atomic writer uses core.output: no other module renames a temporary file over a result."""
    root = Path(__file__).resolve().parents[1]
    offenders = []
    for path in [*root.glob("core/**/*.py"), *root.glob("smithtui/**/*.py")]:
        text = path.read_text(encoding="utf-8")
        if "os.replace(" in text and path.name not in ("output.py", "cache.py", "packaged.py"):
            offenders.append(str(path.relative_to(root)))
    # cache.py moves a corrupt cache aside; packaged.py installs a model folder: neither writes a result
    assert offenders == []
