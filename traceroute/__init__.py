"""MQ semantics of message routes, one subpackage per job.

`records` (what queue managers write: activity reports, trace-route messages and replies,
as typed values), `routes` (ordering them into routes with verdicts), `journeys`
(application activity trace: MQI calls, and journeys of real messages by MsgId), `events`
(MQ event messages, the performance-event engine), `stats` (accounting and statistics
messages), `display` (dspmqrte, amqsact, amqsevt, amqsmon, JSON, OpenTelemetry), `sim`
(MQSC and the simulated network), `readers` (dumps and raw files) and `mq` (transports to
queue managers, collection) — the last two are the I/O edge. The names users need are
re-exported here:

    from traceroute import load_records, build_routes, render_route, reconstruct
"""

from traceroute.display import render_route, route_heading, route_to_dict
from traceroute.events import decode_event
from traceroute.journeys import parse_trace_message, reconstruct
from traceroute.readers import load_records, read_messages
from traceroute.records import Record, TraceOptions, build_trace_message, parse_message
from traceroute.routes import Location, Route, Verdict, build_routes
from traceroute.sim import Simulator, parse_mqsc, read_mqsc
from traceroute.stats import decode_stats

__all__ = [
    "Location",
    "Record",
    "Route",
    "Simulator",
    "TraceOptions",
    "Verdict",
    "build_routes",
    "build_trace_message",
    "decode_event",
    "decode_stats",
    "load_records",
    "parse_message",
    "parse_mqsc",
    "parse_trace_message",
    "read_messages",
    "read_mqsc",
    "reconstruct",
    "render_route",
    "route_heading",
    "route_to_dict",
]
