"""The analyze job's reports on Spark in one job that moves only what it must.

    input units (dump ranges, Parquet row groups, raw files) ──classify_units: each task
    reads its unit itself, classifies it (graph.pipeline.classify, compiled when built) and
    writes its operations/ and rejects/ parts──▶ the route columns of its operation rows
    ──shuffle by correl_id, sorted──▶ route_parts: each task builds its messages' routes
    (reports.routes_of_batches) and writes its routes/, hops/ and failures' rejects/ parts
    ──▶ one row of counts per task

The raw messages never enter the JVM (they are read and decoded in the Python task that
uses them), nothing is cached or computed twice, and the big tables are written once, by
pyarrow, in Spark's layout (`COLUMN=value/` folders escaped as Spark escapes them,
`__HIVE_DEFAULT_PARTITION__` for null and empty values) into the staging folder the job
commits. Statistics, events and activity-trace messages are set aside in `_side/KIND/` parts
(the classified rows' `kind` and `side` or raw columns, so classify's frames read them), for
the stages that run only when there are any; each unit's counts go to `_counts/`. Part names
are fixed by unit (or shuffle partition) and sequence, so a task run again writes the same
files.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass

from graph.pipeline import inputs, storage
from graph.pipeline.classify import EVENT, OP, REJECT, STATS, TRACE, classify_batches
from graph.pipeline.rows import (
    HOP_COLUMNS,
    OPERATION_COLUMNS,
    REJECT_COLUMNS,
    ROUTE_COLUMNS,
    ROUTES_READ,
)
from graph.pipeline.schema import arrow_schema, ddl

#: The columns of a route_parts task's one row of counts.
PART_COLUMNS = (("routes", "long"), ("hops", "long"), ("failed", "long"),
                ("verdicts", "string"))
#: The route columns the classify tasks hand to the shuffle.
ROUTE_READ_COLUMNS = tuple((n, k) for n, k in OPERATION_COLUMNS if n in ROUTES_READ)
#: Side folders of the staging folder (removed before the commit).
SIDE, COUNTS = "_side", "_counts"
#: Raw message files one unit reads at most.
RAWS_PER_UNIT = 256
#: Rows a task holds of one table before it writes them as a part.
FLUSH_ROWS = 262_144
#: Bytes a task holds of one table before it writes them as a part (activity-trace side
#: rows carry whole messages: a row count alone would not bound a task's memory).
FLUSH_BYTES = 64 << 20
#: Spark's name of the partition of null and empty values.
DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__"
#: The characters Spark escapes (%XX) in partition folder names
#: (ExternalCatalogUtils.escapePathName): control characters and " # % ' * / : = ? \ DEL { [ ] ^
_ESCAPED = frozenset([*map(chr, range(1, 32)), '"', "#", "%", "'", "*", "/", ":", "=", "?",
                      "\\", "\x7f", "{", "[", "]", "^"])
#: The classified columns each side kind keeps (classify's frames read them back).
_SIDE_COLUMNS = {STATS: ("kind", "side"), EVENT: ("kind", "side"),
                 TRACE: ("kind", "source", "position", "md", "data")}


@dataclass(frozen=True)
class Unit:
    """One input unit a task reads: a dump's byte range (`split`), row groups [start, end)
    of a Parquet file (`uri`), raw message files (`raws`: (uri, size) pairs), or inputs that
    could not be read (`errors`: (uri, error) pairs)."""

    index: int
    split: object = None
    uri: str | None = None
    start: int = 0
    end: int = 0
    raws: tuple = ()
    errors: tuple = ()


def partition_folder(column: str, value: str | None) -> str:
    """`column=value` as Spark names a partition's folder."""
    def escape(text: str) -> str:
        return "".join(f"%{ord(c):02X}" if c in _ESCAPED else c for c in text)

    return f"{escape(column)}={escape(value) if value else DEFAULT_PARTITION}"


def plan_units(listing: inputs.Listing, split_bytes: int) -> list[Unit]:
    """The units of the listed inputs: dumps cut into `split_bytes` ranges, Parquet files
    into runs of row groups of about `split_bytes` (their footers read here), raw files a
    few hundred at a time, and one unit of the inputs that cannot be read."""
    from graph.pipeline.dumpsplit import splits

    units: list[Unit] = []
    for s in splits(listing.dumps, split_bytes):
        units.append(Unit(len(units), split=s))
    groups, bad = inputs.parquet_groups(listing.parquets)
    for uri in (u for group in groups for u in group):
        try:
            sizes = _row_group_bytes(uri)
        except Exception as e:  # gone or damaged since it was listed
            why = e.reason if isinstance(e, storage.StorageError) else storage.reason(e)
            bad.append((uri, f"{uri}: not readable as Parquet: {why}"))
            continue
        start = taken = 0
        for i, size in enumerate(sizes):
            taken += size
            if taken >= split_bytes or i == len(sizes) - 1:
                units.append(Unit(len(units), uri=uri, start=start, end=i + 1))
                start, taken = i + 1, 0
    for k in range(0, len(listing.raws), RAWS_PER_UNIT):
        units.append(Unit(len(units), raws=tuple(
            (e.uri, e.size) for e in listing.raws[k:k + RAWS_PER_UNIT])))
    problems = [*listing.problems, *bad]
    if problems:
        units.append(Unit(len(units), errors=tuple(problems)))
    return units


def _row_group_bytes(uri: str) -> list[int]:
    """The uncompressed size of each row group of a Parquet file (one 0 when it has none)."""
    import pyarrow.parquet as pq

    with storage.open_input(uri) as f:
        meta = pq.ParquetFile(f).metadata
    return [meta.row_group(g).total_byte_size for g in range(meta.num_row_groups)] or [0]


def unit_batches(unit: Unit) -> Iterator:
    """The raw rows (inputs.RAW_COLUMNS) of one unit as Arrow batches, as the Spark readers
    gave them: a dump range's messages, Parquet row groups, raw files, error rows."""
    if unit.uri is not None:
        yield from inputs.parquet_batches(unit.uri, unit.start, unit.end)
    elif unit.split is not None:
        yield from inputs.raw_row_batches(inputs.dump_rows(unit.split))
    elif unit.raws:
        yield from inputs.raw_row_batches(_raw_row(uri, size) for uri, size in unit.raws)
    else:
        yield from inputs.raw_row_batches((uri, 0, None, None, error) for uri, error in unit.errors)


def _raw_row(uri: str, size: int) -> tuple:
    data, error = inputs.read_raw(storage.Entry(uri, size, None))
    return (uri, 0, None, data, error)


def write_parts(table, folder: str, name: str, partition: str | None = None) -> None:
    """A table as Parquet part `name` under `folder` (a path or URI), partitioned as Spark
    partitions (one `COLUMN=value/` folder per value, the column left out of the files)."""
    import pyarrow.compute as pc

    if not table.num_rows:
        return
    if partition is None:
        _write_file(table, storage.join(folder, name))
        return
    values = pc.fill_null(table.column(partition), "")
    rest = table.drop_columns([partition])
    for value in pc.unique(values).to_pylist():
        path = storage.join(storage.join(folder, partition_folder(partition, value)), name)
        _write_file(rest.filter(pc.equal(values, value)), path)


def _write_file(table, uri: str) -> None:
    """One Parquet file, whole or not at all (`_whole`)."""
    import pyarrow.parquet as pq

    _whole(uri, lambda sink: pq.write_table(table, sink))


def _whole(uri: str, write) -> None:
    """Write one file by `write(sink)`, whole or not at all: a local one is written under a
    hidden name (which readers skip) and renamed into place, so a task killed half way, or
    two attempts of one task at once, never leave a torn part; object stores make a file
    whole on close."""
    if not storage.is_local(uri):
        with storage.open_output(uri) as sink:
            write(sink)
        return
    path = storage.local_path(uri)
    temp = _temp_name(path)
    try:
        with storage.open_output(temp) as sink:
            write(sink)
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def _temp_name(path: str) -> str:
    """The hidden name a part is written under before its rename (one per process and
    thread, so two attempts of a task never share one)."""
    folder, name = os.path.split(path)
    return os.path.join(folder, f".{name}.{os.getpid()}-{threading.get_ident()}.tmp")


_TEMP = re.compile(r"\..+\.\d+-\d+\.tmp")


def remove_temps(stage: str) -> int:
    """Remove the hidden temporary parts task attempts killed half way left in a local
    staging folder (a run killed whole is removed whole by the commit's clean-up); how
    many. Object stores have none (a file there is whole on close)."""
    if not storage.is_local(stage):
        return 0
    removed = 0
    for folder, _dirs, files in os.walk(storage.local_path(stage)):
        for name in files:
            if _TEMP.fullmatch(name):
                with suppress(OSError):
                    os.unlink(os.path.join(folder, name))
                    removed += 1
    return removed


def write_empty(folder: str, columns: Sequence[tuple[str, str]]) -> None:
    """An empty table of `columns` (one Parquet file holding the schema), unpartitioned as
    Spark writes an empty partitioned table."""
    _write_file(arrow_schema(columns).empty_table(), storage.join(folder, "part-00000.parquet"))


class _Parts:
    """Batches of one table a task holds, written as numbered parts when they grow."""

    def __init__(self, folder: str, prefix: str, partition: str | None = None) -> None:
        self.folder, self.prefix, self.partition = folder, prefix, partition
        self.held: list = []
        self.rows = self.bytes = self.written = 0

    def add(self, batch) -> None:
        if batch.num_rows:
            self.held.append(batch)
            self.rows += batch.num_rows
            self.bytes += batch.nbytes
            if self.rows >= FLUSH_ROWS or self.bytes >= FLUSH_BYTES:
                self.flush()

    def flush(self) -> None:
        import pyarrow as pa

        if self.held:
            write_parts(pa.Table.from_batches(self.held), self.folder,
                        f"{self.prefix}-{self.written:03d}.parquet", self.partition)
            self.written += 1
        self.held, self.rows, self.bytes = [], 0, 0


def classify_units(batches: Iterator, stage: str) -> Iterator:
    """mapInArrow body over units (`unit`: each pickled by `unit_rows`): each unit read,
    classified, its operations/, rejects/ and side parts written under `stage`, its counts
    to `_counts/`; yields the route columns (ROUTE_READ_COLUMNS) of its operation rows."""
    import pickle

    for batch in batches:
        for blob in batch.column("unit").to_pylist():
            yield from _classify_unit(pickle.loads(blob), stage)


def unit_rows(spark, units: Sequence[Unit]):
    """A DataFrame of one row per unit (`unit`: the Unit pickled), one partition each: a
    task gets its own unit only (not the whole plan, which grows with the input)."""
    import pickle

    rows = [(pickle.dumps(u),) for u in units]
    return spark.createDataFrame(spark.sparkContext.parallelize(rows, max(1, len(rows))),
                                 "unit binary")


def _classify_unit(unit: Unit, stage: str) -> Iterator:
    import pyarrow.compute as pc

    name = f"part-u{unit.index:05d}"
    ops = _Parts(storage.join(stage, "operations"), name, "date")
    rejects = _Parts(storage.join(stage, "rejects"), name)
    sides = {kind: _Parts(storage.join(storage.join(stage, SIDE), kind), name)
             for kind in _SIDE_COLUMNS}
    counts: dict[str, list[int]] = {}

    def count(kind: str, rows: int, messages: int) -> None:
        got = counts.setdefault(kind, [0, 0])
        got[0] += rows
        got[1] += messages

    op_names = [n for n, _ in OPERATION_COLUMNS]
    for classified in classify_batches(unit_batches(unit)):
        kinds = classified.column("kind")
        is_op = pc.equal(kinds, OP)
        taken = classified.filter(is_op)
        if taken.num_rows:
            firsts = pc.sum(pc.cast(taken.column("first"), "int64")).as_py() or 0
            count(OP, taken.num_rows, firsts)
            ops.add(taken.select(op_names))
            yield taken.select(list(ROUTES_READ))
        if taken.num_rows == classified.num_rows:
            continue
        for kind in (REJECT, STATS, EVENT, TRACE):
            rows = classified.filter(pc.equal(kinds, kind))
            if not rows.num_rows:
                continue
            count(kind, rows.num_rows, rows.num_rows)
            if kind == REJECT:
                rejects.add(rows.select(["source", "position", "report_msg_id", "error"])
                            .rename_columns([n for n, _ in REJECT_COLUMNS]))
            else:
                sides[kind].add(rows.select(list(_SIDE_COLUMNS[kind])))
    for parts in (ops, rejects, *sides.values()):
        parts.flush()
    _whole(storage.join(storage.join(stage, COUNTS), f"u{unit.index:05d}.json"),
           lambda sink: sink.write(json.dumps(counts).encode()))


def route_parts(batches: Iterator, stage: str) -> Iterator:
    """mapInArrow body over route columns sorted by correl_id (one shuffle partition): its
    messages' routes (reports.routes_of_batches) written as routes/ (by verdict), hops/ and
    the failures' rejects/ parts under `stage`; yields one row of counts (PART_COLUMNS)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    from pyspark import TaskContext

    from graph.pipeline.reports import routes_of_batches

    name = f"part-r{TaskContext.get().partitionId():05d}"
    routes = _Parts(storage.join(stage, "routes"), name, "verdict")
    hops = _Parts(storage.join(stage, "hops"), name)
    failures = _Parts(storage.join(stage, "rejects"), name)
    route_names = [n for n, _ in ROUTE_COLUMNS]
    reject_names = [n for n, _ in REJECT_COLUMNS]
    hop_schema = arrow_schema(HOP_COLUMNS)
    made = {"routes": 0, "hops": 0, "failed": 0}
    verdicts: dict[str, int] = {}
    for out in routes_of_batches(batches):
        failed = pc.is_valid(out.column("failed_error"))
        if pc.any(failed).as_py():
            lost = out.filter(failed)
            made["failed"] += lost.num_rows
            failures.add(lost.select([f"failed_{n}" for n in reject_names])
                         .rename_columns(reject_names))
            out = out.filter(pc.invert(failed))
        flat = out.column("hop_list").flatten()
        hops.add(pa.RecordBatch.from_arrays([flat.field(f.name) for f in hop_schema],
                                            schema=hop_schema))
        made["hops"] += len(flat)
        made["routes"] += out.num_rows
        if out.num_rows:
            counted = out.column("verdict").value_counts()
            for verdict, n in zip(counted.field("values").to_pylist(),
                                  counted.field("counts").to_pylist(), strict=True):
                verdicts[verdict] = verdicts.get(verdict, 0) + n
        routes.add(out.select(route_names))
    for parts in (routes, hops, failures):
        parts.flush()
    yield pa.RecordBatch.from_pylist([{**made, "verdicts": json.dumps(verdicts)}],
                                     schema=arrow_schema(PART_COLUMNS))


@dataclass
class Reports:
    """What the reports job found: kind -> (rows, messages) as classify.counts gives them,
    routes by verdict, hops, and messages whose route could not be built."""

    by_kind: dict[str, tuple[int, int]]
    verdicts: dict[str, int]
    hops: int
    failed: int


def write_reports(spark, listing: inputs.Listing, stage: str, split_bytes: int) -> Reports:
    """operations/, rejects/, routes/ and hops/ of the listed inputs under `stage` in one
    Spark job (and the side kinds' parts under `_side/`); what it found."""
    from functools import partial

    units = plan_units(listing, split_bytes)
    route_columns = unit_rows(spark, units).mapInArrow(partial(classify_units, stage=stage),
                                                       ddl(ROUTE_READ_COLUMNS))
    parts = (route_columns.repartition("correl_id").sortWithinPartitions("correl_id")
             .mapInArrow(partial(route_parts, stage=stage), ddl(PART_COLUMNS)))
    got = parts.collect()  # one row per shuffle partition
    remove_temps(stage)
    verdicts: dict[str, int] = {}
    for row in got:
        for verdict, n in json.loads(row["verdicts"]).items():
            verdicts[verdict] = verdicts.get(verdict, 0) + n
    for table, columns in (("operations", OPERATION_COLUMNS), ("rejects", REJECT_COLUMNS),
                           ("routes", ROUTE_COLUMNS), ("hops", HOP_COLUMNS)):
        if not _has_files(storage.join(stage, table)):
            write_empty(storage.join(stage, table), columns)
    return Reports(unit_counts(stage), verdicts, sum(r["hops"] for r in got),
                   sum(r["failed"] for r in got))


def _has_files(folder: str) -> bool:
    try:
        return bool(storage.list_files(folder))
    except storage.StorageError:
        return False


def side_rows(spark, stage: str, kind: str):
    """The classified rows of one side kind the reports job set aside (a DataFrame of
    the columns classify's frames read)."""
    return spark.read.parquet(storage.spark_path(storage.join(storage.join(stage, SIDE), kind)))


def unit_counts(stage: str) -> dict[str, tuple[int, int]]:
    """kind -> (rows, messages) over every unit's `_counts/` file (read on the driver: one
    small file per unit)."""
    total: dict[str, list[int]] = {}
    folder = storage.join(stage, COUNTS)
    for entry in storage.list_files(folder) if _has_files(folder) else []:
        with storage.open_input(entry.uri) as f:
            got = json.loads(f.read())
        for kind, (rows, messages) in got.items():
            kind_total = total.setdefault(kind, [0, 0])
            kind_total[0] += rows
            kind_total[1] += messages
    return {k: (v[0], v[1]) for k, v in total.items()}
