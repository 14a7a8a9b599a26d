"""Reading user files robustly and writing results atomically.

Readers sniff the encoding (BOMs, UTF-8, UTF-16 without BOM, then cp1252) and
refuse binary data with a clear :class:`~core.errors.InputError`. Writers go
through a temporary file in the same folder and an ``os.replace``.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_text(d / "a.txt", "héllo")
>>> read_text(d / "a.txt")
'héllo'
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import io
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from core.errors import InputError

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def sniff_encoding(data: bytes) -> str:
    """Guess the encoding of ``data``.

    >>> sniff_encoding("é".encode("utf-16"))
    'utf-16'
    >>> sniff_encoding("é".encode("utf-8"))
    'utf-8'
    >>> sniff_encoding("ab".encode("utf-16-le"))
    'utf-16-le'
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    head = data[:4096]
    if head and head.count(b"\x00") > len(head) // 4:
        # UTF-16 without a BOM: ASCII characters leave every other byte zero.
        even_zeros = head[0::2].count(0)
        odd_zeros = head[1::2].count(0)
        return "utf-16-le" if odd_zeros > even_zeros else "utf-16-be"
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        return "cp1252"


def decode_bytes(data: bytes, *, source: str = "input") -> str:
    """Decode ``data`` with the sniffed encoding, refusing binary content."""
    encoding = sniff_encoding(data)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{source} is not readable text ({exc.reason} at byte {exc.start})",
            hint="save it as UTF-8 (or UTF-16 with a BOM) and try again",
        ) from exc
    controls = sum(1 for ch in text[:20000] if ord(ch) < 32 and ch not in "\t\n\r\f\v")
    if "\x00" in text or controls > max(8, len(text[:20000]) // 100):
        raise InputError(
            f"{source} looks like binary data, not text",
            hint="give a plain text, CSV, TSV or JSONL file",
        )
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_text(path: str | os.PathLike[str]) -> str:
    """Read a text file in whatever encoding it uses (see :func:`sniff_encoding`)."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"file not found: {p}", hint="check the path")
    if p.is_dir():
        raise InputError(f"{p} is a folder, not a file", hint="name a file inside it")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {p}: {exc.strerror}", hint="check its permissions") from exc
    return decode_bytes(data, source=str(p))


def table_format(path: str | os.PathLike[str]) -> str:
    """The table format named by a file's suffix: ``csv``, ``tsv``, ``jsonl`` or ``txt``."""
    suffix = Path(path).suffix.lower()
    return {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl"}.get(
        suffix, "txt"
    )


def read_rows(path: str | os.PathLike[str], *, fmt: str | None = None) -> list[dict[str, Any]]:
    """Read a CSV/TSV/JSONL file into dictionaries (one per row).

    A text file (``txt``) gives one row per non-blank line, under the key ``sentence``.
    """
    fmt = fmt or table_format(path)
    text = read_text(path)
    if fmt == "txt":
        return [{"sentence": line, "line": n} for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    if fmt == "jsonl":
        rows: list[dict[str, Any]] = []
        for n, line in enumerate(text.split("\n"), 1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(
                    f"{path}, line {n}: not valid JSON ({exc.msg})", hint="each line must be one JSON object"
                ) from exc
            if not isinstance(value, dict):
                raise InputError(f"{path}, line {n}: expected a JSON object", hint="each line must be one JSON object")
            rows.append(value)
        return rows
    delimiter = "\t" if fmt == "tsv" else ","
    try:
        reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
        rows = [dict(r) for r in reader]
    except csv.Error as exc:
        raise InputError(f"{path} is not valid {fmt.upper()}: {exc}", hint="check its quoting") from exc
    if reader.fieldnames is None:
        raise InputError(f"{path} is empty", hint=f"a {fmt.upper()} file needs a header row")
    for n, row in enumerate(rows, 2):
        if None in row:
            raise InputError(
                f"{path}, row {n}: more fields than the header has",
                hint=f"check the delimiter ({'tab' if fmt == 'tsv' else 'comma'}) and the quoting",
            )
    return rows


def pick_column(
    columns: Sequence[str], wanted: str | None, candidates: Sequence[str], *, path: str, what: str
) -> str | None:
    """Find the column for ``what``: the one named, else the first candidate present.

    Returns None when none is present and nothing was asked for; raises when the
    named column is missing.
    """
    lowered = {c.lower().strip(): c for c in columns}
    if wanted:
        if wanted in columns:
            return wanted
        if wanted.lower() in lowered:
            return lowered[wanted.lower()]
        raise InputError(
            f"column {wanted!r} not found in {path}",
            hint=f"columns are: {', '.join(columns) or '(none)'}",
        )
    for cand in candidates:
        if cand in lowered:
            return lowered[cand]
    return None


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8") -> Iterator[Any]:
    """Open a temporary file beside ``path``; on success fsync and rename it over ``path``.

    On any error the temporary file is removed and ``path`` is left as it was.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, mode, encoding=None if "b" in mode else encoding, newline="" if "b" not in mode else None) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_writer(path) as fh:
        fh.write(text)


def atomic_write_jsonl(path: str | os.PathLike[str], records: Iterable[Mapping[str, Any]]) -> int:
    """Write records as JSON lines atomically; returns how many were written."""
    n = 0
    with atomic_writer(path) as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False, default=json_default) + "\n")
            n += 1
    return n


def atomic_write_csv(
    path: str | os.PathLike[str], rows: Iterable[Mapping[str, Any]], columns: Sequence[str], *, delimiter: str = ","
) -> int:
    """Write rows (only ``columns``, in that order) as CSV atomically."""
    n = 0
    with atomic_writer(path) as fh:
        writer = csv.DictWriter(fh, fieldnames=list(columns), delimiter=delimiter, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({c: row.get(c, "") for c in columns})
            n += 1
    return n


def atomic_write_json(path: str | os.PathLike[str], value: Any) -> None:
    """Write one JSON document atomically (pretty-printed)."""
    atomic_write_text(path, json.dumps(value, ensure_ascii=False, indent=2, default=json_default) + "\n")


def json_default(value: Any) -> Any:
    """Serialise numpy scalars/arrays, paths, sets and dataclasses."""
    import dataclasses

    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, Path):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return str(value)


SNIFF_BYTES = 1 << 20
"""How much of a file :func:`open_text` reads to guess its encoding and refuse binary data."""


@contextlib.contextmanager
def open_text(path: str | os.PathLike[str]) -> Iterator[io.TextIOBase]:
    """Open a text file for streaming, with the encoding sniffed from its first megabyte.

    Same checks and newline handling as :func:`read_text`, without reading the whole file.
    """
    p = Path(path)
    if not p.exists():
        raise InputError(f"file not found: {p}", hint="check the path")
    if p.is_dir():
        raise InputError(f"{p} is a folder, not a file", hint="name a file inside it")
    try:
        fh = open(p, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise InputError(f"cannot read {p}: {exc.strerror}", hint="check its permissions") from exc
    try:
        head = fh.read(SNIFF_BYTES)
        encoding = sniff_encoding(head)
        if encoding == "cp1252" and len(head) == SNIFF_BYTES:
            with contextlib.suppress(UnicodeDecodeError):  # a multi-byte character cut by the sniff window
                head[:-3].decode("utf-8")
                encoding = "utf-8"
        cut = len(head) == SNIFF_BYTES  # the window may end inside a character
        sample = head.decode(encoding, errors="ignore" if cut else "strict")
        controls = sum(1 for ch in sample[:20000] if ord(ch) < 32 and ch not in "\t\n\r\f\v")
        if "\x00" in sample or controls > max(8, len(sample[:20000]) // 100):
            raise InputError(f"{p} looks like binary data, not text", hint="give a plain text, CSV, TSV or JSONL file")
        fh.seek(0)
        text = io.TextIOWrapper(fh, encoding=encoding, newline=None)
        yield text
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{p} is not readable text ({exc.reason})", hint="save it as UTF-8 (or UTF-16 with a BOM) and try again"
        ) from exc
    finally:
        fh.close()


def iter_rows(path: str | os.PathLike[str], *, fmt: str | None = None) -> Iterator[dict[str, Any]]:
    """Stream the rows :func:`read_rows` returns, one at a time (memory does not grow with the file)."""
    fmt = fmt or table_format(path)
    with open_text(path) as fh:
        if fmt == "txt":
            for n, line in enumerate(fh, 1):
                line = line.rstrip("\n")
                if line.strip():
                    yield {"sentence": line, "line": n}
            return
        if fmt == "jsonl":
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(
                        f"{path}, line {n}: not valid JSON ({exc.msg})", hint="each line must be one JSON object"
                    ) from exc
                if not isinstance(value, dict):
                    raise InputError(f"{path}, line {n}: expected a JSON object", hint="each line must be one JSON object")
                yield value
            return
        delimiter = "\t" if fmt == "tsv" else ","
        reader = csv.DictReader(fh, delimiter=delimiter)
        try:
            if reader.fieldnames is None:
                raise InputError(f"{path} is empty", hint=f"a {fmt.upper()} file needs a header row")
            for n, row in enumerate(reader, 2):
                if None in row:
                    raise InputError(
                        f"{path}, row {n}: more fields than the header has",
                        hint=f"check the delimiter ({'tab' if fmt == 'tsv' else 'comma'}) and the quoting",
                    )
                yield dict(row)
        except csv.Error as exc:
            raise InputError(f"{path} is not valid {fmt.upper()}: {exc}", hint="check its quoting") from exc
