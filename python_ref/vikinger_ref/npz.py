"""`.npz` archives (weights files, training checkpoints) read as untrusted data (docs/security.md
"Loads"): every loader of the package goes through `Archive`.

numpy.load trusts its file: it opens whatever the path names (a FIFO blocks, a device is read
until memory runs out), inflates a member before looking at its shape (a few KB of zip can
declare a GiB), takes complex and structured dtypes, and fails with BadZipFile, EOFError or
TypeError on a damaged file. `Archive` checks, in this order and before inflating any array:

1. the path is a str or os.PathLike (TypeError otherwise);
2. it names a regular file (opened with O_NONBLOCK, so a FIFO cannot block, then fstat), not
   empty and at most `max_bytes` long;
3. it is a zip archive (a plain `.npy` is named as such), whose central directory lists only
   `NAME.npy` members, stored or deflated, not encrypted, declaring at most `max_bytes` in all;
4. each member's `.npy` header (read from the first bytes of the member) declares a real numeric
   or text dtype (no objects, complex numbers, structures or dates) and a shape whose bytes are
   exactly what the zip declares for the member.

Reading a member (`read`) then inflates at most its declared size (zipfile stops there and
checks the CRC). Every refusal is a ValueError that names the file and the problem.

>>> import io, os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "a.npz")
>>> np.savez(path, w=np.ones((2, 3), np.float32))
>>> with Archive(path) as archive:
...     archive.shape("w"), float(archive.read("w").sum())
((2, 3), 6.0)
>>> Archive(folder)  # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: ...: not a regular file (a folder)
"""

from __future__ import annotations

import os
import stat
import zipfile
import zlib

import numpy as np
from numpy.lib import format as npy_format

from .arguments import type_name

MAX_BYTES = 256 * 1024 * 1024  # a 4096-wide network of a 4-player game is about 60 MB
MAX_MEMBERS = 4096
_NPY_MAGIC = b"\x93NUMPY"
# dtype kinds a weights or checkpoint file may hold: bool, ints, floats and text (metadata).
_KINDS = {"b": "bool", "i": "int", "u": "unsigned int", "f": "float", "U": "text"}
_FILE_KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a pipe",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFSOCK: "a socket",
}


def fspath(path: object, what: str) -> str:
    """`path` as a str: a str or an os.PathLike naming a str path (TypeError otherwise)."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise TypeError(f"{what} must be a path (str or os.PathLike), not {type_name(path)}")
    return path


class Archive:
    """An `.npz` file checked as the module says; `names`, `shape(name)` and `dtype(name)` come
    from the headers, `read(name)` inflates one array. Use it in a `with` block (or close())."""

    def __init__(self, path: object, what: str = "file", max_bytes: int = MAX_BYTES) -> None:
        self.path = fspath(path, what)
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        except OSError as error:
            raise ValueError(f"cannot read {what} {self.path!r}: {error.strerror}") from None
        try:
            self._check_file(os.fstat(fd), max_bytes)
        except BaseException:
            os.close(fd)
            raise
        self._file = os.fdopen(fd, "rb")
        try:
            self._zip = self._open(max_bytes, what)
            self._headers = {}
            for info in self._zip.infolist():
                self._headers[info.filename[: -len(".npy")]] = (info, *self._header(info))
        except BaseException:
            self._file.close()
            raise

    def _fail(self, problem: str) -> ValueError:
        return ValueError(f"{self.path}: {problem}")

    def _check_file(self, status: os.stat_result, max_bytes: int) -> None:
        if not stat.S_ISREG(status.st_mode):
            kind = _FILE_KINDS.get(stat.S_IFMT(status.st_mode), "not a file")
            raise self._fail(f"not a regular file ({kind})")
        if status.st_size == 0:
            raise self._fail("empty file, not an .npz archive")
        if status.st_size > max_bytes:
            raise self._fail(f"{status.st_size:,} bytes; at most {max_bytes:,} are read")

    def _open(self, max_bytes: int, what: str) -> zipfile.ZipFile:
        if self._file.read(len(_NPY_MAGIC)) == _NPY_MAGIC:
            raise self._fail("a plain .npy array, not an .npz archive")
        self._file.seek(0)
        try:
            archive = zipfile.ZipFile(self._file)
        except (zipfile.BadZipFile, EOFError, OSError, ValueError) as error:
            raise self._fail(
                f"damaged {what} file, not a readable .npz archive ({error})"
            ) from None
        infos = archive.infolist()
        names = [info.filename for info in infos]
        if len(infos) > MAX_MEMBERS:
            raise self._fail(f"{len(infos)} members; at most {MAX_MEMBERS} are read")
        if len(set(names)) != len(names):
            raise self._fail("a member name occurs twice")
        declared = 0
        for info in infos:
            if not info.filename.endswith(".npy") or "/" in info.filename:
                raise self._fail(f"member {info.filename!r} is not an array (NAME.npy)")
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise self._fail(f"member {info.filename!r}: unknown compression")
            if info.flag_bits & 0x1:
                raise self._fail(f"member {info.filename!r} is encrypted")
            declared += info.file_size
        if declared > max_bytes:
            raise self._fail(
                f"its arrays declare {declared:,} bytes; at most {max_bytes:,} are read"
            )
        return archive

    def _header(self, info: zipfile.ZipInfo) -> tuple[tuple[int, ...], np.dtype]:
        """(shape, dtype) of a member, from its .npy header, checked against its zip size."""
        name = info.filename
        try:
            with self._zip.open(info) as member:
                version = npy_format.read_magic(member)
                read = (
                    npy_format.read_array_header_1_0
                    if version == (1, 0)
                    else npy_format.read_array_header_2_0
                )
                shape, _, dtype = read(member)
                header = member.tell()
        except (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error) as error:
            raise self._fail(f"member {name!r} is not a readable .npy array ({error})") from None
        if dtype.hasobject:
            raise self._fail(f"member {name!r} holds Python objects (never unpickled)")
        if dtype.fields is not None or dtype.kind not in _KINDS:
            raise self._fail(f"member {name!r} has dtype {dtype}, not a real number or text")
        data = int(np.prod(shape, dtype=object)) * dtype.itemsize
        if header + data != info.file_size:
            raise self._fail(
                f"member {name!r} declares shape {shape} ({data:,} bytes) but holds "
                f"{info.file_size - header:,} bytes"
            )
        return tuple(shape), dtype

    @property
    def names(self) -> list[str]:
        """The arrays' names, in the archive's order."""
        return list(self._headers)

    def shape(self, name: str) -> tuple[int, ...]:
        return self._headers[name][1]

    def dtype(self, name: str) -> np.dtype:
        return self._headers[name][2]

    def read(self, name: str) -> np.ndarray:
        """The array `name` (KeyError for a name the archive lacks)."""
        info = self._headers[name][0]
        try:
            with self._zip.open(info) as member:
                return npy_format.read_array(member, allow_pickle=False)
        except (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error) as error:
            raise self._fail(f"member {info.filename!r} is damaged ({error})") from None

    def close(self) -> None:
        self._zip.close()
        self._file.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
