"""Applications driving a simulated network: producers, consumers, repliers, browsers.

    workload = Workload(sim)
    workload.add(Producer("QM1", "TARG.AT.QM2", count=10, interval=1.0, reply_to_q="R.Q"),
                 Consumer("QM2", "TARGET.Q", reply=True),          # gets and replies
                 Consumer("QM1", "R.Q", interval=5.0),             # a slow consumer
                 Consumer("QM2", "OTHER.Q", stopped=True),         # never gets anything
                 Browser("QM2", "AUDIT.Q"),                        # looks, never consumes
                 DistributionList("QM1", ["A.Q", "B.Q"]))
    workload.run(until=60)        # virtual seconds; then every connection disconnects

Producers put with MQPUT1 (`put1=True`) or MQOPEN once + MQPUT each + MQCLOSE at the end.
A consumer gets destructively up to `batch` messages every `interval` seconds from `start`
(`stopped` consumers never get; `stop_at` ends one), a replier puts a reply (MsgType
REPLY, CorrelId = the request's MsgId) to the request's ReplyToQ/ReplyToQMgr. A
distribution list is simulated as one put per destination with the same MsgId (the
simulator has no MQOR/MQPMR records; activity trace shows one MQPUT per queue). What every
application did is kept in `sent`, `got`, `browsed` and `failed`.
"""

from __future__ import annotations

import gc
import heapq
from dataclasses import dataclass, field, replace

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.sim.simulator import Opened, Simulator


@dataclass
class Producer:
    """Puts `count` messages to `queue` (at `target_qmgr`) every `interval` seconds."""

    qmgr: str
    queue: str
    count: int = 1
    interval: float = 1.0
    start: float = 0.0
    appl_name: str = "producer"
    target_qmgr: str = ""
    put1: bool = True
    reply_to_q: str = ""
    reply_to_q_mgr: str = ""
    data: bytes = b"order"
    expiry: int = mqc.MQEI_UNLIMITED
    handle: Opened | None = field(default=None, repr=False)
    done: int = 0


@dataclass
class DistributionList:
    """Puts each message to every (queue, queue manager) of `queues` with one MsgId."""

    qmgr: str
    queues: list[str | tuple[str, str]]
    count: int = 1
    interval: float = 1.0
    start: float = 0.0
    appl_name: str = "distlist"
    data: bytes = b"notice"
    done: int = 0


@dataclass
class Consumer:
    """Gets up to `batch` messages every `interval` seconds (a slow consumer: a long
    interval or a small batch); `reply` answers requests; `stopped` never gets."""

    qmgr: str
    queue: str
    interval: float = 0.5
    start: float = 0.0
    batch: int = 100
    appl_name: str = "consumer"
    reply: bool = False
    reply_appl_data: bytes = b"reply"
    stopped: bool = False
    stop_at: float | None = None


@dataclass
class Browser:
    """Browses the messages on `queue` every `interval` seconds (never consumes)."""

    qmgr: str
    queue: str
    interval: float = 1.0
    start: float = 0.0
    appl_name: str = "browser"
    stop_at: float | None = None


App = Producer | DistributionList | Consumer | Browser


class Workload:
    """Runs applications against a Simulator in its virtual time (see the module doc)."""

    def __init__(self, sim: Simulator) -> None:
        self.sim = sim
        self.apps: list[App] = []
        self.sent: list[tuple[str, bytes]] = []      # (appl_name, MsgId) of every put
        self.got: list[tuple[str, bytes]] = []       # (appl_name, MsgId) of every get
        self.browsed: list[tuple[str, bytes]] = []
        self.failed: list[tuple[str, int]] = []      # (appl_name, MQRC_*) of failed puts
        self._heap: list[tuple[float, int, int]] = []
        self._n = 0

    def add(self, *apps: App) -> Workload:
        """Add applications; each first acts at its `start`."""
        for app in apps:
            self.apps.append(app)
            if not (isinstance(app, Consumer) and app.stopped):
                self._schedule(app.start, len(self.apps) - 1)
        return self

    def _schedule(self, at: float, index: int) -> None:
        self._n += 1
        heapq.heappush(self._heap, (at, self._n, index))

    def run(self, until: float, *, disconnect: bool = True) -> None:
        """Run applications and network up to virtual time `until`; then (by default) every
        connection disconnects, so activity trace writes its last messages.

        The cycle collector is paused meanwhile (and resumed as it was): a run makes millions
        of short-lived acyclic objects, and with activity trace on it spent about a third of
        the time scanning the network's objects."""
        enabled = gc.isenabled()
        gc.disable()
        try:
            self._run(until, disconnect)
        finally:
            if enabled:
                gc.enable()

    def _run(self, until: float, disconnect: bool) -> None:
        while self._heap and self._heap[0][0] <= until:
            at, _, index = heapq.heappop(self._heap)
            self.sim.run(until=at)
            again = self._act(self.apps[index])
            if again is not None and at + again <= until:
                self._schedule(at + again, index)
        self.sim.run(until=until)
        if disconnect:
            for app in self.apps:
                if isinstance(app, Producer) and app.handle is not None:
                    app.handle.close()
                    app.handle = None
            self.sim.disconnect_all()

    # --- one turn of one application -------------------------------------------------------

    def _act(self, app: App) -> float | None:
        """Do one turn; the delay to the next one, or None when the application is done."""
        if isinstance(app, Producer):
            return self._produce(app)
        if isinstance(app, DistributionList):
            return self._distribute(app)
        if isinstance(app, Consumer):
            return self._consume(app)
        return self._browse(app)

    def _md(self, reply_to_q: str = "", reply_to_q_mgr: str = "",
            expiry: int = mqc.MQEI_UNLIMITED) -> MQMD:
        return MQMD(format="MQSTR", reply_to_q=reply_to_q, reply_to_q_mgr=reply_to_q_mgr,
                    msg_type=mqc.MQMT_REQUEST if reply_to_q else mqc.MQMT_DATAGRAM,
                    expiry=expiry)

    def _produce(self, p: Producer) -> float | None:
        md = self._md(p.reply_to_q, p.reply_to_q_mgr, p.expiry)
        if p.put1:
            result = self.sim.put(p.qmgr, p.queue, md, p.data, target_qmgr=p.target_qmgr,
                                  appl_name=p.appl_name)
        else:
            if p.handle is None or p.handle.reason:  # (after a failed MQOPEN: opens again)
                p.handle = self.sim.open(p.qmgr, p.queue, target_qmgr=p.target_qmgr,
                                         appl_name=p.appl_name)
            if p.handle.reason:  # as amqsput: no MQPUT on a handle whose MQOPEN failed
                self.failed.append((p.appl_name, p.handle.reason))
                p.done += 1
                return p.interval if p.done < p.count else None
            result = p.handle.put(md, p.data)
        if result.ok:
            self.sent.append((p.appl_name, result.msg_id))
        else:
            self.failed.append((p.appl_name, result.reason))
        p.done += 1
        return p.interval if p.done < p.count else None

    def _distribute(self, d: DistributionList) -> float | None:
        msg_id = self.sim.new_msg_id(d.qmgr)
        for dest in d.queues:
            queue, qmgr = (dest, "") if isinstance(dest, str) else dest
            result = self.sim.put(d.qmgr, queue, replace(self._md(), msg_id=msg_id), d.data,
                                  target_qmgr=qmgr, appl_name=d.appl_name)
            if result.ok:
                self.sent.append((d.appl_name, msg_id))
            else:
                self.failed.append((d.appl_name, result.reason))
        d.done += 1
        return d.interval if d.done < d.count else None

    def _consume(self, c: Consumer) -> float | None:
        if c.stop_at is not None and self.sim.now >= c.stop_at:
            return None
        for _ in range(c.batch):
            got = self.sim.get(c.qmgr, c.queue, appl_name=c.appl_name)
            if got is None:
                break
            md, _data = got
            self.got.append((c.appl_name, md.msg_id))
            if c.reply and md.reply_to_q:
                reply = replace(self._md(), msg_type=mqc.MQMT_REPLY, correl_id=md.msg_id)
                result = self.sim.put(c.qmgr, md.reply_to_q, reply, c.reply_appl_data,
                                      target_qmgr=md.reply_to_q_mgr, appl_name=c.appl_name)
                if result.ok:
                    self.sent.append((c.appl_name, result.msg_id))
                else:
                    self.failed.append((c.appl_name, result.reason))
        return c.interval

    def _browse(self, b: Browser) -> float | None:
        if b.stop_at is not None and self.sim.now >= b.stop_at:
            return None
        seen = {m for _, m in self.browsed}
        for md, _data in self.sim.browse(b.qmgr, b.queue):
            if md.msg_id not in seen:
                got = self.sim.get(b.qmgr, b.queue, msg_id=md.msg_id, browse=True,
                                   appl_name=b.appl_name)
                if got is not None:
                    self.browsed.append((b.appl_name, md.msg_id))
        return b.interval
