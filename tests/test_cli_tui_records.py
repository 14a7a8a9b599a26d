"""The CLI (``smithtui foils``) and the workbench give the same foil record for the same sentence and seed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_support import SENTENCE, app_for, craft, run, settings_for

from smithtui.cli import main

pytestmark = pytest.mark.slow
FIELDS = ("source", "foil", "rule", "variant", "description", "nodes", "changed_spans", "graph_after",
          "verdicts", "validated", "kept", "decided_by", "fluency", "error", "generator", "parser")  # fmt: skip
SEED = 7


def test_cli_and_workbench_records_agree_field_by_field(tmp_path: Path) -> None:
    src, out = tmp_path / "in.txt", tmp_path / "foils.jsonl"
    src.write_text(SENTENCE + "\n", encoding="utf-8")
    assert main(["foils", "--input", str(src), "--out", str(out), "--seed", str(SEED), "--no-card"]) == 0
    cli = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    cli = [r for r in cli if r.get("foil")]
    assert len({r["rule"] for r in cli}) >= 3, "the sentence must give foils of several rules"

    async def scenario() -> list[dict]:
        app = app_for(tmp_path, models=("bow",), settings=settings_for(("bow",), **{"pipeline.seed": SEED}))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = await craft(app, pilot, SENTENCE)
            return [screen._record(row) for row in screen.rows]

    tui = {(r["rule"], r["variant"], tuple(r["nodes"])): r for r in run(scenario())}
    for rec in cli:
        key = (rec["rule"], rec["variant"], tuple(rec["nodes"]))
        assert key in tui, f"the workbench does not offer the CLI's {key}: {rec['foil']}"
        mine = tui[key]
        diffs = [f"{key} {f}: workbench {mine[f]!r} != CLI {rec[f]!r}" for f in FIELDS if mine[f] != rec[f]]
        assert not diffs, "\n".join(diffs)
