"""SentenceSmith Workbench: the Textual app and the command line over ``core``."""

from core import __version__

__all__ = ["__version__"]
