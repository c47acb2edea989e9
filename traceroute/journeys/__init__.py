"""Application activity trace -> journeys of real messages by MsgId (activity-trace.md §8).

Holds the typed values of activity-trace messages (`Connection`, `MQICall`), their parser
(from a decoded `pcf.Message` + MQMD), and the reconstruction of journeys: one per original
message, linked put -> sending MCA get (XmitqMsgId) -> receiving MCA put (channel name) ->
consumer get, with a verdict and the last place it was seen; `publications` hangs the copies
of a publication (a put to a topic) under its journey; `rows` flattens calls and
journeys for the analyze job's tables; `join` notes what activity reports say of the same
message. Pure functions over values: imports `pcf` and `traceroute.records` (no files, no
Spark).
"""

from traceroute.journeys.calls import ActivityTrace, Connection, DistListEntry, MQICall
from traceroute.journeys.parse import (
    NotActivityTrace,
    is_activity_trace,
    parse_activity_trace,
    parse_trace_message,
)
from traceroute.journeys.publications import adopt_routes, link_publications
from traceroute.journeys.reconstruct import Journey, Reconstruction, Step, reconstruct
from traceroute.journeys.verdict import JourneyVerdict, Location, exit_status

__all__ = [
    "ActivityTrace",
    "Connection",
    "DistListEntry",
    "Journey",
    "JourneyVerdict",
    "Location",
    "MQICall",
    "NotActivityTrace",
    "Reconstruction",
    "Step",
    "adopt_routes",
    "exit_status",
    "is_activity_trace",
    "link_publications",
    "parse_activity_trace",
    "parse_trace_message",
    "reconstruct",
]
