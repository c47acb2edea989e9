"""Typed activity data: Operation, Activity and TraceRoute values, read from decoded PCF."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import TypeVar

from pcf import mqc
from pcf.model import Group, Parameter, freeze
from pcf.mqmd import MQMD
from pcf.names import name_of

#: dspmqrte's short names of operation types.
OPERATION_NAMES: dict[int, str] = {
    mqc.MQOPER_UNKNOWN: "Unknown", mqc.MQOPER_BROWSE: "Browse", mqc.MQOPER_DISCARD: "Discard",
    mqc.MQOPER_GET: "Get", mqc.MQOPER_PUT: "Put", mqc.MQOPER_PUT_REPLY: "PutReply",
    mqc.MQOPER_PUT_REPORT: "PutReport", mqc.MQOPER_RECEIVE: "Receive",
    mqc.MQOPER_SEND: "Send", mqc.MQOPER_TRANSFORM: "Transform",
    mqc.MQOPER_PUBLISH: "Publish", mqc.MQOPER_EXCLUDED_PUBLISH: "ExcludedPublish",
    mqc.MQOPER_DISCARDED_PUBLISH: "DiscardedPublish",
}

#: dspmqrte's short names of channel types.
CHANNEL_TYPE_NAMES: dict[int, str] = {
    mqc.MQCHT_SENDER: "Sender", mqc.MQCHT_SERVER: "Server", mqc.MQCHT_RECEIVER: "Receiver",
    mqc.MQCHT_REQUESTER: "Requester", mqc.MQCHT_CLNTCONN: "ClientConnection",
    mqc.MQCHT_SVRCONN: "ServerConnection", mqc.MQCHT_CLUSRCVR: "ClusterReceiver",
    mqc.MQCHT_CLUSSDR: "ClusterSender", mqc.MQCHT_MQTT: "MQTT", mqc.MQCHT_AMQP: "AMQP",
}

#: TraceRoute members in the order of trace-route.md §3: (field, parameter id, MQ name).
TRACE_ROUTE_MEMBERS: tuple[tuple[str, int, str], ...] = (
    ("detail", mqc.MQIACF_ROUTE_DETAIL, "Detail"),
    ("recorded_activities", mqc.MQIACF_RECORDED_ACTIVITIES, "RecordedActivities"),
    ("unrecorded_activities", mqc.MQIACF_UNRECORDED_ACTIVITIES, "UnrecordedActivities"),
    ("discontinuity_count", mqc.MQIACF_DISCONTINUITY_COUNT, "DiscontinuityCount"),
    ("max_activities", mqc.MQIACF_MAX_ACTIVITIES, "MaxActivities"),
    ("accumulate", mqc.MQIACF_ROUTE_ACCUMULATION, "Accumulate"),
    ("forward", mqc.MQIACF_ROUTE_FORWARDING, "Forward"),
    ("deliver", mqc.MQIACF_ROUTE_DELIVERY, "Deliver"),
)

PUT_TYPES = frozenset({mqc.MQOPER_PUT, mqc.MQOPER_PUT_REPLY, mqc.MQOPER_PUT_REPORT})
GET_TYPES = frozenset({mqc.MQOPER_GET, mqc.MQOPER_BROWSE})

T = TypeVar("T")


def maker(cls: type[T]) -> Callable[[Sequence[object]], T]:
    """A function making a frozen, slotted dataclass `cls` from every field's value in field
    order: the object `cls(*values)` makes, without its __init__'s object.__setattr__ per
    field (a parser makes many Operations: twice as fast)."""
    if "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: only slotted dataclasses without __post_init__")
    names = [f.name for f in fields(cls)]
    # as dataclasses writes __init__: one line per field, here calling its slot descriptor
    space: dict[str, object] = {"new": object.__new__, "cls": cls, "n": len(names)}
    lines = ["def make(values):", "    if len(values) != n:",
             "        raise ValueError(f'{n} values needed, not {len(values)}')",
             "    obj = new(cls)"]
    for i, name in enumerate(names):
        space[f"set{i}"] = cls.__dict__[name].__set__
        lines.append(f"    set{i}(obj, values[{i}])")
    exec("\n".join([*lines, "    return obj"]), space)  # our own text, as dataclasses do
    return space["make"]  # type: ignore[return-value]


def defaults(cls: type) -> tuple[object, ...]:
    """Every field's default in field order (None where a field has none); for `maker`."""
    if any(f.default_factory is not MISSING for f in fields(cls)):
        raise TypeError(f"{cls.__name__}: a default made by a factory is not one value")
    return tuple(None if f.default is MISSING else f.default for f in fields(cls))


def _camel(constant: str) -> str:
    """MQFB_NOT_DELIVERED -> NotDelivered."""
    return "".join(w.capitalize() for w in constant.split("_")[1:])


def operation_name(op_type: int) -> str:
    """'Put', 'Get', 'Send' ... for an MQOPER_* value; user operations by number."""
    return OPERATION_NAMES.get(op_type) or f"Operation({op_type})"


def feedback_name(feedback: int) -> str:
    """'NotDelivered', 'MaxActivities' ... for MQFB_* values, MQRC_* names for reasons."""
    fb = name_of(feedback, "MQFB")
    if fb:
        return _camel(fb)
    rc = name_of(feedback, "MQRC")
    return rc or str(feedback)


def channel_type_name(channel_type: int) -> str:
    """'Sender', 'Receiver' ... for an MQCHT_* value."""
    return CHANNEL_TYPE_NAMES.get(channel_type) or str(channel_type)


@dataclass(frozen=True, slots=True)
class TraceRoute:
    """The TraceRoute group: how to record, and what has been recorded so far."""

    detail: int | None = None
    recorded_activities: int | None = None
    unrecorded_activities: int | None = None
    discontinuity_count: int | None = None
    max_activities: int | None = None
    accumulate: int | None = None
    forward: int | None = None
    deliver: int | None = None
    extra: tuple[Parameter, ...] = ()

    @property
    def total_activities(self) -> int:
        """Recorded + Unrecorded + DiscontinuityCount (absent counters count 0)."""
        return sum(v or 0 for v in (self.recorded_activities, self.unrecorded_activities,
                                    self.discontinuity_count))

    @property
    def counters(self) -> tuple[int, int, int] | None:
        """(Recorded, Unrecorded, Discontinuity), or None without RecordedActivities."""
        if self.recorded_activities is None:
            return None
        return (self.recorded_activities, self.unrecorded_activities or 0,
                self.discontinuity_count or 0)

    def __hash__(self) -> int:
        return hash((self.detail, self.recorded_activities, self.unrecorded_activities,
                     self.discontinuity_count, self.max_activities, self.accumulate,
                     self.forward, self.deliver, tuple(freeze(p) for p in self.extra)))


@dataclass(frozen=True, slots=True)
class Extra:
    """A parameter we have no field for, with its display name (from value naming if any)."""

    name: str
    parameter: Parameter

    def __hash__(self) -> int:
        return hash((self.name, freeze(self.parameter)))


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation of an activity, with every operation-specific field MQ records."""

    type: int
    date: str = ""
    time: str = ""
    qmgr: str = ""
    qsg: str | None = None
    queue: str | None = None
    resolved_queue: str | None = None
    remote_queue: str | None = None
    remote_qmgr: str | None = None
    topic: str | None = None
    channel: str | None = None
    channel_type: int | None = None
    xmit_queue: str | None = None
    feedback: int | None = None
    sub_id: bytes | None = None
    sub_level: int | None = None
    msg_length: int | None = None
    md: MQMD | None = field(default=None, compare=False)
    embedded_md: MQMD | None = field(default=None, compare=False)
    extra: tuple[Extra, ...] = ()
    group: Group | None = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        """The dspmqrte name of the operation type."""
        return operation_name(self.type)

    @property
    def is_put(self) -> bool:
        """Put, PutReply or PutReport."""
        return self.type in PUT_TYPES

    @property
    def to_xmit_queue(self) -> bool:
        """A put that resolved to a transmission queue (a remote destination)."""
        return self.is_put and (self.remote_qmgr is not None or self.remote_queue is not None)

    @property
    def from_xmit_queue(self) -> bool:
        """A get of a message from a transmission queue (an MCA's get)."""
        return self.type in GET_TYPES and self.embedded_md is not None

    @property
    def timestamp(self) -> str:
        """'YYYY-MM-DD HH:MM:SS' (as recorded; clocks differ between queue managers)."""
        return f"{self.date} {self.time.replace('.', ':')}".strip()


@dataclass(frozen=True, slots=True)
class Activity:
    """One activity: an application's work on the message, in one queue manager."""

    appl_name: str = ""
    appl_type: int | None = None
    description: str = ""
    operations: tuple[Operation, ...] = ()
    trace_route: TraceRoute | None = None
    extra: tuple[Extra, ...] = ()
    group: Group | None = field(default=None, compare=False, repr=False)

    @property
    def qmgr(self) -> str:
        """The queue manager the activity ran in (that of its first operation)."""
        return self.operations[0].qmgr if self.operations else ""

    @property
    def first(self) -> Operation | None:
        """The first operation, or None."""
        return self.operations[0] if self.operations else None

    @property
    def last(self) -> Operation | None:
        """The last operation, or None."""
        return self.operations[-1] if self.operations else None
