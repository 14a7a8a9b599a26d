"""Opening the workbench from the command line."""

from __future__ import annotations

import argparse


def open_workbench(args: argparse.Namespace) -> int:
    """Load settings and run the Textual app until the user quits."""
    from core.config import load_settings
    from smithtui.app import make_app

    settings = load_settings(getattr(args, "config", None))
    make_app(settings).run()
    return 0
