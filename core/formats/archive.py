"""Zip archives as inputs: an uploaded or named ``.zip`` is read as the folder it holds.

An INCEpTION project export, a brat collection or a folder of CoNLL files usually travels as a
zip. :func:`unpack_zips` turns every ``.zip`` member of an input into its files, keyed by their
paths inside the archive, so every reader sees a folder. Members are bounded (count and total
size) and their paths checked, since an upload is untrusted.
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from core.model.errors import FormatError
from core.model.textsafe import one_line

if TYPE_CHECKING:  # zipfile is imported when an input holds a zip (most hold none)
    import zipfile

MAX_MEMBERS = 20_000
MAX_TOTAL_BYTES = 512 * 1024 * 1024


def unpack_zips(files: Mapping[str, bytes], source: str) -> dict[str, bytes]:
    """``files`` with each ``.zip`` replaced by its members (other files unchanged).

    A single zip becomes a folder keyed by paths inside it; a zip among other files gets its
    members under ``<zip name without .zip>/``; a zip inside the zip is unpacked the same way
    (one level; a zip nested deeper is refused). One budget of members and bytes
    covers every zip of the input, nested or not. Directories, macOS ``__MACOSX`` entries and
    hidden files are left out; an absolute path or a ``..`` component is refused.
    """
    zips = [p for p in files if p.lower().endswith(".zip")]
    if not zips:
        return dict(files)
    out: dict[str, bytes] = {p: d for p, d in files.items() if p not in zips}
    # One budget for the whole input: every zip, nested or not, draws on it, so three inner
    # zips of 500 MB each are refused as one input of 1.5 GB (docs/robustness.md).
    budget = _Budget()
    for path in zips:
        prefix = "" if len(files) == 1 else path[: -len(".zip")] + "/"
        where = source if len(files) == 1 else f"{source}/{path}"
        for member, data in _members(files[path], where, budget).items():
            if member.lower().endswith(".zip"):
                # One level of nesting: INCEpTION zips a document whose export is several
                # files (an .xmi and its TypeSystem.xml) inside the project zip.
                inner = prefix + member[: -len(".zip")] + "/"
                for sub, sub_data in _members(data, f"{where}/{member}", budget).items():
                    if sub.lower().endswith(".zip"):
                        # Deeper zips are refused rather than kept: a later unpack of this
                        # output (detection) would open them with a budget of their own.
                        raise FormatError(f"{where}/{member}", f"the zip {sub!r} is nested more "
                                          "than one level deep; unpack it and read the folder")
                    out[inner + sub] = sub_data
            else:
                out[prefix + member] = data
    if not out:
        raise FormatError(source, "the zip archive holds no files")
    return out


class _Budget:
    """What the zips of one input may still unpack to: members and bytes, across nesting."""

    def __init__(self) -> None:
        self.members = MAX_MEMBERS
        self.bytes = MAX_TOTAL_BYTES

    def take(self, infos: list[zipfile.ZipInfo], where: str) -> None:
        """Draw the members' declared sizes (which ``zipfile`` never reads past) or refuse."""
        self.members -= len(infos)
        if self.members < 0:
            raise FormatError(where, f"the input's zip archives hold more than {MAX_MEMBERS} "
                              "files (nested zips counted together); at most that many are read")
        self.bytes -= sum(i.file_size for i in infos)
        if self.bytes < 0:
            raise FormatError(where, "the input's zip archives unpack to more than "
                              f"{MAX_TOTAL_BYTES // 2**20} MiB (nested zips counted together); "
                              "unpack them and read the folder")


def _members(data: bytes, where: str, budget: _Budget | None = None) -> dict[str, bytes]:
    import zipfile

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError):
        raise FormatError(where, "expected a zip archive, but it cannot be opened") from None
    infos = [i for i in archive.infolist() if not i.is_dir()]
    (budget or _Budget()).take(infos, where)
    out: dict[str, bytes] = {}
    for info in infos:
        name = info.filename.replace("\\", "/")
        parts = PurePosixPath(name).parts
        if name.startswith("/") or ".." in parts:
            raise FormatError(where, f"unsafe path in the zip: {info.filename!r}")
        if parts[0] == "__MACOSX" or any(p.startswith(".") for p in parts):
            continue
        if info.flag_bits & 0x1:  # APPNOTE 4.4.4: bit 0, the member is encrypted
            how = "AES" if info.compress_type == _AES else "ZipCrypto"
            raise FormatError(where, f"cannot unpack {info.filename!r}: the archive is "
                              f"password-protected ({how} encryption); unpack it with its "
                              "password (unzip, 7-Zip) and give the file it holds")
        try:
            out[name] = archive.read(info)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError,
                RuntimeError, ValueError) as exc:
            raise FormatError(where, f"cannot unpack {info.filename!r}: "
                              f"{_why(exc, info)}") from None
    return out


_AES = 99
"""The compression method of a WinZip AES-encrypted member (APPNOTE 4.4.5, appendix E)."""

_METHODS = {1: "shrink", 2: "reduce", 3: "reduce", 4: "reduce", 5: "reduce", 6: "implode",
            9: "deflate64", 10: "implode", 12: "bzip2", 14: "lzma", 18: "terse", 19: "lz77",
            93: "zstandard", 94: "mp3", 95: "xz", 96: "jpeg", 97: "wavpack", 98: "ppmd"}
"""Compression methods (APPNOTE 4.4.5) Python's zipfile may not unpack, by number."""
_WHY_CHARS = 240
_ZIPINFO = re.compile(r"<ZipInfo [^>]*>")


def _why(exc: Exception, info: zipfile.ZipInfo) -> str:
    """Why a member cannot be unpacked, in our words where we know the cause: zipfile's own
    messages name a member by its whole ``ZipInfo`` repr (filename, mode, sizes), which is put
    back as the member's name before the message is cut, so a cut never drops the cause."""
    if isinstance(exc, zlib.error):  # valid headers over a damaged deflate stream
        return one_line(f"its compressed data is damaged ({exc})")[:_WHY_CHARS]
    if isinstance(exc, NotImplementedError):
        method = _METHODS.get(info.compress_type, "unknown")
        return (f"it is compressed with a method Python's zipfile cannot unpack ({method}, "
                f"method {info.compress_type}); unpack it with unzip or 7-Zip and give the "
                "file it holds")
    name = repr(info.filename)  # a function: a name's backslashes are not a template's
    text = one_line(_ZIPINFO.sub(lambda _: name, f"{type(exc).__name__}: {exc}"))
    return text if len(text) <= _WHY_CHARS else text[:_WHY_CHARS - 1] + "…"


BINARY_CAS_FOLDERS = ("annotation_ser", "curation_ser")
"""Where an INCEpTION (or WebAnno 3) project export keeps each document's binary CAS (``.ser``)."""

EXPORT_FOLDERS = ("annotation", "curation")
"""Where it keeps the same annotations in the export format chosen for the project."""


def check_binary_cas_export(paths: Iterable[str], source: str) -> None:
    """Refuse an INCEpTION project export whose annotations are only binary CAS files.

    INCEpTION always writes ``annotation_ser/<document>/<user>.ser`` (Java-serialized CAS,
    unreadable outside INCEpTION); the ``annotation/`` and ``curation/`` folders hold the
    annotations only when the project was exported with a format, and plain text (``.txt``)
    holds none. Without this check the export's ``source/`` documents (the texts before
    annotation) could be detected and read as if they were annotations.
    """
    binary = readable = 0
    example = ""
    for path in paths:
        parts = PurePosixPath(path).parts
        if any(part in BINARY_CAS_FOLDERS for part in parts[:-1]) and path.endswith(".ser"):
            binary += 1
            if not example or "INITIAL_CAS" in example:  # an annotator's file says more
                example = path
        elif any(part in EXPORT_FOLDERS for part in parts[:-1]) and not path.endswith(".txt"):
            readable += 1
    if binary and not readable:
        raise FormatError(source, f"this INCEpTION project export holds its annotations only as "
                          f"binary CAS files ({binary}, e.g. {example}), which only INCEpTION "
                          "can read; export the project again with the format WebAnno TSV 3 "
                          "or UIMA CAS XMI (or export each document in one of them) and read "
                          "that export")
