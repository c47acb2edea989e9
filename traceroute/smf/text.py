"""EBCDIC text of SMF records: as IBM's formatter shows it, and as clean text for tables.

SMF records carry names in EBCDIC (code page 037 for the characters MQ names use). IBM's
formatter shows each byte as one printable ASCII character, '.' for any other, keeping the
field's full width; it renders eleven bytes differently from code page 037 (listed below).
Tables get the code page 037 text with the blank (and binary zero) padding removed and
control characters (binary bytes) shown as '.'.
"""

from __future__ import annotations

#: Bytes IBM's formatter shows differently from code page 037's printable ASCII.
FORMATTER_EXCEPTIONS = {0x4A: "$", 0x79: ".", 0x7F: ".", 0x8B: "{", 0x8D: "(", 0x8E: "+",
                        0x9B: "}", 0x9D: ")", 0xB0: ".", 0xBF: "-", 0xE0: "."}


def _formatter_table() -> bytes:
    chars = []
    for byte in range(256):
        char = bytes([byte]).decode("cp037")
        char = FORMATTER_EXCEPTIONS.get(byte, char if " " <= char <= "~" else ".")
        chars.append(ord(char))
    return bytes(chars)


_FORMATTER = _formatter_table()
#: Code page 037's control characters, shown as '.' (binary bytes in a text field).
_CP037_CONTROLS = {ord(c): "." for c in bytes(range(256)).decode("cp037")
                   if not c.isprintable()}


def shown(raw: bytes) -> str:
    """EBCDIC bytes as IBM's formatter prints them: one printable ASCII character per byte."""
    return raw.translate(_FORMATTER).decode("ascii")


def clean(raw: bytes) -> str:
    """EBCDIC bytes (code page 037) as text: trailing blanks and binary zeros removed,
    control characters (binary data in a text field) shown as '.'."""
    return raw.rstrip(b"\x40\x00").decode("cp037").translate(_CP037_CONTROLS)


def ebcdic(text: str, width: int | None = None) -> bytes:
    """Text as code page 037 bytes, blank-padded to `width` (for building records)."""
    data = text.encode("cp037")
    return data.ljust(width, b"\x40") if width is not None else data
