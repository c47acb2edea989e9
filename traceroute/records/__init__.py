"""Typed values of what queue managers write about a message's route, and their parsing.

Activity reports, trace-route messages and trace-route replies become `Record`s of
`Activity` / `Operation` / `TraceRoute` values (`model`, `parse`, `descriptor`); `tracemsg`
builds the trace-route message dspmqrte would put, `build` the reports a queue manager
writes, `samples` IBM's documented example reports. Pure values and functions over bytes:
may import `pcf` only — never the routes, display, simulator, readers or transports.
"""

from traceroute.records.model import Activity, Extra, Operation, TraceRoute
from traceroute.records.parse import REPLY, REPORT, TRACE, NotActivityData, Record, parse_message
from traceroute.records.samples import example_reports
from traceroute.records.tracemsg import TraceOptions, build_trace_message

__all__ = [
    "REPLY", "REPORT", "TRACE", "Activity", "Extra", "NotActivityData", "Operation", "Record",
    "TraceOptions", "TraceRoute", "build_trace_message", "example_reports", "parse_message",
]
