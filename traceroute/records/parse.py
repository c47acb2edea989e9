"""Decoded PCF -> activity records: activity reports, trace-route messages and replies."""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import pcf
from pcf import fast, mqc
from pcf.codepages import DEFAULT_CCSID, decode_text
from pcf.decoder import MAX_DEPTH
from pcf.headers import DLH_LENGTH, MQDLH, unpack_dlh
from pcf.model import EmbeddedHeader, Group, Header, Message, Parameter
from pcf.mqmd import MQMD
from pcf.names import parameter_name
from traceroute.records.descriptor import LazyMQMD
from traceroute.records.model import (
    TRACE_ROUTE_MEMBERS,
    Activity,
    Extra,
    Operation,
    TraceRoute,
    defaults,
    maker,
)

REPORT, REPLY, TRACE = "report", "reply", "trace-route message"
T = TypeVar("T")
R = TypeVar("R")

_TRACE_INDEX = {pid: i for i, (_name, pid, _label) in enumerate(TRACE_ROUTE_MEMBERS)}
_EXTRA = len(TRACE_ROUTE_MEMBERS)  # TraceRoute's fields: the members', then extra
_UNSET = object()
_EMBEDDED_PCF = mqc.MQFMT_EMBEDDED_PCF.rstrip()
_ADMIN = mqc.MQFMT_ADMIN.rstrip()
_make_trace_route = maker(TraceRoute)
_make_operation = maker(Operation)
_make_activity = maker(Activity)
_OPERATION_FIELDS = {f: i for i, f in enumerate(Operation.__dataclass_fields__)}
_OPERATION_DEFAULTS = list(defaults(Operation))
_OPERATION_DEFAULTS[_OPERATION_FIELDS["type"]] = mqc.MQOPER_UNKNOWN
_MSG_LENGTH, _MD, _EMBEDDED_MD, _OP_EXTRA, _OP_GROUP = (
    _OPERATION_FIELDS[f] for f in ("msg_length", "md", "embedded_md", "extra", "group"))
_INTEGERS = (pcf.Integer, pcf.Integer64)

#: Operation group members read into Operation fields: parameter id -> field (MQCFST).
OPERATION_TEXT = {
    mqc.MQCACF_OPERATION_DATE: "date", mqc.MQCACF_OPERATION_TIME: "time",
    mqc.MQCA_Q_MGR_NAME: "qmgr", mqc.MQCA_QSG_NAME: "qsg", mqc.MQCA_Q_NAME: "queue",
    mqc.MQCACF_RESOLVED_Q_NAME: "resolved_queue", mqc.MQCA_REMOTE_Q_NAME: "remote_queue",
    mqc.MQCA_REMOTE_Q_MGR_NAME: "remote_qmgr", mqc.MQCA_TOPIC_STRING: "topic",
    mqc.MQCACH_CHANNEL_NAME: "channel", mqc.MQCACH_XMIT_Q_NAME: "xmit_queue",
}
#: ... and those that are MQCFINs.
OPERATION_INT = {
    mqc.MQIACF_OPERATION_TYPE: "type", mqc.MQIACH_CHANNEL_TYPE: "channel_type",
    mqc.MQIACF_FEEDBACK: "feedback", mqc.MQIACF_SUB_LEVEL: "sub_level",
}


#: Every member parse_operation reads: parameter id -> (Operation field index, its class,
#: is text); the Message group's index is -1 (it gives msg_length, md and embedded_md).
_OPERATION_MEMBERS: dict[int, tuple[int, type, bool]] = {
    **{pid: (_OPERATION_FIELDS[name], pcf.String, True) for pid, name in OPERATION_TEXT.items()},
    **{pid: (_OPERATION_FIELDS[name], pcf.Integer, False) for pid, name in OPERATION_INT.items()},
    mqc.MQBACF_SUB_ID: (_OPERATION_FIELDS["sub_id"], pcf.ByteString, False),
    mqc.MQGACF_MESSAGE: (-1, Group, False),
}


class NotActivityData(ValueError):
    """A PCF message that is neither an activity report nor a trace-route message/reply."""


@dataclass(frozen=True, slots=True)
class Record:
    """What one collected message says: its kind, correlation key and activities."""

    kind: str
    key: bytes
    activities: tuple[Activity, ...]
    trace_route: TraceRoute | None = None
    md: MQMD | None = field(default=None, compare=False)
    source: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)
    dead_letter: MQDLH | None = field(default=None, compare=False)


_make_record = maker(Record)


def text_of(p: Parameter) -> str:
    """An MQCFST's text; raw bytes (an unknown CCSID) read as Latin-1, padding stripped."""
    v = p.value
    return v if isinstance(v, str) else v.decode("latin-1").rstrip(" \x00")


def _extra(p: Parameter) -> Extra:
    """An unknown parameter; a MQGACF_VALUE_NAMING group names its value."""
    if isinstance(p, Group) and p.parameter == mqc.MQGACF_VALUE_NAMING:
        named = p.find(mqc.MQCACF_VALUE_NAME)
        values = [c for c in p.parameters if c.parameter != mqc.MQCACF_VALUE_NAME]
        if named is not None and len(values) == 1:
            return Extra(text_of(named), values[0])
    return Extra(parameter_name(p.parameter) or str(p.parameter), p)


def parse_trace_route(group: Group) -> TraceRoute:
    """The TraceRoute group's members; absent members are None, others kept as extra."""
    if group.parameter != mqc.MQGACF_TRACE_ROUTE:
        raise ValueError(f"group {group.label} is not a TraceRoute group (MQGACF_TRACE_ROUTE)")
    values: list[object] = [_UNSET] * (_EXTRA + 1)
    extra: list[Parameter] = []
    known = _TRACE_INDEX
    for p in group.parameters:
        i = known.get(p.parameter)
        if i is not None and values[i] is _UNSET and isinstance(p, _INTEGERS):
            values[i] = p.value  # the first counts
        else:
            extra.append(p)
    values = [None if v is _UNSET else v for v in values]
    values[_EXTRA] = tuple(extra)
    return _make_trace_route(values)


def parse_operation(group: Group) -> Operation:
    """An Operation group as an Operation value."""
    values = _OPERATION_DEFAULTS.copy()
    extra: list[Extra] = []
    members = _OPERATION_MEMBERS
    for p in group.parameters:
        known = members.get(p.parameter)
        if known is None or not isinstance(p, known[1]):
            extra.append(_extra(p))
        elif known[2]:  # an MQCFST
            v = p.value
            values[known[0]] = v if isinstance(v, str) else text_of(p)
        elif known[0] >= 0:
            values[known[0]] = p.value
        else:  # the Message group
            length = p.get(mqc.MQIACF_MSG_LENGTH)
            values[_MSG_LENGTH] = length if isinstance(length, int) else None
            md = p.find(mqc.MQGACF_MQMD)
            emb = p.find(mqc.MQGACF_EMBEDDED_MQMD)
            # read when asked (the pipeline asks only for MsgId): LazyMQMD == md_from_group's
            values[_MD] = LazyMQMD(md) if isinstance(md, Group) else None
            values[_EMBEDDED_MD] = LazyMQMD(emb) if isinstance(emb, Group) else None
    values[_OP_EXTRA] = tuple(extra)
    values[_OP_GROUP] = group
    return _make_operation(values)


def activity_parts(group: Group, operation: Callable[[Group], T], trace_route: Callable[[Group], R],
                   other: Callable[[Parameter], object] | None = None
                   ) -> tuple[str, int | None, str, list[T], R | None]:
    """(ApplName, ApplType, ActivityDesc, operations, TraceRoute) of an Activity group: each
    Operation group made by `operation`, the TraceRoute by `trace_route` (of repeated
    members the last counts), any other member passed to `other`."""
    appl_name, appl_type, description = "", None, ""
    operations: list[T] = []
    route = None
    for p in group.parameters:
        pid = p.parameter
        if pid == mqc.MQGACF_OPERATION and isinstance(p, Group):
            operations.append(operation(p))
        elif pid == mqc.MQCACF_APPL_NAME and isinstance(p, pcf.String):
            appl_name = text_of(p)
        elif pid == mqc.MQIA_APPL_TYPE and isinstance(p, pcf.Integer):
            appl_type = p.value
        elif pid == mqc.MQCACF_ACTIVITY_DESC and isinstance(p, pcf.String):
            description = text_of(p)
        elif pid == mqc.MQGACF_TRACE_ROUTE and isinstance(p, Group):
            route = trace_route(p)
        elif other is not None:
            other(p)
    return appl_name, appl_type, description, operations, route


def message_parts(message: Message, activity: Callable[[Group], T],
                  trace_route: Callable[[Group], R]) -> tuple[list[T], R | None]:
    """(activities, TraceRoute) of an activity message: each Activity group made by
    `activity`, the message's own TraceRoute group by `trace_route` (the last counts)."""
    activities: list[T] = []
    route = None
    for p in message.parameters:
        if p.parameter == mqc.MQGACF_ACTIVITY and isinstance(p, Group):
            activities.append(activity(p))
        elif p.parameter == mqc.MQGACF_TRACE_ROUTE and isinstance(p, Group):
            route = trace_route(p)
    return activities, route


def parse_activity(group: Group) -> Activity:
    """An Activity group as an Activity value."""
    extra: list[Extra] = []
    appl_name, appl_type, description, operations, trace_route = activity_parts(
        group, parse_operation, parse_trace_route, lambda p: extra.append(_extra(p)))
    return _make_activity((appl_name, appl_type, description, tuple(operations), trace_route,
                           tuple(extra), group))


def _fallback_key(activities: list[Activity]) -> bytes:
    """Without an MQMD: the original MsgId as the first operation's descriptors carry it."""
    for a in activities:
        for op in a.operations:
            md = op.embedded_md or op.md
            if md is not None and any(md.msg_id):
                return md.msg_id
    return b""


def parse_pcf(message: Message, md: MQMD | None = None, *, source: str | None = None,
              line: int | None = None, dead_letter: MQDLH | None = None) -> Record:
    """A decoded PCF message as a Record; NotActivityData for other PCF messages."""
    kind = record_kind(message, md)
    activities, trace_route = message_parts(message, parse_activity, parse_trace_route)
    if md is None:
        key = _fallback_key(activities)
        if kind == REPLY:
            kind = TRACE
    else:
        key = md.msg_id if kind == TRACE else md.correl_id
    return _make_record((kind, key, tuple(activities), trace_route, md, source, line,
                         dead_letter))


def record_kind(message: Message, md: MQMD | None) -> str:
    """REPORT, REPLY or TRACE from the MQCFH (and the MQMD's MsgType); NotActivityData else."""
    h = message.header
    if h.type == mqc.MQCFT_REPORT and h.command == mqc.MQCMD_ACTIVITY_MSG:
        return REPORT
    if h.type == mqc.MQCFT_TRACE_ROUTE and h.command == mqc.MQCMD_TRACE_ROUTE:
        return REPLY if md is not None and md.msg_type == mqc.MQMT_REPLY else TRACE
    raise NotActivityData(f"PCF Type {h.type}, Command {h.command} is not activity data")


_EPH_FIXED = {True: struct.Struct("<4i8si"), False: struct.Struct(">4i8si")}  # after StrucId
_CFH = {True: struct.Struct("<9i"), False: struct.Struct(">9i")}
_EPH_TEXTS: dict[tuple[bytes, int], str | None] = {}


def decode_embedded(data: bytes, encoding: int, ccsid: int) -> Message | None:
    """`pcf.decode(data, encoding=, ccsid=, fmt="MQHEPCF")` for the usual activity report:
    an ASCII MQEPH and MQCFH whose fields hold together, parameters the compiled decoder
    reads whole, ending where the MQEPH says. The same Message, without the pure decoder's
    per-message work; None for anything else, which pcf.decode then reads (or refuses with
    its error)."""
    return _decode_usual(data, encoding, ccsid, True)


def decode_plain(data: bytes, encoding: int, ccsid: int) -> Message | None:
    """`decode_embedded` for PCF without an MQEPH (MQADMIN: trace-route messages and
    replies): `pcf.decode(data, encoding=, ccsid=, fmt="MQADMIN")` or None."""
    if data[:4] in (b"EPH ", b"\xc5\xd7\xc8\x40"):
        return None  # pcf.decode takes it as an MQEPH whatever the Format says
    return _decode_usual(data, encoding, ccsid, False)


def _decode_usual(data: bytes, encoding: int, ccsid: int, embedded: bool) -> Message | None:
    parse = fast.compiled_parse
    kind = encoding & mqc.MQENC_INTEGER_MASK
    start = mqc.MQEPH_STRUC_LENGTH_FIXED if embedded else mqc.MQCFH_STRUC_LENGTH
    if parse is None or type(data) is not bytes or len(data) < start or kind not in _ORDERS:
        return None
    little = _ORDERS[kind]
    message_ccsid = ccsid or DEFAULT_CCSID
    eph = None
    length = len(data)
    if embedded:
        if data[:4] != b"EPH ":
            return None
        version, length, enc, eph_ccsid, fmt_raw, flags = _EPH_FIXED[little].unpack_from(
            data, 4)
        if length < start or length > len(data) or length & 3:
            return None
        key = (fmt_raw, message_ccsid)
        fmt = _EPH_TEXTS.get(key)
        if fmt is None:
            fmt = decode_text(fmt_raw, message_ccsid)
            if fmt is None:
                return None
            if len(_EPH_TEXTS) < 256:
                _EPH_TEXTS[key] = fmt
        eph = EmbeddedHeader(enc, eph_ccsid, fmt, flags, version)
    typ, cfh_length, cfh_version, command, seq, control, comp, reason, count = \
        _CFH[little].unpack_from(data, start - mqc.MQCFH_STRUC_LENGTH)
    if cfh_length != mqc.MQCFH_STRUC_LENGTH or count < 0:
        return None
    done = parse(data, start, count, little, message_ccsid, length, MAX_DEPTH)
    if done is None or (embedded and done[1] != length):
        return None
    return Message(Header(typ, command, seq, control, comp, reason, cfh_version), done[0],
                   eph, data[done[1]:], mqc.MQENC_REVERSED if little else mqc.MQENC_NORMAL,
                   message_ccsid)


_ORDERS = {mqc.MQENC_INTEGER_REVERSED: True, mqc.MQENC_INTEGER_NORMAL: False}


def decode_activity(md: MQMD | None, data: bytes) -> tuple[Message, MQDLH | None]:
    """The decoded PCF of a collected message and its MQDLH (stripped first when present).

    Raises PCFError for malformed data and NotActivityData for a Format that is not PCF.
    """
    dead_letter = None
    fmt = md.format if md else None
    encoding = md.encoding if md else None
    ccsid = md.coded_char_set_id if md else None
    if fmt is not None and fmt.rstrip() == mqc.MQFMT_DEAD_LETTER_HEADER.rstrip():
        dead_letter = unpack_dlh(data)
        data = data[DLH_LENGTH:]
        fmt, encoding, ccsid = (dead_letter.format, dead_letter.encoding,
                                dead_letter.coded_char_set_id)
    if fmt is not None and not pcf.is_pcf_format(fmt):
        raise NotActivityData(f"format '{fmt}' is not PCF")
    if encoding is not None:  # the usual report or trace-route message: at once
        fmt_name = fmt.rstrip()
        message = decode_embedded(data, encoding, ccsid) if fmt_name == _EMBEDDED_PCF \
            else decode_plain(data, encoding, ccsid) if fmt_name == _ADMIN else None
        if message is not None:
            return message, dead_letter
    try:
        return pcf.decode(data, encoding=encoding, ccsid=ccsid, fmt=fmt), dead_letter
    except pcf.PCFError as e:
        if dead_letter is not None and e.offset is not None:
            raise pcf.PCFError(e.reason, offset=e.offset + DLH_LENGTH, path=e.path) from None
        raise


def parse_message(md: MQMD | None, data: bytes, *, source: str | None = None,
                  line: int | None = None) -> Record:
    """One collected message (MQMD + data) as a Record.

    A message from a dead-letter queue has its MQDLH stripped first. Raises PCFError for
    malformed data and NotActivityData for messages that are not activity data.
    """
    message, dead_letter = decode_activity(md, data)
    return parse_pcf(message, md, source=source, line=line, dead_letter=dead_letter)
