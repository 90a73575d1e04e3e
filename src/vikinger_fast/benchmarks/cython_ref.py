"""The reference engine compiled with Cython: "why not just compile the Python?"

`load()` compiles the unchanged modules of the installed `vikinger_ref` package with Cython into a
cache directory and imports the result as the package `vikinger_ref_cy` (same API, same games: the
modules import each other relatively, so only the package name differs). Nothing is copied into
the repository: the sources are read from wherever `vikinger_ref` is installed and the build lives
in the cache, keyed by a hash of the sources and the Python and Cython versions, so it is built
once (about a minute on 2 cores) and reused. Set VIKINGER_CACHE_DIR to move the cache.

It ships in the package, not with the tooling of tools/, because `vikinger bench` (a product
command) measures the compiled reference in its table: a user can check on their own machine
how far compiling the Python goes against the C++ engine. Needs Cython and a C compiler
(the `bench` extra); without them bench prints the rows as skipped.
"""

import hashlib
import importlib
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
from types import ModuleType
from typing import List, Optional, Sequence, Union

from ..extras import installed

PACKAGE = "vikinger_ref_cy"

# Runs in a fresh interpreter inside the build directory: setuptools' build_ext --inplace puts
# every extension next to its source, named after the package path. annotation_typing=False: the
# reference's annotations are for the type checker; read by Cython, `x: float` would be a C double
# and `x: list` or `x: str` would refuse what the Python accepts (a tuple, numpy.str_), so the
# compiled modules would no longer be the same API.
_BUILD_SCRIPT = """
import sys
from Cython.Build import cythonize
from setuptools import setup
modules = sys.argv[1:]
setup(script_args=["build_ext", "--inplace", "-j", "2"],
      ext_modules=cythonize(modules, nthreads=2, quiet=True,
                            compiler_directives={"language_level": 3,
                                                 "annotation_typing": False}))
"""


def available() -> bool:
    """True when Cython can be imported (the `bench` extra)."""
    return installed("Cython")


def _reference_sources() -> List[pathlib.Path]:
    spec = importlib.util.find_spec("vikinger_ref")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("vikinger_ref is not installed")
    directory = pathlib.Path(list(spec.submodule_search_locations)[0])
    return sorted(directory.glob("*.py"))


def default_cache_dir() -> pathlib.Path:
    root = os.environ.get("VIKINGER_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "vikinger_fast"
    )
    return pathlib.Path(root) / "cython-ref"


def _build_key(sources: Sequence[pathlib.Path]) -> str:
    import Cython

    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(f"{Cython.__version__} {sysconfig.get_config_var('SOABI')}".encode())
    return digest.hexdigest()[:16]


def _build(sources: Sequence[pathlib.Path], root: pathlib.Path) -> None:
    """Compiles every module but __init__.py (which only re-exports) into root/PACKAGE."""
    staging = root.with_name(root.name + ".tmp")
    shutil.rmtree(staging, ignore_errors=True)
    package = staging / PACKAGE
    package.mkdir(parents=True)
    for path in sources:
        shutil.copyfile(path, package / path.name)
    modules = [f"{PACKAGE}/{path.name}" for path in sources if path.name != "__init__.py"]
    # -O2 -g0 (appended after Python's own -O3 -g, so they win) halve the compile time of
    # Cython's large C files and leave the speed of the result unchanged.
    env = {**os.environ, "CFLAGS": f"{os.environ.get('CFLAGS', '')} -O2 -g0".strip()}
    result = subprocess.run(
        [sys.executable, "-c", _BUILD_SCRIPT, *modules],
        cwd=staging,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise RuntimeError(
            f"Cython build of the reference failed:\n{result.stdout}\n{result.stderr}"
        )
    for path in package.iterdir():
        if path.suffix in (".py", ".c") and path.name != "__init__.py":
            path.unlink()
    shutil.rmtree(staging / "build", ignore_errors=True)
    shutil.rmtree(root, ignore_errors=True)
    staging.rename(root)


def load(cache_dir: Optional[Union[str, pathlib.Path]] = None) -> ModuleType:
    """The compiled reference as a module (built first when the cache has no build of it)."""
    if PACKAGE in sys.modules:
        return sys.modules[PACKAGE]
    sources = _reference_sources()
    root = pathlib.Path(cache_dir or default_cache_dir()) / _build_key(sources)
    if not (root / PACKAGE / "__init__.py").exists():
        root.parent.mkdir(parents=True, exist_ok=True)
        _build(sources, root)
    sys.path.insert(0, str(root))
    try:
        module = importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
    if not module.state.__file__.endswith(sysconfig.get_config_var("EXT_SUFFIX")):
        raise ImportError(f"{PACKAGE} was not compiled: {module.state.__file__}")
    return module
