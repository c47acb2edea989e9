"""The colours every picture and the report share: verdicts, object kinds, causes."""

from __future__ import annotations

VERDICT_COLOURS = {
    "delivered": "#2e7d32", "discarded_at_target": "#2e7d32",
    "waiting_on_xmitq": "#ef6c00", "incomplete": "#757575",
    "dead_lettered": "#c62828", "max_activities": "#6a1b9a", "not_forwarded": "#ad1457",
    "expired": "#8d6e63", "discarded": "#d84315", "loop": "#283593",
}
KIND_FILL = {"queue_manager": "#f5f5f5", "queue": "#fff59d", "xmitq": "#ffcc80",
             "channel": "#e1bee7", "application": "#c8e6c9", "discard": "#ef9a9a",
             "unknown": "#eeeeee", "topic": "#b3e5fc"}


def verdict_colour(verdict: str) -> str:
    """The colour of a verdict or cause (grey for one we do not know)."""
    return VERDICT_COLOURS.get(verdict, "#546e7a")
