"""Routes and journeys as graphs; the estate on Spark; the configured topology against the observed.

`routegraph` (one route, or a few, as a networkx graph; pictures and exports), `network`
(observed vertices and edges as Spark DataFrames), `engines` and `analytics` (graph
analytics on GraphFrames, GraphX or plain DataFrames, checked against networkx), `audit`
(MQSC configuration against observed traffic) and `pipeline` (the analyze job). May import
`pcf` and `traceroute`; networkx, pyspark and graphframes are imported only where used, so
the names below are loaded on first use:

    from graph import route_graph, save, audit
"""

from __future__ import annotations

import importlib

_FACE = {
    "route_graph": "graph.routegraph", "network_graph": "graph.routegraph",
    "save": "graph.routegraph", "audit": "graph.audit", "audit_dataframe": "graph.audit",
    "observed_sends": "graph.audit", "observed_graph": "graph.network",
    "queue_manager_graph": "graph.network", "choose_engine": "graph.engines",
    "available_engines": "graph.engines",
}
__all__ = sorted(_FACE)


def __getattr__(name: str):
    """Load a public name from its module on first use (keeps `import graph` light)."""
    if name in _FACE:
        return getattr(importlib.import_module(_FACE[name]), name)
    raise AttributeError(f"module 'graph' has no attribute {name!r}")
