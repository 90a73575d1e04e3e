"""atheris fuzzer of hostile Game data and rng values (fuzz/hostile.py).

Each input is a Game rebuilt from a (num_players, options) pair an edited pickle could carry,
then a chance node of a seed position sampled with a Generator whose random() returns a chosen
value. Both engines must agree, refuse with ValueError/TypeError only, and change nothing when
they refuse.

    python -m fuzz.fuzz_hostile -runs=1000000
"""

from fuzz import harness


def make_target(run):
    import atheris
    from fuzz import hostile
    from fuzz import choosers
    from fuzz import seeds

    ref = run.engines[0]
    chance_seeds = []
    for n, flags, d in seeds.seed_dicts(ref, seeds.CONFIGS, every=3):
        state = seeds.make_game(ref, n, flags).state_from_dict(d)
        if state.is_chance_node():
            chance_seeds.append((n, flags, state.serialize()))
    game = seeds.game_cache()

    def one_input(data):
        chooser = choosers.ProviderChooser(atheris.FuzzedDataProvider(data))
        engines = run.engines_for(run.counts["inputs"])
        hostile.check_game_data(
            engines, hostile.pick_game_value(chooser), hostile.pick_game_value(chooser)
        )
        n, flags, raw = chance_seeds[chooser.choose(len(chance_seeds))]
        states = [game(m, n, flags).deserialize_state(raw) for m in engines]
        run.record(hostile.check_random_value(states, hostile.pick_random_value(chooser)))

    return one_input


if __name__ == "__main__":
    harness.main(make_target)
