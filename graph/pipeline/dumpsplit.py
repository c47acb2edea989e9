"""Reading one byte range of a dmpmqmsg dump, so that many tasks share a large dump.

Messages in a dump are separated by blank lines. A range [start, end) owns the messages that
begin after a blank line whose last newline lies in the range (and, for start 0, the first
message of the file); it reads on past `end` to finish its last message. Every message is
owned by exactly one range, whatever the cut points. No Spark here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

from pcf import dmpmqmsg
from pcf.errors import DumpFormatError
from pcf.mqmd import MQMD

_BLANK = re.compile(rb"\n[ \t]*\r?\n")
_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class Split:
    """A byte range of a file."""

    path: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class DumpEntry:
    """A message read from a range (md and data), or the error that stopped it."""

    source: str
    offset: int
    md: MQMD | None
    data: bytes | None
    error: str | None = None


def splits(paths: list[str], size: int) -> list[Split]:
    """Cut files into ranges of about `size` bytes."""
    out = []
    for path in paths:
        total = os.path.getsize(path)
        out.extend(Split(path, s, min(s + size, total)) for s in range(0, max(total, 1), size))
    return out


def _records(path: str, start: int, end: int) -> Iterator[tuple[int, bytes]]:
    """(offset, bytes) of each blank-line-separated record this range owns."""
    with open(path, "rb") as f:
        base = max(0, start - 2)
        f.seek(base)
        buf = f.read(max(end - base, 0) + 2)
        begins = [0] if start == 0 else []
        begins += [m.end() + base for m in _BLANK.finditer(buf)
                   if start <= m.end() - 1 + base < end]
        if not begins:
            return
        # read on until the record after the last owned start is closed
        tail_from = begins[-1]
        f.seek(tail_from)
        tail = b""
        while True:
            chunk = f.read(_CHUNK)
            tail += chunk
            m = _BLANK.search(tail)
            if m or not chunk:
                break
        f.seek(begins[0])
        region = f.read(tail_from - begins[0]) + tail
        for i, b in enumerate(begins):
            lo = b - begins[0]
            if i + 1 < len(begins):
                hi = begins[i + 1] - begins[0]
            else:
                m = _BLANK.search(region, lo)
                hi = m.start() + 1 if m else len(region)
            yield b, region[lo:hi]


def read_range(split: Split) -> Iterator[DumpEntry]:
    """The messages of one range of a dump, or an entry with the error that spoiled one."""
    for offset, raw in _records(split.path, split.start, split.end):
        lines = raw.decode("latin-1").split("\n")
        errors: list[DumpFormatError] = []
        messages = list(dmpmqmsg.iter_messages(lines, source=split.path, on_error=errors.append))
        for e in errors:
            yield DumpEntry(split.path, offset, None, None,
                            f"line {e.line} of the message at byte {offset}: {e.reason}")
        for m in messages:
            yield DumpEntry(split.path, offset, m.md, m.data)
