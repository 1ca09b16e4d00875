"""The fixture corpus as ``scripts/regenerate_goldens.py`` reads it, for the tests that walk it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def regenerate_goldens() -> ModuleType:
    """Import ``scripts/regenerate_goldens.py`` (not a package) once, as ``regenerate_goldens``."""
    loaded = sys.modules.get("regenerate_goldens")
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location("regenerate_goldens", ROOT / "scripts" / "regenerate_goldens.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["regenerate_goldens"] = module
    spec.loader.exec_module(module)
    return module
