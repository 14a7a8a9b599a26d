"""Run every benchmark in this folder in turn (``make bench``); each prints its own medians and ratios."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# judged quality, not timed; run by hand
SKIP = {"common.py", "run_all.py", "quality.py", "fluency_judged.py", "hs_margins.py"}


def main() -> int:
    failed = []
    for script in sorted(HERE.glob("*.py")):
        if script.name in SKIP:
            continue
        print(f"\n=== {script.name} ===", flush=True)
        if subprocess.run([sys.executable, str(script)], cwd=HERE.parent).returncode != 0:
            failed.append(script.name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
