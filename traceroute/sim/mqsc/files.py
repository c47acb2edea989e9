"""MQSC files read: bounded, UTF-8, each file's default queue manager its stem."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from traceroute.sim.mqsc.apply import Outcome, Session
from traceroute.sim.mqsc.syntax import MQSCError
from traceroute.sim.network import Network


def decode_mqsc(data: bytes, source: str = "<mqsc>") -> str:
    """MQSC bytes as text (UTF-8); MQSCError at the line and column of a byte that is not."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")  # a byte-order mark is no text
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[line_start:e.start].decode("utf-8", "replace")) + 1
        raise MQSCError(f"byte 0x{data[e.start]:02X} is not UTF-8 (MQSC files are read as "
                        "UTF-8: convert the file, e.g. with iconv)", source=source, line=line,
                        column=column) from None


#: The largest MQSC file read (dmpmqcfg of a queue manager with 100,000 objects is ~100 MB).
MAX_MQSC_BYTES = 256 * 1024 * 1024


def _read_bounded(path: Path, limit: int) -> bytes:
    """The file's bytes (also from a FIFO or device); MQSCError past `limit` bytes."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise MQSCError(f"larger than {limit // (1024 * 1024)} MiB: not an MQSC file (or "
                        "split it per queue manager)", source=str(path))
    return data


def read_mqsc(paths: Iterable[str | Path], *, limit: int = MAX_MQSC_BYTES,
              on_error: Callable[[Outcome], None] | None = None,
              on_file: Callable[[str, Session], None] | None = None) -> Network:
    """One network from MQSC files (UTF-8, a byte-order mark ignored); a file's default
    queue manager is its stem. Each command that fails goes to `on_error` and the rest are
    applied (without `on_error` the first failure raises its MQSCError); `on_file(path,
    session)` hears of each file read (its counts, for runmqsc's summary)."""
    network = Network()
    for path in paths:
        path = Path(path)
        text = decode_mqsc(_read_bounded(path, limit), str(path))
        session = Session(network, path.stem.upper())
        for outcome in session.iterate(text, str(path)):
            if not outcome.ok:
                if on_error is None:
                    assert outcome.error is not None
                    raise outcome.error
                on_error(outcome)
        if on_file is not None:
            on_file(str(path), session)
    return network
