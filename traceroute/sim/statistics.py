"""Accounting and statistics messages the simulated queue managers write.

`StatisticsCollector(sim)` observes a Simulator's MQI calls (`Simulator.add_observer`):
the applications' MQCONN/MQOPEN/MQPUT/MQPUT1/MQGET/MQCLOSE/MQDISC and the channel agents'
calls (the sending MCA's MQGET from its transmission queue, the receiving MCA's MQPUT1).
From them it writes, as the seed describes (accounting-statistics.md §2):

* MQI statistics (STATMQI), queue statistics (STATQ) and channel statistics (STATCHL;
  STATACLS for auto-defined cluster-senders) when an MQI call on the queue manager (or
  `tick()`) finds that STATINT seconds of virtual time have passed since the interval
  began, and at `finish()` (a controlled end); only queues and channels with activity get
  a group;
* MQI accounting (ACCTMQI) and queue accounting (ACCTQ) per connection when it
  disconnects (MQDISC; `finish()` disconnects every connection), and intermediate records
  at the connection's first MQI call after ACCTINT seconds (SeqNumber counts them).

Object-level settings follow the seed's precedence (`effective`). Every figure follows from
the MQI calls, so the queue statistics agree with the routes' puts and gets and the channel
statistics with their sends and receives. Depths are the simulator's own queue depths.
Publish/subscribe: a put to a topic (or an alias queue of one) counts as PutTopicCount /
Put1TopicCount / PutTopicBytes (not PutCount), its open as an MQOT_TOPIC open; MQSUB as
SubCountDur/SubCountNDur[created] or SubFailCount; a subscription closed and removed as
UnsubCountDur/UnsubCountNDur[removed] (MQI statistics only: no connection is told);
each copy the engine puts (a Watcher) as PublishMsgCount/PublishMsgBytes; the
subscriptions there are (durable, non-durable; all, API, ADMIN, PROXY) as
SubCount{Dur,NDur}{High,Low}Water, looked at when the interval begins, at each MQSUB and
removal, and when it is written.
Not modelled: MQINQ/MQSET/MQSUBRQ/callback counters, ACCTCONO (no MQCNO), exit times
and put retries (0); reports and replies the queue manager writes itself are no MQI calls
and are not counted; ExpiredMsgCount stays 0 (expiry removal is no MQI call); a channel
batch is the messages its MCA moved at one instant; NetTime is the simulated round trip
(2 x latency); the time on queue of a message whose put was not observed is left out of
the average.

The messages go onto SYSTEM.ADMIN.STATISTICS.QUEUE / SYSTEM.ADMIN.ACCOUNTING.QUEUE of the
queue manager (not counted themselves) and into `written`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from datetime import timedelta

from pcf import mqc
from pcf.fastencode import encode_fast as encode
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
from traceroute.sim.mqi import (
    MQCLOSE,
    MQCONN,
    MQDISC,
    MQGET,
    MQOPEN,
    MQPUT,
    MQPUT1,
    MQSUB,
    SimCall,
    SimConnection,
)
from traceroute.sim.network import QueueManager
from traceroute.sim.simulator import Simulator, Stored, Watcher

STATISTICS_QUEUE = "SYSTEM.ADMIN.STATISTICS.QUEUE"
ACCOUNTING_QUEUE = "SYSTEM.ADMIN.ACCOUNTING.QUEUE"
#: At most this many groups per message (spec §2.4).
MAX_GROUPS = 100
DEFAULT_INTERVAL = 1800
COMMAND_LEVEL = 940
#: Elements of the per-object-type (MQOT_*) lists.
OBJECT_TYPES = 13
_BROWSE = mqc.MQGMO_BROWSE_FIRST | mqc.MQGMO_BROWSE_NEXT | mqc.MQGMO_BROWSE_MSG_UNDER_CURSOR


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


def _objects() -> list[int]:
    return [0] * OBJECT_TYPES


@dataclass
class _Ops:
    """MQI counters: by persistence (P), by object type (O), and failures."""

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
    browse_failed: int = 0
    opens: list[int] = field(default_factory=_objects)
    open_failed: list[int] = field(default_factory=_objects)
    closes: list[int] = field(default_factory=_objects)
    conns: int = 0
    conns_failed: int = 0
    conns_max: int = 0
    discs: list[int] = field(default_factory=lambda: [0, 0, 0])
    topic_puts: list[int] = field(default_factory=_pair)
    topic_put1s: list[int] = field(default_factory=_pair)
    topic_put_bytes: list[int] = field(default_factory=_pair)
    topic_put_failed: int = 0
    topic_put1_failed: int = 0
    subs_dur: list[int] = field(default_factory=lambda: [0, 0, 0])    # created/altered/resumed
    subs_ndur: list[int] = field(default_factory=lambda: [0, 0, 0])
    subs_failed: int = 0
    unsubs_dur: list[int] = field(default_factory=_pair)   # closed-kept, removed
    unsubs_ndur: list[int] = field(default_factory=_pair)
    publish_msgs: list[int] = field(default_factory=_pair)
    publish_bytes: list[int] = field(default_factory=_pair)

    @property
    def active(self) -> bool:
        """True when any call was counted."""
        return any((*self.puts, *self.put1s, *self.gets, *self.browses, *self.opens,
                    *self.closes, *self.discs, self.conns, self.conns_failed,
                    self.put_failed, self.put1_failed,
                    self.get_failed, self.browse_failed, *self.topic_puts,
                    *self.topic_put1s, self.topic_put_failed, self.topic_put1_failed,
                    *self.subs_dur, *self.subs_ndur, self.subs_failed, *self.unsubs_dur,
                    *self.unsubs_ndur, *self.publish_msgs))


@dataclass
class _Queue(_Ops):
    """One queue's interval (statistics) or one connection's use of it (accounting)."""

    min_depth: int = 0
    max_depth: int = 0
    time_on_q: list[int] = field(default_factory=_pair)   # µs, summed over timed gets
    timed: list[int] = field(default_factory=_pair)
    time_min: list[int | None] = field(default_factory=lambda: [None, None])
    time_max: list[int] = field(default_factory=_pair)
    put_min: list[int | None] = field(default_factory=lambda: [None, None])
    put_max: list[int] = field(default_factory=_pair)
    get_min: list[int | None] = field(default_factory=lambda: [None, None])
    get_max: list[int] = field(default_factory=_pair)
    browse_min: list[int | None] = field(default_factory=lambda: [None, None])
    browse_max: list[int] = field(default_factory=_pair)
    opened: float | None = None
    closed: float | None = None


@dataclass
class _Channel:
    """One channel's interval."""

    name: str
    type: int
    remote: str
    conname: str
    msgs: int = 0
    bytes: int = 0
    batches: list[int] = field(default_factory=list)  # messages per batch
    batch_at: float | None = None


@dataclass
class _Connection:
    """Accounting of one connection since it connected or wrote its last record."""

    conn: SimConnection
    since: float
    connected: float = 0.0
    seq: int = 0
    mqi: _Ops = field(default_factory=_Ops)
    queues: dict[str, _Queue] = field(default_factory=dict)


@dataclass
class _QMgrState:
    """What one queue manager has collected since its statistics interval began."""

    stat_start: float
    mqi: _Ops = field(default_factory=_Ops)
    queues: dict[str, _Queue] = field(default_factory=dict)
    channels: dict[str, _Channel] = field(default_factory=dict)
    open_conns: int = 0
    #: subscriptions there were in the interval, by type (all, API, ADMIN, PROXY): the
    #: most and fewest durable and non-durable ones ([] until first looked at)
    sub_dur_high: list[int] = field(default_factory=list)
    sub_dur_low: list[int] = field(default_factory=list)
    sub_ndur_high: list[int] = field(default_factory=list)
    sub_ndur_low: list[int] = field(default_factory=list)


@dataclass
class Written:
    """One accounting/statistics message a queue manager wrote."""

    qmgr: str
    queue: str
    md: MQMD
    data: bytes


def _index(md: MQMD | None) -> int:
    return 1 if md is not None and md.persistence == mqc.MQPER_PERSISTENT else 0


def _low(values: list[int | None], i: int, v: int) -> None:
    values[i] = v if values[i] is None else min(values[i], v)  # type: ignore[type-var]


class StatisticsCollector(Watcher):
    """Counts a simulator's MQI calls and writes accounting and statistics messages."""

    def __init__(self, sim: Simulator) -> None:
        self.sim = sim
        self.written: list[Written] = []
        self.state: dict[str, _QMgrState] = {}
        self.conns: dict[bytes, _Connection] = {}
        self._put_times: dict[tuple[str, str, bytes], deque[float]] = {}
        self._start = sim.now  # every queue manager's first interval starts here
        sim.add_observer(self.observe)
        sim.add_watcher(self)  # the engine's copies (PublishMsgCount), removals

    # --- state ------------------------------------------------------------------------------

    def _qm_state(self, qmgr: str) -> _QMgrState:
        st = self.state.get(qmgr)
        if st is None:
            st = self.state[qmgr] = _QMgrState(self._start)
            self._watermarks(qmgr)  # the subscriptions there are as the interval begins
        return st

    def _conn(self, conn: SimConnection) -> _Connection:
        c = self.conns.get(conn.conn_id)
        if c is None:
            c = self.conns[conn.conn_id] = _Connection(conn, self.sim.now, self.sim.now)
        return c

    def _queue_figures(self, qm: QueueManager, queue: str, c: _Connection) -> list[_Queue]:
        """The counters an operation on local `queue` adds to (per STATQ/ACCTQ)."""
        st = self._qm_state(qm.name)
        out: list[_Queue] = []
        if queue_setting(qm, queue, "STATQ"):
            q = st.queues.get(queue)
            if q is None:
                depth = self.sim.depth(qm.name, queue)
                q = st.queues[queue] = _Queue(min_depth=depth, max_depth=depth)
            out.append(q)
        if queue_setting(qm, queue, "ACCTQ"):
            q = c.queues.get(queue)
            if q is None:
                q = c.queues[queue] = _Queue(opened=self.sim.now)
            out.append(q)
        return out

    def _mqi_figures(self, qm: QueueManager, c: _Connection) -> list[_Ops]:
        out = [self._qm_state(qm.name).mqi]
        if _on(qm, "ACCTMQI"):
            out.append(c.mqi)
        return out

    # --- the observer -----------------------------------------------------------------------

    def observe(self, call: SimCall) -> None:
        """One MQI call of the simulated network."""
        qm = self.sim.network.qmgrs.get(call.qmgr)
        if qm is None:
            return
        self._tick_one(qm, self._qm_state(qm.name), call.time)
        if call.verb == MQCONN and call.comp_code == mqc.MQCC_FAILED:
            self._qm_state(qm.name).mqi.conns_failed += 1  # refused: no connection
            return
        c = self._conn(call.conn)
        if call.verb != MQDISC and call.time - c.since >= interval(qm, "ACCTINT"):
            self._write_accounting(qm, c, final=False)
        verb = {MQCONN: self._connect, MQDISC: self._disconnect, MQOPEN: self._open,
                MQCLOSE: self._close, MQPUT: self._put, MQPUT1: self._put,
                MQGET: self._get, MQSUB: self._subscribe}.get(call.verb)
        if verb is not None:
            verb(qm, c, call)

    def _connect(self, qm: QueueManager, c: _Connection, call: SimCall) -> None:
        st = self._qm_state(qm.name)
        st.open_conns += 1
        st.mqi.conns += 1
        st.mqi.conns_max = max(st.mqi.conns_max, st.open_conns)

    def _disconnect(self, qm: QueueManager, c: _Connection, call: SimCall) -> None:
        st = self._qm_state(qm.name)
        st.open_conns = max(0, st.open_conns - 1)
        for ops in self._mqi_figures(qm, c):
            ops.discs[0] += 1
        self._write_accounting(qm, c, final=True)
        del self.conns[call.conn.conn_id]

    def _open(self, qm: QueueManager, c: _Connection, call: SimCall) -> None:
        kind = _object_type(qm, call)
        for ops in self._mqi_figures(qm, c):
            if call.comp_code:
                ops.open_failed[kind] += 1
            else:
                ops.opens[kind] += 1
        if not call.comp_code and call.local_queue:
            for q in self._queue_figures(qm, call.local_queue, c):
                if q.opened is not None:
                    q.opens[mqc.MQOT_Q] += 1

    def _close(self, qm: QueueManager, c: _Connection, call: SimCall) -> None:
        for ops in self._mqi_figures(qm, c):
            ops.closes[mqc.MQOT_Q] += 1

    def _subscribe(self, qm: QueueManager, c: _Connection, call: SimCall) -> None:
        for ops in self._mqi_figures(qm, c):
            if call.comp_code:
                ops.subs_failed += 1
            else:
                (ops.subs_dur if call.options & mqc.MQSO_DURABLE else ops.subs_ndur)[0] += 1
        self._watermarks(qm.name)

    def unsubscribed(self, qmgr: str, subscription) -> None:
        """(Watcher) an API subscription closed and removed."""
        st = self._qm_state(qmgr)
        (st.mqi.unsubs_dur if subscription.durable else st.mqi.unsubs_ndur)[1] += 1
        self._watermarks(qmgr)

    def published(self, qmgr: str, subscription, md: MQMD, length: int) -> None:
        """(Watcher) the engine put a copy of a publication for a subscription."""
        mqi = self._qm_state(qmgr).mqi
        i = _index(md)
        mqi.publish_msgs[i] += 1
        mqi.publish_bytes[i] += length

    def _watermarks(self, qmgr: str) -> None:
        """The subscriptions there are now, into the interval's high and low water marks."""
        st = self._qm_state(qmgr)
        dur, ndur = [0, 0, 0, 0], [0, 0, 0, 0]
        for sub in self.sim.pubsub.of(self.sim.network, qmgr):
            counts = dur if sub.durable else ndur
            counts[0] += 1
            if 1 <= sub.kind <= 3:
                counts[sub.kind] += 1
        for now, high, low in ((dur, st.sub_dur_high, st.sub_dur_low),
                               (ndur, st.sub_ndur_high, st.sub_ndur_low)):
            if not high:
                high.extend(now)
                low.extend(now)
            for k, v in enumerate(now):
                high[k], low[k] = max(high[k], v), min(low[k], v)

    def _put(self, qm: QueueManager, c: _Connection, call: SimCall) -> None:
        put1 = call.verb == MQPUT1
        i, n = _index(call.md), call.data_length
        mqi = self._mqi_figures(qm, c)
        if call.topic and not call.local_queue:  # a publication (MQOT_TOPIC or an alias)
            for ops in mqi:
                if call.comp_code:
                    if put1:
                        ops.topic_put1_failed += 1
                    else:
                        ops.topic_put_failed += 1
                    continue
                if put1:
                    ops.opens[_object_type(qm, call)] += 1
                    ops.closes[_object_type(qm, call)] += 1
                (ops.topic_put1s if put1 else ops.topic_puts)[i] += 1
                ops.topic_put_bytes[i] += n
            return
        if call.comp_code:
            for ops in mqi:
                if put1:
                    ops.put1_failed += 1
                else:
                    ops.put_failed += 1
            return
        if put1:
            for ops in mqi:
                ops.opens[mqc.MQOT_Q] += 1
                ops.closes[mqc.MQOT_Q] += 1
        queue = call.local_queue
        figures = self._queue_figures(qm, queue, c) if queue else []
        for ops in (*mqi, *figures):
            (ops.put1s if put1 else ops.puts)[i] += 1
            ops.put_bytes[i] += n
        depth = self.sim.depth(qm.name, queue) + 1  # observers hear of a put before it lands
        for q in figures:
            _low(q.put_min, i, n)
            q.put_max[i] = max(q.put_max[i], n)
            q.max_depth = max(q.max_depth, depth)
            q.min_depth = min(q.min_depth, depth)
        if queue and call.md is not None:
            self._put_times.setdefault((qm.name, queue, call.md.msg_id), deque()).append(
                call.time)
        if call.conn.mca and call.conn.channel:
            self._channel_use(qm, call, n + XQH_LENGTH)

    def _get(self, qm: QueueManager, c: _Connection, call: SimCall) -> None:
        browse = bool(call.options & _BROWSE)
        i, n = _index(call.md), call.data_length
        mqi = self._mqi_figures(qm, c)
        if call.comp_code:
            for ops in mqi:
                if browse:
                    ops.browse_failed += 1
                else:
                    ops.get_failed += 1
            return
        queue = call.local_queue
        figures = self._queue_figures(qm, queue, c) if queue else []
        for ops in (*mqi, *figures):
            if browse:
                ops.browses[i] += 1
                ops.browse_bytes[i] += n
            else:
                ops.gets[i] += 1
                ops.get_bytes[i] += n
        if browse:
            for q in figures:
                _low(q.browse_min, i, n)
                q.browse_max[i] = max(q.browse_max[i], n)
            return
        key_id = call.xmit_msg_id if call.xmit_msg_id is not None else (
            call.md.msg_id if call.md is not None else b"")
        times = self._put_times.get((qm.name, queue, key_id))
        waited = None
        if times:
            waited = max(0, round((call.time - times.popleft()) * 1_000_000))
            if not times:
                del self._put_times[(qm.name, queue, key_id)]
        depth = self.sim.depth(qm.name, queue)  # observers hear of a get after it
        for q in figures:
            q.min_depth = min(q.min_depth, depth)
            _low(q.get_min, i, n)
            q.get_max[i] = max(q.get_max[i], n)
            if waited is not None:
                q.time_on_q[i] += waited
                q.timed[i] += 1
                _low(q.time_min, i, waited)
                q.time_max[i] = max(q.time_max[i], waited)
        if call.conn.mca and call.conn.channel:
            self._channel_use(qm, call, n)

    def _channel_use(self, qm: QueueManager, call: SimCall, n: int) -> None:
        """A message the channel carried: the sending MCA's get, the receiving MCA's put."""
        conn = call.conn
        local = qm.channels.get(conn.channel)
        auto = conn.channel_type == mqc.MQCHT_CLUSSDR and (
            local is None or local.get("CHLTYPE") != "CLUSSDR")
        if channel_level(qm, conn.channel, auto_cluster_sender=auto) == "OFF":
            return
        st = self._qm_state(qm.name)
        ch = st.channels.get(conn.channel)
        if ch is None:
            sending = call.verb == MQGET
            conname = local.get("CONNAME") if local is not None and sending else ""
            ch = st.channels[conn.channel] = _Channel(
                conn.channel, conn.channel_type or 0, conn.partner, conname)
        ch.msgs += 1
        ch.bytes += n
        if ch.batch_at == call.time and ch.batches:
            ch.batches[-1] += 1
        else:
            ch.batches.append(1)
            ch.batch_at = call.time

    # --- writing -----------------------------------------------------------------------------

    def tick(self, now: float | None = None) -> None:
        """Write the statistics of every queue manager whose STATINT has passed (each one
        also does so at its own next MQI call)."""
        now = self.sim.now if now is None else now
        for name, st in self.state.items():
            self._tick_one(self.sim.network.qmgrs[name], st, now)

    def _tick_one(self, qm: QueueManager, st: _QMgrState, now: float) -> None:
        length = interval(qm, "STATINT")
        if now - st.stat_start >= length:
            # the interval that ended holds everything counted so far; idle intervals
            # after it write nothing
            self._write_statistics(qm, st, st.stat_start + length)
            st.stat_start += (now - st.stat_start) // length * length

    def finish(self) -> list[Written]:
        """A controlled end: every connection disconnects (final accounting), then the
        last statistics interval is written. Returns everything written."""
        self.sim.disconnect_all()
        for name, st in self.state.items():
            self._write_statistics(self.sim.network.qmgrs[name], st, self.sim.now)
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
        """Write a record: one message, or a MsgSeqNumber sequence of <= 100 groups each."""
        enc, ccsid = self.sim._encoding(qm)
        chunks = [groups[i:i + MAX_GROUPS] for i in range(0, len(groups), MAX_GROUPS)] or [[]]
        for n, chunk in enumerate(chunks, 1):
            params = list(top)
            if groups:
                params.insert(6, Integer(mqc.MQIAMO_OBJECT_COUNT, len(chunk)))
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
        if _on(qm, "STATMQI") and st.mqi.active:
            o = st.mqi
            params = [*head, Integer(mqc.MQIAMO_CONNS, o.conns),
                      Integer(mqc.MQIAMO_CONNS_FAILED, o.conns_failed),
                      Integer(mqc.MQIAMO_CONNS_MAX, max(o.conns_max, st.open_conns)),
                      IntegerList(mqc.MQIAMO_DISCS, o.discs), *_ops(o),
                      Integer(mqc.MQIAMO_MSGS_EXPIRED, 0), Integer(mqc.MQIAMO_MSGS_PURGED, 0),
                      *self._pubsub_statistics(qm.name, o)]
            self._emit(qm, STATISTICS_QUEUE, mqc.MQCFT_STATISTICS, mqc.MQCMD_STATISTICS_MQI,
                       params, [])
        queues = [_queue_stats(name, q) for name, q in sorted(st.queues.items())]
        if queues:
            self._emit(qm, STATISTICS_QUEUE, mqc.MQCFT_STATISTICS, mqc.MQCMD_STATISTICS_Q,
                       head, queues)
        channels = [_channel_stats(ch, self.sim.latency, _batch_size(qm, name))
                    for name, ch in sorted(st.channels.items())]
        if channels:
            self._emit(qm, STATISTICS_QUEUE, mqc.MQCFT_STATISTICS,
                       mqc.MQCMD_STATISTICS_CHANNEL, head, channels)
        st.stat_start = end
        st.mqi = _Ops(conns_max=st.open_conns)
        st.queues = {}
        st.channels = {}
        for marks in (st.sub_dur_high, st.sub_dur_low, st.sub_ndur_high, st.sub_ndur_low):
            marks.clear()
        self._watermarks(qm.name)  # the next interval begins with what there is now

    def _pubsub_statistics(self, qmgr: str, o: _Ops) -> list[Parameter]:
        """MQI statistics' publish/subscribe counters (after the MQI ones)."""
        self._watermarks(qmgr)
        st = self._qm_state(qmgr)
        return [*_pubsub_ops(o),
                IntegerList(mqc.MQIAMO_SUB_DUR_HIGHWATER, st.sub_dur_high),
                IntegerList(mqc.MQIAMO_SUB_DUR_LOWWATER, st.sub_dur_low),
                IntegerList(mqc.MQIAMO_SUB_NDUR_HIGHWATER, st.sub_ndur_high),
                IntegerList(mqc.MQIAMO_SUB_NDUR_LOWWATER, st.sub_ndur_low),
                IntegerList(mqc.MQIAMO_PUBLISH_MSG_COUNT, o.publish_msgs),
                Integer64List(mqc.MQIAMO64_PUBLISH_MSG_BYTES, o.publish_bytes)]

    def _write_accounting(self, qm: QueueManager, c: _Connection, *, final: bool) -> None:
        """The connection's MQI and queue accounting since `c.since` (ACCTMQI / ACCTQ)."""
        conn = c.conn
        head = self._head(qm, c.since, self.sim.now)
        ident: list[Parameter] = [ByteString(mqc.MQBACF_CONNECTION_ID, conn.conn_id),
                                  Integer(mqc.MQIACF_SEQUENCE_NUMBER, c.seq),
                                  String(mqc.MQCACF_APPL_NAME, conn.appl_name[-28:], 0, 28),
                                  Integer(mqc.MQIACF_PROCESS_ID, conn.pid),
                                  Integer(mqc.MQIACF_THREAD_ID, 1),
                                  String(mqc.MQCACF_USER_IDENTIFIER, "mqm", 0, 12)]
        wrote = False
        if _on(qm, "ACCTMQI") and (c.mqi.active or final):
            start_d, start_t = self._time(qm, c.connected)
            params = [*head, *ident, String(mqc.MQCAMO_CONN_DATE, start_d, 0, 12),
                      String(mqc.MQCAMO_CONN_TIME, start_t, 0, 8)]
            if final:
                d, t = self._time(qm, self.sim.now)
                params += [String(mqc.MQCAMO_DISC_DATE, d, 0, 12),
                           String(mqc.MQCAMO_DISC_TIME, t, 0, 8),
                           Integer(mqc.MQIAMO_DISC_TYPE, mqc.MQDISCONNECT_NORMAL)]
            params += [*_ops(c.mqi), *_pubsub_ops(c.mqi)]  # (open and close counts first)
            self._emit(qm, ACCOUNTING_QUEUE, mqc.MQCFT_ACCOUNTING, mqc.MQCMD_ACCOUNTING_MQI,
                       params, [])
            wrote = True
        groups = [self._queue_accounting(qm, name, q) for name, q in sorted(c.queues.items())]
        if groups:
            self._emit(qm, ACCOUNTING_QUEUE, mqc.MQCFT_ACCOUNTING, mqc.MQCMD_ACCOUNTING_Q,
                       [*head, *ident], groups)
            wrote = True
        if wrote:
            c.seq += 1
        c.since = self.sim.now
        c.mqi = _Ops()
        c.queues = {}

    # --- between runs (an estate folder keeps what was counted) -----------------------------

    def reset_statistics(self, qmgr: str) -> None:
        """RESET QMGR TYPE(STATISTICS): the interval ends now (its statistics are written)
        and a new one begins."""
        qm = self.sim.network.qmgrs[qmgr]
        self._write_statistics(qm, self._qm_state(qmgr), self.sim.now)

    def tick_accounting(self, now: float | None = None) -> None:
        """Intermediate accounting of every connection open for ACCTINT seconds since its
        last record (by the clock, not only at its next MQI call)."""
        now = self.sim.now if now is None else now
        for c in list(self.conns.values()):
            qm = self.sim.network.qmgrs.get(c.conn.qmgr)
            if qm is not None and now - c.since >= interval(qm, "ACCTINT"):
                self._write_accounting(qm, c, final=False)

    def export_state(self, qmgr: str) -> dict:
        """What was counted for one queue manager and not yet written (JSON-ready)."""
        from traceroute.sim.state import to_json

        qm = self.sim.network.qmgrs[qmgr]
        st = self.state.get(qmgr)
        conns = [c for c in self.conns.values() if c.conn.qmgr == qmgr
                 and (c.queues or (_on(qm, "ACCTMQI") and c.mqi.active))]
        out: dict = {}
        if st is not None and (st.queues or st.channels or (_on(qm, "STATMQI")
                                                            and st.mqi.active)):
            out["statistics"] = to_json(st)  # (nothing counted that would be written: none)
        if conns:
            out["accounting"] = [to_json(c) for c in conns]
        return out

    def import_state(self, qmgr: str, data: dict, *, where: str = "statistics") -> None:
        """Go on counting from `export_state`'s values (StateError when they do not fit);
        the times on queue of the messages waiting come from their put times."""
        from traceroute.sim.state import from_json

        live = {c.conn_id: c for c in self.sim.connections()}
        if data.get("statistics") is not None:
            self.state[qmgr] = from_json(_QMgrState, data["statistics"], f"{where} statistics")
        for n, item in enumerate(data.get("accounting") or []):
            c = from_json(_Connection, item, f"{where} accounting[{n}]")
            c.conn = live.get(c.conn.conn_id, c.conn)
            self.conns[c.conn.conn_id] = c
        for (owner, queue), messages in self.sim.queues.items():
            if owner != qmgr:
                continue
            for s in messages:
                key = s.xqh.msg_desc.msg_id if s.xqh is not None else s.md.msg_id
                self._put_times.setdefault((owner, queue, key), deque()).append(s.put_at)

    def _queue_accounting(self, qm: QueueManager, name: str, q: _Queue) -> Group:
        od, ot = self._time(qm, q.opened or 0.0)
        return Group(mqc.MQGACF_Q_ACCOUNTING_DATA, [
            String(mqc.MQCA_Q_NAME, name, 0, 48), *_created(),
            Integer(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL),
            Integer(mqc.MQIA_DEFINITION_TYPE, mqc.MQQDT_PREDEFINED),
            String(mqc.MQCAMO_OPEN_DATE, od, 0, 12), String(mqc.MQCAMO_OPEN_TIME, ot, 0, 8),
            IntegerList(mqc.MQIAMO_OPENS, [q.opens[mqc.MQOT_Q]]),
            IntegerList(mqc.MQIAMO_PUTS, q.puts), Integer(mqc.MQIAMO_PUTS_FAILED, 0),
            IntegerList(mqc.MQIAMO_PUT1S, q.put1s), Integer(mqc.MQIAMO_PUT1S_FAILED, 0),
            Integer64List(mqc.MQIAMO64_PUT_BYTES, q.put_bytes),
            IntegerList(mqc.MQIAMO_PUT_MIN_BYTES, _zeros(q.put_min)),
            IntegerList(mqc.MQIAMO_PUT_MAX_BYTES, q.put_max),
            IntegerList(mqc.MQIAMO_GETS, q.gets), Integer(mqc.MQIAMO_GETS_FAILED, 0),
            Integer64List(mqc.MQIAMO64_GET_BYTES, q.get_bytes),
            IntegerList(mqc.MQIAMO_GET_MIN_BYTES, _zeros(q.get_min)),
            IntegerList(mqc.MQIAMO_GET_MAX_BYTES, q.get_max),
            IntegerList(mqc.MQIAMO_BROWSES, q.browses), Integer(mqc.MQIAMO_BROWSES_FAILED, 0),
            Integer64List(mqc.MQIAMO64_BROWSE_BYTES, q.browse_bytes),
            IntegerList(mqc.MQIAMO_BROWSE_MIN_BYTES, _zeros(q.browse_min)),
            IntegerList(mqc.MQIAMO_BROWSE_MAX_BYTES, q.browse_max),
            Integer(mqc.MQIAMO_GENERATED_MSGS, 0),
            Integer64List(mqc.MQIAMO64_Q_TIME_MIN, _zeros(q.time_min)),
            Integer64List(mqc.MQIAMO64_Q_TIME_AVG, _average(q)),
            Integer64List(mqc.MQIAMO64_Q_TIME_MAX, q.time_max)])


def _zeros(values: list[int | None]) -> list[int]:
    return [v or 0 for v in values]


def _average(q: _Queue) -> list[int]:
    return [q.time_on_q[i] // q.timed[i] if q.timed[i] else 0 for i in (0, 1)]


def _batch_size(qm: QueueManager, channel: str) -> int:
    obj = qm.channels.get(channel)
    try:
        return max(1, int(obj.get("BATCHSZ", "50"))) if obj else 50
    except ValueError:
        return 50


def _open_close(o: _Ops) -> list[Parameter]:
    return [IntegerList(mqc.MQIAMO_OPENS, o.opens),
            IntegerList(mqc.MQIAMO_OPENS_FAILED, o.open_failed),
            IntegerList(mqc.MQIAMO_CLOSES, o.closes),
            IntegerList(mqc.MQIAMO_CLOSES_FAILED, _objects())]


def _ops(o: _Ops) -> list[Parameter]:
    """The MQI counters, in the order of the seed's MQI statistics example."""
    return [*_open_close(o),
            IntegerList(mqc.MQIAMO_PUTS, o.puts), Integer(mqc.MQIAMO_PUTS_FAILED, o.put_failed),
            IntegerList(mqc.MQIAMO_PUT1S, o.put1s),
            Integer(mqc.MQIAMO_PUT1S_FAILED, o.put1_failed),
            Integer64List(mqc.MQIAMO64_PUT_BYTES, o.put_bytes),
            IntegerList(mqc.MQIAMO_GETS, o.gets),
            Integer64List(mqc.MQIAMO64_GET_BYTES, o.get_bytes),
            Integer(mqc.MQIAMO_GETS_FAILED, o.get_failed),
            IntegerList(mqc.MQIAMO_BROWSES, o.browses),
            Integer64List(mqc.MQIAMO64_BROWSE_BYTES, o.browse_bytes),
            Integer(mqc.MQIAMO_BROWSES_FAILED, o.browse_failed),
            Integer(mqc.MQIAMO_COMMITS, 0), Integer(mqc.MQIAMO_COMMITS_FAILED, 0),
            Integer(mqc.MQIAMO_BACKOUTS, 0)]


def _pubsub_ops(o: _Ops) -> list[Parameter]:
    """The subscribe and topic-put counters of MQI accounting and statistics."""
    return [IntegerList(mqc.MQIAMO_SUBS_DUR, o.subs_dur),
            IntegerList(mqc.MQIAMO_SUBS_NDUR, o.subs_ndur),
            Integer(mqc.MQIAMO_SUBS_FAILED, o.subs_failed),
            IntegerList(mqc.MQIAMO_UNSUBS_DUR, o.unsubs_dur),
            IntegerList(mqc.MQIAMO_UNSUBS_NDUR, o.unsubs_ndur),
            Integer(mqc.MQIAMO_UNSUBS_FAILED, 0),
            IntegerList(mqc.MQIAMO_TOPIC_PUTS, o.topic_puts),
            Integer(mqc.MQIAMO_TOPIC_PUTS_FAILED, o.topic_put_failed),
            IntegerList(mqc.MQIAMO_TOPIC_PUT1S, o.topic_put1s),
            Integer(mqc.MQIAMO_TOPIC_PUT1S_FAILED, o.topic_put1_failed),
            Integer64List(mqc.MQIAMO64_TOPIC_PUT_BYTES, o.topic_put_bytes)]


def _object_type(qm: QueueManager, call: SimCall) -> int:
    """MQOT_TOPIC for a topic opened as one (an alias queue of a topic is MQOT_Q)."""
    if call.topic and not (call.object_name and call.object_name in qm.queues):
        return mqc.MQOT_TOPIC
    return mqc.MQOT_Q


def _created() -> list[Parameter]:
    """CreateDate/CreateTime: MQSC carries no creation time; the simulator's epoch."""
    return [String(mqc.MQCA_CREATION_DATE, "2026-01-01", 0, 12),
            String(mqc.MQCA_CREATION_TIME, "00.00.00", 0, 8)]


def _queue_stats(name: str, q: _Queue) -> Group:
    return Group(mqc.MQGACF_Q_STATISTICS_DATA, [
        String(mqc.MQCA_Q_NAME, name, 0, 48), *_created(),
        Integer(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL),
        Integer(mqc.MQIA_DEFINITION_TYPE, mqc.MQQDT_PREDEFINED),
        Integer(mqc.MQIAMO_Q_MIN_DEPTH, q.min_depth), Integer(mqc.MQIAMO_Q_MAX_DEPTH, q.max_depth),
        Integer64List(mqc.MQIAMO64_AVG_Q_TIME, _average(q)),
        IntegerList(mqc.MQIAMO_PUTS, q.puts), Integer(mqc.MQIAMO_PUTS_FAILED, q.put_failed),
        IntegerList(mqc.MQIAMO_PUT1S, q.put1s), Integer(mqc.MQIAMO_PUT1S_FAILED, q.put1_failed),
        Integer64List(mqc.MQIAMO64_PUT_BYTES, q.put_bytes),
        IntegerList(mqc.MQIAMO_GETS, q.gets), Integer64List(mqc.MQIAMO64_GET_BYTES, q.get_bytes),
        Integer(mqc.MQIAMO_GETS_FAILED, q.get_failed),
        IntegerList(mqc.MQIAMO_BROWSES, q.browses),
        Integer64List(mqc.MQIAMO64_BROWSE_BYTES, q.browse_bytes),
        Integer(mqc.MQIAMO_BROWSES_FAILED, 0), Integer(mqc.MQIAMO_MSGS_NOT_QUEUED, 0),
        Integer(mqc.MQIAMO_MSGS_EXPIRED, 0), Integer(mqc.MQIAMO_MSGS_PURGED, 0)])


def _channel_stats(ch: _Channel, latency: float, batch_size: int) -> Group:
    net = round(2 * latency * 1_000_000)
    full = sum(n // batch_size for n in ch.batches)
    incomplete = sum(1 for n in ch.batches if n % batch_size)
    batches = full + incomplete
    return Group(mqc.MQGACF_CHL_STATISTICS_DATA, [
        String(mqc.MQCACH_CHANNEL_NAME, ch.name, 0, 20),
        Integer(mqc.MQIACH_CHANNEL_TYPE, ch.type),
        String(mqc.MQCA_REMOTE_Q_MGR_NAME, ch.remote, 0, 48),
        String(mqc.MQCACH_CONNECTION_NAME, ch.conname, 0, 264),
        Integer(mqc.MQIAMO_MSGS, ch.msgs), Integer64(mqc.MQIAMO64_BYTES, ch.bytes),
        Integer(mqc.MQIAMO_NET_TIME_MIN, net), Integer(mqc.MQIAMO_NET_TIME_AVG, net),
        Integer(mqc.MQIAMO_NET_TIME_MAX, net),
        Integer(mqc.MQIAMO_EXIT_TIME_MIN, 0), Integer(mqc.MQIAMO_EXIT_TIME_AVG, 0),
        Integer(mqc.MQIAMO_EXIT_TIME_MAX, 0),
        Integer(mqc.MQIAMO_FULL_BATCHES, full),
        Integer(mqc.MQIAMO_INCOMPLETE_BATCHES, incomplete),
        Integer(mqc.MQIAMO_AVG_BATCH_SIZE, ch.msgs // batches if batches else 0),
        Integer(mqc.MQIAMO_PUT_RETRIES, 0)])
