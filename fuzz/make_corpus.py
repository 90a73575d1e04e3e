"""Writes the seed corpus of fuzz_bytes.py: the bytes of real states of every phase.

    python fuzz/make_corpus.py OUT_DIR [--engines fast,ref]

States come from seeded random games (fuzz/inputs.py `seed_dicts`) of every configuration that
the engines named all play; one file per state, named after its configuration and index.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.join(os.path.dirname(HERE), "python_ref"))

import inputs  # noqa: E402


def main(argv):
    out = argv[1]
    names = argv[argv.index("--engines") + 1].split(",") if "--engines" in argv else ["fast", "ref"]
    import vikinger_ref
    modules = [vikinger_ref]
    if "fast" in names:
        import vikinger_fast
        modules.append(vikinger_fast)
    os.makedirs(out, exist_ok=True)
    count = 0
    for n, flags, d in inputs.seed_dicts(vikinger_ref, inputs.shared_configs(modules), every=9):
        data = inputs.make_game(vikinger_ref, n, flags).state_from_dict(d).serialize()
        name = "-".join([f"{n}p", *sorted(flags), f"{count:04d}"])
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        count += 1
    print(f"{count} seed inputs in {out}")


if __name__ == "__main__":
    main(sys.argv)
