"""What the installed package is: one version, the flag names of both engines, and product code
only (the tooling of tools/ and fuzz/ is not shipped, so nothing shipped may import it).
"""

import ast
import importlib
import inspect
import pathlib
import re

import pytest

from conftest import load_engine

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHIPPED = (ROOT / "src" / "vikinger_fast", ROOT / "python_ref" / "vikinger_ref")
NOT_SHIPPED = {path.stem for path in (ROOT / "fuzz").glob("*.py")} | {"fuzz", "tools", "tests"}


def project_version():
    """The `version` of pyproject.toml's [project] table (the only place it is written)."""
    text = (ROOT / "pyproject.toml").read_text()
    table = text.split("[project]", 1)[1].split("\n[", 1)[0]
    return re.search(r'^version = "([^"]+)"', table, re.M).group(1)


def test_both_packages_report_the_project_version(engine):
    assert engine.__version__ == project_version()


def test_option_names_are_the_game_flags(engine):
    """OPTION_NAMES lists the keyword flags of Game in the order of `options` (the bit order of
    docs/state.md), in both engines alike."""
    assert engine.OPTION_NAMES == tuple(engine.Game().options)
    assert engine.OPTION_NAMES == load_engine("ref").OPTION_NAMES
    keywords = inspect.signature(load_engine("ref").Game).parameters
    assert engine.OPTION_NAMES == tuple(name for name in keywords if name != "num_players")


def imported_modules(path):
    """Top-level names of the modules a source file imports (absolute imports only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


SOURCES = sorted(path for package in SHIPPED for path in package.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_shipped_code_imports_no_tooling(path):
    assert not imported_modules(path) & NOT_SHIPPED


def test_the_tooling_is_not_in_the_package():
    for name in ("perft", "playthrough", "stub_docstrings"):
        assert importlib.util.find_spec(f"vikinger_fast.{name}") is None
        assert importlib.util.find_spec(f"tools.{name}") is not None
