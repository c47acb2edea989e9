"""MQ semantics of message routes, one subpackage per job.

`records` (what queue managers write: activity reports, trace-route messages and replies,
as typed values), `routes` (ordering them into routes with verdicts), `display` (dspmqrte
text, JSON), `sim` (MQSC and the simulated network), `readers` (dumps and raw files) and
`mq` (transports to queue managers, collection) — the last two are the I/O edge. The names
users need are re-exported here:

    from traceroute import load_records, build_routes, render_route
"""

from traceroute.display import render_route, route_heading, route_to_dict
from traceroute.readers import load_records, read_messages
from traceroute.records import Record, TraceOptions, build_trace_message, parse_message
from traceroute.routes import Location, Route, Verdict, build_routes
from traceroute.sim import Simulator, parse_mqsc, read_mqsc

__all__ = [
    "Location",
    "Record",
    "Route",
    "Simulator",
    "TraceOptions",
    "Verdict",
    "build_routes",
    "build_trace_message",
    "load_records",
    "parse_message",
    "parse_mqsc",
    "read_messages",
    "read_mqsc",
    "render_route",
    "route_heading",
    "route_to_dict",
]
