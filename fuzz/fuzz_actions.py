"""atheris fuzzer of call sequences on a state: `apply_action` and every call that takes an id,
a player, a seed or a string, with legal ids, illegal ids and values of wrong types mixed.

The fuzz input drives fuzz/action_sequences.py `run_action_sequence` through
atheris.FuzzedDataProvider: a seed position (real states of every phase), then up to 60 calls.
Each call must give the same answer in both engines (the same id applied, the same error type),
a refused call must leave the state as it was, and the two states must stay byte-identical.

    python -m fuzz.fuzz_actions -runs=1000000
"""

from fuzz import harness


def make_target(run):
    import atheris
    from fuzz import action_sequences
    from fuzz import choosers
    from fuzz import seeds

    ref = run.engines[0]
    starts = []
    for n, flags, d in seeds.seed_dicts(ref, seeds.CONFIGS, every=5):
        starts.append((n, flags, seeds.make_game(ref, n, flags).state_from_dict(d).serialize()))
    numpy_values = action_sequences.numpy_odd_actions()
    game = seeds.game_cache()

    def one_input(data):
        provider = atheris.FuzzedDataProvider(data)
        chooser = choosers.ProviderChooser(provider)
        n, flags, raw = starts[chooser.choose(len(starts))]
        engines = run.engines_for(run.counts["inputs"])
        states = [game(m, n, flags).deserialize_state(raw) for m in engines]
        length = 1 + chooser.choose(60)
        action_sequences.run_action_sequence(states, chooser, length, numpy_values)
        run.record(("ok", None))

    return one_input


if __name__ == "__main__":
    harness.main(make_target)
