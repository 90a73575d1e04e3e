"""What the docs name exists: every file path, every `vikinger` command and its flags, every
dotted name of the two packages written in backticks in README.md, CHANGELOG.md and docs/ (and
the READMEs of tools/ and fuzz/). A moved file or a renamed flag fails here, not in a reader's
hands."""

import argparse
import importlib
import pathlib
import re

import pytest

from vikinger_fast import cli

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = sorted(
    [
        ROOT / "README.md",
        ROOT / "CHANGELOG.md",
        ROOT / "tools" / "README.md",
        ROOT / "fuzz" / "README.md",
        *(ROOT / "docs").glob("*.md"),
    ]
)
TOP_FOLDERS = (
    "csrc/",
    "src/",
    "python_ref/",
    "tests/",
    "tools/",
    "fuzz/",
    "scripts/",
    "bench/",
    "docs/",
    ".ci/",
    ".github/",
)
SUFFIXES = (".py", ".h", ".cc", ".pyi", ".md", ".toml", ".sh", ".txt", ".yaml", ".json", ".png")
CODE = re.compile(r"`([^`\n]+)`")
# Files written by the code a doc describes (outputs, examples of a user's files), not ours.
NOT_OURS = re.compile(
    r"(^|/)(OUT|FILE|DIR|PATH|RUN|my_|games?\.|g\.|h\.|run/|out/|data/selfplay|build/|"
    r"records/|_build_info)"
)
# Where a path that starts inside a package or csrc/ is looked for.
BASES = (ROOT, ROOT / "src" / "vikinger_fast", ROOT / "python_ref" / "vikinger_ref", ROOT / "csrc")


def code_spans():
    for doc in DOCS:
        if doc.is_file():
            for number, line in enumerate(doc.read_text().splitlines(), 1):
                for span in CODE.findall(line):
                    yield doc, number, span.strip()


def looks_like_path(span):
    if (
        span.startswith(".")
        or " " in span
        or "://" in span
        or NOT_OURS.search(span)
        or "{" in span
        or "<" in span
    ):
        return False
    if re.fullmatch(r"[a-z_]+\.h/\.cc", span):  # a pair named without its layer folder
        return True
    return span.startswith(TOP_FOLDERS) or (span.endswith(SUFFIXES) and "/" in span)


def path_exists(span, doc):
    if "*" in span:
        return any(any(base.glob(span)) for base in BASES)
    # `csrc/rules/state.h/.cc` names a pair; `fuzz/` a folder; `docs/api.md#errors` an anchor.
    span = span.split("#")[0].split("::")[0]
    candidates = [span]
    if span.endswith("/.cc"):
        stem = span[: -len(".h/.cc")]
        candidates = [stem + ".h", stem + ".cc"]
    if "/" not in span.replace("/.cc", ""):  # `state.h/.cc`: in one of the layer folders
        return all(any((ROOT / "csrc").glob(f"*/{c}")) for c in candidates)
    return all(any((base / c).exists() for base in (*BASES, doc.parent)) for c in candidates)


def test_doc_paths_exist():
    missing = [
        f"{doc.relative_to(ROOT)}:{number}: {span}"
        for doc, number, span in code_spans()
        if looks_like_path(span) and not path_exists(span, doc)
    ]
    assert not missing, "paths named in the docs that do not exist:\n" + "\n".join(missing)


def subcommand_flags():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {
        name: {option for action in p._actions for option in action.option_strings}
        for name, p in sub.choices.items()
    }


def test_doc_commands_exist():
    commands, wrong = subcommand_flags(), []
    for doc, number, span in code_spans():
        match = re.match(r"(?:.*&&\s*)?vikinger\s+([a-z]+)(.*)", span)
        if not match or span.startswith("vikinger_"):
            continue
        name, rest = match.groups()
        if name not in commands:
            wrong.append(f"{doc.relative_to(ROOT)}:{number}: no command `vikinger {name}`")
            continue
        for flag in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])\b", rest):
            if flag not in commands[name]:
                wrong.append(f"{doc.relative_to(ROOT)}:{number}: `vikinger {name}` has no {flag}")
    assert not wrong, "\n".join(wrong)


def resolves(dotted):
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(obj, attribute):
                return False
            obj = getattr(obj, attribute)
        return True
    return False


def test_doc_python_names_exist():
    wrong = []
    for doc, number, span in code_spans():
        for dotted in re.findall(r"\b(vikinger_(?:fast|ref)(?:\.[A-Za-z_][A-Za-z0-9_]*)+)", span):
            if not resolves(dotted):
                wrong.append(f"{doc.relative_to(ROOT)}:{number}: {dotted}")
    assert not wrong, "names in the docs that do not import:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    "span, real",
    [
        ("csrc/rules/state.h/.cc", True),
        ("csrc/state.h", False),
        ("src/vikinger_fast/cli/*.py", True),
        ("tests/test_nothing_here.py", False),
    ],
)
def test_the_path_check_tells_real_from_stale(span, real):
    assert looks_like_path(span)
    assert path_exists(span, ROOT / "README.md") is real


def test_the_name_check_tells_real_from_stale():
    assert resolves("vikinger_fast.cli.main") and resolves("vikinger_ref.rng.SplitMix64")
    assert not resolves("vikinger_fast.benchmark") and not resolves("vikinger_fast.cli.nothing")


def test_reading_paths_state_true_line_counts():
    """docs/architecture.md's reading paths give each file's length: within 15 % of today's."""
    rows = re.findall(
        r"^\| \d+ \| `([^`]+)` \| (\d+) \|",
        (ROOT / "docs" / "architecture.md").read_text(),
        re.MULTILINE,
    )
    assert len(rows) >= 15
    wrong = [
        f"{path}: {stated} stated, {actual} now"
        for path, stated in rows
        if abs((actual := len((ROOT / path).read_text().splitlines())) - int(stated))
        > 0.15 * actual
    ]
    assert not wrong, "\n".join(wrong)


def architecture_section(heading):
    """The text of docs/architecture.md from the `## heading` line to the next `## `."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    start = text.index(f"\n## {heading}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def unmapped(package, section):
    """The folders and modules of `package` that `section` does not name: a folder needs a row
    of its own (`| `folder/` |`) naming each of its modules (`name.py`, or `folder/name.py`
    anywhere in the section); a module at the top needs its `name.py` in backticks."""
    missing = []
    rows = {
        match.group(1): match.group(0)
        for match in re.finditer(r"^\| `([a-z_]+)/` \|.*$", section, re.MULTILINE)
    }
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).parts
        if "__pycache__" in parts:
            continue
        if len(parts) == 1:
            if f"`{path.name}`" not in section:
                missing.append(path.name)
            continue
        folder = "/".join(parts[:-1])
        if folder not in rows:
            missing.append(f"{folder}/ (no row of its own)")
        elif f"`{path.name}`" not in rows[folder] and f"`{folder}/{path.name}`" not in section:
            missing.append(f"{folder}/{path.name}")
    return sorted(set(missing))


def test_the_map_names_every_folder_and_module():
    """docs/architecture.md maps the house: every folder and module of vikinger_fast (every CLI
    command among them) and of the reference. A new one fails here until it is on the map."""
    missing = unmapped(
        ROOT / "src" / "vikinger_fast", architecture_section("src/vikinger_fast/")
    ) + [
        f"vikinger_ref/{name}"
        for name in unmapped(
            ROOT / "python_ref" / "vikinger_ref", architecture_section("python_ref/vikinger_ref/")
        )
    ]
    assert not missing, "not named in docs/architecture.md:\n" + "\n".join(missing)
    commands = architecture_section("src/vikinger_fast/")
    assert all(f"`{name}.py`" in commands for name in subcommand_flags()), "a CLI command"


def unmapped_test_folders(tests, section):
    """The folders of `tests` that `section` has no row for (`| `folder/` |`)."""
    rows = set(re.findall(r"^\| `([a-z_]+)/` \|", section, re.MULTILINE))
    named = rows | set(re.findall(r"`tests/([a-z_]+)/`", section))
    folders = {
        path.name for path in tests.iterdir() if path.is_dir() and path.name != "__pycache__"
    }
    return sorted(folders - named)


def test_the_map_names_every_test_folder():
    """Tests sit in folders by layer; docs/architecture.md says what each folder tests, so a
    newcomer finds the tests of a change. A new folder fails here until it is on the map."""
    section = architecture_section("tests/")
    assert not unmapped_test_folders(ROOT / "tests", section)
    # and no test file sits outside a folder
    assert not sorted(path.name for path in (ROOT / "tests").glob("test_*.py"))


def test_the_test_folder_check_finds_an_omission(tmp_path):
    for name in ("rules", "web", "helpers"):
        (tmp_path / name).mkdir()
    section = "`tests/helpers/` the helpers\n| `rules/` | the rules |\n"
    assert unmapped_test_folders(tmp_path, section) == ["web"]


def test_the_map_check_finds_an_omission(tmp_path):
    (tmp_path / "cli").mkdir()
    (tmp_path / "web").mkdir()
    for name in ("top.py", "new.py", "cli/run.py", "cli/train.py", "web/app.py"):
        (tmp_path / name).write_text("")
    section = "| `top.py` | x |\n| `cli/` | `run.py` |\n"
    assert unmapped(tmp_path, section) == ["cli/train.py", "new.py", "web/ (no row of its own)"]
