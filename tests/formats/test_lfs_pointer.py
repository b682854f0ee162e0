"""A Git LFS pointer is named as one (wild11 tour).

A repository that keeps its annotation files in Git LFS (Yoonsen/geotest@fc2a3e5,
``annotations.jsonl`` and twenty more ``.jsonl`` files of 130 bytes) gives a clone without
``git lfs`` three lines in each: ``version https://git-lfs.github.com/spec/v1``, the content's
``oid`` and its ``size``. Reading one was refused with "could not detect the format; pass it
explicitly (one of: ...)", which sends the user through sixteen formats none of which is the
cause. The refusal now says what the file is and how to get its content.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli import main
from core.formats import detect
from core.model.errors import FormatError

POINTER = (b"version https://git-lfs.github.com/spec/v1\n"
           b"oid sha256:" + b"0123456789abcdef" * 4 + b"\n"
           b"size 4740365\n")


def test_a_git_lfs_pointer_is_named_with_how_to_fetch_its_content() -> None:
    with pytest.raises(FormatError) as exc:
        detect({"annotations.jsonl": POINTER})
    assert str(exc.value) == (
        "annotations.jsonl: could not detect the format: a Git LFS pointer, not the file: its "
        "content (4,740,365 bytes) is kept by Git LFS; fetch it (git lfs pull) and read the "
        "file again")


def test_validate_names_a_git_lfs_pointer(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "annotations.jsonl"
    path.write_bytes(POINTER)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr()
    assert "a Git LFS pointer, not the file" in out.out + out.err


def test_a_folder_of_pointers_names_them() -> None:
    with pytest.raises(FormatError) as exc:
        detect({"a.jsonl": POINTER, "b.jsonl": POINTER})
    assert "a.jsonl: a Git LFS pointer, not the file" in str(exc.value)
