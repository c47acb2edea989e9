"""The simulator writes MQ events as a queue manager does: performance, configuration, channel.

`SimEvents(sim)` watches a Simulator's MQI calls (its observer API): every successful put
and destructive get drives the performance-event engine of that queue manager
(traceroute.events; PERFMEV and the queues' QDPHIEV/QDPLOEV/QDPMAXEV/QSVCIEV/QSVCINT
from the MQSC), and each event becomes a real PCF event message put to
SYSTEM.ADMIN.PERFM.EVENT. A sending MCA that starts (its MQCONN) gives Channel Started, one
ended by STOP CHANNEL (its MQDISC while the channel is stopped) Channel Stopped By User, on
SYSTEM.ADMIN.CHANNEL.EVENT when CHLEV(ENABLED). An event queue that is put-inhibited or
full loses the event message (`lost`), the event still happens. `mqsc()` applies MQSC to
the running network and writes Create/Change/Delete Object events when CONFIGEV(ENABLED);
`refresh()` is REFRESH QMGR TYPE(CONFIGEV). The simulator does not enforce MAXDEPTH: Queue
Full comes from the engine's own count of the queue.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

from pcf import mqc
from traceroute.events.build import event_message, perf_event
from traceroute.events.config import CONFIG_KINDS, change_events, channel_event, config_event
from traceroute.events.engine import PerfEvent
from traceroute.events.model import Event
from traceroute.events.replay import Estate, Op
from traceroute.sim.mqi import MQCONN, MQDISC, MQGET, MQPUT, MQPUT1, SimCall
from traceroute.sim.mqsc.apply import Session
from traceroute.sim.mqsc.syntax import Command, MQSCError, _items
from traceroute.sim.network import QUEUE_KINDS, QueueManager
from traceroute.sim.simulator import Simulator

_SENDERS = (mqc.MQCHT_SENDER, mqc.MQCHT_SERVER, mqc.MQCHT_CLUSSDR)


def _enabled(qm: QueueManager, keyword: str) -> bool:
    return qm.attrs.get(keyword, "DISABLED").upper() == "ENABLED"


class SimEvents:
    """Performance, channel and configuration events of a simulated network."""

    def __init__(self, sim: Simulator, *, write: bool = True) -> None:
        self.sim = sim
        self.write = write
        self.estate = Estate.from_network(sim.network)
        self.events: list[Event] = []      # every event raised, in order (lost ones too)
        self.lost: list[Event] = []        # events whose message could not be put
        self._correl = 0
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
        if call.verb in (MQPUT, MQPUT1, MQGET) and call.comp_code != mqc.MQCC_FAILED \
                and call.local_queue:
            if call.verb == MQGET and call.options & (mqc.MQGMO_BROWSE_FIRST
                                                      | mqc.MQGMO_BROWSE_NEXT):
                return
            op = "GET" if call.verb == MQGET else "PUT"
            t_ms = round(call.time * 1000)
            for outcome in self.estate.apply(Op(t_ms, qmgr, call.local_queue, op)):
                if isinstance(outcome, PerfEvent):
                    event = perf_event(outcome)
                    event.time = self._when(outcome.qmgr, call.time)
                    self._emit(event, "SYSTEM.ADMIN.PERFM.EVENT", outcome.lost)
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
