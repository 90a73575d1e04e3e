"""Every message about a missing optional extra gives two commands that work: one for an
installed package (PyPI or a wheel) and one for a checkout, where `vikinger-fast[...]` means
nothing to pip (vikinger_fast/extras.py)."""

import pathlib
import re
import sys

import pytest

from vikinger_fast import cli
from vikinger_fast.distributed import executors
from vikinger_fast.extras import install_hint

ROOT = pathlib.Path(__file__).resolve().parents[2]


def both_commands(text, extra):
    return f'pip install "vikinger-fast[{extra}]"' in text and f'pip install ".[{extra}]"' in text


def test_the_hint_names_what_is_missing_and_both_commands():
    hint = install_hint("plots need matplotlib", "plot")
    assert hint.startswith("plots need matplotlib: ")
    assert both_commands(hint, "plot")
    assert "\n" not in hint


def test_no_other_module_writes_an_install_command_of_its_own():
    sources = [*(ROOT / "src").rglob("*.py"), *(ROOT / "python_ref").rglob("*.py")]
    own = [
        path.relative_to(ROOT).as_posix()
        for path in sources
        if path.name != "extras.py" and re.search(r"pip install", path.read_text())
    ]
    assert own == []


def test_every_extra_a_hint_names_exists():
    # The extras the messages name, read from the sources, are extras of pyproject.toml.
    sources = "\n".join(path.read_text() for path in (ROOT / "src").rglob("*.py"))
    named = set(
        re.findall(r"""install_hint\((?:[^()]|\([^()]*\))*?, ['"](\w+)['"]\)""", sources, re.S)
    )
    table = (ROOT / "pyproject.toml").read_text().split("[project.optional-dependencies]")[1]
    extras = set(re.findall(r"^(\w+) = \[", table.split("\n[")[0], re.M))
    assert {"web", "png", "plot", "ray", "train", "openspiel", "bench", "gymnasium"} <= named
    assert named <= extras


def test_serve_without_the_web_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import fails as if not installed
    assert cli.main(["serve", "--port", "0"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("vikinger serve: needs the web extra")
    assert both_commands(err, "web")


def test_ray_without_ray(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError) as error:
        executors.import_ray(local=True)
    assert str(error.value).startswith("--ray needs Ray: ") and both_commands(
        str(error.value), "ray"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "2"],
        ["arena", "random", "greedy", "--games", "2"],
        ["selfplay", "--games", "2"],
        ["train", "--iterations", "1"],
    ],
)
def test_ray_flag_without_ray_is_one_line_and_makes_nothing(argv, monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import fails as if not installed
    monkeypatch.chdir(tmp_path)
    out = [] if argv[0] in ("simulate", "arena") else ["--out", "run"]
    assert cli.main([*argv, *out, "--ray"]) == 3
    captured = capsys.readouterr()
    assert captured.err.startswith(f"vikinger {argv[0]}: --ray needs Ray: ")
    assert both_commands(captured.err, "ray") and captured.err.count("\n") == 1
    assert captured.out == "" and list(tmp_path.iterdir()) == []


def test_training_without_jax(monkeypatch):
    from vikinger_fast.training import trainer

    monkeypatch.setitem(sys.modules, "jax", None)
    with pytest.raises(ImportError) as error:
        trainer._jax()
    assert both_commands(str(error.value), "train")


def test_train_without_jax_is_one_line_and_makes_nothing(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "jax", None)  # import fails as if not installed
    run = tmp_path / "run"
    assert cli.main(["train", "--out", str(run), "--iterations", "1", "--no-progress"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("vikinger train: training needs JAX and optax: ")
    assert both_commands(err, "train") and err.count("\n") == 1 and "Traceback" not in err
    assert not run.exists()


def _extras():
    """{extra: [requirements]} of pyproject.toml, read by lines (no TOML reader on Python 3.9)."""
    table = (ROOT / "pyproject.toml").read_text().split("[project.optional-dependencies]")[1]
    table = table.split("\n[")[0]
    return {
        name: re.findall(r'"([^"]+)"', body)
        for name, body in re.findall(r"^(\w+) = \[(.*?)\]$", table, re.M | re.S)
    }


def _closure(extras, name):
    """The requirements of `extra` with the package's own extras it names expanded."""
    out = set()
    for requirement in extras[name]:
        own = re.fullmatch(r"vikinger-fast\[(.*)\]", requirement)
        if own:
            for inner in own.group(1).split(","):
                out |= _closure(extras, inner.strip())
        else:
            out.add(re.split(r"[<>=\[ ]", requirement)[0].lower())
    return out


def test_the_readme_set_up_installs_what_every_command_needs():
    """The README's first set-up command installs an extra that brings bench's rows, the
    arena's progress bar and BLAS control, and serve's web app; its second is the test command
    CI runs (.ci/run)."""
    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert len(blocks) == 2
    first, second = blocks
    extra = re.search(r'pip install "\.\[(\w+)\]"', first).group(1)
    needs = _closure(_extras(), extra)
    for package in ("starlette", "uvicorn", "tqdm", "threadpoolctl", "cython", "open_spiel"):
        assert package in needs, package
    assert "gymnasium" in needs and "vikinger bench" in first and "vikinger arena" in first
    assert 'pip install ".[test]"' in second and "python3 -m pytest" in second
