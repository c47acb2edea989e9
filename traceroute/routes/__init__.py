"""Routes: activities of one original message put in order, with gaps and a verdict.

`ordering` correlates records by CorrelId and orders them (TraceRoute counters, chaining,
timestamps last) into `Route`s with `Gap`s and branches; `verdict` says how a route ended and
where the message was last seen. Pure functions: may import `pcf` and `traceroute.records`
only.
"""

from traceroute.routes.ordering import Gap, Route, Step, build_routes, route_of
from traceroute.routes.verdict import Location, Outcome, Verdict

__all__ = ["Gap", "Location", "Outcome", "Route", "Step", "Verdict", "build_routes", "route_of"]
