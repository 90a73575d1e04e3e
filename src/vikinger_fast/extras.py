"""How to install an optional extra (pyproject.toml's `[project.optional-dependencies]`), said
the same way by every message about a missing one: the command for an installed package (PyPI
or a wheel) and the command for a checkout of the repository, where the package's name means
nothing to pip until it is installed."""


def install_hint(need: str, extra: str) -> str:
    """`need` (what is missing, and for what), then the two commands that install `extra`."""
    return (
        f'{need}: pip install "vikinger-fast[{extra}]" (from PyPI or a wheel) '
        f'or pip install ".[{extra}]" (from a checkout)'
    )
