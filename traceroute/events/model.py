"""Typed MQ events: where an event came from, what it is, when, and its event data."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import ClassVar

from pcf import mqc
from pcf.model import Group, Parameter

#: The event queue of each event type (MQCFH.Command) [doc].
EVENT_QUEUES: dict[int, str] = {
    mqc.MQCMD_Q_MGR_EVENT: "SYSTEM.ADMIN.QMGR.EVENT",
    mqc.MQCMD_PERFM_EVENT: "SYSTEM.ADMIN.PERFM.EVENT",
    mqc.MQCMD_CHANNEL_EVENT: "SYSTEM.ADMIN.CHANNEL.EVENT",
    mqc.MQCMD_CONFIG_EVENT: "SYSTEM.ADMIN.CONFIG.EVENT",
    mqc.MQCMD_COMMAND_EVENT: "SYSTEM.ADMIN.COMMAND.EVENT",
    mqc.MQCMD_LOGGER_EVENT: "SYSTEM.ADMIN.LOGGER.EVENT",
}

#: Short category names of the event types.
CATEGORIES: dict[int, str] = {
    mqc.MQCMD_Q_MGR_EVENT: "qmgr",
    mqc.MQCMD_PERFM_EVENT: "performance",
    mqc.MQCMD_CHANNEL_EVENT: "channel",
    mqc.MQCMD_CONFIG_EVENT: "configuration",
    mqc.MQCMD_COMMAND_EVENT: "command",
    mqc.MQCMD_LOGGER_EVENT: "logger",
}

#: Parameters that name the object an event is about, most specific first: the queue an
#: MQOD named (an alias whose base is missing is the alias), else the queue a performance
#: event is about (BaseObjectName), else a channel ...
_OBJECT_PARAMETERS = (mqc.MQCA_Q_NAME, mqc.MQCA_BASE_OBJECT_NAME, mqc.MQCACH_CHANNEL_NAME,
                      mqc.MQCA_PROCESS_NAME, mqc.MQCA_NAMELIST_NAME, mqc.MQCA_TOPIC_NAME,
                      mqc.MQCA_SERVICE_NAME, mqc.MQCA_CF_STRUC_NAME, mqc.MQCA_AUTH_INFO_NAME,
                      mqc.MQCACF_AUTH_PROFILE_NAME)


@dataclass(slots=True)
class Unnamed(Parameter):
    """A value read from amqsevt JSON under a name no MQ constant has: kept to write back."""

    TYPE: ClassVar[int] = -1
    STRUCTURE: ClassVar[str] = "json"
    json_name: str = ""
    value: object = None


@dataclass(frozen=True, slots=True)
class EventSource:
    """Where the event was read: the event queue, its type, the queue manager."""

    object_name: str
    object_type: str = "Queue"
    queue_mgr: str = ""


@dataclass(slots=True)
class Event:
    """One MQ event: type (MQCMD_*_EVENT), reason (MQRC_*), time, and its event data.

    `data` holds the PCF parameters as they came (unknown ones kept); `correl_id` is the
    MQMD CorrelId when not null (configuration/command events, shared-queue event sets);
    `msg_seq_number`/`control` tell a change event's before (1, NOT_LAST) from its after.
    `extra` keeps top-level amqsevt JSON members this model has no field for.
    """

    source: EventSource
    type: int
    reason: int
    time: datetime | None = None
    data: list[Parameter] = field(default_factory=list)
    correl_id: bytes | None = None
    msg_seq_number: int = 1
    control: int = mqc.MQCFC_LAST
    comp_code: int = mqc.MQCC_WARNING
    where: str = ""
    extra: dict[str, object] = field(default_factory=dict)
    length: int | None = field(default=None, compare=False)  # the data bytes read

    def get(self, parameter: int, default: object = None) -> object:
        """The value of the first top-level event-data parameter with this id."""
        for p in self.data:
            if p.parameter == parameter:
                return p.value
        return default

    def group(self, parameter: int) -> Group | None:
        """The first top-level group with this id (CommandContext, CommandData ...)."""
        for p in self.data:
            if p.parameter == parameter and isinstance(p, Group):
                return p
        return None

    @property
    def category(self) -> str:
        """'performance', 'channel', 'configuration', 'command', 'qmgr', 'logger' or '?'."""
        return CATEGORIES.get(self.type, "?")

    @property
    def qmgr(self) -> str:
        """The queue manager the event happened on."""
        for pid in (mqc.MQCA_Q_MGR_NAME, mqc.MQCACF_EVENT_Q_MGR):
            value = self.get(pid)
            if isinstance(value, str) and value:
                return value
        ctx = self.group(mqc.MQGACF_COMMAND_CONTEXT)
        if ctx is not None:
            value = ctx.get(mqc.MQCACF_EVENT_Q_MGR)
            if isinstance(value, str) and value:
                return value
        return self.source.queue_mgr

    @property
    def object_name(self) -> str:
        """The object the event is about (queue, channel ...), '' when none is named."""
        for pid in _OBJECT_PARAMETERS:
            value = self.get(pid)
            if isinstance(value, str) and value:
                return value
        data = self.group(mqc.MQGACF_COMMAND_DATA)
        if data is not None:
            for pid in _OBJECT_PARAMETERS:
                value = data.get(pid)
                if isinstance(value, str) and value:
                    return value
        return ""

    @property
    def object_state(self) -> str | None:
        """'Before Change' / 'After Change' for a configuration change event, else None."""
        if self.reason != mqc.MQRC_CONFIG_CHANGE_OBJECT:
            return None
        return "Before Change" if self.control == mqc.MQCFC_NOT_LAST else "After Change"

    @property
    def epoch(self) -> int | None:
        """Seconds since 1970 of the event's time, or None."""
        return None if self.time is None else int(self.time.timestamp())


def time_from_md(put_date: str, put_time: str) -> datetime | None:
    """The UTC time of MQMD PutDate (YYYYMMDD) and PutTime (HHMMSSTH), or None."""
    try:
        return datetime(int(put_date[0:4]), int(put_date[4:6]), int(put_date[6:8]),
                        int(put_time[0:2]), int(put_time[2:4]), int(put_time[4:6]),
                        int(put_time[6:8] or 0) * 10000, tzinfo=UTC)
    except (ValueError, IndexError):
        return None


def md_time(when: datetime) -> tuple[str, str]:
    """MQMD (PutDate, PutTime) of a time (UTC)."""
    when = when.astimezone(UTC)
    return (when.strftime("%Y%m%d"),
            when.strftime("%H%M%S") + f"{when.microsecond // 10000:02d}")


@dataclass(slots=True)
class ChangePair:
    """A configuration change event's before and after halves (same CorrelId)."""

    before: Event | None
    after: Event | None

    @property
    def changed(self) -> dict[int, tuple[object, object]]:
        """Attribute id -> (before, after) for the attributes whose value changed."""
        old = {p.parameter: p.value for p in (self.before.data if self.before else [])}
        new = {p.parameter: p.value for p in (self.after.data if self.after else [])}
        return {k: (old.get(k), new.get(k)) for k in old.keys() | new.keys()
                if old.get(k) != new.get(k)}
