"""The bad-input suite (issue #17): every command, as a hostile user would drive it.

Each case asserts the exit code, that the error is ONE line (``smithtui: error: ... (hint: ...)``,
the last line of stderr, no traceback, no "internal error"), and that no existing file was
harmed (a precious output file keeps its bytes; a device or FIFO stays what it was). Cases run
in-process through ``smithtui.cli.main`` (fast); only signals, raw stdin bytes and undecodable
arguments use a real subprocess. Inputs are tiny and evaluation uses the lexical ``bow`` model.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from smithtui.cli import main

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
PRECIOUS = b"precious results, must survive\n"
SENTENCES = "The cat chased the mouse.\nThe man did not open the door.\n"
TRIPLES = [
    {"source": "The cat chased the mouse.", "paraphrase": "The mouse was chased by the cat.",
     "foil": "The mouse chased the cat.", "rule": "RS"},
    {"source": "The man opened the door.", "paraphrase": "The door was opened by the man.",
     "foil": "The man did not open the door.", "rule": "PN"},
    {"source": "She is happy.", "paraphrase": "She is glad.", "foil": "She is sad.", "rule": "AR"},
]  # fmt: skip
GOLD = """# ::snt The cat sleeps.
(s / sleep-01
   :ARG0 (c / cat))

# ::snt The dog barks.
(b / bark-01
   :ARG0 (d / dog))
"""


# -- fixtures: tiny real inputs, written once ---------------------------------------------------


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("bad-input")
    f = {
        "txt": d / "sentences.txt",
        "triples": d / "triples.jsonl",
        "pairs": d / "pairs.csv",
        "book": d / "book.txt",
        "gold": d / "gold.amr",
        "binary": d / "blob.txt",
        "undecodable": d / "undecodable.txt",
        "empty": d / "empty.txt",
        "unclosed": d / "unclosed.csv",
        "wide": d / "wide.csv",
        "nocol": d / "nocol.csv",
        "badjson": d / "bad.jsonl",
        "surrogate_triples": d / "surrogate.jsonl",
        "useless_triples": d / "useless.jsonl",
        "clsd_uneven": d / "clsd_uneven.csv",
        "clsd_unclosed": d / "clsd_unclosed.csv",
        "gold_utf16": d / "gold16.amr",
        "gold_broken": d / "broken.amr",
        "a_file": d / "a_file",
    }
    f["txt"].write_text(SENTENCES, encoding="utf-8")
    f["triples"].write_text("".join(json.dumps(t) + "\n" for t in TRIPLES), encoding="utf-8")
    f["pairs"].write_text(
        "sentence,paraphrase\nThe cat chased the mouse.,The mouse was chased by the cat.\n", encoding="utf-8"
    )
    f["book"].write_text("The cat sat. The dog ran. The bird sang. " * 5, encoding="utf-8")
    f["gold"].write_text(GOLD, encoding="utf-8")
    f["gold_utf16"].write_text(GOLD, encoding="utf-16")
    f["gold_broken"].write_text("# ::snt x\n(s / sleep-01 :ARG0 (c / cat)\n", encoding="utf-8")
    f["binary"].write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(2000))
    f["undecodable"].write_bytes(b"The cat \x81\x8d\x8f\x90\x9d sat.\n")  # no encoding maps these bytes
    f["empty"].write_text("", encoding="utf-8")
    f["unclosed"].write_text(
        'sentence,paraphrase\nThe cat sat.,"The cat was sitting.\nThe dog ran.,The dog was running.\n'
        "The bird sang.,The bird was singing.\n",
        encoding="utf-8",
    )
    f["wide"].write_text("sentence,paraphrase\nThe cat sat.,x,y\n", encoding="utf-8")
    f["nocol"].write_text("alpha,beta\n1,2\n", encoding="utf-8")
    f["badjson"].write_text('{"sentence": "The cat sat."}\n{oops\n', encoding="utf-8")
    f["surrogate_triples"].write_text(
        "".join(json.dumps(t) + "\n" for t in TRIPLES)
        + '{"source": "Bad \\ud800 text.", "paraphrase": "Bad text.", "foil": "Good text.", "rule": "AR"}\n',
        encoding="utf-8",
    )
    f["useless_triples"].write_text('{"source": "x", "paraphrase": null, "foil": "y"}\n', encoding="utf-8")
    tiny = (DATA / "clsd_tiny.csv").read_text(encoding="utf-8").splitlines()
    header = tiny[0].split(",")
    drop = header.index("de_adv3")
    f["clsd_uneven"].write_text(
        "\n".join(",".join(c for i, c in enumerate(line.split(",")) if i != drop) for line in tiny[:3]) + "\n",
        encoding="utf-8",
    )  # the rows' texts hold no commas in their first lines
    f["clsd_unclosed"].write_text(tiny[0] + "\n" + tiny[1].replace(",Le chat", ',"Le chat', 1) + "\n" + tiny[2] + "\n")
    f["a_file"].write_text("I am a file, not a folder\n", encoding="utf-8")
    return f


@pytest.fixture
def precious(tmp_path: Path) -> Path:
    """An existing output file whose bytes must survive every failed run."""
    p = tmp_path / "existing.json"
    p.write_bytes(PRECIOUS)
    return p


DEVICES = {"/dev/null": (1, 3), "/dev/full": (1, 7)}


@pytest.fixture
def devices(tmp_path: Path) -> dict[str, Path]:
    """Character devices to aim outputs at. As root, private copies made with mknod (a regression must
    never replace the machine's own /dev/null); otherwise the real ones, which a user cannot replace."""
    if os.geteuid() != 0:
        return {name: Path(name) for name in DEVICES}
    out = {}
    for name, (major, minor) in DEVICES.items():
        node = tmp_path / f"dev-{Path(name).name}"
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
        out[name] = node
    return out


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    p = tmp_path / "pipe"
    os.mkfifo(p)
    return p


def _mount(args: list[str]) -> bool:
    return shutil.which("mount") is not None and subprocess.run(["mount", *args], capture_output=True).returncode == 0


@pytest.fixture
def read_only_dir(tmp_path: Path):
    """A real read-only bind mount holding one precious file (root only; skips elsewhere)."""
    src, ro = tmp_path / "src", tmp_path / "ro"
    src.mkdir()
    ro.mkdir()
    (src / "existing.json").write_bytes(PRECIOUS)
    if not _mount(["--bind", str(src), str(ro)]):
        pytest.skip("cannot bind-mount here (needs root)")
    try:
        if not _mount(["-o", "remount,ro,bind", str(ro)]):
            pytest.skip("cannot remount read-only")
        yield ro
    finally:
        subprocess.run(["umount", str(ro)], capture_output=True)


@pytest.fixture
def full_dir(tmp_path: Path):
    """A real, full 64 KiB tmpfs (root only; skips elsewhere)."""
    d = tmp_path / "full"
    d.mkdir()
    if not _mount(["-t", "tmpfs", "-o", "size=64k", "tmpfs", str(d)]):
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        with open(d / "filler", "wb") as fh, pytest.raises(OSError):
            fh.write(b"x" * (1 << 20))
            fh.flush()
        yield d
    finally:
        subprocess.run(["umount", str(d)], capture_output=True)


# -- assertions ----------------------------------------------------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(rc: int, err: str, *, code: int = 2, match: str = "") -> str:
    """The run failed with ``code`` and said so in exactly one line, the last of stderr."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert rc == code, err
    assert "Traceback" not in err and "internal error" not in err, err
    assert lines, "no message at all"
    errors = [line for line in lines if "error:" in line]
    assert len(errors) == 1 and errors[0] == lines[-1], err
    assert match.lower() in errors[0].lower(), err
    return errors[0]


def unharmed(path: Path) -> None:
    assert path.read_bytes() == PRECIOUS
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")], "temporary file left behind"


def still_special(path: Path, test=stat.S_ISCHR) -> None:
    assert test(os.stat(path).st_mode), f"{path} was replaced"


# -- 1. special files and unwritable outputs, every command ---------------------------------------

SPECIAL = ["/dev/null", "/dev/full"]


def _out_args(command: str, files: dict[str, Path], out: object) -> list[object]:
    return {
        "foils": ["foils", "--input", files["txt"], "--out", out],
        "eval": ["eval", "--triples", files["triples"], "--models", "bow", "-q", "--no-cache", "--out", out],
        "eval-csv": ["eval", "--triples", files["triples"], "--models", "bow", "-q", "--no-cache", "--out-csv", out],
        "clsd": ["clsd", "--data", DATA / "clsd_tiny.csv", "--models", "bow", "--no-pos", "--out", out],
        "clsd-rows": ["clsd", "--data", DATA / "clsd_tiny.csv", "--models", "bow", "--no-pos",
                      "--out", Path(str(out) + ".results.json"), "--rows-out", out],
        "clsd-distractors": ["clsd-distractors", "--input", files["txt"], "--out", out],
    }[command]  # fmt: skip


FILE_COMMANDS = ["foils", "eval", "eval-csv", "clsd", "clsd-rows", "clsd-distractors"]


@pytest.mark.parametrize("device", SPECIAL)
@pytest.mark.parametrize("command", FILE_COMMANDS)
def test_a_device_is_never_replaced(capsys, files, devices, command, device):
    if command == "clsd-rows" and not os.access(devices[device].parent, os.W_OK):
        pytest.skip("the results file beside it would land in /dev")
    rc, _, err = cli(capsys, *_out_args(command, files, devices[device]))
    one_line_error(rc, err, match="character device")
    still_special(devices[device])


@pytest.mark.parametrize("command", ["foils", "eval", "clsd"])
def test_a_fifo_or_a_symlink_to_a_device_is_refused(capsys, files, devices, fifo, tmp_path, command):
    rc, _, err = cli(capsys, *_out_args(command, files, fifo))
    one_line_error(rc, err, match="FIFO")
    still_special(fifo, stat.S_ISFIFO)
    link = tmp_path / "link.out"
    link.symlink_to(devices["/dev/null"])
    rc, _, err = cli(capsys, *_out_args(command, files, link))
    one_line_error(rc, err, match="character device")
    assert link.is_symlink() and os.readlink(link) == str(devices["/dev/null"])
    still_special(devices["/dev/null"])


@pytest.mark.parametrize("command", FILE_COMMANDS)
def test_a_folder_where_a_file_is_wanted(capsys, files, tmp_path, command):
    # foils writes a sharded run into a new or empty folder (or one holding a run): a folder of other files is refused
    (tmp_path / "notes.txt").write_text("mine\n", encoding="utf-8")
    rc, _, err = cli(capsys, *_out_args(command, files, tmp_path))
    one_line_error(rc, err, match="is a folder")
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("command", ["foils", "eval", "clsd"])
def test_a_file_where_a_folder_is_expected_in_the_path(capsys, files, command):
    rc, _, err = cli(capsys, *_out_args(command, files, files["a_file"] / "out.json"))
    one_line_error(rc, err, match="file")
    assert files["a_file"].read_text() == "I am a file, not a folder\n"


@pytest.mark.parametrize("command", ["foils", "eval", "clsd", "clsd-distractors"])
def test_a_read_only_folder_fails_before_the_work(capsys, files, read_only_dir, command):
    rc, _, err = cli(capsys, *_out_args(command, files, read_only_dir / "existing.json"))
    one_line_error(rc, err, match="read-only")
    assert (read_only_dir / "existing.json").read_bytes() == PRECIOUS


@pytest.mark.parametrize("command", ["foils", "eval", "clsd"])
def test_a_full_disk_fails_before_the_work(capsys, files, full_dir, command):
    rc, _, err = cli(capsys, *_out_args(command, files, full_dir / "out.json"))
    one_line_error(rc, err, match="free")


@pytest.mark.parametrize(
    "argv",
    [
        ["hardness", "--pairs", "{pairs}", "--models", "", "--out", "{a_file}"],
        ["variation", "--book", "{book}", "--models", "bow", "--splitter", "rules", "--out", "{a_file}"],
        ["hardness", "--pairs", "{pairs}", "--models", "", "--out", "{null}"],
        ["variation", "--book", "{book}", "--models", "bow", "--splitter", "rules", "--out", "{null}"],
    ],
    ids=["hardness-file", "variation-file", "hardness-device", "variation-device"],
)
def test_folder_outputs_refuse_files_and_devices(capsys, files, devices, argv):
    rc, _, err = cli(capsys, *[a.format(**files, null=devices["/dev/null"]) for a in argv])
    one_line_error(rc, err, match="is a character device" if "{null}" in argv else "is a file")
    assert files["a_file"].read_text() == "I am a file, not a folder\n"
    still_special(devices["/dev/null"])


@pytest.mark.parametrize("command", ["hardness", "variation"])
def test_folder_outputs_on_a_read_only_mount(capsys, files, read_only_dir, command):
    argv = {
        "hardness": ["hardness", "--pairs", files["pairs"], "--models", "", "--out", read_only_dir],
        "variation": ["variation", "--book", files["book"], "--models", "bow", "--splitter", "rules",
                      "--out", read_only_dir],
    }[command]  # fmt: skip
    rc, _, err = cli(capsys, *argv)
    one_line_error(rc, err, match="read-only")


# -- 2. count-like flags and names ------------------------------------------------------------------

FLAG_CASES = [
    ("foils", ["--per-rule", "0"], "--per-rule"),
    ("foils", ["--per-rule", "-1"], "--per-rule"),
    ("foils", ["--per-rule", "-2"], "--per-rule"),
    ("foils", ["--limit", "-3"], "--limit"),
    ("foils", ["--limit", "0"], "--limit"),
    ("foils", ["--rules", ","], "--rules"),
    ("foils", ["--rules", "PN,XX"], "unknown rule XX"),
    ("foils", ["--seed", "-1"], "--seed"),
    ("foils", ["--seed", "abc"], "not a whole number"),
    ("eval", ["--n-boot", "-5"], "--n-boot"),
    ("eval", ["--n-boot", "100000000"], "budget"),
    ("eval", ["--ci", "1.5"], "--ci"),
    ("eval", ["--seed", "-1"], "--seed"),
    ("eval", ["--threads", "-2"], "--threads"),
    ("eval", ["--models", ","], "--models"),
    ("eval", ["--column", "source"], "KEY=VALUE"),
    ("hardness", ["--per-rule", "0"], "--per-rule"),
    ("hardness", ["--limit", "-3"], "--limit"),
    ("hardness", ["--rules", ","], "--rules"),
    ("hardness", ["--bootstrap", "100000000"], "budget"),
    ("hardness", ["--models", "nosuch"], "unknown embedder"),
    ("variation", ["--models", "nosuch"], "unknown embedder"),
    ("variation", ["--models", ","], "--models"),
    ("variation", ["--max-sentences", "0"], "--max-sentences"),
    ("variation", ["--memory-mb", "-1"], "--memory-mb"),
    ("variation", ["--window", "0"], "--window"),
    ("clsd", ["--models", "nosuch"], "unknown embedder"),
    ("clsd", ["--limit", "0"], "--limit"),
    ("clsd", ["--directions", ","], "--directions"),
    ("clsd-distractors", ["--k", "0"], "--k"),
    ("parse", ["--limit", "0", "--smatch", "{gold}"], "--limit"),
    ("parse", ["--restarts", "-1", "--smatch", "{gold}"], "--restarts"),
    ("models", ["frobnicate"], "invalid choice"),
]


def _base(command: str, files: dict[str, Path], out: Path) -> list[object]:
    return {
        "foils": ["foils", "--input", files["txt"], "--out", out],
        "eval": ["eval", "--triples", files["triples"], "--models", "bow", "-q", "--no-cache", "--out", out],
        "hardness": ["hardness", "--pairs", files["pairs"], "--models", "", "--out", out.parent / "hard"],
        "variation": ["variation", "--book", files["book"], "--models", "bow", "--splitter", "rules",
                      "--out", out.parent / "var"],
        "clsd": ["clsd", "--data", DATA / "clsd_tiny.csv", "--models", "bow", "--no-pos", "--out", out],
        "clsd-distractors": ["clsd-distractors", "--input", files["txt"], "--out", out],
        "parse": ["parse"],
        "models": ["models"],
    }[command]  # fmt: skip


@pytest.mark.parametrize(("command", "extra", "match"), FLAG_CASES, ids=[f"{c}{' '.join(e)}" for c, e, _ in FLAG_CASES])
def test_count_flags_and_names_are_validated(capsys, files, precious, command, extra, match):
    base = _base(command, files, precious)
    argv = [*base, *[e.format(**files) for e in extra]]
    if command == "variation" and "--models" in extra:  # the later --models wins; drop the base one
        i = argv.index("--models")
        del argv[i : i + 2]
    if command == "hardness" and "--models" in extra:
        i = argv.index("--models")
        del argv[i : i + 2]
    rc, _, err = cli(capsys, *argv)
    one_line_error(rc, err, match=match)
    unharmed(precious)


def test_eval_unknown_model_fails_but_scores_the_others(capsys, files, precious):
    rc, out, err = cli(capsys, "eval", "--triples", files["triples"], "--models", "bow,nosuch", "--no-cache",
                       "--n-boot", "0", "--blind", "none", "--out", precious)  # fmt: skip
    assert rc == 1 and "Traceback" not in err
    assert "unknown embedder 'nosuch'" in err and "not run" in out
    doc = json.loads(precious.read_text())
    assert [m["ok"] for m in doc["models"]] == [True, False]


# -- 3. malformed and hostile input files --------------------------------------------------------------

INPUT_CASES = [
    ("foils", "--input", "missing", "not found"),
    ("foils", "--input", "folder", "is a folder"),
    ("foils", "--input", "binary", "binary data"),
    ("foils", "--input", "undecodable", "not readable text"),
    ("foils", "--input", "empty", "no sentences"),
    ("foils", "--input", "unclosed", "line 2"),
    ("foils", "--input", "wide", "more fields"),
    ("foils", "--input", "badjson", "line 2"),
    ("foils", "--input", "nocol", "no sentence column"),
    ("eval", "--triples", "missing", "not found"),
    ("eval", "--triples", "txt", "table format"),
    ("eval", "--triples", "unclosed", "line 2"),
    ("eval", "--triples", "useless_triples", "no usable triples"),
    ("eval", "--triples", "binary_jsonl", "binary data"),
    ("hardness", "--pairs", "missing", "not found"),
    ("hardness", "--pairs", "unclosed", "line 2"),
    ("clsd", "--data", "missing", "not found"),
    ("clsd", "--data", "clsd_unclosed", "line 2"),
    ("clsd", "--data", "clsd_uneven", "de_adv3 missing"),
    ("clsd-distractors", "--input", "binary", "binary data"),
    ("clsd", "--data", "undecodable_csv", "not readable text"),
    ("parse", "--smatch", "missing", "not found"),
    ("parse", "--smatch", "gold_broken", "cannot be read"),
    ("variation", "--book", "binary", "binary data"),
]


def _input_path(name: str, files: dict[str, Path], tmp_path: Path) -> Path:
    if name == "missing":
        return tmp_path / "no-such-file.csv"
    if name == "folder":
        return tmp_path
    if name == "undecodable_csv":
        p = tmp_path / "undecodable.csv"
        p.write_bytes(files["undecodable"].read_bytes())
        return p
    if name == "binary_jsonl":
        p = tmp_path / "binary.jsonl"
        p.write_bytes(files["binary"].read_bytes())
        return p
    return files[name]


@pytest.mark.parametrize(("command", "flag", "name", "match"), INPUT_CASES, ids=[f"{c}-{n}" for c, _, n, _ in INPUT_CASES])
def test_bad_input_files(capsys, files, tmp_path, precious, command, flag, name, match):
    argv = _base(command, files, precious)
    path = _input_path(name, files, tmp_path)
    if flag in argv:
        argv[argv.index(flag) + 1] = path
    else:
        argv = [*argv, flag, path]
    rc, _, err = cli(capsys, *argv)
    one_line_error(rc, err, match=match)
    unharmed(precious)


def test_clsd_uneven_distractors_only_when_told(capsys, files, tmp_path):
    out = tmp_path / "r.json"
    rc, _, err = cli(capsys, "clsd", "--data", files["clsd_uneven"], "--models", "bow", "--no-pos", "--out", out,
                     "--allow-uneven-distractors")  # fmt: skip
    assert rc == 0, err
    assert "DE→FR: 4 distractors (fr_adv1, fr_adv2, fr_adv3, fr_adv4)" in err
    assert "FR→DE: 3 distractors (de_adv1, de_adv2, de_adv4)" in err  # the note the scores come with
    doc = json.loads(out.read_text())
    assert doc["summary"]


def test_eval_skips_a_lone_surrogate_row_and_scores_the_rest(capsys, files, tmp_path):
    out = tmp_path / "r.json"
    rc, _, err = cli(capsys, "eval", "--triples", files["surrogate_triples"], "--models", "bow", "--no-cache",
                     "--n-boot", "0", "--out", out)  # fmt: skip
    assert rc == 0, err
    doc = json.loads(out.read_text())
    assert doc["models"][0]["ok"] and doc["models"][0]["n"] == 3
    assert any("surrogate" in reason for reason in doc["dataset"]["bad_rows"])


# -- 4. hostile text: one pipeline run, one check per row --------------------------------------------

HOSTILE = {
    "ansi": "The cat \x1b[31mchased\x1b[0m the mouse.",
    "bidi": "The dog \u202ebarked at the man.",
    "surrogate": "The man \ud800opened the door.",
    "zwj": "The family \U0001f469\u200d\U0001f469\u200d\U0001f467 went home.",
    "chinese": "猫追老鼠。",
    "arabic": "القط يطارد الفأر في الحديقة.",
}


@pytest.fixture(scope="module")
def hostile_records(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, dict[str, list[dict]]]:
    d = tmp_path_factory.mktemp("hostile")
    src = d / "hostile.jsonl"
    src.write_text(
        "".join(json.dumps({"id": k, "sentence": v}) + "\n" for k, v in HOSTILE.items()), encoding="utf-8"
    )  # json.dumps escapes the lone surrogate as \ud800, as a hostile file would
    out = d / "foils.jsonl"
    rc = main(["foils", "--input", str(src), "--out", str(out), "--no-validate"])
    by_row: dict[str, list[dict]] = {}
    for line in out.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        by_row.setdefault(r["row_id"], []).append(r)
    return rc, out.read_text(encoding="utf-8"), by_row


def test_hostile_text_run_succeeds(hostile_records):
    rc, text, by_row = hostile_records
    assert rc == 0 and set(by_row) == set(HOSTILE)
    assert "\x1b" not in text and "\u202e" not in text and "[31m" not in text


@pytest.mark.parametrize(("row", "note"), [("ansi", "terminal escape"), ("bidi", "bidirectional"),
                                           ("surrogate", "surrogate"), ("chinese", "English"), ("arabic", "English")])  # fmt: skip
def test_hostile_rows_are_cleaned_and_noted(hostile_records, row, note):
    records = hostile_records[2][row]
    assert all(any(note in n for n in r.get("input_notes", [])) for r in records), records
    if row in ("ansi", "bidi", "surrogate"):
        assert any(r.get("foil") and not r.get("error") for r in records)  # cleaned, then crafted


def test_no_kept_foil_splits_a_grapheme_cluster(hostile_records):
    from core.inputs import broken_clusters

    for r in hostile_records[2]["zwj"]:
        if r.get("foil") and r.get("kept"):
            assert not broken_clusters(r["source"], r["foil"]), r["foil"]


# -- 5. parse: stdin and arguments (real processes), Smatch honesty -----------------------------------


def _smithtui(*args: str | bytes, stdin: bytes = b"", timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    code = "import sys; from smithtui.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, *args], input=stdin, capture_output=True, env=env,
                          timeout=timeout, cwd=ROOT)  # fmt: skip


def test_parse_binary_stdin():
    proc = _smithtui("parse", stdin=b"\x89PNG\r\n\x1a\n" + bytes(2000))
    one_line_error(proc.returncode, proc.stderr.decode(), match="stdin looks like binary data")
    proc = _smithtui("parse", stdin=b"The cat \x81\x8d\x8f sat.\n")
    one_line_error(proc.returncode, proc.stderr.decode(), match="stdin is not readable text")


def test_parse_utf16_stdin_is_read():
    proc = _smithtui("parse", "--json", stdin="The cat sleeps.\n".encode("utf-16"))
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout.decode().splitlines()[0])["text"] == "The cat sleeps."


def test_parse_an_argument_with_an_invalid_byte():
    proc = _smithtui("parse", os.fsdecode(b"The cat \xff sleeps."))
    one_line_error(proc.returncode, proc.stderr.decode(), match="not valid text")


def test_smatch_reads_utf16_gold(capsys, files):
    rc, out, err = cli(capsys, "parse", "--smatch", files["gold_utf16"], "--json")
    assert rc == 0, err
    assert json.loads(out)["n"] == 2


def test_smatch_counts_unparsed_gold_as_misses(capsys, tmp_path):
    gold = tmp_path / "g.amr"
    gold.write_text(GOLD + "\n# ::snt 1234 5678\n(s / sleep-01\n   :ARG0 (c / cat))\n", encoding="utf-8")
    rc, out, err = cli(capsys, "parse", "--smatch", gold, "--json")
    assert rc == 0, err
    scores = json.loads(out)
    assert scores["parse_errors"] == 1 and scores["unparsed"] == [2]
    assert "counted as a miss" in err
    only = tmp_path / "only.amr"
    only.write_text("# ::snt 1234 5678\n(s / sleep-01\n   :ARG0 (c / cat))\n", encoding="utf-8")
    rc, out, _ = cli(capsys, "parse", "--smatch", only, "--json")
    s = json.loads(out)
    assert rc == 0 and s["f1"] == 0.0 and s["precision"] == 0.0 and s["gold"] > 0  # nothing parsed earns nothing


# -- 6. interruption and killed runs -------------------------------------------------------------------


def test_ctrl_c_is_honoured_within_seconds_in_a_long_bootstrap(tmp_path):
    big = tmp_path / "big.jsonl"
    big.write_text("".join(json.dumps({**TRIPLES[i % 3], "source": f"{TRIPLES[i % 3]['source']} {i}"}) + "\n"
                           for i in range(20000)), encoding="utf-8")  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    code = "import sys; from smithtui.cli import main; sys.exit(main())"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "eval", "--triples", str(big), "--models", "bow", "--no-cache", "--n-boot",
         "2000000", "--out", str(tmp_path / "r.json")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT,
    )  # fmt: skip
    try:
        time.sleep(12)  # well into the bootstrap (2M resamples of 20k triples takes minutes)
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        waited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    err = proc.stderr.read().decode() if proc.stderr else ""
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err, err
    assert waited < 3.0, f"took {waited:.1f} s to stop"
    assert not (tmp_path / "r.json").exists() and not list(tmp_path.glob(".*.tmp"))


def test_a_killed_foils_run_leaves_no_temporary_file_for_good(tmp_path, files):
    out = tmp_path / "foils.jsonl"
    out.write_bytes(PRECIOUS)
    src = tmp_path / "many.txt"
    src.write_text("The cat chased the mouse.\n" * 400, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    code = "import sys; from smithtui.cli import main; sys.exit(main())"
    proc = subprocess.Popen([sys.executable, "-c", code, "foils", "--input", str(src), "--out", str(out),
                             "--no-validate"], env=env, cwd=ROOT, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not list(tmp_path.glob(".foils.jsonl.*.tmp")):
            time.sleep(0.1)
        assert list(tmp_path.glob(".foils.jsonl.*.tmp")), "the run never started writing"
        proc.kill()
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert out.read_bytes() == PRECIOUS and list(tmp_path.glob(".foils.jsonl.*.tmp"))
    rc = main(["foils", "--input", str(files["txt"]), "--out", str(out), "--no-validate"])
    assert rc == 0 and not list(tmp_path.glob(".foils.jsonl.*.tmp"))
    assert out.read_bytes() != PRECIOUS


def test_foils_records_a_sentence_that_is_only_a_lone_surrogate(capsys, tmp_path):
    src = tmp_path / "s.jsonl"
    src.write_text('{"sentence": "\\ud800"}\n{"sentence": "1234 \\ud800"}\n', encoding="utf-8")
    out = tmp_path / "o.jsonl"
    rc, _, err = cli(capsys, "foils", "--input", src, "--out", out, "--no-validate")
    assert rc == 0 and "Traceback" not in err and "internal error" not in err, err
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["error"] for r in records] == ["empty sentence", "no words in the sentence"]
    assert records[0]["source"] == "\ud800"  # written as the JSON escape it came as, read back the same


def test_eval_checks_every_triples_file_before_scoring_any(capsys, files, tmp_path, precious):
    rc, out, err = cli(capsys, "eval", "--triples", files["triples"], "--triples", tmp_path / "gone.jsonl",
                       "--models", "bow", "--no-cache", "--out", precious)  # fmt: skip
    one_line_error(rc, err, match="not found")
    assert out == "" and "texts embedded" not in err  # nothing was scored first
    unharmed(precious)
