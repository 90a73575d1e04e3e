#!/usr/bin/env python3
"""Rewrite the golden playthroughs in tests/data/playthroughs/ with the reference engine.

Run it after an intended rule change and read the diff: it is the change's effect on one seeded
game per configuration (tools/playthrough.py). Every configuration of
tools.playthrough.CONFIGURATIONS gets a file; files of configurations no longer listed
are removed. With --check nothing is written and the exit status is 1 when a file would change.

    python scripts/update_playthroughs.py [--check]
"""

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python_ref"))  # the checkout's reference, not an installed copy
sys.path.insert(1, str(ROOT))  # tools/, which is not installed

import vikinger_ref  # noqa: E402
from tools.playthrough import CONFIGURATIONS, file_name, first_change, render  # noqa: E402

DIRECTORY = ROOT / "tests" / "data" / "playthroughs"


def update(check):
    """Write (or with `check` only report) every playthrough that changed; the number of them."""
    DIRECTORY.mkdir(parents=True, exist_ok=True)
    wanted = {file_name(config): config for config in CONFIGURATIONS}
    changes = 0
    for name, config in wanted.items():
        path = DIRECTORY / name
        text = render(vikinger_ref, config)
        old = path.read_text() if path.exists() else None
        if old == text:
            print(f"unchanged  {name}")
            continue
        changes += 1
        where = "new file" if old is None else f"first change at {first_change(old, text)}"
        print(f"{'differs' if check else 'written'}  {name}: {where}")
        if not check:
            path.write_text(text)
    for path in sorted(DIRECTORY.glob("*.txt")):
        if path.name not in wanted:
            changes += 1
            print(f"{'stale' if check else 'removed'}  {path.name}: no such configuration")
            if not check:
                path.unlink()
    return changes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when a playthrough would change"
    )
    args = parser.parse_args(argv)
    changes = update(args.check)
    return 1 if args.check and changes else 0


if __name__ == "__main__":
    sys.exit(main())
