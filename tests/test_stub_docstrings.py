"""The type stub src/vikinger_fast/_core.pyi is the documentation editors and type checkers
show: its docstrings must be the C++ module's own, word for word (the bindings hold them once,
as raw strings; tools/stub_docstrings.py copies them into the stub), and every name it declares
must exist at runtime.
"""

import ast
import inspect

import pytest

from conftest import load_engine
from tools.stub_docstrings import STUB, documented_nodes, runtime_doc

TREE = ast.parse(STUB.read_text())
ENTRIES = [(name, ast.get_docstring(node)) for name, node in documented_nodes(TREE)]
FIX = "run python -m tools.stub_docstrings after rebuilding"


def declared_names():
    """Every function, class and method the stub declares (dotted)."""
    names = []
    for node in TREE.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
        if isinstance(node, ast.ClassDef):
            names += [
                f"{node.name}.{m.name}"
                for m in node.body
                if isinstance(m, ast.FunctionDef) and not m.name.startswith("__")
            ]
    return names


@pytest.fixture(scope="module")
def core():
    return load_engine("fast")._core


def test_the_stub_documents_the_module_and_its_classes():
    assert {"", "Game", "State", "VectorGame", "MCTSBot"} <= {name for name, _ in ENTRIES}


@pytest.mark.parametrize("name, stub_doc", ENTRIES, ids=[name or "module" for name, _ in ENTRIES])
def test_stub_docstring_is_the_module_docstring(core, name, stub_doc):
    assert runtime_doc(core, name) == stub_doc, FIX


@pytest.mark.parametrize("name", declared_names())
def test_every_stub_name_exists_at_runtime(core, name):
    owner, _, member = name.rpartition(".")
    scope = inspect.getattr_static(core, owner) if owner else core
    inspect.getattr_static(scope, member)
