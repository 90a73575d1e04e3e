"""The atheris harness shared by fuzz_bytes.py, fuzz_dict.py and fuzz_actions.py.

A target is a function `one_input(data: bytes)` that raises `oracles.Finding` (or crashes) when an
oracle breaks. `main(target)` runs it under libFuzzer (atheris) with the engines chosen on the
command line, counts inputs and outcomes, and prints a summary at exit:

    python -m fuzz.fuzz_bytes [--engines fast,ref] [--no-python-coverage] [libFuzzer flags...]

--engines fast,ref   (default) the C++ engine checked by its own oracles and against the
                     reference on every input: same acceptance, same error type, same state
--engines fast       the C++ engine alone (its own oracles only; much faster)
--engines ref        the reference alone
--instrument M,...   Python modules instrumented for coverage (default
                     mutations,vikinger_ref: the mutators and the reference's validation
                     branches guide libFuzzer; `mutations` alone is cheap; `none` for none).
                     Native coverage comes from a
                     build with VIKINGER_FUZZ=ON (scripts/sanitize.sh)
--no-python-coverage the same as --instrument none
--ref-every K        run the reference oracle on every K-th input only (default 1: all)

libFuzzer flags pass through, e.g. `-runs=1000000 -max_len=4096 corpus_dir`. With
VIKINGER_FUZZ_SUMMARY=path the counts ("inputs: N", "accepted: N", "refused ValueError: N", ...)
are kept in that file (rewritten every 2000 inputs: libFuzzer ends the process with exit()).
"""

import atexit
import collections
import os
import sys
import time

# The checkout's reference, not an installed copy (run from the checkout's root as
# `python -m fuzz.NAME`, which puts the root, and so this package, on the path).
sys.path.insert(
    1, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python_ref")
)


class Run:
    """What the target needs: the engines, the counters."""

    def __init__(self, engines, ref_every):
        self.engines = engines  # modules, reference first when both
        self.ref_every = ref_every
        self.counts = collections.Counter()
        self.started = time.time()

    def engines_for(self, count):
        """The engines for input number `count`: the reference only on every K-th input."""
        if len(self.engines) == 2 and count % self.ref_every:
            return self.engines[1:]
        return self.engines

    def record(self, result):
        kind = result[0]
        self.counts["inputs"] += 1
        self.counts["accepted" if kind == "ok" else f"refused {kind.__name__}"] += 1
        if self.counts["inputs"] % 2000 == 0:
            self.write_summary()

    def write_summary(self):
        """libFuzzer ends the process with exit(): the summary is kept up to date on the way."""
        path = os.environ.get("VIKINGER_FUZZ_SUMMARY")
        if path:
            with open(path, "w") as out:
                out.write(self.summary() + "\n")

    def summary(self):
        elapsed = time.time() - self.started
        names = ",".join(module.__name__ for module in self.engines)
        lines = [f"engines: {names}", f"seconds: {elapsed:.0f}"]
        lines += [f"{key}: {value}" for key, value in sorted(self.counts.items())]
        return "\n".join(lines)


def _options(argv):
    engines, coverage, ref_every, rest = "fast,ref", "fuzz.mutations,vikinger_ref", 1, [argv[0]]
    args = iter(argv[1:])
    for arg in args:
        if arg == "--engines":
            engines = next(args)
        elif arg.startswith("--engines="):
            engines = arg.split("=", 1)[1]
        elif arg == "--instrument":
            coverage = next(args)
        elif arg == "--no-python-coverage":
            coverage = "none"
        elif arg == "--ref-every":
            ref_every = int(next(args))
        else:
            rest.append(arg)
    instrumented = [] if coverage == "none" else coverage.split(",")
    return engines.split(","), instrumented, ref_every, rest


def main(make_target):
    """`make_target(run)` returns the one-input function; run it under atheris."""
    import atheris

    names, instrumented, ref_every, argv = _options(sys.argv)
    if instrumented:
        with atheris.instrument_imports(include=instrumented):
            from fuzz import mutations  # noqa: F401  (instrumented for coverage feedback when named)
            import vikinger_ref
    else:
        import vikinger_ref
    modules = {"ref": vikinger_ref}
    if "fast" in names:
        import vikinger_fast

        modules["fast"] = vikinger_fast
    order = [modules[name] for name in ("ref", "fast") if name in names]
    run = Run(order, ref_every)
    target = make_target(run)
    atexit.register(run.write_summary)
    atheris.Setup(argv, target)
    atheris.Fuzz()
