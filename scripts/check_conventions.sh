#!/usr/bin/env bash
# The conventions of docs/contributing.md, checked: ruff (lint and format), clang-format over
# csrc/, mypy over the package and the reference, and stubtest of the C++ module's stub against
# the installed module. CI runs it; .pre-commit-config.yaml runs the same tools on commit.
# Needs: pip install ".[dev]" (ruff, mypy) and Debian's clang-format; the package installed.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
run() {
  echo "== $*"
  "$@" || status=1
}
run ruff check .
run ruff format --check .
mapfile -t cxx < <(git ls-files 'csrc/*.h' 'csrc/*.cc' 'bench/*.cc')
run clang-format --dry-run --Werror "${cxx[@]}"
run mypy
# stubtest imports the installed module, not the checkout's build folder. (Not through run: a
# status set in the subshell would be lost, and its failures with it.)
echo "== python3 -m mypy.stubtest vikinger_fast._core (from /tmp)"
(cd /tmp && python3 -m mypy.stubtest vikinger_fast._core \
   --allowlist "$OLDPWD/tools/stubtest_allowlist.txt") || status=1
exit "$status"
