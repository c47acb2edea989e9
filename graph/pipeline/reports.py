"""Activity reports and trace-route messages on Spark: classified on the executors, then routes.

    raw messages ──classify (one Arrow pass)──▶ operations + rejects
    operations ──group by original MsgId, the same ordering code as `mqroute show`──▶ routes + hops
"""

from __future__ import annotations

from collections.abc import Iterator

from graph.pipeline.classify import classify, operations, rejects
from graph.pipeline.rows import (
    HOP_COLUMNS,
    MD_COLUMNS,
    REJECT_COLUMNS,
    ROUTE_COLUMNS,
    ROUTE_INPUT,
    ROUTES_READ,
    route_failure,
    route_values,
    routes_of_columns,
)
from graph.pipeline.schema import arrow_schema, ddl, row_arrays


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
    whose rows straddle two Arrow batches is carried over to the next one. Batches are read
    a column at a time and the routes written so (no dict per row either way). With the
    compiled path (graph.pipeline.compiled), messages whose activities are one chain get
    their routes straight from the columns, the others through `routes_of_columns`.
    """
    from graph.pipeline import compiled

    if compiled.available():
        yield from _compiled_routes(batches)
        return
    schema = _route_arrow_schema()
    carry: dict[str, list] = {}
    for batch in batches:
        columns = {n: batch.column(n).to_pylist() for n in ROUTES_READ}
        columns.update(dict.fromkeys(MD_COLUMNS, [None] * batch.num_rows))
        if carry:
            columns = {n: carry[n] + columns[n] for n in ROUTE_INPUT}
        keys = columns["correl_id"]
        if not keys:
            continue
        last = keys[-1]
        cut = len(keys)
        while cut and keys[cut - 1] == last:
            cut -= 1
        carry = {n: v[cut:] for n, v in columns.items()}
        if cut:
            yield _route_batch({n: v[:cut] for n, v in columns.items()}, schema)
    if carry:
        yield _route_batch(carry, schema)


def _compiled_routes(batches: Iterator) -> Iterator:
    """routes_of_batches on Arrow slices: each batch cut after its last whole message."""
    import pyarrow as pa
    import pyarrow.compute as pc

    schema = _route_arrow_schema()
    carry = None
    for batch in batches:
        batch = pa.RecordBatch.from_arrays([batch.column(n) for n in ROUTES_READ],
                                           names=list(ROUTES_READ))
        if carry is not None:
            batch = pa.Table.from_batches([carry, batch]).combine_chunks().to_batches()[0]
        if not batch.num_rows:
            continue
        keys = batch.column("correl_id")
        last = keys[-1]
        same = pc.is_null(keys) if not last.is_valid else pc.fill_null(
            pc.equal(keys, last), False)
        other = pc.indices_nonzero(pc.invert(same))
        cut = other[-1].as_py() + 1 if len(other) else 0
        carry = batch.slice(cut)
        if cut:
            yield _compiled_route_batch(batch.slice(0, cut), schema)
    if carry is not None and carry.num_rows:
        yield _compiled_route_batch(carry, schema)


def _compiled_route_batch(batch, schema):
    """The ROUTE_OUTPUT batch of one batch of whole messages: the compiled chains, and the
    other messages' routes (or failures) by `_route_batch`, in the order of the messages."""
    import pyarrow as pa

    from graph.pipeline import compiled

    routes, hops, offsets, firsts, rest = compiled.route_arrays(batch)
    hop_type = schema.field("hop_list").type
    hop_structs = pa.StructArray.from_arrays(hops, fields=list(hop_type.value_type))
    arrays = [*routes, pa.ListArray.from_arrays(offsets, hop_structs, type=hop_type),
              *(pa.nulls(len(firsts), f.type) for f in schema
                if f.name.startswith("failed_"))]
    made = pa.RecordBatch.from_arrays(arrays, schema=schema)
    if not len(rest):
        return made
    bounds = rest.to_pylist()
    ranges = list(zip(bounds[0::2], bounds[1::2], strict=True))
    columns = {n: [] for n in ROUTE_INPUT}
    for n in ROUTES_READ:
        values = batch.column(n).to_pylist()
        columns[n] = [v for lo, hi in ranges for v in values[lo:hi]]
    for n in MD_COLUMNS:
        columns[n] = [None] * len(columns["correl_id"])
    others = _route_batch(columns, schema)
    order = pa.concat_arrays([firsts, pa.array([lo for lo, _ in ranges], pa.int32())])
    both = pa.Table.from_batches([made, others]).combine_chunks()
    return both.take(order.to_numpy().argsort(kind="stable")).to_batches()[0]


def _route_batch(columns: dict[str, list], schema):
    """The ROUTE_OUTPUT batch of the messages in operation columns grouped by correl_id."""
    import pyarrow as pa

    rows: list[tuple] = []
    hops: list[tuple] = []
    offsets = [0]
    no_route = (None,) * (len(ROUTE_COLUMNS) - 1)
    no_failure = (None,) * len(FAILED_COLUMNS)
    for first, outcome in routes_of_columns(columns, mds=False):
        if isinstance(outcome, Exception):
            failure = route_failure(columns, first, outcome)
            rows.append((columns["correl_id"][first], *no_route,
                         *(failure[n] for n, _ in REJECT_COLUMNS)))
        else:
            route, route_hops = route_values(outcome)
            hops += route_hops
            rows.append(route + no_failure)
        offsets.append(len(hops))
    arrays = row_arrays([f for f in schema if f.name != "hop_list"], rows)
    hop_type = schema.field("hop_list").type.value_type
    hop_structs = pa.StructArray.from_arrays(row_arrays(list(hop_type), hops),
                                             fields=list(hop_type))
    arrays.insert(len(ROUTE_COLUMNS), pa.ListArray.from_arrays(
        pa.array(offsets, pa.int32()), hop_structs, type=schema.field("hop_list").type))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


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

    Rows (the columns a route is made of, ROUTES_READ) are shuffled by original MsgId and
    sorted within each partition, so one Python call orders every message of a partition
    (a per-group call costs ~10 ms each).
    """
    from pyspark.sql import functions as F

    grouped = ops.select(*ROUTES_READ).repartition("correl_id").sortWithinPartitions("correl_id")
    with_hops = grouped.mapInArrow(routes_of_batches, ddl(ROUTE_OUTPUT))
    with_hops = with_hops.persist()  # routes and hops both come from it: build routes once
    failed = F.col("failed_error").isNotNull()
    routes = with_hops.filter(~failed).drop("hop_list", *(n for n, _ in FAILED_COLUMNS))
    hops = with_hops.filter(~failed).select(F.explode("hop_list").alias("h")).select("h.*")
    failures = with_hops.filter(failed).select(
        *(F.col(f"failed_{n}").alias(n) for n, _ in REJECT_COLUMNS))
    return routes, hops, failures

