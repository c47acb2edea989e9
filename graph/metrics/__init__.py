"""Metrics for Prometheus and OpenTelemetry from what mqroute reads.

`catalog` names every metric family (IBM mq-metric-samples' names where it has the quantity,
`mqroute_*` for what only mqroute knows); `snapshot` holds values (bounded by --max-series);
`status`, `statistics`, `events` and `analyze` turn live object status, statistics and
accounting records, events and an analyze output folder into values; `refresh` reads the
sources of one refresh; `prometheus` and `otlp` expose a snapshot (prometheus_client;
OpenTelemetry's SDK and OTLP exporter). May import `pcf`, `traceroute` and `graph.report`'s
tables; prometheus_client, pyarrow and OpenTelemetry are imported where used.

    from graph.metrics import Snapshot, statistics_snapshot, exposition
    text = exposition(statistics_snapshot(records))
"""

from __future__ import annotations

import importlib

_FACE = {
    "FAMILIES": "graph.metrics.catalog", "Family": "graph.metrics.catalog",
    "family": "graph.metrics.catalog", "Snapshot": "graph.metrics.snapshot",
    "Histogram": "graph.metrics.snapshot", "bounded": "graph.metrics.snapshot",
    "statistics_snapshot": "graph.metrics.statistics",
    "events_snapshot": "graph.metrics.events", "analyze_snapshot": "graph.metrics.analyze",
    "status_snapshot": "graph.metrics.status", "EstateFacts": "graph.metrics.status",
    "QueueFacts": "graph.metrics.status", "ChannelFacts": "graph.metrics.status",
    "QMgrFacts": "graph.metrics.status", "Deltas": "graph.metrics.status",
    "Source": "graph.metrics.refresh", "Refresher": "graph.metrics.refresh",
    "Cached": "graph.metrics.refresh", "DEFAULT_MAX_SERIES": "graph.metrics.refresh",
    "SnapshotCollector": "graph.metrics.prometheus", "exposition": "graph.metrics.prometheus",
    "serve": "graph.metrics.prometheus", "metrics_data": "graph.metrics.otlp",
    "otlp_json": "graph.metrics.otlp", "send": "graph.metrics.otlp",
}
__all__ = sorted(_FACE)


def __getattr__(name: str):
    """Load a public name from its module on first use (pyarrow, prometheus_client and
    OpenTelemetry only when needed)."""
    if name in _FACE:
        return getattr(importlib.import_module(_FACE[name]), name)
    raise AttributeError(f"module 'graph.metrics' has no attribute {name!r}")
