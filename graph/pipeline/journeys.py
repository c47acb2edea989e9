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

from graph.pipeline.schema import arrow_schema, ddl, dict_batch, write_partitioned
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

    schema = arrow_schema(CALL_COLUMNS)
    for batch in batches:
        out: list[dict] = []
        for row in batch.to_pylist():
            if row["error"] is None and row["data"]:
                out.extend(rows_of_message(row["md"], row["data"], row["source"],
                                           row["position"]) or ())
        yield dict_batch(out, schema)


#: Call columns the reconstruction does not read (`traces_of_columns`), left out of the
#: shuffle by journey key and of the conversion to Python lists.
UNREAD_COLUMNS = ("time", "operation", "position")

#: Calls reconstructed at a time in a Python worker: the calls of a partition arrive sorted by
#: journey key and are cut at a key boundary every this many, so a worker's memory is bounded
#: whatever the partition's size (10M calls on 8 partitions would hold 1.25M calls each).
CHUNK_CALLS = 100_000


def journey_record_batch(rows: list[dict]):
    """Journey rows (dicts of JOURNEY_COLUMNS) as one Arrow batch, built column by column."""

    return dict_batch(rows, arrow_schema(JOURNEY_COLUMNS))


def _journey_batch(table):
    """The journey rows (JOURNEY_COLUMNS) of a table of call rows holding whole journey keys."""
    return journey_record_batch(journeys_of_columns(table.to_pydict()))


def journey_batches(batches: Iterator, chunk: int = CHUNK_CALLS) -> Iterator:
    """mapInArrow body: one partition's call rows, sorted by journey key -> journey rows,
    reconstructed `chunk` calls at a time (cut where the key changes: a key is never split)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    held: list = []
    count = 0
    for batch in batches:
        if not batch.num_rows:
            continue
        held.append(batch)
        count += batch.num_rows
        if count < chunk:
            continue
        table = pa.Table.from_batches(held)
        keys = table.column("journey_key")
        cut = pc.index(keys, keys[-1]).as_py()  # where the last key's run starts
        if cut <= 0:
            continue  # one key so far: keep it whole
        yield _journey_batch(table.slice(0, cut))
        rest = table.slice(cut)
        held, count = rest.to_batches(), rest.num_rows
    if held:
        yield _journey_batch(pa.Table.from_batches(held))


def decode_calls(raw):
    """The calls DataFrame (CALL_COLUMNS) of a raw-message DataFrame."""
    return raw.mapInArrow(call_batches, ddl(CALL_COLUMNS))


def build_journeys(calls, partitions: int | None = None):
    """The journeys DataFrame (TABLE_COLUMNS) of a calls DataFrame.

    Calls are hash-partitioned by journey key (`partitions`, default
    spark.sql.shuffle.partitions: an explicit number, so that adaptive execution does not
    merge them into fewer tasks than cores) and sorted by it within each partition, so that
    `journey_batches` reconstructs them in bounded chunks. Replies are then linked without
    evaluating the journeys twice (a self-join would run the Python reconstruction once per
    side): every journey row goes out once under its link key (the origin put's CorrelId, or
    its own MsgId when it has none) and once as a small request entry under its MsgId; one
    window per key hands each row the request entry whose MsgId is its CorrelId, if any, and
    the rule `link_reply_rows` applies decides."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    if partitions is None:
        partitions = int(calls.sparkSession.conf.get("spark.sql.shuffle.partitions"))
    keyed = (calls.select(*[n for n, _ in CALL_COLUMNS if n not in UNREAD_COLUMNS])
             .filter(F.col("journey_key").isNotNull())
             .repartition(partitions, "journey_key")
             .sortWithinPartitions("journey_key"))
    journeys = keyed.mapInArrow(journey_batches, ddl(JOURNEY_COLUMNS))
    row = F.struct(*[F.col(name) for name, _ in JOURNEY_COLUMNS])
    request = F.struct(F.col("verdict").alias("verdict"),
                       F.col("consumer_conn").alias("consumer"))
    no_row = F.lit(None).cast("struct<" + ",".join(f"`{n}`:{t}" for n, t in JOURNEY_COLUMNS)
                              + ">")
    no_request = F.lit(None).cast("struct<verdict:string,consumer:string>")
    entries = journeys.select(F.explode(F.array(
        F.struct(F.coalesce(F.col("origin_correl_id"), F.col("msg_id")).alias("link"),
                 row.alias("row"), no_request.alias("request")),
        F.struct(F.col("msg_id").alias("link"), no_row.alias("row"),
                 request.alias("request")))).alias("e")).select("e.*")
    found = F.first(F.col("request"), ignorenulls=True).over(Window.partitionBy("link"))
    linked = entries.withColumn("found", found).filter(F.col("row").isNotNull())
    r = F.col("row")
    is_reply = (r["origin_correl_id"].isNotNull() & F.col("found").isNotNull()
                & (r["origin_correl_id"] != r["msg_id"]) & (
                    (r["origin_msg_type"] == 2)
                    | ((F.col("found.verdict") == "consumed")
                       & (F.col("found.consumer") == r["origin_conn"]))))
    out = [F.when(is_reply, r["origin_correl_id"]).otherwise(r["reply_to"]).alias(n)
           if n == "reply_to" else r[n].alias(n) for n, _ in TABLE_COLUMNS]
    return linked.select(*out)


def write_tables(raw, out: str) -> dict[str, int]:
    """Write calls/ and journeys/ under `out` from activity-trace messages; journeys by
    verdict."""
    calls = decode_calls(raw).persist()  # written, then read by the journeys
    calls.write.mode("overwrite").parquet(f"{out}/calls")
    journeys = build_journeys(calls).persist()
    verdicts = {r["verdict"]: r["count"]
                for r in journeys.groupBy("verdict").count().collect()}
    write_partitioned(journeys, f"{out}/journeys", "verdict", sum(verdicts.values()))
    journeys.unpersist()
    calls.unpersist()
    return verdicts
