"""Accounting and statistics messages the simulated queue managers write.

`StatisticsCollector(sim)` watches a Simulator's MQI work — application puts and gets, the
sending MCA's gets from transmission queues and sends, the receiving MCA's receives and
puts, expiries — and writes, as the seed describes (accounting-statistics.md §2):

* MQI statistics (STATMQI), queue statistics (STATQ) and channel statistics (STATCHL,
  STATACLS for auto-defined cluster-senders) every STATINT seconds of virtual time when
  there was activity, and at `finish()` (a controlled end);
* MQI accounting (ACCTMQI) and queue accounting (ACCTQ) per connection: intermediate
  records every ACCTINT seconds, and the final ones at `finish()` (the connections end).

Object-level settings follow the seed's precedence (`effective`). Every figure follows from
what the simulator did, so queue statistics agree with the routes' puts and gets. A
connection is one application name on one queue manager (the simulator has no MQCONN).
Simplifications: no MQOPEN/MQINQ/MQSET/subscription counters, ACCTCONO is not simulated
(no MQCNO), a channel batch is what one drain of its transmission queue sent, NetTime is
the simulated round trip (2 x latency), and no exit time is reported.

The messages go onto SYSTEM.ADMIN.STATISTICS.QUEUE / SYSTEM.ADMIN.ACCOUNTING.QUEUE of the
queue manager (without being counted themselves) and into `written`.

The collector attaches by wrapping a few of the simulator instance's methods (the
simulator has no observer API yet); nothing in the Simulator class changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from pcf import mqc
from pcf.encoder import encode
from pcf.headers import XQH_LENGTH
from pcf.model import (
    ByteString,
    Group,
    Header,
    Integer,
    Integer64,
    Integer64List,
    IntegerList,
    Message,
    Parameter,
    String,
)
from pcf.mqmd import MQMD
from traceroute.sim.network import MQObject, QueueManager
from traceroute.sim.simulator import Simulator, Stored

STATISTICS_QUEUE = "SYSTEM.ADMIN.STATISTICS.QUEUE"
ACCOUNTING_QUEUE = "SYSTEM.ADMIN.ACCOUNTING.QUEUE"
#: At most this many groups per message (spec §2.4).
MAX_GROUPS = 100
DEFAULT_INTERVAL = 1800
COMMAND_LEVEL = 940


# --- settings (seed precedence) ------------------------------------------------------------

def effective(qmgr_value: str, object_value: str) -> str:
    """An object's effective STATQ/ACCTQ/STATCHL: NONE on the QMGR wins, QMGR defers."""
    q = (qmgr_value or "OFF").upper()
    if q == "NONE":
        return "OFF"
    o = (object_value or "QMGR").upper()
    return q if o == "QMGR" else o


def queue_setting(qm: QueueManager, queue: str, keyword: str) -> bool:
    """STATQ or ACCTQ in effect for a queue."""
    obj = qm.queues.get(queue)
    return effective(qm.attrs.get(keyword, "OFF"), obj.get(keyword) if obj else "") == "ON"


def channel_level(qm: QueueManager, channel: str, *, auto_cluster_sender: bool = False) -> str:
    """STATCHL in effect for a channel: OFF, LOW, MEDIUM or HIGH."""
    qmgr_level = qm.attrs.get("STATCHL", "OFF").upper()
    if auto_cluster_sender:
        acls = qm.attrs.get("STATACLS", "QMGR").upper()
        if qmgr_level == "NONE":
            return "OFF"
        return qmgr_level if acls == "QMGR" else acls
    obj = qm.channels.get(channel)
    return effective(qmgr_level, obj.get("STATCHL") if obj else "")


def interval(qm: QueueManager, keyword: str) -> int:
    """STATINT or ACCTINT in seconds (default 1800)."""
    try:
        return max(1, int(qm.attrs.get(keyword, DEFAULT_INTERVAL)))
    except ValueError:
        return DEFAULT_INTERVAL


def _on(qm: QueueManager, keyword: str) -> bool:
    return qm.attrs.get(keyword, "OFF").upper() == "ON"


# --- counters --------------------------------------------------------------------------------

def _pair() -> list[int]:
    return [0, 0]


@dataclass
class _Ops:
    """Puts, gets, browses by persistence, and failures (shared by MQI and queue figures)."""

    puts: list[int] = field(default_factory=_pair)
    put1s: list[int] = field(default_factory=_pair)
    put_bytes: list[int] = field(default_factory=_pair)
    put_failed: int = 0
    put1_failed: int = 0
    gets: list[int] = field(default_factory=_pair)
    get_bytes: list[int] = field(default_factory=_pair)
    get_failed: int = 0
    browses: list[int] = field(default_factory=_pair)
    browse_bytes: list[int] = field(default_factory=_pair)
    expired: int = 0

    @property
    def active(self) -> bool:
        """True when anything was counted."""
        return any((*self.puts, *self.put1s, *self.gets, *self.browses, self.put_failed,
                    self.put1_failed, self.get_failed, self.expired))


@dataclass
class _Queue(_Ops):
    """One queue's interval (statistics) or one connection's use of it (accounting)."""

    min_depth: int = 0
    max_depth: int = 0
    time_on_q: list[int] = field(default_factory=_pair)   # µs, summed over gets
    time_min: list[int | None] = field(default_factory=lambda: [None, None])
    time_max: list[int] = field(default_factory=_pair)
    put_min: list[int | None] = field(default_factory=lambda: [None, None])
    put_max: list[int] = field(default_factory=_pair)
    get_min: list[int | None] = field(default_factory=lambda: [None, None])
    get_max: list[int] = field(default_factory=_pair)
    opened: float | None = None


@dataclass
class _Channel:
    """One channel's interval."""

    name: str
    type: int
    remote: str
    conname: str
    msgs: int = 0
    bytes: int = 0
    full_batches: int = 0
    incomplete_batches: int = 0
    batch_msgs: int = 0


@dataclass
class _Connection:
    """One simulated connection (an application name on a queue manager)."""

    conn_id: bytes
    appl: str
    pid: int
    since: float
    seq: int = 0
    mqi: _Ops = field(default_factory=_Ops)
    queues: dict[str, _Queue] = field(default_factory=dict)


@dataclass
class _QMgrState:
    """What one queue manager has collected since its interval started."""

    stat_start: float
    mqi: _Ops = field(default_factory=_Ops)
    queues: dict[str, _Queue] = field(default_factory=dict)
    channels: dict[str, _Channel] = field(default_factory=dict)
    depth: dict[str, int] = field(default_factory=dict)
    conns: dict[str, _Connection] = field(default_factory=dict)
    connected: set[str] = field(default_factory=set)


@dataclass
class Written:
    """One accounting/statistics message a queue manager wrote."""

    qmgr: str
    queue: str
    md: MQMD
    data: bytes


def _index(md: MQMD) -> int:
    return 1 if md.persistence == mqc.MQPER_PERSISTENT else 0


def _low(values: list[int | None], i: int, v: int) -> None:
    values[i] = v if values[i] is None else min(values[i], v)  # type: ignore[type-var]


class StatisticsCollector:
    """Counts a simulator's MQI work and writes accounting and statistics messages."""

    def __init__(self, sim: Simulator) -> None:
        self.sim = sim
        self.written: list[Written] = []
        self.state: dict[str, _QMgrState] = {}
        self._actor: list[list] = []   # [application, its put stored yet]
        self._put1 = False
        self._in_drain: dict[tuple[str, str], int] = {}
        self._pid = 1000
        self._attach()

    # --- attaching ------------------------------------------------------------------------

    def _wrap(self, name: str, make: Callable[[Callable], Callable]) -> None:
        setattr(self.sim, name, make(getattr(self.sim, name)))

    def _attach(self) -> None:
        c = self

        def store(orig):
            def _store(qm, queue, md, data, original=None, put_at=None):
                orig(qm, queue, md, data, original, put_at)
                stored = c.sim._queue(qm.name, queue)[-1]
                c._put(qm, queue, stored)
            return _store

        def app_put(orig):
            def _app_put(handle, md, data, r):
                c._actor.append([handle.appl_name, False])
                try:
                    result = orig(handle, md, data, r)
                finally:
                    c._actor.pop()
                if not result.ok:
                    c._failed_put(handle.qmgr, handle.appl_name)
                return result
            return _app_put

        def put1(orig):
            def put(*args, **kwargs):
                c._put1 = True
                try:
                    return orig(*args, **kwargs)
                finally:
                    c._put1 = False
            return put

        def get(orig):
            def _get(qmgr, queue, *, correl_id=None, msg_id=None, browse=False,
                     appl_name="amqsget"):
                q = c.sim._queue(qmgr, queue)
                before = {id(s): s for s in q}
                got = orig(qmgr, queue, correl_id=correl_id, msg_id=msg_id, browse=browse,
                           appl_name=appl_name)
                qm = c.sim.network.qmgrs[qmgr]
                after = {id(s) for s in q}
                gone = [s for k, s in before.items() if k not in after]
                for s in gone:
                    if got is not None and not browse and s.data is got[1]:
                        c._get(qm, queue, s, appl_name)
                    else:
                        c._expired(qm, queue)
                if got is None:
                    c._failed_get(qm, appl_name)
                elif browse:
                    c._browse(qm, queue, got[0], got[1], appl_name)
                return got
            return _get

        def drain(orig):
            def _drain(qm, xmitq):
                c._in_drain = {}
                orig(qm, xmitq)
                st = c._qm(qm)
                for channel, n in c._in_drain.items():
                    ch = st.channels.get(channel[1])
                    if ch is None:
                        continue
                    size = _batch_size(qm, channel[1])
                    ch.full_batches += n // size
                    ch.incomplete_batches += 1 if n % size else 0
                    ch.batch_msgs += n
                c._in_drain = {}
            return _drain

        def send(orig):
            def _send(qm, other, channel, s, xqh, xmitq):
                c._get(qm, xmitq, s, c.sim.sending_mca)
                c._send(qm, other, channel, s)
                return orig(qm, other, channel, s, xqh, xmitq)
            return _send

        def discard_expired(orig):
            def _discard(qm, s, xqh, xmitq):
                c._expired(qm, xmitq, since=s)
                return orig(qm, s, xqh, xmitq)
            return _discard

        def receive(orig):
            def _receive(qm, sender, channel, md, data, xqh):
                c._receive(qm, sender, channel, len(data) + XQH_LENGTH)
                c._actor.append([c.sim.receiving_mca, False])
                try:
                    return orig(qm, sender, channel, md, data, xqh)
                finally:
                    c._actor.pop()
            return _receive

        self._wrap("_store", store)
        self._wrap("_app_put", app_put)
        self._wrap("put", put1)
        self._wrap("get", get)
        self._wrap("_drain", drain)
        self._wrap("_send", send)
        self._wrap("_discard_expired", discard_expired)
        self._wrap("_receive", receive)

    # --- state ------------------------------------------------------------------------------

    def _qm(self, qm: QueueManager) -> _QMgrState:
        st = self.state.get(qm.name)
        if st is None:
            st = self.state[qm.name] = _QMgrState(self.sim.now)
        return st

    def _conn(self, qm: QueueManager, appl: str) -> _Connection:
        st = self._qm(qm)
        conn = st.conns.get(appl)
        if conn is None:
            self._pid += 1
            n = len(st.conns) + 1
            conn_id = (b"AMQC" + qm.name.ljust(12)[:12].encode("latin-1") +
                       self.sim._stamp + n.to_bytes(4, "big"))
            conn = st.conns[appl] = _Connection(conn_id, appl, self._pid, self.sim.now)
        st.connected.add(appl)
        return conn

    def _queue_figures(self, qm: QueueManager, queue: str, appl: str) -> list[_Queue]:
        """The counters one operation on `queue` by `appl` adds to (per the settings)."""
        st = self._qm(qm)
        out: list[_Queue] = []
        if queue_setting(qm, queue, "STATQ"):
            q = st.queues.get(queue)
            if q is None:
                depth = st.depth.get(queue, 0)
                q = st.queues[queue] = _Queue(min_depth=depth, max_depth=depth)
            out.append(q)
        if appl and queue_setting(qm, queue, "ACCTQ"):
            conn = self._conn(qm, appl)
            q = conn.queues.get(queue)
            if q is None:
                q = conn.queues[queue] = _Queue(opened=self.sim.now)
            out.append(q)
        return out

    def _mqi_figures(self, qm: QueueManager, appl: str) -> list[_Ops]:
        st = self._qm(qm)
        out: list[_Ops] = [st.mqi]
        if appl:
            conn = self._conn(qm, appl)
            if _on(qm, "ACCTMQI"):
                out.append(conn.mqi)
        return out

    def _depth(self, qm: QueueManager, queue: str, delta: int) -> None:
        st = self._qm(qm)
        d = st.depth[queue] = max(0, st.depth.get(queue, 0) + delta)
        q = st.queues.get(queue)
        if q is not None:
            q.min_depth, q.max_depth = min(q.min_depth, d), max(q.max_depth, d)

    # --- events -----------------------------------------------------------------------------

    def _actor_of(self) -> str:
        """The application whose put this store is: the first store in its call (what
        follows — reports, replies — the queue manager puts itself)."""
        if not self._actor or self._actor[-1][1]:
            return ""
        self._actor[-1][1] = True
        return self._actor[-1][0]

    def _put(self, qm: QueueManager, queue: str, s: Stored) -> None:
        self.tick()
        appl = self._actor_of()
        n, i = len(s.data), _index(s.md)
        put1 = self._put1 and bool(appl) and appl != self.sim.receiving_mca
        self._depth(qm, queue, 0)  # make sure min/max start from the current depth
        for ops in (*self._queue_figures(qm, queue, appl), *self._mqi_figures(qm, appl)):
            (ops.put1s if put1 else ops.puts)[i] += 1
            ops.put_bytes[i] += n
            if isinstance(ops, _Queue) and ops.opened is not None:
                _low(ops.put_min, i, n)
                ops.put_max[i] = max(ops.put_max[i], n)
        self._depth(qm, queue, +1)

    def _get(self, qm: QueueManager, queue: str, s: Stored, appl: str) -> None:
        self.tick()
        n, i = len(s.data), _index(s.md)
        waited = max(0, round((self.sim.now - s.put_at) * 1_000_000))
        self._depth(qm, queue, 0)
        for ops in (*self._queue_figures(qm, queue, appl), *self._mqi_figures(qm, appl)):
            ops.gets[i] += 1
            ops.get_bytes[i] += n
            if isinstance(ops, _Queue):
                ops.time_on_q[i] += waited
                _low(ops.time_min, i, waited)
                ops.time_max[i] = max(ops.time_max[i], waited)
                _low(ops.get_min, i, n)
                ops.get_max[i] = max(ops.get_max[i], n)
        self._depth(qm, queue, -1)

    def _browse(self, qm: QueueManager, queue: str, md: MQMD, data: bytes, appl: str) -> None:
        self.tick()
        for ops in (*self._queue_figures(qm, queue, appl), *self._mqi_figures(qm, appl)):
            ops.browses[_index(md)] += 1
            ops.browse_bytes[_index(md)] += len(data)

    def _expired(self, qm: QueueManager, queue: str, since: Stored | None = None) -> None:
        self.tick()
        self._depth(qm, queue, 0)
        st = self._qm(qm)
        if queue_setting(qm, queue, "STATQ"):
            st.queues[queue].expired += 1
        st.mqi.expired += 1
        self._depth(qm, queue, -1)

    def _failed_put(self, qmgr: str, appl: str) -> None:
        qm = self.sim.network.qmgrs[qmgr]
        for ops in self._mqi_figures(qm, appl):
            if self._put1:
                ops.put1_failed += 1
            else:
                ops.put_failed += 1

    def _failed_get(self, qm: QueueManager, appl: str) -> None:
        for ops in self._mqi_figures(qm, appl):
            ops.get_failed += 1

    def _channel(self, qm: QueueManager, channel: MQObject, remote: QueueManager,
                 sending: bool) -> _Channel | None:
        kind = channel.get("CHLTYPE")
        auto = sending and kind == "CLUSRCVR"  # an auto-defined cluster-sender
        if sending:
            ctype = {"SVR": mqc.MQCHT_SERVER, "CLUSRCVR": mqc.MQCHT_CLUSSDR,
                     "CLUSSDR": mqc.MQCHT_CLUSSDR}.get(kind, mqc.MQCHT_SENDER)
        else:
            local = qm.channels.get(channel.name)
            ctype = {"RCVR": mqc.MQCHT_RECEIVER, "RQSTR": mqc.MQCHT_REQUESTER,
                     "CLUSRCVR": mqc.MQCHT_CLUSRCVR}.get(local.get("CHLTYPE") if local else "",
                                                         mqc.MQCHT_RECEIVER)
        if channel_level(qm, channel.name, auto_cluster_sender=auto) == "OFF":
            return None
        st = self._qm(qm)
        ch = st.channels.get(channel.name)
        if ch is None:
            conname = channel.get("CONNAME") if sending else ""
            ch = st.channels[channel.name] = _Channel(channel.name, ctype, remote.name, conname)
        return ch

    def _send(self, qm: QueueManager, other: QueueManager, channel: MQObject, s: Stored
              ) -> None:
        ch = self._channel(qm, channel, other, True)
        key = (qm.name, channel.name)
        self._in_drain[key] = self._in_drain.get(key, 0) + 1
        if ch is not None:
            ch.msgs += 1
            ch.bytes += len(s.data)

    def _receive(self, qm: QueueManager, sender: QueueManager, channel: MQObject, n: int
                 ) -> None:
        self.tick()
        ch = self._channel(qm, channel, sender, False)
        if ch is not None:
            ch.msgs += 1
            ch.bytes += n
            ch.incomplete_batches += 1
            ch.batch_msgs += 1

    # --- writing -----------------------------------------------------------------------------

    def tick(self) -> None:
        """Write the statistics of every interval (and intermediate accounting) that ended."""
        now = self.sim.now
        for name, st in self.state.items():
            qm = self.sim.network.qmgrs[name]
            length = interval(qm, "STATINT")
            if now - st.stat_start >= length:
                ends = st.stat_start + (now - st.stat_start) // length * length
                self._write_statistics(qm, st, ends)
            acct = interval(qm, "ACCTINT")
            for conn in st.conns.values():
                if now - conn.since >= acct:
                    self._write_accounting(qm, conn, final=False)

    def finish(self) -> list[Written]:
        """A controlled end: the last statistics, and the connections' final accounting."""
        for name, st in self.state.items():
            qm = self.sim.network.qmgrs[name]
            self._write_statistics(qm, st, self.sim.now)
            for conn in st.conns.values():
                self._write_accounting(qm, conn, final=True)
        return self.written

    def _time(self, qm: QueueManager, at: float) -> tuple[str, str]:
        t = self.sim.start + timedelta(seconds=at + self.sim.clock_skew.get(qm.name, 0.0))
        return t.strftime("%Y-%m-%d"), t.strftime("%H.%M.%S")

    def _head(self, qm: QueueManager, start: float, end: float) -> list[Parameter]:
        sd, stime = self._time(qm, start)
        ed, etime = self._time(qm, end)
        return [String(mqc.MQCA_Q_MGR_NAME, qm.name, 0, 48),
                String(mqc.MQCAMO_START_DATE, sd, 0, 12),
                String(mqc.MQCAMO_START_TIME, stime, 0, 8),
                String(mqc.MQCAMO_END_DATE, ed, 0, 12),
                String(mqc.MQCAMO_END_TIME, etime, 0, 8),
                Integer(mqc.MQIA_COMMAND_LEVEL, qm.command_level or COMMAND_LEVEL)]

    def _emit(self, qm: QueueManager, queue: str, type_: int, command: int,
              top: list[Parameter], groups: list[Group]) -> None:
        enc, ccsid = self.sim._encoding(qm)
        chunks = [groups[i:i + MAX_GROUPS] for i in range(0, len(groups), MAX_GROUPS)] or [[]]
        for n, chunk in enumerate(chunks, 1):
            params = list(top)
            if groups:
                params.append(Integer(mqc.MQIAMO_OBJECT_COUNT, len(chunk)))
            control = mqc.MQCFC_LAST if n == len(chunks) else mqc.MQCFC_NOT_LAST
            msg = Message(Header(type_, command, n, control), [*params, *chunk])
            data = encode(msg, encoding=enc, ccsid=ccsid)
            date, time = self.sim._put_stamp(qm)
            md = MQMD(format=mqc.MQFMT_ADMIN, encoding=enc, coded_char_set_id=ccsid,
                      msg_id=self.sim.new_msg_id(qm.name), msg_type=mqc.MQMT_DATAGRAM,
                      put_appl_type=mqc.MQAT_QMGR, put_appl_name=qm.name[:28],
                      put_date=date, put_time=time, persistence=mqc.MQPER_NOT_PERSISTENT)
            self.sim._queue(qm.name, queue).append(Stored(md, data, self.sim.now))
            self.written.append(Written(qm.name, queue, md, data))

    def _write_statistics(self, qm: QueueManager, st: _QMgrState, end: float) -> None:
        head = self._head(qm, st.stat_start, end)
        if _on(qm, "STATMQI") and (st.mqi.active or st.connected):
            params = [*head, Integer(mqc.MQIAMO_CONNS, len(st.connected)),
                      Integer(mqc.MQIAMO_CONNS_FAILED, 0),
                      Integer(mqc.MQIAMO_CONNS_MAX, len(st.connected)),
                      IntegerList(mqc.MQIAMO_DISCS, [0, 0, 0]), *_ops(st.mqi),
                      Integer(mqc.MQIAMO_MSGS_EXPIRED, st.mqi.expired),
                      Integer(mqc.MQIAMO_MSGS_PURGED, 0)]
            self._emit(qm, STATISTICS_QUEUE, mqc.MQCFT_STATISTICS, mqc.MQCMD_STATISTICS_MQI,
                       params, [])
        queues = [_queue_stats(name, q, qm) for name, q in sorted(st.queues.items())]
        if queues:
            self._emit(qm, STATISTICS_QUEUE, mqc.MQCFT_STATISTICS, mqc.MQCMD_STATISTICS_Q,
                       head, queues)
        channels = [_channel_stats(ch, self.sim.latency)
                    for _, ch in sorted(st.channels.items())]
        if channels:
            self._emit(qm, STATISTICS_QUEUE, mqc.MQCFT_STATISTICS,
                       mqc.MQCMD_STATISTICS_CHANNEL, head, channels)
        st.stat_start = end
        st.mqi = _Ops()
        st.queues.clear()
        st.channels.clear()
        st.connected = set()

    def _write_accounting(self, qm: QueueManager, conn: _Connection, *, final: bool) -> None:
        head = self._head(qm, conn.since, self.sim.now)
        ident = [ByteString(mqc.MQBACF_CONNECTION_ID, conn.conn_id),
                 Integer(mqc.MQIACF_SEQUENCE_NUMBER, conn.seq),
                 String(mqc.MQCACF_APPL_NAME, conn.appl[-28:], 0, 28),
                 Integer(mqc.MQIACF_PROCESS_ID, conn.pid),
                 Integer(mqc.MQIACF_THREAD_ID, 1),
                 String(mqc.MQCACF_USER_IDENTIFIER, "mqm", 0, 12)]
        wrote = False
        if _on(qm, "ACCTMQI"):
            start_d, start_t = self._time(qm, conn.since)
            params = [*head, *ident, String(mqc.MQCAMO_CONN_DATE, start_d, 0, 12),
                      String(mqc.MQCAMO_CONN_TIME, start_t, 0, 8)]
            if final:
                d, t = self._time(qm, self.sim.now)
                params += [String(mqc.MQCAMO_DISC_DATE, d, 0, 12),
                           String(mqc.MQCAMO_DISC_TIME, t, 0, 8),
                           Integer(mqc.MQIAMO_DISC_TYPE, mqc.MQDISCONNECT_NORMAL)]
            params += _ops(conn.mqi)
            self._emit(qm, ACCOUNTING_QUEUE, mqc.MQCFT_ACCOUNTING, mqc.MQCMD_ACCOUNTING_MQI,
                       params, [])
            wrote = True
        groups = [self._queue_accounting(qm, name, q)
                  for name, q in sorted(conn.queues.items())]
        if groups:
            self._emit(qm, ACCOUNTING_QUEUE, mqc.MQCFT_ACCOUNTING, mqc.MQCMD_ACCOUNTING_Q,
                       [*head, *ident], groups)
            wrote = True
        if wrote:
            conn.seq += 1
        conn.since = self.sim.now
        conn.mqi = _Ops()
        conn.queues = {}

    def _queue_accounting(self, qm: QueueManager, name: str, q: _Queue) -> Group:
        od, ot = self._time(qm, q.opened or 0.0)
        obj = qm.queues.get(name)
        avg = [q.time_on_q[i] // q.gets[i] if q.gets[i] else 0 for i in (0, 1)]
        return Group(mqc.MQGACF_Q_ACCOUNTING_DATA, [
            String(mqc.MQCA_Q_NAME, name, 0, 48), *_created(obj),
            Integer(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL),
            Integer(mqc.MQIA_DEFINITION_TYPE, mqc.MQQDT_PREDEFINED),
            String(mqc.MQCAMO_OPEN_DATE, od, 0, 12), String(mqc.MQCAMO_OPEN_TIME, ot, 0, 8),
            IntegerList(mqc.MQIAMO_OPENS, [1]),
            IntegerList(mqc.MQIAMO_PUTS, q.puts), Integer(mqc.MQIAMO_PUTS_FAILED, 0),
            IntegerList(mqc.MQIAMO_PUT1S, q.put1s), Integer(mqc.MQIAMO_PUT1S_FAILED, 0),
            Integer64List(mqc.MQIAMO64_PUT_BYTES, q.put_bytes),
            IntegerList(mqc.MQIAMO_PUT_MIN_BYTES, [v or 0 for v in q.put_min]),
            IntegerList(mqc.MQIAMO_PUT_MAX_BYTES, q.put_max),
            IntegerList(mqc.MQIAMO_GETS, q.gets), Integer(mqc.MQIAMO_GETS_FAILED, 0),
            Integer64List(mqc.MQIAMO64_GET_BYTES, q.get_bytes),
            IntegerList(mqc.MQIAMO_GET_MIN_BYTES, [v or 0 for v in q.get_min]),
            IntegerList(mqc.MQIAMO_GET_MAX_BYTES, q.get_max),
            IntegerList(mqc.MQIAMO_BROWSES, q.browses), Integer(mqc.MQIAMO_BROWSES_FAILED, 0),
            Integer64List(mqc.MQIAMO64_BROWSE_BYTES, q.browse_bytes),
            Integer(mqc.MQIAMO_GENERATED_MSGS, 0),
            Integer64List(mqc.MQIAMO64_Q_TIME_MIN, [v or 0 for v in q.time_min]),
            Integer64List(mqc.MQIAMO64_Q_TIME_AVG, avg),
            Integer64List(mqc.MQIAMO64_Q_TIME_MAX, q.time_max)])


def _batch_size(qm: QueueManager, channel: str) -> int:
    obj = qm.channels.get(channel)
    try:
        return max(1, int(obj.get("BATCHSZ", "50"))) if obj else 50
    except ValueError:
        return 50


def _ops(o: _Ops) -> list[Parameter]:
    """The MQI counters the simulator knows, in the order of the seed's MQI statistics."""
    return [IntegerList(mqc.MQIAMO_PUTS, o.puts), Integer(mqc.MQIAMO_PUTS_FAILED, o.put_failed),
            IntegerList(mqc.MQIAMO_PUT1S, o.put1s),
            Integer(mqc.MQIAMO_PUT1S_FAILED, o.put1_failed),
            Integer64List(mqc.MQIAMO64_PUT_BYTES, o.put_bytes),
            IntegerList(mqc.MQIAMO_GETS, o.gets),
            Integer64List(mqc.MQIAMO64_GET_BYTES, o.get_bytes),
            Integer(mqc.MQIAMO_GETS_FAILED, o.get_failed),
            IntegerList(mqc.MQIAMO_BROWSES, o.browses),
            Integer64List(mqc.MQIAMO64_BROWSE_BYTES, o.browse_bytes),
            Integer(mqc.MQIAMO_BROWSES_FAILED, 0),
            Integer(mqc.MQIAMO_COMMITS, 0), Integer(mqc.MQIAMO_COMMITS_FAILED, 0),
            Integer(mqc.MQIAMO_BACKOUTS, 0)]


def _created(obj: MQObject | None) -> list[Parameter]:
    return [String(mqc.MQCA_CREATION_DATE, "2026-01-01", 0, 12),
            String(mqc.MQCA_CREATION_TIME, "00.00.00", 0, 8)]


def _queue_stats(name: str, q: _Queue, qm: QueueManager) -> Group:
    avg = [q.time_on_q[i] // q.gets[i] if q.gets[i] else 0 for i in (0, 1)]
    return Group(mqc.MQGACF_Q_STATISTICS_DATA, [
        String(mqc.MQCA_Q_NAME, name, 0, 48), *_created(qm.queues.get(name)),
        Integer(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL),
        Integer(mqc.MQIA_DEFINITION_TYPE, mqc.MQQDT_PREDEFINED),
        Integer(mqc.MQIAMO_Q_MIN_DEPTH, q.min_depth), Integer(mqc.MQIAMO_Q_MAX_DEPTH, q.max_depth),
        Integer64List(mqc.MQIAMO64_AVG_Q_TIME, avg),
        IntegerList(mqc.MQIAMO_PUTS, q.puts), Integer(mqc.MQIAMO_PUTS_FAILED, q.put_failed),
        IntegerList(mqc.MQIAMO_PUT1S, q.put1s), Integer(mqc.MQIAMO_PUT1S_FAILED, q.put1_failed),
        Integer64List(mqc.MQIAMO64_PUT_BYTES, q.put_bytes),
        IntegerList(mqc.MQIAMO_GETS, q.gets), Integer64List(mqc.MQIAMO64_GET_BYTES, q.get_bytes),
        Integer(mqc.MQIAMO_GETS_FAILED, q.get_failed),
        IntegerList(mqc.MQIAMO_BROWSES, q.browses),
        Integer64List(mqc.MQIAMO64_BROWSE_BYTES, q.browse_bytes),
        Integer(mqc.MQIAMO_BROWSES_FAILED, 0), Integer(mqc.MQIAMO_MSGS_NOT_QUEUED, 0),
        Integer(mqc.MQIAMO_MSGS_EXPIRED, q.expired), Integer(mqc.MQIAMO_MSGS_PURGED, 0)])


def _channel_stats(ch: _Channel, latency: float) -> Group:
    net = round(2 * latency * 1_000_000)
    batches = ch.full_batches + ch.incomplete_batches
    return Group(mqc.MQGACF_CHL_STATISTICS_DATA, [
        String(mqc.MQCACH_CHANNEL_NAME, ch.name, 0, 20),
        Integer(mqc.MQIACH_CHANNEL_TYPE, ch.type),
        String(mqc.MQCA_REMOTE_Q_MGR_NAME, ch.remote, 0, 48),
        String(mqc.MQCACH_CONNECTION_NAME, ch.conname, 0, 264),
        Integer(mqc.MQIAMO_MSGS, ch.msgs), Integer64(mqc.MQIAMO64_BYTES, ch.bytes),
        Integer(mqc.MQIAMO_NET_TIME_MIN, net), Integer(mqc.MQIAMO_NET_TIME_AVG, net),
        Integer(mqc.MQIAMO_NET_TIME_MAX, net),
        Integer(mqc.MQIAMO_FULL_BATCHES, ch.full_batches),
        Integer(mqc.MQIAMO_INCOMPLETE_BATCHES, ch.incomplete_batches),
        Integer(mqc.MQIAMO_AVG_BATCH_SIZE, ch.batch_msgs // batches if batches else 0),
        Integer(mqc.MQIAMO_PUT_RETRIES, 0)])
