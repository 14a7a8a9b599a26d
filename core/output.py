"""Writing result files safely: one helper that every writer in the repo goes through.

Policy (issue #17):

- **Special files are refused.** An existing target that is not a regular file (a device
  such as ``/dev/null`` or ``/dev/full``, a FIFO, a socket, or a symlink to one of them)
  is never replaced: the write stops with a one-line :class:`OutputError` before any work.
  Writing straight through to a device was rejected because an atomic rename cannot be
  honoured there and a half-written stream would look like a result. A symlink to a
  regular file is followed: the file it names is replaced and the link kept.
- **Permissions.** A replaced file keeps its mode bits; a new file gets ``0o666 & ~umask``
  (``tempfile.mkstemp`` alone would leave it ``-rw-------``).
- **Temporary files** (``.<name>.<pid>.<random>.tmp`` beside the target) are removed on any
  failure; stale ones left by a killed run (their pid no longer alive) are removed by the
  next write to the same target.
- **Lone surrogates** (``"\\ud800"`` read from JSON) have no UTF-8 form: text files write them
  as ``\\ud800`` escapes (in JSONL exactly the JSON escape they came from) instead of failing.
- **Errors** from the file system become one-line :class:`OutputError` messages with a hint,
  and :func:`check_output` finds most of them (folder missing or not writable, no space,
  a special file, a folder where a file is expected) *before* the long work starts.

>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> with atomic_writer(d / "a.txt") as fh:
...     _ = fh.write("hi")
>>> (d / "a.txt").read_text()
'hi'
>>> check_output("/dev/null")
Traceback (most recent call last):
core.output.OutputError: --out /dev/null is a character device, not a regular file (hint: name a regular file; smithtui never writes over devices, FIFOs or sockets)
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.errors import SmithError

MIN_FREE_BYTES = 1 << 20
""":func:`check_output` refuses a folder with less free space than this (1 MiB)."""

_TMP = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[A-Za-z0-9_]+\.tmp$")

_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)

_HINTS = {
    errno.ENOSPC: "free some space on that disk or write somewhere else",
    errno.EDQUOT: "your disk quota is used up; free some space or write somewhere else",
    errno.EROFS: "that file system is read-only; write somewhere else",
    errno.EACCES: "you may not write there; check the folder's permissions or write somewhere else",
    errno.EPERM: "you may not write there; check the folder's permissions or write somewhere else",
    errno.ENOTDIR: "a file stands where a folder is expected in that path; pick another path",
    errno.EISDIR: "name a file, not a folder",
    errno.ENAMETOOLONG: "use a shorter file name",
}


class OutputError(SmithError, OSError):
    """A result that cannot be written where it was asked to go.

    Also an ``OSError`` (with ``errno``/``strerror``/``filename`` when it came from one), so
    callers that already handle file-system errors keep working."""


def os_error(exc: OSError, path: str | os.PathLike[str], what: str = "write") -> OutputError:
    """The one-line :class:`OutputError` for an ``OSError`` met while writing ``path``.

    >>> str(os_error(OSError(28, "No space left on device"), "out.jsonl"))
    'cannot write out.jsonl: No space left on device (hint: free some space on that disk or write somewhere else)'
    """
    reason = exc.strerror or str(exc) or type(exc).__name__
    hint = _HINTS.get(exc.errno or -1, "check the path, its permissions and the free space")
    err = OutputError(f"cannot {what} {path}: {reason}", hint=hint)
    err.errno, err.strerror, err.filename = exc.errno, exc.strerror, str(path)
    return err


def _special_kind(path: Path) -> str | None:
    """What ``path`` is when it exists and is not a regular file or folder (following symlinks)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return None


def check_output(path: str | os.PathLike[str], *, folder: bool = False, flag: str = "--out") -> Path:
    """Check, before any long work, that ``path`` can be written; returns it.

    ``folder=True`` checks a results folder (created here if missing). Raises
    :class:`OutputError` for a special file, a folder where a file is wanted (or the
    reverse), a parent that is not a folder, a folder that is not writable, or less
    than :data:`MIN_FREE_BYTES` free.
    """
    target = Path(path)
    kind = _special_kind(target)
    if kind is not None:
        raise OutputError(
            f"{flag} {target} is {kind}, not a regular {'folder' if folder else 'file'}",
            hint="name a regular file; smithtui never writes over devices, FIFOs or sockets",
        )
    if folder:
        if target.exists() and not target.is_dir():
            raise OutputError(f"{flag} {target} is a file, not a folder", hint="name a folder for the results")
        directory = target
    else:
        if target.is_dir():
            raise OutputError(f"{flag} {target} is a folder", hint="name a file inside it, e.g. results.json")
        directory = target.parent
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except FileExistsError as exc:
        raise OutputError(
            f"cannot create the folder for {flag} {target}: {exc.filename or directory} is a file",
            hint="a file stands where a folder is expected in that path; pick another path",
        ) from exc
    except OSError as exc:
        raise os_error(exc, target, "create the folder for") from exc
    try:  # a real probe: os.access says yes to root even where the write will fail
        fd, probe = tempfile.mkstemp(prefix=".smithtui-probe.", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise os_error(exc, target) from exc
    free = shutil.disk_usage(directory).free
    if free < MIN_FREE_BYTES:
        raise OutputError(
            f"cannot write {target}: only {free} bytes free on that disk",
            hint="free some space on that disk or write somewhere else",
        )
    return target


def _umask() -> int:
    """The process umask, read without changing it where /proc allows."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    old = os.umask(0o022)
    os.umask(old)
    return old


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def remove_stale_temporaries(target: str | os.PathLike[str]) -> list[Path]:
    """Delete temporary files of ``target`` left by runs that were killed; returns them.

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp()); _ = (d / ".a.txt.999999999.x1.tmp").write_text("old")
    >>> [p.name for p in remove_stale_temporaries(d / "a.txt")]
    ['.a.txt.999999999.x1.tmp']
    """
    t = Path(target)
    removed: list[Path] = []
    with contextlib.suppress(OSError):
        for entry in t.parent.iterdir():
            m = _TMP.match(entry.name)
            if m and m["name"] == t.name and int(m["pid"]) != os.getpid() and not _pid_alive(int(m["pid"])):
                with contextlib.suppress(OSError):
                    entry.unlink()
                    removed.append(entry)
    return removed


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8") -> Iterator[Any]:
    """Open a temporary file beside ``path``; on success fsync and rename it over ``path``.

    On any error the temporary file is removed and ``path`` is left as it was; file-system
    errors become :class:`OutputError`. See the module docstring for the policy.
    """
    target = check_output(path, flag="output")
    with contextlib.suppress(OSError):
        if target.is_symlink():
            target = target.resolve()  # replace the file the link names, keep the link
    remove_stale_temporaries(target)
    try:
        existing = target.stat().st_mode
    except OSError:
        existing = None
    perms = stat.S_IMODE(existing) if existing is not None else 0o666 & ~_umask()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise os_error(exc, target) from exc
    try:
        binary = "b" in mode
        text_args = {} if binary else {"encoding": encoding, "newline": "", "errors": "backslashreplace"}
        with os.fdopen(fd, mode, **text_args) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, perms)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, SmithError):
            raise os_error(exc, target) from exc
        raise
