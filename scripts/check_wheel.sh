#!/usr/bin/env bash
# Builds the wheel and proves that a user can install it without a compiler: `python -m build
# --wheel` into a temporary folder, a check of what the wheel holds (the two packages and the
# compiled module, no build outputs, tests or sources), then a fresh virtual environment whose
# PATH is its own bin folder alone (no cc, c++, cmake, ninja, make), where pip
# installs the wheel with --no-build-isolation --no-index (numpy from a local folder downloaded
# beforehand, so nothing can fall back to a source build), imports vikinger_fast and vikinger_ref
# and runs `vikinger simulate --games 10`.
#
#   scripts/check_wheel.sh [--python PYTHON] [--wheel FILE] [--keep]
#
#   --python PYTHON  the interpreter to build with and to make the fresh venv from (default python3)
#   --wheel FILE     check this wheel instead of building one (e.g. one made by cibuildwheel)
#   --keep           keep the temporary folder (its path is printed) for a look at the wheel
#
# Needs the pip package `build` in PYTHON's environment (pip install build) and network access to
# PyPI for the build's isolated environment and the numpy wheel. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

python=python3
wheel=""
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --python) python="$2"; shift 2 ;;
    --wheel) wheel="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

work="$(mktemp -d)"
if [ "$keep" = 0 ]; then trap 'rm -rf "$work"' EXIT; else echo "keeping $work"; fi

if [ -z "$wheel" ]; then
  echo "== building the wheel"
  "$python" -m build --wheel --outdir "$work/dist" . >"$work/build.log" 2>&1 || {
    tail -40 "$work/build.log"; echo "the wheel did not build" >&2; exit 1; }
  wheel="$(ls "$work"/dist/*.whl)"
  echo "built $(basename "$wheel")"
fi

echo "== what the wheel holds"
"$python" - "$wheel" <<'EOF'
import sys
import zipfile

names = zipfile.ZipFile(sys.argv[1]).namelist()
allowed = ("vikinger_fast/", "vikinger_ref/", "vikinger_fast-", "vikinger_fast.", "vikinger_fast_")
problems = [n for n in names if not n.startswith(allowed) and ".dist-info/" not in n]
# Build outputs, sources and tests that must stay out of the wheel.
folders = ("tests/", "build/", "fuzz/", "bench/", "scripts/", "CMakeFiles/", "__pycache__/")
suffixes = (".o", ".a", ".obj", ".lib", ".cc", ".cpp", ".h", ".pyc", ".cmake", "CMakeCache.txt")
problems += [n for n in names if any(f in n for f in folders) or n.endswith(suffixes)
             or n.rsplit("/", 1)[-1].startswith(("test_", "conftest"))]
if not any(n.startswith("vikinger_fast/_core") for n in names):
    problems.append("no compiled vikinger_fast/_core module")
for required in ("vikinger_fast/__init__.py", "vikinger_fast/_core.pyi", "vikinger_fast/py.typed",
                 "vikinger_ref/__init__.py", "vikinger_fast/_build_info.py",
                 "vikinger_fast/rules.md"):  # the web app's rules page (web/rules_page.py)
    if required not in names:
        problems.append("missing " + required)
print(f"{len(names)} files")
if problems:
    print("unexpected content:\n  " + "\n  ".join(sorted(set(problems))))
    sys.exit(1)
EOF

echo "== a fresh venv with no build tools on PATH"
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip download --quiet --only-binary=:all: --dest "$work/deps" "numpy>=1.22"
# PATH is the venv's bin folder alone (python, pip, and the wheel's `vikinger` script once
# installed): no compiler, linker or cmake is reachable. The venv's python is called by its full
# path, so it finds its pyvenv.cfg and installs into the venv, never into the base interpreter.
py="$work/venv/bin/python"
run_bare() { env -i HOME="$work" PATH="$work/venv/bin" LANG=C.UTF-8 "$@"; }
run_bare "$py" -c "import sys; sys.exit(sys.prefix != '$work/venv')" || {
  echo "the fresh venv's python does not run in its venv" >&2; exit 1; }
for tool in cc gcc c++ g++ clang cmake ninja make; do
  if run_bare "$py" -c "import shutil, sys; sys.exit(shutil.which('$tool') is None)"; then
    echo "$tool is reachable from the bare PATH" >&2; exit 1
  fi
done
run_bare "$py" -m pip install --quiet --no-index --find-links "$work/deps" --no-build-isolation \
  --only-binary=:all: "$wheel"
cd "$work"  # away from the source tree, so the imports below come from the installed wheel
run_bare "$py" - <<'EOF'
import sys

import vikinger_fast as vk
import vikinger_ref as ref

for module in (vk, ref):  # from the fresh venv, not the source tree or the base interpreter
    assert module.__file__.startswith(sys.prefix) and sys.prefix != sys.base_prefix, module.__file__
game = vk.Game(num_players=2)
fast_scores = vk.rollouts(game, 20, 0)["scores"].tolist()
ref_scores = ref.rollouts(ref.Game(num_players=2), 20, 0)["scores"].tolist()
assert fast_scores == ref_scores, "the engines differ on 20 rollouts"
print("imported", vk.__file__, "and", ref.__file__, "- 20 rollouts equal")
EOF
run_bare "$work/venv/bin/vikinger" simulate --games 10
echo "== the wheel installs and runs without a compiler"
