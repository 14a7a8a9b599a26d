"""Package faces: a package names what it exports and where it lives; each name loads on first use.

A face keeps ``import core.foils`` as cheap as ``import core`` (no spaCy, no torch) while
``from core.foils import FoilPipeline`` works as if the name were defined there. Nothing is
cached in the package: every lookup asks the module, so a test that patches
``core.clsd.run.registry_model`` is seen through ``core.clsd.registry_model`` too.

>>> face, names = lazy_face("core", {".errors": ("SmithError", "InputError")})
>>> face("SmithError").__module__, names
('core.errors', ['SmithError', 'InputError'])
>>> face("nothing")
Traceback (most recent call last):
...
AttributeError: module 'core' has no attribute 'nothing'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def lazy_face(package: str, table: Mapping[str, Sequence[str]]) -> tuple[Callable[[str], Any], list[str]]:
    """``(__getattr__, __all__)`` for ``package``: ``table`` maps each module (``.sub``: relative to the
    package) to the names it exports through the face."""
    where = {name: module for module, names in table.items() for name in names}

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(where[name], package), name)

    return __getattr__, list(where)
