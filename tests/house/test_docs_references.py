"""What the docs name exists: every file path, every `vikinger` command and its flags, every
dotted name of the two packages written in backticks in README.md, CHANGELOG.md and docs/ (and
the READMEs of tools/ and fuzz/); and every `vikinger` command of their sh blocks parses with
its values (a range, a choice, a required flag). A moved file or a renamed flag fails here, not
in a reader's hands."""

import argparse
import contextlib
import importlib
import io
import pathlib
import re
import shlex

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


def sh_commands(text):
    """The `vikinger` commands of a markdown text's sh blocks, as a reader would paste them
    (continued lines joined, comments and what goes before `&&` dropped)."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            for part in line.split(" #")[0].split("&&"):
                if part.strip().startswith("vikinger "):
                    commands.append(part.strip())
    return commands


def parse_errors(text):
    """The commands of `text` the real parser refuses (a value out of range, a missing required
    flag, a choice that is not one), each with argparse's message."""
    errors = []
    for command in sh_commands(text):
        refused = io.StringIO()
        try:
            with contextlib.redirect_stderr(refused):
                cli.build_parser().parse_args(shlex.split(command)[1:])
        except SystemExit:
            errors.append(f"{command}: {refused.getvalue().strip().splitlines()[-1]}")
    return errors


def test_doc_sh_commands_parse():
    errors = [
        f"{doc.relative_to(ROOT)}: {e}" for doc in DOCS for e in parse_errors(doc.read_text())
    ]
    assert not errors, "\n".join(errors)
    assert sum(len(sh_commands(doc.read_text())) for doc in DOCS) >= 40  # the check reads them


def test_the_parse_check_finds_a_stale_command():
    stale = (
        "```sh\nvikinger simulate --players 5   # five seats\n"
        "vikinger arena random \\\n  greedy --games 0\n```\n"
    )
    errors = parse_errors(stale)
    assert len(errors) == 2 and "invalid choice: 5" in errors[0] and "--games" in errors[1]
    assert parse_errors("```sh\nvikinger arena random greedy --games 2\n```\n") == []


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


def file_lines(path):
    """The lines of a file of the reading paths; `x.h/.cc` names a pair, counted together."""
    if path.endswith(".h/.cc"):
        stem = path[: -len(".h/.cc")]
        return file_lines(stem + ".h") + file_lines(stem + ".cc")
    return len((ROOT / path).read_text().splitlines())


def reading_paths(text):
    """{heading: (headline, [(file, stated lines), ...])} of the `## Reading path` sections."""
    paths = {}
    for section in re.split(r"^## ", text, flags=re.MULTILINE):
        if section.startswith("Reading path"):
            heading, _, body = section.partition("\n")
            headline = re.search(r"^About ([\d,]+) lines in (\d+) files\b", body, re.MULTILINE)
            rows = re.findall(r"^\| \d+ \| `([^`]+)` \| (\d+) \|", body, re.MULTILINE)
            paths[heading] = (headline, [(path, int(stated)) for path, stated in rows])
    return paths


def reading_path_faults(text, lines=file_lines):
    """What the reading paths state wrongly: a file's lines off by more than 15 % of today's
    (files grow; a row need not follow each edit), or a headline `About N lines in F files`
    whose F is not the number of rows or whose N is not the rows' true total rounded to the
    nearest 100."""
    faults = []
    for heading, (headline, rows) in reading_paths(text).items():
        for path, stated in rows:
            actual = lines(path)
            if abs(actual - stated) > 0.15 * actual:
                faults.append(f"{heading}: {path}: {stated} lines stated, {actual} now")
        total = sum(lines(path) for path, _ in rows)
        rounded = f"{(total + 50) // 100 * 100:,}"  # the nearest 100, a half up
        if headline is None:
            faults.append(
                f"{heading}: no headline 'About N lines in F files.' (today: About {rounded} "
                f"lines in {len(rows)} files)"
            )
        elif headline.groups() != (rounded, str(len(rows))):
            faults.append(
                f"{heading}: the headline says 'About {headline[1]} lines in {headline[2]} "
                f"files', its rows have {total:,} lines in {len(rows)} files: write 'About "
                f"{rounded} lines in {len(rows)} files'"
            )
    return faults


def test_reading_paths_state_true_line_counts():
    """docs/architecture.md's reading paths give each file's length (within 15 % of today's)
    and their totals: the files counted exactly, the lines rounded to the nearest 100."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    assert len(reading_paths(text)) == 3
    assert all(len(rows) >= 9 for _, rows in reading_paths(text).values())
    faults = reading_path_faults(text)
    assert not faults, "docs/architecture.md:\n" + "\n".join(faults)


def test_the_reading_path_check_finds_wrong_figures():
    lines = {"a.py": 1000, "b.h/.cc": 460}.__getitem__
    text = (
        "## Reading path 1: x\n\nAbout {total} lines in {files} files.\n\n| # | file | lines |\n"
        "|---|---|---:|\n| 1 | `a.py` | {a} | x |\n| 2 | `b.h/.cc` | 460 | y |\n## Other\n"
    )
    assert reading_path_faults(text.format(total="1,500", files=2, a=900), lines) == []
    assert reading_path_faults(text.format(total="1,400", files=2, a=1000), lines) == [
        "Reading path 1: x: the headline says 'About 1,400 lines in 2 files', its rows have "
        "1,460 lines in 2 files: write 'About 1,500 lines in 2 files'"
    ]
    assert reading_path_faults(text.format(total="1,500", files=3, a=800), lines) == [
        "Reading path 1: x: a.py: 800 lines stated, 1000 now",
        "Reading path 1: x: the headline says 'About 1,500 lines in 3 files', its rows have "
        "1,460 lines in 2 files: write 'About 1,500 lines in 2 files'",
    ]


def csrc_faults(csrc, section):
    """What the `csrc/` table of `section` gets wrong: a layer folder without a row
    (`| `csrc/<layer>/` |`), a file stem of a layer (`network` for network.h and network.cc)
    not named in the row's files column (as `network`, `network.h`, `network.cc` or
    `network.h/.cc`), and a name there that is no file of the layer."""
    rows = {
        match.group(1): match.group(2)
        for match in re.finditer(r"^\| `csrc/([a-z_]+)/` \|[^|]*\|([^|]*)\|", section, re.MULTILINE)
    }
    faults = [
        f"row `csrc/{layer}/`: no such folder"
        for layer in sorted(rows)
        if not (csrc / layer).is_dir()
    ]
    for folder in sorted(path for path in csrc.iterdir() if path.is_dir()):
        layer = folder.name
        files = sorted(path.name for path in folder.iterdir() if path.suffix in (".h", ".cc"))
        if layer not in rows:
            faults.append(f"csrc/{layer}/: no row `csrc/{layer}/` in the csrc/ table")
            continue
        named = set()
        for name in re.findall(r"`([^`]+)`", rows[layer]):
            if name.endswith(".h/.cc"):
                wanted = [name[: -len("/.cc")], name[: -len(".h/.cc")] + ".cc"]
            elif name.endswith((".h", ".cc")):
                wanted = [name]
            else:
                wanted = [f for f in files if f.rsplit(".", 1)[0] == name] or [name]
            stale = [w for w in wanted if w not in files]
            if stale:
                faults.append(f"row `csrc/{layer}/` names `{name}`: no {', '.join(stale)} there")
            named.update(w.rsplit(".", 1)[0] for w in wanted)
        for stem in sorted({f.rsplit(".", 1)[0] for f in files} - named):
            pair = ", ".join(f for f in files if f.rsplit(".", 1)[0] == stem)
            faults.append(f"`{layer}/{stem}` ({pair}): not named in the row `csrc/{layer}/`")
    return faults


def test_the_map_names_every_csrc_file():
    """Every concept of csrc/ (a file stem: `search/network` for network.h/.cc, each
    `bindings/*.cc`) is named in its layer's row of docs/architecture.md, and every name there
    is a file: a new, moved or removed one fails here until the row follows."""
    faults = csrc_faults(ROOT / "csrc", architecture_section("csrc/"))
    assert not faults, "docs/architecture.md, the csrc/ table:\n" + "\n".join(faults)


def test_the_csrc_check_finds_an_omission_and_a_stale_name(tmp_path):
    for name in (
        "base/bits.h",
        "base/value.h",
        "base/value.cc",
        "search/net.h",
        "search/net.cc",
        "bindings/module.cc",
        "bindings/network.cc",
        "play/rollout.h",
    ):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    section = (
        "| `csrc/base/` | - | `bits.h`, `value.h/.cc` | x |\n"
        "| `csrc/search/` | base | `net`, `tree` | y |\n"
        "| `csrc/bindings/` | all | `module.cc`, `network.h/.cc` | z |\n"
    )
    assert csrc_faults(tmp_path, section) == [
        "row `csrc/bindings/` names `network.h/.cc`: no network.h there",
        "csrc/play/: no row `csrc/play/` in the csrc/ table",
        "row `csrc/search/` names `tree`: no tree there",
    ]
    section = section.replace("`net`, `tree`", "`tree.h`").replace("network.h/.cc", "network.cc")
    assert csrc_faults(tmp_path, section) == [
        "csrc/play/: no row `csrc/play/` in the csrc/ table",
        "row `csrc/search/` names `tree.h`: no tree.h there",
        "`search/net` (net.cc, net.h): not named in the row `csrc/search/`",
    ]


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
    folders = {path.name for path in tests.iterdir() if path.is_dir()} - {"__pycache__"}
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


# A section named by its doc and title: docs/learning.md "The loop", `neural.md` "Final edges".
SECTION = re.compile(r"\b([a-z][a-z0-9_-]*\.md)`?\s+\"([A-Z`][^\"\n]*)\"")
SOURCES = ("csrc", "src", "python_ref", "tests", "tools", "fuzz", "scripts", "bench", "docs")


def sections(text):
    """A doc's section titles: its headings and its bold leads (`**Final edges.**`), without
    their backticks and closing punctuation."""
    titles = re.findall(r"^#+\s+(.+)$", text, re.MULTILINE) + re.findall(r"\*\*([^*\n]+)\*\*", text)
    return {title.strip().rstrip(".:").replace("`", "") for title in titles}


def names_a_section(title, titles):
    """Whether `title` is one of `titles`, or the start of one up to a word's end (`"Endgame
    starts"` for `Endgame starts, trained (not shipped)`)."""
    title = title.replace("`", "")
    return any(t == title or (t.startswith(title) and not t[len(title)].isalnum()) for t in titles)


def section_faults(files, docs, root=ROOT):
    """`file:line: doc "title"` for each section named in `files` (under `root`) that `docs`
    ({name: text}) has no heading or bold lead for."""
    titles = {name: sections(text) for name, text in docs.items()}
    faults = []
    for path in files:
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for doc, title in SECTION.findall(line):
                if doc in titles and not names_a_section(title, titles[doc]):
                    faults.append(f'{path.relative_to(root)}:{number}: {doc} "{title}"')
    return faults


def test_named_sections_exist():
    """A pointer to a section (`docs/search.md "Solver"` in a comment, a docstring or a doc)
    names a heading or a bold lead of that doc: a renamed section fails here, not in the
    hands of a reader looking for it."""
    docs = {doc.name: doc.read_text() for doc in DOCS if doc.parent.name == "docs"}
    docs["README.md"] = (ROOT / "README.md").read_text()
    files = [doc for doc in DOCS if doc.is_file()] + [
        path
        for folder in SOURCES
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in (".py", ".pyi", ".h", ".cc", ".sh") and "__pycache__" not in path.parts
    ]
    faults = section_faults(files, docs)
    assert not faults, "sections named that their doc does not have:\n" + "\n".join(faults)


def test_the_section_check_finds_a_stale_title(tmp_path):
    doc = "# Top\n## The loop\n**Final edges.** text\n## Endgame starts, trained (not shipped)\n"
    code = tmp_path / "code.py"
    code.write_text(
        '# docs/x.md "The loop", `x.md` "Final edges", x.md "Endgame starts" and '
        'x.md "The train step"\n# x.md "End" and y.md "Anything"; x.md ", " is no title\n'
    )
    faults = section_faults([code], {"x.md": doc}, tmp_path)
    assert faults == ['code.py:1: x.md "The train step"', 'code.py:2: x.md "End"']
