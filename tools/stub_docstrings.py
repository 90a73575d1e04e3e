"""Rewrite the docstrings of src/vikinger_fast/_core.pyi from the built C++ module.

The bindings (csrc/bindings/*.cc) hold every docstring once, as raw strings; the stub mirrors
them for editors and type checkers, and tests/house/test_stub_docstrings.py fails when the two
differ. After changing a docstring in a binding, rebuild (`pip install -e .`) and run

    python -m tools.stub_docstrings [--check]

With --check nothing is written and the exit status is 1 when the stub would change. Only the
docstrings of names the stub already declares are rewritten; signatures stay as written.
"""

import argparse
import ast
import inspect
import pathlib
import sys

STUB = pathlib.Path(__file__).resolve().parent.parent / "src" / "vikinger_fast" / "_core.pyi"


def documented_nodes(tree):
    """[(dotted name, the node whose body starts with a docstring)]: module, functions, classes
    and their methods, in file order."""
    nodes = [("", tree)]
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            nodes.append((node.name, node))
        if isinstance(node, ast.ClassDef):
            nodes += [
                (f"{node.name}.{member.name}", member)
                for member in node.body
                if isinstance(member, ast.FunctionDef)
            ]
    return [(name, node) for name, node in nodes if ast.get_docstring(node) is not None]


def runtime_doc(module, name):
    """The cleaned __doc__ of `name` in `module`, without the signature line pybind11 puts first
    in a function's docstring (the stub states the signature in Python)."""
    obj = module
    for part in filter(None, name.split(".")):
        obj = inspect.getattr_static(obj, part)
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
    doc = obj.__doc__ or ""
    first, _, rest = doc.partition("\n")
    if first.startswith(name.rsplit(".", 1)[-1] + "(") and ") -> " in first:
        doc = rest.lstrip("\n")
    return inspect.cleandoc(doc)


def docstring_literal(doc, indent):
    """`doc` as a triple-quoted literal at `indent`: the closing quotes end the last line of a
    one-paragraph docstring and stand on their own line after several paragraphs."""
    lines = [f"{indent}{line}" if line else "" for line in doc.split("\n")]
    lines[0] = f'{indent}"""{doc.split(chr(10))[0]}'
    if "" in lines:
        return "\n".join(lines + [f'{indent}"""'])
    return "\n".join(lines) + '"""'


def rewritten(text, module):
    """The stub text with every docstring replaced by the module's."""
    lines = text.split("\n")
    for name, node in reversed(documented_nodes(ast.parse(text))):
        expr = node.body[0]
        indent = " " * expr.col_offset
        new = docstring_literal(runtime_doc(module, name), indent).split("\n")
        lines[expr.lineno - 1 : expr.end_lineno] = new
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when the stub would change"
    )
    args = parser.parse_args(argv)
    from vikinger_fast import _core

    text = STUB.read_text()
    new = rewritten(text, _core)
    if new == text:
        print(f"unchanged  {STUB.name}")
        return 0
    if args.check:
        print(f"would change  {STUB.name}")
        return 1
    STUB.write_text(new)
    print(f"rewrote  {STUB.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
