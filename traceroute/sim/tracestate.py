"""The MCA's view of a trace-route message: its TraceRoute counters and the decisions of
trace-route.md §5 (record or not, loop check, forwarding, delivery). Pure functions."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field, fields
from operator import attrgetter

import pcf
from pcf import mqc
from pcf.fastencode import encode_fast
from pcf.model import Group, Integer, Message
from pcf.mqmd import MQMD
from traceroute.records.model import TRACE_ROUTE_MEMBERS, TraceRoute, maker
from traceroute.records.parse import decode_embedded, decode_plain, parse_trace_route

LOW, MEDIUM, HIGH = (mqc.MQROUTE_DETAIL_LOW, mqc.MQROUTE_DETAIL_MEDIUM,
                     mqc.MQROUTE_DETAIL_HIGH)
ENABLED = (mqc.MQRECORDING_MSG, mqc.MQRECORDING_Q)
_ACCUMULATING = (mqc.MQROUTE_ACCUMULATE_IN_MSG, mqc.MQROUTE_ACCUMULATE_AND_REPLY)
_REJ_UNSUP = 0xFFFF0000
_EPH_IDS = (b"EPH ", b"\xc5\xd7\xc8\x40")  # ASCII, EBCDIC
_KIND = (mqc.MQCFT_TRACE_ROUTE, mqc.MQCMD_TRACE_ROUTE)
_PEEK = (struct.Struct("<i8xi"), struct.Struct(">i8xi"))  # MQCFH Type, Command
_STATE_FIELDS = tuple(f.name for f in fields(TraceRoute))
_state_values = attrgetter(*_STATE_FIELDS)
_make_state = maker(TraceRoute)
_INDEX_OF = {pid: _STATE_FIELDS.index(name) for name, pid, _label in TRACE_ROUTE_MEMBERS}


def _may_be_trace_route(data: bytes, fmt: str) -> bool:
    """False when the MQCFH (at 0, or after an MQEPH's fixed part) is surely not a
    trace-route message's, in either byte order; True when only decoding can tell."""
    at = 32 if fmt == "MQHEPCF" or data[:4] in _EPH_IDS else 0
    if len(data) < at + 16:
        return False  # too short for an MQCFH: decoding would fail
    return any(p.unpack_from(data, at) == _KIND for p in _PEEK)


@dataclass
class TraceMessage:
    """A decoded trace-route message whose TraceRoute group an MCA updates in place."""

    message: Message
    group: Group
    _state: TraceRoute | None = field(default=None, repr=False, compare=False)

    @classmethod
    def recognise(cls, md: MQMD, data: bytes) -> TraceMessage | None:
        """The trace-route message in (md, data), or None for any other message (step 1)."""
        fmt = md.format.rstrip()
        if fmt not in ("MQADMIN", "MQHEPCF") or md.msg_type == mqc.MQMT_REPLY:
            return None  # a trace-route reply carries the same PCF but is not one
        if not _may_be_trace_route(data, fmt):
            return None  # an activity report, an event ...: its MQCFH says so, no decoding
        quick = decode_plain if fmt == "MQADMIN" else decode_embedded
        message = quick(data, md.encoding, md.coded_char_set_id)  # the usual message at once
        if message is None:
            try:
                message = pcf.decode(data, encoding=md.encoding, ccsid=md.coded_char_set_id,
                                     fmt=md.format)
            except pcf.PCFError:
                return None
        h = message.header
        if h.type != mqc.MQCFT_TRACE_ROUTE or h.command != mqc.MQCMD_TRACE_ROUTE:
            return None
        group = message.find(mqc.MQGACF_TRACE_ROUTE)
        return cls(message, group) if isinstance(group, Group) else None

    @property
    def state(self) -> TraceRoute:
        """The TraceRoute values now."""
        if self._state is None:
            self._state = parse_trace_route(self.group)
        return self._state

    def _set(self, pid: int, value: int) -> None:
        member = self.group.find(pid)
        if isinstance(member, Integer):  # the first of its id: the one the state reads
            member.value = value
        else:
            self.group.parameters.append(Integer(pid, value))
            if member is not None:  # another type first: the state is read anew
                self._state = None
                return
        state = self._state  # kept, as parse_trace_route reads the group now
        if state is not None:
            values = list(_state_values(state))
            values[_INDEX_OF[pid]] = value
            self._state = _make_state(values)

    def count(self, recorded: bool) -> None:
        """Step 2: RecordedActivities or UnrecordedActivities + 1."""
        s = self.state
        if recorded:
            self._set(mqc.MQIACF_RECORDED_ACTIVITIES, (s.recorded_activities or 0) + 1)
        else:
            self._set(mqc.MQIACF_UNRECORDED_ACTIVITIES, (s.unrecorded_activities or 0) + 1)

    def discontinuity(self) -> None:
        """A hop through a queue manager without trace-route support: DiscontinuityCount + 1."""
        self._set(mqc.MQIACF_DISCONTINUITY_COUNT, (self.state.discontinuity_count or 0) + 1)

    def snapshot(self) -> Group:
        """A copy of the TraceRoute group as it is now (for a report or an Activity)."""
        state = self.state
        members = [Integer(pid, v) for name, pid, _ in TRACE_ROUTE_MEMBERS
                   if (v := getattr(state, name)) is not None]
        return Group(mqc.MQGACF_TRACE_ROUTE, members)

    def append(self, activity: Group) -> None:
        """Step 4: add an Activity group at the end of the PCF block."""
        self.message.parameters.append(activity)

    def encode(self, md: MQMD) -> bytes:
        """The message data again, in the encoding and CCSID its MQMD announces."""
        return encode_fast(self.message, encoding=md.encoding, ccsid=md.coded_char_set_id)


def records(tr: TraceRoute, level: int, report: int, activrec: int, routerec: int) -> bool:
    """Step 2: is an activity of detail `level` recorded (in the message or a report)?"""
    if level > (tr.detail if tr.detail is not None else MEDIUM):
        return False
    accumulates = tr.accumulate in _ACCUMULATING and routerec in ENABLED
    reports = bool(report & mqc.MQRO_ACTIVITY) and activrec in ENABLED
    return accumulates or reports


def too_many(tr: TraceRoute) -> bool:
    """Step 3: total activities above a MaxActivities limit."""
    limit = tr.max_activities or mqc.MQROUTE_UNLIMITED_ACTIVITIES
    return limit != mqc.MQROUTE_UNLIMITED_ACTIVITIES and tr.total_activities > limit


def accumulates(tr: TraceRoute, routerec: int) -> bool:
    """Step 4: is the activity written into the message?"""
    return tr.accumulate in _ACCUMULATING and routerec in ENABLED


def replies(tr: TraceRoute, routerec: int) -> bool:
    """Step 6 (given a put to a local queue or a rejection): is a reply generated?"""
    return tr.accumulate == mqc.MQROUTE_ACCUMULATE_AND_REPLY and routerec in ENABLED


def forwarding_feedback(tr: TraceRoute, remote_supports: bool) -> int | None:
    """§5.2 (reconciled table): None to forward, else the MQFB_* to reject with."""
    forward = (tr.forward or 0) & 0xFFFFFFFF
    deliver = (tr.deliver or 0) & 0xFFFFFFFF
    if remote_supports:
        return mqc.MQFB_UNSUPPORTED_FORWARDING if forward & _REJ_UNSUP else None
    if deliver & _REJ_UNSUP:
        return mqc.MQFB_UNSUPPORTED_DELIVERY
    if deliver == mqc.MQROUTE_DELIVER_YES:
        return None
    if forward & _REJ_UNSUP:
        return mqc.MQFB_UNSUPPORTED_FORWARDING
    if forward == mqc.MQROUTE_FORWARD_ALL:
        return None
    return mqc.MQFB_NOT_FORWARDED


def delivers(tr: TraceRoute) -> bool:
    """Step 5: may the message be put on its (local) target queue?"""
    return ((tr.deliver or 0) & 0xFFFF) == mqc.MQROUTE_DELIVER_YES
