"""Real-time monitoring of simulated queue managers, as IBM MQ's "Monitoring and performance"
describes it (seed 002, real-time monitoring; DISPLAY QSTATUS and DISPLAY CHSTATUS).

What is switched on, and where (the seed's four examples, value for value):

* A queue's MONQ (default QMGR) or a channel's MONCHL (default QMGR) takes the queue
  manager's MONQ / MONCHL (default OFF) when it is QMGR; its own OFF, LOW, MEDIUM or HIGH
  otherwise, also when the queue manager's is OFF. The queue manager's NONE switches
  monitoring off for every queue (MONQ) or channel (MONCHL) whatever the objects say.
* Automatically defined cluster-sender channels are not objects: the queue manager's
  MONACLS (default QMGR) says, QMGR meaning the queue manager's MONCHL. A cluster-sender
  channel defined on the queue manager follows its own MONCHL.
* For queues LOW, MEDIUM and HIGH are the same: every measurement is taken. For channels
  HIGH measures every message (XQTIME) and batch (NETTIME); MEDIUM and LOW "measure a
  sample periodically": here one in `SAMPLE_EVERY` (10 and 100), starting with the first,
  so the indicators have a value as soon as a channel has moved anything (the seed gives no
  rate; this is the simulator's choice).

What is measured while monitoring is on (and blank, None, while it is off; values start
again when it is switched on, "since monitoring was enabled for the object"):

* QTIME: microseconds between a message's put and its destructive get (any getter: an
  application, a channel's MCA on a transmission queue); LPUTDATE/LPUTTIME, the last put;
  LGETDATE/LGETTIME, the last destructive get; MSGAGE, seconds since the oldest message on
  the queue was put (0 when the queue is empty).
* XQTIME: microseconds a message spent on the transmission queue before its channel got
  it; NETTIME: the round trip of the end-of-batch exchange, two simulated network hops.
* Pairs are a short-term and a long-term indicator: exponentially weighted averages, the
  short one giving recent measurements the higher weight (`SHORT_WEIGHT` 1/4, about the last
  few messages), the long one a lower weight (`LONG_WEIGHT` 1/32, a larger sample); the
  first measurement is both.

Channel status (not monitoring: always there): a sending channel is RUNNING once it has
moved a message or been started with its partner reachable, RETRYING while its partner is
not defined or its receiving end is stopped, STOPPED after STOP CHANNEL, and has no status
(INACTIVE) before it ever ran or after DISCINT seconds without a message (it ended
normally), STARTING while it waits for an active slot (qm.ini MaxActiveChannels: every slot
taken; SUBSTATE blank); its receiving end is RUNNING while the sender is, PAUSED between its MCA's
message retries (SUBSTATE blank: MQ has none for the wait) while the sender, RUNNING, waits
for the batch (SUBSTATE RECEIVE, INDOUBT YES). MSGS, BATCHES (a batch is up to
BATCHSZ messages moved in one go), the sequence numbers and LSTMSGDA/LSTMSGTI count since
the channel started; the saved status keeps the last sequence number. RESET QSTATS's
counters (messages in and out, the highest depth, the time since the last reset) are kept
whatever the monitoring. BYTSSENT, BYTSRCVD, BUFSSENT and BUFSRCVD count each instance's
transmission buffers (`traceroute.sim.cmdserver.flows`), CURFSIZE and CURMAXFS estimate a
local queue's file (`traceroute.sim.qfile`); neither depends on monitoring.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from pcf import mqc
from traceroute.sim import qfile
from traceroute.sim.cmdserver import flows
from traceroute.sim.network import MQObject, QueueManager
from traceroute.sim.resolve import receiving_end
from traceroute.sim.simulator import Simulator, Stored, Watcher
from traceroute.status.values import ChannelStatus, HandleStatus, QueueStatus, ResetStats

SHORT_WEIGHT = 1 / 4
LONG_WEIGHT = 1 / 32
#: One measurement in this many, by channel monitoring level.
SAMPLE_EVERY = {mqc.MQMON_LOW: 100, mqc.MQMON_MEDIUM: 10, mqc.MQMON_HIGH: 1}
LEVELS = {"OFF": mqc.MQMON_OFF, "LOW": mqc.MQMON_LOW, "MEDIUM": mqc.MQMON_MEDIUM,
          "HIGH": mqc.MQMON_HIGH}
LEVEL_WORDS = {v: k for k, v in LEVELS.items()}
SENDERS = ("SDR", "SVR", "CLUSSDR")
RECEIVERS = ("RCVR", "RQSTR", "CLUSRCVR")
#: The MCAs' and the command server's program names, as APPLTAG shows them.
SENDING_MCA, COMMAND_SERVER = "runmqchl", "amqpcsea"


def _level(word: str, default: str = "OFF") -> int:
    return LEVELS.get((word or default).upper(), mqc.MQMON_OFF)


def queue_level(qm: QueueManager, queue: MQObject | None) -> int:
    """The monitoring level in force for a queue (MQMON_OFF, LOW, MEDIUM, HIGH)."""
    qmgr = (qm.attrs.get("MONQ") or "OFF").upper()
    if qmgr == "NONE":
        return mqc.MQMON_OFF
    own = ((queue.get("MONQ") if queue is not None else "") or "QMGR").upper()
    return _level(qmgr if own == "QMGR" else own)


def channel_level(qm: QueueManager, name: str) -> int:
    """The monitoring level in force for a channel of `qm` (an automatically defined
    cluster sender when `qm` defines no channel of that name: MONACLS)."""
    qmgr = (qm.attrs.get("MONCHL") or "OFF").upper()
    channel = qm.channels.get(name)
    if channel is None:
        auto = (qm.attrs.get("MONACLS") or "QMGR").upper()
        return _level("OFF" if qmgr == "NONE" else qmgr) if auto == "QMGR" else _level(auto)
    if qmgr == "NONE":
        return mqc.MQMON_OFF
    own = (channel.get("MONCHL") or "QMGR").upper()
    return _level(qmgr if own == "QMGR" else own)


@dataclass
class Indicator:
    """A short- and a long-term indicator of one measurement (microseconds)."""

    short: float | None = None
    long: float | None = None

    def add(self, sample: float) -> None:
        """Take one measurement into both averages (the first sets them)."""
        if self.short is None or self.long is None:
            self.short = self.long = float(sample)
            return
        self.short += (sample - self.short) * SHORT_WEIGHT
        self.long += (sample - self.long) * LONG_WEIGHT

    def value(self) -> tuple[int, int] | None:
        """(short, long) in whole microseconds, None before any measurement."""
        if self.short is None or self.long is None:
            return None
        return round(self.short), round(self.long)

    def to_json(self) -> list[float] | None:
        """The averages as kept (floats), for the estate folder."""
        return None if self.short is None else [self.short, self.long]

    @classmethod
    def from_json(cls, value: object) -> Indicator:
        """From `to_json`'s form (anything else: no measurement)."""
        if isinstance(value, list) and len(value) == 2 and \
                all(isinstance(v, (int, float)) for v in value):
            return cls(float(value[0]), float(value[1]))
        return cls()


@dataclass
class QueueRecord:
    """What is known of one queue beyond its messages."""

    last_put: float | None = None
    last_get: float | None = None
    qtime: Indicator = field(default_factory=Indicator)
    enqueued: int = 0
    dequeued: int = 0
    high_depth: int = 0
    reset_at: float | None = None
    block: int = qfile.BLOCK        # the queue file's block size in use (bytes)

    def forget_monitoring(self) -> None:
        """Monitoring switched off: its values go (they start again when it is on)."""
        self.last_put = self.last_get = None
        self.qtime = Indicator()


@dataclass
class ChannelRecord:
    """One channel instance's status on one queue manager."""

    chltype: str
    state: str = ""                 # RUNNING or RETRYING ('' = no current status)
    partner: str = ""
    conname: str = ""
    xmitq: str = ""
    started: float | None = None
    last_msg: float | None = None
    last_active: float | None = None
    msgs: int = 0
    batches: int = 0
    seq: int = 0
    saved_seq: int | None = None
    xqtime: Indicator = field(default_factory=Indicator)
    nettime: Indicator = field(default_factory=Indicator)
    xbatchsz: Indicator = field(default_factory=Indicator)
    chances: int = 0                # messages that could be measured (for sampling)
    batch_chances: int = 0          # batches that could be measured
    traffic: flows.Traffic = field(default_factory=flows.Traffic)  # BYTSSENT ... BUFSRCVD

    def forget_monitoring(self) -> None:
        """Monitoring switched off: XQTIME and NETTIME start again when it is on."""
        self.xqtime, self.nettime, self.xbatchsz = Indicator(), Indicator(), Indicator()
        self.chances = self.batch_chances = 0

    def end(self) -> None:
        """The instance ends (stopped, or its partner stopped): no current status."""
        self.state = ""
        self.msgs = self.batches = 0
        self.traffic.clear()
        self.started = None


class Monitor(Watcher):
    """Watches a Simulator: queue and channel status and real-time monitoring."""

    def __init__(self, sim: Simulator) -> None:
        self.sim = sim
        self.queues: dict[tuple[str, str], QueueRecord] = {}
        self.channels: dict[tuple[str, str], ChannelRecord] = {}
        sim.add_watcher(self)

    # --- time -------------------------------------------------------------------------

    def moment(self, qmgr: str, t: float | None) -> datetime | None:
        """A simulation time as the queue manager's clock shows it (UTC)."""
        if t is None:
            return None
        skew = self.sim.clock_skew.get(qmgr, 0.0)
        return (self.sim.start + timedelta(seconds=t + skew)).replace(tzinfo=UTC)

    def _qm(self, qmgr: str) -> QueueManager:
        return self.sim.network.qmgrs[qmgr]

    def queue(self, qmgr: str, name: str) -> QueueRecord:
        """The record of a queue (made when first needed)."""
        return self.queues.setdefault((qmgr, name), QueueRecord())

    def _queue_on(self, qmgr: str, name: str, rec: QueueRecord) -> bool:
        qm = self._qm(qmgr)
        on = queue_level(qm, qm.queues.get(name)) != mqc.MQMON_OFF
        if not on:
            rec.forget_monitoring()
        return on

    # --- what the simulator says ------------------------------------------------------

    def stored(self, qmgr: str, queue: str, message: Stored) -> None:
        """A put: statistics, and the last put time while monitoring is on."""
        rec = self.queue(qmgr, queue)
        if self.sim.depth(qmgr, queue) <= 1:
            self._empty_file(qmgr, queue, rec)  # the file was empty when it came
        rec.enqueued += 1
        rec.high_depth = max(rec.high_depth, self.sim.depth(qmgr, queue))
        if self._queue_on(qmgr, queue, rec):
            rec.last_put = self.sim.now

    def taken(self, qmgr: str, queue: str, message: Stored, *, expired: bool) -> None:
        """A destructive get: statistics, the last get and QTIME while monitoring is on."""
        if expired:
            return
        rec = self.queue(qmgr, queue)
        rec.dequeued += 1
        if not self.sim.depth(qmgr, queue):
            self._empty_file(qmgr, queue, rec)
        if self._queue_on(qmgr, queue, rec):
            rec.last_get = self.sim.now
            rec.qtime.add((self.sim.now - message.put_at) * 1e6)

    def _record(self, qmgr: str, channel: MQObject) -> ChannelRecord:
        own = self._qm(qmgr).channels.get(channel.name)
        kind = own.get("CHLTYPE") if own is not None else "CLUSSDR"
        rec = self.channels.get((qmgr, channel.name))
        if rec is None or rec.chltype != kind:
            rec = self.channels[(qmgr, channel.name)] = ChannelRecord(kind)
        source = own if own is not None else channel
        rec.conname = source.get("CONNAME")
        rec.xmitq = (own.get("XMITQ") if own is not None and kind in ("SDR", "SVR")
                     else "SYSTEM.CLUSTER.TRANSMIT.QUEUE" if kind == "CLUSSDR" else "")
        return rec

    def _running(self, rec: ChannelRecord) -> None:
        if rec.state != "RUNNING":
            rec.state = "RUNNING"
            rec.started = self.sim.now
            rec.msgs = rec.batches = 0
            rec.traffic.start()  # a new instance: its start exchange only
        rec.last_active = self.sim.now

    def batch(self, qmgr: str, channel: MQObject, partner: str,
              messages: list[Stored]) -> None:
        """A batch moved: both ends RUNNING, counters, XQTIME and NETTIME samples."""
        now, n = self.sim.now, len(messages)
        rec = self._record(qmgr, channel)
        self._fold_heartbeats(qmgr, channel.name, rec)
        rec.partner = partner
        self._running(rec)
        size = _int(channel.get("BATCHSZ"), 50) or 50
        batches = math.ceil(n / size)
        rec.msgs += n
        rec.batches += batches
        out_bytes, out_bufs, back_bytes, back_bufs = flows.batch_flows(
            (len(m.data) for m in messages), batches)
        _flowed(rec.traffic, out_bytes, out_bufs, back_bytes, back_bufs)
        rec.seq += n
        rec.saved_seq = rec.seq
        rec.last_msg = now
        level = channel_level(self._qm(qmgr), channel.name)
        if level == mqc.MQMON_OFF:
            rec.forget_monitoring()
        else:
            every = SAMPLE_EVERY[level]
            for m in messages:
                if rec.chances % every == 0:
                    rec.xqtime.add((now - m.put_at) * 1e6)
                rec.chances += 1
            if rec.batch_chances % every == 0:
                rec.nettime.add(2 * self.sim.latency * 1e6)
                rec.xbatchsz.add(n)
            rec.batch_chances += 1
        other = self.sim.network.qmgrs.get(partner)
        theirs = other.channels.get(channel.name) if other is not None else None
        if theirs is not None:
            end = self._record(partner, theirs)
            end.partner = qmgr
            self._running(end)
            end.msgs += n
            end.batches += batches
            _flowed(end.traffic, back_bytes, back_bufs, out_bytes, out_bufs)
            end.seq += n
            end.saved_seq = end.seq
            end.last_msg = now + self.sim.latency
            end.last_active = end.last_msg

    def _heartbeat_interval(self, qmgr: str, name: str, partner: str) -> tuple[int, int]:
        """(HBINT as the two ends agree it: the larger, DISCINT of the sending end)."""
        own = self._qm(qmgr).channels.get(name)
        other = self.sim.network.qmgrs.get(partner)
        theirs = other.channels.get(name) if other is not None else None
        hbint = max(_int(c.get("HBINT"), 300) for c in (own, theirs) if c is not None) \
            if own is not None or theirs is not None else 300
        return hbint, _int(own.get("DISCINT") if own is not None else "", 6000)

    def _heartbeats(self, qmgr: str, name: str, rec: ChannelRecord | None) -> int:
        """Heartbeats a running sending end `rec` exchanged since its last message."""
        if rec is None or rec.state != "RUNNING" or rec.chltype not in SENDERS or \
                rec.last_active is None:
            return 0
        hbint, discint = self._heartbeat_interval(qmgr, name, rec.partner)
        return flows.heartbeats_between(rec.last_active, self.sim.now, hbint, discint)

    def _fold_heartbeats(self, qmgr: str, name: str, rec: ChannelRecord) -> None:
        """Before a batch: the heartbeats of the idle time go into both ends' counts."""
        beats = self._heartbeats(qmgr, name, rec)
        if beats:
            rec.traffic.heartbeats(beats)
            theirs = self.channels.get((rec.partner, name))
            if theirs is not None and theirs.partner == qmgr and theirs.state == "RUNNING":
                theirs.traffic.heartbeats(beats)

    def _traffic(self, qmgr: str, name: str, rec: ChannelRecord) -> flows.Traffic:
        """The counts of an instance now: with the heartbeats since its last message."""
        if rec.chltype in SENDERS:
            return rec.traffic.plus_heartbeats(self._heartbeats(qmgr, name, rec))
        sender = self.channels.get((rec.partner, name)) if rec.partner else None
        if sender is None or sender.partner != qmgr:
            return rec.traffic
        return rec.traffic.plus_heartbeats(self._heartbeats(rec.partner, name, sender))

    def blocked(self, qmgr: str, channel: MQObject) -> None:
        """The partner cannot be reached: the channel retries."""
        rec = self._record(qmgr, channel)
        if rec.state != "RETRYING":
            rec.end()
            rec.state = "RETRYING"
        rec.last_active = self.sim.now

    def stopped(self, qmgr: str, channel: str) -> None:
        """STOP CHANNEL: this instance and its partner's end."""
        rec = self.channels.get((qmgr, channel))
        if rec is not None:
            theirs = self.channels.get((rec.partner, channel)) if rec.partner else None
            if theirs is not None and theirs.partner == qmgr:
                if rec.chltype in RECEIVERS and theirs.state == "RUNNING":
                    theirs.end()
                    theirs.state = "RETRYING"  # its receiving end went away
                elif rec.chltype not in RECEIVERS:
                    theirs.end()
            rec.end()

    def channel_ended(self, qmgr: str, channel: MQObject, partner: str, qualifier: int,
                      error: object, *, by_user: bool = False) -> None:
        """An instance ended normally (DISCINT, endmqm): both ends have no current status
        until a new instance starts, which counts MSGS, BATCHES, bytes and buffers from
        the start and has a new CHSTADA/CHSTATI (the sequence numbers go on)."""
        if by_user or qualifier != mqc.MQRQ_CHANNEL_STOPPED_OK:
            return  # STOP CHANNEL (`stopped`) and retries (`blocked`) say what follows
        rec = self.channels.get((qmgr, channel.name))
        if rec is not None and rec.state == "RUNNING":
            rec.end()
        theirs = self.channels.get((partner, channel.name))
        if theirs is not None and theirs.partner == qmgr and theirs.state == "RUNNING":
            theirs.end()

    def started(self, qmgr: str, channel: str) -> None:
        """START CHANNEL: a sender runs if its partner can be reached, else retries."""
        qm = self._qm(qmgr)
        obj = qm.channels.get(channel)
        if obj is None or obj.get("CHLTYPE") not in ("SDR", "SVR", "CLUSSDR"):
            return
        rec = self._record(qmgr, obj)
        if rec.state == "RUNNING":
            return
        other = receiving_end(self.sim.network, obj, qm, "")
        if other is None or not other.channel_running(channel):
            self.blocked(qmgr, obj)
            return
        rec.partner = other.name
        self._running(rec)
        theirs = other.channels.get(channel)
        if theirs is not None:
            end = self._record(other.name, theirs)
            end.partner = qmgr
            self._running(end)

    def refresh(self) -> None:
        """After a change of configuration: what monitoring switched off had is forgotten."""
        for (qmgr, name), rec in self.queues.items():
            if qmgr in self.sim.network.qmgrs:
                self._queue_on(qmgr, name, rec)
        for (qmgr, name), ch in self.channels.items():
            if qmgr in self.sim.network.qmgrs and \
                    channel_level(self._qm(qmgr), name) == mqc.MQMON_OFF:
                ch.forget_monitoring()

    # --- what DISPLAY QSTATUS / CHSTATUS show ----------------------------------------------

    def queue_status(self, qmgr: str, name: str) -> QueueStatus:
        """A local queue's status now (its real-time monitoring as the level in force says)."""
        qm = self._qm(qmgr)
        level = queue_level(qm, qm.queues.get(name))
        messages = self.sim.queues.get((qmgr, name), ())
        rec = self.queues.get((qmgr, name)) or QueueRecord()
        handles = self.handles(qmgr, name)
        inputs = sum(1 for h in handles if h.input != "NO")
        curfsize, curmaxfs = self.queue_file(qmgr, name)
        if level == mqc.MQMON_OFF:
            return QueueStatus(qmgr, name, len(messages), inputs, 0, 0, "OFF",
                               curfsize=curfsize, curmaxfs=curmaxfs)
        oldest = min((s.put_at for s in messages), default=None)
        age = 0 if oldest is None else max(0, int(self.sim.now - oldest))
        return QueueStatus(qmgr, name, len(messages), inputs, 0, 0, LEVEL_WORDS[level], age,
                           rec.qtime.value(), self.moment(qmgr, rec.last_put),
                           self.moment(qmgr, rec.last_get), curfsize, curmaxfs)

    def _maxfsize(self, qmgr: str, name: str) -> int | None:
        queue = self._qm(qmgr).queues.get(name)
        return qfile.max_size(queue.get("MAXFSIZE") if queue is not None else None)

    def _empty_file(self, qmgr: str, name: str, rec: QueueRecord) -> None:
        """The queue is empty: its file takes the block size MAXFSIZE needs."""
        rec.block = qfile.block_for(self._maxfsize(qmgr, name), rec.block)

    def queue_file(self, qmgr: str, name: str) -> tuple[int, int]:
        """(CURFSIZE, CURMAXFS) of a local queue now, megabytes (traceroute.sim.qfile
        says how they are estimated)."""
        messages = self.sim.queues.get((qmgr, name), ())
        rec = self.queues.get((qmgr, name))
        block = rec.block if rec is not None else qfile.BLOCK
        if not messages:
            block = qfile.block_for(self._maxfsize(qmgr, name), block)
            if rec is not None or block != qfile.BLOCK:
                self.queue(qmgr, name).block = block
        return (qfile.current_size((len(s.data) for s in messages), block),
                qfile.current_max(self._maxfsize(qmgr, name), block))

    def handles(self, qmgr: str, queue: str) -> list[HandleStatus]:
        """The handles open on a queue: a running sending channel's MCA on its transmission
        queue, the command server on SYSTEM.ADMIN.COMMAND.QUEUE, applications' inputs."""
        out: list[HandleStatus] = []
        for (owner, name), rec in sorted(self.channels.items()):
            if owner == qmgr and rec.xmitq == queue and rec.chltype in SENDERS and \
                    self.channel_state(qmgr, name)[0] == "RUNNING":
                out.append(HandleStatus(qmgr, queue, SENDING_MCA, mqc.MQAT_QMGR,
                                        channel=name, conname=rec.conname, input="EXCL",
                                        browse=True, inquire=True))
        server = queue == "SYSTEM.ADMIN.COMMAND.QUEUE"
        if server:
            out.append(HandleStatus(qmgr, queue, COMMAND_SERVER, mqc.MQAT_QMGR,
                                    input="EXCL", inquire=True))
        for conn in self.sim.input_handles(qmgr, queue):
            if server and conn.appl_name == COMMAND_SERVER:
                continue  # its gets: the one handle above
            out.append(HandleStatus(qmgr, queue, conn.appl_name[-28:], conn.appl_type,
                                    conn.pid, input="SHARED", browse=True))
        return out

    def channel_state(self, qmgr: str, name: str) -> tuple[str, ChannelRecord | None]:
        """(STATUS word, the record) of a channel now: STOPPED, RUNNING, RETRYING or
        INACTIVE (no status: never ran, or ended after DISCINT seconds without work)."""
        qm = self._qm(qmgr)
        rec = self.channels.get((qmgr, name))
        if name in qm.stopped:
            return "STOPPED", rec
        if name in qm.channels:
            status = self.sim.channel_status(qmgr, name)
            if status == "STARTING":
                return "STARTING", rec  # waiting for an active slot (MaxActiveChannels)
            if status == "RETRYING":
                return "RETRYING", rec  # a message it could not deliver waits for the retry
        if self.sim.message_retries(qmgr, name):
            return "PAUSED", rec  # its MCA waits for the message-retry interval (MRTMR)
        if rec is None or not rec.state:
            return "INACTIVE", rec
        if rec.chltype in RECEIVERS:
            sender = self.channel_state(rec.partner, name)[0] \
                if rec.partner in self.sim.network.qmgrs else "INACTIVE"
            return ("RUNNING" if sender == "RUNNING" else "INACTIVE"), rec
        if rec.state == "RUNNING":
            obj = qm.channels.get(name)
            discint = _int(obj.get("DISCINT") if obj is not None else "", 6000)
            if discint > 0 and rec.last_active is not None and \
                    self.sim.now - rec.last_active > discint:
                return "INACTIVE", rec
        return rec.state, rec

    def channel_status(self, qmgr: str, name: str, *, saved: bool = False
                       ) -> ChannelStatus | None:
        """The current (or saved) status of a channel; None when it has none."""
        qm = self._qm(qmgr)
        status, rec = self.channel_state(qmgr, name)
        obj = qm.channels.get(name)
        # a channel with no definition here is an automatically defined cluster-sender
        chltype = obj.get("CHLTYPE") if obj is not None else (rec.chltype if rec else "") \
            or "CLUSSDR"
        conname = obj.get("CONNAME") if obj is not None else (rec.conname if rec else "")
        xmitq = (obj.get("XMITQ") if obj is not None and chltype in ("SDR", "SVR")
                 else rec.xmitq if rec else "")
        if saved:
            if rec is None or rec.saved_seq is None:
                return None
            return ChannelStatus(qmgr, name, chltype, status, "SAVED", conname=conname,
                                 xmitq=xmitq, curseqno=rec.saved_seq, lstseqno=rec.saved_seq)
        if status == "INACTIVE":
            return None
        rec = rec or ChannelRecord(chltype)
        level = channel_level(qm, name)
        sending = chltype in SENDERS
        on = level != mqc.MQMON_OFF and status == "RUNNING" and sending
        substate = ("MQGET" if sending else "RECEIVE") if status == "RUNNING" else None
        in_doubt = len(self.sim.retrying_towards(qmgr, name)) if sending else 0
        if in_doubt and status == "RUNNING":
            substate = "RECEIVE"  # waiting for the end of its batch: the partner retries
        measured = on and rec.nettime.value() is not None
        traffic = self._traffic(qmgr, name, rec)
        return ChannelStatus(
            qmgr, name, chltype, status, "CURRENT", substate, conname, xmitq,
            rec.partner, rec.msgs, rec.batches, in_doubt, rec.seq, rec.saved_seq or 0,
            bool(in_doubt),
            monchl=LEVEL_WORDS[level],
            xqtime=rec.xqtime.value() if on else None,
            nettime=rec.nettime.value() if on else None,
            last_msg=self.moment(qmgr, rec.last_msg),
            started=self.moment(qmgr, rec.started),
            exittime=(0, 0) if measured else None,  # no channel exits are simulated
            xbatchsz=rec.xbatchsz.value() if on else None,
            comptime=(0, 0) if measured else None,  # nor compression
            bytssent=traffic.bytes_sent, bytsrcvd=traffic.bytes_rcvd,
            bufssent=traffic.bufs_sent, bufsrcvd=traffic.bufs_rcvd)

    def channels_with_status(self, qmgr: str) -> list[str]:
        """Names of the channels of `qmgr` that have a current status now, sorted."""
        names = {name for (owner, name) in self.channels if owner == qmgr}
        names |= self._qm(qmgr).stopped | set(self.sim.starting(qmgr))
        return sorted(n for n in names if self.channel_state(qmgr, n)[0] != "INACTIVE")

    def channels_saved(self, qmgr: str) -> list[str]:
        """Names of the channels of `qmgr` with a saved status, sorted."""
        return sorted(name for (owner, name), rec in self.channels.items()
                      if owner == qmgr and rec.saved_seq is not None)

    def reset(self, qmgr: str, name: str) -> ResetStats:
        """RESET QSTATS: the counters since the last reset, then they start again."""
        rec = self.queue(qmgr, name)
        since = rec.reset_at if rec.reset_at is not None else 0.0
        out = ResetStats(qmgr, name, max(0, int(self.sim.now - since)), rec.high_depth,
                         rec.enqueued, rec.dequeued)
        rec.enqueued = rec.dequeued = 0
        rec.high_depth = self.sim.depth(qmgr, name)
        rec.reset_at = self.sim.now
        return out

    def forget(self, qmgr: str, kind: str, name: str) -> None:
        """An object was deleted: what was known of it goes."""
        if kind == "CHANNEL":
            self.channels.pop((qmgr, name), None)
        else:
            self.queues.pop((qmgr, name), None)


def _flowed(traffic: flows.Traffic, sent_bytes: int, sent_bufs: int, rcvd_bytes: int,
            rcvd_bufs: int) -> None:
    traffic.bytes_sent += sent_bytes
    traffic.bufs_sent += sent_bufs
    traffic.bytes_rcvd += rcvd_bytes
    traffic.bufs_rcvd += rcvd_bufs


def _int(text: str | None, default: int) -> int:
    try:
        return int(text) if text else default
    except ValueError:
        return default
