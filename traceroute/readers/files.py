"""Where messages come from on the command line: dmpmqmsg dumps and raw PCF files."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pcf import dmpmqmsg
from pcf.errors import DumpFormatError, PCFError
from pcf.mqmd import MQMD
from traceroute.records.parse import NotActivityData, Record, parse_message

#: Called with (where, what went wrong) for input that is skipped.
Problem = Callable[[str, str], None]


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


def looks_binary(head: bytes) -> bool:
    """True for raw message bytes rather than a dmpmqmsg text dump."""
    return b"\x00" in head or head[:4] in (b"EPH ", b"\xc5\xd7\xc8\x40")


def read_messages(path: str | Path, *,
                  on_error: Callable[[DumpFormatError], None] | None = None
                  ) -> Iterator[InputMessage]:
    """Every message of a dmpmqmsg dump, or the one message of a raw PCF file."""
    path = Path(path)
    with path.open("rb") as f:
        head = f.read(512)
    if looks_binary(head):
        yield InputMessage(None, path.read_bytes(), str(path))
        return
    for m in dmpmqmsg.iter_file(path, on_error=on_error):
        yield InputMessage(m.md, m.data, str(path), m.line)


def load_records(paths: Iterable[str | Path], problem: Problem) -> Iterator[Record]:
    """The activity records of every file; what cannot be read goes to `problem`, not lost."""
    for path in paths:
        def dump_error(e: DumpFormatError) -> None:
            problem(f"{e.source}, line {e.line}", e.reason)

        for item in read_messages(path, on_error=dump_error):
            try:
                yield parse_message(item.md, item.data, source=item.source, line=item.line)
            except PCFError as e:
                problem(item.where, str(e))
            except NotActivityData as e:
                problem(item.where, f"skipped: {e}")
