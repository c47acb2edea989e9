"""MQ events -> `mqroute_events_total{qmgr,reason}` (pure)."""

from __future__ import annotations

from collections.abc import Iterable

from graph.metrics.labels import reason_label
from graph.metrics.snapshot import Snapshot
from traceroute.events import Event


def events_snapshot(events: Iterable[Event]) -> Snapshot:
    """How many event messages each queue manager wrote, by reason."""
    snap = Snapshot()
    for e in events:
        snap.put("mqroute_events_total", {"qmgr": e.qmgr, "reason": reason_label(e.reason)},
                 1, "sum")
    return snap
