"""Statistics and accounting records -> metric values (pure).

Counts are summed over the intervals read, as mq-metric-samples sums the statistics
messages it finds at one collection; depths keep their lowest and highest, high-water marks
their highest, low-water marks their lowest; the average time on a queue is weighted by the
messages got. Queue statistics give `ibmmq_queue_*`, MQI statistics `ibmmq_qmgr_*`, channel
statistics and queue accounting mqroute's own families.
"""

from __future__ import annotations

from collections.abc import Iterable

from graph.metrics.catalog import STAT_COUNTS_QMGR, STAT_COUNTS_QUEUE, STAT_WATERS, count_name
from graph.metrics.labels import constant_label
from graph.metrics.snapshot import Snapshot, key_of, number
from traceroute.stats import (
    ChannelStatistics,
    MQIStatistics,
    QueueAccounting,
    QueueStatistics,
    StatsRecord,
)


def elements(value: object) -> list[float] | None:
    """The numbers of a counter as a list (a scalar is one element); None when absent."""
    if value is None:
        return None
    items = value if isinstance(value, list) else [value]
    out = [number(v) for v in items]
    return [v for v in out if v is not None]


def by_index(value: object, names: tuple[str, ...], *, total: bool = True
             ) -> list[tuple[str, float]]:
    """(name, number) of a counter: element i under names[i] and, with `total`, the sum of
    all elements under the last name (a scalar where a list is expected gives the total
    only); a single name takes the sum."""
    items = elements(value)
    if items is None:
        return []
    if len(names) == 1:
        return [(names[0], sum(items))]
    if not isinstance(value, list):
        return [(names[-1], sum(items))] if total else []
    out = list(zip(names[:-1] if total else names, items, strict=False))
    if total:
        out.append((names[-1], sum(items)))
    return out


def _counts(snap: Snapshot, series: str, record: StatsRecord, table, labels: dict) -> None:
    key = key_of(f"ibmmq_{series}_mqput_message_count", labels)  # every count shares them
    for attr, names in table:
        value = getattr(record, attr)
        if value is None:
            continue
        for name, number_ in by_index(value, names):
            snap.put_at(count_name(series, name), key, number_, "sum")


def _queue_labels(record: StatsRecord) -> dict:
    return {"qmgr": record.queue_manager, "queue": record.object_name}


def _avg_time(record: QueueStatistics, weights: dict, key: tuple) -> None:
    times = elements(record.avg_time_on_q) or []
    gets = elements(record.get_count) or []
    total, n = weights.get(key, (0.0, 0.0))
    for i, t in enumerate(times):
        w = gets[i] if i < len(gets) else 0.0
        total += t * w
        n += w
    weights[key] = (total, n)


def record_key(r: StatsRecord) -> tuple:
    """What identifies a record: a queue manager writes one per kind, interval, object and
    (for accounting) connection and sequence number, so the same key twice is the same
    message read twice (overlapping dumps), not more work."""
    return (r.kind, r.queue_manager, r.interval_start, r.interval_end, r.object_name,
            getattr(r, "connection_id", None), str(getattr(r, "seq_number", None)),
            getattr(r, "application_name", None))


def statistics_snapshot(records: Iterable[StatsRecord]) -> Snapshot:
    """The metric values of accounting and statistics records (a record read twice counts
    once)."""
    snap = Snapshot()
    weights: dict[tuple, tuple[float, float]] = {}
    seen: set[tuple] = set()
    for r in records:
        key = record_key(r)
        if key in seen:
            continue
        seen.add(key)
        if isinstance(r, QueueStatistics) and r.object_name:
            labels = _queue_labels(r)
            _counts(snap, "queue", r, STAT_COUNTS_QUEUE, labels)
            snap.put("ibmmq_queue_min_depth", labels, r.q_min_depth, "min")
            snap.put("ibmmq_queue_max_depth", labels, r.q_max_depth, "max")
            _avg_time(r, weights, (r.queue_manager, r.object_name))
        elif isinstance(r, MQIStatistics):
            labels = {"qmgr": r.queue_manager}
            _counts(snap, "qmgr", r, STAT_COUNTS_QMGR, labels)
            snap.put("ibmmq_qmgr_concurrent_connections_high_water_mark", labels, r.conns_max,
                     "max")
            for attr, names, how in STAT_WATERS:
                for name, value in by_index(getattr(r, attr), names, total=False):
                    snap.put(f"ibmmq_qmgr_{name}", labels, value, how)
        elif isinstance(r, ChannelStatistics) and r.object_name:
            labels = {"qmgr": r.queue_manager, "channel": r.object_name,
                      "type": constant_label(r.channel_type, "MQCHT"), "rqmname": r.remote_qmgr}
            snap.put("mqroute_channel_statistics_messages", labels, r.msg_count, "sum")
            snap.put("mqroute_channel_statistics_bytes", labels, r.total_bytes, "sum")
            batches = [v for v in (number(r.full_batch_count), number(r.incmpl_batch_count))
                       if v is not None]
            if batches:
                snap.put("mqroute_channel_statistics_batches", labels, sum(batches), "sum")
            snap.put("mqroute_channel_statistics_put_retries", labels, r.put_retry_count,
                     "sum")
        elif isinstance(r, QueueAccounting) and r.object_name:
            labels = {**_queue_labels(r), "application": r.application_name}
            puts = (elements(r.put_count) or []) + (elements(r.put1_count) or [])
            if r.put_count is not None or r.put1_count is not None:
                snap.put("mqroute_queue_application_puts", labels, sum(puts), "sum")
            if r.get_count is not None:
                snap.put("mqroute_queue_application_gets", labels,
                         sum(elements(r.get_count) or []), "sum")
    for (qmgr, queue), (total, n) in weights.items():
        if n:
            snap.put("ibmmq_queue_average_queue_time_seconds", {"qmgr": qmgr, "queue": queue},
                     total / n / 1e6)
    return snap
