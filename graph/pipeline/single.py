"""The analyze job in one process: every table the Spark job writes, for small inputs.

`mqroute analyze` of a few messages need not start a JVM: `run_single` reads the inputs with
the same readers (`inputs.dump_rows`, `read_raw`, Parquet through pyarrow), classifies each
message with the same pass (`classify.classify_batches`), builds routes with the same body
(`reports.routes_of_batches`), journeys with the same rows (`journeylocal.local_tables`), joins
events to routes by the one rule of `show --events` and the Spark job
(`events.route_event_rows`: traceroute.events.explain.explain_facts), and writes
operations/, rejects/, routes/, hops/, the statistics tables, events/, route_events/,
calls/ and journeys/ with pyarrow, partitioned as Spark partitions them, through a staging
folder swapped in at the end (`_MQROUTE_ANALYZE` marker, never replacing a folder analyze did
not write).

Reports stream: Parquet inputs are read as Arrow batches (no Python object per message), the
operation rows are spilled by hash(correl_id) into buckets (Arrow IPC, lz4), and each bucket
(whole messages, as a Spark partition) is written to operations/ and made into routes and
hops, so memory is bounded by a bucket (`BUCKET_ROWS`) whatever the number of reports. The
statistics, events and activity-trace rows are held in memory (`count_messages` tells
whether an input is small).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from graph.pipeline import storage
from graph.pipeline.classify import (
    CLASSIFIED_COLUMNS,
    EVENT,
    OP,
    REJECT,
    STATS,
    TRACE,
    classify_batches,
)
from graph.pipeline.commit import OutputError, staged_local
from graph.pipeline.events import EVENT_COLUMNS, ROUTE_EVENT_COLUMNS, route_event_rows
from graph.pipeline.inputs import (
    DEFAULT_SPLIT_BYTES,
    Listing,
    dump_rows,
    parquet_batches,
    parquet_groups,
    raw_row_batches,
    read_raw,
)
from graph.pipeline.journeys import CALL_COLUMNS, TABLE_COLUMNS
from graph.pipeline.journeyspill import Spills
from graph.pipeline.reports import ROUTES_READ, _route_arrow_schema, routes_of_batches
from graph.pipeline.rows import (
    HOP_COLUMNS,
    OPERATION_COLUMNS,
    OPERATION_NAMES,
    REJECT_COLUMNS,
    ROUTE_COLUMNS,
)
from graph.pipeline.schema import arrow_schema, dict_batch
from graph.pipeline.smf import write_local as write_smf_local
from graph.pipeline.stats import TABLES as STATS_TABLES
from graph.pipeline.summary import Summary

#: Messages at most that `mqroute analyze` runs in one process when no master is given.
SMALL_INPUT = 50_000
#: Operation rows the routes body takes at a time.
ROUTE_BATCH_ROWS = 65_536
#: Operation rows per spill bucket aimed at (about 150 MB of Arrow columns each).
BUCKET_ROWS = 500_000
#: Operation rows gathered before they are split into the buckets (about 80 MB): split batch
#: by batch, K buckets got K-times smaller pieces, and each piece costs its own IPC batch,
#: compression call, chunk and Parquet row group downstream (at 10M reports, 40 buckets of
#: ~50-row pieces: 3.5x the CPU per report of 1M's 4 buckets).
SPLIT_ROWS = 262_144
#: Operation rows taken as one report when the bucket count is estimated, and bytes of
#: dump or raw file taken as one report.
ROWS_PER_REPORT, BYTES_PER_REPORT = 2, 2_000
_DUMP_MESSAGE = b"\nA VER "


def count_messages(listing: Listing, limit: int = SMALL_INPUT) -> int:
    """How many messages the listed inputs hold, counted without decoding (dump MQMDs,
    raw files, Parquet rows); stops counting past `limit` (returns limit + 1)."""
    import pyarrow.parquet as pq

    total = len(listing.raws) + sum(e.size // 1024 for e, _ in listing.smf)  # ~1 KB a record
    for entry in listing.parquets:
        if total > limit:
            break
        with contextlib.suppress(Exception), storage.open_input(entry.uri) as f:
            total += pq.ParquetFile(f).metadata.num_rows
    for entry in listing.dumps:
        if total > limit:
            break
        with storage.open_input(entry.uri) as f:
            tail = b"\n"
            while total <= limit and (chunk := f.read(1 << 20)):
                text = tail + chunk
                total += text.count(_DUMP_MESSAGE)
                tail = text[-(len(_DUMP_MESSAGE) - 1):]
    return min(total, limit + 1)


def raw_batches(listing: Listing) -> Iterator:
    """Every raw row (inputs.RAW_COLUMNS) of the listed inputs as Arrow batches, as the Spark
    readers give them: dump messages, raw files, Parquet rows (read as Arrow, no Python
    value per message); unreadable inputs as error rows."""
    from graph.pipeline.dumpsplit import Split

    def tuples() -> Iterator[tuple]:
        for d in listing.dumps:
            yield from dump_rows(Split(d.uri, 0, d.size, d.size, d.mtime_ns))
        for entry in listing.raws:
            data, error = read_raw(entry)
            yield (entry.uri, 0, None, data, error)

    yield from raw_row_batches(tuples())
    groups, bad = parquet_groups(listing.parquets)
    for uri in (u for group in groups for u in group):
        yield from parquet_batches(uri)
    yield from raw_row_batches((uri, 0, None, None, error)
                               for uri, error in [*listing.problems, *bad])


class _Tables:
    """The classified rows by kind, as the Spark job's filters of its cached pass give them:
    operation rows spilled by correl_id (`ops`), the others held; `reports` counts activity
    messages and rejects as the job's summary does, `messages` every message read."""

    def __init__(self, ops: Spills) -> None:
        self.ops = ops
        self._held: list = []  # operation rows not yet split (fewer than SPLIT_ROWS)
        self._held_rows = 0
        self.operations = 0
        self.rejects: list[dict] = []
        self.stats: list[dict] = []
        self.events: list[dict] = []
        self.traces: list[tuple] = []
        self.reports = 0
        self.messages = 0

    def add(self, batch) -> None:
        """Take one classified batch (classify.CLASSIFIED_COLUMNS)."""
        import pyarrow.compute as pc

        is_op = pc.equal(batch.column("kind"), OP)
        ops = batch.filter(is_op)
        if ops.num_rows:
            firsts = pc.sum(pc.cast(ops.column("first"), "int64")).as_py() or 0
            self.reports += firsts
            self.messages += firsts
            self.operations += ops.num_rows
            self._held.append(ops.select(list(OPERATION_NAMES)))
            self._held_rows += ops.num_rows
            if self._held_rows >= SPLIT_ROWS:
                self.flush()
        if ops.num_rows == batch.num_rows:
            return
        names = [n for n, _ in CLASSIFIED_COLUMNS]
        at = pc.indices_nonzero(pc.invert(is_op)).to_pylist()
        rest = batch.take(at)
        previous = None  # a message's statistics or event rows come one after another
        last = None
        for i, values in zip(at, zip(*(rest.column(n).to_pylist() for n in names),
                                     strict=True), strict=True):
            if last is not None and i != last + 1:
                previous = None  # operation rows came between
            last = i
            row = dict(zip(names, values, strict=True))
            kind = row["kind"]
            key = (row["source"], row["position"])
            if kind == REJECT:
                self.reports += 1
                self.messages += 1
                self.rejects.append({"source": row["source"], "position": row["position"],
                                     "msg_id": row["report_msg_id"], "error": row["error"]})
            elif kind == TRACE:
                self.messages += 1
                self.traces.append((row["md"], row["data"], row["source"], row["position"]))
            else:
                self.messages += key != previous
                (self.stats if kind == STATS else self.events).append(json.loads(row["side"]))
            previous = key if kind in (STATS, EVENT) else None

    def flush(self) -> None:
        """Split the operation rows held into the spill buckets."""
        import pyarrow as pa

        if not self._held:
            return
        ops = pa.Table.from_batches(self._held).combine_chunks().to_batches()[0]
        self._held, self._held_rows = [], 0
        self.ops.split(ops, ops.column("correl_id").to_pylist())


class _Routes:
    """Each bucket of operation rows into operations/, routes/, hops/ (Parquet, partitioned
    as Spark's) and its route failures, by the Spark job's routes body; the verdicts."""

    def __init__(self, stage: str) -> None:
        import pyarrow.parquet as pq

        self.stage = stage
        self.verdicts: Counter = Counter()
        self.failures: list[dict] = []
        self.routes = 0
        self.route_tables: list = []  # kept when events need them (route_events/)
        self.keep = False
        os.makedirs(f"{stage}/hops", exist_ok=True)
        self._hops = pq.ParquetWriter(f"{stage}/hops/part-00000.parquet",
                                      arrow_schema(HOP_COLUMNS))

    def add(self, bucket: int, table) -> None:
        """The routes of one bucket's operation rows (whole messages)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        _write_table(table, f"{self.stage}/operations", "date", f"part-{bucket:05d}-{{i}}")
        table = table.select(list(ROUTES_READ)).sort_by("correl_id")
        schema = arrow_schema(ROUTE_COLUMNS)
        hop_schema = arrow_schema(HOP_COLUMNS)
        made = pa.Table.from_batches(list(routes_of_batches(iter(
            table.to_batches(max_chunksize=ROUTE_BATCH_ROWS)))), schema=_route_arrow_schema())
        failed = pc.is_valid(made.column("failed_error"))
        if pc.any(failed).as_py():
            self.failures += [{n: r[f"failed_{n}"] for n, _ in REJECT_COLUMNS}
                              for r in made.filter(failed).to_pylist()]
            made = made.filter(pc.invert(failed))
        hops = made.column("hop_list").combine_chunks().flatten()
        self._hops.write_table(pa.Table.from_arrays(
            [hops.field(f.name) for f in hop_schema], schema=hop_schema))
        routes = made.select([f.name for f in schema])
        counts = routes.column("verdict").value_counts()
        self.verdicts.update(dict(zip(counts.field("values").to_pylist(),
                                      counts.field("counts").to_pylist(), strict=True)))
        self.routes += routes.num_rows
        _write_table(routes, f"{self.stage}/routes", "verdict", f"part-{bucket:05d}-{{i}}")
        if self.keep:
            self.route_tables.append(routes)

    def close(self) -> None:
        """Finish the hops file."""
        self._hops.close()


def _write_table(table, path: str, partition: str, basename: str) -> None:
    """Append a table's rows to a partitioned Parquet table folder (`COLUMN=value/`)."""
    import pyarrow as pa
    import pyarrow.dataset as ds

    if not table.num_rows:
        return
    ds.write_dataset(table, path, format="parquet", basename_template=f"{basename}.parquet",
                     partitioning=ds.partitioning(
                         pa.schema([table.schema.field(partition)]), flavor="hive"),
                     existing_data_behavior="overwrite_or_ignore")


def _write(rows: list[dict], columns, path: str, partition: str | None = None, *,
           name: str = "part-00000.parquet") -> None:
    """Rows as Parquet under `path` (a folder), partitioned by `partition` as Spark does
    (`COLUMN=value/`; none when there are no rows, so the empty table keeps its schema)."""
    import pyarrow as pa
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    schema = arrow_schema(columns)
    table = pa.Table.from_batches([dict_batch(rows, schema)], schema=schema)
    os.makedirs(path, exist_ok=True)
    if partition is None or not rows:
        pq.write_table(table, os.path.join(path, name))
        return
    ds.write_dataset(table, path, format="parquet", basename_template="part-{i}.parquet",
                     partitioning=ds.partitioning(
                         pa.schema([schema.field(partition)]), flavor="hive"),
                     existing_data_behavior="overwrite_or_ignore")


def run_single(inputs: Sequence[str], out: str, *, listing: Listing,
               progress: Callable[[str], None] = lambda s: None,
               split_bytes: int = DEFAULT_SPLIT_BYTES, buckets: int | None = None) -> Summary:
    """The analyze job's tables of `inputs` under `out` (a local folder), in this process;
    what it found. `buckets`: how many spill buckets the operation rows go to (default: from
    the input's size, `BUCKET_ROWS` each)."""
    import tempfile
    from pathlib import Path

    from graph.pipeline.journeylocal import local_tables

    if not storage.is_local(out):
        raise OutputError(f"--out {out}: one process writes local folders only (use --spark)")
    k = buckets or _buckets(listing)
    with staged_local(inputs, out, progress) as stage, \
            tempfile.TemporaryDirectory(prefix="mqroute-analyze-") as temp:
        spill = Spills(Path(temp), "operations", arrow_schema(OPERATION_COLUMNS), k)
        tables = _Tables(spill)
        try:
            for batch in classify_batches(raw_batches(listing)):
                tables.add(batch)
                progress(f"messages read {tables.messages}")
            tables.flush()
            spill.close()
        except BaseException:
            spill.abandon()
            raise
        rejected = len(tables.rejects)
        progress(f"reports read {tables.reports}, decoded {tables.reports - rejected}, "
                 f"rejected {rejected}")
        routes = _Routes(stage)
        routes.keep = bool(tables.events)
        try:
            for bucket in range(k):
                table = spill.read(bucket)
                if table is not None:
                    routes.add(bucket, table)
        finally:
            routes.close()
        if not tables.operations:  # empty: unpartitioned, so the table keeps its schema
            _write([], OPERATION_COLUMNS, f"{stage}/operations")
        if not routes.routes:
            _write([], ROUTE_COLUMNS, f"{stage}/routes")
        failures = routes.failures
        if failures:
            progress(f"routes failed {len(failures)} (in rejects)")
        progress(f"routes built {routes.routes}")
        calls, journeys = local_tables(iter(tables.traces))
        _write(tables.rejects + failures, REJECT_COLUMNS, f"{stage}/rejects")
        stats = {}
        for table, columns in STATS_TABLES.items():
            rows = [r for r in tables.stats if r.get("table") == table]
            _write(rows, columns, f"{stage}/{table}")
            stats[table] = len(rows)
        _write(tables.events, EVENT_COLUMNS, f"{stage}/events", "category")
        _write(_route_events(routes.route_tables, tables.events), ROUTE_EVENT_COLUMNS,
               f"{stage}/route_events")
        _write(calls, CALL_COLUMNS, f"{stage}/calls")
        _write(journeys, TABLE_COLUMNS, f"{stage}/journeys", "verdict")
        smf = write_smf_local(listing.smf, stage, split_bytes)  # smf/ (graph.pipeline.smf)
        if smf.problems:  # bad spots in SMF data sets: rejects too, as on Spark
            _write([{"source": s, "position": o, "msg_id": None, "error": e}
                    for s, o, e in smf.problems], REJECT_COLUMNS, f"{stage}/rejects",
                   name="part-smf.parquet")
    journey_verdicts = dict(Counter(j["verdict"] for j in journeys))
    return Summary(tables.reports, tables.operations,
                  rejected + len(failures) + len(smf.problems), routes.routes,
                  dict(routes.verdicts), out, list(listing.problems), stats, journey_verdicts,
                  dict(sorted(smf.rows.items())))


def _buckets(listing: Listing) -> int:
    """Spill buckets for the listed inputs: BUCKET_ROWS operation rows each, estimated from
    Parquet row counts and dump/raw file sizes."""
    import pyarrow.parquet as pq

    reports = sum((e.size or 0) // BYTES_PER_REPORT for e in (*listing.dumps, *listing.raws))
    for entry in listing.parquets:
        with contextlib.suppress(Exception), storage.open_input(entry.uri) as f:
            reports += pq.ParquetFile(f).metadata.num_rows
    return max(1, min(1024, -(-reports * ROWS_PER_REPORT // BUCKET_ROWS)))


def _route_events(route_tables: list, events: list[dict]) -> list[dict]:
    """route_events/ rows: the routes that stopped in a queue manager with events, joined to
    them by the one rule (events.route_event_rows); none without events."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not events or not route_tables:
        return []
    qmgrs = pa.array(sorted({e.get("queue_manager") or "" for e in events}), pa.string())
    routes = [r for t in route_tables for r in t.filter(pc.is_in(
        pc.fill_null(t.column("last_queue_manager"), ""), value_set=qmgrs)).to_pylist()]
    return route_event_rows(routes, events)
