"""Builds accounting/statistics messages byte by byte from the spec with `struct`.

Independent of pcf.encoder: every structure is laid out here from pcf-format.md
(MQCFH 36 bytes; MQCFIN 16; MQCFIN64 24; MQCFST 20 + string padded to 4; MQCFBS 16 +
bytes padded to 4; MQCFIL 16 + 4n; MQCFIL64 16 + 8n; MQCFGR 16 then its members).
"""

from __future__ import annotations

import struct

CFT_INTEGER, CFT_STRING, CFT_INTEGER_LIST, CFT_BYTE_STRING = 3, 4, 5, 9
CFT_GROUP, CFT_INTEGER64, CFT_INTEGER64_LIST = 20, 23, 25
CFT_STATISTICS, CFT_ACCOUNTING = 21, 22


def _pad4(b: bytes, fill: bytes = b"\x00") -> bytes:
    return b + fill * (-len(b) % 4)


class Builder:
    """Structures in one byte order ('<' little-endian, MQENC 546; '>' big-endian, 273)."""

    def __init__(self, order: str = "<") -> None:
        self.o = order

    def cfh(self, type_: int, command: int, count: int, seq: int = 1, control: int = 1
            ) -> bytes:
        """MQCFH version 3."""
        return struct.pack(self.o + "9i", type_, 36, 3, command, seq, control, 0, 0, count)

    def cfin(self, pid: int, value: int) -> bytes:
        """MQCFIN."""
        return struct.pack(self.o + "4i", CFT_INTEGER, 16, pid, value)

    def cfin64(self, pid: int, value: int) -> bytes:
        """MQCFIN64."""
        return struct.pack(self.o + "4iq", CFT_INTEGER64, 24, pid, 0, value)

    def cfst(self, pid: int, text: str, width: int | None = None, ccsid: int = 0) -> bytes:
        """MQCFST, blank-padded to `width` as MQ writes fixed-length fields."""
        raw = text.encode("ascii")
        if width is not None:
            raw = raw.ljust(width, b" ")
        body = _pad4(raw)
        return struct.pack(self.o + "5i", CFT_STRING, 20 + len(body), pid, ccsid,
                           len(raw)) + body

    def cfbs(self, pid: int, value: bytes) -> bytes:
        """MQCFBS."""
        body = _pad4(value)
        return struct.pack(self.o + "4i", CFT_BYTE_STRING, 16 + len(body), pid,
                           len(value)) + body

    def cfil(self, pid: int, values: list[int]) -> bytes:
        """MQCFIL."""
        return struct.pack(self.o + f"4i{len(values)}i", CFT_INTEGER_LIST, 16 + 4 * len(values),
                           pid, len(values), *values)

    def cfil64(self, pid: int, values: list[int]) -> bytes:
        """MQCFIL64."""
        return struct.pack(self.o + f"4i{len(values)}q", CFT_INTEGER64_LIST,
                           16 + 8 * len(values), pid, len(values), *values)

    def cfgr(self, pid: int, members: list[bytes]) -> bytes:
        """MQCFGR followed by its members."""
        return struct.pack(self.o + "4i", CFT_GROUP, 16, pid, len(members)) + b"".join(members)

    def value(self, pid: int, structure: str, value: object, width: int | None = None
              ) -> bytes:
        """One structure of the named type."""
        if structure == "MQCFIN":
            return self.cfin(pid, value)  # type: ignore[arg-type]
        if structure == "MQCFIN64":
            return self.cfin64(pid, value)  # type: ignore[arg-type]
        if structure == "MQCFST":
            return self.cfst(pid, value, width)  # type: ignore[arg-type]
        if structure == "MQCFBS":
            return self.cfbs(pid, value)  # type: ignore[arg-type]
        if structure == "MQCFIL":
            return self.cfil(pid, value)  # type: ignore[arg-type]
        if structure == "MQCFIL64":
            return self.cfil64(pid, value)  # type: ignore[arg-type]
        raise ValueError(structure)

    def message(self, type_: int, command: int, top: list[bytes], groups: list[bytes] = (),
                seq: int = 1, control: int = 1) -> bytes:
        """A whole message: MQCFH, top-level structures, groups."""
        return self.cfh(type_, command, len(top) + len(groups), seq, control) + \
            b"".join(top) + b"".join(groups)
