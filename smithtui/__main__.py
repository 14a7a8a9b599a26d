"""``python -m smithtui``: the same command as ``smithtui``."""

import sys

from smithtui.cli import main

sys.exit(main())
