"""A Transport on a queue manager of a simulated estate folder, for readers that wait.

`SimTransport` works inside one command's hold on an estate (its lock, for the whole
command). A reader that waits for messages must not hold the folder that long: the other
commands (`sim put`, `sim runmqsc ... STOP CHANNEL`, another reader) must go on meanwhile.
`EstateTransport` therefore visits the estate: each visit opens it (lock, load, the
clock moves on: statistics intervals end, activity trace is written, channels retry),
takes up to `BATCH` messages from every queue this reader has asked for, and saves it; and
between visits it holds nothing but its own unit of work (`traceroute.sim.estate.units`):

* a get under syncpoint takes the message off its queue into the unit of work, in the same
  all-or-nothing save; `commit` drops the messages handed out from the unit; `backout`
  (and `close`, and the next command after a reader that died) puts them back at the head
  of their queues, in order;
* a browse leaves the queue alone and remembers which messages it has shown;
* a get that finds nothing waits: the transport visits again every `poll` seconds (of the
  wall clock) until `wait` is over. A queue that was looked at less than `poll` seconds ago
  counts as looked at.

Queue-manager and queue failures are MQ's: an unknown queue manager MQRC_Q_MGR_NAME_ERROR
at MQCONN, an unknown queue MQRC_UNKNOWN_OBJECT_NAME at MQOPEN, a GET(DISABLED) queue
MQRC_GET_INHIBITED at MQGET (as `TransportError`). A reader is one connection (ApplName
`READER`) from its first visit to its `close` (or, if it dies, to the next command: its
MQDISC then); between visits the estate keeps it (kind 'reader'). Its MQCONN, MQOPENs,
MQGETs and MQDISC are MQI calls of the queue manager's, counted in its statistics and
accounting like any application's.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.mq.transport import TransportError
from traceroute.sim.estate import Estate
from traceroute.sim.estate.units import READER_KIND, Entry, Unit, restore
from traceroute.sim.resolve import resolve_input
from traceroute.sim.simulator import Stored

#: The application name live readers connect with.
READER = "mqroute"
#: Messages taken from one queue in one visit.
BATCH = 200
#: Seconds between visits while waiting.
POLL = 0.5

__all__ = ["BATCH", "POLL", "READER", "EstateTransport", "queue_managers"]

_QUIET = (mqc.MQRC_NO_MSG_AVAILABLE,)


@dataclass
class _Queue:
    """What a reader knows of one of its queues."""

    browse: bool
    buffer: deque = field(default_factory=deque)   # Entry (get) or (MQMD, bytes) (browse)
    seen: set[bytes] = field(default_factory=set)  # what was browsed (`_browse_key`)
    looked: float | None = None                      # the clock of the last visit
    error: TransportError | None = None
    depth: int | None = None                         # messages there at the first visit
    more: bool = False   # the last visit stopped at `batch` messages: more may wait there


class EstateTransport:
    """A Transport (get, commit, backout, close; no puts) on one queue manager of an
    estate folder, visiting the folder instead of holding it (see the module doc)."""

    def __init__(self, path: str | Path, qmgr: str, *, appl_name: str = READER,
                 poll: float = POLL, batch: int = BATCH, lock_wait: float = 60.0,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.path = Path(path)
        self.appl_name = appl_name
        self.poll = poll
        self.batch = batch
        self.lock_wait = lock_wait
        self._clock = clock
        self._sleep = sleep
        self._queues: dict[tuple[str, bool], _Queue] = {}
        with Estate.open(self.path, wait=lock_wait) as estate:
            names = list(estate.sim.network.qmgrs)
        if not qmgr and names:
            qmgr = names[0]
        if qmgr not in names:
            raise TransportError("MQCONN", mqc.MQRC_Q_MGR_NAME_ERROR,
                                 f"to '{qmgr}' (the estate {self.path} has "
                                 f"{', '.join(names)})")
        self.qmgr_name = qmgr
        self._unit = Unit(self.path, qmgr)
        self._handles: dict[str, int] = {}
        self._topics: dict[str, tuple[str, bytes]] = {}  # topic -> (managed queue, SubId)
        self.visits = 0

    def clock(self) -> float:
        """Wall-clock seconds (monotonic)."""
        return self._clock()

    # --- what a live reader uses ------------------------------------------------------------

    def get(self, queue: str, *, correl_id: bytes | None = None, wait: float = 0.0,
            browse: bool = False, syncpoint: bool = True) -> tuple[MQMD, bytes] | None:
        """The next message of `queue` (taken under syncpoint, or browsed), waiting up to
        `wait` seconds; None when none came. Every message matches: CorrelId selection is
        not offered here (readers of system queues take all)."""
        if correl_id is not None:
            raise TransportError("MQGET", mqc.MQRC_OPTIONS_ERROR,
                                 "(an estate reader takes every message)")
        queue = self._queue_of(queue)
        q = self._queues.setdefault((queue, browse), _Queue(browse))
        deadline = self._clock() + wait
        while True:
            if q.buffer:
                item = q.buffer.popleft()
                if browse:
                    return item
                item.returned = True
                return item.md, item.data
            if q.error is not None:
                error, q.error = q.error, None
                del self._queues[(queue, browse)]
                raise error
            now = self._clock()
            if q.looked is not None and not q.more and now - q.looked < self.poll:
                # empty a moment ago (a visit that stopped at a full batch says nothing of it)
                if now >= deadline:
                    return None
                self._sleep(max(0.0, min(q.looked + self.poll, deadline) - now))
                continue
            self._visit()

    def depth(self, queue: str, browse: bool = False) -> int | None:
        """How many messages the queue held when this reader first looked (once-through
        reading stops there)."""
        queue = self._queue_of(queue)
        q = self._queues.setdefault((queue, browse), _Queue(browse))
        if q.looked is None:
            self._visit()
        if q.error is not None:
            error, q.error = q.error, None
            del self._queues[(queue, browse)]
            raise error
        return q.depth

    def subscribe(self, topic) -> str:
        """MQSUB (`topic`: a traceroute.mq.trace_topics.TraceTopic) on this reader's
        connection: a non-durable subscription with a managed queue, as amqsact's dynamic
        mode makes. The estate keeps it with the connection between visits (other commands
        publish to it meanwhile); it ends at `close`, or, if the reader dies, with its
        connection at the next command. What `get` reads it by: the topic string."""
        with Estate.open(self.path, wait=self.lock_wait) as estate, \
                self._connected(estate.sim) as sim:
            made = sim.subscribe(self.qmgr_name, topic.topic, scheme=topic.scheme,
                                 correl_id=bytes(24), appl_name=self.appl_name)  # MQCI_NONE
            self._unit.stage(estate.folder)
        if made.reason:
            raise TransportError("MQSUB", made.reason, f"'{topic.topic}'")
        sub = made.subscription
        self._topics[topic.topic] = (sub.dest, sub.sub_id)
        return topic.topic

    def _queue_of(self, name: str) -> str:
        """The queue a name is read from (a subscription's topic: its managed queue)."""
        return self._topics[name][0] if name in self._topics else name

    def commit(self) -> None:
        """The messages handed out are final (the unit of work keeps the others)."""
        self._unit.commit()

    def backout(self) -> None:
        """Every message got and not committed goes back to the head of its queue (those
        not handed out yet too)."""
        if not self._unit.entries:
            return
        with Estate.open(self.path, wait=self.lock_wait) as estate:
            kept = restore(estate.sim, self.qmgr_name, self._unit.entries)
            self._unit.entries = kept
            self._unit.stage(estate.folder)
        for q in self._queues.values():
            if not q.browse:
                q.buffer.clear()
                q.looked = None
        if kept:
            raise TransportError("MQBACK", mqc.MQRC_UNKNOWN_OBJECT_NAME,
                                 f"(queue {kept[0].queue} was deleted: its messages stay in "
                                 f"{self._unit.file})")

    def close(self) -> None:
        """Back out what is not committed, end the connection, let go of the unit of work."""
        try:
            with Estate.open(self.path, wait=self.lock_wait) as estate:
                if self._unit.entries:
                    self._unit.entries = restore(estate.sim, self.qmgr_name,
                                                 self._unit.entries)
                    self._unit.stage(estate.folder)
                for _queue, sub_id in self._topics.values():  # MQCLOSE: non-durable, it ends
                    estate.sim.unsubscribe(self.qmgr_name, sub_id)
                self._topics.clear()
                conn = estate.sim.suspend_connection(self.qmgr_name, READER_KIND,
                                                     self._unit.token)
                if conn is not None:
                    estate.sim.resume_connection(READER_KIND, self._unit.token, conn)
                    estate.sim.disconnect(conn)
        finally:
            if not self._unit.entries:
                self._unit.close()

    # --- the rest of the Transport protocol ----------------------------------------------

    def open_output(self, queue: str, **_: object) -> object:
        """Not offered: readers only read."""
        raise TransportError("MQOPEN", mqc.MQRC_OPTION_NOT_VALID_FOR_TYPE,
                             f"'{queue}' for output (an estate reader only reads)")

    def put(self, handle: object, md: MQMD, data: bytes) -> MQMD:
        """Not offered: readers only read."""
        raise TransportError("MQPUT", mqc.MQRC_HOBJ_ERROR)

    def open_reply_queue(self, name: str, prefix: str = "") -> str:
        """Not offered: readers only read."""
        raise TransportError("MQOPEN", mqc.MQRC_OPTION_NOT_VALID_FOR_TYPE,
                             f"'{name}' (an estate reader only reads)")

    def inquire(self) -> dict[str, str]:
        """ACTIVREC, ROUTEREC and DEADQ of the queue manager."""
        with Estate.open(self.path, wait=self.lock_wait) as estate:
            qm = estate.sim.network.qmgrs[self.qmgr_name]
            names = {0: "DISABLED", 1: "QUEUE", 2: "MSG"}
            return {"ACTIVREC": names[qm.activrec], "ROUTEREC": names[qm.routerec],
                    "DEADQ": qm.deadq}

    # --- visits -------------------------------------------------------------------------------

    def _visit(self) -> None:
        """Open the estate once: take (or browse) what every asked-for queue has."""
        with Estate.open(self.path, wait=self.lock_wait) as estate:
            sim = estate.sim
            if self.qmgr_name not in sim.network.qmgrs:
                error = TransportError("MQGET", mqc.MQRC_Q_MGR_NOT_AVAILABLE,
                                       f"(queue manager {self.qmgr_name} is no longer in the "
                                       f"estate {self.path})")
                for q in self._queues.values():
                    q.error = error
                return
            with self._connected(sim):
                for (name, _browse), q in self._queues.items():
                    if q.error is None and not q.buffer:
                        self._look(sim, name, q)
            self._unit.stage(estate.folder)
        self.visits += 1
        now = self._clock()
        for q in self._queues.values():
            q.looked = now

    @contextlib.contextmanager
    def _connected(self, sim) -> Iterator:
        """The reader's connection for one visit: resumed (no new MQCONN, MQOPEN), then kept
        by the estate until the next visit."""
        token = self._unit.token
        mine = sim.suspend_connection(self.qmgr_name, READER_KIND, token)
        if mine is not None:
            sim.resume_connection("app", self.appl_name, mine)
            sim.reopen_handles(mine, self._handles)
        try:
            yield sim
        finally:
            mine = sim.suspend_connection(self.qmgr_name, "app", self.appl_name)
            if mine is not None:
                self._handles = sim.open_handles(mine)
                sim.resume_connection(READER_KIND, token, mine)

    def _look(self, sim, name: str, q: _Queue) -> None:
        qmgr = self.qmgr_name
        r = resolve_input(sim.network, qmgr, name)
        base = r.queue if r.ok and r.queue else name
        waiting = sim.queues.get((qmgr, base), ())
        if q.browse:
            result = sim.mqget(qmgr, name, browse=True, appl_name=self.appl_name)
            if result.reason not in (0, *_QUIET):
                q.error = _error(result.reason, name)
                return
            messages = [s for s in waiting if not sim.expired(s)]
            if q.depth is None:
                q.depth = len(messages)
            q.more = False
            for s in messages:
                if len(q.buffer) >= self.batch:
                    q.more = True
                    break
                key = _browse_key(s.md, s.data)
                if key not in q.seen:
                    q.seen.add(key)
                    q.buffer.append((s.md, s.data))
            return
        head = {s.md.msg_id: s for s in islice(waiting, 2 * self.batch)}  # their put times
        taken = 0
        while taken < self.batch:
            result = sim.mqget(qmgr, name, appl_name=self.appl_name)
            if result.reason:
                if result.reason not in _QUIET:
                    q.error = _error(result.reason, name)
                break
            stored = head.get(result.md.msg_id)
            if stored is None or stored.md is not result.md:
                stored = Stored(result.md, result.data, sim.now)
            taken += 1
            q.buffer.append(self._unit.add(name, stored))
        q.more = taken >= self.batch
        if q.depth is None and q.error is None:
            q.depth = taken + len(sim.queues.get((qmgr, base), ()))


def queue_managers(path: str | Path, *, lock_wait: float = 60.0) -> list[str]:
    """The queue managers of an estate folder."""
    with Estate.open(Path(path), wait=lock_wait) as estate:
        return list(estate.sim.network.qmgrs)


def _browse_key(md: MQMD, data: bytes) -> bytes:
    """A message as a browser tells it from the others: its MsgId and its data (a MsgId
    alone is not enough where messages were put with one given by hand)."""
    return md.msg_id + hashlib.blake2b(data, digest_size=16).digest()


def _error(reason: int, queue: str) -> TransportError:
    call = "MQGET" if reason == mqc.MQRC_GET_INHIBITED else "MQOPEN"
    return TransportError(call, reason, f"'{queue}'")


def entries_of(transport: EstateTransport) -> list[Entry]:
    """The messages a transport holds uncommitted (tests)."""
    return list(transport._unit.entries)
