"""A user bot's module text for the tests that stop a run: it waits ARENA_TEST_PAUSE seconds a
move (0 when unset), so the run to stop takes seconds and the run compared with it does not; its
moves depend on its seed alone."""

SLOW_BOT = """
import os, random, time

class Slow:
    def __init__(self, game, seed):
        self.rng = random.Random(seed)
        self.pause = float(os.environ.get("ARENA_TEST_PAUSE", "0"))

    def step(self, state):
        time.sleep(self.pause)
        return self.rng.choice(state.legal_actions())
"""
