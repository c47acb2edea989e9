"""Shared queues in a queue-sharing group (z/OS): depth events coordinated across members.

The seed's rules (spec/events.md §5): the shared definition's depth-event attributes toggle
when the event criteria are met even if PERFMEV is DISABLED; the queue manager that
detected the event becomes the coordinator and, when PERFMEV-enabled, issues an event
message with its own statistics and a new CorrelId, then asks every other active member;
each active PERFMEV-enabled member answers with its own statistics since its last event
message or reset ("null" values when it did nothing), under the coordinator's CorrelId.
Service-interval events do not exist for shared queues. Pure: events come back as values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pcf import mqc
from traceroute.events.engine import Failure, Outcome, PerfEvent, QueueAttrs, Statistics


@dataclass(slots=True)
class Member:
    """One queue manager of the group as the shared queue sees it."""

    name: str
    perfmev: bool
    active: bool = True
    stats: Statistics = field(default_factory=Statistics)


class SharedQueue:
    """One shared queue (QSGDISP(SHARED)) and the group members that use it."""

    def __init__(self, attrs: QueueAttrs, members: Mapping[str, bool], *,
                 start_ms: int = 0) -> None:
        self.attrs = attrs
        self.depth = 0
        self.high_enabled = attrs.depth_high_event
        self.low_enabled = attrs.depth_low_event
        self.full_enabled = attrs.depth_max_event
        self.members = {name: Member(name, on, stats=Statistics(reset_ms=start_ms))
                        for name, on in members.items()}
        self._sets = 0

    @property
    def enabled(self) -> dict[str, bool]:
        """The shared definition's depth-event attributes now."""
        return {"high": self.high_enabled, "low": self.low_enabled, "full": self.full_enabled}

    def set_perfmev(self, qmgr: str, enabled: bool) -> None:
        """ALTER QMGR PERFMEV on one member."""
        self.members[qmgr].perfmev = enabled

    def set_active(self, qmgr: str, active: bool) -> None:
        """A member starts or stops (inactive members are not asked for event messages)."""
        self.members[qmgr].active = active

    def reset_stats(self, time_ms: int, qmgr: str) -> list[Outcome]:
        """RESET QSTATS issued on one member."""
        self.members[qmgr].stats.reset(time_ms, 0)
        return []

    def put(self, time_ms: int, qmgr: str, count: int = 1) -> list[Outcome]:
        """`count` MQPUTs by a member."""
        out: list[Outcome] = []
        m = self.members.get(qmgr)
        if m is None:
            return [Failure(time_ms, qmgr, self.attrs.name, "PUT",
                            mqc.MQRC_UNKNOWN_OBJECT_NAME)]
        left = count
        while left > 0:   # the work is in the events, not in `count` (see the engine)
            if self.depth >= self.attrs.max_depth:
                out.append(Failure(time_ms, qmgr, self.attrs.name, "PUT", mqc.MQRC_Q_FULL))
                if self.full_enabled:
                    self.full_enabled, self.low_enabled = False, True
                    self._event_set(time_ms, m, mqc.MQRC_Q_FULL, out)
                if left > 1:
                    out.append(Failure(time_ms, qmgr, self.attrs.name, "PUT",
                                       mqc.MQRC_Q_FULL, left - 1))
                break
            step = max(1, min(left, self.attrs.quiet_puts(self.depth, self.high_enabled)))
            self.depth += step
            left -= step
            m.stats.msg_enq_count += step
            m.stats.high_q_depth = max(m.stats.high_q_depth, self.depth)
            if self.high_enabled and self.attrs.reaches_high(self.depth):
                self.high_enabled, self.low_enabled, self.full_enabled = False, True, True
                self._event_set(time_ms, m, mqc.MQRC_Q_DEPTH_HIGH, out)
        return out

    def get(self, time_ms: int, qmgr: str, count: int = 1) -> list[Outcome]:
        """`count` destructive MQGETs by a member."""
        out: list[Outcome] = []
        m = self.members.get(qmgr)
        if m is None:
            return [Failure(time_ms, qmgr, self.attrs.name, "GET",
                            mqc.MQRC_UNKNOWN_OBJECT_NAME)]
        left = count
        while left > 0:
            if self.depth == 0:
                out.append(Failure(time_ms, qmgr, self.attrs.name, "GET",
                                   mqc.MQRC_NO_MSG_AVAILABLE, left))
                break
            step = max(1, min(left, self.attrs.quiet_gets(self.depth, self.low_enabled)))
            self.depth -= step
            left -= step
            m.stats.msg_deq_count += step
            if self.low_enabled and self.attrs.reaches_low(self.depth):
                self.low_enabled, self.high_enabled, self.full_enabled = False, True, True
                self._event_set(time_ms, m, mqc.MQRC_Q_DEPTH_LOW, out)
        return out

    def _event_set(self, t: int, coordinator: Member, reason: int,
                   out: list[Outcome]) -> None:
        """The coordinator's message, then one per other active PERFMEV-enabled member."""
        if not coordinator.perfmev:
            return  # attributes toggled above; no message, no broadcast
        self._sets += 1
        correl = (b"AMQ " + coordinator.name.encode("ascii", "replace")[:12].ljust(12)
                  + self._sets.to_bytes(8, "big"))
        answering = [coordinator] + [m for m in self.members.values()
                                     if m is not coordinator and m.active and m.perfmev]
        for m in answering:
            s = m.stats
            out.append(PerfEvent(t, m.name, self.attrs.name, reason, (t - s.reset_ms) // 1000,
                                 s.high_q_depth, s.msg_enq_count, s.msg_deq_count,
                                 correl_id=correl))
            s.reset(t, 0)
