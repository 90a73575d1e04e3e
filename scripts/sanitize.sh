#!/usr/bin/env bash
# Builds vikinger_fast with AddressSanitizer + UndefinedBehaviorSanitizer (CMake
# VIKINGER_SANITIZE=ON, with VIKINGER_FUZZ=ON for libFuzzer coverage) into its own build dir and
# venv, then runs on that
# build the tests that drive the C++ engine hardest (differential, robustness, fuzz, threads, ...)
# and the atheris fuzzers of fuzz/. Any sanitizer report stops the run with a non-zero exit.
#
#   scripts/sanitize.sh [--runs N] [--ref-every K] [--all-tests] [--skip-build] [--skip-tests]
#                       [--skip-fuzz] [-- extra pytest args]
#
#   --runs N       inputs per fuzzer (default 20000; the issue's long run used 1000000)
#   --ref-every K  compare with the reference on every K-th fuzz input (default 10)
#   --all-tests    run the whole tests/ directory instead of the list below
#   --ubsan-only   UndefinedBehaviorSanitizer without ASan, into build/sanitize-ubsan: ~10x
#                  faster under the fuzzers (ASan's allocator and shadow checks dominate the
#                  dict entry point), for long fuzz runs
#
# Needs clang (apt-get install clang) and network access to PyPI the first time (the venv gets
# numpy, pytest, hypothesis, atheris, scikit-build-core, pybind11). The venv does not see the
# system site-packages, so an editable install of vikinger_fast there cannot shadow this build.
# Results: build/sanitize/report.txt. With the defaults it takes about 20 minutes on 2 cores
# (build 2, tests 4-6, fuzzers 14: under ASan and coverage the dict entry point runs ~50 inputs/s).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS=20000
UBSAN_ONLY=0
REF_EVERY=10
ALL_TESTS=0
BUILD=1
TESTS=1
FUZZ=1
PYTEST_EXTRA=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) RUNS="$2"; shift 2 ;;
    --ref-every) REF_EVERY="$2"; shift 2 ;;
    --all-tests) ALL_TESTS=1; shift ;;
    --skip-build) BUILD=0; shift ;;
    --skip-tests) TESTS=0; shift ;;
    --skip-fuzz) FUZZ=0; shift ;;
    --ubsan-only) UBSAN_ONLY=1; shift ;;
    --) shift; PYTEST_EXTRA=("$@"); break ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

if [[ $UBSAN_ONLY == 1 ]]; then
  OUT="$ROOT/build/sanitize-ubsan"
  # The same UBSan checks as VIKINGER_SANITIZE, less the C++-runtime ones (see CMakeLists.txt).
  UBSAN_FLAGS="-fsanitize=undefined -fno-sanitize=vptr,function"
  SANITIZE_DEFINES=(-Ccmake.define.VIKINGER_SANITIZE=OFF "-Ccmake.define.CMAKE_CXX_FLAGS=$UBSAN_FLAGS")
  RUNTIME=ubsan_with_fuzzer.so
else
  OUT="$ROOT/build/sanitize"
  SANITIZE_DEFINES=(-Ccmake.define.VIKINGER_SANITIZE=ON)
  RUNTIME=asan_with_fuzzer.so
fi
VENV="$OUT/venv"
PY="$VENV/bin/python"

command -v clang++ >/dev/null || { echo "clang++ is needed: apt-get install clang" >&2; exit 2; }
mkdir -p "$OUT"
REPORT="$OUT/report.txt"
: > "$REPORT"

if [[ $BUILD == 1 ]]; then
  if [[ ! -x "$PY" ]]; then
    python3 -m venv "$VENV"
    "$PY" -m pip install --quiet --upgrade pip
  fi
  echo "building into $OUT (log: $OUT/build.log)"
  {
    "$PY" -m pip install --quiet numpy pytest hypothesis atheris "scikit-build-core>=0.10" \
      "pybind11>=2.12"
    # RelWithDebInfo: optimised like the release build, with line numbers in sanitizer reports.
    CC=clang CXX=clang++ "$PY" -m pip install --no-build-isolation --no-deps --force-reinstall \
      -Cbuild-dir="$OUT/cmake" -Ccmake.build-type=RelWithDebInfo \
      "${SANITIZE_DEFINES[@]}" -Ccmake.define.VIKINGER_FUZZ=ON "$ROOT"
  } > "$OUT/build.log" 2>&1 || { tail -n 30 "$OUT/build.log"; exit 1; }
fi

# The sanitizer runtimes must come first in the process: atheris ships ASan (with UBSan's
# handlers), and UBSan alone, linked with libFuzzer; they serve the fuzzers and the tests alike.
ATHERIS_DIR="$("$PY" -c 'import atheris; print(atheris.path())')"
export LD_PRELOAD="$ATHERIS_DIR/$RUNTIME"
# Python itself leaks by design at exit; every other report is fatal.
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1"
ASAN_OPTIONS+=":detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export VIKINGER_SANITIZED=1
"$PY" -c 'import vikinger_fast, sys; print("vikinger_fast from", vikinger_fast._core.__file__)' \
  | tee -a "$REPORT"

status=0
if [[ $TESTS == 1 ]]; then
  cd "$ROOT"
  if [[ $ALL_TESTS == 1 ]]; then
    SELECTED=(tests)
  else
    SELECTED=()
    for name in test_differential test_robustness test_robustness_reading test_fuzz_inputs \
                test_fuzz_hostile test_threads test_errors_reading \
                test_errors test_game_data test_shared_objects test_interrupt \
                test_serialization test_vector_game test_rollouts test_random_games; do
      # the tests sit in folders by layer (tests/rules/, tests/api/, ...)
      for path in tests/*/"$name.py"; do
        [[ -f "$path" ]] && SELECTED+=("$path")
      done
    done
  fi
  echo "== pytest ${SELECTED[*]}" | tee -a "$REPORT"
  # The tests import the engines installed in the venv (tests/conftest.py).
  if ! "$PY" -m pytest -q -p no:cacheprovider "${SELECTED[@]}" "${PYTEST_EXTRA[@]}" \
      > "$OUT/pytest.log" 2>&1; then
    status=1
  fi
  tail -n 15 "$OUT/pytest.log"
  grep -E "^(=+ )?[0-9]+ (passed|failed)" "$OUT/pytest.log" | tail -n 1 >> "$REPORT" || true
  if grep -qE "ERROR: AddressSanitizer|runtime error:" "$OUT/pytest.log"; then
    echo "sanitizer report in $OUT/pytest.log" | tee -a "$REPORT"
    status=1
  fi
fi

if [[ $FUZZ == 1 ]]; then
  cd "$ROOT"
  CORPUS="$OUT/corpus"
  rm -rf "$CORPUS"
  "$PY" -m fuzz.make_corpus "$CORPUS/bytes" | tee -a "$REPORT"
  mkdir -p "$CORPUS/dict" "$CORPUS/actions" "$CORPUS/hostile" "$OUT/crashes"
  for target in bytes dict actions hostile; do
    echo "== fuzz_$target: $RUNS inputs" | tee -a "$REPORT"
    if ! VIKINGER_FUZZ_SUMMARY="$OUT/fuzz_$target.txt" "$PY" -m "fuzz.fuzz_$target" \
        --ref-every "$REF_EVERY" -runs="$RUNS" -max_len=4096 -len_control=0 -print_final_stats=1 \
        -artifact_prefix="$OUT/crashes/$target-" "$CORPUS/$target" \
        > "$OUT/fuzz_$target.log" 2>&1; then
      echo "fuzz_$target FAILED: see $OUT/fuzz_$target.log and $OUT/crashes/" | tee -a "$REPORT"
      status=1
    fi
    grep -E "^Done [0-9]+ runs" "$OUT/fuzz_$target.log" | tee -a "$REPORT" || true
    cat "$OUT/fuzz_$target.txt" >> "$REPORT" 2>/dev/null || true
  done
fi

echo "== exit status $status" | tee -a "$REPORT"
exit $status
