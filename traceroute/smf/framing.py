"""SMF data sets as downloaded from z/OS in binary: the stream of records, one by one.

IFASMFDP/IFASMFDL write variable-length records. Transferred with their RDW (record
descriptor word: a 2-byte length that counts itself, a segment flag byte, a zero byte) each
record frames itself; a record longer than a block is spanned: a first segment (flag 1),
middle ones (3) and a last one (2), each with its own RDW, joined here. Transferred without
RDWs (`rdw=False`), an MQ record's length is where its last self-defining section ends, and a
dump header or trailer (types 2, 3) is the SMF header alone.

Frames always start with an RDW (made up when the data set has none) so that offsets inside a
record are those of IBM's documentation. A bad spot is reported with its byte offset and
reading goes on at the next record found after it.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

#: The largest record we join (z/OS writes at most 32,756 bytes per record).
MAX_RECORD = 1 << 20
#: The smallest record (RDW, flag, type, time, date, system id).
MIN_RECORD = 18
#: How far past a bad spot we look for the next record before giving up on the file.
RESYNC_WINDOW = 1 << 22
_CHUNK = 1 << 20
_RDW = struct.Struct(">HBB")
_TRIPLET = struct.Struct(">IHH")
COMPLETE, FIRST, LAST, MIDDLE = 0, 1, 2, 3
#: A record start: RDW (length < 32 KiB, complete or first segment), flag, type 2, 3, 115, 116.
_START_RDW = re.compile(rb"(?=[\x00-\x7f][\x00-\xff][\x00\x01]\x00[\x00-\xff][\x02\x03\x73\x74])",
                        re.S)
#: A record start without RDW: flag with "subtypes valid", type 115 or 116.
_START_BARE = re.compile(rb"(?=[\x40-\x7f\xc0-\xff][\x73\x74])", re.S)


@dataclass(frozen=True, slots=True)
class Frame:
    """One whole record: where its (first) RDW is in the data set, its bytes from the RDW on."""

    offset: int
    data: bytes


@dataclass(frozen=True, slots=True)
class FrameProblem:
    """A bad spot in the data set: its byte offset and what is wrong."""

    offset: int
    reason: str


def _valid_date(raw: bytes) -> bool:
    """The SMF date X'0cyydddF': century digit 0 or 1, decimal digits, sign nibble F."""
    if len(raw) < 4 or raw[0] > 0x01 or raw[3] & 0x0F != 0x0F:
        return False
    digits = raw.hex()[2:7]
    return digits.isdigit() and 1 <= int(digits[2:5]) <= 366


class _Buffer:
    """A window on the stream: bytes from `offset` on, read in chunks as needed."""

    def __init__(self, stream: BinaryIO, offset: int) -> None:
        self.stream = stream
        self.data = b""
        self.pos = 0
        self.base = offset  # the stream offset of data[0]
        self.eof = False

    @property
    def offset(self) -> int:
        return self.base + self.pos

    def need(self, n: int) -> bool:
        """True when n bytes are available from the current position."""
        while len(self.data) - self.pos < n and not self.eof:
            chunk = self.stream.read(max(_CHUNK, n))
            if not chunk:
                self.eof = True
                break
            self.data = self.data[self.pos:] + chunk
            self.base += self.pos
            self.pos = 0
        return len(self.data) - self.pos >= n

    def take(self, n: int) -> bytes:
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def remaining(self) -> int:
        self.need(_CHUNK)
        return len(self.data) - self.pos

    def find(self, pattern: re.Pattern, check) -> bool:
        """Move to the next position (after the current one) where `pattern` matches and
        check(buffer) accepts; False (at the end) when none within RESYNC_WINDOW."""
        start = self.offset
        self.pos += 1
        while self.offset - start < RESYNC_WINDOW:
            self.need(_CHUNK)
            for match in pattern.finditer(self.data, self.pos):
                self.pos = match.start()
                if self.offset - start >= RESYNC_WINDOW:
                    return False
                if check(self):
                    return True
            if self.eof:
                self.pos = len(self.data)
                return False
            self.pos = max(self.pos, len(self.data) - 64)
            if not self.need(len(self.data) - self.pos + 1):
                self.pos = len(self.data)
                return False
        return False


def frames(stream: BinaryIO, *, rdw: bool = True, offset: int = 0,
           end: int | None = None) -> Iterator[Frame | FrameProblem]:
    """The records of an SMF data set read from `stream` (positioned at byte `offset` of the
    data set, a record start), up to the first record starting at or after `end`."""
    buf = _Buffer(stream, offset)
    read = _with_rdw if rdw else _without_rdw
    yield from read(buf, end)


def _plausible_rdw(buf: _Buffer) -> bool:
    if not buf.need(MIN_RECORD):
        return False
    length, flag, zero = _RDW.unpack_from(buf.data, buf.pos)
    return (length >= MIN_RECORD and flag in (COMPLETE, FIRST) and zero == 0
            and _valid_date(buf.data[buf.pos + 10:buf.pos + 14]))


def _resync(buf: _Buffer, at: int, reason: str, pattern: re.Pattern,
            check) -> Iterator[FrameProblem]:
    if buf.find(pattern, check):
        yield FrameProblem(at, f"{reason}; {buf.offset - at} bytes skipped to the next record "
                               f"at offset {buf.offset}")
    else:
        left = buf.offset - at
        yield FrameProblem(at, f"{reason}; no further record found"
                               + (f" ({left} bytes skipped)" if left > 1 else ""))


def _with_rdw(buf: _Buffer, end: int | None) -> Iterator[Frame | FrameProblem]:
    first = True
    while end is None or buf.offset < end:
        at = buf.offset
        if not buf.need(4):
            left = buf.remaining()
            if left:
                yield FrameProblem(at, f"{left} bytes at the end are not a whole record "
                                       f"descriptor word")
            return
        length, flag, zero = _RDW.unpack_from(buf.data, buf.pos)
        if first and not _plausible_rdw(buf):
            bare = buf.need(10) and _valid_date(buf.data[buf.pos + 6:buf.pos + 10])
            yield FrameProblem(at, "not an SMF data set with record descriptor words ("
                                   + ("it starts like one transferred without them: use "
                                      "--no-rdw" if bare else
                                      f"no RDW and SMF header at its start (bytes "
                                      f"{buf.data[buf.pos:buf.pos + 4].hex()}); if it was "
                                      f"transferred without RDWs use --no-rdw") + ")")
            return
        if length < 4 or zero != 0 or flag not in (COMPLETE, FIRST) or (
                length < MIN_RECORD and flag == COMPLETE):
            what = ("a continuation segment with no first segment" if flag in (LAST, MIDDLE)
                    and zero == 0 and length >= 4 else f"wrong RDW "
                    f"{buf.data[buf.pos:buf.pos + 4].hex()} (length {length}, flags {flag})")
            yield from _resync(buf, at, what, _START_RDW, _plausible_rdw)
            continue
        if not buf.need(length):
            yield FrameProblem(at, f"record cut short: its RDW says {length} bytes, "
                                   f"{buf.remaining()} remain")
            return
        first = False
        record = buf.take(length)
        if flag == COMPLETE:
            yield Frame(at, record)
            continue
        joined = _join(buf, at, record)
        if isinstance(joined, FrameProblem):
            yield joined
        else:
            yield Frame(at, joined)


def _join(buf: _Buffer, at: int, first: bytes) -> bytes | FrameProblem:
    """A spanned record's first segment joined with its middle and last ones."""
    pieces = [first]
    total = len(first)
    while True:
        here = buf.offset
        if not buf.need(4):
            return FrameProblem(at, f"spanned record cut short: no last segment after "
                                    f"{total} bytes")
        length, flag, zero = _RDW.unpack_from(buf.data, buf.pos)
        if flag not in (MIDDLE, LAST) or zero != 0 or length < 4:
            return FrameProblem(at, f"spanned record without its last segment: the segment "
                                    f"at offset {here} (RDW {buf.data[buf.pos:buf.pos + 4].hex()}) "
                                    f"does not continue it; {total} bytes dropped")
        if not buf.need(length):
            return FrameProblem(here, f"record cut short: the segment's RDW says {length} "
                                      f"bytes, {buf.remaining()} remain")
        total += length - 4
        if total > MAX_RECORD:
            return FrameProblem(at, f"spanned record longer than {MAX_RECORD} bytes")
        pieces.append(buf.take(length)[4:])
        if flag == LAST:
            record = b"".join(pieces)
            return struct.pack(">HH", min(len(record), 0xFFFF), 0) + record[4:]


def _bare_length(buf: _Buffer) -> int | None:
    """The length of a record without RDW at the buffer's position, or None when unknown."""
    data, pos = buf.data, buf.pos
    rtype = data[pos + 1]
    if rtype in (2, 3):
        return 24 if data[pos] & 0x40 else 14
    if rtype not in (115, 116) or not buf.need(36):
        return None
    data, pos = buf.data, buf.pos
    qwhs_at, qwhs_length, _ = _TRIPLET.unpack_from(data, pos + 24)
    count = 2
    if qwhs_length != 4 and qwhs_at >= 32 and buf.need(qwhs_at - 4 + 8):
        data, pos = buf.data, buf.pos
        if struct.unpack_from(">h", data, pos + qwhs_at - 4)[0] > 1:
            count = data[pos + qwhs_at - 4 + 6]
    if not buf.need(24 + 8 * count):
        return None
    data, pos = buf.data, buf.pos
    end = 28
    for i in range(count):
        offset, length, number = _TRIPLET.unpack_from(data, pos + 24 + 8 * i)
        if offset and number:
            end = max(end, offset + length * number)
    return end - 4


def _plausible_bare(buf: _Buffer) -> bool:
    return buf.need(10) and _valid_date(buf.data[buf.pos + 6:buf.pos + 10])


def _without_rdw(buf: _Buffer, end: int | None) -> Iterator[Frame | FrameProblem]:
    first = True
    while end is None or buf.offset < end:
        at = buf.offset
        if not buf.need(1):
            return
        if not _plausible_bare(buf):
            if first:
                yield FrameProblem(at, "not an SMF data set (no SMF record header at its "
                                       "start)")
                return
            if not buf.need(10):
                yield FrameProblem(at, f"{buf.remaining()} bytes at the end are not a whole "
                                       f"SMF record")
                return
            yield from _resync(buf, at, "no SMF record header here", _START_BARE,
                               _plausible_bare)
            continue
        length = _bare_length(buf)
        if length is None or length < MIN_RECORD - 4 or length > MAX_RECORD:
            rtype = buf.data[buf.pos + 1]
            yield from _resync(buf, at, f"a type {rtype} record, whose length is unknown "
                                        f"without its RDW", _START_BARE, _plausible_bare)
            continue
        if not buf.need(length):
            yield FrameProblem(at, f"record cut short: its sections end at {length} bytes, "
                                   f"{buf.remaining()} remain")
            return
        first = False
        body = buf.take(length)
        yield Frame(at, struct.pack(">HH", min(length + 4, 0xFFFF), 0) + body)
