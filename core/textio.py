"""Reading user files robustly and writing results atomically.

Readers sniff the encoding (BOMs, UTF-8, UTF-16 without BOM, then cp1252) and
refuse binary data with a clear :class:`~core.errors.InputError`. Writers go
through :func:`core.output.atomic_writer` (temporary file beside the target, then
``os.replace``; special files refused, permissions kept).

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
import math
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.output import atomic_writer

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


def _input_file(path: str | os.PathLike[str]) -> Path:
    """``path`` as a Path, or the one-line error for a missing file or a folder."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"file not found: {p}", hint="check the path")
    if p.is_dir():
        raise InputError(f"{p} is a folder, not a file", hint="name a file inside it")
    return p


def read_text(path: str | os.PathLike[str]) -> str:
    """Read a text file in whatever encoding it uses (see :func:`sniff_encoding`)."""
    p = _input_file(path)
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
    return list(iter_rows(path, fmt=fmt))  # one reader: the streaming one


def read_table_lines(path: str | os.PathLike[str], *, fmt: str | None = None) -> list[tuple[int, dict[str, Any]]]:
    """Like :func:`read_rows` for CSV/TSV, each row with the file line it starts on (blank lines and
    quoted line breaks counted), so reports name the right line."""
    fmt = fmt or table_format(path)
    return read_delimited(read_text(path), path, fmt)


def read_delimited(text: str, path: str | os.PathLike[str], fmt: str) -> list[tuple[int, dict[str, Any]]]:
    """CSV/TSV rows as dicts with the line each starts on; see :func:`iter_delimited`."""
    return list(iter_delimited(io.StringIO(text), path, fmt))


def iter_delimited(fh: Iterable[str], path: str | os.PathLike[str], fmt: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """CSV/TSV rows as dicts, streamed, refusing what would silently merge or shift rows.

    An unclosed quote makes the csv module swallow the following lines into one field:
    a quoted field that runs over lines which themselves look like rows (they hold the
    delimiter), or that runs to the end of the file, stops the read with its line number.
    """
    delimiter = "\t" if fmt == "tsv" else ","
    name = "tab" if fmt == "tsv" else "comma"
    reader = csv.reader(fh, delimiter=delimiter, strict=True)
    header: list[str] | None = None
    last = 0
    try:
        for fields in reader:
            start, last = last + 1, reader.line_num
            if last > start and any("\n" in f for f in fields):
                inside = [part for f in fields if "\n" in f for part in f.split("\n")[1:]]
                if any(delimiter in part for part in inside):  # the field swallowed what look like rows
                    raise InputError(
                        f"{path}, line {start}: a quoted field runs on to line {last}, over lines that look like rows",
                        hint=f"close the quote on line {start}, or double a quote inside a quoted field (\"\")",
                    )
            if header is None:
                header = fields
                continue
            if not any(f.strip() for f in fields):
                continue  # a blank line
            if len(fields) > len(header):
                raise InputError(
                    f"{path}, line {start}: more fields than the header has ({len(fields)}, not {len(header)})",
                    hint=f"check the delimiter ({name}) and the quoting",
                )
            yield start, {h: (fields[i] if i < len(fields) else None) for i, h in enumerate(header)}
    except csv.Error as exc:
        if "end of data" in str(exc):
            raise InputError(
                f"{path}, line {last + 1}: a quote opened here is never closed",
                hint='close the quote, or double a quote inside a quoted field (""); '
                "the rest of the file would be read as one field",
            ) from exc
        where = f", found on line {reader.line_num}" if reader.line_num > last + 1 else ""
        raise InputError(
            f"{path}, line {last + 1}: not valid {fmt.upper()} ({exc}{where})",
            hint='check the quoting of that row; a quote inside a quoted field is written ""',
        ) from exc
    if header is None:
        raise InputError(f"{path} is empty", hint=f"a {fmt.upper()} file needs a header row")


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


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_writer(path) as fh:
        fh.write(text)


def atomic_write_jsonl(path: str | os.PathLike[str], records: Iterable[Mapping[str, Any]]) -> int:
    """Write records as JSON lines atomically; returns how many were written."""
    n = 0
    with atomic_writer(path) as fh:
        for record in records:
            fh.write(to_json(record) + "\n")
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
    atomic_write_text(path, to_json(value, indent=2) + "\n")


def finite_json(value: Any) -> Any:
    """``value`` with every non-finite float (NaN, ±Infinity, numpy's too) replaced by None, so the JSON we
    write parses under a strict parser; numpy scalars and arrays become Python numbers and lists.

    >>> finite_json({"auc": float("nan"), "xs": [1.0, float("inf")], "n": 2})
    {'auc': None, 'xs': [1.0, None], 'n': 2}
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [finite_json(v) for v in value]
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        return finite_json(value.tolist())
    return value


def to_json(value: Any, **kwargs: Any) -> str:
    """``json.dumps`` for everything this project writes: non-finite numbers become null (never ``NaN``), and
    :func:`json_default` serialises paths, sets and dataclasses; keyword arguments go to ``json.dumps``."""
    kwargs.setdefault("ensure_ascii", False)
    return json.dumps(finite_json(value), allow_nan=False, default=lambda v: finite_json(json_default(v)), **kwargs)


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
    p = _input_file(path)
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
        for _, row in iter_delimited(fh, path, fmt):
            yield row
