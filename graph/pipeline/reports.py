"""Activity reports and trace-route messages on Spark: classified on the executors, then routes.

    raw messages ──classify (one Arrow pass)──▶ operations + rejects
    operations ──group by original MsgId, the same ordering code as `mqroute show`──▶ routes + hops
"""

from __future__ import annotations

from collections.abc import Iterator

from graph.pipeline.classify import classify, operations, rejects
from graph.pipeline.rows import (
    HOP_COLUMNS,
    REJECT_COLUMNS,
    ROUTE_COLUMNS,
    hop_rows,
    route_failure,
    route_row,
    routes_or_failures,
)
from graph.pipeline.schema import arrow_schema, ddl


def decode(raw):
    """(operations, rejects) DataFrames: the reports' view of one `classify` pass (persisted).

    Statistics, events and activity-trace messages are neither operations nor rejects.
    """
    classified = classify(raw)
    return operations(classified), rejects(classified)


#: A message whose route could not be built has only these set (then a `rejects` row).
FAILED_COLUMNS = tuple((f"failed_{n}", k) for n, k in REJECT_COLUMNS)
ROUTE_OUTPUT = (*ROUTE_COLUMNS, ("hop_list", "array<struct<" + ", ".join(
    f"{n}: {k}" for n, k in HOP_COLUMNS) + ">>"), *FAILED_COLUMNS)


def routes_of_batches(batches: Iterator) -> Iterator:
    """mapInArrow body over rows sorted by correl_id: each message's route (with its hops).

    One Python call serves a whole partition, however many messages it holds; a message
    whose rows straddle two Arrow batches is carried over to the next one.
    """
    import pyarrow as pa

    schema = _route_arrow_schema()
    carry: list[dict] = []
    for batch in batches:
        rows = carry + batch.to_pylist()
        if not rows:
            continue
        last = rows[-1]["correl_id"]
        cut = len(rows)
        while cut and rows[cut - 1]["correl_id"] == last:
            cut -= 1
        done, carry = rows[:cut], rows[cut:]
        if done:
            yield pa.RecordBatch.from_pylist(_route_rows(done), schema=schema)
    if carry:
        yield pa.RecordBatch.from_pylist(_route_rows(carry), schema=schema)


def _route_rows(rows: list[dict]) -> list[dict]:
    out = []
    for first, outcome in routes_or_failures(rows):
        if isinstance(outcome, Exception):
            failure = route_failure(first, outcome)
            out.append({"correl_id": first["correl_id"], "hop_list": [],
                        **{f"failed_{k}": v for k, v in failure.items()}})
        else:
            hops = list(hop_rows(outcome))
            out.append({**route_row(outcome, hops), "hop_list": hops})
    return out


def _route_arrow_schema():
    import pyarrow as pa

    base = arrow_schema(ROUTE_COLUMNS)
    hop = pa.struct(list(arrow_schema(HOP_COLUMNS)))
    schema = base.append(pa.field("hop_list", pa.list_(hop)))
    for field in arrow_schema(FAILED_COLUMNS):
        schema = schema.append(field)
    return schema


def build_routes(ops):
    """(routes, hops) DataFrames: the same ordering code as single-process, per message."""
    routes, hops, _ = build_routes_with_failures(ops)
    return routes, hops


def build_routes_with_failures(ops):
    """(routes, hops, failures): failures are `rejects` rows of messages without a route.

    Rows are shuffled by original MsgId and sorted within each partition, so one Python
    call orders every message of a partition (a per-group call costs ~10 ms each).
    """
    from pyspark.sql import functions as F

    grouped = ops.repartition("correl_id").sortWithinPartitions("correl_id")
    with_hops = grouped.mapInArrow(routes_of_batches, ddl(ROUTE_OUTPUT))
    with_hops = with_hops.persist()  # routes and hops both come from it: build routes once
    failed = F.col("failed_error").isNotNull()
    routes = with_hops.filter(~failed).drop("hop_list", *(n for n, _ in FAILED_COLUMNS))
    hops = with_hops.filter(~failed).select(F.explode("hop_list").alias("h")).select("h.*")
    failures = with_hops.filter(failed).select(
        *(F.col(f"failed_{n}").alias(n) for n, _ in REJECT_COLUMNS))
    return routes, hops, failures


def route_counts(routes, failures) -> tuple[dict[str, int], int]:
    """(routes by verdict, failures) of build_routes_with_failures' frames, in one action."""
    from pyspark.sql import functions as F

    failed = "\0failed"  # no verdict is spelled so
    both = routes.select("verdict").unionByName(
        failures.select(F.lit(failed).alias("verdict")))
    got = {r["verdict"]: r["count"] for r in both.groupBy("verdict").count().collect()}
    return {v: n for v, n in got.items() if v != failed}, got.get(failed, 0)
