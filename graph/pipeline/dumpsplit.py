"""Reading one byte range of a dmpmqmsg dump, so that many tasks share a large dump.

Messages in a dump are separated by blank lines. A range [start, end) owns the messages that
begin after a blank line whose last newline lies in the range (and, for start 0, the first
message of the file); it reads on past `end` to finish its last message. Every message is
owned by exactly one range, whatever the cut points. Files are plain paths or URIs, read
through `graph.pipeline.storage`; a file that cannot be read, or that changed since it was
listed, gives one entry with the error instead of messages. No Spark here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from graph.pipeline import storage
from pcf import dmpmqmsg
from pcf.errors import DumpFormatError
from pcf.mqmd import MQMD

_BLANK = re.compile(rb"\n[ \t]*\r?\n")
_CHUNK = 1 << 20
#: The longest message text a dump can hold: IBM MQ's largest message (100 MB) as hex lines,
#: with room for the header lines. A longer stretch without a blank line is not read whole.
MAX_RECORD_BYTES = 400 << 20


@dataclass(frozen=True, slots=True)
class Split:
    """A byte range of a file."""

    path: str
    start: int
    end: int
    size: int | None = None  # the file's size and time when listed (None: not checked)
    mtime_ns: int | None = None


@dataclass(frozen=True, slots=True)
class DumpEntry:
    """A message read from a range (md and data), or the error that stopped it."""

    source: str
    offset: int
    md: MQMD | None
    data: bytes | None
    error: str | None = None


def splits(files: list[str | storage.Entry], size: int) -> list[Split]:
    """Cut files (paths, URIs, or listed entries) into ranges of about `size` bytes."""
    out = []
    for item in files:
        entry = item if isinstance(item, storage.Entry) else storage.stat(item)
        total = entry.size
        out.extend(Split(entry.uri, s, min(s + size, total), entry.size, entry.mtime_ns)
                   for s in range(0, max(total, 1), size))
    return out


def _records(path: str, start: int, end: int) -> Iterator[tuple[int, bytes | None]]:
    """(offset, bytes) of each blank-line-separated record this range owns.

    The bytes are None for a record longer than MAX_RECORD_BYTES (it is not read whole).
    """
    with storage.open_input(path) as f:
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
        tail = bytearray()
        too_long = False
        while True:
            chunk = f.read(_CHUNK)
            newline = tail.rfind(b"\n")  # a blank line not yet seen begins here or later
            searched = newline if newline >= 0 else len(tail)
            tail += chunk
            m = _BLANK.search(tail, searched)
            if m or not chunk:
                break
            if len(tail) > MAX_RECORD_BYTES:
                too_long = True
                break
        if too_long:
            begins_done = begins[:-1]
            if begins_done:
                f.seek(begins_done[0])
                region = f.read(tail_from - begins_done[0])
                for i, b in enumerate(begins_done):
                    hi = (begins_done[i + 1] if i + 1 < len(begins_done) else tail_from)
                    yield b, region[b - begins_done[0]:hi - begins_done[0]]
            yield tail_from, None
            return
        f.seek(begins[0])
        region = f.read(tail_from - begins[0]) + bytes(tail)
        for i, b in enumerate(begins):
            lo = b - begins[0]
            if i + 1 < len(begins):
                hi = begins[i + 1] - begins[0]
            else:
                m = _BLANK.search(region, lo)
                hi = m.start() + 1 if m else len(region)
            yield b, region[lo:hi]


def _changed(split: Split) -> str | None:
    """Why the file is not the one that was listed (or cannot be found now), or None."""
    if split.size is None:
        return None
    now = storage.stat(split.path)
    if now.size != split.size:
        return f"changed since it was listed (size {split.size} -> {now.size} bytes)"
    if split.mtime_ns is not None and now.mtime_ns is not None and now.mtime_ns != split.mtime_ns:
        return "changed since it was listed (modification time differs)"
    return None


def read_range(split: Split) -> Iterator[DumpEntry]:
    """The messages of one range of a dump, or an entry with the error that spoiled one."""
    offset = split.start
    try:
        changed = _changed(split)
        if changed is not None:
            if split.start == 0:  # one error per file, from its first range
                yield DumpEntry(split.path, 0, None, None, f"{split.path}: {changed}")
            return
        for offset, raw in _records(split.path, split.start, split.end):
            yield from _messages(split, offset, raw)
    except storage.StorageError as e:
        if split.start == 0 or offset != split.start:
            yield DumpEntry(split.path, offset, None, None, str(e))
    except OSError as e:
        yield DumpEntry(split.path, offset, None, None,
                        f"{split.path}: reading at byte {offset}: {storage.reason(e)}")


def _messages(split: Split, offset: int, raw: bytes | None) -> Iterator[DumpEntry]:
    """The messages of one record (blank-line-separated text) at `offset`."""
    if raw is None:
        yield DumpEntry(split.path, offset, None, None,
                        f"the message at byte {offset} runs on for more than "
                        f"{MAX_RECORD_BYTES} bytes without a blank line (larger than any "
                        "IBM MQ message in a dump); not read")
        return
    lines = raw.decode("latin-1").split("\n")
    errors: list[DumpFormatError] = []
    messages = list(dmpmqmsg.iter_messages(lines, source=split.path, on_error=errors.append))
    for e in errors:
        yield DumpEntry(split.path, offset, None, None,
                        f"line {e.line} of the message at byte {offset}: {e.reason}")
    for m in messages:
        yield DumpEntry(split.path, offset, m.md, m.data)
