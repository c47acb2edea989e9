"""Reading queues as they fill, as IBM's amqsevt, amqsmon and amqsact read the system queues.

`read_live(sources, consumer, ...)` gets the messages of some queues (on one or more queue
managers, through any `Transport`) and hands each to a `Consumer` (which prints it, or holds
it until it can: a statistics sequence until its last message, activity trace until every
journey is read). The rules are `trace --save`'s (`traceroute.mq.collect`,
`traceroute.mq.archive`):

* Destructive gets run under syncpoint. A message is committed off its queue only once it
  is printed and the output flushed (`written`) and, with a `--save` dump, appended and
  fsynced to it (`Archive.keep`, before the consumer sees it). Messages a consumer still
  holds unprinted stay uncommitted; at most `MAX_UNCOMMITTED` (MQ's default MAXUMSGS) are
  held, then reading stops and what was read is printed.
* `browse=True` browses: the queues are left as they were.
* `wait=None` reads once through: each queue until it is first found empty (and, where
  the transport can tell, no more messages than it held when reading began); `wait=0`
  reads until every queue is empty; `wait=N` goes on until N seconds pass with no message
  on any queue.
* `stop` (set by a SIGINT handler) ends the reading at the next message boundary: what was
  read is printed (or was saved) and committed; nothing got is lost. A failed write of the
  output or the dump backs out everything uncommitted: it stays on its queue.
* A queue that cannot be opened or read (MQRC_UNKNOWN_OBJECT_NAME, MQRC_GET_INHIBITED ...)
  is one problem line naming it and its reason; the other queues are still read. A
  `Source` marked `optional` (a queue that exists only on some queue managers, such as
  SYSTEM.ADMIN.PUBSUB.EVENT) that does not exist is left out quietly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.mq.archive import Archive
from traceroute.mq.transport import Transport, TransportError

#: How long one get waits before the other queues are looked at (seconds).
POLL = 1.0
#: Messages got from one queue before the next queue gets its turn (and a commit is due).
BATCH = 200
#: The most messages held uncommitted (IBM MQ's default MAXUMSGS).
MAX_UNCOMMITTED = 10_000

__all__ = ["BATCH", "MAX_UNCOMMITTED", "POLL", "Consumer", "LiveSource", "Reading", "Stop",
           "read_live"]


class Consumer(Protocol):
    """What is done with each message read (a command's printing)."""

    def take(self, source: str, md: MQMD, data: bytes) -> None:
        """One message from `source` ('QMGR:QUEUE'); printed now, or held."""

    def holding(self) -> bool:
        """True while some message taken is not printed yet."""

    def finish(self) -> None:
        """Print whatever is held (the reading ends)."""


@dataclass
class LiveSource:
    """A queue to read, on a connected queue manager."""

    transport: Transport
    queue: str
    optional: bool = False  # left out quietly when the queue manager has no such queue

    @property
    def label(self) -> str:
        """'QMGR:QUEUE'."""
        return f"{self.transport.qmgr_name}:{self.queue}"


@dataclass
class Stop:
    """Set to end a reading at the next message boundary (a SIGINT handler sets it)."""

    requested: bool = False
    signum: int = 0        # the signal that asked (SIGINT 2, SIGTERM 15), 0: none

    def __call__(self, signum: int = 0, *_: object) -> None:
        self.requested = True
        self.signum = self.signum or signum


@dataclass
class Reading:
    """What a reading did."""

    messages: int = 0                 # messages read (got or browsed)
    saved: int = 0                    # of them, appended to the dump
    committed: int = 0                # gets made final
    problems: list[str] = field(default_factory=list)   # queues that could not be read
    interrupted: bool = False         # ended by `stop`
    limited: bool = False             # ended by MAX_UNCOMMITTED


class _Reader:
    def __init__(self, sources: list[LiveSource], consumer: Consumer, *, browse: bool,
                 archive: Archive | None, written: Callable[[], None], stop: Stop,
                 problem: Callable[[str], None] | None, batch: int,
                 max_uncommitted: int) -> None:
        self.sources = sources
        self.consumer = consumer
        self.browse = browse
        self.archive = archive
        self.written = written
        self.stop = stop
        self.problem = problem
        self.batch = max(1, batch)
        self.max_uncommitted = max_uncommitted
        self.result = Reading()
        self.uncommitted: dict[int, int] = {}   # id(transport) -> gets not yet final
        self.transports = {id(s.transport): s.transport for s in sources}
        self.bounds: dict[int, int | None] = {}  # id(source) -> messages left, once through

    # --- one queue --------------------------------------------------------------------------

    def _drop(self, src: LiveSource, e: TransportError) -> None:
        self.sources.remove(src)
        if src.optional and e.reason == mqc.MQRC_UNKNOWN_OBJECT_NAME:
            return
        line = f"{src.label}: {e}"
        self.result.problems.append(line)
        if self.problem is not None:
            self.problem(line)

    def _get(self, src: LiveSource, wait: float) -> tuple[MQMD, bytes] | None:
        return src.transport.get(src.queue, correl_id=None, wait=wait, browse=self.browse)

    def read_queue(self, src: LiveSource, wait: float, *, once: bool) -> int:
        """Up to `batch` messages of one queue (the first get waits up to `wait`)."""
        got = 0
        if once and id(src) not in self.bounds:
            depth = getattr(src.transport, "depth", None)
            try:
                self.bounds[id(src)] = depth(src.queue, self.browse) if callable(depth) \
                    else None
            except TransportError as e:
                self._drop(src, e)
                return 0
        while got < self.batch and not self.stop.requested:
            left = self.bounds.get(id(src)) if once else None
            if left is not None and left <= 0:
                break
            if self.held() >= self.max_uncommitted:
                self.result.limited = True
                break
            try:
                message = self._get(src, wait if got == 0 else 0.0)
            except TransportError as e:
                self._drop(src, e)
                break
            if message is None:
                break
            if left is not None:
                self.bounds[id(src)] = left - 1
            got += 1
            self.result.messages += 1
            if not self.browse:
                key = id(src.transport)
                self.uncommitted[key] = self.uncommitted.get(key, 0) + 1
            md, data = message
            if self.archive is not None:
                self.archive.keep(src.label, md, data)
                self.result.saved += 1
            self.consumer.take(src.label, md, data)
        return got

    # --- committing -------------------------------------------------------------------------

    def held(self) -> int:
        """Gets not yet final."""
        return sum(self.uncommitted.values())

    def commit(self) -> None:
        """Make the gets final once they are safe: printed and flushed (and saved)."""
        if self.browse or not self.held():
            return
        self.written()
        if self.consumer.holding():
            return
        for key, count in list(self.uncommitted.items()):
            if count:
                self.transports[key].commit()
                self.result.committed += count
                self.uncommitted[key] = 0

    def back_out(self) -> None:
        """Put back everything not yet final (it stays on its queue)."""
        for key, count in list(self.uncommitted.items()):
            if count:
                self.transports[key].backout()
                self.uncommitted[key] = 0


def read_live(sources: list[LiveSource], consumer: Consumer, *, browse: bool = False,
              wait: float | None = None, archive: Archive | None = None,
              written: Callable[[], None] = lambda: None, stop: Stop | None = None,
              problem: Callable[[str], None] | None = None,
              clock: Callable[[], float] | None = None, batch: int = BATCH,
              max_uncommitted: int = MAX_UNCOMMITTED) -> Reading:
    """Read the sources as the module says; the consumer prints. Exceptions from the
    archive (ArchiveError) or from `written` (an output that cannot be written) back out
    what is uncommitted before they go up; so does any other exception."""
    reader = _Reader(list(sources), consumer, browse=browse, archive=archive, written=written,
                     stop=stop or Stop(), problem=problem, batch=batch,
                     max_uncommitted=max_uncommitted)
    if clock is None:
        import time

        clock = time.monotonic
    try:
        _passes(reader, wait, clock)
        reader.result.interrupted = reader.stop.requested
        consumer.finish()
        written()
        reader.commit()
        if reader.held():  # a consumer that holds after finishing: nothing is made final
            reader.back_out()
    except BaseException:
        reader.back_out()
        raise
    return reader.result


def _passes(reader: _Reader, wait: float | None, clock: Callable[[], float]) -> None:
    once = wait is None
    quiet_since = clock()
    while reader.sources and not reader.stop.requested and not reader.result.limited:
        got = 0
        for n, src in enumerate(list(reader.sources)):
            pause = 0.0
            if wait and n == 0:  # the first queue's get waits, the others are looked at
                pause = max(0.0, min(POLL, quiet_since + wait - clock()))
            while True:
                count = reader.read_queue(src, pause, once=once)
                got += count
                reader.commit()
                pause = 0.0
                if count < reader.batch or reader.stop.requested or reader.result.limited \
                        or src not in reader.sources:
                    break
            if reader.stop.requested or reader.result.limited:
                return
        if once:
            return
        if got:
            quiet_since = clock()
        elif not wait or clock() - quiet_since >= wait:
            return
