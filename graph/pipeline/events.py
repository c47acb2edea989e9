"""MQ event messages in the analyze job: the `events/` table, and events next to routes.

    raw messages ──decode (Arrow; the same code as `mqroute events --json`)──▶ one row per
    event ──▶ events/ (partitioned by category)
    routes ⋈ events on queue manager + object (transmission queue / channel / queue) and
    time ──▶ route_events/: which events explain where a route stopped

Each event row carries its category, type and reason (numbers and amqsevt's names), queue
manager, the object it is about, channel and transmission queue when named, its time (ISO
8601 UTC) and epoch, CorrelId, before/after state of a change event, where it came from, and
`data`: the amqsevt JSON of its eventData. Messages that are not events are left to the
other stages.
"""

from __future__ import annotations

import json
import os

from graph.pipeline.schema import write_partitioned

EVENT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("category", "string"), ("event_type", "int"), ("event_type_name", "string"),
    ("reason", "int"), ("reason_name", "string"), ("queue_manager", "string"),
    ("object", "string"), ("channel", "string"), ("xmit_queue", "string"),
    ("time", "string"), ("epoch", "long"), ("correl_id", "string"),
    ("object_state", "string"), ("source", "string"), ("position", "long"),
    ("data", "string"),
)
#: route verdict -> the event reasons that explain it (see traceroute.events.explain).
EXPLAINS = {
    "waiting_on_xmitq": (2279, 2283, 2296, 2284, 2393, 2053, 2224),
    "expired": (2279, 2283, 2296, 2284, 2393),  # expired waiting behind a stopped channel
    "dead_lettered": (2053, 2051, 2085, 2196, 2087, 2035),
    "delivered": (2226, 2224, 2053, 2016),
}


def event_rows(md, data: bytes, *, source: str = "", position: int = 0) -> list[dict]:
    """The events/ row of one message; [] when it is no event."""
    from pcf import mqc
    from traceroute.display.amqsevt import event_type_name, reason_name, to_json
    from traceroute.events import NotEventData, decode_event

    try:
        event = decode_event(data, md)
    except NotEventData:
        return []
    channel = event.get(mqc.MQCACH_CHANNEL_NAME)
    xmitq = event.get(mqc.MQCACH_XMIT_Q_NAME) or event.get(mqc.MQCA_XMIT_Q_NAME)
    return [{
        "category": event.category, "event_type": event.type,
        "event_type_name": event_type_name(event.type), "reason": event.reason,
        "reason_name": reason_name(event.reason), "queue_manager": event.qmgr,
        "object": event.object_name or None,
        "channel": channel if isinstance(channel, str) else None,
        "xmit_queue": xmitq if isinstance(xmitq, str) and xmitq else None,
        "time": event.time.strftime("%Y-%m-%dT%H:%M:%SZ") if event.time else None,
        "epoch": event.epoch, "correl_id": event.correl_id.hex().upper()
        if event.correl_id else None, "object_state": event.object_state,
        "source": source, "position": position,
        "data": json.dumps(to_json(event)["eventData"])}]


def route_events(routes, events, *, window_seconds: int = 3600):
    """Routes joined to the events that explain where they stopped: same queue manager,
    the route's last queue (or channel) named by the event, the event at most
    `window_seconds` before the route's last activity (channel events: any time before)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    # a Channel Stopped By User event need not name the transmission queue: take it from
    # the same channel's other events (Channel Started / Stopped name it)
    same_channel = Window.partitionBy("queue_manager", "channel")
    events = events.withColumn("xmit_queue", F.coalesce(
        "xmit_queue", F.first("xmit_queue", ignorenulls=True).over(same_channel)))
    explains = F.create_map(*[x for verdict, reasons in EXPLAINS.items()
                              for x in (F.lit(verdict), F.array(*map(F.lit, reasons)))])
    r = routes.select("correl_id", "verdict", "last_queue_manager", "last_queue",
                      "last_channel", "last_time",
                      F.unix_timestamp(F.try_to_timestamp(  # a damaged time: no epoch
                          F.substring("last_time", 1, 19), F.lit("yyyy-MM-dd HH:mm:ss"))
                      ).alias("route_epoch"))
    e = events.select("queue_manager", "object", "channel", "xmit_queue", "reason",
                      "reason_name", "category", "epoch", "time")
    channel_event = F.col("category") == "channel"
    cond = ((r.last_queue_manager == e.queue_manager)
            & ((r.last_queue == e.object) | (r.last_queue == e.xmit_queue)
               | (r.last_channel == e.channel))
            & F.array_contains(explains[r.verdict], e.reason)
            & (r.route_epoch.isNull() | e.epoch.isNull()
               | ((e.epoch <= r.route_epoch + 300)
                  & (channel_event | (e.epoch >= r.route_epoch - window_seconds)))))
    return r.join(e, cond, "inner").select(
        "correl_id", "verdict", "last_queue_manager", "last_queue", "last_channel",
        "last_time", "category", "reason", "reason_name", "object", "channel", "time")


def write_tables(events, out: str, routes=None) -> int:
    """Write events/ (partitioned by category) and, given routes, route_events/; the
    number of events."""
    rows = events.count()
    write_partitioned(events, os.path.join(out, "events"), "category", rows)
    if routes is not None:
        route_events(routes, events).write.mode("overwrite").parquet(
            os.path.join(out, "route_events"))
    return rows
