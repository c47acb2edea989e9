"""The simulator writes MQ events as a queue manager does: queue manager, performance,
channel and configuration events.

`SimEvents(sim)` watches a Simulator's MQI calls (its observer API). A call that fails for
the reason of a queue manager event (local, remote, inhibit, authority: the catalog in
traceroute.events.catalog) makes its queue manager write that event on
SYSTEM.ADMIN.QMGR.EVENT when the event's switch (LOCALEV, REMOTEEV, INHIBTEV, AUTHOREV) is
ENABLED, with the call's reason and the object the failure is about (the simulator's name
resolution says both: one source for the call's result, activity trace and the event).
Every put and destructive get drives the performance-event engine of that queue manager
(traceroute.events; PERFMEV and the queues' QDPHIEV/QDPLOEV/QDPMAXEV/QSVCIEV/QSVCINT from
the MQSC) at the queue's real depth; a put refused with MQRC_Q_FULL is the engine's full
put (Queue Full). Each event becomes a real PCF event message put to its event queue. A
sending MCA that starts (its MQCONN) gives Channel Started, one ended by STOP CHANNEL (its
MQDISC while the channel is stopped) Channel Stopped By User, on SYSTEM.ADMIN.CHANNEL.EVENT
when CHLEV(ENABLED). An event queue that is put-inhibited or full loses the event message
(`lost`), the event still happens. `mqsc()` applies MQSC to the running network and writes
Create/Change/Delete Object events when CONFIGEV(ENABLED); `refresh()` is REFRESH QMGR
TYPE(CONFIGEV).
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

from pcf import mqc
from traceroute.events.build import event_message, perf_event
from traceroute.events.catalog import EventKind
from traceroute.events.config import CONFIG_KINDS, change_events, channel_event, config_event
from traceroute.events.engine import PerfEvent
from traceroute.events.model import Event
from traceroute.events.qmgr import FailedCall, event_kind, mqi_event
from traceroute.events.replay import Estate, Op
from traceroute.sim.crtmqm import QMGR_DEFAULTS
from traceroute.sim.mqi import MQCONN, MQDISC, MQGET, MQOPEN, MQPUT, MQPUT1, SimCall
from traceroute.sim.mqsc.apply import Session
from traceroute.sim.mqsc.syntax import Command, MQSCError, _items
from traceroute.sim.network import QUEUE_KINDS, QueueManager
from traceroute.sim.simulator import Simulator

_SENDERS = (mqc.MQCHT_SENDER, mqc.MQCHT_SERVER, mqc.MQCHT_CLUSSDR)


def qmgr_attr(qm: QueueManager, keyword: str) -> str:
    """A queue-manager attribute as ALTER QMGR left it, else crtmqm's default."""
    return (qm.attrs.get(keyword) or QMGR_DEFAULTS.get(keyword, "")).upper()


def _enabled(qm: QueueManager, keyword: str) -> bool:
    return qmgr_attr(qm, keyword) == "ENABLED"


def switched_on(qm: QueueManager, kind: EventKind, qualifier: int = 0) -> bool:
    """Whether qm writes events of `kind` now: its switch ENABLED (CHLEV(EXCEPTION): the
    exception events only; CMDEV(NODISPLAY): the caller leaves out DISPLAY commands)."""
    value = qmgr_attr(qm, kind.switch)
    if value == "EXCEPTION":
        return kind.exception and not (kind.reason == mqc.MQRC_CHANNEL_STOPPED
                                       and qualifier == mqc.MQRQ_CHANNEL_STOPPED_OK)
    return value in ("ENABLED", "NODISPLAY")


class SimEvents:
    """Performance, channel and configuration events of a simulated network."""

    def __init__(self, sim: Simulator, *, write: bool = True) -> None:
        self.sim = sim
        self.write = write
        self.estate = Estate.from_network(sim.network)
        self.events: list[Event] = []      # every event raised, in order (lost ones too)
        self.lost: list[Event] = []        # events whose message could not be put
        self._correl = 0
        self._failed_opens: set[tuple[bytes, int | None]] = set()
        sim.add_observer(self._call)

    # --- time and writing ---------------------------------------------------------------

    def _when(self, qmgr: str, seconds: float | None = None) -> datetime:
        t = self.sim.now if seconds is None else seconds
        start = self.sim.start if self.sim.start.tzinfo else self.sim.start.replace(tzinfo=UTC)
        return start + timedelta(seconds=t + self.sim.clock_skew.get(qmgr, 0.0))

    def _unavailable(self, qmgr: str, queue: str) -> bool:
        """The event queue is put-inhibited or full: the event message is lost [doc]."""
        qm = self.sim.network.qmgrs.get(qmgr)
        obj = qm.queues.get(queue) if qm is not None else None
        if obj is None:  # MQ defines the event queues by default
            return False
        if obj.get("PUT").upper() == "DISABLED":
            return True
        try:
            return self.sim.depth(qmgr, queue) >= int(obj.get("MAXDEPTH", "5000"))
        except ValueError:
            return False

    def _emit(self, event: Event, queue: str, lost: bool = False) -> None:
        self.events.append(event)
        lost = lost or self._unavailable(event.source.queue_mgr, queue)
        if lost:
            self.lost.append(event)
            return
        if self.write:
            qm = self.sim.network.qmgrs[event.source.queue_mgr]
            md, data = event_message(event)
            self.sim._store(qm, queue, md, data)

    def _new_correl(self, qmgr: str) -> bytes:
        self._correl += 1
        return (b"AMQ " + qmgr.encode("ascii", "replace")[:12].ljust(12)
                + self._correl.to_bytes(8, "big"))

    # --- MQI calls ----------------------------------------------------------------------

    def _call(self, call: SimCall) -> None:
        qmgr = call.qmgr
        if call.comp_code == mqc.MQCC_FAILED:
            self._failed(call)
            return
        if call.verb in (MQPUT, MQPUT1, MQGET) and call.local_queue:
            if call.verb == MQGET and call.options & (mqc.MQGMO_BROWSE_FIRST
                                                      | mqc.MQGMO_BROWSE_NEXT):
                return
            self._perform(call, "GET" if call.verb == MQGET else "PUT")
        elif call.verb in (MQCONN, MQDISC) and call.conn.mca \
                and call.conn.channel_type in _SENDERS:
            qm = self.sim.network.qmgrs.get(qmgr)
            if qm is None or not _enabled(qm, "CHLEV"):
                return
            ch = qm.channels.get(call.conn.channel)
            xmitq = ch.get("XMITQ") if ch is not None else ""
            conname = ch.get("CONNAME") if ch is not None else ""
            if call.verb == MQCONN:
                event = channel_event(mqc.MQRC_CHANNEL_STARTED, qmgr, call.conn.channel,
                                      self._when(qmgr, call.time), xmitq=xmitq,
                                      conname=conname)
            elif call.conn.channel in qm.stopped:
                event = channel_event(mqc.MQRC_CHANNEL_STOPPED_BY_USER, qmgr,
                                      call.conn.channel, self._when(qmgr, call.time),
                                      qualifier=mqc.MQRQ_CHANNEL_STOPPED_DISABLED)
            else:
                return
            self._emit(event, "SYSTEM.ADMIN.CHANNEL.EVENT")

    def _perform(self, call: SimCall, op: str) -> None:
        """A put or a destructive get on a local queue drives the performance events; the
        engine's depth is the queue's real depth before the call (messages the queue
        manager put itself, reports and dead letters, count too)."""
        engine = self.estate.engines.get(call.qmgr)
        state = engine.queues.get(call.local_queue) if engine is not None else None
        if state is not None and not state.attrs.shared:
            depth = self.sim.depth(call.qmgr, call.local_queue)
            # observers hear of a put before the message is stored, of a get after
            state.depth = depth + 1 if op == "GET" and call.comp_code != mqc.MQCC_FAILED \
                else depth
        t_ms = round(call.time * 1000)
        for outcome in self.estate.apply(Op(t_ms, call.qmgr, call.local_queue, op)):
            if isinstance(outcome, PerfEvent):
                event = perf_event(outcome)
                event.time = self._when(outcome.qmgr, call.time)
                self._emit(event, "SYSTEM.ADMIN.PERFM.EVENT", outcome.lost)

    def _failed(self, call: SimCall) -> None:
        """A failed MQI call: its queue manager event (local, remote, inhibit, authority),
        when that kind is switched on; a put refused because the queue is full is a put
        the performance events count as such (Queue Full)."""
        if call.verb in (MQPUT, MQPUT1) and call.reason == mqc.MQRC_Q_FULL \
                and call.local_queue:
            self._perform(call, "PUT")
            return
        key = (call.conn.conn_id, call.hobj)
        if call.verb == MQOPEN:
            self._failed_opens.add(key)
        elif call.verb == MQPUT and key in self._failed_opens:
            return  # a put on the handle of a failed open: the open's event said it
        if call.failure is not None and call.failure.quiet:
            return
        qm = self.sim.network.qmgrs.get(call.qmgr)
        kind = event_kind(call.reason, call.qualifier)
        if qm is None or kind is None or not switched_on(qm, kind):
            return
        failure = call.failure
        conn = call.conn
        event = mqi_event(FailedCall(
            call.reason, call.qmgr, conn.appl_type, conn.appl_name,
            queue=call.object_name, object_qmgr=call.object_qmgr,
            related=failure.related if failure is not None else "",
            related_type=failure.related_type if failure is not None else 0,
            conn_name=conn.partner if conn.client else "",
            channel=conn.channel if conn.client else "", user=conn.user,
            qualifier=call.qualifier, options=call.options), self._when(call.qmgr, call.time))
        if event is not None:
            self._emit(event, kind.queue)

    # --- configuration ------------------------------------------------------------------

    def mqsc(self, text: str, qmgr: str, *, source: str = "<mqsc>") -> list[Event]:
        """Apply MQSC to the running network; the configuration events it raised."""
        network = self.sim.network
        session = Session(network, qmgr, reading=False)
        raised: list[Event] = []
        altered: list[tuple[str, str, dict[str, str]]] = []
        resets: list[tuple[str, str]] = []
        for item in _items(text, source):
            if isinstance(item, MQSCError):
                raise item
            if not isinstance(item, Command):
                session.header(item.name)
                continue
            if session.current is None:
                outcome = session.execute(item)  # fails: no queue manager named
                assert outcome.error is not None
                raise outcome.error
            qm = network.qmgr(session.current)
            if item.verb == "RESET" and item.kind == "QSTATS" and item.name:
                resets.append((qm.name, item.name))
                continue
            if item.verb in ("ALTER", "DEFINE") and item.kind == "QLOCAL" and item.name:
                altered.append((qm.name, item.name, dict(item.attrs)))
            before = self._object(qm, item.kind, item.name)
            outcome = session.execute(item)
            if not outcome.ok:
                assert outcome.error is not None
                raise outcome.error
            after = self._object(qm, item.kind, item.name)
            if item.kind == "QMGR":
                if item.verb == "REFRESH" and item.attrs.get("TYPE", "").upper() == "CONFIGEV":
                    obj_kind = item.attrs.get("OBJECT", "").upper()
                    raised += self.refresh(qm.name, kind=None if obj_kind in ("", "ALL")
                                           else obj_kind, name=item.attrs.get("NAME"))
                continue
            if not _enabled(qm, "CONFIGEV") or item.kind not in CONFIG_KINDS \
                    or item.name is None:
                continue
            raised += self._config(qm, item.verb, item.kind, item.name, before, after)
        self.estate = self._rebuild()
        t_ms = round(self.sim.now * 1000)
        for qmgr_name, queue, attrs in altered:
            self._set_flags(qmgr_name, queue, attrs)
        for qmgr_name, queue in resets:
            engine = self.estate.engines.get(qmgr_name)
            if engine is not None and queue in engine.queues:
                engine.reset_stats(t_ms, queue)
        return raised

    def _set_flags(self, qmgr: str, queue: str, attrs: dict[str, str]) -> None:
        """ALTER QLOCAL QDPHIEV/QDPLOEV/QDPMAXEV/QSVCIEV sets the live enabling state."""
        engine = self.estate.engines.get(qmgr)
        state = engine.queues.get(queue) if engine is not None else None
        if state is None:
            return
        a = state.attrs
        if "QDPHIEV" in attrs:
            state.high_enabled = a.depth_high_event
        if "QDPLOEV" in attrs:
            state.low_enabled = a.depth_low_event
        if "QDPMAXEV" in attrs:
            state.full_enabled = a.depth_max_event
        if "QSVCIEV" in attrs:
            state.service_event = a.service_interval_event

    def _rebuild(self) -> Estate:
        """Engines for objects defined since, keeping the state of the existing queues."""
        fresh = Estate.from_network(self.sim.network)
        for name, engine in fresh.engines.items():
            old = self.estate.engines.get(name)
            if old is None:
                continue
            for qname, state in engine.queues.items():
                kept = old.queues.get(qname)
                if kept is not None:
                    kept.attrs = state.attrs
                    engine.queues[qname] = kept
        fresh.shared.update({k: v for k, v in self.estate.shared.items() if k in fresh.shared})
        return fresh

    @staticmethod
    def _object(qm: QueueManager, kind: str, name: str | None) -> dict[str, str] | None:
        if name is None:
            return None
        store = qm.queues if kind in QUEUE_KINDS else qm.channels if kind == "CHANNEL" \
            else None
        obj = store.get(name) if store is not None else qm.others.get((kind, name))
        return copy.deepcopy(obj.attrs) if obj is not None and obj.kind == kind else None

    def _config(self, qm: QueueManager, verb: str, kind: str, name: str,
                before: dict[str, str] | None, after: dict[str, str] | None) -> list[Event]:
        when = self._when(qm.name)
        correl = self._new_correl(qm.name)
        if verb == "DELETE" and before is not None:
            events = [config_event(mqc.MQRC_CONFIG_DELETE_OBJECT, qm.name, kind, name, before,
                                   when, correl_id=correl)]
        elif verb in ("DEFINE", "ALTER") and after is not None:
            if before is None:
                events = [config_event(mqc.MQRC_CONFIG_CREATE_OBJECT, qm.name, kind, name,
                                       after, when, correl_id=correl)]
            else:  # ALTER, or DEFINE REPLACE: even when nothing changed [doc]
                events = change_events(qm.name, kind, name, before, after, when, correl)
        else:
            return []
        for e in events:
            self._emit(e, "SYSTEM.ADMIN.CONFIG.EVENT")
        return events

    def refresh(self, qmgr: str, *, kind: str | None = None,
                name: str | None = None) -> list[Event]:
        """REFRESH QMGR TYPE(CONFIGEV) [OBJECT(kind)] [NAME(generic*)]: one Refresh Object
        event per matching object, when CONFIGEV(ENABLED)."""
        qm = self.sim.network.qmgrs[qmgr]
        if not _enabled(qm, "CONFIGEV"):
            return []
        when = self._when(qmgr)
        objects = [*qm.queues.values(), *qm.channels.values(), *qm.others.values()]
        out: list[Event] = []
        for obj in sorted(objects, key=lambda o: (o.kind, o.name)):
            if obj.kind not in CONFIG_KINDS or (kind and obj.kind != kind):
                continue
            if name and not (obj.name == name or (name.endswith("*")
                                                  and obj.name.startswith(name[:-1]))):
                continue
            event = config_event(mqc.MQRC_CONFIG_REFRESH_OBJECT, qmgr, obj.kind, obj.name,
                                 obj.attrs, when, correl_id=self._new_correl(qmgr))
            self._emit(event, "SYSTEM.ADMIN.CONFIG.EVENT")
            out.append(event)
        return out
