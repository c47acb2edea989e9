"""The performance-event engine: the queue manager's service-interval and queue-depth rules.

Pure state machines driven by (time_ms, queue, operation) inputs, following the seeds
(spec/events.md §2-4): the service timer and Queue Service Interval High/OK events; Queue
Depth High/Low and Queue Full with their enabling state machine; the event statistics
(TimeSinceReset, HighQDepth, MsgEnqCount, MsgDeqCount) and what resets them (an event,
RESET QSTATS, a restart); events out of syncpoint (backed-out puts toggle nothing back);
an unavailable event queue (the event is lost, the state still toggles); no performance
events for event queues. Shared queues of a queue-sharing group are in
`traceroute.events.qsg`. Nothing here does I/O; events come back as values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from pcf import mqc
from traceroute.events.model import EVENT_QUEUES

PERFM_EVENT_QUEUE = EVENT_QUEUES[mqc.MQCMD_PERFM_EVENT]
EVENT_QUEUE_NAMES = frozenset(EVENT_QUEUES.values())

#: Performance event reasons and their short names.
REASON_NAMES: dict[int, str] = {
    mqc.MQRC_Q_DEPTH_HIGH: "Queue Depth High",
    mqc.MQRC_Q_DEPTH_LOW: "Queue Depth Low",
    mqc.MQRC_Q_FULL: "Queue Full",
    mqc.MQRC_Q_SERVICE_INTERVAL_HIGH: "Queue Service Interval High",
    mqc.MQRC_Q_SERVICE_INTERVAL_OK: "Queue Service Interval OK",
}

_QSVCIEV = {"NONE": mqc.MQQSIE_NONE, "HIGH": mqc.MQQSIE_HIGH, "OK": mqc.MQQSIE_OK}


def _flag(value: str | None, default: bool = False) -> bool:
    return default if value is None else value.upper() == "ENABLED"


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


@dataclass(slots=True)
class QueueAttrs:
    """A queue's performance-event attributes (MQSC names in the comments; MQ defaults)."""

    name: str
    max_depth: int = 5000                           # MAXDEPTH
    depth_high_limit: int = 80                      # QDEPTHHI, % of MAXDEPTH
    depth_low_limit: int = 20                       # QDEPTHLO, % of MAXDEPTH
    depth_high_event: bool = False                  # QDPHIEV
    depth_low_event: bool = False                   # QDPLOEV
    depth_max_event: bool = True                    # QDPMAXEV (MQ's default is ENABLED)
    service_interval_event: int = mqc.MQQSIE_NONE   # QSVCIEV
    service_interval: int = 999_999_999             # QSVCINT, milliseconds
    shared: bool = False                            # QSGDISP(SHARED)

    @classmethod
    def from_mqsc(cls, name: str, attrs: Mapping[str, str]) -> QueueAttrs:
        """From MQSC attributes as written (full keywords, upper case values)."""
        return cls(
            name=name,
            max_depth=_int(attrs.get("MAXDEPTH"), 5000),
            depth_high_limit=_int(attrs.get("QDEPTHHI"), 80),
            depth_low_limit=_int(attrs.get("QDEPTHLO"), 20),
            depth_high_event=_flag(attrs.get("QDPHIEV")),
            depth_low_event=_flag(attrs.get("QDPLOEV")),
            depth_max_event=_flag(attrs.get("QDPMAXEV"), True),
            service_interval_event=_QSVCIEV.get(attrs.get("QSVCIEV", "NONE").upper(),
                                                 mqc.MQQSIE_NONE),
            service_interval=_int(attrs.get("QSVCINT"), 999_999_999),
            shared=attrs.get("QSGDISP", "").upper() == "SHARED")

    def reaches_high(self, depth: int) -> bool:
        """depth >= QDEPTHHI % of MAXDEPTH."""
        return depth * 100 >= self.depth_high_limit * self.max_depth

    def reaches_low(self, depth: int) -> bool:
        """depth <= QDEPTHLO % of MAXDEPTH."""
        return depth * 100 <= self.depth_low_limit * self.max_depth

    @property
    def high_depth(self) -> int:
        """The least depth that `reaches_high`."""
        return -(-(self.depth_high_limit * self.max_depth) // 100)

    @property
    def low_depth(self) -> int:
        """The greatest depth that `reaches_low`."""
        return (self.depth_low_limit * self.max_depth) // 100

    def quiet_puts(self, depth: int, high_armed: bool) -> int:
        """How many puts from `depth` only count (no depth event, no full queue): the put
        that may raise Queue Depth High, and any past MAXDEPTH, are not among them."""
        room = self.max_depth - depth
        if high_armed:
            room = min(room, self.high_depth - depth - 1)
        return max(0, room)

    def quiet_gets(self, depth: int, low_armed: bool, keep: int = 0) -> int:
        """How many gets from `depth` only count (no Queue Depth Low, `keep` messages left
        at least)."""
        room = depth - keep
        if low_armed:
            room = min(room, depth - self.low_depth - 1)
        return max(0, room)


@dataclass(frozen=True, slots=True)
class PerfEvent:
    """A performance event the queue manager raised (lost: the event queue was unavailable)."""

    time_ms: int
    qmgr: str
    queue: str
    reason: int
    time_since_reset: int   # seconds
    high_q_depth: int
    msg_enq_count: int
    msg_deq_count: int
    correl_id: bytes | None = None
    lost: bool = False

    @property
    def name(self) -> str:
        """'Queue Depth High' ..."""
        return REASON_NAMES.get(self.reason, str(self.reason))


@dataclass(frozen=True, slots=True)
class Failure:
    """An operation that failed (MQRC_Q_FULL, MQRC_NO_MSG_AVAILABLE, unknown queue ...);
    `count` of them in a row, alike (the puts of a batch to a full queue ...)."""

    time_ms: int
    qmgr: str
    queue: str
    op: str
    reason: int
    count: int = 1


Outcome = PerfEvent | Failure


@dataclass(slots=True)
class Statistics:
    """The event statistics since the last reset."""

    reset_ms: int = 0
    high_q_depth: int = 0
    msg_enq_count: int = 0
    msg_deq_count: int = 0

    def reset(self, time_ms: int, depth: int) -> None:
        """Start again at `time_ms`; HighQDepth starts at the current depth."""
        self.reset_ms, self.high_q_depth = time_ms, depth
        self.msg_enq_count = self.msg_deq_count = 0


@dataclass(slots=True)
class QueueState:
    """A queue's live state: depth, service timer, the enabled events, statistics."""

    attrs: QueueAttrs
    depth: int = 0
    timer_ms: int | None = None          # None: the service timer is OFF
    high_enabled: bool = False
    low_enabled: bool = False
    full_enabled: bool = False
    service_event: int = mqc.MQQSIE_NONE  # what QSVCIEV says now (HIGH/OK toggle)
    stats: Statistics = field(default_factory=Statistics)

    @classmethod
    def start(cls, attrs: QueueAttrs, time_ms: int = 0) -> QueueState:
        """A queue as defined, empty, statistics reset at `time_ms`."""
        return cls(attrs, high_enabled=attrs.depth_high_event,
                   low_enabled=attrs.depth_low_event, full_enabled=attrs.depth_max_event,
                   service_event=attrs.service_interval_event,
                   stats=Statistics(reset_ms=time_ms))

    @property
    def enabled(self) -> dict[str, bool]:
        """Which depth events are enabled now: {'high': .., 'low': .., 'full': ..}."""
        return {"high": self.high_enabled, "low": self.low_enabled, "full": self.full_enabled}


class QueueManagerEngine:
    """One queue manager's performance events over its (non-shared) queues.

    Each operation method returns what it raised: PerfEvents in order and Failures. The
    event queue is unavailable when `event_queue_available` is False or when it is one of
    the engine's queues and full; events then come back with lost=True, state toggled.
    """

    def __init__(self, name: str, queues: Iterable[QueueAttrs], *, perfmev: bool = True,
                 start_ms: int = 0, event_queue: str = PERFM_EVENT_QUEUE) -> None:
        self.name = name
        self.perfmev = perfmev
        self.event_queue = event_queue
        self.event_queue_available = True
        self.queues: dict[str, QueueState] = {q.name: QueueState.start(q, start_ms)
                                              for q in queues}

    # -- inputs --------------------------------------------------------------------------

    def put(self, time_ms: int, queue: str, count: int = 1) -> list[Outcome]:
        """`count` MQPUTs at `time_ms`; a put to a full queue fails and is not counted.

        The work is in the events, not in `count`: puts that can only count are counted
        at once, and the failures past a full queue are one Failure with their count."""
        out: list[Outcome] = []
        q = self.queues.get(queue)
        if q is None:
            return [Failure(time_ms, self.name, queue, "PUT", mqc.MQRC_UNKNOWN_OBJECT_NAME)]
        left = count
        while left > 0:
            if q.depth >= q.attrs.max_depth:   # the first may raise Queue Full; the rest fail
                self._put(time_ms, q, out)
                if left > 1:
                    out.append(Failure(time_ms, self.name, q.attrs.name, "PUT",
                                       mqc.MQRC_Q_FULL, left - 1))
                break
            quiet = min(left, self._quiet_puts(time_ms, q))
            if quiet:
                q.depth += quiet
                q.stats.msg_enq_count += quiet
                q.stats.high_q_depth = max(q.stats.high_q_depth, q.depth)
                left -= quiet
            else:
                self._put(time_ms, q, out)
                left -= 1
        return out

    def get(self, time_ms: int, queue: str, count: int = 1) -> list[Outcome]:
        """`count` destructive MQGETs; a get from an empty queue fails and is not counted
        (the work is in the events, not in `count`, as for `put`)."""
        out: list[Outcome] = []
        q = self.queues.get(queue)
        if q is None:
            return [Failure(time_ms, self.name, queue, "GET", mqc.MQRC_UNKNOWN_OBJECT_NAME)]
        left = count
        while left > 0:
            if q.depth == 0:
                out.append(Failure(time_ms, self.name, q.attrs.name, "GET",
                                   mqc.MQRC_NO_MSG_AVAILABLE, left))
                break
            quiet = min(left, self._quiet_gets(time_ms, q))
            if quiet:
                q.depth -= quiet
                q.stats.msg_deq_count += quiet
                left -= quiet
            else:
                self._get(time_ms, q, out)
                left -= 1
        return out

    def _service_check(self, t: int, q: QueueState, *, get: bool) -> bool:
        """Whether a put (get) at `t` would raise a service-interval event now."""
        if not (self._active(q) and not q.attrs.shared and q.timer_ms is not None):
            return False
        elapsed = t - q.timer_ms
        if q.service_event == mqc.MQQSIE_HIGH and elapsed > q.attrs.service_interval:
            return True
        return get and q.service_event == mqc.MQQSIE_OK and \
            elapsed <= q.attrs.service_interval

    def _quiet_puts(self, t: int, q: QueueState) -> int:
        """Puts at `t` from here that change nothing but the counts (0: the next one may)."""
        if q.depth == 0 or self._service_check(t, q, get=False):
            return 0   # an empty queue's put starts the timer; a service event is due
        return q.attrs.quiet_puts(q.depth, q.high_enabled and self._active(q))

    def _quiet_gets(self, t: int, q: QueueState) -> int:
        """Gets at `t` from here that change nothing but the counts (0: the next one may)."""
        if q.timer_ms != t or self._service_check(t, q, get=True):
            return 0   # the next get sets the timer, or a service event is due
        return q.attrs.quiet_gets(q.depth, q.low_enabled and self._active(q), keep=1)

    def backout(self, time_ms: int, queue: str, count: int = 1) -> list[Outcome]:
        """Roll back `count` uncommitted puts: the messages go, the event state stays."""
        q = self.queues.get(queue)
        if q is None:
            return [Failure(time_ms, self.name, queue, "BACKOUT",
                            mqc.MQRC_UNKNOWN_OBJECT_NAME)]
        q.depth = max(0, q.depth - count)
        if q.depth == 0:
            q.timer_ms = None
        return []

    def reset_stats(self, time_ms: int, queue: str) -> list[Outcome]:
        """RESET QSTATS (PCF Reset Queue Statistics): the statistics start again."""
        q = self.queues.get(queue)
        if q is None:
            return [Failure(time_ms, self.name, queue, "RESET_STATS",
                            mqc.MQRC_UNKNOWN_OBJECT_NAME)]
        q.stats.reset(time_ms, q.depth)
        return []

    def restart(self, time_ms: int) -> list[Outcome]:
        """Queue-manager restart: statistics reset; a non-empty queue's timer starts now."""
        for q in self.queues.values():
            q.stats.reset(time_ms, q.depth)
            q.timer_ms = time_ms if q.depth > 0 else None
        return []

    # -- the rules -----------------------------------------------------------------------

    def _active(self, q: QueueState) -> bool:
        return self.perfmev and q.attrs.name not in EVENT_QUEUE_NAMES \
            and q.attrs.name != self.event_queue

    def _put(self, t: int, q: QueueState, out: list[Outcome]) -> None:
        reasons: list[int] = []
        active = self._active(q)
        if q.depth >= q.attrs.max_depth:
            out.append(Failure(t, self.name, q.attrs.name, "PUT", mqc.MQRC_Q_FULL))
            if active and q.full_enabled:
                q.full_enabled, q.low_enabled = False, True
                reasons.append(mqc.MQRC_Q_FULL)
                self._emit(t, q, reasons, out)
            return
        was_empty = q.depth == 0
        q.depth += 1
        q.stats.msg_enq_count += 1
        q.stats.high_q_depth = max(q.stats.high_q_depth, q.depth)
        if active and not q.attrs.shared and q.service_event == mqc.MQQSIE_HIGH \
                and q.timer_ms is not None and t - q.timer_ms > q.attrs.service_interval:
            q.service_event = mqc.MQQSIE_OK
            reasons.append(mqc.MQRC_Q_SERVICE_INTERVAL_HIGH)
        if was_empty:
            q.timer_ms = t
        if active and q.high_enabled and q.attrs.reaches_high(q.depth):
            q.high_enabled, q.low_enabled, q.full_enabled = False, True, True
            reasons.append(mqc.MQRC_Q_DEPTH_HIGH)
        self._emit(t, q, reasons, out)

    def _get(self, t: int, q: QueueState, out: list[Outcome]) -> None:
        if q.depth == 0:
            out.append(Failure(t, self.name, q.attrs.name, "GET", mqc.MQRC_NO_MSG_AVAILABLE))
            return
        reasons: list[int] = []
        active = self._active(q)
        q.depth -= 1
        q.stats.msg_deq_count += 1
        if active and not q.attrs.shared and q.timer_ms is not None:
            elapsed = t - q.timer_ms
            if q.service_event == mqc.MQQSIE_HIGH and elapsed > q.attrs.service_interval:
                q.service_event = mqc.MQQSIE_OK
                reasons.append(mqc.MQRC_Q_SERVICE_INTERVAL_HIGH)
            elif q.service_event == mqc.MQQSIE_OK and elapsed <= q.attrs.service_interval:
                q.service_event = mqc.MQQSIE_HIGH
                reasons.append(mqc.MQRC_Q_SERVICE_INTERVAL_OK)
        q.timer_ms = t if q.depth > 0 else None
        if active and q.low_enabled and q.attrs.reaches_low(q.depth):
            q.low_enabled, q.high_enabled, q.full_enabled = False, True, True
            reasons.append(mqc.MQRC_Q_DEPTH_LOW)
        self._emit(t, q, reasons, out)

    def _emit(self, t: int, q: QueueState, reasons: list[int], out: list[Outcome]) -> None:
        """The events of one operation: one statistics snapshot, then one reset [derived]."""
        if not reasons:
            return
        s = q.stats
        for reason in reasons:
            lost = not self._event_queue_takes_one()
            out.append(PerfEvent(t, self.name, q.attrs.name, reason,
                                 (t - s.reset_ms) // 1000, s.high_q_depth, s.msg_enq_count,
                                 s.msg_deq_count, lost=lost))
        s.reset(t, q.depth)

    def _event_queue_takes_one(self) -> bool:
        if not self.event_queue_available:
            return False
        eq = self.queues.get(self.event_queue)
        if eq is None:
            return True
        if eq.depth >= eq.attrs.max_depth:
            return False
        eq.depth += 1
        eq.stats.msg_enq_count += 1
        eq.stats.high_q_depth = max(eq.stats.high_q_depth, eq.depth)
        return True

    def snapshot(self, queue: str) -> QueueState:
        """A copy of a queue's state (for display and tests)."""
        q = self.queues[queue]
        return replace(q, stats=replace(q.stats))
