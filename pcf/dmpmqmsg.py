"""dmpmqmsg (formerly QLOAD) queue dump files: read them into MQMDs and bytes, and write them.

A dump is text, one record per line: `*` comments, `A <CODE> <value>` descriptor lines, `N`
(a message without descriptor), `X`/`S`/`T` data lines, and a blank line after each message.

Text of `S`/`T` lines and of character descriptor fields stands for bytes one character per
byte (latin-1), so the file helpers read and write latin-1: every byte of the dumping
platform maps to exactly one character and back, so nothing is lost whatever its code page
(a UTF-8 or utf-8/surrogateescape reading would turn some byte runs into one character and
others into surrogates, and the bytes of a data line could no longer be had by one rule).
Lines end at "\\n" only (one "\\r" before it is taken as part of a CRLF line end), so bytes such
as \\x0c or \\x85 inside `S`/`T` text are data, not line breaks.

Reading is lenient where the meaning is clear (version-2 codes in a version-1 descriptor,
`AID`/`AOD` for `AIX`/`AOX`, lower-case hex, fields left out keep the `MQMD()` defaults) and
strict where it is not: every bad line raises `DumpFormatError` naming its line number.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from os import PathLike
from typing import BinaryIO

from pcf.errors import DumpFormatError
from pcf.limits import MAX_DUMP_LINE, MAX_DUMP_MESSAGE, MAX_MESSAGE_LENGTH, describe
from pcf.mqmd import MQMD

TOOL_LINE = "* Dumped by mqroute (dmpmqmsg format)"

# code -> (MQMD field, kind, size). Kinds: "i" decimal MQLONG, "c" characters (MQCHARsize),
# "b" hex bytes (MQBYTEsize), "x" hex of a character field's bytes. Spec order; v2 last.
_CODES: dict[str, tuple[str, str, int]] = {
    "VER": ("version", "i", 4), "RPT": ("report", "i", 4), "MST": ("msg_type", "i", 4),
    "EXP": ("expiry", "i", 4), "FDB": ("feedback", "i", 4), "ENC": ("encoding", "i", 4),
    "CCS": ("coded_char_set_id", "i", 4), "FMT": ("format", "c", 8),
    "PRI": ("priority", "i", 4), "PER": ("persistence", "i", 4), "MSI": ("msg_id", "b", 24),
    "COI": ("correl_id", "b", 24), "BOC": ("backout_count", "i", 4),
    "RTQ": ("reply_to_q", "c", 48), "RTM": ("reply_to_q_mgr", "c", 48),
    "USR": ("user_identifier", "c", 12), "ACC": ("accounting_token", "b", 32),
    "AIX": ("appl_identity_data", "x", 32), "PAT": ("put_appl_type", "i", 4),
    "PAN": ("put_appl_name", "c", 28), "PTD": ("put_date", "c", 8),
    "PTT": ("put_time", "c", 8), "AOX": ("appl_origin_data", "x", 4),
    "GRP": ("group_id", "b", 24), "MSQ": ("msg_seq_number", "i", 4),
    "OFF": ("offset", "i", 4), "MSF": ("msg_flags", "i", 4),
    "ORL": ("original_length", "i", 4),
}
_V2_CODES = frozenset(("GRP", "MSQ", "OFF", "MSF", "ORL"))
_ALIASES = {"AID": ("appl_identity_data", "c", 32), "AOD": ("appl_origin_data", "c", 4)}
_READ_CODES = {**_CODES, **_ALIASES}

_DECIMAL = re.compile(r"([+-]?)0*([0-9]{1,10})")  # more digits cannot fit an MQLONG
_HEX = re.compile(r"(?:[0-9A-Fa-f]{2})*")
_HEADER = re.compile(r"\*\s*(Qmgr|Queue)\s*=(.*)", re.IGNORECASE | re.DOTALL)
_INDEX = re.compile(r"\*\s*Index\s+([0-9]{1,18})\s*", re.IGNORECASE)
#: The header lines dmpmqmsg (QLOAD before it, and mqroute) writes at the top of a dump.
_DUMP_HEADER = re.compile(r"\*\s*(?:QLOAD\b|dmpmqmsg\b|Dumped by\b|Qmgr\s*=|Queue\s*=)",
                          re.IGNORECASE)
_PRINTABLE_RUN = re.compile(rb"[\x20-\x7e]{4,}")
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


@dataclass
class DumpedMessage:
    """One message of a dump: its descriptor (None after an `N` line) and its data."""

    md: MQMD | None
    data: bytes
    line: int = field(default=0, compare=False)
    index: int | None = field(default=None, compare=False)


@dataclass
class DumpFile:
    """A whole dump: the queue manager and queue named in its header, and its messages."""

    qmgr: str | None
    queue: str | None
    messages: list[DumpedMessage]


class _Bad(Exception):
    """A line's fault, before its line number is known to the message."""


class _Message:
    """A message being read: where it started, its descriptor fields and its data."""

    __slots__ = ("data", "fields", "index", "line", "no_md", "size")

    def __init__(self, line: int, index: int | None) -> None:
        self.line = line
        self.index = index
        self.no_md = False
        self.fields: dict[str, object] = {}
        self.data: list[bytes] = []
        self.size = 0

    def add(self, kind: str, value: object) -> None:
        """Take one record: N (no descriptor), A (MQMD field, value) or data bytes."""
        if kind == "N":
            if self.no_md or self.fields or self.data:
                raise _Bad("N line inside a message (a blank line must end the one before)")
            self.no_md = True
        elif kind == "A":
            if self.no_md:
                raise _Bad("descriptor line in a message written without descriptor (N)")
            if self.data:
                raise _Bad("descriptor line after the message's data lines")
            code, name, number = value  # type: ignore[misc]
            if name in self.fields:
                raise _Bad(f"A {code} repeats a descriptor field given before")
            self.fields[name] = number
        else:
            self.size += len(value)  # type: ignore[arg-type]
            if self.size > MAX_MESSAGE_LENGTH:
                raise _Bad(f"message data runs over {describe(MAX_MESSAGE_LENGTH)}, MQ's "
                           f"largest message (MAXMSGL)")
            self.data.append(value)  # type: ignore[arg-type]

    def done(self) -> DumpedMessage:
        """The finished message."""
        md = None if self.no_md else MQMD(**self.fields)  # type: ignore[arg-type]
        return DumpedMessage(md, b"".join(self.data), self.line, self.index)


def _descriptor(text: str) -> tuple[str, str, object]:
    """Parse an `A <CODE> <value>` line into (code, MQMD field, value)."""
    code, sep, value = text[2:5], text[5:6], text[6:]
    if len(code) < 3 or sep not in ("", " "):
        raise _Bad(f"malformed descriptor line {text[:20]!r}")
    if code not in _READ_CODES:
        raise _Bad(f"unknown descriptor code {code!r}")
    name, kind, size = _READ_CODES[code]
    if kind == "i":
        value = value.strip(" \t")
        m = _DECIMAL.fullmatch(value)
        if not m:
            raise _Bad(f"A {code} needs a decimal MQLONG value, not {value[:20]!r}")
        number = int(m.group(1) + m.group(2))
        if not _INT_MIN <= number <= _INT_MAX:
            raise _Bad(f"A {code} value {number} is outside the MQLONG range")
        if code == "VER" and number not in (1, 2):
            raise _Bad(f"A VER {number}: the MQMD version must be 1 or 2")
        return code, name, number
    if kind == "c":
        value = value.split("\x00", 1)[0].rstrip(" ")
        if len(value) > size:
            raise _Bad(f"A {code} value is {len(value)} characters, longer than its {size}")
        return code, name, value
    value = value.strip(" \t")
    if len(value) != 2 * size or not _HEX.fullmatch(value):
        raise _Bad(f"A {code} needs {2 * size} hex digits, not {value[:20]!r}")
    raw = bytes.fromhex(value)
    if kind == "x":
        return code, name, raw.decode("latin-1").split("\x00", 1)[0].rstrip(" ")
    return code, name, raw


def _bytes(text: str) -> bytes:
    """Data text as bytes, one byte per character."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError as exc:
        raise _Bad(f"character {text[exc.start]!r} does not stand for a byte") from None


def _quoted(text: str) -> bytes:
    """The bytes of an `S "..."` line's string (`~` escapes `"` and `~`)."""
    body = text[2:]
    if body[:1] != '"':
        raise _Bad("S line needs a string in double quotes")
    out: list[str] = []
    i, n = 1, len(body)
    while i < n:
        c = body[i]
        if c == "~":
            if i + 1 >= n or body[i + 1] not in '"~':
                raise _Bad('S line has a "~" that escapes neither \'"\' nor "~"')
            out.append(body[i + 1])
            i += 2
        elif c == '"':
            if body[i + 1:].strip(" \t"):
                raise _Bad("S line has text after its closing quote")
            return _bytes("".join(out))
        else:
            out.append(c)
            i += 1
    raise _Bad("S line has no closing quote")


def _hex_line(text: str) -> bytes:
    """The bytes of an `X <hex>` line, ignoring any `<printable>` column."""
    digits = re.sub(r"[ \t]", "", text[2:].split("<", 1)[0])
    if not _HEX.fullmatch(digits):
        raise _Bad(f"X line needs an even number of hex digits, not {digits[:20]!r}")
    return bytes.fromhex(digits)


def _record(text: str) -> tuple[str, object]:
    """A non-blank, non-comment line as (kind, value): N, A or data (D, bytes)."""
    kind = text[0]
    if kind not in "NAXST" or text[1:2] not in ("", " "):
        raise _Bad(f"unrecognised line {text[:20]!r}")
    if kind == "N":
        if text.rstrip(" \t") != "N":
            raise _Bad("N line has text after the N")
        return "N", None
    if kind == "A":
        return "A", _descriptor(text)
    if kind == "X":
        return "D", _hex_line(text)
    if kind == "S":
        return "D", _quoted(text)
    return "D", _bytes(text[2:]) + b"\n"


class TooLong(str):
    """A line of a dump longer than MAX_DUMP_LINE, not kept: `size` says how long it was
    (as far as it was read)."""

    size = 0


def iter_messages(lines: Iterable[str], *, source: str = "<dump>", first_line: int = 1,
                  on_error: Callable[[DumpFormatError], None] | None = None
                  ) -> Iterator[DumpedMessage]:
    """Yield the messages of dump lines one at a time, holding only the current message.

    A bad line raises DumpFormatError; with `on_error`, the error is passed to it instead,
    the message it is in is skipped up to the next blank line, and reading goes on. A
    message whose text runs past MAX_DUMP_MESSAGE characters without a blank line ends the
    reading (with that error): no dump of a message MQ can hold is that long.
    """
    current: _Message | None = None
    pending_index: int | None = None
    skipping = False
    span = 0  # characters since the last blank line
    for lineno, raw in enumerate(lines, first_line):
        span += raw.size if isinstance(raw, TooLong) else len(raw)
        if span > MAX_DUMP_MESSAGE:
            error = DumpFormatError(
                f"no blank line in {describe(MAX_DUMP_MESSAGE)}: longer than the dump of "
                f"any message (MQ's largest is {describe(MAX_MESSAGE_LENGTH)}); the rest is "
                f"not read", line=lineno, source=source)
            if on_error is None:
                raise error
            on_error(error)
            return
        if isinstance(raw, TooLong):
            error = DumpFormatError(f"line longer than {describe(MAX_DUMP_LINE)} (the hex "
                                    f"of MQ's largest message)", line=lineno, source=source)
            if on_error is None:
                raise error
            if not skipping:
                on_error(error)
            current, skipping = None, True
            continue
        text = raw[:-1] if raw.endswith("\n") else raw
        if text.endswith("\r"):
            text = text[:-1]
        if not text.strip(" \t"):
            if current is not None:
                yield current.done()
                current = None
            skipping = False
            span = 0
            continue
        if skipping:
            continue
        if text[0] == "*":
            m = _INDEX.fullmatch(text)
            if m:
                pending_index = int(m.group(1))
            continue
        try:
            kind, value = _record(text)
            if current is None:
                current = _Message(lineno, pending_index)
                pending_index = None
            current.add(kind, value)
        except _Bad as exc:
            error = DumpFormatError(str(exc), line=lineno, source=source)
            if on_error is None:
                raise error from None
            on_error(error)
            current, skipping = None, True
    if current is not None:
        yield current.done()


def is_header_line(line: str) -> bool:
    """True for a line of a dump's header (`* dmpmqmsg Version:...`, `* QLOAD ...`,
    `* Dumped by ...`, `* Qmgr  = ...`, `* Queue = ...`): a file of header lines and no
    message is the dump of an empty queue, a good input holding nothing."""
    return line[:1] == "*" and _DUMP_HEADER.match(line) is not None


def _split(text_or_lines: str | Iterable[str]) -> Iterable[str]:
    return text_or_lines.split("\n") if isinstance(text_or_lines, str) else text_or_lines


def read(text_or_lines: str | Iterable[str], *, source: str = "<dump>") -> DumpFile:
    """Read a whole dump (text or lines), with the Qmgr and Queue of its header comments."""
    header: dict[str, str] = {}

    def watch(lines: Iterable[str]) -> Iterator[str]:
        for line in lines:
            if line.startswith("*"):
                m = _HEADER.fullmatch(line.rstrip("\r\n"))
                if m:
                    header.setdefault(m.group(1).lower(), m.group(2).strip(" \t"))
            yield line

    messages = list(iter_messages(watch(_split(text_or_lines)), source=source))
    return DumpFile(header.get("qmgr"), header.get("queue"), messages)


def stream_lines(stream: BinaryIO, head: bytes = b"", *,
                 max_line: int = MAX_DUMP_LINE) -> Iterator[str]:
    """The lines of a byte stream as latin-1 text, `head` (bytes already read) first.

    A line longer than `max_line` is not kept: it comes as an empty `TooLong` and the
    stream is read on past it in bounded pieces (up to MAX_DUMP_MESSAGE bytes; a longer
    line ends the reading). Nothing is read twice or lost, so this works on pipes and FIFOs.
    """
    *whole, partial = head.split(b"\n")
    readline = stream.readline
    for line in whole:
        if len(line) >= max_line:
            too_long = TooLong()
            too_long.size = len(line) + 1
            yield too_long
        else:
            yield line.decode("latin-1") + "\n"
    first = True
    while True:
        if first:
            line = partial + readline(max(max_line - len(partial), 0) + 1)
            first = False
        else:
            line = readline(max_line + 1)
        if not line:
            return
        if len(line) <= max_line:
            yield line.decode("latin-1")
            continue
        too_long = TooLong()
        too_long.size = len(line)
        while not line.endswith(b"\n") and too_long.size <= MAX_DUMP_MESSAGE:
            line = readline(1 << 20)
            if not line:
                break
            too_long.size += len(line)
        yield too_long
        if too_long.size > MAX_DUMP_MESSAGE:
            return


def _file_lines(path: str | PathLike[str]) -> Iterator[str]:
    with open(path, "rb") as f:
        yield from stream_lines(f)


def iter_stream(stream: BinaryIO, *, source: str = "<dump>", head: bytes = b"",
                on_error: Callable[[DumpFormatError], None] | None = None
                ) -> Iterator[DumpedMessage]:
    """Yield the messages of a dump read from a byte stream (after `head`, already read)."""
    yield from iter_messages(stream_lines(stream, head), source=source, on_error=on_error)


def iter_file(path: str | PathLike[str], *,
              on_error: Callable[[DumpFormatError], None] | None = None
              ) -> Iterator[DumpedMessage]:
    """Yield the messages of a dump file one at a time (latin-1: one character per byte)."""
    yield from iter_messages(_file_lines(path), source=str(path), on_error=on_error)


def read_file(path: str | PathLike[str]) -> DumpFile:
    """Read a whole dump file (latin-1: one character per byte)."""
    return read(_file_lines(path), source=str(path))


def _field_text(md: MQMD, name: str, size: int) -> str:
    value = getattr(md, name)
    if len(value) > size or any(c in value for c in "\x00\r\n"):
        raise ValueError(f"MQMD {name} {value!r} does not fit a {size}-character dump field")
    return value.ljust(size)


def _descriptor_lines(md: MQMD) -> Iterator[str]:
    if md.version not in (1, 2):
        raise ValueError(f"MQMD version {md.version} is not 1 or 2")
    for code, (name, kind, size) in _CODES.items():
        if code in _V2_CODES and md.version < 2:
            continue
        value = getattr(md, name)
        if kind == "i":
            if not _INT_MIN <= value <= _INT_MAX:
                raise ValueError(f"MQMD {name} {value} is outside the MQLONG range")
            yield f"A {code} {value}"
        elif kind == "c":
            yield f"A {code} {_field_text(md, name, size)}"
        else:
            raw = _field_text(md, name, size).encode("latin-1") if kind == "x" else value
            if len(raw) > size:
                raise ValueError(f"MQMD {name} is longer than {size} bytes")
            yield f"A {code} {raw.ljust(size, bytes(1)).hex().upper()}"


def _data_lines(data: bytes, width: int, text: bool) -> Iterator[str]:
    def hex_lines(chunk: bytes) -> Iterator[str]:
        for i in range(0, len(chunk), width):
            yield "X " + chunk[i:i + width].hex().upper()

    if not text:
        yield from hex_lines(data)
        return
    pos = 0
    for m in _PRINTABLE_RUN.finditer(data):
        yield from hex_lines(data[pos:m.start()])
        run = m.group().decode("ascii")
        for i in range(0, len(run), width):
            part = run[i:i + width].replace("~", "~~").replace('"', '~"')
            yield f'S "{part}"'
        pos = m.end()
    yield from hex_lines(data[pos:])


def _dump_lines(messages: Iterable[DumpedMessage], qmgr: str | None, queue: str | None,
                width: int, text: bool) -> Iterator[str]:
    if width < 1:
        raise ValueError(f"width {width} is not a positive number of bytes")
    yield TOOL_LINE
    if qmgr is not None:
        yield f"* Qmgr  = {qmgr}"
    if queue is not None:
        yield f"* Queue = {queue}"
    yield ""
    for message in messages:
        if message.index is not None:
            yield f"* Index {message.index}"
        if message.md is None:
            yield "N"
        else:
            yield from _descriptor_lines(message.md)
        yield from _data_lines(message.data, width, text)
        yield ""


def write(messages: Iterable[DumpedMessage], *, qmgr: str | None = None,
          queue: str | None = None, width: int = 32, text: bool = False) -> str:
    """The dump text of messages: X lines of `width` bytes (with S lines too if `text`)."""
    return "".join(line + "\n" for line in _dump_lines(messages, qmgr, queue, width, text))


def write_file(path: str | PathLike[str], messages: Iterable[DumpedMessage], *,
               qmgr: str | None = None, queue: str | None = None, width: int = 32,
               text: bool = False) -> None:
    """Write a dump file (latin-1, "\\n" line ends), one line at a time."""
    with open(path, "w", encoding="latin-1", newline="\n") as f:
        for line in _dump_lines(messages, qmgr, queue, width, text):
            f.write(line + "\n")
