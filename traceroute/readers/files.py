"""Where messages come from on the command line: dmpmqmsg dumps and raw PCF files.

Every read is bounded by MQ's own limits (`pcf.limits`): a raw message file holds at most
one message of 100 MB, a dump line at most a message's hex. Files are streamed and read
once, so `-` (standard input), pipes and FIFOs work and no byte is lost to format sniffing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from pcf import dmpmqmsg
from pcf.errors import DumpFormatError, InputError, PCFError
from pcf.limits import MAX_MESSAGE_LENGTH, describe
from pcf.mqmd import MQMD
from traceroute.records.parse import NotActivityData, Record, parse_message

#: Called with (where, what went wrong) for input that is skipped.
Problem = Callable[[str, str], None]
#: The path that stands for standard input.
STDIN = "-"
#: Bytes read to tell a raw message from a dump.
HEAD = 512


@dataclass(slots=True)
class InputMessage:
    """One message read from a file: its descriptor (if any), its data, and where it was."""

    md: MQMD | None
    data: bytes
    source: str
    line: int | None = None

    @property
    def where(self) -> str:
        """'file, line N' or just the file."""
        return f"{self.source}, line {self.line}" if self.line else self.source

    @property
    def place(self) -> str:
        """'FILE:LINE' or just the file, as error messages name places."""
        return f"{self.source}:{self.line}" if self.line else self.source


def looks_binary(head: bytes) -> bool:
    """True for raw message bytes rather than a dmpmqmsg text dump."""
    return b"\x00" in head or head[:4] in (b"EPH ", b"\xc5\xd7\xc8\x40")


def source_name(path: str | Path) -> str:
    """How an input is named in messages: the path, or <stdin> for `-`."""
    return "<stdin>" if str(path) == STDIN else str(path)


#: Opens an input by name as a binary stream (e.g. a URI through a storage layer).
Opener = Callable[[str], BinaryIO]


@contextmanager
def _opened(path: str | Path, opener: Opener | None = None) -> Iterator[BinaryIO]:
    if str(path) == STDIN:
        yield sys.stdin.buffer
        return
    with (opener(str(path)) if opener else open(path, "rb")) as f:
        yield f


def _read(stream: BinaryIO, size: int) -> bytes:
    """Up to `size` bytes, however the stream (a pipe) hands them out."""
    parts: list[bytes] = []
    while size > 0:
        part = stream.read(size)
        if not part:
            break
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def read_messages(path: str | Path, *,
                  on_error: Callable[[DumpFormatError], None] | None = None,
                  opener: Opener | None = None) -> Iterator[InputMessage]:
    """Every message of a dmpmqmsg dump, or the one message of a raw PCF file (`-`: stdin).

    A dump header with no message (dmpmqmsg of an empty queue) is a good input holding
    nothing. A file that cannot be read as a whole (missing, empty, text that is not a dump,
    a raw message over MQ's 100 MB limit) raises `pcf.errors.InputError`, an OSError naming
    it; bad dump lines go to
    `on_error` (or raise DumpFormatError) and the rest of the dump is still read. `opener`
    opens `path` when it is not a local file (a URI).
    """
    source = source_name(path)
    errors = 0

    def counted(e: DumpFormatError) -> None:
        nonlocal errors
        errors += 1
        if on_error is None:
            raise e
        on_error(e)

    try:
        with _opened(path, opener) as f:
            head = _read(f, HEAD)
            if not head:
                raise InputError("empty: no messages in it", source=source)
            if looks_binary(head):
                data = head + _read(f, MAX_MESSAGE_LENGTH + 1 - len(head))
                if len(data) > MAX_MESSAGE_LENGTH:
                    raise InputError(f"a raw message file over {describe(MAX_MESSAGE_LENGTH)}, "
                                     f"MQ's largest message (MAXMSGL): not read",
                                     source=source, offset=MAX_MESSAGE_LENGTH)
                yield InputMessage(None, data, source)
                return
            count = 0
            header = False

            def watched(lines: Iterable[str]) -> Iterator[str]:
                nonlocal header
                for line in lines:
                    if not header and dmpmqmsg.is_header_line(line):
                        header = True
                    yield line

            lines = watched(dmpmqmsg.stream_lines(f, head))
            for m in dmpmqmsg.iter_messages(lines, source=source, on_error=counted):
                count += 1
                yield InputMessage(m.md, m.data, source, m.line)
            if not count and not errors and not header:
                # a dump's header and no message is an empty queue's dump: it holds nothing
                raise InputError("no messages in it (not a dmpmqmsg dump?)", source=source)
    except InputError:
        raise
    except OSError as e:
        raise InputError(e.strerror or str(e), source=source) from None


def load_records(paths: Iterable[str | Path], problem: Problem) -> Iterator[Record]:
    """The activity records of every file; what cannot be read goes to `problem`, not lost.

    Each input is read on its own: one that is missing or unreadable is reported and the
    others are still read.
    """
    for path in paths:
        def dump_error(e: DumpFormatError) -> None:
            problem(f"{e.source}:{e.line}", e.reason)

        try:
            for item in read_messages(path, on_error=dump_error):
                try:
                    yield parse_message(item.md, item.data, source=item.source, line=item.line)
                except PCFError as e:
                    problem(item.place, str(e))
                except NotActivityData as e:
                    problem(item.place, f"skipped: {e}")
        except InputError as e:
            problem(e.source if e.offset is None else f"{e.source}:offset {e.offset}",
                    e.reason)
