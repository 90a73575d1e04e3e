"""bench/micro.cc, the C++ microbenchmark of docs/benchmarks.md (clone cost, playouts, 1 and 2
threads), is built only on request (CMake VIKINGER_MICROBENCH): this checks that it still
compiles against the core's headers, so the documented command keeps working."""

import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
COMPILER = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")


@pytest.mark.skipif(COMPILER is None, reason="no C++ compiler on PATH")
def test_micro_bench_compiles_against_the_core_headers():
    source = ROOT / "bench" / "micro.cc"
    run = subprocess.run(
        [COMPILER, "-std=c++17", "-fsyntax-only", "-I", str(ROOT / "csrc"), str(source)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
