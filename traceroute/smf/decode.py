"""One SMF record (type 115 or 116) into rows, one per MQ structure it holds.

A record is its bytes from the RDW on (the 4-byte record descriptor word, then the SMF header:
flag, type, time, date, system id, subsystem id, subtype, MQ release), then self-defining
sections (offset, length, count) from byte 28, the first for the QWHS instrumentation header.
The QWHS says how many sections there are; the rest point to the structures (IBM MQ 9.4
"Monitoring and performance", Layout of an SMF type 115 / 116 record). Every offset, length
and count is a claim checked against the record: what lies outside it is reported, never read.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from traceroute.smf.layout import Layout, layout, reader
from traceroute.smf.text import shown

STATISTICS, ACCOUNTING = 115, 116
#: The subtypes whose structures we decode: {(type, subtype): [(section, structure), ...]}.
SECTIONS: dict[tuple[int, int], tuple[tuple[int, str], ...]] = {
    (115, 1): ((9, "QSST"), (11, "QJST")),
    (115, 2): ((1, "QMST"), (2, "QIST"), (3, "QPST"), (4, "QLST"), (5, "Q5ST"), (6, "QEST"),
               (7, "QTST"), (8, "QESD")),
    (115, 5): ((1, "QSPH"),),
    (115, 6): ((1, "QSGM"),),
    (115, 7): ((1, "QSRS"),),
    (115, 201): ((1, "QIS1"),),
    (115, 215): ((1, "QPST"),),
    (115, 216): ((1, "QQST"),),
    (115, 231): ((1, "QCCT"), (2, "QCTDSP"), (3, "QCTADP"), (4, "QCTSSL"), (5, "QCTDNS")),
    (116, 0): ((2, "QMAC"),),
    (116, 10): ((1, "QCST"),),
}
#: Task accounting (116 subtypes 1 and 2) is read by `_task`: WTAS, its WQs, then WTID.
TASK_SUBTYPES = (1, 2)
#: Subtypes that exist but whose structures we do not decode: counted, not reported.
#: 240 holds data for IBM's use only.
NOT_DECODED = {(115, 240): "data for IBM use only"}
#: Other record types a dump of MQ's records holds.
_KNOWN_TYPES = {2: " (dump header)", 3: " (dump trailer)"}
HEADER_LENGTH = 28
#: The smallest record: the RDW and the SMF header up to the system id.
MINIMUM_LENGTH = 18
#: No MQ SMF structure is shorter (QLST and the channel initiator's adapter block are 32
#: bytes): a section claiming shorter ones is damaged, and would make a row of nothing for
#: every few bytes.
SMALLEST_STRUCTURE = 32
_SUBTYPES_VALID = 0x40
_QWHX_PRESENT = 0x40
_TRIPLET = struct.Struct(">IHH")
_U16 = struct.Struct(">H")
_S16 = struct.Struct(">h")
_U32 = struct.Struct(">I")
_U64 = struct.Struct(">Q")


@dataclass(frozen=True, slots=True)
class Header:
    """What every row of one record shares: the SMF header and the QWHS's interval."""

    type: int
    subtype: int
    date: bytes  # packed X'0cyydddF'
    time: int  # hundredths of a second since midnight
    lpar: bytes  # EBCDIC system id
    qmgr: bytes  # EBCDIC subsystem id
    qsg: bytes | None  # from the QWHX header extension (MQ 10 on); None before
    version: bytes  # EBCDIC release: 3 characters, or 6 from the QWHX
    interval_start: int | None = None  # STCK (statistics only)
    interval_duration: int | None = None  # seconds (statistics only)


@dataclass(slots=True)
class Row:
    """One structure of a record: its name, the record's header, its values in layout order."""

    structure: str
    header: Header
    values: list


@dataclass
class Decoded:
    """A record's rows, the problems found in it (offset in the record, reason), and what was
    skipped: `skipped` names a record not decoded ("type 2", "115 subtype 240 ...")."""

    rows: list[Row] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)
    skipped: str | None = None
    #: (type, subtype) of an MQ record that was decoded (rows or not)
    key: tuple[int, int] | None = None


def record_type(record: bytes) -> int | None:
    """The SMF record type of a record (from its RDW on); None when too short."""
    return record[5] if len(record) > 5 else None


def decode_record(record: bytes) -> Decoded:
    """All MQ structures of one SMF record (bytes from its RDW on)."""
    out = Decoded()
    if len(record) < MINIMUM_LENGTH:
        out.problems.append((0, f"record cut short: {len(record)} bytes, an SMF header needs "
                                f"{MINIMUM_LENGTH}"))
        return out
    rtype = record[5]
    if rtype not in (STATISTICS, ACCOUNTING):
        out.skipped = f"type {rtype}" + _KNOWN_TYPES.get(rtype, "")
        return out
    if len(record) < HEADER_LENGTH + 8:
        out.problems.append((0, f"record cut short: {len(record)} bytes, an SMF {rtype} "
                                f"header and its first self-defining section need "
                                f"{HEADER_LENGTH + 8}"))
        return out
    subtype = _U16.unpack_from(record, 22)[0] if record[4] & _SUBTYPES_VALID else None
    key = (rtype, subtype)
    if key in NOT_DECODED:
        out.skipped = f"type {rtype} subtype {subtype} ({NOT_DECODED[key]})"
        return out
    if key not in SECTIONS and not (rtype == ACCOUNTING and subtype in TASK_SUBTYPES):
        what = "no subtype" if subtype is None else f"subtype {subtype}"
        out.problems.append((22, f"unknown SMF {rtype} {what}"))
        return out
    header, sections = _header(record, rtype, subtype, out)
    if header is None:
        return out
    out.key = key
    if rtype == ACCOUNTING and subtype in TASK_SUBTYPES:
        _task(record, header, sections, out)
        return out
    for index, name in SECTIONS[key]:
        if index >= len(sections):
            continue
        if name == "QMAC":
            qwhc = _qwhc(record, sections[0])
            for start, length in _instances(record, sections, index, name, out):
                _emit(out, name, header, record, start, length, qwhc=qwhc)
            continue
        for position, (start, length) in enumerate(_instances(record, sections, index, name,
                                                              out)):
            _emit(out, name, header, record, start, length, index=position)
    return out


def _header(record: bytes, rtype: int, subtype: int,
            out: Decoded) -> tuple[Header | None, list[tuple[int, int, int]]]:
    """The record's Header and its self-defining sections (offset, length, count)."""
    version = record[24:27]
    qwhs_at, qwhs_length, _ = _TRIPLET.unpack_from(record, HEADER_LENGTH)
    qsg = None
    start = duration = None
    if qwhs_length == 4:  # no QWHS: one structure section after it
        count = 2
        qwhs_at = None
    else:
        if qwhs_at + 2 > len(record):
            out.problems.append((HEADER_LENGTH, f"the QWHS section points past the record's "
                                                f"end (offset {qwhs_at}, record {len(record)} "
                                                f"bytes)"))
            return None, []
        length = _S16.unpack_from(record, qwhs_at)[0]
        if length <= 0:
            out.problems.append((qwhs_at, f"QWHS length {length}: the header is corrupt"))
            return None, []
        count = record[qwhs_at + 6] if length > 1 and qwhs_at + 6 < len(record) else 2
        extension = None
        if rtype == STATISTICS:
            if length >= 52 and qwhs_at + 52 <= len(record):
                start = _U64.unpack_from(record, qwhs_at + 36)[0] or None
                duration = _U64.unpack_from(record, qwhs_at + 44)[0] // 1_000_000
                if subtype == 231:  # this subtype counts the duration in STCK units
                    duration //= 4096
                if start is None:
                    duration = None
                if record[qwhs_at + 32] & _QWHX_PRESENT:
                    extension = qwhs_at + 52
            elif length == 1 and version >= b"\xf9\xf4\xf6":  # release "946": MQ 10's mark
                extension = qwhs_at + 4
        elif length >= 36 and qwhs_at + 33 <= len(record):
            extension = qwhs_at + 36 + (16 if length >= 52 else 0)
            if not record[qwhs_at + 32] & _QWHX_PRESENT or version < b"\xf9\xf4\xf6":
                extension = None
            elif length == 36:
                extension += 92  # the QWHC comes first
        if extension is not None and extension + 14 <= len(record):
            qsg, version = record[extension + 4:extension + 8], record[extension + 8:extension + 14]
    room = (len(record) - HEADER_LENGTH) // 8
    if count > room:
        out.problems.append((HEADER_LENGTH, f"{count} self-defining sections claimed, room "
                                            f"for {room} in the record"))
        count = room
    sections = [_TRIPLET.unpack_from(record, HEADER_LENGTH + 8 * i) for i in range(count)]
    header = Header(rtype, subtype, record[10:14], _U32.unpack_from(record, 6)[0],
                    record[14:18], record[18:22], qsg, version, start, duration)
    return header, sections


def _instances(record: bytes, sections: list[tuple[int, int, int]], index: int, name: str,
               out: Decoded) -> Iterator[tuple[int, int]]:
    """(start, length) of each structure of section `index` that lies within the record."""
    offset, length, count = sections[index]
    if count == 0:
        return
    where = HEADER_LENGTH + 8 * index
    if length < SMALLEST_STRUCTURE:
        out.problems.append((where, f"{name}: self-defining section {index} claims {count} "
                                    f"structures of {length} bytes (none is shorter than "
                                    f"{SMALLEST_STRUCTURE})"))
        return
    for position in range(count):
        start = offset + length * position
        if start + length > len(record):
            out.problems.append((where, f"{name}: self-defining section {index} claims "
                                        f"{count} structures of {length} bytes from offset "
                                        f"{offset}; structure {position + 1} ends past the "
                                        f"record's {len(record)} bytes"))
            return
        yield start, length


def _length(lay: Layout, record: bytes, start: int, section_length: int) -> int:
    """A structure's length: its own length field, bounded by its section."""
    if lay.length_at is None:
        return section_length
    own = _U16.unpack_from(record, start + lay.length_at)[0]
    return min(own, section_length)


def _emit(out: Decoded, name: str, header: Header, record: bytes, start: int,
          section_length: int, *, index: int = 0, qwhc: tuple[int, int] | None = None,
          correlator: bytes | None = None) -> list | None:
    """Read one structure into out.rows (QEST: one row per coupling facility structure)."""
    lay = layout(name)
    length = min(_length(lay, record, start, section_length), lay.extent)
    version = 0
    if lay.version_at is not None:
        version = (min(_U32.unpack_from(record, start + lay.version_at)[0], lay.top_version)
                   if lay.version_at + 4 <= length else 0)
    if lay.entries is not None:
        first, size, count = lay.entries
        for entry in range(count):
            at = first + size * entry
            if at + 1 > length or shown(record[start + at:start + at + 1]) == ".":
                continue  # an unused entry: IBM's formatter shows no name
            values = reader(name, "struct", min(length - at, size), version)(record, start + at)
            out.rows.append(Row(name, header, values))
        return None
    values = reader(name, "struct", length, version)(record, start)
    if qwhc is not None:
        qwhc_start, qwhc_length = qwhc
        extra = reader(name, "qwhc", qwhc_length, 0)(record, qwhc_start)
        values = [a if a is not None else b for a, b in zip(values, extra, strict=True)]
    for i, kind in _context(name):
        values[i] = index if kind == "index" else correlator
    out.rows.append(Row(name, header, values))
    return values


@cache
def _context(name: str) -> tuple[tuple[int, str], ...]:
    """The positions of a layout's values that come from the context, not the bytes."""
    return tuple((i, f.kind) for i, f in enumerate(layout(name).fields) if f.base == "context")


def _qwhc(record: bytes, qwhs: tuple[int, int, int]) -> tuple[int, int]:
    """Where the QWHC correlation header of a subtype 0 record starts, and its length."""
    at = qwhs[0] + layout("QMAC").qwhc_at
    end = min(qwhs[0] + qwhs[1], len(record))
    return at, max(0, end - at)


def _task(record: bytes, header: Header, sections: list[tuple[int, int, int]],
          out: Decoded) -> None:
    """116 subtypes 1 and 2: the WTAS (subtype 1), the WQs of the queues the task used, then
    the WTID identifying the task, with the correlator that joins them."""
    correlator = bytes(16)
    queues = None
    if header.subtype == 1:
        if len(sections) > 2:
            for start, length in _instances(record, sections, 2, "WTAS", out):
                values = _emit(out, "WTAS", header, record, start, length)
                correlator = bytes(record[start + 8:start + 24])
                count = values[_BLOCK_COUNT] if values is not None else 0
                queues = 3 if count else None
                break
    else:
        queues = 2
    if queues is not None and queues < len(sections):
        for start, length in _instances(record, sections, queues, "WQ", out):
            _emit(out, "WQ", header, record, start, length)
            if start + 32 <= len(record):
                correlator = bytes(record[start + 16:start + 32])
    if len(sections) > 1:
        for start, length in _instances(record, sections, 1, "WTID", out):
            _emit(out, "WTID", header, record, start, length, correlator=correlator)
            break


_BLOCK_COUNT = next(i for i, f in enumerate(layout("WTAS").fields) if f.name == "blockCount")
