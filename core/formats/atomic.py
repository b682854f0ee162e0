"""Outputs written whole or not at all: the one way SpanScope writes files.

Every output (``convert``, ``adjudicate`` and its decisions CSV, shards) is first written to a
temporary file or folder beside its target, named ``.<target>.<random>.tmp``, and renamed into
place only when every byte is written; a full disk, an interrupt (Ctrl-C, SIGTERM) or a bad file
name leaves the targets as they were and no temporary behind. :func:`commit` does this for
several outputs at once, so that a command writes all of them or none: the temporaries of every
output are complete before the first rename. A rename within one folder is atomic on POSIX file
systems (``os.replace``), so a reader never sees half a file.

A target that exists and is neither a regular file nor a folder (``/dev/stdout``, a named pipe)
cannot be renamed over: it is written directly. Errors are
:class:`~core.model.errors.FormatError` naming the target: ``out.json: cannot write it: No space
left on device`` (docs/robustness.md).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from core.model.errors import FormatError
from core.model.textsafe import one_line

Content = str | bytes
"""A file's content: text is written as UTF-8 with its line ends as given."""
Output = Content | Mapping[str, Content]
"""One output: a file's content, or a folder's files keyed by their relative paths."""


def _token() -> str:
    """Eight random hex digits for a temporary name (``secrets.token_hex(4)``, whose import
    of ``hmac`` and OpenSSL a command's start-up need not pay: docs/performance.md)."""
    return os.urandom(4).hex()


def commit(outputs: Mapping[Path, Output]) -> None:
    """Write every output (a file, or a folder's files) completely, then rename each into place.

    A folder target that exists keeps its other files; each of ours replaces the file of its
    name. Raises :class:`FormatError` naming the target on any failure, after removing what was
    written; on an interrupt the temporaries are removed as well and the interrupt propagates.
    """
    staged: list[tuple[Path, Path | None, Output]] = []  # target, temporary (None: direct)
    current = Path()
    try:
        for target, content in outputs.items():
            current = Path(target)
            if isinstance(content, Mapping):
                _check_names(current, content)
            staged.append((current, _stage(current, content), content))
        for current, temp, content in staged:
            _place(current, temp, content)
    except OSError as exc:
        raise FormatError(str(current), f"cannot write it: {exc.strerror or exc}") from None
    finally:
        for _, temp, _ in staged:
            if temp is not None:
                _remove(temp)


def write_file(path: str | Path, content: Content) -> None:
    """One file, written whole or not at all (:func:`commit`)."""
    commit({Path(path): content})


def check_writable(path: str | Path, *, folder: bool = False) -> None:
    """Refuse, before any computation, an output that cannot be written: a folder where a file
    is wanted (or the reverse), a folder that does not exist (a folder output itself may be
    missing: it is created, but not its parent), or a place where no file can be created (the
    folder is probed with a temporary file, which is removed)."""
    out = Path(path)
    if out.exists():
        if folder and not out.is_dir():
            raise FormatError(str(out), "is a file; this output is written as a folder")
        if not folder and out.is_dir():
            raise FormatError(str(out), "is a folder; give a file name for the output")
        if not folder and not out.is_file():
            return  # a device or a pipe: written directly
    parent = out.parent
    if not parent.exists():
        # A typo in a folder name should not create a tree of folders: refuse, as cp and tar
        # do. A folder output itself (brat, PTC, shards) is created, one level.
        raise FormatError(str(out), f"cannot write it: the folder {parent} does not exist "
                          "(create it first)")
    if not parent.is_dir():
        raise FormatError(str(out), f"cannot write it: {parent} is not a folder")
    probe = parent / f".spanscope-probe.{_token()}.tmp"
    try:
        os.close(os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError as exc:
        raise FormatError(str(out), f"cannot write it: {exc.strerror or exc}") from None
    with contextlib.suppress(OSError):
        probe.unlink()


def _check_names(out: Path, files: Mapping[str, Content]) -> None:
    """Refuse a file name that no file system holds, or one that leaves the folder."""
    for rel in files:
        parts = PurePosixPath(rel).parts
        if "\x00" in rel:
            raise FormatError(str(out), f"cannot write the file '{one_line(rel)}': a file name "
                              "cannot hold a NUL character (give the document another id)")
        if not parts or rel.startswith("/") or ".." in parts:
            raise FormatError(str(out), f"cannot write the file '{one_line(rel)}': it is not "
                              "a path inside the output folder")


def _direct(out: Path) -> bool:
    """Whether ``out`` is written in place: it exists and is a device or a pipe."""
    try:
        mode = out.stat().st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _temp_name(out: Path) -> Path:
    return out.with_name(f".{out.name}.{_token()}.tmp")


def _write(path: Path, content: Content, *, exclusive: bool = True) -> None:
    flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if exclusive else os.O_TRUNC)
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd = os.open(path, flags, 0o666)  # the umask applies, as for any new file
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def _stage(out: Path, content: Output) -> Path | None:
    """Write ``content`` to a temporary beside ``out``; None when ``out`` is written directly."""
    if isinstance(content, Mapping):
        if out.exists() and not out.is_dir():
            raise FormatError(str(out), "is a file; this output is written as a folder")
        out.parent.mkdir(parents=True, exist_ok=True)
        temp = _temp_name(out)
        temp.mkdir()
        try:
            for rel, data in content.items():
                target = temp / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                _write(target, data)
        except BaseException:
            _remove(temp)
            raise
        return temp
    if out.is_dir():
        raise FormatError(str(out), "is a folder; give a file name for the output")
    if _direct(out):
        return None
    out.parent.mkdir(parents=True, exist_ok=True)
    temp = _temp_name(out)
    try:
        _write(temp, content)
    except BaseException:
        _remove(temp)
        raise
    return temp


def _place(out: Path, temp: Path | None, content: Output) -> None:
    if temp is None:
        assert not isinstance(content, Mapping)
        _write(out, content, exclusive=False)
    elif not isinstance(content, Mapping):
        os.replace(temp, out)
    elif not out.exists():
        os.rename(temp, out)
    else:
        for rel in content:
            target = out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(temp / rel, target)


def _remove(temp: Path) -> None:
    with contextlib.suppress(OSError):
        if temp.is_dir():
            shutil.rmtree(temp)
        elif temp.exists():
            temp.unlink()
