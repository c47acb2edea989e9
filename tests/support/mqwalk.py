"""A second, independent reader of MQ message data, written from IBM's structure layouts.

It shares no code with `pcf` (only, for CCSID 1047 that Python's codecs lack, its code
page): given a message's Format, Encoding and CodedCharSetId it follows the chain of MQ
headers (MQXQH, MQDLH, MQEPH) to the data they describe and walks PCF (MQCFH and every
MQCF* structure by its StrucLength) or text, and raises `WalkError` at the first thing
the descriptor does not describe. Used to hold the simulator to "every message's MQMD
describes its own bytes".
"""

from __future__ import annotations

import struct

_MQCFH = 36
_XQH = 428  # StrucId, Version, RemoteQName 48, RemoteQMgrName 48, MQMD version 1 (324)
_DLH = 172
_EPH = 68
_PYTHON_CODECS = {819: "latin-1", 1208: "utf-8", 500: "cp500", 37: "cp037", 1140: "cp1140",
                  850: "cp850", 437: "cp437", 1252: "cp1252", 1200: "utf-16-be",
                  367: "ascii"}


class WalkError(ValueError):
    """The data is not what its descriptor says."""


def _codec(ccsid: int) -> str:
    if ccsid in _PYTHON_CODECS:
        return _PYTHON_CODECS[ccsid]
    if ccsid == 1047:
        from pcf.codepages import CODECS

        return CODECS[1047]
    raise WalkError(f"CCSID {ccsid} is not one this reader knows")


def _text(raw: bytes, ccsid: int) -> str:
    try:
        return raw.decode(_codec(ccsid))
    except UnicodeDecodeError as e:
        raise WalkError(f"{raw[:16]!r} is not text in CCSID {ccsid}") from e


def _order(encoding: int) -> str:
    kind = encoding & 0xF
    if kind == 1:
        return ">"
    if kind == 2:
        return "<"
    raise WalkError(f"Encoding {encoding} names no integer byte order")


def _id(data: bytes, at: int, want: str, ccsid: int) -> None:
    got = _text(data[at:at + 4], ccsid)
    if got != want:
        raise WalkError(f"StrucId at {at} is {data[at:at + 4]!r}, not {want!r} in CCSID {ccsid}")


def walk(fmt: str, encoding: int, ccsid: int, data: bytes, *,
         truncated_ok: bool = False) -> list:
    """The data as the descriptor (Format, Encoding, CodedCharSetId) says it is: a list of
    (structure, fields) pairs; `truncated_ok` lets the data end anywhere (the first 100
    bytes of a message that a report carries)."""
    fmt = fmt.rstrip(" \x00")
    if fmt == "":
        return [("bytes", len(data))]
    if fmt == "MQSTR":
        if truncated_ok:
            return [("MQSTR", len(data))]
        return [("MQSTR", _text(data, ccsid))]
    o = _order(encoding)
    if fmt == "MQXMIT":
        _need(data, _XQH, "MQXQH", truncated_ok)
        _id(data, 0, "XQH ", ccsid)
        _id(data, 104, "MD  ", ccsid)
        md = 104
        inner_enc, inner_ccsid = struct.unpack_from(o + "2i", data, md + 24)
        inner_fmt = _text(data[md + 32:md + 40], ccsid)
        queue = _text(data[8:56], ccsid).rstrip()
        inner = walk(inner_fmt, inner_enc, inner_ccsid, data[_XQH:], truncated_ok=truncated_ok)
        return [("MQXQH", queue), *inner]
    if fmt == "MQDEAD":
        _need(data, _DLH, "MQDLH", truncated_ok)
        _id(data, 0, "DLH ", ccsid)
        (reason,) = struct.unpack_from(o + "i", data, 8)
        inner_enc, inner_ccsid = struct.unpack_from(o + "2i", data, 108)
        inner_fmt = _text(data[116:124], ccsid)
        inner = walk(inner_fmt, inner_enc, inner_ccsid, data[_DLH:], truncated_ok=truncated_ok)
        return [("MQDLH", reason), *inner]
    if fmt == "MQHEPCF":
        _need(data, _EPH, "MQEPH", truncated_ok)
        _id(data, 0, "EPH ", ccsid)
        _, length, inner_enc, inner_ccsid = struct.unpack_from(o + "4i", data, 4)
        inner_fmt = _text(data[20:28], ccsid)
        if length < _EPH or length % 4:
            raise WalkError(f"MQEPH StrucLength {length}")
        pcf = _pcf(data[32:length], o, ccsid, truncated_ok, "MQEPH")
        if length > len(data):
            if not truncated_ok:
                raise WalkError(f"MQEPH StrucLength {length} past the {len(data)} bytes")
            return [("MQEPH", length), *pcf]
        inner = walk(inner_fmt, inner_enc, inner_ccsid, data[length:], truncated_ok=truncated_ok)
        return [("MQEPH", length), *pcf, *inner]
    if fmt in ("MQADMIN", "MQEVENT", "MQPCF"):
        return _pcf(data, o, ccsid, truncated_ok, "")
    raise WalkError(f"Format {fmt!r} is not one this reader knows")


def _need(data: bytes, size: int, what: str, truncated_ok: bool) -> None:
    if len(data) < size and not truncated_ok:
        raise WalkError(f"{len(data)} bytes, less than the {size} of an {what}")


def _pcf(data: bytes, o: str, ccsid: int, truncated_ok: bool, inside: str) -> list:
    """An MQCFH and its parameters (in an MQEPH: up to its StrucLength, then nothing)."""
    if len(data) < _MQCFH:
        if truncated_ok:
            return []
        raise WalkError(f"{len(data)} bytes, less than an MQCFH")
    typ, length, version, command, seq, control, cc, reason, count = \
        struct.unpack_from(o + "9i", data, 0)
    if length != _MQCFH or not 1 <= version <= 3 or not 0 < typ < 100:
        raise WalkError(f"MQCFH Type {typ} StrucLength {length} Version {version}")
    out: list = [("MQCFH", (typ, command, seq, control, cc, reason, count))]
    end, params = _params(data, _MQCFH, count, o, ccsid, truncated_ok, 0)
    out += params
    if inside and end != len(data) and not truncated_ok:
        raise WalkError(f"the parameters end at {end}, the MQEPH at {len(data)}")
    return out


def _params(data: bytes, at: int, count: int, o: str, ccsid: int, truncated_ok: bool,
            depth: int) -> tuple[int, list]:
    if depth > 20:
        raise WalkError("groups nested deeper than 20")
    out: list = []
    for _ in range(count):
        if at + 8 > len(data):
            if truncated_ok:
                return len(data), out
            raise WalkError(f"parameter at {at} past the end ({len(data)})")
        typ, length = struct.unpack_from(o + "2i", data, at)
        if length < 16 or length % 4:
            raise WalkError(f"parameter at {at}: Type {typ} StrucLength {length}")
        if at + length > len(data):
            if truncated_ok:
                return len(data), out
            raise WalkError(f"parameter at {at} of {length} bytes past the end ({len(data)})")
        body = data[at:at + length]
        (pid,) = struct.unpack_from(o + "i", body, 8)
        if typ == 20:  # MQCFGR
            (n,) = struct.unpack_from(o + "i", body, 12)
            after, members = _params(data, at + length, n, o, ccsid, truncated_ok, depth + 1)
            out.append(("MQCFGR", pid, members))
            at = after
            continue
        out.append(_leaf(typ, pid, body, o, ccsid))
        at += length
    return at, out


def _leaf(typ: int, pid: int, body: bytes, o: str, ccsid: int) -> tuple:
    def fits(end: int) -> None:
        if end > len(body):
            raise WalkError(f"parameter {pid} (Type {typ}) needs {end} bytes, has {len(body)}")

    if typ == 3:  # MQCFIN
        return ("MQCFIN", pid, struct.unpack_from(o + "i", body, 12)[0])
    if typ == 23:  # MQCFIN64
        return ("MQCFIN64", pid, struct.unpack_from(o + "q", body, 16)[0])
    if typ in (5, 25):  # MQCFIL, MQCFIL64
        (n,) = struct.unpack_from(o + "i", body, 12)
        size = 4 if typ == 5 else 8
        fits(16 + n * size)
        return ("MQCFIL", pid, struct.unpack_from(f"{o}{n}{'i' if size == 4 else 'q'}", body, 16))
    if typ == 4:  # MQCFST
        cs, n = struct.unpack_from(o + "2i", body, 12)
        fits(20 + n)
        return ("MQCFST", pid, _text(body[20:20 + n], cs or ccsid))
    if typ == 6:  # MQCFSL
        cs, n, width = struct.unpack_from(o + "3i", body, 12)
        fits(24 + n * width)
        return ("MQCFSL", pid, [_text(body[24 + i * width:24 + (i + 1) * width], cs or ccsid)
                                for i in range(n)])
    if typ == 9:  # MQCFBS
        (n,) = struct.unpack_from(o + "i", body, 12)
        fits(16 + n)
        return ("MQCFBS", pid, body[16:16 + n])
    if typ == 13:  # MQCFIF
        return ("MQCFIF", pid, struct.unpack_from(o + "2i", body, 12))
    if typ == 14:  # MQCFSF
        op, cs, n = struct.unpack_from(o + "3i", body, 12)
        fits(24 + n)
        return ("MQCFSF", pid, op, _text(body[24:24 + n], cs or ccsid))
    if typ == 15:  # MQCFBF
        op, n = struct.unpack_from(o + "2i", body, 12)
        fits(20 + n)
        return ("MQCFBF", pid, op, body[20:20 + n])
    raise WalkError(f"parameter {pid}: Type {typ} is no MQCF* structure")
