"""Live status from any queue manager -> the facts `graph.metrics.status` turns into metrics.

A status source answers, for one queue manager, the questions of `Answers` with
`traceroute.status`'s typed values: the administration client (`traceroute.mq.admin.Admin`)
does, over a simulated estate's command server, a real queue manager's (PCF over MQ), or
MQ's REST API. This module only maps the answers onto the metrics' facts: DISPLAY QSTATUS
and QLOCAL per local queue, CHSTATUS (current instances, as mq_prometheus shows by default)
and CHANNEL per channel (the temporary reply queues of the asking itself left out), DISPLAY
QMSTATUS and QMGR per queue manager (status, start -> uptime, connections, command server
and channel initiator), LSSTATUS (listeners running, counted as mq_prometheus counts them);
status 0 when it does not answer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from graph.metrics.status import ChannelFacts, EstateFacts, QMgrFacts, QueueFacts
from pcf import mqc
from traceroute.mq.admin import REPLY_PREFIX
from traceroute.status import (
    ChannelStatus,
    CommandFailed,
    Definition,
    QmgrStatus,
    QueueStatus,
    ResponseError,
)
from traceroute.status.words import (
    CHANNEL_STATUS,
    CHANNEL_SUBSTATE,
    CHANNEL_TYPE,
    INSTANCE_TYPE,
    reverse,
)


class Answers(Protocol):
    """What one queue manager is asked (traceroute.mq.admin.Admin's methods)."""

    def queues(self, name: str = "*", qtype: int = mqc.MQQT_ALL) -> list[Definition]:
        """DISPLAY QUEUE: the definitions."""

    def queue_status(self, name: str = "*") -> list[QueueStatus]:
        """DISPLAY QSTATUS TYPE(QUEUE)."""

    def channels(self, name: str = "*") -> list[Definition]:
        """DISPLAY CHANNEL."""

    def channel_status(self, name: str = "*") -> list[ChannelStatus]:
        """DISPLAY CHSTATUS, current instances."""

    def queue_manager(self) -> Definition:
        """DISPLAY QMGR."""

    def qmgr_status(self) -> QmgrStatus:
        """DISPLAY QMSTATUS."""

    def active_listeners(self) -> int:
        """DISPLAY LSSTATUS(*): how many listeners run."""

    @property
    def qmgr(self) -> str:
        """The queue manager's name (the one answering for the default one, '')."""


_STATUS, _SUBSTATE = reverse(CHANNEL_STATUS), reverse(CHANNEL_SUBSTATE)
_TYPE, _INSTANCE = reverse(CHANNEL_TYPE), reverse(INSTANCE_TYPE)


def _int(attrs: dict[str, str], keyword: str) -> int | None:
    try:
        return int(attrs[keyword])
    except (KeyError, ValueError):
        return None


def queue_facts(status: QueueStatus, definition: Definition | None) -> QueueFacts:
    """A local queue's facts from its status and its definition."""
    attrs = definition.attrs if definition else {}
    usage = attrs.get("USAGE", "").upper()
    return QueueFacts(
        status.queue_manager, status.name, depth=status.curdepth,
        max_depth=_int(attrs, "MAXDEPTH"),
        usage={"XMITQ": mqc.MQUS_TRANSMISSION, "NORMAL": mqc.MQUS_NORMAL}.get(usage),
        oldest_message_age=status.msgage, qtime=status.qtime, last_put=status.last_put,
        last_get=status.last_get, uncommitted=status.uncom, input_handles=status.ipprocs,
        output_handles=status.opprocs, file_size=status.curfsize,
        max_file_size=status.curmaxfs, description=attrs.get("DESCR", ""),
        cluster=attrs.get("CLUSTER", ""))


def channel_facts(status: ChannelStatus, definition: Definition | None) -> ChannelFacts:
    """A channel instance's facts from its status and the channel's definition."""
    attrs = definition.attrs if definition else {}
    return ChannelFacts(
        status.queue_manager, status.name, type=_TYPE.get(status.chltype),
        status=_STATUS.get(status.status), substate=_SUBSTATE.get(status.substate or ""),
        instance_type=_INSTANCE.get(status.instance), rqmname=status.rqmname,
        connname=status.conname, description=attrs.get("DESCR", ""), messages=status.msgs,
        bytes_sent=status.bytssent, bytes_rcvd=status.bytsrcvd,
        buffers_sent=status.bufssent, buffers_rcvd=status.bufsrcvd,
        batches=status.batches, last_message=status.last_msg, start=status.started,
        nettime=status.nettime, batchsz=status.xbatchsz, xqtime=status.xqtime,
        max_inst=_int(attrs, "MAXINST"), max_instc=_int(attrs, "MAXINSTC"))


def _by_name(definitions: Iterable[Definition]) -> dict[str, Definition]:
    return {d.name: d for d in definitions}


def collect(answers_of: Callable[[str], Answers], qmgrs: Iterable[str], *,
            on_error: Callable[[str, str], None] | None = None) -> EstateFacts:
    """One collection of every queue manager's status; a queue manager that fails to
    answer gets status 0 and `on_error(qmgr, why)`. The `platform` label is the queue
    manager's PLATFORM attribute (UNIX, ZOS ..., as mq_prometheus spells MQPL_*) when it
    has one."""
    facts = EstateFacts()
    for asked in qmgrs:
        qmgr = asked
        try:
            a = answers_of(asked)
            qmgr = a.qmgr or asked
            queues = _by_name(a.queues("*", mqc.MQQT_LOCAL))
            qstatus = a.queue_status("*")
            channels = _by_name(a.channels("*"))
            chstatus = a.channel_status("*")
            described = a.queue_manager()
            running = a.qmgr_status()
        except (CommandFailed, ResponseError, OSError, TimeoutError, RuntimeError) as e:
            if on_error is not None:
                on_error(qmgr, str(e))
            facts.qmgrs.append(QMgrFacts(qmgr, status=0))
            continue
        platform = described.attrs.get("PLATFORM", "").removeprefix("MQPL_")
        try:  # a source that cannot ask it (a REST API without DISPLAY LSSTATUS): no series
            listening: int | None = a.active_listeners()
        except (CommandFailed, ResponseError, RuntimeError) as e:
            listening = None
            if on_error is not None:
                on_error(qmgr, f"listeners: {e}")
        for s in qstatus:
            if s.name.startswith(REPLY_PREFIX):  # the asking's own reply queue, not theirs
                continue
            q = queue_facts(s, queues.get(s.name))
            q.platform = platform
            facts.queues.append(q)
        for s in chstatus:
            c = channel_facts(s, channels.get(s.name))
            c.platform = platform
            facts.channels.append(c)
        facts.qmgrs.append(QMgrFacts(
            qmgr, status=running.status, connection_count=running.connections,
            channel_initiator_status=running.channel_initiator,
            command_server_status=running.command_server, start=running.start,
            active_listeners=listening,
            platform=platform, description=described.attrs.get("DESCR", ""),
            # HostName (MQ 9.3.2 on): mq_prometheus's label turns '-' into '.'
            hostname=running.host_name.replace("-", ".")))
    return facts
