"""Coded character set ids (CCSIDs) to Python codecs, and text <-> bytes for PCF strings."""

from __future__ import annotations

import codecs
import contextlib

import ebcdic  # noqa: F401  (registers cp1047 and the other EBCDIC code pages Python lacks)

# CCSID -> Python codec name. Single-byte EBCDIC pages pad with 0x40, which decodes to ' '.
CODECS: dict[int, str] = {
    37: "cp037", 273: "cp273", 277: "cp277", 278: "cp278", 280: "cp280", 284: "cp284",
    285: "cp285", 297: "cp297", 500: "cp500", 875: "cp875", 1026: "cp1026", 1047: "cp1047",
    1140: "cp1140", 1141: "cp1141", 1142: "cp1142", 1143: "cp1143", 1144: "cp1144",
    1145: "cp1145", 1146: "cp1146", 1147: "cp1147", 1148: "cp1148", 1149: "cp1149",
    367: "ascii", 437: "cp437", 819: "latin-1", 850: "cp850", 852: "cp852", 855: "cp855",
    857: "cp857", 858: "cp858", 862: "cp862", 864: "cp864", 866: "cp866", 869: "cp869",
    874: "cp874", 912: "iso8859_2", 913: "iso8859_3", 914: "iso8859_4", 915: "iso8859_5",
    916: "iso8859_8", 920: "iso8859_9", 923: "iso8859_15", 932: "cp932", 943: "cp932",
    950: "cp950", 954: "euc_jp", 1200: "utf-16-be", 1208: "utf-8", 1250: "cp1250",
    1251: "cp1251", 1252: "cp1252", 1253: "cp1253", 1254: "cp1254", 1255: "cp1255",
    1256: "cp1256", 1257: "cp1257", 1258: "cp1258", 1386: "gbk", 5348: "cp1252",
    13488: "utf-16-be", 17584: "utf-16-be", 1232: "utf-32-be", 1234: "utf-32-le",
}

EBCDIC_CCSIDS = frozenset(c for c, name in CODECS.items()
                          if name.startswith("cp") and name[2:].isdigit()
                          and codecs.lookup(name).encode(" ")[0] == b"\x40")

#: The CCSID assumed for CCSID 0 when neither the caller nor an MQMD says otherwise.
DEFAULT_CCSID = 1208

_PAD = " \x00"


def codec_name(ccsid: int) -> str | None:
    """The Python codec for a CCSID, or None when we have none."""
    return CODECS.get(ccsid)


def decode_text(raw: bytes, ccsid: int) -> str | None:
    """Bytes of a PCF string in `ccsid` to text with MQ padding stripped; None if impossible."""
    name = CODECS.get(ccsid)
    if name is None:
        return None
    try:
        return raw.decode(name).rstrip(_PAD)
    except UnicodeDecodeError:
        return None


def encode_text(text: str, ccsid: int, *, width: int | None = None) -> bytes:
    """Text to bytes in `ccsid`, blank-padded (in that code page) to `width` when given."""
    name = CODECS.get(ccsid)
    if name is None:
        raise ValueError(f"no codec known for CCSID {ccsid}")
    data = text.encode(name)
    if width is not None and width > len(data):
        blank = " ".encode(name)
        data += blank * ((width - len(data)) // len(blank))
    return data


def is_ebcdic(ccsid: int) -> bool:
    """True for the single-byte EBCDIC code pages we know."""
    return ccsid in EBCDIC_CCSIDS


def can_encode(text: str, ccsid: int) -> bool:
    """True when `text` is representable in `ccsid`."""
    name = CODECS.get(ccsid)
    if name is None:
        return False
    with contextlib.suppress(UnicodeEncodeError):
        text.encode(name)
        return True
    return False
