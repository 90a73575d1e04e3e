"""The examples of docs/neural.md that use the shipped networks run as printed, and
neural.shipped_model names the networks the page lists."""

import contextlib
import io
import os
import pathlib
import re

import pytest

import vikinger_fast as vk
from vikinger_fast import neural

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "neural.md"
EXAMPLES = [
    block
    for block in re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    if "shipped_model" in block
]


def test_the_page_uses_the_shipped_networks():
    assert len(EXAMPLES) == 2
    assert "weights.npz" not in "".join(EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=["search", "network"])
def test_example_runs(example):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(example, str(DOC), "exec"), {})
    assert out.getvalue()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shipped_model_is_the_listed_file(players):
    path = neural.shipped_model(vk.Game(num_players=players))
    assert path.endswith(os.path.join("vikinger_ref", "models", f"az-{players}p.npz"))
    assert os.path.isfile(path) and f"az-{players}p.npz" in DOC.read_text()
    every = neural.shipped_model(vk.Game(num_players=players, auction=True))
    assert every.endswith(os.path.join("vikinger_ref", "models", f"az-{players}p-all.npz"))
    assert f"az-{players}p-all.npz" in DOC.read_text()
