"""An MCA's TraceMessage keeps its TraceRoute state as it changes the counters: the state it
keeps must always be what parsing the group afresh gives (parse_trace_route), whatever the
group held before: the member there, absent, repeated, or first of another type."""

from __future__ import annotations

import copy

import pytest

from pcf import mqc
from pcf.model import Group, Header, Integer, Integer64, Message, String
from traceroute.records.parse import parse_trace_route
from traceroute.sim.tracestate import TraceMessage

RECORDED, UNRECORDED, DISCONTINUITY = (mqc.MQIACF_RECORDED_ACTIVITIES,
                                       mqc.MQIACF_UNRECORDED_ACTIVITIES,
                                       mqc.MQIACF_DISCONTINUITY_COUNT)


def trace(members: list) -> TraceMessage:
    group = Group(mqc.MQGACF_TRACE_ROUTE, members)
    return TraceMessage(Message(Header(mqc.MQCFT_TRACE_ROUTE, mqc.MQCMD_TRACE_ROUTE), [group]),
                        group)


GROUPS = {
    "usual": [Integer(mqc.MQIACF_ROUTE_DETAIL, mqc.MQROUTE_DETAIL_MEDIUM),
              Integer(RECORDED, 0), Integer(UNRECORDED, 0), Integer(DISCONTINUITY, 0),
              Integer(mqc.MQIACF_MAX_ACTIVITIES, -1)],
    "counters absent": [Integer(mqc.MQIACF_ROUTE_DETAIL, mqc.MQROUTE_DETAIL_LOW)],
    "repeated": [Integer(RECORDED, 4), Integer(RECORDED, 9), Integer(UNRECORDED, 1),
                 Integer(UNRECORDED, 2)],
    "another type first": [String(RECORDED, "x"), Integer64(UNRECORDED, 7),
                           Integer(UNRECORDED, 3), String(DISCONTINUITY, "y")],
    "extras": [Integer(12345, 1), String(mqc.MQCACF_APPL_NAME, "dspmqrte"),
               Integer(RECORDED, 2)],
}


@pytest.mark.parametrize("name", sorted(GROUPS))
def test_kept_state_is_the_group_parsed_anew(name):
    t = trace(copy.deepcopy(GROUPS[name]))
    steps = [lambda: t.count(True), lambda: t.count(False), t.discontinuity,
             lambda: t.count(True), t.discontinuity, lambda: t.count(False)]
    assert t.state == parse_trace_route(t.group)
    for step in steps:
        step()
        assert t.state == parse_trace_route(t.group), name
    fresh = trace(t.group.parameters)
    assert fresh.state == t.state
    assert t.snapshot() == fresh.snapshot()
