"""Type annotations (docs/contributing.md "Conventions"): every function of the reference modules
the package imports, and of the package's adapters, cli and pictures, annotates its parameters
and its return, so mypy checks their bodies and the package's calls into them. The share of the
other areas: `python -m tools.annotations`."""

import pytest

from tools.annotations import PACKAGE, REFERENCE, functions, imported_reference_modules, modules


def _unannotated(paths):
    return [
        f"{function.path.name}:{function.line} {function.name}"
        for path in paths
        for function in functions(path, public_only=False)
        if not function.annotated
    ]


def test_the_package_imports_the_reference_modules_it_is_known_to():
    # The resolution of the imports finds modules named directly, names of the package root
    # (Game -> game) and attributes of `import vikinger_ref as ref`.
    imported = imported_reference_modules()
    assert {"actions", "game", "mlp", "npz", "svg"} <= imported
    assert all((REFERENCE / f"{name}.py").exists() for name in imported)


def test_the_imported_reference_modules_are_fully_annotated():
    imported = imported_reference_modules()
    paths = [path for path in modules(REFERENCE) if path.stem in imported]
    assert _unannotated(paths) == []


@pytest.mark.parametrize("area", ["adapters", "cli", "pictures"])
def test_the_package_area_is_fully_annotated(area):
    assert _unannotated(modules(PACKAGE / area)) == []


def test_an_unannotated_function_is_counted(tmp_path):
    source = tmp_path / "sample.py"
    source.write_text(
        "def typed(a: int, *rest: str, key: bool = True, **more: int) -> None: ...\n"
        "def no_return(a: int): ...\n"
        "def one_bare(a, b: int) -> int: ...\n"
        "class Box:\n"
        "    def method(self, x: int) -> int: ...\n"
        "    @staticmethod\n"
        "    def static(x) -> int: ...\n"
        "    def _private(self): ...\n"
    )
    found = {function.name: function.annotated for function in functions(source)}
    assert found == {
        "typed": True,
        "no_return": False,
        "one_bare": False,
        "Box.method": True,
        "Box.static": False,
    }
    assert len(functions(source, public_only=False)) == 6
