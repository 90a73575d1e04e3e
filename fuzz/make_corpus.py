"""Writes the seed corpus of fuzz_bytes.py: the bytes of real states of every phase.

    python -m fuzz.make_corpus OUT_DIR

States come from seeded random games of the reference (fuzz/seeds.py `seed_dicts`, the
configurations of seeds.CONFIGS); one file per state, named after its configuration and index.
"""

import os
import sys

# The checkout's reference, not an installed copy (run from the checkout's root as
# `python -m fuzz.NAME`, which puts the root, and so this package, on the path).
sys.path.insert(
    1, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python_ref")
)

import vikinger_ref  # noqa: E402

from fuzz import seeds  # noqa: E402


def main(argv):
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    count = 0
    for n, flags, d in seeds.seed_dicts(vikinger_ref, seeds.CONFIGS, every=9):
        data = seeds.make_game(vikinger_ref, n, flags).state_from_dict(d).serialize()
        name = "-".join([f"{n}p", *sorted(flags), f"{count:04d}"])
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        count += 1
    print(f"{count} seed inputs in {out}")


if __name__ == "__main__":
    main(sys.argv)
