"""Application activity trace in the analyze job: calls/ and journeys/ Parquet tables.

    raw messages ──parse (Arrow; the parser of `mqroute follow`)──▶ calls (one row per MQI call)
    calls ──partition by journey key (the original MsgId), `reconstruct` per partition──▶
    journeys ──replies linked by a join──▶ journeys/

Every call of one original message carries the same key (application and MCA puts their
MsgId, a sending MCA's get its XmitqMsgId, a consumer's get its MsgId), so one partition
holds whole journeys and `traceroute.journeys.reconstruct` runs on it unchanged. Replies
link journeys of different keys: a join applies the rule `reconstruct` applies. `run_local`
(`graph.pipeline.journeylocal`) computes the same tables in one process, with the same row
functions.
"""

from __future__ import annotations

from collections.abc import Iterator

from graph.pipeline.schema import arrow_schema, ddl
from traceroute.journeys.rows import (
    CALL_COLUMNS,
    JOURNEY_COLUMNS,
    call_rows,
    journeys_of_columns,
)

#: The journeys/ table's columns (JOURNEY_COLUMNS without the reply-linking helpers).
TABLE_COLUMNS = tuple(c for c in JOURNEY_COLUMNS if c[0] not in (
    "origin_conn", "origin_correl_id", "origin_msg_type", "consumer_conn"))


def rows_of_message(md_bytes: bytes | None, data: bytes, source: str, position: int
                    ) -> list[dict] | None:
    """The call rows of one raw message; None when it is not activity trace (or unreadable:
    the reports stage names it among the rejects)."""
    from pcf.errors import PCFError
    from pcf.mqmd import unpack
    from traceroute.journeys.parse import NotActivityTrace, parse_activity_trace

    try:
        md = unpack(md_bytes) if md_bytes is not None else None
        trace = parse_activity_trace(md, data, source=source, line=position)
    except (NotActivityTrace, PCFError):
        return None
    return call_rows(trace, source=source, position=position)


def call_batches(batches: Iterator) -> Iterator:
    """mapInArrow body: raw message batches -> call rows."""
    import pyarrow as pa

    schema = arrow_schema(CALL_COLUMNS)
    for batch in batches:
        out: list[dict] = []
        for row in batch.to_pylist():
            if row["error"] is None and row["data"]:
                out.extend(rows_of_message(row["md"], row["data"], row["source"],
                                           row["position"]) or ())
        yield pa.RecordBatch.from_pylist(out, schema=schema)


def journey_batches(batches: Iterator) -> Iterator:
    """mapInArrow body: one partition's call rows (whole journey keys) -> journey rows."""
    import pyarrow as pa

    parts = list(batches)
    cols = (pa.Table.from_batches(parts).to_pydict() if parts
            else {name: [] for name, _ in CALL_COLUMNS})
    yield pa.RecordBatch.from_pylist(journeys_of_columns(cols),
                                     schema=arrow_schema(JOURNEY_COLUMNS))


def decode_calls(raw):
    """The calls DataFrame (CALL_COLUMNS) of a raw-message DataFrame."""
    return raw.mapInArrow(call_batches, ddl(CALL_COLUMNS))


def build_journeys(calls, partitions: int | None = None):
    """The journeys DataFrame (TABLE_COLUMNS) of a calls DataFrame."""
    from pyspark.sql import functions as F

    keyed = calls.filter(F.col("journey_key").isNotNull())
    keyed = (keyed.repartition(partitions, "journey_key") if partitions
             else keyed.repartition("journey_key"))
    journeys = keyed.mapInArrow(journey_batches, ddl(JOURNEY_COLUMNS))
    requests = journeys.select(F.col("msg_id").alias("request_id"),
                               F.col("verdict").alias("request_verdict"),
                               F.col("consumer_conn").alias("request_consumer")
                               ).dropDuplicates(["request_id"])
    linked = journeys.join(requests, F.col("origin_correl_id") == F.col("request_id"), "left")
    is_reply = F.col("request_id").isNotNull() & (F.col("request_id") != F.col("msg_id")) & (
        (F.col("origin_msg_type") == 2)
        | ((F.col("request_verdict") == "consumed")
           & (F.col("request_consumer") == F.col("origin_conn"))))
    linked = linked.withColumn("reply_to", F.when(is_reply, F.col("origin_correl_id"))
                               .otherwise(F.col("reply_to")))
    return linked.select(*[name for name, _ in TABLE_COLUMNS])


def write_tables(raw, out: str) -> tuple[dict[str, int], object]:
    """Write calls/ and journeys/ under `out`; (verdict counts, the (source, position) pairs
    of activity-trace messages, for the reports stage's rejects to leave out)."""
    calls = decode_calls(raw).persist()
    calls.write.mode("overwrite").parquet(f"{out}/calls")
    journeys = build_journeys(calls).persist()
    journeys.write.mode("overwrite").partitionBy("verdict").parquet(f"{out}/journeys")
    verdicts = {r["verdict"]: r["count"]
                for r in journeys.groupBy("verdict").count().collect()}
    journeys.unpersist()
    positions = calls.select("source", "position").distinct()
    return verdicts, positions
