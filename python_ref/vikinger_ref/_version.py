"""The version of the distribution both engines ship in, read from its installed metadata, so
that pyproject.toml's `version` is the only place it is written.

A source checkout used without an install (python_ref/ on the path) has no metadata; its version
is then "0+unknown" (a valid version that sorts below every release).
"""

from __future__ import annotations

from importlib import metadata

DISTRIBUTION = "vikinger-fast"


def version() -> str:
    """The installed distribution's version, or "0+unknown" when it is not installed."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"
