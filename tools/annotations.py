"""The annotated share of the public functions, by area (docs/contributing.md "Conventions").

A function counts as annotated when every parameter (but a method's `self` or `cls`) and its
return carry an annotation. Public: a module-level function or a method of a module-level
class (or of a class inside one) whose name does not start with `_`; functions nested in
functions are the body of their parent. The areas: the reference (`python_ref/vikinger_ref`),
the reference modules the package imports (resolving `from vikinger_ref import Name` and
`vikinger_ref.name` to the module that defines the name), the package (`src/vikinger_fast`)
and its adapters, cli and pictures.

    python -m tools.annotations            # one line per area: annotated / public (share)
    python -m tools.annotations --missing  # and every unannotated public function
"""

from __future__ import annotations

import argparse
import ast
import pathlib
from typing import Iterator, NamedTuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "python_ref" / "vikinger_ref"
PACKAGE = ROOT / "src" / "vikinger_fast"


class Function(NamedTuple):
    """One public function: where it is, its qualified name, whether it is fully annotated."""

    path: pathlib.Path
    line: int
    name: str
    annotated: bool


def fully_annotated(node: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> bool:
    """Every parameter (a method's first, `self`/`cls`, aside) and the return annotated."""
    arguments = node.args
    positional = [*arguments.posonlyargs, *arguments.args]
    static = any(
        isinstance(decorator, ast.Name) and decorator.id == "staticmethod"
        for decorator in node.decorator_list
    )
    if method and not static and positional:
        positional = positional[1:]
    parameters = [*positional, *arguments.kwonlyargs]
    parameters += [extra for extra in (arguments.vararg, arguments.kwarg) if extra is not None]
    return node.returns is not None and all(p.annotation is not None for p in parameters)


def _functions(
    body: list[ast.stmt], prefix: str, method: bool
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, bool]]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node, method
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node.body, f"{prefix}{node.name}.", True)
        elif isinstance(node, (ast.If, ast.Try)):
            # A definition under `if TYPE_CHECKING:` or a `try: import` fallback.
            yield from _functions(node.body, prefix, method)
            yield from _functions(node.orelse, prefix, method)


def functions(path: pathlib.Path, public_only: bool = True) -> list[Function]:
    """The (public) functions and methods of one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for name, node, method in _functions(tree.body, "", False):
        if public_only and any(part.startswith("_") for part in name.split(".")):
            continue
        found.append(Function(path, node.lineno, name, fully_annotated(node, method)))
    return found


def modules(folder: pathlib.Path) -> list[pathlib.Path]:
    """The Python source files of a folder and its subfolders."""
    return sorted(folder.rglob("*.py"))


def _defined_in(name: str) -> str | None:
    """The reference module whose file defines (or imports, for the package root) `name`."""
    if (REFERENCE / f"{name}.py").exists():
        return name
    tree = ast.parse((REFERENCE / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            if any((alias.asname or alias.name) == name for alias in node.names):
                return node.module
    return None


def imported_reference_modules() -> set[str]:
    """The reference modules (by name, `state`, `mlp`, ...) that the package's code imports."""
    names: set[str] = set()
    for path in modules(PACKAGE):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        aliases = {"vikinger_ref"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == "vikinger_ref":
                        aliases.add(alias.asname or alias.name)
                    elif alias.name.startswith("vikinger_ref."):
                        names.add(alias.name.split(".")[1])
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module == "vikinger_ref":
                    names.update(alias.name for alias in node.names)
                elif node.module.startswith("vikinger_ref."):
                    names.add(node.module.split(".")[1])
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                names.add(node.attr)
    found = {_defined_in(name) for name in names}
    return {module for module in found if module is not None}


def areas() -> dict[str, list[pathlib.Path]]:
    """Each area of the report and its files."""
    imported = imported_reference_modules()
    return {
        "reference": modules(REFERENCE),
        "reference imported by the package": [
            path for path in modules(REFERENCE) if path.stem in imported
        ],
        "package": modules(PACKAGE),
        "adapters": modules(PACKAGE / "adapters"),
        "cli": modules(PACKAGE / "cli"),
        "pictures": modules(PACKAGE / "pictures"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", action="store_true", help="list unannotated functions")
    options = parser.parse_args(argv)
    for area, paths in areas().items():
        found = [function for path in paths for function in functions(path)]
        done = sum(function.annotated for function in found)
        share = 100.0 * done / len(found) if found else 100.0
        print(f"{area:34s} {done:4d} / {len(found):4d}  ({share:5.1f} %)")
        if options.missing:
            for function in found:
                if not function.annotated:
                    where = function.path.relative_to(ROOT)
                    print(f"    {where}:{function.line} {function.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
