"""Fixtures: every test body runs on both engines (the RapidFuzz pattern).

`engine` is the imported module, `vikinger_ref` (pure Python, always required) or `vikinger_fast`
(C++). If `vikinger_fast` cannot be imported its tests FAIL, so CI cannot pass while silently
skipping the C++ engine; set VIKINGER_ONLY_REF=1 to skip them instead (while the extension is not
built yet). Position builders live in `positions.py`.
"""

import importlib
import os

import pytest
from hypothesis import settings

# CI runs the hypothesis tests on a fixed example stream, so a run on a given commit always
# passes or always fails; outside CI each run explores new examples.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ONLY_REF = os.environ.get("VIKINGER_ONLY_REF") == "1"
MODULES = {"ref": "vikinger_ref", "fast": "vikinger_fast"}
_loaded = {}


def _import(which):
    """(module, None) or (None, the ImportError). python_ref/ is on pytest's `pythonpath`
    (pyproject.toml), so a source checkout finds the reference without an install."""
    if which not in _loaded:
        try:
            _loaded[which] = (importlib.import_module(MODULES[which]), None)
        except ImportError as error:
            _loaded[which] = (None, error)
    return _loaded[which]


def load_engine(which):
    module, error = _import(which)
    if module is not None:
        return module
    if which == "fast" and ONLY_REF:
        pytest.skip(f"vikinger_fast not importable ({error}); VIKINGER_ONLY_REF=1")
    pytest.fail(
        f"{MODULES[which]} cannot be imported: {error!r} "
        f"(set VIKINGER_ONLY_REF=1 to test the reference alone)",
        pytrace=False,
    )


@pytest.fixture(params=["ref", "fast"])
def engine(request):
    """The engine module under test: vikinger_ref or vikinger_fast."""
    return load_engine(request.param)


@pytest.fixture
def engines():
    """Both modules, (ref, fast), for tests that compare them step by step."""
    return load_engine("ref"), load_engine("fast")


@pytest.fixture(params=["vikinger_ref", "vikinger_fast"])
def engine_name(request):
    """The engine's module name, for a test that imports it in a child process."""
    load_engine("ref" if request.param == "vikinger_ref" else "fast")  # fails if not importable
    return request.param


@pytest.fixture
def base_models(tmp_path_factory, monkeypatch):
    """A models folder with the package's base-game networks alone (az_bot.MODELS patched): the
    tables with modules have no shipped network there, as before the networks for every set."""
    import shutil

    from vikinger_ref import az_bot

    folder = tmp_path_factory.mktemp("base-models")
    for n in (2, 3, 4):
        shutil.copy(os.path.join(az_bot.MODELS, f"az-{n}p.npz"), folder / f"az-{n}p.npz")
    monkeypatch.setattr(az_bot, "MODELS", str(folder))
    return folder


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_a_test_folder(tmp_path_factory):
    """Stable-Baselines3's learn() makes a log folder, by default a new SB3-<time> folder in the
    system's temporary directory that nobody removes: the tests' go under pytest's own."""
    before = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3-logs"))
    yield
    if before is None:
        del os.environ["SB3_LOGDIR"]
    else:
        os.environ["SB3_LOGDIR"] = before
