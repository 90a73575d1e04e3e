"""How to install an optional extra (pyproject.toml's `[project.optional-dependencies]`), said
the same way by every message about a missing one: the command for an installed package (PyPI
or a wheel) and the command for a checkout of the repository, where the package's name means
nothing to pip until it is installed."""

import importlib.util


def installed(*packages: str) -> bool:
    """Whether every one of `packages` can be imported, found without importing it (a command
    checks its extra before any work; importing JAX or Ray would cost seconds and threads)."""
    for name in packages:
        try:
            if importlib.util.find_spec(name) is None:
                return False
        except (ImportError, ValueError):  # a broken parent, or a module set to None
            return False
    return True


def install_hint(need: str, extra: str) -> str:
    """`need` (what is missing, and for what), then the two commands that install `extra`."""
    return (
        f'{need}: pip install "vikinger-fast[{extra}]" (from PyPI or a wheel) '
        f'or pip install ".[{extra}]" (from a checkout)'
    )
