"""Package faces: a package names what it exports and where it lives; each name loads on first use.

A face keeps ``import core.foils`` as cheap as ``import core`` (no spaCy, no torch) while
``from core.foils import FoilPipeline`` works as if the name were defined there. Nothing is
cached in the package: every lookup asks the module, so a test that patches
``core.clsd.run.registry_model`` is seen through ``core.clsd.registry_model`` too.

>>> face = lazy_face("core", {"SmithError": ".errors"})
>>> face("SmithError").__module__
'core.errors'
>>> face("nothing")
Traceback (most recent call last):
...
AttributeError: module 'core' has no attribute 'nothing'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_face(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``names`` maps each exported name to its module
    (``.sub`` is relative to the package)."""

    def __getattr__(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(names[name], package), name)

    return __getattr__
