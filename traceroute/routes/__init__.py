"""Routes: activities of one original message put in order, with gaps and a verdict.

`ordering` correlates records by CorrelId and orders them (TraceRoute counters, chaining,
timestamps last) into `Route`s with `Gap`s and branches; `publications` joins a
publication's copies (each its own CorrelId) into one tree; `verdict` says how a route ended
and where the message was last seen. Pure functions: may import `pcf` and `traceroute.records`
only.
"""

from traceroute.routes.ordering import Gap, Route, Step, route_of
from traceroute.routes.publications import (
    Destinations,
    assemble,
    build_routes,
    published,
    settled,
)
from traceroute.routes.verdict import SEVERITY, Location, Outcome, Verdict, worst

__all__ = ["SEVERITY", "Destinations", "Gap", "Location", "Outcome", "Route", "Step",
           "Verdict", "assemble", "build_routes", "published", "route_of", "settled", "worst"]
