"""The type stub src/vikinger_fast/_core.pyi is the documentation editors and type checkers
show: its docstrings must be the C++ module's own, word for word (the bindings hold them once,
as raw strings; tools/stub_docstrings.py copies them into the stub), and every name it declares
must exist at runtime.
"""

import ast
import inspect
import re

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


# --- signatures: the stub's parameters are the module's ---------------------------------------

# Not a callable a user calls: pybind11's cross-module hook, and the drawing hook that
# vikinger_fast.pictures adds in Python.
NOT_BOUND = {"_pybind11_conduit_v1_", "_repr_svg_"}
UNNAMED = re.compile(r"arg\d+$")  # pybind11's name for a parameter without py::arg: positional


def runtime_callables(core):
    """Every callable of `_core` defined by the C++ module (dotted), classes' methods and
    dunders included."""
    names = []
    for name, obj in vars(core).items():
        if name.startswith("__"):
            continue
        if isinstance(obj, type):
            names += [
                f"{name}.{member}"
                for member, value in vars(obj).items()
                if member not in NOT_BOUND
                and callable(value)
                and not isinstance(value, type)
                and (value.__doc__ or "").strip() != ""
                and "See help(type(self)) for accurate signature" not in (value.__doc__ or "")
            ]
        elif callable(obj):
            names.append(name)
    return sorted(names)


def parameters_of_def(node):
    """[(name, kind, default)] of a parsed `def`, without `self`; a default as its value, or
    the text "..." when it is not a literal."""

    def value(default):
        try:
            return ast.literal_eval(default)
        except ValueError:
            return ast.unparse(default)

    args = node.args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = [
        (a.arg, "positional only" if a in args.posonlyargs else "", d and value(d))
        for a, d in zip(positional, defaults)
    ]
    if args.vararg:
        out.append(("*" + args.vararg.arg, "", None))
    out += [
        (a.arg, "keyword only", d and value(d)) for a, d in zip(args.kwonlyargs, args.kw_defaults)
    ]
    if args.kwarg:
        out.append(("**" + args.kwarg.arg, "", None))
    return [p for p in out if p[0] != "self"]


def runtime_parameters(core, name):
    """The parameters of `_core.<name>` as the module states them: the signature pybind11
    writes as the docstring's first line, or the text signature of a plain C method."""
    owner, _, member = name.rpartition(".")
    obj = inspect.getattr_static(getattr(core, owner), member) if owner else getattr(core, name)
    text_signature = getattr(obj, "__text_signature__", None)
    if text_signature:
        source = f"def f{text_signature.replace('$', '')}: pass"
    else:
        first = (obj.__doc__ or "").split("\n")[0]
        match = re.fullmatch(rf"{re.escape(member or name)}\((.*)\) -> .*", first)
        assert match, f"{name}: no signature on the docstring's first line: {first!r}"
        # The types are not compared (the stub's are narrower); only names, kinds, defaults.
        source = f"def f({match.group(1)}): pass"
    parameters = parameters_of_def(ast.parse(source).body[0])
    return [
        ("arg", "positional only", default) if UNNAMED.match(p) else (p, kind, default)
        for p, kind, default in parameters
    ]


def stub_parameters(name):
    owner, _, member = name.rpartition(".")
    scope = TREE.body
    if owner:
        scope = next(n for n in TREE.body if isinstance(n, ast.ClassDef) and n.name == owner).body
    node = next(
        (n for n in scope if isinstance(n, ast.FunctionDef) and n.name == (member or name)), None
    )
    assert node is not None, f"{name}: not declared in the stub"
    return [
        ("arg", "positional only", default) if kind == "positional only" else (p, kind, default)
        for p, kind, default in parameters_of_def(node)
    ]


def test_every_callable_of_the_module_is_compared(core):
    # 71 callables when this was written; a binding without a signature would be missed.
    assert len(runtime_callables(core)) >= 71


@pytest.mark.parametrize("name", runtime_callables(load_engine("fast")._core))
def test_stub_signature_is_the_module_signature(core, name):
    """Parameter names, kinds (keyword-only after `*`) and defaults, as pybind11 states them."""
    assert stub_parameters(name) == runtime_parameters(core, name), (
        f"_core.pyi's {name} differs from the module's (the docstring's first line)"
    )


def test_a_renamed_parameter_or_changed_default_is_found():
    source = "def f(self, game, seed, *, iterations=None, uct_c=1.4): ..."
    stub = parameters_of_def(ast.parse(source).body[0])
    renamed = parameters_of_def(ast.parse(source.replace("seed", "sed")).body[0])
    changed = parameters_of_def(ast.parse(source.replace("1.4", "1.5")).body[0])
    positional = parameters_of_def(ast.parse(source.replace("*, ", "")).body[0])
    assert stub != renamed and stub != changed and stub != positional
    assert stub[-1] == ("uct_c", "keyword only", 1.4)
