"""Every Python example of docs/adapters.md runs as printed (with all three frameworks)."""

import contextlib
import io
import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "adapters.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_page_has_an_example_per_framework():
    text = "\n".join(EXAMPLES)
    for name in ("pyspiel", "pettingzoo", "gymnasium.make(", "gymnasium.make_vec("):
        assert name in text, name


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_example_runs(example):
    for module in re.findall(r"^(?:import|from) (pyspiel|pettingzoo|gymnasium)", example, re.M):
        pytest.importorskip(module)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(example, str(DOC), "exec"), {})
    assert out.getvalue()  # every example prints its result
