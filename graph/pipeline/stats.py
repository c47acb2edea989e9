"""Accounting and statistics messages in the analyze job: four Parquet tables.

    raw messages ──decode (Arrow; the same code as `mqroute stats`)──▶ one row per record
    (MQI record, or queue/channel group) ──▶ queue_stats/ channel_stats/ mqi_stats/ accounting/

Each row carries the record's queue manager, interval (ISO 8601 as written, no zone), object,
the headline figures as columns (P lists summed over persistence), the message's MsgSeqNumber
and whether it was the last of its sequence (so a split sequence can be checked), where it
came from, and `data`: the record's JSON object of amqsmon labels, as `mqroute stats --json`
prints it. Messages that are not accounting/statistics are left to the other stages.
"""

from __future__ import annotations

import json

COMMON = (("record_type", "string"), ("queue_manager", "string"),
          ("interval_start", "string"), ("interval_end", "string"), ("object", "string"),
          ("command_level", "long"), ("msg_seq_number", "long"),
          ("last_in_sequence", "boolean"), ("source", "string"), ("position", "long"),
          ("data", "string"))
MQI_FIGURES = (("put_count", "long"), ("put1_count", "long"), ("put_bytes", "long"),
               ("put_fail_count", "long"), ("get_count", "long"), ("get_bytes", "long"),
               ("get_fail_count", "long"), ("browse_count", "long"), ("browse_bytes", "long"))
QUEUE_FIGURES = (("q_type", "long"), ("q_definition_type", "long"), ("q_min_depth", "long"),
                 ("q_max_depth", "long"), ("avg_time_on_q", "long"),
                 ("avg_time_on_q_persistent", "long"), ("non_queued_msg_count", "long"),
                 ("expired_msg_count", "long"), ("purge_count", "long"))
CHANNEL_FIGURES = (("channel_type", "long"), ("remote_qmgr", "string"),
                   ("connection_name", "string"), ("msg_count", "long"),
                   ("total_bytes", "long"), ("net_time_min", "long"), ("net_time_avg", "long"),
                   ("net_time_max", "long"), ("exit_time_min", "long"),
                   ("exit_time_avg", "long"), ("exit_time_max", "long"),
                   ("full_batch_count", "long"), ("incmpl_batch_count", "long"),
                   ("average_batch_size", "long"), ("put_retry_count", "long"))
CONNECTION = (("connection_id", "string"), ("seq_number", "long"),
              ("application_name", "string"), ("application_pid", "long"),
              ("application_tid", "long"), ("user_id", "string"), ("conn_name", "string"),
              ("channel_name", "string"))
MQI_ONLY = (("conn_count", "long"), ("conns_max", "long"), ("commit_count", "long"),
            ("back_count", "long"))

#: table -> its columns.
TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "queue_stats": (*COMMON, *QUEUE_FIGURES, *MQI_FIGURES),
    "channel_stats": (*COMMON, *CHANNEL_FIGURES),
    "mqi_stats": (*COMMON, *MQI_ONLY, *MQI_FIGURES, ("expired_msg_count", "long"),
                  ("purge_count", "long")),
    "accounting": (*COMMON, *CONNECTION, *MQI_FIGURES, ("q_type", "long"),
                   ("q_definition_type", "long"), ("time_on_q_avg", "long")),
}
STATS_COLUMNS = (*dict.fromkeys(c for t in TABLES.values() for c in t), ("table", "string"))
TABLE_OF = {"QueueStatistics": "queue_stats", "ChannelStatistics": "channel_stats",
            "MQIStatistics": "mqi_stats", "MQIAccounting": "accounting",
            "QueueAccounting": "accounting"}


def _total(value: object) -> int | None:
    """A counter as one number: a P list summed over persistence."""
    if isinstance(value, list):
        return sum(v for v in value if isinstance(v, int))
    return value if isinstance(value, int) else None


def _weighted(avg: object, gets: object) -> int | None:
    """A [non-persistent, persistent] average as one, weighted by the gets of each."""
    if not isinstance(avg, list) or not isinstance(gets, list) or len(avg) != len(gets):
        return _total(avg) if isinstance(avg, int) else None
    n = sum(gets)
    return sum(a * g for a, g in zip(avg, gets, strict=True)) // n if n else 0


def _text(value: object) -> str | None:
    if isinstance(value, bytes):
        return value.hex()
    return value if isinstance(value, str) else None


def stats_rows(md, data: bytes, *, source: str = "", position: int = 0) -> list[dict]:
    """The table rows of one message; [] when it is not accounting/statistics."""
    from traceroute.display.amqsmon import record_to_json
    from traceroute.stats import NotStatistics, decode_stats, records

    try:
        message = decode_stats(md, data, source=source, line=position)
    except NotStatistics:
        return []
    out = []
    for r in records(message):
        obj = record_to_json(r)
        row: dict[str, object] = {
            "table": TABLE_OF[obj["record_type"]], "record_type": obj["record_type"],
            "queue_manager": obj["queue_manager"], "interval_start": obj["interval_start"],
            "interval_end": obj["interval_end"], "object": obj["object"],
            "command_level": _total(r.command_level),
            "msg_seq_number": message.header.msg_seq_number,
            "last_in_sequence": message.header.control == 1,
            "source": source, "position": position, "data": json.dumps(obj["data"])}
        for name, kind in STATS_COLUMNS:
            if name in row or name == "table" or not hasattr(r, name.replace(
                    "_persistent", "")):
                continue
            value = getattr(r, name.replace("_persistent", ""))
            if name == "avg_time_on_q":
                value = value[0] if isinstance(value, list) and value else value
            elif name == "avg_time_on_q_persistent":
                value = value[1] if isinstance(value, list) and len(value) > 1 else None
            elif name == "time_on_q_avg":
                value = _weighted(value, r.get_count)
            row[name] = _text(value) if kind == "string" else _total(value)
        out.append(row)
    return out


def write_tables(rows, out: str) -> dict[str, int]:
    """Write queue_stats/, channel_stats/, mqi_stats/, accounting/ from the rows of
    classify.stats_frame (persist them first: they are read once per table); rows per table."""
    from pyspark.sql import functions as F

    counts = {r["table"]: r["count"] for r in rows.groupBy("table").count().collect()}
    for table, columns in TABLES.items():
        (rows.filter(F.col("table") == table).select(*[name for name, _ in columns])
         .write.mode("overwrite").parquet(f"{out}/{table}"))
    return {t: counts.get(t, 0) for t in TABLES}
