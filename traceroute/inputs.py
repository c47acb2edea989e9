"""Where messages come from on the command line: dmpmqmsg dumps and raw PCF files."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pcf import dmpmqmsg
from pcf.mqmd import MQMD


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


def read_messages(path: str | Path) -> Iterator[InputMessage]:
    """Every message of a dmpmqmsg dump, or the one message of a raw PCF file."""
    path = Path(path)
    with path.open("rb") as f:
        head = f.read(512)
    if looks_binary(head):
        yield InputMessage(None, path.read_bytes(), str(path))
        return
    for m in dmpmqmsg.iter_file(path):
        yield InputMessage(m.md, m.data, str(path), m.line)
