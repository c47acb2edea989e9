"""Bytes -> typed PCF tree. Pure functions; every malformation raises PCFError."""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass

from pcf import fast, mqc
from pcf.codepages import CODECS, DEFAULT_CCSID, decode_text
from pcf.errors import PCFError
from pcf.limits import MAX_DEPTH
from pcf.model import (
    GROUP_LABELS,
    ByteString,
    ByteStringFilter,
    EmbeddedHeader,
    Group,
    Header,
    Integer,
    Integer64,
    Integer64List,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    String,
    StringFilter,
    StringList,
)

#: The smallest parameter structure (MQCFIN, MQCFGR, MQCFBS, MQCFIL are 16 bytes).
MIN_STRUCTURE = 16

_EPH_ASCII = b"EPH "
_EPH_EBCDIC = b"\xc5\xd7\xc8\x40"
_EPH_FORMATS = ("MQHEPCF",)
#: MQMD.Format values (blanks stripped) whose data is PCF.
PCF_FORMATS = frozenset({"MQADMIN", "MQEVENT", "MQPCF", "MQHEPCF"})
_STRUCTURE_NAMES = {
    mqc.MQCFT_INTEGER: "MQCFIN", mqc.MQCFT_INTEGER64: "MQCFIN64", mqc.MQCFT_STRING: "MQCFST",
    mqc.MQCFT_BYTE_STRING: "MQCFBS", mqc.MQCFT_INTEGER_LIST: "MQCFIL",
    mqc.MQCFT_INTEGER64_LIST: "MQCFIL64", mqc.MQCFT_STRING_LIST: "MQCFSL",
    mqc.MQCFT_GROUP: "MQCFGR", mqc.MQCFT_INTEGER_FILTER: "MQCFIF",
    mqc.MQCFT_STRING_FILTER: "MQCFSF", mqc.MQCFT_BYTE_STRING_FILTER: "MQCFBF",
}


@dataclass(frozen=True, slots=True)
class _Order:
    """Pre-compiled unpackers for one byte order."""

    prefix: str
    i32: struct.Struct
    i32x2: struct.Struct
    i32x3: struct.Struct
    i32x4: struct.Struct
    i32x5: struct.Struct
    i64: struct.Struct
    #: Unpackers of MQCFIL/MQCFIL64 values by (Type, Count), made on first use.
    lists: dict[tuple[int, int], Callable[..., tuple[int, ...]]]

    @classmethod
    def make(cls, prefix: str) -> _Order:
        """Unpackers for '<' (little-endian) or '>' (big-endian)."""
        return cls(prefix, *(struct.Struct(prefix + f) for f in ("i", "2i", "3i", "4i", "5i", "q")),
                   {})


LITTLE = _Order.make("<")
BIG = _Order.make(">")


def byte_order(encoding: int) -> _Order:
    """The byte order an MQENC_* Encoding gives integers; PCFError when undefined."""
    kind = encoding & mqc.MQENC_INTEGER_MASK
    if kind == mqc.MQENC_INTEGER_NORMAL:
        return BIG
    if kind == mqc.MQENC_INTEGER_REVERSED:
        return LITTLE
    raise PCFError(f"Encoding {encoding} names no integer byte order")


def _detect_order(data: bytes, offset: int, field: int, expected: tuple[int, ...]) -> _Order:
    """Guess the byte order from a field known to hold one of a few small values."""
    if len(data) < offset + field + 4:
        raise PCFError(f"truncated: {len(data)} bytes, too few for a PCF header", offset=0)
    if LITTLE.i32.unpack_from(data, offset + field)[0] in expected:
        return LITTLE
    if BIG.i32.unpack_from(data, offset + field)[0] in expected:
        return BIG
    raise PCFError("cannot tell the byte order: no Encoding given and the header is not "
                   "recognisable", offset=offset + field)


def _is_eph(data: bytes, fmt: str | None) -> bool:
    if fmt is not None and fmt.rstrip(" \x00") in _EPH_FORMATS:
        return True
    return data[:4] in (_EPH_ASCII, _EPH_EBCDIC)


class _Decoder:
    """One decode run: the buffer, its byte order and the CCSID that CCSID 0 stands for."""

    __slots__ = ("ccsid", "data", "end", "labels", "order", "texts")

    def __init__(self, data: bytes, order: _Order, ccsid: int) -> None:
        self.data = data
        self.end = len(data)
        self.order = order
        self.ccsid = ccsid
        self.labels: list[tuple[int, int]] = []
        #: MQCFST texts decoded so far in this message: (raw, CCSID) -> (value, width).
        self.texts: dict[tuple[bytes, int], tuple[str | bytes, int | None]] = {}

    def fail(self, reason: str, offset: int, structure: str = "") -> PCFError:
        """A PCFError at `offset` with the current group path."""
        labels = [f"{GROUP_LABELS.get(pid) or pid}[{index}]" for pid, index in self.labels]
        parts = [*labels, structure] if structure else labels
        return PCFError(reason, offset=offset, path="/".join(parts))

    def text(self, raw: bytes, ccsid: int) -> str | bytes:
        """Decode a string field; the raw bytes when the CCSID is unknown or invalid."""
        text = decode_text(raw, ccsid or self.ccsid)
        return raw if text is None else text

    def parse(self, offset: int, count: int, depth: int, out: list[Parameter]) -> int:
        """Decode `count` structures from `offset` into `out`; returns the offset after them.

        The labels of the groups being decoded are kept as (id, index) pairs and only made
        into text when an error names them. An MQCFIN of 16 bytes, the commonest structure,
        takes a short path with the same checks.
        """
        data, end, o = self.data, self.end, self.order
        i32x3 = o.i32x3.unpack_from
        i32x4 = o.i32x4.unpack_from
        i32 = o.i32.unpack_from
        append = out.append
        codec_of = CODECS.get
        names = _STRUCTURE_NAMES
        texts = self.texts
        seen: dict[int, int] | None = None
        for k in range(count):
            left = end - offset
            if left >= 16:
                typ, length, pid, word = i32x4(data, offset)
                if typ == 3 and length == 16:  # MQCFIN: all the checks below pass
                    append(Integer(pid, word))
                    offset += 16
                    continue
            elif left >= 12:  # too short for any structure: the checks below say so
                typ, length, pid = i32x3(data, offset)
                word = 0
            else:
                raise self.fail(f"truncated: {end - offset} bytes left where parameter "
                                f"{k + 1} of {count} should start", offset)
            # After these checks 16 <= length <= left, so `word` (bytes 12-15) was read.
            name = names.get(typ)
            if name is None:
                raise self.fail(f"unknown structure Type {typ}", offset)
            if length < MIN_STRUCTURE or length & 3:
                raise self.fail(f"StrucLength {length} is not a multiple of 4 of at least "
                                f"{MIN_STRUCTURE}", offset, name)
            if length > end - offset:
                raise self.fail(f"StrucLength {length} runs past the end of the data "
                                f"({end - offset} bytes left)", offset, name)
            if typ == 3:  # MQCFIN
                append(Integer(pid, word))
            elif typ == 4:  # MQCFST
                if length < 20:
                    raise self.fail(f"StrucLength {length} < 20", offset, name)
                ccsid, slen = word, i32(data, offset + 16)[0]
                if slen < 0 or slen > length - 20:
                    raise self.fail(f"StringLength {slen} does not fit StrucLength {length}",
                                    offset, name)
                raw = data[offset + 20:offset + 20 + slen]
                known = texts.get((raw, ccsid))  # names repeat within a message
                if known is None:
                    codec = codec_of(ccsid or self.ccsid)  # codepages.decode_text, inlined
                    if codec is None:
                        value = raw
                    else:
                        try:
                            value = raw.decode(codec).rstrip(" \x00")
                        except UnicodeDecodeError:
                            value = raw
                    width = slen if isinstance(value, str) and len(value) != slen else None
                    known = texts[raw, ccsid] = (value, width)
                append(String(pid, known[0], ccsid, known[1]))
            elif typ == 20:  # MQCFGR
                members = word
                if seen is None:
                    seen = {}
                index = seen.get(pid, 0)
                seen[pid] = index + 1
                if depth >= MAX_DEPTH:
                    raise self.fail(f"groups nested deeper than {MAX_DEPTH}", offset, name)
                if members < 0:
                    raise self.fail(f"ParameterCount {members} is negative", offset, name)
                group = Group(pid, [])
                self.labels.append((pid, index))
                offset = self.parse(offset + length, members, depth + 1, group.parameters)
                self.labels.pop()
                out.append(group)
                continue
            elif typ == 9:  # MQCFBS
                slen = word
                if slen < 0 or slen > length - 16:
                    raise self.fail(f"StringLength {slen} does not fit StrucLength {length}",
                                    offset, name)
                append(ByteString(pid, data[offset + 16:offset + 16 + slen]))
            elif typ == 23:  # MQCFIN64 (Reserved word at 12)
                if length < 24:
                    raise self.fail(f"StrucLength {length} < 24", offset, name)
                out.append(Integer64(pid, o.i64.unpack_from(data, offset + 16)[0]))
            elif typ == 5 or typ == 25:  # MQCFIL, MQCFIL64
                n = word
                size = 4 if typ == 5 else 8
                if n < 0 or 16 + size * n > length:
                    raise self.fail(f"Count {n} does not fit StrucLength {length}", offset, name)
                unpack = o.lists.get((typ, n))
                if unpack is None:
                    unpack = struct.Struct(f"{o.prefix}{n}{'i' if size == 4 else 'q'}").unpack_from
                    if n <= 64:  # a few shapes recur (statistics: 2 items per list)
                        o.lists[typ, n] = unpack
                append((IntegerList if typ == 5 else Integer64List)(pid, list(unpack(data,
                                                                                     offset + 16))))
            elif typ == 6:  # MQCFSL
                if length < 24:
                    raise self.fail(f"StrucLength {length} < 24", offset, name)
                ccsid, n, slen = o.i32x3.unpack_from(data, offset + 12)
                if n < 0 or slen < 0 or 24 + n * slen > length or n > length:
                    raise self.fail(f"Count {n} x StringLength {slen} does not fit "
                                    f"StrucLength {length}", offset, name)
                start = offset + 24
                items = [self.text(data[start + k * slen:start + (k + 1) * slen], ccsid)
                         for k in range(n)]
                out.append(StringList(pid, items, ccsid, slen))
            elif typ == 13:  # MQCFIF
                if length < 20:
                    raise self.fail(f"StrucLength {length} < 20", offset, name)
                op, val = o.i32x2.unpack_from(data, offset + 12)
                out.append(IntegerFilter(pid, op, val))
            elif typ == 14:  # MQCFSF
                if length < 24:
                    raise self.fail(f"StrucLength {length} < 24", offset, name)
                op, ccsid, slen = o.i32x3.unpack_from(data, offset + 12)
                if slen < 0 or slen > length - 24:
                    raise self.fail(f"FilterValueLength {slen} does not fit StrucLength "
                                    f"{length}", offset, name)
                raw = data[offset + 24:offset + 24 + slen]
                out.append(StringFilter(pid, op, self.text(raw, ccsid), ccsid))
            else:  # MQCFBF
                if length < 20:
                    raise self.fail(f"StrucLength {length} < 20", offset, name)
                op, slen = o.i32x2.unpack_from(data, offset + 12)
                if slen < 0 or slen > length - 20:
                    raise self.fail(f"FilterValueLength {slen} does not fit StrucLength "
                                    f"{length}", offset, name)
                out.append(ByteStringFilter(pid, op, data[offset + 20:offset + 20 + slen]))
            offset += length
        return offset


def _header(d: _Decoder, offset: int) -> tuple[Header, int]:
    """Read an MQCFH at `offset`; returns it and its ParameterCount."""
    if d.end - offset < mqc.MQCFH_STRUC_LENGTH:
        raise PCFError(f"truncated: {d.end - offset} bytes left for the 36-byte MQCFH",
                       offset=offset, path="MQCFH")
    typ, length, version, command, seq, control, comp, reason, count = struct.unpack_from(
        d.order.prefix + "9i", d.data, offset)
    if length != mqc.MQCFH_STRUC_LENGTH:
        raise PCFError(f"MQCFH StrucLength is {length}, not 36", offset=offset + 4, path="MQCFH")
    if count < 0:
        raise PCFError(f"ParameterCount {count} is negative", offset=offset + 32, path="MQCFH")
    return Header(typ, command, seq, control, comp, reason, version), count


def decode(data: bytes, *, encoding: int | None = None, ccsid: int | None = None,
           fmt: str | None = None) -> Message:
    """Decode PCF message data (what follows the MQMD) into a Message.

    `encoding`, `ccsid` and `fmt` are the MQMD's Encoding, CodedCharSetId and Format when
    known; without them the byte order is detected from the header, CCSID 0 strings are
    read as UTF-8, and an MQEPH is recognised by its StrucId. Uses the compiled decoder
    when it was built (pcf.fast), else pure Python; both give the same tree and errors.
    """
    return _decode(data, encoding, ccsid, fmt, fast.compiled_parse)


def decode_python(data: bytes, *, encoding: int | None = None, ccsid: int | None = None,
                  fmt: str | None = None) -> Message:
    """decode() on the pure-Python path only (the reference the compiled path is tested to)."""
    return _decode(data, encoding, ccsid, fmt, None)


def _parameters(d: _Decoder, offset: int, count: int,
                compiled: fast.ParseFn | None) -> tuple[list[Parameter], int]:
    """The top-level parameters from `offset` and the offset after them."""
    if compiled is not None:
        done = compiled(d.data, offset, count, d.order is LITTLE, d.ccsid, d.end, MAX_DEPTH)
        if done is not None:
            return done
    parameters: list[Parameter] = []
    return parameters, d.parse(offset, count, 0, parameters)


def _decode(data: bytes, encoding: int | None, ccsid: int | None, fmt: str | None,
            compiled: fast.ParseFn | None) -> Message:
    """decode(), with the compiled parse function or None for pure Python."""
    data = bytes(data)
    message_ccsid = ccsid or DEFAULT_CCSID
    if _is_eph(data, fmt):
        order = byte_order(encoding) if encoding is not None else \
            _detect_order(data, 0, 4, (mqc.MQEPH_VERSION_1,))
        return _decode_eph(data, order, message_ccsid, compiled)
    order = byte_order(encoding) if encoding is not None else \
        _detect_order(data, 0, 4, (mqc.MQCFH_STRUC_LENGTH,))
    d = _Decoder(data, order, message_ccsid)
    header, count = _header(d, 0)
    parameters, end = _parameters(d, mqc.MQCFH_STRUC_LENGTH, count, compiled)
    return Message(header, parameters, None, data[end:], _encoding_of(order), message_ccsid)


def _encoding_of(order: _Order) -> int:
    return mqc.MQENC_REVERSED if order is LITTLE else mqc.MQENC_NORMAL


def _decode_eph(data: bytes, order: _Order, ccsid: int,
                compiled: fast.ParseFn | None) -> Message:
    """Decode an MQEPH-first message (MQHEPCF): MQEPH, its MQCFH, parameters, user data."""
    if len(data) < mqc.MQEPH_STRUC_LENGTH_FIXED:
        raise PCFError(f"truncated: {len(data)} bytes for the 68-byte MQEPH", offset=0,
                       path="MQEPH")
    struc_id = data[:4]
    if struc_id not in (_EPH_ASCII, _EPH_EBCDIC):
        raise PCFError(f"MQEPH StrucId is {struc_id!r}, not 'EPH '", offset=0, path="MQEPH")
    char_ccsid = 500 if struc_id == _EPH_EBCDIC else ccsid
    version, struc_length, enc, eph_ccsid = order.i32x4.unpack_from(data, 4)
    fmt_raw = data[20:28]
    flags = order.i32.unpack_from(data, 28)[0]
    if struc_length < mqc.MQEPH_STRUC_LENGTH_FIXED or struc_length > len(data) \
            or struc_length & 3:
        raise PCFError(f"MQEPH StrucLength {struc_length} is not a multiple of 4 between 68 "
                       f"and the {len(data)} bytes of data", offset=8, path="MQEPH")
    fmt_text = decode_text(fmt_raw, char_ccsid)
    if fmt_text is None:
        raise PCFError(f"MQEPH Format {fmt_raw!r} is not text in CCSID {char_ccsid}",
                       offset=20, path="MQEPH")
    d = _Decoder(data, order, ccsid)
    d.end = struc_length  # the parameters end where the MQEPH says
    header, count = _header(d, 32)
    parameters, end = _parameters(d, mqc.MQEPH_STRUC_LENGTH_FIXED, count, compiled)
    if end != struc_length:
        raise PCFError(f"the PCF parameters end at {end} but MQEPH StrucLength says "
                       f"{struc_length}", offset=end, path="MQEPH")
    eph = EmbeddedHeader(enc, eph_ccsid, fmt_text, flags, version)
    return Message(header, parameters, eph, data[struc_length:], _encoding_of(order), ccsid)


def is_pcf_format(fmt: str) -> bool:
    """True when an MQMD.Format names PCF data (MQADMIN, MQEVENT, MQPCF, MQHEPCF)."""
    return fmt.rstrip(" \x00") in PCF_FORMATS
