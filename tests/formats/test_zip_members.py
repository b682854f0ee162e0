"""Zip members SpanScope cannot unpack get our own message, whole (clitour5 item 3: the
HatEval organisers' AES-encrypted reference archive was reported as a Python repr cut at 160
characters, which lost "is encrypted"), and the members a Mac adds are skipped."""

from __future__ import annotations

import io
import struct
import zipfile

import pytest

from core.formats import load_files
from core.model.errors import FormatError

TSV = b"id\ttext\tHS\tTR\tAG\n101\tsome words\t0\t0\t0\n"


def _zip(members: dict[str, bytes], method: int = zipfile.ZIP_STORED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def _patched(data: bytes, *, flag: int = 0, method: int | None = None) -> bytes:
    """``data`` with every member's general-purpose flags or'ed with ``flag`` and its
    compression method set to ``method``, in the local and the central headers (APPNOTE 4.3.7
    and 4.3.12), as an encrypting tool writes them."""
    out = bytearray(data)
    for signature, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = out.find(signature)
        while at >= 0:
            (bits,) = struct.unpack_from("<H", out, at + flag_at)
            struct.pack_into("<H", out, at + flag_at, bits | flag)
            if method is not None:
                struct.pack_into("<H", out, at + flag_at + 2, method)
            at = out.find(signature, at + 4)
    return bytes(out)


def _error(data: bytes) -> str:
    with pytest.raises(FormatError) as exc:
        load_files({"reference_test_en.zip": data}, fmt="hateval")
    return str(exc.value)


def test_an_aes_encrypted_member_is_said_to_be_password_protected() -> None:
    data = _patched(_zip({"reference_test_en/en.tsv": TSV}), flag=0x1, method=99)
    assert _error(data) == (
        "reference_test_en.zip: cannot unpack 'reference_test_en/en.tsv': the archive is "
        "password-protected (AES encryption); unpack it with its password (unzip, 7-Zip) and "
        "give the file it holds")


def test_a_zipcrypto_member_is_said_to_be_password_protected() -> None:
    data = _patched(_zip({"en.tsv": TSV}, zipfile.ZIP_DEFLATED), flag=0x1)
    assert "cannot unpack 'en.tsv': the archive is password-protected (ZipCrypto " \
        "encryption)" in _error(data)


def test_an_unknown_compression_method_is_named_not_cut() -> None:
    name = "a/" + "long_name_" * 12 + ".tsv"
    message = _error(_patched(_zip({name: TSV}), method=97))  # WavPack: zipfile cannot
    assert message == (f"reference_test_en.zip: cannot unpack {name!r}: it is compressed with "
                       "a method Python's zipfile cannot unpack (wavpack, method 97); unpack "
                       "it with unzip or 7-Zip and give the file it holds")
    assert "<ZipInfo" not in message


def test_a_bad_crc_names_the_member_not_its_repr() -> None:
    data = bytearray(_zip({"reference/en.tsv": TSV}))
    data[data.find(b"101\tsome")] = ord("9")  # the stored bytes no longer match their CRC
    message = _error(bytes(data))
    assert message == ("reference_test_en.zip: cannot unpack 'reference/en.tsv': BadZipFile: "
                       "Bad CRC-32 for file 'reference/en.tsv'")


def test_a_bad_crc_names_a_member_with_a_control_character() -> None:
    """A member whose name holds a control character (its repr a backslash escape) is named
    as the others are, not a crash of the message's substitution (the command-line fuzz test
    found it: 're.error: bad escape \\x')."""
    data = bytearray(_zip({"reference/en\x01.tsv": TSV}))
    data[data.find(b"101\tsome")] = ord("9")
    message = _error(bytes(data))
    assert message == ("reference_test_en.zip: cannot unpack 'reference/en\\x01.tsv': "
                       "BadZipFile: Bad CRC-32 for file 'reference/en\\x01.tsv'")


def test_the_members_a_mac_adds_are_skipped() -> None:
    """``__MACOSX/`` and ``._*`` (AppleDouble resource forks, not UTF-8) in a zip made by a
    Mac's Finder, as in the AAE 2.0 brat archive: the reader takes the folder without them."""
    data = _zip({"essays/essay001.txt": b"Some essay text.",
                 "essays/essay001.ann": b"T1\tClaim 0 4\tSome\n",
                 "__MACOSX/essays/._essay001.ann": b"\x00\x05\x16\x07\xff\xfe",
                 "essays/._essay001.txt": b"\x00\x05\x16\x07\xff\xfe"})
    loaded = load_files({"brat-project-final.zip": data}, fmt="brat")
    assert loaded.texts == {"essays/essay001": "Some essay text."}
    assert [(s.start, s.end, s.label) for s in loaded.set.get("essays/essay001")] == [
        (0, 4, "Claim")]
