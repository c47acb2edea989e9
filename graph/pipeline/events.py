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
#: route_events/: a route, and an event that explains where it stopped.
ROUTE_EVENT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("correl_id", "string"), ("verdict", "string"), ("last_queue_manager", "string"),
    ("last_queue", "string"), ("last_channel", "string"), ("last_time", "string"),
    ("category", "string"), ("reason", "int"), ("reason_name", "string"),
    ("object", "string"), ("channel", "string"), ("time", "string"))
_ROUTE_PART = ("correl_id", "verdict", "last_queue_manager", "last_queue", "last_channel",
               "last_time")
_EVENT_PART = ("category", "reason", "reason_name", "object", "channel", "time")


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


def facts_of_row(row) -> object:
    """The rule's facts (traceroute.events.explain.EventFacts) of an events/ row."""
    from datetime import UTC, datetime

    from traceroute.events.explain import EventFacts

    stamp = row.get("time")
    try:
        time = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC) \
            if stamp else None
    except ValueError:
        time = None
    return EventFacts(row.get("queue_manager") or "", int(row.get("reason") or 0),
                      row.get("object") or None, row.get("channel") or None,
                      row.get("xmit_queue") or None, time)


def _learn_xmitqs(events: list[dict]) -> list[dict]:
    """Events whose transmission queue is blank take the one other events of the same
    channel name (Channel Started / Stopped name it): a Channel Stopped By User need not."""
    known: dict[tuple, str] = {}
    for e in events:
        if e.get("channel") and e.get("xmit_queue"):
            known.setdefault((e.get("queue_manager"), e["channel"]), e["xmit_queue"])
    return [e if e.get("xmit_queue") or not e.get("channel") else
            {**e, "xmit_queue": known.get((e.get("queue_manager"), e["channel"]))}
            for e in events]


def explained_rows(route: dict, events: list[dict], *, window_seconds: int = 3600
                   ) -> list[dict]:
    """The route_events/ rows of one route: the rule of traceroute.events.explain
    (`explain_facts`, as `show --events` applies it) over events/ rows of its queue manager
    (in (source, position) order, transmission queues learned)."""
    from datetime import timedelta

    from traceroute.events.explain import explain_facts, place_of_route_row

    place = place_of_route_row(route)
    if not place.stop or not events:
        return []
    found = explain_facts(place, [facts_of_row(e) for e in events],
                          window=timedelta(seconds=window_seconds))
    head = {k: route.get(k) for k in _ROUTE_PART}
    return [{**head, **{k: events[i].get(k) for k in _EVENT_PART}} for _, i in found]


def route_event_rows(routes, events, *, window_seconds: int = 3600) -> list[dict]:
    """route_events/ in one process: every route row with the event rows that explain it."""
    ordered = sorted(events, key=lambda e: (e.get("source") or "", e.get("position") or 0))
    by_qmgr: dict[str, list[dict]] = {}
    for e in _learn_xmitqs(ordered):
        by_qmgr.setdefault(e.get("queue_manager") or "", []).append(e)
    out: list[dict] = []
    for r in routes:
        out += explained_rows(r, by_qmgr.get(r.get("last_queue_manager") or "", []),
                              window_seconds=window_seconds)
    return out


def route_events(routes, events, *, window_seconds: int = 3600):
    """Routes joined to the events that explain where they stopped, on Spark: the events a
    route could be explained by (same queue manager; its queue, transmission queue or
    channel named; not after its last activity + 5 minutes; non-channel events not more
    than `window_seconds` before it) meet it in one group, where `explained_rows` decides
    with the same rule as `show --events` and the single-process analyze."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    from graph.pipeline.schema import ddl
    from traceroute.events.explain import CHANNEL_DOWN, CHANNEL_UP

    # a Channel Stopped By User event need not name the transmission queue: take it from
    # the same channel's other events (Channel Started / Stopped name it)
    same_channel = Window.partitionBy("queue_manager", "channel").orderBy("source",
                                                                          "position")
    events = events.withColumn("xmit_queue", F.coalesce("xmit_queue", F.first(
        "xmit_queue", ignorenulls=True).over(same_channel.rowsBetween(
            Window.unboundedPreceding, Window.unboundedFollowing))))
    stops = ("waiting_on_xmitq", "expired", "dead_lettered", "delivered")
    r = routes.filter(F.col("verdict").isin(*stops)).select(
        *_ROUTE_PART, F.unix_timestamp(F.try_to_timestamp(  # a damaged time: no epoch
            F.substring("last_time", 1, 19), F.lit("yyyy-MM-dd HH:mm:ss"))
        ).alias("route_epoch"))
    e = events.select("queue_manager", "object", "channel", "xmit_queue", "reason",
                      "reason_name", "category", "epoch", "time", "source", "position")
    channel_event = F.col("reason").isin(*(CHANNEL_DOWN | CHANNEL_UP))
    cond = ((r.last_queue_manager == e.queue_manager)
            & ((r.last_queue == e.object) | (r.last_queue == e.xmit_queue)
               | (r.last_channel == e.channel))
            & (r.route_epoch.isNull() | e.epoch.isNull()
               | ((e.epoch <= r.route_epoch + 300)
                  & (channel_event | (e.epoch >= r.route_epoch - window_seconds)))))
    joined = r.join(e, cond, "inner").drop("route_epoch")

    def explain_group(frame):
        import pandas as pd

        frame = frame.sort_values(["source", "position"], kind="stable")
        rows = frame.astype(object).where(frame.notna(), None).to_dict("records")
        got = explained_rows(rows[0], rows, window_seconds=window_seconds)
        return pd.DataFrame(got, columns=[n for n, _ in ROUTE_EVENT_COLUMNS])

    return joined.groupBy("correl_id").applyInPandas(explain_group, ddl(ROUTE_EVENT_COLUMNS))


def write_tables(events, out: str, routes=None) -> int:
    """Write events/ (partitioned by category) and, given routes, route_events/; the
    number of events."""
    rows = events.count()
    write_partitioned(events, os.path.join(out, "events"), "category", rows)
    if routes is not None:
        route_events(routes, events).write.mode("overwrite").parquet(
            os.path.join(out, "route_events"))
    return rows
