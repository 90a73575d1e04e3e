"""A toy bot, written in both engines as docs/contributing.md "Adding a bot" step 1 says, for
tests/arena/test_bot_registry.py, which adds it to the registry (step 2) and plays it.

ToyBot(game, seed, *, looks=None): of the first `looks` legal actions, the one whose next
position the evaluation likes best for the mover (the first on a tie). `looks` is its budget:
without one it is refused, as the searches are. Its logic is Python on an engine's classes, so
one implementation serves both engines (as PuctBot): FastToyBot is ToyBot on vikinger_fast's.
"""

import vikinger_ref

import vikinger_fast


class ToyBot:
    _game_class = vikinger_ref.Game
    _evaluate = staticmethod(vikinger_ref.evaluate)

    def __init__(self, game, seed, *, looks=None):
        if not isinstance(game, self._game_class):
            raise TypeError(f"game must be a Game, not {type(game).__name__}")
        if looks is None:
            raise ValueError("ToyBot needs a budget: looks")
        if isinstance(looks, bool) or not isinstance(looks, int):
            raise TypeError(f"looks must be an int, not {type(looks).__name__}")
        if looks < 1:
            raise ValueError(f"ToyBot looks at one action at least, not {looks}")
        self._game, self._looks = game, looks

    def _values(self, state):
        mover = state.current_player()
        for action in state.legal_actions()[: self._looks]:
            after = state.clone()
            after.apply_action(action)
            yield action, self._evaluate(after)[mover]

    def step(self, state):
        return max(self._values(state), key=lambda pair: pair[1])[0]

    def policy(self, state):
        best = self.step(state)
        return [(action, float(action == best)) for action in state.legal_actions()]

    def restart(self):
        pass


class FastToyBot(ToyBot):
    _game_class = vikinger_fast.Game
    _evaluate = staticmethod(vikinger_fast.evaluate)
