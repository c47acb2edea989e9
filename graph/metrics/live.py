"""Live status from any queue manager -> the facts `graph.metrics.status` turns into metrics.

A status source answers, for one queue manager, the questions of `Answers` with
`traceroute.status`'s typed values: the administration client (`traceroute.mq.admin.Admin`:
a simulated estate's command server, a real queue manager over PCF, the REST API) does, and
`ServerAnswers` asks a command server in process. This module only maps the answers onto
the metrics' facts: DISPLAY QSTATUS and QLOCAL per local queue, CHSTATUS (current instances,
as mq_prometheus shows by default) and CHANNEL per channel, the queue manager running while
it answers (status 0 when it does not).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from graph.metrics.status import ChannelFacts, EstateFacts, QMgrFacts, QueueFacts
from pcf import mqc
from pcf.model import Message
from traceroute.status import (
    ChannelStatus,
    CommandFailed,
    Definition,
    QueueStatus,
    ResponseError,
    failure_of,
)
from traceroute.status.commands import (
    inquire_channel,
    inquire_channel_status,
    inquire_qmgr,
    inquire_queue,
    inquire_queue_status,
)
from traceroute.status.responses import channel_status_from, definition_from, queue_status_from
from traceroute.status.words import (
    CHANNEL_STATUS,
    CHANNEL_SUBSTATE,
    CHANNEL_TYPE,
    INSTANCE_TYPE,
    reverse,
)

#: A transport: the responses of queue manager `qmgr`'s command server to one command.
Execute = Callable[[str, Message], list[Message]]


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
#: Reasons that mean "nothing of that kind here", not a failure.
NOTHING = frozenset((mqc.MQRC_UNKNOWN_OBJECT_NAME, mqc.MQRCCF_CHANNEL_NOT_FOUND,
                     mqc.MQRCCF_CHL_STATUS_NOT_FOUND, mqc.MQRCCF_NONE_FOUND))
_STATUS, _SUBSTATE = reverse(CHANNEL_STATUS), reverse(CHANNEL_SUBSTATE)
_TYPE, _INSTANCE = reverse(CHANNEL_TYPE), reverse(INSTANCE_TYPE)


def ask(execute: Execute, qmgr: str, command: Message) -> list[Message]:
    """The responses to a command; [] when there is nothing of that kind; CommandFailed
    when the command server refuses it."""
    responses = execute(qmgr, command)
    for r in responses:
        failed = failure_of(r)
        if failed is not None:
            if failed.reason in NOTHING:
                return []
            raise failed
    return responses


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
        output_handles=status.opprocs, description=attrs.get("DESCR", ""),
        cluster=attrs.get("CLUSTER", ""))


def channel_facts(status: ChannelStatus, definition: Definition | None) -> ChannelFacts:
    """A channel instance's facts from its status and the channel's definition."""
    attrs = definition.attrs if definition else {}
    return ChannelFacts(
        status.queue_manager, status.name, type=_TYPE.get(status.chltype),
        status=_STATUS.get(status.status), substate=_SUBSTATE.get(status.substate or ""),
        instance_type=_INSTANCE.get(status.instance), rqmname=status.rqmname,
        connname=status.conname, description=attrs.get("DESCR", ""), messages=status.msgs,
        batches=status.batches, last_message=status.last_msg, start=status.started,
        nettime=status.nettime, batchsz=status.xbatchsz, xqtime=status.xqtime,
        max_inst=_int(attrs, "MAXINST"), max_instc=_int(attrs, "MAXINSTC"))


def _by_name(definitions: Iterable[Definition]) -> dict[str, Definition]:
    return {d.name: d for d in definitions}


class ServerAnswers:
    """`Answers` of one queue manager from a command server called in process (the
    simulated estate's `CommandServer.execute`)."""

    def __init__(self, execute: Execute, qmgr: str) -> None:
        self.execute, self.qmgr = execute, qmgr

    def _ask(self, command: Message) -> list[Message]:
        return ask(self.execute, self.qmgr, command)

    def queues(self, name: str = "*", qtype: int = mqc.MQQT_ALL) -> list[Definition]:
        """DISPLAY QUEUE."""
        return [definition_from(m, self.qmgr, "QUEUE")
                for m in self._ask(inquire_queue(name, qtype))]

    def queue_status(self, name: str = "*") -> list[QueueStatus]:
        """DISPLAY QSTATUS TYPE(QUEUE)."""
        return [queue_status_from(m, self.qmgr) for m in self._ask(inquire_queue_status(name))]

    def channels(self, name: str = "*") -> list[Definition]:
        """DISPLAY CHANNEL."""
        return [definition_from(m, self.qmgr, "CHANNEL")
                for m in self._ask(inquire_channel(name))]

    def channel_status(self, name: str = "*") -> list[ChannelStatus]:
        """DISPLAY CHSTATUS, current instances."""
        return [channel_status_from(m, self.qmgr)
                for m in self._ask(inquire_channel_status(name))]

    def queue_manager(self) -> Definition:
        """DISPLAY QMGR."""
        answers = self._ask(inquire_qmgr())
        return definition_from(answers[0], self.qmgr, "QMGR") if answers else \
            Definition(self.qmgr, "QMGR", self.qmgr)


def collect(answers_of: Callable[[str], Answers], qmgrs: Iterable[str], *,
            on_error: Callable[[str, str], None] | None = None) -> EstateFacts:
    """One collection of every queue manager's status; a queue manager that fails to
    answer gets status 0 and `on_error(qmgr, why)`. The `platform` label is the queue
    manager's PLATFORM attribute (UNIX, ZOS ..., as mq_prometheus spells MQPL_*) when it
    has one."""
    facts = EstateFacts()
    for qmgr in qmgrs:
        try:
            a = answers_of(qmgr)
            queues = _by_name(a.queues("*", mqc.MQQT_LOCAL))
            qstatus = a.queue_status("*")
            channels = _by_name(a.channels("*"))
            chstatus = a.channel_status("*")
            described = a.queue_manager()
        except (CommandFailed, ResponseError, OSError, TimeoutError, RuntimeError) as e:
            if on_error is not None:
                on_error(qmgr, str(e))
            facts.qmgrs.append(QMgrFacts(qmgr, status=0))
            continue
        platform = described.attrs.get("PLATFORM", "").removeprefix("MQPL_")
        for s in qstatus:
            q = queue_facts(s, queues.get(s.name))
            q.platform = platform
            facts.queues.append(q)
        for s in chstatus:
            c = channel_facts(s, channels.get(s.name))
            c.platform = platform
            facts.channels.append(c)
        facts.qmgrs.append(QMgrFacts(qmgr, status=mqc.MQQMSTA_RUNNING, platform=platform,
                                     description=described.attrs.get("DESCR", "")))
    return facts
