"""Zip archives as inputs: an uploaded or named ``.zip`` is read as the folder it holds.

An INCEpTION project export, a brat collection or a folder of CoNLL files usually travels as a
zip. :func:`unpack_zips` turns every ``.zip`` member of an input into its files, keyed by their
paths inside the archive, so every reader sees a folder. Members are bounded (count and total
size) and their paths checked, since an upload is untrusted.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from pathlib import PurePosixPath

from core.errors import FormatError

MAX_MEMBERS = 20_000
MAX_TOTAL_BYTES = 512 * 1024 * 1024


def unpack_zips(files: Mapping[str, bytes], source: str) -> dict[str, bytes]:
    """``files`` with each ``.zip`` replaced by its members (other files unchanged).

    A single zip becomes a folder keyed by paths inside it; a zip among other files gets its
    members under ``<zip name without .zip>/``; a zip inside the zip is unpacked the same way
    (one level). Directories, macOS ``__MACOSX`` entries and
    hidden files are left out; an absolute path or a ``..`` component is refused.
    """
    zips = [p for p in files if p.lower().endswith(".zip")]
    if not zips:
        return dict(files)
    out: dict[str, bytes] = {p: d for p, d in files.items() if p not in zips}
    for path in zips:
        prefix = "" if len(files) == 1 else path[: -len(".zip")] + "/"
        where = source if len(files) == 1 else f"{source}/{path}"
        for member, data in _members(files[path], where).items():
            if member.lower().endswith(".zip"):
                # One level of nesting: INCEpTION zips a document whose export is several
                # files (an .xmi and its TypeSystem.xml) inside the project zip.
                inner = prefix + member[: -len(".zip")] + "/"
                for sub, sub_data in _members(data, f"{where}/{member}").items():
                    out[inner + sub] = sub_data
            else:
                out[prefix + member] = data
    if not out:
        raise FormatError(source, "the zip archive holds no files")
    return out


def _members(data: bytes, where: str) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise FormatError(where, "expected a zip archive, but it cannot be opened") from None
    infos = [i for i in archive.infolist() if not i.is_dir()]
    if len(infos) > MAX_MEMBERS:
        raise FormatError(where, f"the zip holds {len(infos)} files; at most {MAX_MEMBERS} "
                          "are read")
    if sum(i.file_size for i in infos) > MAX_TOTAL_BYTES:
        raise FormatError(where, "the zip unpacks to more than "
                          f"{MAX_TOTAL_BYTES // 2**20} MiB; unpack it and read the folder")
    out: dict[str, bytes] = {}
    for info in infos:
        name = info.filename.replace("\\", "/")
        parts = PurePosixPath(name).parts
        if name.startswith("/") or ".." in parts:
            raise FormatError(where, f"unsafe path in the zip: {info.filename!r}")
        if parts[0] == "__MACOSX" or any(p.startswith(".") for p in parts):
            continue
        try:
            out[name] = archive.read(info)
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, ValueError) as exc:
            raise FormatError(where, f"cannot unpack {info.filename!r}: {exc}") from None
    return out
