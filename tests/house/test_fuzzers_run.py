"""Each atheris fuzzer of fuzz/ starts and runs a few inputs on both engines (fuzz/README.md):
a fuzzer that dies while building its seeds finds nothing, however long it is left to run."""

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("atheris", reason="atheris is not installed (the test extra has it)")
ROOT = pathlib.Path(__file__).resolve().parents[2]
FUZZERS = sorted(path.stem for path in (ROOT / "fuzz").glob("fuzz_*.py"))


@pytest.mark.parametrize("name", FUZZERS)
def test_fuzzer_runs(name):
    run = subprocess.run(
        [sys.executable, "-m", f"fuzz.{name}", "-runs=30", "-seed=1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Done 30 runs" in run.stderr
