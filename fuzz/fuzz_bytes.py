"""atheris fuzzer of `Game.deserialize_state` (the bytes of docs/state.md).

The fuzz input is the bytes themselves; the seed corpus (fuzz/make_corpus.py) holds real states
of every phase. The game is the one the bytes' header names (players, option bits), so mutations
reach the deep checks; a header out of range is tried on a 2-player game.
Oracles (fuzz/oracles.py): ValueError/TypeError only, canonical bytes, a working
accepted state, the same answer from the reference; an accepted state is then played on in both
engines alike (12 actions), and to the end in the C++ engine.

    python -m fuzz.fuzz_bytes -runs=1000000 -max_len=4096 build/fuzz-corpus/bytes
"""

from fuzz import harness


def make_target(run):
    from fuzz import oracles
    from fuzz import seeds
    from vikinger_ref import OPTION_NAMES

    game = seeds.game_cache()

    def header_game(data):
        if len(data) >= 7 and 2 <= data[5] <= 4 and data[6] < 32:
            return data[5], {name: True for i, name in enumerate(OPTION_NAMES) if data[6] >> i & 1}
        return 2, {}

    def one_input(data):
        engines = run.engines_for(run.counts["inputs"])
        n, flags = header_game(data)
        result = oracles.check_bytes_both([game(m, n, flags) for m in engines], data)
        run.record(result)
        if result[0] == "ok":
            states = [game(m, n, flags).deserialize_state(data) for m in engines]
            oracles.play_on(states, steps=12, seed=len(data), round_trip_every=12)
            oracles.play_on(states[-1:], steps=3000, seed=len(data), round_trip_every=50)

    return one_input


if __name__ == "__main__":
    harness.main(make_target)
