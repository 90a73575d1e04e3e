"""atheris fuzzer of `Game.state_from_dict` (the dict of docs/state.md and docs/advanced.md).

The fuzz input drives a structure-aware mutator (fuzz/mutations.py `mutate_dict`) through
atheris.FuzzedDataProvider: it picks a seed position (a real state of any phase, from seeded
random games of a few configurations) and 1-4 mutations: a value replaced by an
odd one (wrong type, boundary, bool for int, ...), a key deleted or added, a list shortened or
lengthened, a Viking or tile moved between count tables (totals kept, to reach the deep checks),
a board cell or ship changed, the phase changed. Oracles: ValueError/TypeError only, the dict
untouched, an accepted dict round-trips, the same answer from the reference; an accepted state is
played on in both engines alike (12 actions), and in the C++ engine 40 more actions (every
8th accepted dict: to the end of the game).

    python -m fuzz.fuzz_dict -runs=1000000
"""

from fuzz import harness


def make_target(run):
    import atheris
    from fuzz import choosers
    from fuzz import mutations
    from fuzz import oracles
    from fuzz import seeds

    ref = run.engines[0]
    configs = seeds.CONFIGS
    starts = seeds.seed_dicts(ref, configs, every=5)
    game = seeds.game_cache()

    def one_input(data):
        chooser = choosers.ProviderChooser(atheris.FuzzedDataProvider(data))
        n, flags, d = starts[chooser.choose(len(starts))]
        mutated = mutations.mutate_dict(d, chooser)
        engines = run.engines_for(run.counts["inputs"])
        result = oracles.check_dict_both([game(m, n, flags) for m in engines], mutated)
        run.record(result)
        if result[0] == "ok":
            states = [game(m, n, flags).state_from_dict(mutated) for m in engines]
            oracles.play_on(states, steps=12, seed=len(data), round_trip_every=12)
            # Most accepted dicts differ from their seed in little; every 8th plays to the end.
            long_run = run.counts["accepted"] % 8 == 0
            oracles.play_on(
                states[-1:], steps=3000 if long_run else 40, seed=len(data), round_trip_every=50
            )

    return one_input


if __name__ == "__main__":
    harness.main(make_target)
