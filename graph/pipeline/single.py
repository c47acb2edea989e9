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
not write). Everything is held in memory: `count_messages` tells beforehand whether an
input is small enough.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

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
    RAW_COLUMNS,
    Listing,
    dump_rows,
    parquet_groups,
    read_raw,
)
from graph.pipeline.journeys import CALL_COLUMNS, TABLE_COLUMNS
from graph.pipeline.reports import ROUTES_READ, routes_of_batches
from graph.pipeline.rows import HOP_COLUMNS, OPERATION_COLUMNS, REJECT_COLUMNS, ROUTE_COLUMNS
from graph.pipeline.schema import arrow_schema, dict_batch, row_batch
from graph.pipeline.smf import write_local as write_smf_local
from graph.pipeline.stats import TABLES as STATS_TABLES

#: Messages at most that `mqroute analyze` runs in one process when no master is given.
SMALL_INPUT = 50_000
#: Raw rows classified at a time.
BATCH_ROWS = 2_000
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


def raw_rows(listing: Listing) -> Iterator[tuple]:
    """Every raw row (inputs.RAW_COLUMNS) of the listed inputs, as the Spark readers give
    them: dump messages, raw files, Parquet rows; unreadable inputs as error rows."""
    from graph.pipeline.dumpsplit import Split

    for d in listing.dumps:
        yield from dump_rows(Split(d.uri, 0, d.size, d.size, d.mtime_ns))
    for entry in listing.raws:
        data, error = read_raw(entry)
        yield (entry.uri, 0, None, data, error)
    groups, bad = parquet_groups(listing.parquets)
    for uri in (u for group in groups for u in group):
        yield from _parquet_rows(uri)
    for uri, error in [*listing.problems, *bad]:
        yield (uri, 0, None, None, error)


def _parquet_rows(uri: str) -> Iterator[tuple]:
    import pyarrow.parquet as pq

    with storage.open_input(uri) as f:
        pf = pq.ParquetFile(f)
        names = set(pf.schema_arrow.names)
        wanted = [c for c in ("source", "position", "md", "data") if c in names]
        row = 0
        for batch in pf.iter_batches(batch_size=BATCH_ROWS, columns=wanted):
            n = batch.num_rows
            cols = {c: batch.column(c).to_pylist() for c in wanted}
            sources = cols.get("source") or [uri] * n
            positions = cols.get("position") or list(range(row, row + n))
            mds = cols.get("md") or [None] * n
            row += n
            yield from zip(sources, positions, mds, cols["data"], [None] * n, strict=True)


def _batches(rows: Iterator[tuple]) -> Iterator:
    schema = arrow_schema(RAW_COLUMNS)
    chunk: list[tuple] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) >= BATCH_ROWS:
            yield row_batch(schema, chunk)
            chunk = []
    if chunk:
        yield row_batch(schema, chunk)


class _Tables:
    """The classified rows by kind, as the Spark job's filters of its cached pass give them;
    `reports` counts activity messages and rejects as the job's summary does, `messages`
    every message read."""

    def __init__(self) -> None:
        self.ops: list[dict] = []
        self.rejects: list[dict] = []
        self.stats: list[dict] = []
        self.events: list[dict] = []
        self.traces: list[tuple] = []
        self.reports = 0
        self.messages = 0

    def add(self, batch) -> None:
        """Take one classified batch (classify.CLASSIFIED_COLUMNS)."""
        names = [n for n, _ in CLASSIFIED_COLUMNS]
        previous = None  # a message's statistics or event rows come one after another
        for values in zip(*(batch.column(n).to_pylist() for n in names), strict=True):
            row = dict(zip(names, values, strict=True))
            kind = row["kind"]
            key = (row["source"], row["position"])
            if kind == OP:
                first = bool(row["first"])
                self.reports += first
                self.messages += first
                self.ops.append({n: row[n] for n, _ in OPERATION_COLUMNS})
            elif kind == REJECT:
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


def _routes(ops: list[dict]) -> tuple[list[dict], list[dict], list[dict]]:
    """(routes, hops, failures as rejects) of the operation rows, by the Spark job's body."""

    if not ops:
        return [], [], []
    ordered = sorted(ops, key=lambda r: r["correl_id"] or "")
    batch = dict_batch(
        ordered, arrow_schema(tuple((n, k) for n, k in OPERATION_COLUMNS if n in ROUTES_READ)))
    routes, hops, failures = [], [], []
    route_names = [n for n, _ in ROUTE_COLUMNS]
    for out in routes_of_batches(iter([batch])):
        for row in out.to_pylist():
            if row["failed_error"] is not None:
                failures.append({n: row[f"failed_{n}"] for n, _ in REJECT_COLUMNS})
                continue
            routes.append({n: row[n] for n in route_names})
            hops.extend(row["hop_list"] or ())
    return routes, hops, failures


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


@dataclass
class Counts:
    """What a run found, as the Spark job's `Summary` holds it (the same fields)."""

    messages: int
    operations: int
    rejected: int
    routes: int
    verdicts: dict[str, int]
    out: str
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    journeys: dict[str, int] = field(default_factory=dict)
    smf: dict[str, int] = field(default_factory=dict)


def run_single(inputs: Sequence[str], out: str, *, listing: Listing,
               progress: Callable[[str], None] = lambda s: None,
               split_bytes: int = DEFAULT_SPLIT_BYTES) -> Counts:
    """The analyze job's tables of `inputs` under `out` (a local folder), in this process;
    what it found."""
    from graph.pipeline.journeylocal import local_tables

    if not storage.is_local(out):
        raise OutputError(f"--out {out}: one process writes local folders only (use --spark)")
    tables = _Tables()
    for batch in classify_batches(_batches(raw_rows(listing))):
        tables.add(batch)
        progress(f"messages read {tables.messages}")
    rejected = len(tables.rejects)
    progress(f"reports read {tables.reports}, decoded {tables.reports - rejected}, "
             f"rejected {rejected}")
    routes, hops, failures = _routes(tables.ops)
    if failures:
        progress(f"routes failed {len(failures)} (in rejects)")
    progress(f"routes built {len(routes)}")
    calls, journeys = local_tables(iter(tables.traces))
    with staged_local(inputs, out, progress) as stage:
        _write(tables.ops, OPERATION_COLUMNS, f"{stage}/operations", "date")
        _write(tables.rejects + failures, REJECT_COLUMNS, f"{stage}/rejects")
        _write(routes, ROUTE_COLUMNS, f"{stage}/routes", "verdict")
        _write(hops, HOP_COLUMNS, f"{stage}/hops")
        stats = {}
        for table, columns in STATS_TABLES.items():
            rows = [r for r in tables.stats if r.get("table") == table]
            _write(rows, columns, f"{stage}/{table}")
            stats[table] = len(rows)
        _write(tables.events, EVENT_COLUMNS, f"{stage}/events", "category")
        _write(route_event_rows(routes, tables.events), ROUTE_EVENT_COLUMNS,
               f"{stage}/route_events")
        _write(calls, CALL_COLUMNS, f"{stage}/calls")
        _write(journeys, TABLE_COLUMNS, f"{stage}/journeys", "verdict")
        smf = write_smf_local(listing.smf, stage, split_bytes)  # smf/ (graph.pipeline.smf)
        if smf.problems:  # bad spots in SMF data sets: rejects too, as on Spark
            _write([{"source": s, "position": o, "msg_id": None, "error": e}
                    for s, o, e in smf.problems], REJECT_COLUMNS, f"{stage}/rejects",
                   name="part-smf.parquet")
    verdicts = dict(Counter(r["verdict"] for r in routes))
    journey_verdicts = dict(Counter(j["verdict"] for j in journeys))
    return Counts(tables.reports, len(tables.ops), rejected + len(failures) + len(smf.problems),
                  len(routes), verdicts, out, list(listing.problems), stats, journey_verdicts,
                  dict(sorted(smf.rows.items())))

