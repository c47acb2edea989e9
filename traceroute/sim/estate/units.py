"""Units of work on an estate folder: gets under syncpoint that outlive one command's lock.

A live reader (`traceroute.sim.estate.transport.EstateTransport`) gets messages under
syncpoint, as an MQ application does: a got message leaves its queue at once (no other
reader sees it) but is not gone until the reader commits. The estate keeps such messages
in the reader's unit of work, a file beside the queue manager's:

    DIR/QMGR/uow/<token>.json     the messages got and not yet committed, in order:
                                  {"format": ..., "messages": [{"queue", "put", "dump"}]}
    DIR/QMGR/uow/<token>.lock     held (fcntl.flock) by the reader while it lives (made
                                  under another name, locked, then renamed into place)

The unit's file is written in the same all-or-nothing save that takes the messages off
their queues, so a message is always either on its queue or in a unit of work. Committing
rewrites (or removes) the unit's file; backing out puts its messages back at the head of
their queues, in their order. A reader that dies (SIGKILL, a crash) leaves its unit with a
lock nobody holds: the next command that opens the estate backs it out (`recover`), as a
queue manager backs out the unit of work of a broken connection, and ends the reader's
connection (its MQDISC: kind 'reader', name the token, in the estate's connections).
Nothing is lost.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from pcf.dmpmqmsg import DumpedMessage, read, write
from pcf.mqmd import MQMD
from traceroute.sim.estate.folder import _fsync_dir, file_name
from traceroute.sim.simulator import Simulator, Stored

FORMAT = "mqroute unit of work"
UOW = "uow"
#: The estate's name for a live reader's connection between its visits.
READER_KIND = "reader"

__all__ = ["FORMAT", "READER_KIND", "UOW", "Entry", "Unit", "recover", "restore"]


@dataclass
class Entry:
    """One message got under syncpoint: its queue, put time (estate seconds), message."""

    queue: str
    put_at: float
    md: MQMD
    data: bytes
    returned: bool = False   # handed to the reader (commit makes it final)


def _lock(fd: int) -> bool:
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def unit_text(entries: list[Entry]) -> str:
    """The unit's file."""
    items = [{"queue": e.queue, "put": e.put_at,
              "dump": write([DumpedMessage(e.md, e.data)], text=True)} for e in entries]
    return json.dumps({"format": FORMAT, "messages": items}, indent=1) + "\n"


def read_unit(text: str, where: str) -> list[Entry]:
    """The entries of a unit's file (ValueError naming it when it is not one)."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{where}: not a unit of work")
    out = []
    for n, item in enumerate(data.get("messages") or [], 1):
        dump = read(str(item["dump"]), source=f"{where} message {n}")
        for m in dump.messages:
            out.append(Entry(str(item["queue"]), float(item.get("put") or 0.0),
                             m.md or MQMD(), m.data))
    return out


class Unit:
    """A live reader's unit of work on one queue manager of an estate folder."""

    def __init__(self, path: str | os.PathLike[str], qmgr: str) -> None:
        self.qmgr = qmgr
        self.token = f"{os.getpid()}-{secrets.token_hex(4)}"
        base = Path(path) / file_name(qmgr) / UOW
        base.mkdir(parents=True, exist_ok=True)
        self.relative = f"{file_name(qmgr)}/{UOW}/{self.token}.json"
        self.file = Path(path) / self.relative
        self.lock_file = base / f"{self.token}.lock"
        making = base / f"{self.token}.locking"  # locked before it has its name
        self._fd = os.open(making, os.O_RDWR | os.O_CREAT, 0o644)
        _lock(self._fd)
        os.replace(making, self.lock_file)
        self.entries: list[Entry] = []
        self.written = False   # the unit's file exists

    def add(self, queue: str, stored: Stored) -> Entry:
        """A message got under syncpoint (not yet returned to the reader)."""
        entry = Entry(queue, stored.put_at, stored.md, stored.data)
        self.entries.append(entry)
        return entry

    def stage(self, folder) -> None:
        """Stage the unit's file (or its removal) in the estate's next save."""
        if self.entries:
            folder.stage(self.relative, unit_text(self.entries))
            self.written = True
        elif self.written:
            folder.remove(self.relative)
            self.written = False

    def commit(self) -> int:
        """Make the returned messages final: the unit keeps only the others. How many."""
        done = [e for e in self.entries if e.returned]
        if not done:
            return 0
        self.entries = [e for e in self.entries if not e.returned]
        if self.entries:
            temporary = self.file.with_name(f"{self.file.name}.tmp-{os.getpid()}")
            with open(temporary, "w", encoding="utf-8") as f:
                f.write(unit_text(self.entries))
                f.flush()
                os.fsync(f.fileno())
            os.replace(temporary, self.file)
        else:
            with contextlib.suppress(FileNotFoundError):
                self.file.unlink()
            self.written = False
        _fsync_dir(self.file.parent)
        return len(done)

    def close(self) -> None:
        """Release the lock (the unit must be empty or backed out first)."""
        if self._fd >= 0:
            with contextlib.suppress(FileNotFoundError):
                self.lock_file.unlink()
            os.close(self._fd)
            self._fd = -1


def restore(sim: Simulator, qmgr: str, entries: list[Entry]) -> list[Entry]:
    """Put messages back at the head of their queues, each queue's in their old order;
    the entries whose queue is no longer defined (kept by the caller, not lost)."""
    qm = sim.network.qmgrs.get(qmgr)
    kept: list[Entry] = []
    for entry in reversed(entries):
        if qm is None or entry.queue not in qm.queues:
            kept.insert(0, entry)
            continue
        sim.queues.setdefault((qmgr, entry.queue), deque()).appendleft(
            Stored(entry.md, entry.data, entry.put_at))
    return kept


def recover(estate) -> int:
    """Back out the units of work of readers that died and end their connections; how many
    messages went back."""
    back = 0
    for qmgr in list(estate.sim.network.qmgrs):
        folder = estate.path / file_name(qmgr) / UOW
        if not folder.is_dir():
            continue
        tokens = {p.stem for p in folder.glob("*.json")} | {p.stem for p in folder.glob("*.lock")}
        for token in sorted(tokens):
            unit, lock = folder / f"{token}.json", folder / f"{token}.lock"
            fd = None
            if lock.exists():
                try:
                    fd = os.open(lock, os.O_RDWR)
                except FileNotFoundError:
                    pass  # its reader closed it just now
                else:
                    if not _lock(fd):
                        os.close(fd)
                        continue  # its reader lives
            if unit.exists():
                back += _back_out(estate, qmgr, unit)
            for kind, name, conn in estate.sim.connection_table():
                if kind == READER_KIND and name == token and conn.qmgr == qmgr:
                    estate.sim.disconnect(conn)  # the broken connection ends
            if fd is not None:
                with contextlib.suppress(FileNotFoundError):
                    lock.unlink()
                os.close(fd)
        for stray in [*folder.glob("*.tmp-*"), *folder.glob("*.locking")]:
            owner = stray.name.rsplit("-", 1)[-1] if ".tmp-" in stray.name \
                else stray.name.split("-", 1)[0]
            if owner.isdigit() and not _alive(int(owner)):
                stray.unlink(missing_ok=True)
    return back


def _back_out(estate, qmgr: str, unit: Path) -> int:
    try:
        entries = read_unit(unit.read_text(encoding="utf-8"), str(unit))
    except (OSError, ValueError, KeyError, TypeError):
        return 0  # a unit that cannot be read is left for a person to see
    kept = restore(estate.sim, qmgr, entries)
    relative = f"{file_name(qmgr)}/{UOW}/{unit.name}"
    if kept:
        estate.folder.stage(relative, unit_text(kept))
    else:
        estate.folder.remove(relative)
    return len(entries) - len(kept)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

