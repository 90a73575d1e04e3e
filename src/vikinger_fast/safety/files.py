"""The one way the package opens a file a person may hand over (docs/security.md "Files read"):
records, arena journals, self-play manifests and shards, the web app's stored games, the positions
of `vikinger render`.

A plain `open()` trusts the name: a FIFO there blocks for ever (no writer comes), a link to
/dev/zero is read until memory runs out, a folder or a missing file is an OSError traceback.
`open_regular` opens with O_NONBLOCK (a FIFO or a device returns at once, nothing is read),
O_NOFOLLOW where a symbolic link is refused, then looks at the open file (fstat): only a regular
file of at most `max_bytes` is read, and at most `max_bytes` + 1 bytes of it (a file that grows
while read is refused too). Lines are read in bounded pieces (`bounded_lines`): a line over its
limit is refused when its limit is reached, never read whole. Every refusal is a FileError (a
ValueError) of one line naming the file and why; a missing file is a MissingFile (a FileError).

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     read_regular(folder, 1024, "a record")
Traceback (most recent call last):
vikinger_fast.safety.files.FileError: a record: not a regular file (a folder)
"""

import errno
import os
import stat
from collections.abc import Iterator
from typing import IO, Optional, Union

PathText = Union[str, "os.PathLike[str]"]

KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFLNK: "a symbolic link",
}


class FileError(ValueError):
    """A file that is not read: not a regular file, larger than its limit, unreadable; the
    message names it and why."""


class MissingFile(FileError, FileNotFoundError):
    """A file that does not exist: a FileError, so callers that need not tell it apart don't,
    and a FileNotFoundError for those that do."""


def open_regular(
    path: PathText, max_bytes: int, what: Optional[str] = None, follow_symlinks: bool = True
) -> IO[bytes]:
    """`path` open for reading in binary, after checking that it is a regular file of at most
    `max_bytes` bytes; with follow_symlinks=False a symbolic link (as the last part of the
    path) is refused too. `what` names the file in messages (default: the path). Nothing
    blocks: a FIFO or a device is refused without being read."""
    name = os.fspath(path)
    label = name if what is None else what
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    if not follow_symlinks:
        flags |= os.O_NOFOLLOW
    try:
        fd = os.open(name, flags)
    except FileNotFoundError:
        raise MissingFile(f"{label}: no such file") from None
    except OSError as error:
        if error.errno == errno.ELOOP and not follow_symlinks and os.path.islink(name):
            raise FileError(f"{label}: a symbolic link, refused (not a regular file)") from None
        raise FileError(f"{label}: cannot be read: {error.strerror}") from None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            kind = KINDS.get(stat.S_IFMT(status.st_mode), "not a file")
            raise FileError(f"{label}: not a regular file ({kind})")
        if status.st_size > max_bytes:
            raise FileError(
                f"{label} is {status.st_size:,} bytes long; at most {max_bytes:,} are read"
            )
        # A regular file never blocks; back to plain reads.
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(
    path: PathText, max_bytes: int, what: Optional[str] = None, follow_symlinks: bool = True
) -> bytes:
    """The bytes of `path`, opened by open_regular: a regular file of at most `max_bytes`
    (FileError otherwise, also when it grew past them while being read)."""
    label = os.fspath(path) if what is None else what
    with open_regular(path, max_bytes, what, follow_symlinks) as source:
        try:
            data = source.read(max_bytes + 1)
        except OSError as error:
            raise FileError(f"{label}: cannot be read: {error.strerror}") from None
    if len(data) > max_bytes:
        raise FileError(f"{label} grew while being read; at most {max_bytes:,} bytes are read")
    return data


def bounded_lines(source: IO[bytes], max_line: int, label: str) -> Iterator[bytes]:
    """The lines of `source` (each with its newline; the last one maybe without), read in
    pieces of at most `max_line` + 1 bytes: a line longer than `max_line` bytes, newline
    included, is a FileError naming `label`, its number and the limit, and is never read whole."""
    number = 0
    while True:
        try:
            line = source.readline(max_line + 1)
        except OSError as error:
            raise FileError(f"{label}: cannot be read: {error.strerror}") from None
        if not line:
            return
        number += 1
        if len(line) > max_line:
            raise FileError(f"{label} line {number} is longer than {max_line:,} bytes, the limit")
        yield line
