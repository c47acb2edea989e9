"""SMF data sets from files: every MQ structure's row, every bad spot named with its offset.

`read_smf` frames a data set (`traceroute.smf.frames`), decodes each record and reports each
problem as (`FILE:offset N`, reason), N the byte offset of the record (or bad spot) in the
file; what follows a bad spot is still read. `SMFCounts` tells what was read.
"""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from traceroute.readers.files import STDIN, source_name
from traceroute.smf import FrameProblem, Row, decode_record, frames

Problem = Callable[[str, str], None]
_BUFFER = 1 << 20


@dataclass
class SMFCounts:
    """What was read: records by (type, subtype), records skipped by kind, rows by
    structure, bytes read."""

    records: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)
    rows: Counter = field(default_factory=Counter)
    bytes: int = 0

    def summary(self) -> str:
        """One line: how many records and rows, and what was skipped."""
        decoded = sum(self.records.values())
        parts = [f"{decoded} MQ SMF records, {sum(self.rows.values())} rows"]
        if self.skipped:
            parts.append("skipped " + ", ".join(
                f"{n} record{'s' if n != 1 else ''} of {what}"
                for what, n in sorted(self.skipped.items())))
        return "; ".join(parts)


@contextlib.contextmanager
def _opened(path: str | Path) -> Iterator[BinaryIO]:
    if str(path) == STDIN:
        yield sys.stdin.buffer
        return
    with open(path, "rb", buffering=_BUFFER) as f:
        yield f


def smf_rows(stream: BinaryIO, source: str, problem: Problem, *, rdw: bool = True,
             counts: SMFCounts | None = None, offset: int = 0,
             end: int | None = None) -> Iterator[Row]:
    """The rows of the SMF records read from `stream` (a data set from byte `offset`, up to the
    first record starting at or after `end`); problems go to problem(where, reason)."""
    counts = counts if counts is not None else SMFCounts()
    empty = True
    for frame in frames(stream, rdw=rdw, offset=offset, end=end):
        empty = False
        if isinstance(frame, FrameProblem):
            problem(f"{source}:offset {frame.offset}", frame.reason)
            continue
        counts.bytes += len(frame.data)
        decoded = decode_record(frame.data)
        for at, reason in decoded.problems:
            problem(f"{source}:offset {frame.offset}",
                    f"SMF {frame.data[5]} record: {reason} (at byte {at} of the record)")
        if decoded.skipped:
            counts.skipped[decoded.skipped] += 1
            continue
        if decoded.key is not None:
            counts.records[decoded.key] += 1
        for row in decoded.rows:
            counts.rows[row.structure] += 1
            yield row
    if empty and offset == 0:  # an empty file, as every other reader says
        problem(source, "empty: no SMF records in it")


def read_smf(paths: Iterable[str | Path], problem: Problem, *, rdw: bool = True,
             counts: SMFCounts | None = None) -> Iterator[Row]:
    """The rows of every SMF data set of `paths` (`-`: standard input); a file that cannot be
    opened is reported and the others still read."""
    for path in paths:
        source = source_name(path)
        try:
            with _opened(path) as f:
                yield from smf_rows(f, source, problem, rdw=rdw, counts=counts)
        except OSError as e:
            problem(source, e.strerror or str(e))


def smf_kind(head: bytes) -> str | None:
    """"rdw" when the bytes start like an SMF data set with RDWs, "bare" like one transferred
    without them (an SMF header: flag, type 2, 3, 115 or 116, time, packed date), else None."""
    if looks_smf(head):
        return "rdw"
    if len(head) >= 10 and head[1] in (2, 3, 115, 116) and _packed_date(head[6:10]):
        return "bare"
    return None


def _packed_date(date: bytes) -> bool:
    digits = date.hex()
    return date[0] <= 1 and digits[7] == "f" and digits[2:7].isdigit() \
        and 1 <= int(digits[4:7]) <= 366


def looks_smf(head: bytes) -> bool:
    """True when the bytes start like an SMF data set with RDWs: a record descriptor word
    (length at least 18, complete or first segment), then an SMF header whose date is packed
    decimal X'0cyydddF'."""
    if len(head) < 14 or head[2] not in (0, 1) or head[3] != 0:
        return False
    length = int.from_bytes(head[:2], "big")
    return length >= 18 and _packed_date(head[10:14])

