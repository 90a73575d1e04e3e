"""Readers linear in their input, and files not trusted (docs/security.md "Files read"): the JSON
bounds measured in one pass whatever the text holds (escaped quotes, unclosed strings, runs of
backslashes), and the one opener of the files a person may hand over (safety.files): a FIFO, a
link to /dev/zero, a folder, a missing, unreadable or oversized file is one ValueError naming it,
and nothing blocks or is read whole."""

import json
import os
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vikinger_fast import records
from vikinger_fast.safety import files, json_limits


def _reference_nesting(text):
    """The nesting of `text` by a character-at-a-time tokenizer: the oracle of the one-pass
    measure (strings with their escapes skipped, an unclosed one running to the end)."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


TRICKY = [
    "",
    "[]",
    '"[',
    '["\\"[", [1]]',
    '["\\\\", [1]]',  # an escaped backslash: the quote after it closes the string
    '["\\\\\\"[", [1]]',  # three backslashes: the quote is escaped
    '["' + "\\" * 1001 + '"[", [[1]]]',  # an odd run: the quote is escaped
    '["' + "\\" * 1000 + '", [[1]]]',  # an even run: the quote closes
    '"' + '\\"' * 1000,  # unclosed: runs to the end
    '["abc\\',  # a lone backslash at the end
    '[[["\\',
    "]]][[",
    '{"a": "]]]}}}", "b": {"c": ["{{{"]}}',
    '"\\\n[" [',  # a backslash before a newline, in a string
    '"é[", ["€"]',
]


@pytest.mark.parametrize("text", TRICKY)
def test_nesting_counts_brackets_outside_strings_only(text):
    assert json_limits.nesting(text) == _reference_nesting(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='"\\[]{}a, \n', max_size=200))
def test_nesting_is_the_tokenizers_on_any_text(text):
    assert json_limits.nesting(text) == _reference_nesting(text)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='"\\[]{}ab\n\x01é'),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet='"\\[]{}k', max_size=4), inner, max_size=4)
    ),
    max_leaves=30,
)


def _depth(value):
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


@settings(max_examples=300, deadline=None)
@given(_JSON, st.booleans())
def test_nesting_of_a_document_is_its_depth(value, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert json_limits.nesting(text) == _depth(value)
    assert json_limits.loads_limited(text, "a document") == value


@pytest.mark.parametrize(
    "text",
    [
        "[" * (2**20 + 10),  # the running depth carried from one piece to the next
        "]" * 2**20 + "[" * 3,
        "[" * (2**20 - 5) + "]" * (2**20 - 5) + "[" * 7,
        '["' + "]" * 2**20 + '"' + "{" * 9,
    ],
)
def test_nesting_over_many_pieces(text):
    assert json_limits.nesting(text) == _reference_nesting(text)


def test_nesting_at_the_limit():
    deepest = "[" * json_limits.MAX_DEPTH + "]" * json_limits.MAX_DEPTH
    assert json_limits.loads_limited(deepest, "a document") is not None
    with pytest.raises(ValueError, match="nests 33 levels deep; at most 32 are read"):
        json_limits.loads_limited("[" + deepest + "]", "a document")
    hidden = '["' + "[" * 100 + '\\"' + "{" * 100 + '"]'
    assert json_limits.loads_limited(hidden, "a document") == ["[" * 100 + '"' + "{" * 100]


MEGABYTE = 1024 * 1024
HOSTILE = {
    # The text of the report: a string of escaped quotes that never closes (each quote was a
    # new start for the old measure, which read to the end from every one: hours for 1 MB).
    "escaped quotes": '"' + '\\"' * (MEGABYTE // 2),
    "escaped quotes in a record": '{"moves": ["' + '\\"' * (MEGABYTE // 2),
    "backslash runs": '["' + ("\\" * 7 + '"[') * (MEGABYTE // 9),
    "quotes and brackets": '["' + '\\"[' * (MEGABYTE // 3),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_megabyte_of_unclosed_string_is_refused_as_such(name):
    text = HOSTILE[name]
    assert json_limits.nesting(text) == _reference_nesting(text)
    with pytest.raises(ValueError, match="a record must be JSON: Unterminated string starting at"):
        records.loads(text)
    with pytest.raises(ValueError, match="a record must be JSON: Unterminated string"):
        records.loads(text.encode())


def test_a_megabyte_of_escaped_quotes_in_a_closed_string_is_read():
    text = '["' + '\\"' * (MEGABYTE // 2) + '"]'
    assert json_limits.loads_limited(text, "a document") == ['"' * (MEGABYTE // 2)]


# --- the opener ---------------------------------------------------------------------------------


def _hostile_file(tmp_path, kind):
    path = tmp_path / f"{kind}.json"
    if kind == "fifo":
        os.mkfifo(path)  # no writer: a plain open() blocks for ever
    elif kind == "zero":
        path.symlink_to("/dev/zero")  # a plain read() fills memory
    elif kind == "folder":
        path.mkdir()
    elif kind == "huge":
        with open(path, "wb") as sparse:
            sparse.truncate(10**12)  # a terabyte, sparse: never read
    return path


@pytest.mark.parametrize(
    "kind, words",
    [
        ("fifo", "not a regular file (a FIFO)"),
        ("zero", "not a regular file (a character device)"),
        ("folder", "not a regular file (a folder)"),
        ("missing", "no such file"),
        ("huge", "is 1,000,000,000,000 bytes long; at most 1,024 are read"),
    ],
)
def test_the_opener_refuses_what_is_not_a_regular_file_of_its_size(tmp_path, kind, words):
    path = _hostile_file(tmp_path, kind)
    for follow in (True, False):
        with pytest.raises(files.FileError) as refused:
            files.read_regular(path, 1024, follow_symlinks=follow)
        message = str(refused.value)
        if kind == "zero" and not follow:
            assert message == f"{path}: a symbolic link, refused (not a regular file)"
        else:
            assert message == f"{path}: {words}" or message == f"{path} {words}", message
        assert isinstance(refused.value, ValueError) and "\n" not in message
    with pytest.raises(files.FileError) as refused:
        files.read_regular(path, 1024, "a shard")
    assert str(refused.value).startswith("a shard") and words in str(refused.value)


def test_a_missing_file_is_also_a_file_not_found_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file"):
        files.read_regular(tmp_path / "none", 10)


def test_a_link_is_followed_unless_refused(tmp_path):
    target = tmp_path / "target"
    target.write_bytes(b"[1]")
    link = tmp_path / "link"
    link.symlink_to(target)
    assert files.read_regular(link, 10) == b"[1]"
    with pytest.raises(files.FileError, match="a symbolic link, refused"):
        files.read_regular(link, 10, follow_symlinks=False)
    assert files.read_regular(target, 3) == b"[1]"
    with pytest.raises(files.FileError, match="is 3 bytes long; at most 2 are read"):
        files.read_regular(target, 2)


def _read_as_nobody(path):
    """read_regular's message for `path` in a forked child of the user nobody (root reads any
    file; the child needs no exec, so no interpreter the user may not run)."""
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child)
        try:
            os.close(reading)
            os.setgid(65534)
            os.setuid(65534)
            try:
                files.read_regular(path, 100)
                message = "read"
            except ValueError as error:
                message = str(error)
            os.write(writing, message.encode())
        finally:
            os._exit(0)
    os.close(writing)
    with os.fdopen(reading, "rb") as answer:
        message = answer.read().decode()
    os.waitpid(child, 0)
    return message


def test_an_unreadable_file_is_one_line():
    folder = tempfile.mkdtemp(dir="/tmp")
    path = os.path.join(folder, "secret.json")
    try:
        os.chmod(folder, 0o755)
        with open(path, "w") as out:
            out.write("[]")
        os.chmod(path, 0o000)
        if os.geteuid() == 0:
            message = _read_as_nobody(path)
        else:
            with pytest.raises(files.FileError) as refused:
                files.read_regular(path, 100)
            message = str(refused.value)
        assert message == f"{path}: cannot be read: Permission denied"
    finally:
        os.remove(path)
        os.rmdir(folder)


def test_lines_are_read_in_bounded_pieces(tmp_path):
    path = tmp_path / "lines"
    path.write_bytes(b"a\n" + b"b" * 9 + b"\n" + b"c" * 10 + b"\nlast")
    with open(path, "rb") as source:
        lines = files.bounded_lines(source, 10, "a journal")
        assert [next(lines), next(lines)] == [b"a\n", b"b" * 9 + b"\n"]
        with pytest.raises(files.FileError, match="^a journal line 3 is longer than 10 bytes"):
            next(lines)
        assert source.tell() == 2 + 10 + 11  # the long line's first 11 bytes, no more
    path.write_bytes(b"a\nlast")
    with open(path, "rb") as source:
        assert list(files.bounded_lines(source, 10, "a journal")) == [b"a\n", b"last"]
