"""Pictures people look at: routes, the estate, timelines — SVG and PNG from Graphviz.

`route` (one route: queue managers as boxes holding their objects, hops numbered left to
right), `estate` (queue managers by cluster and traffic, where lost messages stopped),
`timeline` (depth, events and verdicts per queue or channel over time), `check` (the boxes
an SVG draws and which overlap), `dot` (Graphviz through pygraphviz, whose wheel ships
Graphviz) and `palette` (shared colours). May import `pcf`, `traceroute` and
`graph.routegraph`'s values; reads no files except where a function is given a path.

    from graph.draw import route_svg, estate_svg, timeline_svg, overlaps
"""

from __future__ import annotations

import importlib

_FACE = {"route_svg": "graph.draw.route", "draw_route": "graph.draw.route",
         "route_dot": "graph.draw.route", "estate_svg": "graph.draw.estate",
         "estate_dot": "graph.draw.estate", "timeline_svg": "graph.draw.timeline",
         "overlaps": "graph.draw.check", "check": "graph.draw.check"}
__all__ = sorted(_FACE)


def __getattr__(name: str):
    """Load a public name from its module on first use (pygraphviz only when drawing)."""
    if name == "check":
        return importlib.import_module("graph.draw.check")
    if name in _FACE:
        return getattr(importlib.import_module(_FACE[name]), name)
    raise AttributeError(f"module 'graph.draw' has no attribute {name!r}")
