"""Opening the workbench from the command line."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time

JOB_GRACE_S = 2.0  # how long a cancelled job may take to stop after the app has quit


def wait_for_jobs(grace: float = JOB_GRACE_S) -> bool:
    """Wait up to ``grace`` seconds for worker threads to end; True when none is left."""
    deadline = time.monotonic() + grace
    for thread in threading.enumerate():
        if thread is threading.current_thread() or thread.daemon:
            continue
        thread.join(max(0.0, deadline - time.monotonic()))
    return not any(t.is_alive() and not t.daemon and t is not threading.current_thread() for t in threading.enumerate())


def open_workbench(args: argparse.Namespace) -> int:
    """Load settings and run the Textual app until the user quits.

    Quitting cancels running jobs; one that has not stopped within :data:`JOB_GRACE_S`
    (a model still loading) is abandoned rather than keeping the process alive: every
    decision is already fsynced in the journal and exports are atomic.
    """
    from core.config import load_settings
    from smithtui.app import make_app

    settings = load_settings(getattr(args, "config", None))
    app = make_app(settings)
    app.run()
    if app.quit_note:
        print(app.quit_note, file=sys.stderr)
    if not wait_for_jobs():
        print(f"smithtui: a job was still stopping after {JOB_GRACE_S:.0f} s; left it (the journal is safe)", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    return 0
