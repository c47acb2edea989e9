"""Text and JSON for people and programs: what the other packages' values look like.

`dspmqrte` renders routes as IBM's dspmqrte does (summary, outline with its options, all)
and the one-line route heading; `jsonout` gives routes as JSON-ready dicts; `amqsmon`
prints accounting/statistics records as IBM's amqsmon does, and as JSON. Pure functions
returning strings and dicts (they print nothing): may import `pcf`, `traceroute.records`,
`traceroute.routes` and the other value packages (journeys, events, stats), never the
simulator, readers or transports.
"""

from traceroute.display.amqsmon import record_to_json, render_amqsmon
from traceroute.display.dspmqrte import (
    OUTLINE_OPTIONS,
    branch_results,
    describe_location,
    render_route,
    route_heading,
)
from traceroute.display.jsonout import route_to_dict

__all__ = ["OUTLINE_OPTIONS", "branch_results", "describe_location", "record_to_json",
           "render_amqsmon", "render_route", "route_heading", "route_to_dict"]
