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
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pcf
from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.events import channel as ch
from traceroute.events.build import event_message, perf_event
from traceroute.events.catalog import BY_NAME, EventKind, build
from traceroute.events.command import command_data, command_event, is_display, mqsc_command
from traceroute.events.config import (
    CONFIG_KINDS,
    RECORD_TYPES,
    AuthorityRecord,
    authority_change_events,
    authority_record_event,
    change_events,
    config_event,
)
from traceroute.events.engine import PerfEvent
from traceroute.events.model import Event
from traceroute.events.objects import OBJECT, QUEUE_TYPES, parameters
from traceroute.events.qmgr import FailedCall, event_kind, mqi_event
from traceroute.events.replay import Estate, Op
from traceroute.sim.authority import command_authorized, expand
from traceroute.sim.channels import Attempt, ChannelError, address_of
from traceroute.sim.crtmqm import QMGR_DEFAULTS, record_key
from traceroute.sim.mqi import MQGET, MQOPEN, MQPUT, MQPUT1, MQSUB, SimCall, SimConnection
from traceroute.sim.mqsc.apply import FAILED, Outcome, Session
from traceroute.sim.mqsc.syntax import COMMAND_OPTIONS, Command, MQSCError, _items
from traceroute.sim.network import QUEUE_KINDS, MQObject, QueueManager
from traceroute.sim.simulator import Simulator, Watcher

_SENDERS = (mqc.MQCHT_SENDER, mqc.MQCHT_SERVER, mqc.MQCHT_CLUSSDR)
#: Command keywords that are options of the command, not attributes of the object.
_OPTIONS = frozenset({*COMMAND_OPTIONS, "PURGE", "NOPURGE", "IGNSTATE", "AUTHREC",
                      "CHLTABLE", "QSGDISP", "TYPE"})
#: (MQSC verb, kind) of the PCF commands the command server takes, for their authority.
_PCF_COMMANDS = {(verb, kind): n for verb, kind in (
    ("DISPLAY", "QMGR"), ("DISPLAY", "QUEUE"), ("DISPLAY", "QSTATUS"), ("DISPLAY", "CHANNEL"),
    ("DISPLAY", "CHSTATUS"), ("DISPLAY", "CLUSQMGR"), ("RESET", "QSTATS"),
    ("START", "CHANNEL"), ("STOP", "CHANNEL"), ("DEFINE", "QLOCAL"), ("ALTER", "QLOCAL"),
    ("DELETE", "QLOCAL"), ("DEFINE", "CHANNEL"), ("ALTER", "CHANNEL"), ("DELETE", "CHANNEL"),
    ("ALTER", "QMGR"), ("SET", "AUTHREC"), ("DELETE", "AUTHREC"), ("REFRESH", "QMGR"))
    if (n := mqsc_command(verb, kind)) is not None}
#: PCF Inquire commands (CMDEV(NODISPLAY) leaves them out).
_INQUIRE_COMMANDS = frozenset(v for k, v in vars(mqc).items()
                              if k.startswith("MQCMD_INQUIRE") and isinstance(v, int))


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


#: The bytes of one linear log extent (LogFilePages 4096 x 4 KiB, crtmqm's default) and of a
#: log record's header beside a message's data [mq: sizes are the simulator's estimate].
LOG_EXTENT = 4096 * 4096
LOG_RECORD = 512


class RecoveryLog:
    """A queue manager's linear recovery log, as much as its logger events tell: the extent
    being written, the oldest one restart needs (checkpoints are taken as each extent
    begins, so it is the current one), the oldest one media recovery needs (the image the
    queue manager recorded when created: the first extent), and where the log lives."""

    def __init__(self, qmgr: str, *, archive: bool = False) -> None:
        self.path = f"/var/mqm/log/{qmgr}/active/"
        self.current = 0
        self.media = 0
        self.written = 0
        #: log management ARCHIVE (qm.ini Log LogManagement=Archive): extents the queue
        #: manager has finished writing wait for SET LOG ARCHIVED to be reused [seed 002]
        self.archive = archive
        self.archived: set[int] = set()

    @staticmethod
    def extent(n: int) -> str:
        """An extent's file name on Linux: S0000000.LOG ..."""
        return f"S{n:07d}.LOG"

    def write(self, length: int, size: int) -> bool:
        """Log `length` bytes; True when that filled the extent and a new one began."""
        self.written += length
        if self.written < size:
            return False
        self.advance()
        return True

    def advance(self) -> None:
        """Start writing the next extent (RESET QMGR TYPE(ADVANCELOG), or a full one)."""
        self.current += 1
        self.written = 0

    def export_state(self) -> dict[str, object]:
        """What an estate keeps of the log between commands (`import_state` reads it)."""
        return {"current": self.current, "media": self.media, "written": self.written,
                "archived": sorted(self.archived)}

    def import_state(self, data: Mapping[str, object], where: str) -> None:
        """Go on from `export_state`'s dict; ValueError naming `where` for a bad value."""
        for key in ("current", "media", "written"):
            value = data.get(key, getattr(self, key))
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{where}.{key}: {value!r} is not a count")
            setattr(self, key, value)
        archived = data.get("archived", [])
        if not isinstance(archived, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in archived):
            raise ValueError(f"{where}.archived: not a list of extent numbers")
        self.archived = set(archived)

    @property
    def archlog(self) -> str:
        """ARCHLOG: the oldest extent whose archiving the queue manager waits to be told of
        (one it has finished writing and no SET LOG ARCHIVED named); '' when none waits."""
        waiting = [n for n in range(self.current) if n not in self.archived]
        return self.extent(waiting[0]) if waiting else ""

    @staticmethod
    def number(extent: str) -> int | None:
        """S0000012.LOG -> 12; None for a name that is not an extent's."""
        name = extent.strip().upper()
        if len(name) == 12 and name[0] == "S" and name.endswith(".LOG") \
                and name[1:8].isdigit():
            return int(name[1:8])
        return None

    def notify_archived(self, extent: str, *, up_to: bool = False) -> bool:
        """SET LOG ARCHIVED(extent) (`up_to`: RESET QMGR TYPE(ARCHLOG), every extent up to
        and including it): True when that moved ARCHLOG on (a new logger event). An extent
        not written yet, or the current one, is not archived."""
        n = self.number(extent)
        if not self.archive or n is None or n >= self.current:
            return False
        before = self.archlog
        self.archived.update(range(n + 1) if up_to else (n,))
        return self.archlog != before

    def event_values(self) -> dict[str, object]:
        """The Logger event's data (by IBM's names; ArchiveLogExtent with log management
        ARCHIVE: ARCHLOG, blank when no extent waits)."""
        values: dict[str, object] = {
            "CurrentLogExtent": self.extent(self.current),
            "RestartLogExtent": self.extent(self.current),
            "MediaLogExtent": self.extent(self.media), "LogPath": self.path}
        if self.archive:
            values["ArchiveLogExtent"] = self.archlog
        return values


def events_of(sim: Simulator) -> SimEvents | None:
    """The SimEvents watching a simulator, if one does (the command server and `sim
    runmqsc` write their command events through it)."""
    return next((w for w in sim.watchers if isinstance(w, SimEvents)), None)


def message_context(md: MQMD) -> list[pcf.Parameter]:
    """A command message's context as a command event's CommandContext carries it."""
    return [pcf.ByteString(mqc.MQBACF_EVENT_ACCOUNTING_TOKEN, bytes(md.accounting_token)),
            pcf.String(mqc.MQCACF_EVENT_APPL_IDENTITY, md.appl_identity_data, width=32),
            pcf.Integer(mqc.MQIACF_EVENT_APPL_TYPE, md.put_appl_type),
            pcf.String(mqc.MQCACF_EVENT_APPL_NAME, md.put_appl_name, width=28),
            pcf.String(mqc.MQCACF_EVENT_APPL_ORIGIN, md.appl_origin_data, width=4)]


class SimEvents(Watcher):
    """Queue manager, performance, channel and configuration events of a simulated
    network (an observer of its MQI calls and a watcher of its channels)."""

    def __init__(self, sim: Simulator, *, write: bool = True,
                 circular: Iterable[str] = (), log_extent: int = LOG_EXTENT) -> None:
        self.sim = sim
        self.write = write
        self.estate = Estate.from_network(sim.network)
        self.events: list[Event] = []      # every event raised, in order (lost ones too)
        self.lost: list[Event] = []        # events whose message could not be put
        self._correl = 0
        self._failed_opens: set[tuple[bytes, int | None]] = set()
        #: channels whose running instance STOP CHANNEL just ended (its event is written)
        self._stopped_running: set[tuple[str, str]] = set()
        #: (qmgr, kind, name) -> (CRDATE, CRTIME, ALTDATE, ALTTIME) of objects made or
        #: altered while it watched (the others date from the simulation's start)
        self._dates: dict[tuple[str, str, str], tuple[str, str, str, str]] = {}
        #: the recovery log of each queue manager with linear logging (`circular` names
        #: those with circular logging, as does its qm.ini's Log LogType=CIRCULAR: no
        #: logger events, as MQ); LogManagement=Archive in qm.ini: archive log management
        self.logs = {name: RecoveryLog(name, archive=_log_setting(qm, "LogManagement")
                                       == "ARCHIVE")
                     for name, qm in sim.network.qmgrs.items()
                     if name not in set(circular)
                     and _log_setting(qm, "LogType") != "CIRCULAR"}
        self.log_extent = log_extent
        sim.add_observer(self._call)
        sim.add_watcher(self)

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
            if not any(md.msg_id):  # the queue manager gives every message its own MsgId
                md = replace(md, msg_id=self.sim.new_msg_id(qm.name))
            self.sim._store(qm, queue, md, data)

    def _new_correl(self, qmgr: str) -> bytes:
        self._correl += 1
        return (b"AMQ " + qmgr.encode("ascii", "replace")[:12].ljust(12)
                + self._correl.to_bytes(8, "big"))

    # --- MQI calls ----------------------------------------------------------------------

    def _call(self, call: SimCall) -> None:
        if call.comp_code == mqc.MQCC_FAILED:
            self._failed(call)
            return
        if call.verb in (MQPUT, MQPUT1, MQGET) and call.local_queue:
            if call.verb == MQGET and call.options & (mqc.MQGMO_BROWSE_FIRST
                                                      | mqc.MQGMO_BROWSE_NEXT):
                return
            self._perform(call, "GET" if call.verb == MQGET else "PUT")

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
        if call.md is not None and call.md.persistence == mqc.MQPER_PERSISTENT \
                and call.comp_code != mqc.MQCC_FAILED:
            self._logged(call.qmgr, call.data_length + LOG_RECORD)
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
        sub = call.verb == MQSUB
        event = mqi_event(FailedCall(
            call.reason, call.qmgr, conn.appl_type, conn.appl_name,
            queue=call.resolved_queue if sub else call.object_name,
            object_qmgr="" if sub else call.object_qmgr,
            related=failure.related if failure is not None else "",
            related_type=failure.related_type if failure is not None else 0,
            conn_name=conn.partner if conn.client else "",
            channel=conn.channel if conn.client else "", user=conn.user,
            qualifier=call.qualifier,
            options=call.options or (mqc.MQOO_OUTPUT if call.verb == MQPUT1 else 0),
            topic=(call.topic or call.object_name) if sub else call.topic,
            dest_qmgr=call.object_qmgr if sub else "",
            dest_options=mqc.MQOO_OUTPUT if sub else 0, csp_user=call.csp_user),
            self._when(call.qmgr, call.time))
        if event is not None:
            self._emit(event, kind.queue)

    # --- channels (a Watcher of the simulator) -------------------------------------------

    def _channel(self, qmgr: str, kind: str, event: Event | None,
                 qualifier: int = 0) -> None:
        """Write a channel event of `kind` on qmgr when its switch says so."""
        qm = self.sim.network.qmgrs.get(qmgr)
        if event is None or qm is None or not switched_on(qm, BY_NAME[kind], qualifier):
            return
        self._emit(event, "SYSTEM.ADMIN.CHANNEL.EVENT")

    def stopped(self, qmgr: str, channel: str) -> None:
        """STOP CHANNEL of a channel with no running instance: Channel Stopped By User all
        the same ("issued when a user issues a STOP CHL command", IBM MQ's event reference);
        a running one's was written as its instance ended."""
        if (qmgr, channel) in self._stopped_running:
            self._stopped_running.discard((qmgr, channel))
            return
        self._channel(qmgr, "Channel Stopped By User",
                      ch.stopped_by_user(qmgr, channel, self._when(qmgr)))

    def started(self, qmgr: str, channel: str) -> None:
        """START CHANNEL: the command's Channel Started."""
        self._channel(qmgr, "Channel Started", ch.started(qmgr, channel, self._when(qmgr)))

    def channel_started(self, qmgr: str, channel: MQObject, attempt: Attempt) -> None:
        """An instance started: Channel Started at both ends (and Channel Auto-definition
        OK at the receiving end when CHAD defined its channel)."""
        partner = attempt.partner
        assert partner is not None
        when = self._when(qmgr)
        me = self.sim.network.qmgrs[qmgr]
        if attempt.remote == "autodef":
            self._channel(partner.name, "Channel Auto-definition OK", ch.auto_definition(
                partner.name, channel.name, self._when(partner.name),
                channel_type=mqc.MQCHT_RECEIVER, conname=address_of(me)))
        self._channel(qmgr, "Channel Started", ch.started(
            qmgr, channel.name, when, xmitq=self._xmitq(channel),
            conname=channel.get("CONNAME")))
        self._channel(partner.name, "Channel Started", ch.started(
            partner.name, channel.name, self._when(partner.name), conname=address_of(me)))

    def channel_ended(self, qmgr: str, channel: MQObject, partner: str, qualifier: int,
                      error: ChannelError | None, *, by_user: bool = False) -> None:
        """An instance ended: Channel Stopped By User (STOP CHANNEL), Channel Stopped at
        the sending end with its qualifier and AMQ message, and at the receiving end."""
        self._channel(qmgr, "Channel Stopped", self._stopped(qmgr, channel, qualifier, error,
                                                             sending=True), qualifier)
        if by_user:
            self._stopped_running.add((qmgr, channel.name))
            self._channel(qmgr, "Channel Stopped By User",
                          ch.stopped_by_user(qmgr, channel.name, self._when(qmgr)))
        if partner in self.sim.network.qmgrs and self.sim.active(partner):
            theirs = mqc.MQRQ_CHANNEL_STOPPED_OK if qualifier in (
                mqc.MQRQ_CHANNEL_STOPPED_OK, mqc.MQRQ_CHANNEL_STOPPED_DISABLED) \
                else mqc.MQRQ_CHANNEL_STOPPED_ERROR
            self._channel(partner, "Channel Stopped",
                          self._stopped(partner, channel, theirs, error, sending=False,
                                        conname=address_of(self.sim.network.qmgrs[qmgr])),
                          theirs)

    def channel_failed(self, qmgr: str, channel: MQObject, attempt: Attempt,
                       qualifier: int) -> None:
        """A channel could not start: Channel Stopped (RETRY, or DISABLED when its retries
        are used up) with the AMQ message; at the receiving end Channel SSL Error, Channel
        Blocked or Channel Auto-definition Error when that was why."""
        self._channel(qmgr, "Channel Stopped", self._stopped(qmgr, channel, qualifier,
                                                             attempt.error, sending=True),
                      qualifier)
        partner = attempt.partner
        if partner is None:
            return
        when, me = self._when(partner.name), self.sim.network.qmgrs[qmgr]
        if attempt.remote == "ssl":
            self._channel(partner.name, "Channel SSL Error", ch.ssl_error(
                partner.name, channel.name, when, qualifier=attempt.qualifier,
                conname=address_of(me)))
        elif attempt.remote == "blocked":
            self._channel(partner.name, "Channel Blocked", ch.blocked(
                partner.name, address_of(me), when, qualifier=attempt.qualifier,
                channel=channel.name, remote_qmgr=qmgr), attempt.qualifier)
        elif attempt.remote == "autodef_error":
            self._channel(partner.name, "Channel Auto-definition Error", ch.auto_definition(
                partner.name, channel.name, when, channel_type=mqc.MQCHT_RECEIVER,
                conname=address_of(me), error_id=mqc.MQRC_UNKNOWN_OBJECT_NAME))
        elif attempt.remote == "not_available":
            self._channel(partner.name, "Channel Not Available", ch.not_available(
                partner.name, channel.name, when, conname=address_of(me),
                qualifier=attempt.qualifier, limit=attempt.limit))

    def channel_waiting(self, qmgr: str, channel: MQObject, xmitq: str) -> None:
        """Channel Not Activated: the channel waits for an active slot (MaxActiveChannels)."""
        self._channel(qmgr, "Channel Not Activated", ch.activated(
            qmgr, channel.name, self._when(qmgr), active=False, xmitq=self._xmitq(channel),
            conname=channel.get("CONNAME")))

    def channel_activated(self, qmgr: str, channel: MQObject, xmitq: str) -> None:
        """Channel Activated: a channel that waited took the active slot another released."""
        self._channel(qmgr, "Channel Activated", ch.activated(
            qmgr, channel.name, self._when(qmgr), active=True, xmitq=self._xmitq(channel),
            conname=channel.get("CONNAME")))

    def _stopped(self, qmgr: str, channel: MQObject, qualifier: int,
                 error: ChannelError | None, *, sending: bool, conname: str = "") -> Event:
        e = error or ChannelError(0)
        return ch.stopped(qmgr, channel.name, self._when(qmgr), qualifier=qualifier,
                          error_id=e.identifier if error else 0, ints=(e.int1, e.int2),
                          strs=(e.str1, e.str2, e.str3),
                          xmitq=self._xmitq(channel) if sending else "",
                          conname=channel.get("CONNAME") if sending else conname)

    @staticmethod
    def _xmitq(channel: MQObject) -> str:
        kind = channel.get("CHLTYPE")
        if kind == "CLUSRCVR":  # the simulator sends on the cluster-receiver's definition
            return "SYSTEM.CLUSTER.TRANSMIT.QUEUE"
        return ch.xmitq_of(kind, channel.get("XMITQ"))

    def channel_conversion_error(self, qmgr: str, channel: MQObject, partner: str,
                                 md: MQMD, reason: int) -> None:
        """Channel Conversion Error: CONVERT(YES) could not convert a message."""
        self._channel(qmgr, "Channel Conversion Error", ch.conversion_error(
            qmgr, channel.name, self._when(qmgr), reason=reason, fmt=md.format,
            xmitq=self._xmitq(channel), conname=channel.get("CONNAME")))

    def client_refused(self, qmgr: str, conn: SimConnection, reason: int, qualifier: int,
                       limit: int = 0) -> None:
        """A client refused by its SVRCONN channel: Channel Blocked (a CHLAUTH record) or
        Channel Not Available (MAXINST / MAXINSTC, or the queue manager's MaxChannels /
        MaxActiveChannels of qm.ini, reached)."""
        when = self._when(qmgr)
        if reason == mqc.MQRC_CHANNEL_NOT_AVAILABLE:
            self._channel(qmgr, "Channel Not Available", ch.not_available(
                qmgr, conn.channel, when, conname=conn.partner, qualifier=qualifier,
                limit=limit))
            return
        by_address = qualifier == mqc.MQRQ_CHANNEL_BLOCKED_ADDRESS
        self._channel(qmgr, "Channel Blocked", ch.blocked(
            qmgr, conn.partner, when, qualifier=qualifier,
            channel="" if by_address else conn.channel,
            user="" if by_address else conn.user,
            client_user="" if by_address else conn.user,
            appl_type=None if by_address else conn.appl_type,
            appl_name="" if by_address else conn.appl_name), qualifier)

    def qmgr_changed(self, qmgr: str, active: bool, qualifier: int) -> None:
        """strmqm / endmqm: Queue Manager Active / Not Active (STRSTPEV)."""
        qm = self.sim.network.qmgrs[qmgr]
        name = "Queue Manager Active" if active else "Queue Manager Not Active"
        kind = BY_NAME[name]
        if not switched_on(qm, kind):
            return
        values: dict[str, object] = {"ReasonQualifier": qualifier}
        if active:
            values["HostName"] = address_of(qm)
        self._emit(build(kind, qmgr, values, self._when(qmgr)), kind.queue)
        if active:
            self._logger(qmgr)  # LOGGEREV(ENABLED): the log's state at start

    # --- the recovery log -------------------------------------------------------------------

    def _logged(self, qmgr: str, length: int) -> None:
        """Log records were written (a persistent message put or got): past the extent's
        size the queue manager starts writing a new extent (a logger event)."""
        log = self.logs.get(qmgr)
        if log is not None and log.write(length, self.log_extent):
            self._logger(qmgr)

    def _logger(self, qmgr: str) -> None:
        log = self.logs.get(qmgr)
        qm = self.sim.network.qmgrs.get(qmgr)
        if log is None or qm is None or not _enabled(qm, "LOGGEREV"):
            return
        kind = BY_NAME["Logger"]
        self._emit(build(kind, qmgr, log.event_values(), self._when(qmgr)), kind.queue)

    # --- commands ------------------------------------------------------------------------

    def command_refused(self, qmgr: str, verb: str, kind: str, name: str | None, *,
                        user: str, groups: set[str] | None = None) -> bool:
        """Whether `user` may not run VERB KIND(name) on qmgr (traceroute.sim.authority);
        when not, the Not Authorized (type 4) event (AUTHOREV) and True: the command
        fails with MQRC_NOT_AUTHORIZED and runs not."""
        qm = self.sim.network.qmgrs[qmgr]
        groups = self.sim.groups.get(user, set()) if groups is None else groups
        if command_authorized(qm, verb, kind, name, user, groups):
            return False
        event = mqi_event(FailedCall(
            mqc.MQRC_NOT_AUTHORIZED, qmgr, 0, "", user=user,
            qualifier=mqc.MQRQ_CMD_NOT_AUTHORIZED,
            command=mqsc_command(verb, kind) or 0), self._when(qmgr))
        kind_of_event = event_kind(mqc.MQRC_NOT_AUTHORIZED, mqc.MQRQ_CMD_NOT_AUTHORIZED)
        if event is not None and kind_of_event is not None \
                and switched_on(qm, kind_of_event):
            self._emit(event, kind_of_event.queue)
        return True

    # --- configuration ------------------------------------------------------------------

    def mqsc(self, text: str, qmgr: str, *, source: str = "<mqsc>", user: str = "mqm"
             ) -> list[Event]:
        """Apply MQSC to the running network as runmqsc does (`execute` each command); the
        configuration and command events it raised. The first command that fails raises
        its MQSCError (those before it applied)."""
        session = Session(self.sim.network, qmgr, reading=False)
        raised: list[Event] = []
        for item in _items(text, source):
            if isinstance(item, MQSCError):
                raise item
            if not isinstance(item, Command):
                session.header(item.name)
                continue
            outcome, events = self.execute(session, item, user=user)
            if not outcome.ok:
                assert outcome.error is not None
                raise outcome.error
            raised += events
        return raised

    def execute(self, session: Session, command: Command, *, user: str = "mqm",
                origin: int = mqc.MQEVO_CONSOLE, context: Iterable[pcf.Parameter] = (),
                correl_id: bytes | None = None, command_event: bool = True
                ) -> tuple[Outcome, list[Event]]:
        """Run one MQSC command on `session`'s queue manager as the queue manager takes it
        (`sim runmqsc`, the command server; `command_event` False: the caller writes the
        command event, a PCF one): `user` needs the authority for it (else Not
        Authorized type 4 and AMQ8135E); START/STOP CHANNEL act on the running channel;
        then the configuration events (CONFIGEV) and the command event (CMDEV, DISPLAY
        left out by NODISPLAY) under one CorrelId. Its Outcome and the events raised."""
        if session.current is None:
            return session.execute(command), []
        qm = self.sim.network.qmgr(session.current)
        verb, kind, name = command.verb, command.kind, command.name
        if self.command_refused(qm.name, verb, kind, name, user=user):
            error = command.error(f"{user} is not authorized to {verb} {kind}",
                                  amq="AMQ8135E: Not authorized.")
            return session._count(Outcome(FAILED, error.amq, command, error, qm.name)), []
        cmdev_before = qmgr_attr(qm, "CMDEV")
        before = self._object(qm, kind, name)
        record_before = _authority_record(qm, command) if kind == "AUTHREC" else None
        if verb == "DELETE" and kind in ("QLOCAL", "QUEUE") and name \
                and self.sim.depth(qm.name, name) and "PURGE" not in command.attrs:
            # runmqsc: a queue with messages stays
            error = command.error(f"{name} holds {self.sim.depth(qm.name, name)} "
                                  "messages: DELETE QLOCAL ... PURGE deletes them too",
                                  amq="AMQ8143E: IBM MQ queue not empty.")
            return session._count(Outcome(FAILED, error.amq, command, error, qm.name)), []
        outcome = session.execute(command)
        if outcome.ok and verb == "DELETE" and kind in ("QLOCAL", "QUEUE") and name \
                and name not in qm.queues:
            self.sim.queues.pop((qm.name, name), None)  # PURGE: its messages go with it
        if outcome.ok and verb in ("START", "STOP") and kind == "CHANNEL" \
                and name in qm.channels:  # the running channel starts or stops
            (self.sim.start_channel if verb == "START" else self.sim.stop_channel)(
                qm.name, name)
        if not outcome.ok:
            return outcome, []
        after = self._object(qm, kind, name)
        correl = correl_id or self._new_correl(qm.name)
        raised: list[Event] = []
        if verb == "REFRESH" and kind == "QMGR" and \
                command.attrs.get("TYPE", "").upper() == "CONFIGEV":
            obj_kind = command.attrs.get("OBJECT", "").upper()
            raised += self.refresh(qm.name, kind=None if obj_kind in ("", "ALL")
                                   else obj_kind, name=command.attrs.get("NAME"))
        elif kind in CONFIG_KINDS and _enabled(qm, "CONFIGEV") and verb in (
                "DEFINE", "ALTER", "DELETE"):
            raised += self._config(qm, verb, kind, name or qm.name, before, after, correl,
                                   user=user, origin=origin, context=context)
        elif kind == "AUTHREC" and _enabled(qm, "CONFIGEV") and verb in ("SET", "DELETE"):
            raised += self._authority_config(qm, command, record_before, correl, user=user,
                                             origin=origin, context=context)
        self._after_command(qm, command)
        self._log_command(qm, command, before)
        if not command_event:
            return outcome, raised
        event = self.command_ran(qm.name, command, user=user, origin=origin,
                                 context=context, correl_id=correl, cmdev_before=cmdev_before)
        return outcome, raised + ([event] if event is not None else [])

    def new_correl(self, qmgr: str) -> bytes:
        """A CorrelId for the events of one command (its configuration and command
        events share it)."""
        return self._new_correl(qmgr)

    def _log_command(self, qm: QueueManager, command: Command,
                     before: dict[str, str] | None) -> None:
        """RESET QMGR TYPE(ADVANCELOG) starts a new log extent; LOGGEREV switched from
        DISABLED to ENABLED: the log's state now (both logger events)."""
        if qm.name not in self.logs:
            return
        log = self.logs[qm.name]
        kind = command.attrs.get("TYPE", "").upper()
        if command.verb == "RESET" and command.kind == "QMGR" and kind == "ADVANCELOG":
            log.advance()
            self._logger(qm.name)
        elif (command.verb == "SET" and command.kind == "LOG") or (
                command.verb == "RESET" and command.kind == "QMGR" and kind == "ARCHLOG"):
            # SET LOG ARCHIVED(extent), RESET QMGR TYPE(ARCHLOG) ARCHIVED(extent): a new
            # logger event when ARCHLOG moved on [seed 002]
            if log.notify_archived(command.attrs.get("ARCHIVED", ""),
                                   up_to=command.verb == "RESET"):
                self._logger(qm.name)
        elif command.verb == "ALTER" and command.kind == "QMGR" and before is not None \
                and before.get("LOGGEREV", "DISABLED").upper() != "ENABLED":
            self._logger(qm.name)

    def command_ran(self, qmgr: str, command: Command, *, user: str = "mqm",
                    origin: int = mqc.MQEVO_CONSOLE, context: Iterable[pcf.Parameter] = (),
                    correl_id: bytes | None = None, cmdev_before: str | None = None
                    ) -> Event | None:
        """The Command event of an MQSC command that ran (MQRC_COMMAND_MQSC), when CMDEV
        says so: ENABLED, or NODISPLAY for all but DISPLAY; ALTER QMGR when CMDEV was not
        DISABLED before or is not after (`cmdev_before`)."""
        qm = self.sim.network.qmgrs[qmgr]
        now = qmgr_attr(qm, "CMDEV")
        cmdev = {cmdev_before or now, now} - {"DISABLED"} \
            if command.verb == "ALTER" and command.kind == "QMGR" else {now} - {"DISABLED"}
        if not cmdev or (is_display(command.verb) and cmdev <= {"NODISPLAY"}):
            return None
        event = self._command_event(qm, command, user, origin, context,
                                    correl_id or self._new_correl(qmgr))
        if event is not None:
            self._emit(event, "SYSTEM.ADMIN.COMMAND.EVENT")
        return event

    def _command_event(self, qm: QueueManager, command: Command, user: str, origin: int,
                       context: Iterable[pcf.Parameter], correl: bytes) -> Event | None:
        number = mqsc_command(command.verb, command.kind)
        if number is None:
            return None
        kind = command.kind
        _type, name_id, width = OBJECT.get(kind, (0, None, 48))
        given = {k: v for k, v in command.attrs.items() if k not in _OPTIONS}
        attrs = parameters(kind, given, whole=False) if kind in OBJECT and command.verb in (
            "DEFINE", "ALTER") else []
        if kind in QUEUE_TYPES:
            attrs = [p for p in attrs if p.parameter != mqc.MQIA_Q_TYPE]
        name = command.name if kind != "QMGR" else None
        data = command_data(command.verb, kind, name, QUEUE_TYPES.get(kind),
                            name_id if kind != "QMGR" else None, width, attrs,
                            {k: v for k, v in command.attrs.items() if k in _OPTIONS})
        return command_event(qm.name, number, data, self._when(qm.name), user=user,
                             origin=origin, correl_id=correl, context=context)

    def pcf_refused(self, qmgr: str, message: pcf.Message, user: str) -> bool:
        """Whether `user` may not run a PCF command (as `command_refused`: Not Authorized
        type 4 when not); the command's object is its first name parameter."""
        command = message.header.command
        name = next((p.value.strip() for p in message.parameters
                     if isinstance(p, pcf.String) and isinstance(p.value, str)), None)
        for (verb, kind), number in _PCF_COMMANDS.items():
            if number == command:
                return self.command_refused(qmgr, verb, kind, name, user=user)
        return False

    def pcf_command(self, qmgr: str, message: pcf.Message, *, user: str = "mqm",
                    context: Iterable[pcf.Parameter] = (),
                    correl_id: bytes | None = None) -> Event | None:
        """The Command event of a PCF command the command server ran (MQRC_COMMAND_PCF,
        EventOrigin MQEVO_MSG, the command message's context), when CMDEV says so: its
        command data is the command's parameters."""
        qm = self.sim.network.qmgrs[qmgr]
        cmdev = qmgr_attr(qm, "CMDEV")
        inquire = message.header.command in _INQUIRE_COMMANDS
        if cmdev == "DISABLED" or (cmdev == "NODISPLAY" and inquire):
            return None
        event = command_event(qmgr, message.header.command, list(message.parameters),
                              self._when(qmgr), user=user, origin=mqc.MQEVO_MSG,
                              correl_id=correl_id or self._new_correl(qmgr), mqsc=False,
                              context=context)
        self._emit(event, "SYSTEM.ADMIN.COMMAND.EVENT")
        return event

    def _after_command(self, qm: QueueManager, command: Command) -> None:
        """What the performance-event engine learns from a command: new queues, ALTER of
        the depth/service events (the live enabling state), RESET QSTATS."""
        self.estate = self._rebuild()
        t_ms = round(self.sim.now * 1000)
        if command.kind == "QLOCAL" and command.verb in ("ALTER", "DEFINE") and command.name:
            self._set_flags(qm.name, command.name, dict(command.attrs))
        if command.verb == "RESET" and command.kind == "QSTATS" and command.name:
            engine = self.estate.engines.get(qm.name)
            if engine is not None and command.name in engine.queues:
                engine.reset_stats(t_ms, command.name)
        if command.verb in ("DEFINE", "ALTER") and command.name and command.kind != "QMGR":
            key = (qm.name, command.kind, command.name)
            date, time = self._stamp(qm.name)
            if command.verb == "DEFINE" and key not in self._dates:
                self._dates[key] = (date, time, date, time)
            else:
                created = self._dates.get(key, (*self._start_stamp(qm.name),) * 2)
                self._dates[key] = (created[0], created[1], date, time)

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

    def _stamp(self, qmgr: str) -> tuple[str, str]:
        """The queue manager's date and time now as an object's CRDATE/CRTIME show them."""
        when = self._when(qmgr)
        return when.strftime("%Y-%m-%d"), when.strftime("%H.%M.%S")

    def _start_stamp(self, qmgr: str) -> tuple[str, str]:
        when = self._when(qmgr, 0.0)
        return when.strftime("%Y-%m-%d"), when.strftime("%H.%M.%S")

    def _object(self, qm: QueueManager, kind: str, name: str | None) -> dict[str, str] | None:
        """Every attribute of an object now (IBM's defaults for its type under its own),
        with its creation and alteration dates; the queue manager's for QMGR."""
        if kind == "QMGR":
            return {**QMGR_DEFAULTS, **qm.attrs}
        if name is None:
            return None
        store = qm.queues if kind in QUEUE_KINDS else qm.channels if kind == "CHANNEL" \
            else None
        obj = store.get(name) if store is not None else qm.others.get((kind, name))
        if obj is None or obj.kind != kind:
            return None
        created = self._dates.get((qm.name, kind, name))
        if created is None:
            created = (*self._start_stamp(qm.name),) * 2
        attrs = copy.deepcopy(obj.effective())
        attrs.update(CRDATE=created[0], CRTIME=created[1], ALTDATE=created[2],
                     ALTTIME=created[3])
        return attrs

    def _config(self, qm: QueueManager, verb: str, kind: str, name: str,
                before: dict[str, str] | None, after: dict[str, str] | None,
                correl: bytes | None = None, *, user: str = "mqm",
                origin: int = mqc.MQEVO_CONSOLE,
                context: Iterable[pcf.Parameter] = ()) -> list[Event]:
        when = self._when(qm.name)
        correl = correl or self._new_correl(qm.name)
        if after is not None and verb in ("DEFINE", "ALTER") and kind != "QMGR":
            date, time = self._stamp(qm.name)
            after = {**after, "ALTDATE": date, "ALTTIME": time}
            if before is None:  # a new object: created now (only a local queue has its
                after.update(CRDATE=date, CRTIME=time)  # alteration shown at creation)
                if kind != "QLOCAL":
                    after.update(ALTDATE="", ALTTIME="")
        if verb == "DELETE" and before is not None:
            events = [config_event(mqc.MQRC_CONFIG_DELETE_OBJECT, qm.name, kind, name, before,
                                   when, correl_id=correl, user=user, origin=origin,
                                   context=context)]
        elif verb in ("DEFINE", "ALTER") and after is not None:
            if before is None:
                events = [config_event(mqc.MQRC_CONFIG_CREATE_OBJECT, qm.name, kind, name,
                                       after, when, correl_id=correl, user=user,
                                       origin=origin, context=context)]
            else:  # ALTER, or DEFINE REPLACE: even when nothing changed [doc]
                events = change_events(qm.name, kind, name, before, after, when, correl,
                                       user=user, origin=origin, context=context)
        else:
            return []
        for e in events:
            self._emit(e, "SYSTEM.ADMIN.CONFIG.EVENT")
        return events

    def _authority_config(self, qm: QueueManager, command: Command,
                          before: AuthorityRecord | None, correl: bytes, *, user: str,
                          origin: int, context: Iterable[pcf.Parameter]) -> list[Event]:
        """SET AUTHREC: a Change Authority Record pair, even when nothing changed [seed
        002: "即使对权限记录没有实际更改"]; a record set for the first time changes from
        no authority (the OAM's view of an entity without a record). DELETE AUTHREC: a
        Delete Authority Record with what the record granted (none when there was none)."""
        when = self._when(qm.name)
        after = _authority_record(qm, command)
        if command.verb == "DELETE":
            if before is None:
                return []
            events = [authority_record_event("Delete Authority Record", qm.name, before,
                                             when, user=user, origin=origin,
                                             context=context, correl_id=correl)]
        else:
            if after is None:
                return []
            events = authority_change_events(
                qm.name, before or replace(after, authorities=frozenset()), after, when,
                correl, user=user, origin=origin, context=context)
        for e in events:
            self._emit(e, "SYSTEM.ADMIN.CONFIG.EVENT")
        return events

    def refresh(self, qmgr: str, *, kind: str | None = None, name: str | None = None,
                user: str = "mqm", origin: int = mqc.MQEVO_CONSOLE,
                context: Iterable[pcf.Parameter] = ()) -> list[Event]:
        """REFRESH QMGR TYPE(CONFIGEV) [OBJECT(kind)] [NAME(generic*)] (or the PCF Refresh
        Queue Manager: origin MQEVO_MSG, its message's context): one Refresh Object event
        per matching object (OBJECT(QUEUE): every queue type), and one Refresh Authority
        Record per matching authority record (OBJECT(AUTHREC) or all; NAME matches its
        profile), when CONFIGEV(ENABLED)."""
        qm = self.sim.network.qmgrs[qmgr]
        if not _enabled(qm, "CONFIGEV"):
            return []
        when = self._when(qmgr)
        objects = [*qm.queues.values(), *qm.channels.values(), *qm.others.values()]
        kinds = QUEUE_KINDS if kind == "QUEUE" else (kind,) if kind else CONFIG_KINDS
        out: list[Event] = []

        def named(n: str) -> bool:
            return not name or n == name or (name.endswith("*") and n.startswith(name[:-1]))

        for obj in sorted(objects, key=lambda o: (o.kind, o.name)):
            if obj.kind not in CONFIG_KINDS or obj.kind not in kinds or not named(obj.name):
                continue
            attrs = self._object(qm, obj.kind, obj.name) or obj.attrs
            event = config_event(mqc.MQRC_CONFIG_REFRESH_OBJECT, qmgr, obj.kind, obj.name,
                                 attrs, when, correl_id=self._new_correl(qmgr), user=user,
                                 origin=origin, context=context)
            self._emit(event, "SYSTEM.ADMIN.CONFIG.EVENT")
            out.append(event)
        if kind in (None, "AUTHREC"):
            records = [r for r in (_as_authority_record(qm, o) for o in qm.records.values()
                                   if o.kind == "AUTHREC") if r is not None]
            for record in sorted(records, key=lambda r: (r.objtype, r.profile, r.group,
                                                          r.entity)):
                if named(record.profile):
                    event = authority_record_event(
                        "Refresh Authority Record", qmgr, record, when, user=user,
                        origin=origin, context=context, correl_id=self._new_correl(qmgr))
                    self._emit(event, "SYSTEM.ADMIN.CONFIG.EVENT")
                    out.append(event)
        return out


def _as_authority_record(qm: QueueManager, record: MQObject) -> AuthorityRecord | None:
    """A SET AUTHREC record of qm as an event carries it (None: no entity, an OBJTYPE
    MQ does not have)."""
    attrs = record.attrs
    objtype = attrs.get("OBJTYPE", "").upper()
    principal, group = attrs.get("PRINCIPAL", ""), attrs.get("GROUP", "")
    if objtype not in RECORD_TYPES or not (principal or group):
        return None
    profile = attrs.get("PROFILE", record.name)
    if objtype == "QMGR" and profile in ("", "@self"):
        profile = "self"  # the queue manager's own profile, as dmpmqaut names it
    return AuthorityRecord(profile, objtype, principal or group, not principal,
                           frozenset(expand(attrs.get("AUTHADD", ""))))


def _authority_record(qm: QueueManager, command: Command) -> AuthorityRecord | None:
    """The authority record a SET/DELETE AUTHREC command names, as qm holds it now."""
    attrs = command.attrs
    name = command.name if command.name is not None else attrs.get("PROFILE", "")
    record = qm.records.get(record_key("AUTHREC", name, attrs))
    return _as_authority_record(qm, record) if record is not None else None


def _log_setting(qm: QueueManager, name: str) -> str:
    """A Log stanza value of the queue manager's qm.ini, upper case ('' when not set)."""
    return (qm.ini.value("Log", name) or "").strip().upper()

