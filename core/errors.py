"""Errors a user can act on: every one says what is wrong and how to fix it.

>>> err = InputError("column 'sentence' not found in x.csv", hint="pass --column NAME; columns are: a, b")
>>> str(err)
"column 'sentence' not found in x.csv (hint: pass --column NAME; columns are: a, b)"
"""

from __future__ import annotations


class SmithError(Exception):
    """Base class: a problem the user can fix. The CLI prints it without a traceback."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} (hint: {self.hint})" if self.hint else self.message


class InputError(SmithError):
    """A file, column or sentence that cannot be used as given."""


class ModelMissingError(SmithError):
    """A model, package or data resource (spaCy model, WordNet, weights) is not installed."""


class GraphError(SmithError):
    """A graph that is malformed or became invalid after an edit."""


class ConfigError(SmithError):
    """A configuration value that is unknown or out of range."""


class CancelledError(SmithError):
    """Work stopped because the caller set its cancel event."""
