"""Event messages built from the spec with struct, independently of pcf.encoder/MQMD."""

from __future__ import annotations

import struct


def pad(raw: bytes) -> bytes:
    """Zero padding to a multiple of 4."""
    return raw + b"\x00" * (-len(raw) % 4)


def cfin(pid: int, value: int, o: str = "<") -> bytes:
    """MQCFIN: Type 3, StrucLength 16."""
    return struct.pack(o + "4i", 3, 16, pid, value)


def cfst(pid: int, text: str, width: int = 48, o: str = "<", ccsid: int = 0) -> bytes:
    """MQCFST: Type 4, blank padded to `width` like MQ writes its names."""
    raw = text.encode("latin-1").ljust(width, b" ")
    return struct.pack(o + "5i", 4, 20 + len(pad(raw)), pid, ccsid, len(raw)) + pad(raw)


def cfgr(pid: int, members: list[bytes], o: str = "<") -> bytes:
    """MQCFGR: Type 20, StrucLength 16, ParameterCount = number of members."""
    return struct.pack(o + "4i", 20, 16, pid, len(members)) + b"".join(members)


def cfh(command: int, reason: int, count: int, o: str = "<", seq: int = 1,
        control: int = 1, comp: int = 1) -> bytes:
    """MQCFH version 1, Type 7 (MQCFT_EVENT)."""
    return struct.pack(o + "9i", 7, 36, 1, command, seq, control, comp, reason, count)


def mqmd(*, put_date: str, put_time: str, reply_qmgr: str, correl: bytes = bytes(24),
         o: str = "<", encoding: int = 546) -> bytes:
    """MQMD version 2 (364 bytes) of an event message, field by field at spec offsets."""
    def ch(text: str, n: int) -> bytes:
        return text.encode("latin-1").ljust(n, b" ")

    return (b"MD  " + struct.pack(o + "7i", 2, 0, 8, -1, 0, encoding, 1208)
            + ch("MQEVENT", 8) + struct.pack(o + "2i", 0, 0) + bytes(24) + correl
            + struct.pack(o + "i", 0) + ch("", 48) + ch(reply_qmgr, 48) + ch("", 12)
            + bytes(32) + ch("", 32) + struct.pack(o + "i", 7) + ch("", 28)
            + ch(put_date, 8) + ch(put_time, 8) + ch("", 4)
            + bytes(24) + struct.pack(o + "4i", 1, 0, 0, -1))
