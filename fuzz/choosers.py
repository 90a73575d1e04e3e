"""Choosers: where the fuzz inputs' decisions come from.

A chooser is anything with `choose(n) -> 0..n-1` (0 when n <= 1). The mutators (mutations.py)
and the call sequences (action_sequences.py) take one, so the same code runs under atheris
(`ProviderChooser` over the fuzz input), hypothesis (`DataChooser`, which shrinks) and plain
seeded randomness (`RandomChooser`). `Recorder` and its replay make one draw twice, once per
engine.
"""

import random


class RandomChooser:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, n):
        return self.rng.randrange(n) if n > 0 else 0


class ProviderChooser:
    """atheris.FuzzedDataProvider as a chooser (0 once the fuzz input is used up)."""

    def __init__(self, provider):
        self.provider = provider

    def choose(self, n):
        return self.provider.ConsumeIntInRange(0, n - 1) if n > 1 else 0


class DataChooser:
    """hypothesis' `data` object (st.data()) as a chooser: shrinks towards choice 0."""

    def __init__(self, data, strategies):
        self.data, self.st = data, strategies

    def choose(self, n):
        return self.data.draw(self.st.integers(0, n - 1)) if n > 1 else 0


class Recorder:
    """Records the choices of one draw so the same draw can be made again for another engine."""

    def __init__(self, chooser):
        self.chooser, self.log = chooser, []

    def choose(self, n):
        value = self.chooser.choose(n)
        self.log.append(value)
        return value

    def replay(self):
        return Replay(list(self.log))


class Replay:
    """The choices a `Recorder` saw, in order (0 after the last)."""

    def __init__(self, log):
        self.log = log

    def choose(self, n):
        return self.log.pop(0) if self.log else 0
