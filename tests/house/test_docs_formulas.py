"""The numbers and formulas the docs print, read from the docs' own text and checked against both
engines: the observation size, the sizes of the action and chance spaces, and the id tables of
docs/actions.md. A doc that drifts from the engines fails here."""

import pathlib
import re

import pytest

from vikinger_fast.benchmarks.search import opening_decision

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
PLAYERS = (2, 3, 4)

# A sum of terms in n: "294 + 1545 n + 80 + 22 n", "294 + 1545 * n", "374 + 1567 * n".
LINEAR_IN_N = re.compile(r"\d+(?: ?\*? ?n)?(?: \+ \d+(?: ?\*? ?n)?)+")


def doc_text(name):
    return (DOCS / name).read_text(encoding="utf-8")


def evaluate_linear(expression, n):
    """The value of a sum such as "294 + 1545 * n + 80" at n."""
    total = 0
    for term in expression.split("+"):
        term = term.replace("*", " ").split()
        total += int(term[0]) * (n if len(term) == 2 else 1)
    return total


def observation_formulas():
    """(file, formula) for every sum in n that a line about the observation's size prints."""
    found = []
    for path in sorted(DOCS.glob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "observation" not in line.lower() and "Shape:" not in line:
                continue
            for match in LINEAR_IN_N.finditer(line):
                if "n" in match.group(0):
                    found.append((path.name, match.group(0)))
    return found


def test_the_docs_print_the_observation_size_where_expected():
    files = {name for name, _ in observation_formulas()}
    assert {"api.md", "state.md", "advanced.md"} <= files


@pytest.mark.parametrize("where, formula", observation_formulas())
def test_observation_size_formula_in_the_docs(engine, where, formula):
    for n in PLAYERS:
        for flags in ({}, {"special_tiles": True, "auction": True}):
            shape = engine.Game(num_players=n, **flags).observation_shape()
            assert shape == (evaluate_linear(formula, n),), f"{where}: {formula} at n = {n}"


# "num_distinct_actions() == 2036", "...()         # 2036", "0 .. ...()-1` (= 2036)".
SIZE = r"{name}\(\)(?:-1)?[`\s(]*(?:==|#|=)\s*(\d+)"


def printed_numbers(pattern):
    """Every number the regular expression's group 1 captures in docs/*.md."""
    numbers = []
    for path in sorted(DOCS.glob("*.md")):
        numbers += [(path.name, int(m.group(1))) for m in re.finditer(pattern, path.read_text())]
    return numbers


def test_action_space_size_in_the_docs(engine):
    printed = printed_numbers(SIZE.format(name="num_distinct_actions")) + printed_numbers(
        r"Discrete\((\d+)\)"
    )
    assert len(printed) >= 4
    for n in PLAYERS:
        actual = engine.Game(num_players=n).num_distinct_actions()
        assert all(number == actual for _, number in printed), printed
        assert actual == engine.NUM_DISTINCT_ACTIONS


def test_chance_space_size_in_the_docs(engine):
    printed = printed_numbers(SIZE.format(name="max_chance_outcomes"))
    assert len(printed) >= 2
    for n in PLAYERS:
        actual = engine.Game(num_players=n).max_chance_outcomes()
        assert all(number == actual for _, number in printed), printed


def id_table(heading):
    """The rows (first id, last id, row text, string pattern) of the table under `heading` in
    docs/actions.md."""
    text = doc_text("actions.md")
    section = text[text.index(heading) :]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("## "):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        ids = re.fullmatch(r"(\d+)(?:\.\.(\d+))?", cells[0])
        if not ids:
            continue
        first = int(ids.group(1))
        last = int(ids.group(2) or first)
        pattern = re.search(r"`([^`]+)`", cells[-1]).group(1)
        rows.append((first, last, line, pattern))
    return rows


def pattern_regex(pattern):
    """`tile:r<r>c<c>` -> a regular expression with one named group per placeholder."""
    parts = re.split(r"<(\w+)>", pattern)
    regex = ""
    for i, part in enumerate(parts):
        regex += re.escape(part) if i % 2 == 0 else rf"(?P<{part}>[a-z0-9_]+)"
    return re.compile(regex)


def check_id_rows(rows, state, total):
    covered = set()
    for first, last, line, pattern in rows:
        regex = pattern_regex(pattern)
        for action in range(first, last + 1):
            text = state.action_to_string(action)
            match = regex.fullmatch(text)
            assert match, f"{action} is {text!r}, the docs say {pattern!r}: {line}"
            assert state.string_to_action(text) == action
            # "c = id-343": the number in the string is the id minus the offset.
            for name, offset in re.findall(r"`(\w) = id-(\d+)`", line):
                if name in match.groupdict() and match.group(name).isdigit():
                    assert int(match.group(name)) == action - int(offset), line
            # "id = 20 + (r-1)*64 + (c-1)": the id from the cell in the string.
            formula = re.search(r"`id = (\d+) \+ \(r-1\)\*(\d+) \+ \(c-1\)`", line)
            if formula:
                base, stride = int(formula.group(1)), int(formula.group(2))
                row, col = int(match.group("r")), int(match.group("c"))
                assert action == base + (row - 1) * stride + (col - 1), line
            covered.add(action)
    assert covered == set(range(total))


def test_decision_id_table_of_the_docs(engine):
    rows = id_table("## Decision ids")
    heading = re.search(
        r"## Decision ids \(`num_distinct_actions\(\) == (\d+)`\)", doc_text("actions.md")
    )
    assert int(heading.group(1)) == engine.NUM_DISTINCT_ACTIONS
    check_id_rows(rows, opening_decision(engine), engine.NUM_DISTINCT_ACTIONS)


def test_chance_id_table_of_the_docs(engine):
    rows = id_table("## Chance ids")
    state = engine.Game(num_players=2).new_initial_state()
    assert state.is_chance_node()
    check_id_rows(rows, state, engine.MAX_CHANCE_OUTCOMES)


def test_linear_formulas_are_read_as_written():
    assert evaluate_linear("294 + 1545 n + 80 + 22 n", 2) == 294 + 1545 * 2 + 80 + 22 * 2
    assert evaluate_linear("374 + 1567 * n", 3) == 374 + 1567 * 3
    assert LINEAR_IN_N.findall("shape (294 + 1545 * n,)") == ["294 + 1545 * n"]
