"""PCF structures built with struct from the spec (MQCFH, MQCFIN, MQCFST, MQCFSL, MQCFIL,
MQCFBS, MQCFGR, MQCFIN64), independently of pcf.encoder; little-endian unless told."""

from __future__ import annotations

import struct

MQCFT_INTEGER, MQCFT_STRING, MQCFT_INTEGER_LIST, MQCFT_STRING_LIST = 3, 4, 5, 6
MQCFT_BYTE_STRING, MQCFT_GROUP, MQCFT_REPORT, MQCFT_TRACE_ROUTE = 9, 20, 12, 10
MQCFT_INTEGER64 = 23
MQCMD_ACTIVITY_MSG, MQCMD_TRACE_ROUTE = 69, 75


def _pad(b: bytes) -> bytes:
    return b + bytes(-len(b) % 4)


def cfh(count: int, *, typ: int = MQCFT_REPORT, command: int = MQCMD_ACTIVITY_MSG,
        order: str = "<") -> bytes:
    """MQCFH version 3: Type, StrucLength 36, Version, Command, MsgSeqNumber, Control
    (MQCFC_LAST), CompCode, Reason, ParameterCount."""
    return struct.pack(order + "9i", typ, 36, 3, command, 1, 1, 0, 0, count)


def cfin(pid: int, value: int, order: str = "<") -> bytes:
    """MQCFIN: Type, StrucLength 16, Parameter, Value."""
    return struct.pack(order + "4i", MQCFT_INTEGER, 16, pid, value)


def cfin64(pid: int, value: int, order: str = "<") -> bytes:
    """MQCFIN64: Type 23, StrucLength 24, Parameter, Reserved, Value (64 bits)."""
    return struct.pack(order + "4iq", MQCFT_INTEGER64, 24, pid, 0, value)


def cfst(pid: int, text: bytes, ccsid: int = 1208, order: str = "<") -> bytes:
    """MQCFST: Type, StrucLength, Parameter, CodedCharSetId, StringLength, String."""
    body = _pad(text)
    return struct.pack(order + "5i", MQCFT_STRING, 20 + len(body), pid, ccsid, len(text)) + body


def cfbs(pid: int, data: bytes, order: str = "<") -> bytes:
    """MQCFBS: Type, StrucLength, Parameter, StringLength, String."""
    body = _pad(data)
    return struct.pack(order + "4i", MQCFT_BYTE_STRING, 16 + len(body), pid, len(data)) + body


def cfil(pid: int, values: list[int], order: str = "<") -> bytes:
    """MQCFIL: Type, StrucLength, Parameter, Count, Values."""
    return struct.pack(order + f"4i{len(values)}i", MQCFT_INTEGER_LIST, 16 + 4 * len(values),
                       pid, len(values), *values)


def cfsl(pid: int, items: list[bytes], width: int, ccsid: int = 1208,
         order: str = "<") -> bytes:
    """MQCFSL: Type, StrucLength, Parameter, CodedCharSetId, Count, StringLength, Strings."""
    body = _pad(b"".join(i.ljust(width) for i in items))
    return struct.pack(order + "6i", MQCFT_STRING_LIST, 24 + len(body), pid, ccsid,
                       len(items), width) + body


def cfgr(pid: int, members: list[bytes], order: str = "<") -> bytes:
    """MQCFGR (StrucLength 16, ParameterCount) followed by its members."""
    return struct.pack(order + "4i", MQCFT_GROUP, 16, pid, len(members)) + b"".join(members)


def message(parameters: list[bytes], **header) -> bytes:
    """A whole PCF message: MQCFH and its top-level parameters."""
    return cfh(len(parameters), **header) + b"".join(parameters)


MQCFT_COMMAND, MQCFT_INTEGER_FILTER, MQCFT_STRING_FILTER = 1, 13, 14


def cfif(pid: int, operator: int, value: int, order: str = "<") -> bytes:
    """MQCFIF: Type 13, StrucLength 20, Parameter, Operator, FilterValue."""
    return struct.pack(order + "5i", MQCFT_INTEGER_FILTER, 20, pid, operator, value)


def cfsf(pid: int, operator: int, text: bytes, ccsid: int = 1208, order: str = "<") -> bytes:
    """MQCFSF: Type 14, StrucLength, Parameter, Operator, CodedCharSetId,
    FilterValueLength, FilterValue."""
    body = _pad(text)
    return struct.pack(order + "6i", MQCFT_STRING_FILTER, 24 + len(body), pid, operator,
                       ccsid, len(text)) + body


def read_cfh(data: bytes, order: str = "<") -> dict:
    """The MQCFH at the start of `data`, field by field (spec order)."""
    names = ("Type", "StrucLength", "Version", "Command", "MsgSeqNumber", "Control",
             "CompCode", "Reason", "ParameterCount")
    return dict(zip(names, struct.unpack_from(order + "9i", data, 0), strict=True))


def read_parameters(data: bytes, order: str = "<") -> list[tuple[int, int, object]]:
    """(Type, Parameter, value) of each top-level structure after the MQCFH: MQCFIN and
    MQCFIF values as ints (MQCFIF: (operator, value)), MQCFST/MQCFSF as bytes (MQCFSF:
    (operator, bytes)), MQCFIL as a list; others as their raw body."""
    count = read_cfh(data, order)["ParameterCount"]
    offset, out = 36, []
    for _ in range(count):
        typ, length, pid = struct.unpack_from(order + "3i", data, offset)
        body = data[offset:offset + length]
        if typ == MQCFT_INTEGER:
            value: object = struct.unpack_from(order + "i", body, 12)[0]
        elif typ == MQCFT_STRING:
            n = struct.unpack_from(order + "i", body, 16)[0]
            value = body[20:20 + n]
        elif typ == MQCFT_INTEGER_LIST:
            n = struct.unpack_from(order + "i", body, 12)[0]
            value = list(struct.unpack_from(order + f"{n}i", body, 16))
        elif typ == MQCFT_INTEGER_FILTER:
            value = struct.unpack_from(order + "2i", body, 12)
        elif typ == MQCFT_STRING_FILTER:
            op, _, n = struct.unpack_from(order + "3i", body, 12)
            value = (op, body[24:24 + n])
        else:
            value = body
        out.append((typ, pid, value))
        offset += length
    assert offset == len(data), f"{len(data) - offset} bytes after the last structure"
    return out
