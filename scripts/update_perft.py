#!/usr/bin/env python3
"""Record the perft counts of tests/data/perft.json with the reference engine.

For every position of tools.perft.POSITIONS: find it by seeded play, count the action
sequences to its depth (chance outcomes enumerated) and store the position (`to_dict`) with its
counts; tests/rules/test_perft.py recounts them on both engines. Run it after an intended rule
change and review the diff. With --check nothing is written and the exit status is 1 when the
file would change.

    python scripts/update_perft.py [--check]
"""

import argparse
import json
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python_ref"))  # the checkout's reference, not an installed copy
sys.path.insert(1, str(ROOT))  # tools/, which is not installed

import vikinger_ref  # noqa: E402
from tools.perft import POSITIONS, find, perft  # noqa: E402

PATH = ROOT / "tests" / "data" / "perft.json"
COMMENT = (
    "Perft counts (tools/perft.py): counts[k-1] = action sequences of length k "
    "from the position, chance outcomes enumerated, a terminal state one leaf. Written by "
    "scripts/update_perft.py with the reference engine; do not edit."
)


def record(position):
    """The JSON entry of one position, computed with the reference."""
    seed, step, state = find(vikinger_ref, position)
    start = time.perf_counter()
    counts = perft(state, position.depth)
    print(
        f"{position.name}: game {seed}, step {step}, counts {counts} "
        f"({time.perf_counter() - start:.1f} s)"
    )
    return {
        "name": position.name,
        "description": position.description,
        "configuration": position.config.name,
        "seed": seed,
        "step": step,
        "counts": counts,
        "state": state.to_dict(),
    }


def render(entries):
    """One line per position, so a diff shows which positions changed."""
    lines = [json.dumps(entry, ensure_ascii=False) for entry in entries]
    return (
        f'{{"comment": {json.dumps(COMMENT)},\n "positions": [\n  ' + ",\n  ".join(lines) + "\n]}\n"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when the file would change"
    )
    args = parser.parse_args(argv)
    text = render([record(position) for position in POSITIONS])
    old = PATH.read_text() if PATH.exists() else None
    if old == text:
        print(f"unchanged  {PATH.name}")
        return 0
    print(f"{'differs' if args.check else 'written'}  {PATH.name}")
    if args.check:
        return 1
    PATH.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
