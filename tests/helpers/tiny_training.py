"""The tiny training settings the end-to-end training tests run with (seconds a run)."""

from vikinger_fast.training import TrainConfig

TINY = dict(
    games=2,
    shard_games=1,
    simulations=4,
    max_considered=4,
    hidden=(16,),
    steps=3,
    batch=32,
    window=2,
    eval_every=1,
    eval_games=2,
    eval_simulations=4,
)


def tiny(**changes):
    """A TrainConfig of TINY with `changes` over it."""
    return TrainConfig(**{**TINY, **changes})
