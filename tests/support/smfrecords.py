"""SMF type 115/116 records built for tests, following IBM's documented record layout.

`record` lays out an SMF record as the documentation describes it: the RDW and SMF header
(28 bytes: length, segment flags, system indicator, type, time, date, system id, subsystem
id, subtype, release), the self-defining sections (offset, length, count) from byte 28, then
the QWHS and the structures one after the other. `structure` fills one structure's fields
by name at their documented offsets; `rdw_stream`, `spanned` and `without_rdws` make data sets.
"""

from __future__ import annotations

import datetime as dt
import itertools
import struct

from traceroute.smf.clock import stck_of
from traceroute.smf.layout import ENUMS, layout
from traceroute.smf.text import ebcdic

START = dt.datetime(2024, 3, 26, 2, 30, 0)


def packed_date(year: int, day: int) -> bytes:
    """The SMF date X'0cyydddF'."""
    return bytes.fromhex(f"0{(year - 1900) // 100}{year % 100:02d}{day:03d}f")


def smf_header(rtype: int, subtype: int, *, length: int = 0, lpar: str = "MV41",
               qmgr: str = "MQ07", release: str = "910", year: int = 2024, day: int = 86,
               hundredths: int = 913_000, flag: int = 0x5E) -> bytes:
    """The 28-byte SMF header (RDW included) of Table 34 / Table 42."""
    return (struct.pack(">HHBBI", length, 0, flag, rtype, hundredths) + packed_date(year, day)
            + ebcdic(lpar, 4) + ebcdic(qmgr, 4) + struct.pack(">H", subtype)
            + ebcdic(release, 3) + b"\x00")


def qwhs(sections: int, *, start: dt.datetime | None = START, seconds: int = 900,
         chinit: bool = False, length: int = 52, qmgr: str = "MQ07") -> bytes:
    """A QWHS: length, number of self-defining sections (QWHSNSDA), subsystem, and for
    statistics the interval's start (STCK) and duration (microseconds; STCK units for the
    channel initiator's subtype 231, as IBM's formatter reads them)."""
    out = bytearray(length)
    struct.pack_into(">h", out, 0, length)
    out[6] = sections
    out[12:16] = ebcdic(qmgr, 4)
    if length >= 52:
        struct.pack_into(">Q", out, 36, stck_of(start) if start else 0)
        struct.pack_into(">Q", out, 44, seconds * 1_000_000 * (4096 if chinit else 1))
    return bytes(out)


def record(rtype: int, subtype: int, header_block: bytes | None,
           sections: dict[int, list[bytes]], *, count: int | None = None, **kw) -> bytes:
    """A whole record: the SMF header, `count` self-defining sections (default: as many as the
    QWHS says, QWHSNSDA, or up to the highest used), the QWHS (section 0; None: a 4-byte
    placeholder, "no QWHS"), then each section's structures (all the same length)."""
    if count is None:
        count = max([0, *sections]) + 1
        if header_block is not None and len(header_block) > 6 and header_block[6] > 1:
            count = max(count, header_block[6])
    at = 28 + 8 * count
    triplets = [b""] * count
    body = bytearray()
    if header_block is None:
        triplets[0] = struct.pack(">IHH", 0, 4, 0)
    else:
        triplets[0] = struct.pack(">IHH", at, len(header_block), 1)
        body += header_block
        at += len(header_block)
    for index in range(1, count):
        blocks = sections.get(index, [])
        if not blocks:
            triplets[index] = bytes(8)
            continue
        size = len(blocks[0])
        triplets[index] = struct.pack(">IHH", at, size, len(blocks))
        for block in blocks:
            body += block
            at += size
    head = smf_header(rtype, subtype, length=28 + 8 * count + len(body), **kw)
    return head + b"".join(triplets) + bytes(body)


def _pack(kind: str, size: int, value: object, args: tuple) -> bytes:
    if kind in ("ebcdic", "ebcdicif"):
        return ebcdic(value, size)[:size]
    if kind == "hex":
        return bytes.fromhex(value) if isinstance(value, str) else bytes(value)
    if kind == "enum":
        names = {v: k for k, v in ENUMS[args[0]].items()}
        number = names[value] if isinstance(value, str) else value
        return number.to_bytes(size, "big", signed=True)
    if kind == "stck":
        return struct.pack(">Q", value * 4096)
    if kind == "time":
        return struct.pack(">Q", stck_of(value) if isinstance(value, dt.datetime) else value)
    signed = kind.startswith("s")
    return int(value).to_bytes(size, "big", signed=signed)


def structure(name: str, values: dict | None = None, *, length: int | None = None,
              version: int | None = None) -> bytes:
    """One structure with these field values (by column name; lists for list columns;
    datetimes for times of day; microseconds for STCK durations), the rest zero."""
    lay = layout(name)
    size = length if length is not None else lay.extent
    out = bytearray(size)
    if lay.length_at is not None:
        struct.pack_into(">H", out, lay.length_at, size)
    if lay.version_at is not None:
        struct.pack_into(">I", out, lay.version_at, version if version is not None
                         else lay.top_version)
    for name_, value in (values or {}).items():
        fields = [f for f in lay.fields if f.name == name_ and f.base == "struct"]
        if not fields:
            raise KeyError(f"{name} has no column {name_}")
        items = value if fields[0].array else [value]
        for f, item in zip(fields, items, strict=False):
            data = _pack(f.kind, f.size, item, f.args)
            out[f.offset:f.offset + len(data)] = data
    return bytes(out)


def cf_entries(entries: list[dict]) -> bytes:
    """A QEST: one entry (64 bytes from offset 8) per dict of values."""
    lay = layout("QEST")
    first, size, count = lay.entries
    out = bytearray(first + size * count)
    struct.pack_into(">H", out, 2, len(out))
    for n, values in enumerate(entries):
        at = first + size * n
        for name, value in values.items():
            f = next(f for f in lay.fields if f.name == name)
            data = _pack(f.kind, f.size, value, f.args)
            out[at + f.offset:at + f.offset + len(data)] = data
    return bytes(out)


def rdw_stream(*records: bytes) -> bytes:
    """Records back to back, each with its RDW (as built)."""
    return b"".join(records)


def spanned(rec: bytes, *cuts: int) -> bytes:
    """A record split into segments at these offsets (first segment flag 1, middle 3, last
    2), each segment after the first with its own RDW."""
    bounds = [0, *cuts, len(rec)]
    pieces = []
    for n, (a, b) in enumerate(itertools.pairwise(bounds)):
        flag = 1 if n == 0 else (2 if b == len(rec) else 3)
        data = rec[4:b] if n == 0 else rec[a:b]
        pieces.append(struct.pack(">HBB", len(data) + 4, flag, 0) + data)
    return b"".join(pieces)


def without_rdws(data: bytes) -> bytes:
    """A data set with RDWs as it arrives when transferred without them."""
    out, at = [], 0
    while at + 4 <= len(data):
        length = struct.unpack_from(">H", data, at)[0]
        if length < 4:  # damaged: the rest as it is
            out.append(data[at:])
            break
        out.append(data[at + 4:at + length])
        at += length
    return b"".join(out)
