"""Output files and folders checked before any work starts, and written atomically
(docs/security.md "Files written").

A command that writes results checks its outputs first (check_output_file,
check_output_folder), so that a run of hours never ends in an unwritable path, a file that is
also one of its inputs, or a folder that mixes old and new results. Files are then written
under a temporary name in their own folder and renamed (write_atomic): an interrupted run
leaves the old file or the new one, never half of one.
"""

import os
import tempfile
from collections.abc import Iterable

from . import interrupts


class OutputError(ValueError):
    """An output that cannot or must not be written; the message names it and why."""


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_output_file(path: str, inputs: Iterable[str] = (), what: str = "output") -> str:
    """`path` as given, after checking that it is not one of `inputs` (same file by inode or
    resolved path), not a folder, and that its folder exists and is writable. Raises
    OutputError naming the problem; creates nothing."""
    if not isinstance(path, str) or not path:
        raise OutputError(f"{what}: needs a file name")
    for source in inputs:
        if source is not None and _same_file(path, source):
            raise OutputError(f"{what} {path} is the input {source}: refusing to overwrite it")
    if os.path.isdir(path):
        raise OutputError(f"{what} {path} is a folder, not a file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise OutputError(f"{what} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{what} {path}: the folder {folder} is not writable")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise OutputError(f"{what} {path} exists and is not writable")
    return path


NUMBERED_LIMIT = 1000  # base-2 .. base-1000: past that, --out is asked for


def _free(path: str) -> bool:
    """Nothing at `path`, or an empty folder (not a link) that can be read."""
    if not os.path.lexists(path):
        return True
    if os.path.islink(path) or not os.path.isdir(path):
        return False
    try:
        return not os.listdir(path)
    except OSError:
        return False


def numbered_folder(base: str) -> str:
    """A command's default output folder: `base` when nothing is there or it is an empty folder,
    else the first of `base-2`, `base-3`, ... that is. So a second run with the default never
    finds the folder full and never touches the first run's results (run folders are numbered
    the same way by many tools of the field). OutputError when all up to base-1000 hold
    something."""
    for number in range(1, NUMBERED_LIMIT + 1):
        path = base if number == 1 else f"{base}-{number}"
        if _free(path):
            return path
    raise OutputError(
        f"{base} and {base}-2 ... {base}-{NUMBERED_LIMIT} all hold earlier runs: choose --out"
    )


def check_output_folder(path: str, force: bool = False, what: str = "output folder") -> str:
    """`path` after checking that it can hold a run's files: absent (its parent writable) or an
    empty writable folder; a non-empty folder only with `force` (its files are then replaced
    by the run's, see clear_folder). Raises OutputError; creates nothing."""
    if not isinstance(path, str) or not path:
        raise OutputError(f"{what}: needs a folder name")
    if os.path.exists(path) and not os.path.isdir(path):
        raise OutputError(f"{what} {path} is a file, not a folder")
    if os.path.isdir(path):
        if not os.access(path, os.W_OK | os.X_OK):
            raise OutputError(f"{what} {path} is not writable")
        if os.listdir(path) and not force:
            raise OutputError(
                f"{what} {path} is not empty: choose another folder, or --force "
                "to replace its contents"
            )
        return path
    parent = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(parent):  # makedirs will create the missing ones
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent) or not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"{what} {path}: {parent} is not a writable folder")
    return path


def check_output_entries(
    folder: str, files: Iterable[str] = (), folders: Iterable[str] = (), what: str = "--out"
) -> None:
    """The names a run writes in `folder` (a folder check_output_folder passed), checked before
    any work: none may be a symbolic link (a run writes in its folder, never through a link to
    another place), a file's name must not be a folder, a folder's name must be a writable
    folder. Absent names are fine. Raises OutputError naming the entry."""
    files, folders = tuple(files), tuple(folders)
    for name in files + folders:
        path = os.path.join(folder, name)
        if os.path.islink(path):
            raise OutputError(
                f"{what} {folder}: {name} is a symbolic link; refusing to write through it"
            )
        if not os.path.lexists(path):
            continue
        if name in files and os.path.isdir(path):
            raise OutputError(f"{what} {folder}: {name} is a folder, not a file")
        if name in folders:
            if not os.path.isdir(path):
                raise OutputError(f"{what} {folder}: {name} is not a folder")
            if not os.access(path, os.W_OK | os.X_OK):
                raise OutputError(f"{what} {folder}: {name} is not writable")


# What matplotlib writes from its Agg canvas (its name's suffix picks the format).
PLOT_SUFFIXES = (".png", ".svg", ".svgz", ".pdf", ".eps", ".ps", ".jpg", ".jpeg", ".tif", ".tiff")


def check_plot_file(path: str, inputs: Iterable[str] = (), what: str = "--plot") -> str:
    """check_output_file for a picture: also its suffix must be one of PLOT_SUFFIXES (the
    format is taken from it: `x.json` would fail only when the picture is drawn, after the
    work, and a name without one would be written as another file, `x.png`)."""
    check_output_file(path, inputs, what)
    if os.path.splitext(path)[1].lower() not in PLOT_SUFFIXES:
        raise OutputError(
            f"{what} {path}: the name must end in one of {', '.join(PLOT_SUFFIXES)} "
            "(the picture's format)"
        )
    return path


@interrupts.held()  # a Ctrl-C waits for the rename: no temporary file is left behind
def write_atomic(path: str, data: bytes | str, sync: bool = False) -> int:
    """Write `data` (str as UTF-8) to `path` through a temporary file in the same folder and
    os.replace: readers, and a run interrupted at any point, see the old file or the whole new
    one. `sync`: fsync before the rename (survives a power cut too, at a few ms a file).
    Returns the bytes written."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(
        dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(raw)
            if sync:
                out.flush()
                os.fsync(out.fileno())
        # mkstemp makes the file private (0600); give it the mode a plain open() would have.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.remove(temporary)
        except OSError:
            pass
        raise
    return len(raw)
