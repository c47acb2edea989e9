"""The estate's queue managers write statistics, accounting, activity trace and events as
they run, by the clock, between commands as well as during them.

Every queue manager of an estate folder has the monitoring engines a queue manager has
(`traceroute.sim.statistics`, `traceroute.sim.activity_trace`, `traceroute.sim.events`),
attached when the estate is loaded. What they have counted and not yet written is kept in
DIR/QMGR/monitoring.json between commands, with the connections that outlive a command:

* a channel that runs goes on running (its instance, the partner it reaches and when it
  last moved a message, for DISCINT), its agents (MCAs) connected, until it stops (STOP
  CHANNEL ends the sender's agent and its partner's receiving agent) or ends after DISCINT
  without messages; the command server (amqpcsea) stays connected;
* an application connection (amqsput, amqsget, a reader) ends with the command that made
  it: MQDISC, so its final accounting and activity trace are written then.

Each time the estate is opened the clock has moved on: a statistics interval that has
ended (STATINT) is written then, intermediate accounting after ACCTINT, and the activity
trace of a connection whose ActivityInterval has passed (a channel agent's included). So a
reader that waits (`mqroute stats -m QM1 --network DIR --wait 60`) sees them arrive.
`RESET QMGR TYPE(STATISTICS)` (runmqsc, or the PCF Reset Queue Manager with
MQACT_COLLECT_STATISTICS) ends the interval at once.

A queue manager's mqat.ini is DIR/QMGR/mqat.ini when there is one; otherwise `DEFAULT_MQAT`:
IBM's default (tracing off for amqsact) and the same for mqroute's own readers, so that a
reader of SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE is not traced itself.
"""

from __future__ import annotations

import json

from traceroute.sim.activity_trace import ActivityTracer, MqatError, MqatIni, parse_mqat_ini
from traceroute.sim.cmdserver import CommandServer
from traceroute.sim.cmdserver.monitor import COMMAND_SERVER
from traceroute.sim.estate.folder import file_name
from traceroute.sim.estate.units import READER_KIND
from traceroute.sim.events import SimEvents
from traceroute.sim.mqi import SimConnection
from traceroute.sim.pubsub import API, Subscription
from traceroute.sim.simulator import Simulator, Watcher
from traceroute.sim.state import StateError, from_json, to_json
from traceroute.sim.statistics import StatisticsCollector

MONITORING = "monitoring.json"
MQAT = "mqat.ini"
FORMAT = "mqroute estate monitoring"
#: Application connections that live between commands (queue manager processes).
LASTING = frozenset({COMMAND_SERVER})
#: A queue manager's mqat.ini when its folder has none.
DEFAULT_MQAT = """\
# mqat.ini of a simulated queue manager (DIR/QMGR/mqat.ini replaces it)
AllActivityTrace:
   ActivityInterval=1
   ActivityCount=100
   TraceLevel=MEDIUM
   TraceMessageData=0
   StopOnGetTraceMsg=ON
   SubscriptionDelivery=BATCHED

# IBM's default: the amqsact sample is not traced
ApplicationTrace:
   ApplClass=USER
   ApplName=amqsact*
   Trace=OFF

# nor are mqroute's own readers of the system queues
ApplicationTrace:
   ApplClass=USER
   ApplName=mqroute*
   Trace=OFF
"""

__all__ = ["DEFAULT_MQAT", "FORMAT", "LASTING", "MONITORING", "MQAT", "Engines"]


class Engines(Watcher):
    """The monitoring engines of an estate's simulator, their state kept between commands."""

    def __init__(self, sim: Simulator, server: CommandServer,
                 mqat: dict[str, MqatIni] | None = None) -> None:
        self.sim = sim
        self.server = server
        self.statistics = StatisticsCollector(sim)
        self.activity = ActivityTracer(sim, mqat=dict(mqat or {}))
        self.events = SimEvents(sim)
        sim.add_watcher(self)
        server.reset_statistics = self.statistics.reset_statistics  # type: ignore[attr-defined]

    # --- loading ---------------------------------------------------------------------------

    @staticmethod
    def mqat_of(text: str | None, where: str) -> MqatIni:
        """A queue manager's mqat.ini (its folder's, else DEFAULT_MQAT); StateError naming a
        bad line."""
        try:
            return parse_mqat_ini(text if text is not None else DEFAULT_MQAT, source=where)
        except MqatError as e:
            raise StateError(str(e)) from None

    def load(self, qmgr: str, text: str | None, where: str) -> None:
        """Go on from a queue manager's monitoring.json (None: nothing kept)."""
        if text is None:
            return
        try:
            data = json.loads(text)
        except ValueError as e:
            raise StateError(f"{where}: not JSON ({e})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise StateError(f"{where}: not an estate's {MONITORING}")
        instances = data.get("instances") or {}
        if not isinstance(instances, dict):
            raise StateError(f"{where}: instances is not a JSON object")
        for channel, item in instances.items():
            here = f"{where}: instances[{channel}]"
            if not isinstance(item, dict):
                raise StateError(f"{here}: not a JSON object")
            self.sim.resume_instance(qmgr, channel,
                                     from_json(str, item.get("partner"), f"{here}.partner"),
                                     from_json(float | None, item.get("active_at"),
                                               f"{here}.active_at"))
        for n, item in enumerate(data.get("connections") or []):
            here = f"{where}: connections[{n}]"
            if not isinstance(item, dict):
                raise StateError(f"{here}: not a JSON object")
            kind = from_json(str, item.get("kind"), f"{here}.kind")
            name = from_json(str, item.get("name"), f"{here}.name")
            conn = from_json(SimConnection, item.get("conn"), f"{here}.conn")
            self.sim.resume_connection(kind, name, conn)
        for n, item in enumerate(data.get("subscriptions") or []):
            sub = from_json(Subscription, item, f"{where}: subscriptions[{n}]")
            if sub.qmgr != qmgr or sub.durable or sub.dest not in self.sim.network.qmgrs[
                    qmgr].queues:
                raise StateError(f"{where}: subscriptions[{n}]: not a non-durable "
                                 f"subscription of {qmgr} with its managed queue")
            self.sim.pubsub.add(sub)
        statistics = data.get("statistics") or {}
        if not isinstance(statistics, dict):
            raise StateError(f"{where}: statistics is not a JSON object")
        self.statistics.import_state(qmgr, statistics, where=f"{where}: statistics")
        activity = data.get("activity") or []
        if not isinstance(activity, list):
            raise StateError(f"{where}: activity is not a list")
        self.activity.import_state(qmgr, activity, where=f"{where}: activity")
        self._load_events(qmgr, data.get("events") or {}, f"{where}: events")
        log, kept = self.events.logs.get(qmgr), data.get("log")
        if log is not None and kept is not None:
            if not isinstance(kept, dict):
                raise StateError(f"{where}: log is not a JSON object")
            try:
                log.import_state(kept, f"{where}: log")
            except ValueError as e:
                raise StateError(str(e)) from None

    _EVENT_FIELDS = (("depth", int), ("timer_ms", int | None), ("high_enabled", bool),
                     ("low_enabled", bool), ("full_enabled", bool), ("service_event", int))

    def _load_events(self, qmgr: str, data: object, where: str) -> None:
        from traceroute.events.engine import Statistics

        if not isinstance(data, dict):
            raise StateError(f"{where}: not a JSON object")
        engine = self.events.estate.engines.get(qmgr)
        queues = data.get("queues") or {}
        if engine is None or not isinstance(queues, dict):
            return
        for name, item in queues.items():
            state = engine.queues.get(name)
            if state is None or not isinstance(item, dict):
                continue  # a queue deleted since: its state went with it
            for key, kind in self._EVENT_FIELDS:
                if key in item:
                    setattr(state, key, from_json(kind, item[key], f"{where}: {name}.{key}"))
            if "stats" in item:
                state.stats = from_json(Statistics, item["stats"], f"{where}: {name}.stats")

    # --- running ---------------------------------------------------------------------------

    def tick(self) -> None:
        """What the clock brings: statistics intervals ended, intermediate accounting,
        activity trace past its interval, channels ended after DISCINT."""
        now = self.sim.now
        self._end_idle_channels()
        self.statistics.tick(now)
        self.statistics.tick_accounting(now)
        self.activity.tick(now)

    def _end_idle_channels(self) -> None:
        monitor = self.server.monitor
        for kind, name, conn in self.sim.connection_table():
            if kind == "sender" and monitor.channel_state(conn.qmgr, name)[0] == "INACTIVE":
                self.sim.disconnect(conn)

    def stopped(self, qmgr: str, channel: str) -> None:
        """STOP CHANNEL: the partner's receiving agent ends with the sender's."""
        for kind, name, conn in self.sim.connection_table():
            if kind == "receiver" and name == channel and conn.qmgr != qmgr:
                self.sim.disconnect(conn)

    def end_command(self) -> None:
        """The command ends: its applications disconnect (the lasting connections stay)."""
        for kind, _name, conn in self.sim.connection_table():
            if kind == "app" and conn.appl_name not in LASTING:
                self.sim.disconnect(conn)

    # --- saving ------------------------------------------------------------------------------

    def state_text(self, qmgr: str) -> str | None:
        """A queue manager's monitoring.json (None when there is nothing to keep)."""
        connections = [{"kind": kind, "name": name, "conn": to_json(conn)}
                       for kind, name, conn in self.sim.connection_table()
                       if conn.qmgr == qmgr]
        data: dict = {}
        instances = {channel: {"partner": partner, "active_at": active_at}
                     for owner, channel, partner, active_at in self.sim.channel_instances()
                     if owner == qmgr}
        if instances:
            data["instances"] = instances
        if connections:
            data["connections"] = connections
        subscriptions = self._lasting_subscriptions(qmgr)
        if subscriptions:
            data["subscriptions"] = subscriptions
        statistics = self.statistics.export_state(qmgr)
        if statistics:
            data["statistics"] = statistics
        activity = self.activity.export_state(qmgr)
        if activity:
            data["activity"] = activity
        events = self._events_state(qmgr)
        if events:
            data["events"] = events
        log = self.events.logs.get(qmgr)  # the recovery log: its extents go on
        if log is not None and log.export_state() != type(log)(qmgr).export_state():
            data["log"] = log.export_state()
        if not data:
            return None
        return json.dumps({"format": FORMAT, **data}, indent=1, sort_keys=True) + "\n"

    def _lasting_subscriptions(self, qmgr: str) -> list:
        """The non-durable subscriptions of the connections that last between commands (a
        live reader's, `follow --subscribe`): they end with their connection, not with the
        command (durable ones are kept by the simulator's identity)."""
        lasting = {conn.appl_name for kind, _name, conn in self.sim.connection_table()
                   if kind == READER_KIND and conn.qmgr == qmgr}
        return [to_json(sub) for sub in self.sim.pubsub.own(self.sim.network, qmgr)
                if not sub.durable and sub.kind == API and sub.appl_name in lasting]

    def _events_state(self, qmgr: str) -> dict:
        engine = self.events.estate.engines.get(qmgr)
        if engine is None or not engine.perfmev:  # PERFMEV(DISABLED): nothing to go on from
            return {}
        queues = {}
        for name, state in engine.queues.items():
            fresh = type(state).start(state.attrs, state.stats.reset_ms)
            item = {k: getattr(state, k) for k, _ in self._EVENT_FIELDS}
            if item != {k: getattr(fresh, k) for k in item} or state.stats != fresh.stats:
                queues[name] = {**item, "stats": to_json(state.stats)}
        return {"queues": queues} if queues else {}


def monitoring_file(qmgr: str) -> str:
    """The folder-relative name of a queue manager's monitoring.json."""
    return f"{file_name(qmgr)}/{MONITORING}"


def mqat_file(qmgr: str) -> str:
    """The folder-relative name of a queue manager's mqat.ini."""
    return f"{file_name(qmgr)}/{MQAT}"
