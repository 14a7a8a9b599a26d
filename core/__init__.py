"""SentenceSmith core: the headless library behind the workbench.

It never imports ``textual`` or ``smithtui``; heavy ML libraries are imported
only inside the backend that needs them.
"""

__version__ = "0.1.0"
