"""Live object status -> `ibmmq_queue_*`, `ibmmq_channel_*`, `ibmmq_qmgr_*` (pure).

A status source (a simulated estate folder, a queue manager through the PCF command server,
the REST API) answers DISPLAY QSTATUS / QLOCAL, CHSTATUS / CHANNEL and QMSTATUS; its adapter
turns the answers into the small facts below, so that each source is a thin mapping and the
metrics are computed once. As mq-metric-samples does: a channel's messages, bytes, buffers
and batches are the change since the previous collection (0 the first time; the new value
when the counter went back, as after a channel restart); times since a put, a get or a
message are seconds before `now`; an object that is no longer reported is no longer
exported and its previous counters are forgotten.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from graph.metrics.labels import constant_label
from graph.metrics.snapshot import Snapshot
from pcf import mqc

#: Pair of (short, long) period averages, as QTIME, NETTIME, BATCHSZ, XQTIME carry them.
Pair = tuple[int | None, int | None] | None


@dataclass(slots=True)
class QueueFacts:
    """What DISPLAY QSTATUS and the queue's definition tell of one local queue."""

    qmgr: str
    queue: str
    depth: int | None = None
    max_depth: int | None = None
    usage: int | None = None
    oldest_message_age: int | None = None
    qtime: Pair = None
    last_put: datetime | None = None
    last_get: datetime | None = None
    uncommitted: int | None = None
    input_handles: int | None = None
    output_handles: int | None = None
    file_size: int | None = None
    max_file_size: int | None = None
    description: str = ""
    cluster: str = ""
    platform: str = ""


@dataclass(slots=True)
class ChannelFacts:
    """What DISPLAY CHSTATUS and the channel's definition tell of one channel instance."""

    qmgr: str
    channel: str
    type: int | None = None
    status: int | None = None
    substate: int | None = None
    instance_type: int | None = mqc.MQOT_CURRENT_CHANNEL
    rqmname: str = ""
    connname: str = ""
    jobname: str = ""
    sslciph: str = ""
    description: str = ""
    platform: str = ""
    messages: int | None = None
    bytes_sent: int | None = None
    bytes_rcvd: int | None = None
    buffers_sent: int | None = None
    buffers_rcvd: int | None = None
    batches: int | None = None
    last_message: datetime | None = None
    start: datetime | None = None
    nettime: Pair = None
    batchsz: Pair = None
    xqtime: Pair = None
    max_inst: int | None = None
    max_instc: int | None = None


@dataclass(slots=True)
class QMgrFacts:
    """What DISPLAY QMSTATUS tells of a queue manager; status 0 when it cannot be reached."""

    qmgr: str
    status: int | None = None
    connection_count: int | None = None
    channel_initiator_status: int | None = None
    command_server_status: int | None = None
    start: datetime | None = None
    active_listeners: int | None = None
    platform: str = ""
    description: str = ""
    hostname: str = ""


@dataclass(slots=True)
class EstateFacts:
    """One collection from a status source."""

    queues: list[QueueFacts] = field(default_factory=list)
    channels: list[ChannelFacts] = field(default_factory=list)
    qmgrs: list[QMgrFacts] = field(default_factory=list)


#: The channel counters mq-metric-samples turns into deltas.
DELTAS = ("messages", "bytes_sent", "bytes_rcvd", "buffers_sent", "buffers_rcvd", "batches")
#: MQCHS_* that ibmmq_channel_status_squash reads as 1, in transition (mqmetric's
#: ChannelNormalise); running is 2, every other value 0.
SQUASH_TRANSITION = frozenset((mqc.MQCHS_BINDING, mqc.MQCHS_STARTING, mqc.MQCHS_STOPPING,
                               mqc.MQCHS_RETRYING, mqc.MQCHS_REQUESTING,
                               mqc.MQCHS_INITIALIZING, mqc.MQCHS_SWITCHING))


def squash(status: int) -> int:
    """0 stopped (inactive, disconnected, stopped, paused, unknown), 1 in transition,
    2 running."""
    if status == mqc.MQCHS_RUNNING:
        return 2
    return 1 if status in SQUASH_TRANSITION else 0


class Deltas:
    """Previous readings of cumulative channel counters, to export their change."""

    def __init__(self) -> None:
        self.previous: dict[tuple, int] = {}

    def change(self, key: tuple, value: int | None) -> int | None:
        """The change since the previous reading of `key` (0 the first time; the value
        itself when it went back)."""
        if value is None:
            return None
        old = self.previous.get(key)
        self.previous[key] = value
        if old is None:
            return 0
        return value - old if value >= old else value

    def keep_only(self, seen: set[tuple]) -> None:
        """Forget the objects not seen in this collection."""
        self.previous = {k: v for k, v in self.previous.items() if k[:-1] in seen}


def _since(now: datetime, then: datetime | None) -> float | None:
    if then is None:
        return None
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    return max((now - then).total_seconds(), 0.0)


def _pair(snap: Snapshot, stem: str, pair: Pair, labels: dict) -> None:
    if pair is None:
        return
    for suffix, value in zip(("short", "long"), pair, strict=False):
        snap.put(f"{stem}_{suffix}", labels, value)


def _queues(snap: Snapshot, queues: Iterable[QueueFacts], now: datetime) -> None:
    for q in queues:
        labels = {"qmgr": q.qmgr, "queue": q.queue, "platform": q.platform,
                  "usage": "" if q.usage is None else
                  ("XMITQ" if q.usage == mqc.MQUS_TRANSMISSION else "NORMAL"),
                  "description": q.description, "cluster": q.cluster}
        for name, value in (("depth", q.depth), ("attribute_max_depth", q.max_depth),
                            ("attribute_usage", q.usage),
                            ("oldest_message_age", q.oldest_message_age),
                            ("time_since_put", _since(now, q.last_put)),
                            ("time_since_get", _since(now, q.last_get)),
                            ("uncommitted_messages", q.uncommitted),
                            ("input_handles", q.input_handles),
                            ("output_handles", q.output_handles),
                            ("qfile_current_size", q.file_size),
                            ("qfile_max_size", q.max_file_size)):
            snap.put(f"ibmmq_queue_{name}", labels, value)
        _pair(snap, "ibmmq_queue_qtime", q.qtime, labels)


def _channels(snap: Snapshot, channels: list[ChannelFacts], now: datetime,
              deltas: Deltas) -> None:
    instances: dict[tuple[str, str], int] = {}
    for c in channels:
        instances[(c.qmgr, c.channel)] = instances.get((c.qmgr, c.channel), 0) + 1
    seen: set[tuple] = set()
    for c in channels:
        labels = {"qmgr": c.qmgr, "channel": c.channel, "platform": c.platform,
                  "description": c.description, "type": constant_label(c.type, "MQCHT"),
                  "rqmname": c.rqmname, "connname": c.connname, "jobname": c.jobname,
                  "sslciph": c.sslciph}
        key = (c.qmgr, c.channel, c.rqmname, c.connname, c.jobname)
        seen.add(key)
        if c.status is not None:
            snap.put("ibmmq_channel_status", labels, c.status)
            snap.put("ibmmq_channel_status_squash", labels, squash(c.status))
        for name in DELTAS:
            snap.put(f"ibmmq_channel_{name}", labels,
                     deltas.change((*key, name), getattr(c, name)))
        for name, value in (("substate", c.substate), ("type", c.type),
                            ("instance_type", c.instance_type),
                            ("time_since_msg", _since(now, c.last_message)),
                            ("attribute_max_inst", c.max_inst),
                            ("attribute_max_instc", c.max_instc),
                            ("cur_inst", instances[(c.qmgr, c.channel)]),
                            ("start_epoch", None if c.start is None else _epoch(c.start))):
            snap.put(f"ibmmq_channel_{name}", labels, value)
        _pair(snap, "ibmmq_channel_nettime", c.nettime, labels)
        _pair(snap, "ibmmq_channel_batchsz", c.batchsz, labels)
        _pair(snap, "ibmmq_channel_xmitq_time", c.xqtime, labels)
    deltas.keep_only(seen)


def _epoch(when: datetime) -> float:
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def _qmgrs(snap: Snapshot, qmgrs: Iterable[QMgrFacts], now: datetime) -> None:
    for m in qmgrs:
        labels = {"qmgr": m.qmgr, "platform": m.platform, "description": m.description,
                  "hostname": m.hostname}
        for name, value in (("status", m.status), ("connection_count", m.connection_count),
                            ("channel_initiator_status", m.channel_initiator_status),
                            ("command_server_status", m.command_server_status),
                            ("uptime", _since(now, m.start)),
                            ("active_listeners", m.active_listeners)):
            snap.put(f"ibmmq_qmgr_{name}", labels, value)


def status_snapshot(facts: EstateFacts, *, now: datetime, deltas: Deltas | None = None
                    ) -> Snapshot:
    """The status metrics of one collection (`deltas` carries channel counters from the
    previous one; without it every delta is 0)."""
    snap = Snapshot()
    _queues(snap, facts.queues, now)
    _channels(snap, facts.channels, now, deltas or Deltas())
    _qmgrs(snap, facts.qmgrs, now)
    return snap
