"""The examples in the docstrings of both packages run and print what they show.

Every module of vikinger_fast and vikinger_ref whose source holds a `>>>` example is found from
the files (so a new example is run without being listed here) and run with doctest; a module
with examples that doctest cannot find (e.g. behind a name it does not collect) fails too.
"""

import doctest
import importlib
import pathlib

import pytest

from conftest import load_engine

PACKAGES = {"ref": "vikinger_ref", "fast": "vikinger_fast"}


def modules_with_examples(package):
    """Dotted names of the package's modules whose source contains a `>>>` example."""
    root = pathlib.Path(importlib.util.find_spec(package).origin).parent
    names = []
    for path in sorted(root.rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(root).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            names.append(".".join((package, *parts)))
    return names


CASES = [
    (which, name) for which, package in PACKAGES.items() for name in modules_with_examples(package)
]


def test_both_packages_have_examples():
    assert {which for which, _ in CASES} == set(PACKAGES)


@pytest.mark.parametrize("which, name", CASES, ids=[name for _, name in CASES])
def test_the_examples_run(which, name):
    load_engine(which)
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.attempted > 0, f"{name} has '>>>' in its source but no example doctest runs"
    assert result.failed == 0, f"{result.failed} of the examples of {name} fail (output above)"
