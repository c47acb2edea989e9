"""Journeys in one process with bounded memory: call rows spilled into buckets by journey key.

    call batches ──calls/ (Parquet, as they come; `stream_parquet`: a copy of the file)
                 └─hash(journey_key) % K──▶ K spill files (Arrow IPC, uncompressed)
    each spill file (whole journey keys, as a Spark partition) ──journeys_of_columns──▶
        journey rows ──no origin CorrelId──▶ journeys/ (Parquet, as they come)
                     ├─(msg_id, verdict, consumer) by hash(msg_id) % K──▶ request spills
                     └─rows with an origin CorrelId by hash(CorrelId) % K──▶ reply spills
    request spill j + reply spill j ──`link_replies` (link_reply_rows' rule)──▶ journeys/

Reply linking is a second bucketed pass keyed by the join key (a reply's origin CorrelId, a
request's MsgId), as Spark's join is: each pass holds one bucket, so memory does not grow with
the input whatever share of the messages carries a CorrelId (an index of referenced MsgIds
would grow with that share). Only rows that carry a CorrelId wait for the second pass; the
others are written at once. Temporary files live in one directory removed at the end, also on
error; a write that fails (a full disk) raises `SpillError` naming the path.

The spills are read back once, so they are not compressed (lz4 cost ~1 CPU s per million
calls to write and read back; the files take ~350 bytes per call). Arrow buffers come from
the system allocator during a run, Parquet is read in the calling thread, and text columns
with few distinct values travel as dictionaries (issue 33: benchmarks/README, Journeys).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from graph.pipeline.journeys import TABLE_COLUMNS, UNREAD_COLUMNS, journey_record_batch
from graph.pipeline.schema import arrow_schema, dict_batch
from traceroute.journeys.calls import paused_collector
from traceroute.journeys.rows import (
    CALL_COLUMNS,
    JOURNEY_COLUMNS,
    journeys_of_columns,
    link_replies,
)

#: Calls per bucket aimed at when K is not given (a bucket's journeys_of_columns peaks at
#: about 3.5 KB per call).
CALLS_PER_BUCKET = 200_000
#: Bytes of raw input taken as one call when K is estimated from input sizes.
BYTES_PER_CALL = 400
MAX_BUCKETS = 1024

_SPILL_COLUMNS = tuple(c for c in CALL_COLUMNS if c[0] not in UNREAD_COLUMNS)
_TABLE_NAMES = tuple(name for name, _ in TABLE_COLUMNS)
_REQUEST_COLUMNS = (("msg_id", "string"), ("verdict", "string"), ("consumer_conn", "string"))
#: Text columns with few distinct values per bucket (queue managers, connections, names):
#: read back through a dictionary, one str per distinct value (cheaper to make, and the
#: journeys stage's lookups reuse each str's cached hash).
_FEW_VALUES = frozenset(("queue_manager", "conn_id", "conn_key", "appl_name", "channel_name",
                         "object_name", "object_qmgr", "resolved_q_name", "resolved_q_mgr",
                         "resolved_local_q_name", "resolved_local_q_mgr", "format",
                         "xmitq_remote_q_name", "xmitq_remote_q_mgr", "operation_date",
                         "source"))
#: Columns whose Parquet statistics (min/max per row group) are kept: not ids or long text,
#: whose min/max over a row group spans nearly every value and prunes nothing.
_NO_STATISTICS = frozenset(("journey_key", "conn_id", "conn_key", "msg_id", "correl_id",
                            "xmitq_msg_id", "applications", "steps", "notes", "reply_to"))


class SpillError(Exception):
    """A spill or output file could not be written or read (one line: path: reason)."""


@dataclass
class SpillResult:
    """What a streaming run did: counts, buckets, bytes spilled."""

    calls: int = 0
    keyed_calls: int = 0
    journeys: int = 0
    verdicts: dict[str, int] = field(default_factory=dict)
    buckets: int = 0
    replies_linked: int = 0      # set by the join pass (not already within a bucket)
    spill_bytes: int = 0
    largest_bucket: int = 0
    #: CPU seconds by stage: spill (calls/ written, rows bucketed), read (buckets back as
    #: columns), journeys (journeys_of_columns), out (journey rows to Arrow, journeys/ and the
    #: join's spills), link (the reply join)
    stage_cpu: dict[str, float] = field(default_factory=dict)


def buckets_for(calls: int) -> int:
    """K for about `calls` calls: CALLS_PER_BUCKET each, 1..MAX_BUCKETS."""
    return max(1, min(MAX_BUCKETS, -(-calls // CALLS_PER_BUCKET)))


def _reason(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return " ".join(str(text).split())


class Spills:
    """K Arrow IPC stream files of one schema, written batch by batch."""

    def __init__(self, folder: Path, name: str, schema, k: int,
                 compression: str | None = "lz4") -> None:
        self.paths = [folder / f"{name}-{i:04d}.arrow" for i in range(k)]
        self.schema = schema
        self.k = k
        self.compression = compression
        self.rows = [0] * k
        self._writers: list = [None] * k
        self._files: list = [None] * k

    def write(self, bucket: int, batch) -> None:
        """Append a batch to bucket's file (opened at its first batch)."""
        import pyarrow as pa

        path = self.paths[bucket]
        try:
            w = self._writers[bucket]
            if w is None:
                self._files[bucket] = f = _open_sink(path)
                w = self._writers[bucket] = pa.ipc.new_stream(
                    f, self.schema, options=pa.ipc.IpcWriteOptions(compression=self.compression))
            w.write_batch(batch)
        except OSError as exc:
            raise SpillError(f"{path}: {_reason(exc)}") from None
        self.rows[bucket] += batch.num_rows

    def split(self, batch, keys: list) -> None:
        """Write a batch's rows to the buckets of their keys (hash % K; no None keys)."""
        import numpy as np
        import pyarrow as pa

        k = self.k
        if k == 1:
            self.write(0, batch)
            return
        where = np.fromiter((hash(x) % k for x in keys), dtype=np.int64, count=len(keys))
        ordered = batch.take(pa.array(np.argsort(where, kind="stable")))
        counts = np.bincount(where, minlength=k)
        start = 0
        for bucket in np.flatnonzero(counts):
            n = int(counts[bucket])
            self.write(int(bucket), _compact(ordered.slice(start, n)))
            start += n

    def close(self) -> int:
        """Finish every file; the bytes written."""
        total = 0
        for i, w in enumerate(self._writers):
            if w is None:
                continue
            try:
                w.close()
                self._files[i].close()
            except OSError as exc:
                raise SpillError(f"{self.paths[i]}: {_reason(exc)}") from None
            self._writers[i] = None
            total += self.paths[i].stat().st_size
        return total

    def abandon(self) -> None:
        """Close what is open, ignoring errors (the folder is removed next)."""
        for w, f in zip(self._writers, self._files, strict=True):
            _close_quietly(w, f)

    def read(self, bucket: int):
        """The table of one bucket (None when nothing went there)."""
        import pyarrow as pa

        if not self.rows[bucket]:
            return None
        path = self.paths[bucket]
        try:
            with pa.memory_map(str(path)) as source:
                table = pa.ipc.open_stream(source).read_all()
        except OSError as exc:
            raise SpillError(f"{path}: {_reason(exc)}") from None
        return table


def _compact(batch):
    """The batch with each dictionary column's dictionary no longer than its rows (a slice
    keeps its whole batch's dictionary: a column of distinct values would be spilled K
    times over)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    columns = batch.columns
    wide = [i for i, c in enumerate(columns)
            if pa.types.is_dictionary(c.type) and len(c.dictionary) > len(c) + 64]
    if not wide:
        return batch
    for i in wide:
        columns[i] = pc.dictionary_encode(columns[i].dictionary_decode()).cast(columns[i].type)
    return pa.RecordBatch.from_arrays(columns, schema=batch.schema)


def _pydict(table) -> dict[str, list]:
    """A table's columns as Python lists (`Table.to_pydict`; dictionary columns and
    _FEW_VALUES through their dictionaries: one str per distinct value)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    cols = {}
    for name in table.column_names:
        column = table.column(name)
        if pa.types.is_dictionary(column.type):
            chunks = column.chunks
        elif name in _FEW_VALUES and column.null_count < len(column):
            chunks = [pc.dictionary_encode(column).combine_chunks()]
        else:
            cols[name] = column.to_pylist()
            continue
        values: list = []
        for chunk in chunks:
            words = chunk.dictionary.to_pylist()
            indices = chunk.indices
            if chunk.null_count:
                words.append(None)
                indices = indices.fill_null(len(words) - 1)
            values += map(words.__getitem__, indices.to_numpy().tolist())
        cols[name] = values
    return cols


def _open_sink(path: Path):
    """A writable binary file (a hook for tests simulating a full disk)."""
    import pyarrow as pa

    return pa.OSFile(str(path), "wb")


class _Sink:
    """Rows or batches to a Parquet file (or a callback), opened at the first write."""

    def __init__(self, path: Path | None, schema,
                 callback: Callable[[object], None] | None = None) -> None:
        self.path, self.schema, self.callback = path, schema, callback
        self._writer = None
        self._file = None

    def write(self, table) -> None:
        """Append a table (cast to the sink's schema)."""
        if not table.num_rows:
            return
        if self.callback is not None:
            self.callback(table)
        if self.path is None:
            return
        import pyarrow.parquet as pq

        try:
            if self._writer is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._file = _open_sink(self.path)
                self._writer = pq.ParquetWriter(
                    self._file, self.schema,
                    write_statistics=[n for n in self.schema.names if n not in _NO_STATISTICS])
            self._writer.write_table(table)
        except OSError as exc:
            raise SpillError(f"{self.path}: {_reason(exc)}") from None

    def close(self) -> None:
        """Finish the file."""
        if self._writer is not None:
            try:
                self._writer.close()
                self._file.close()
            except OSError as exc:
                raise SpillError(f"{self.path}: {_reason(exc)}") from None
            self._writer = None

    def abandon(self) -> None:
        """Close what is open, ignoring errors (on the way out after a failure)."""
        _close_quietly(self._writer, self._file)


def _close_quietly(*closables) -> None:
    for x in closables:
        try:
            if x is not None:
                x.close()
        except Exception:  # best effort before removal
            pass


def stream_journeys(batches: Iterable, *, buckets: int, out: str | Path | None = None,
                    temp_dir: str | Path | None = None,
                    on_calls: Callable[[object], None] | None = None,
                    on_journeys: Callable[[object], None] | None = None) -> SpillResult:
    """calls/ and journeys/ of call batches (Arrow, CALL_COLUMNS) in `buckets` spill buckets.

    Writes `out`/calls/part-0.parquet and `out`/journeys/part-0.parquet when `out` is given;
    `on_calls`/`on_journeys` receive each Arrow table as it is written (journeys with the
    table's columns, reply_to linked)."""
    return _stream(batches, buckets, out, temp_dir, on_calls, on_journeys, None)


def stream_parquet(path: str | Path, *, buckets: int, out: str | Path | None = None,
                   temp_dir: str | Path | None = None,
                   on_calls: Callable[[object], None] | None = None,
                   on_journeys: Callable[[object], None] | None = None,
                   batch_size: int = 200_000) -> SpillResult:
    """`stream_journeys` of a calls Parquet file, read in this thread (pyarrow's reading
    threads cost ~3x the CPU on this work). When the file's Arrow schema is CALL_COLUMNS'
    and `out` is given (no `on_calls`), `out`/calls/ is a byte copy of the file (the same
    rows, nothing decoded and re-encoded) and only the columns the journeys read are
    decoded, text columns with few values as dictionaries."""
    f = _parquet_file(path)
    if (out is None or on_calls is not None or not f.metadata.num_rows
            or not f.schema_arrow.equals(arrow_schema(CALL_COLUMNS))):
        return _stream(f.iter_batches(batch_size=batch_size, use_threads=False), buckets,
                       out, temp_dir, on_calls, on_journeys, None)
    names = [name for name, _ in _SPILL_COLUMNS]
    f = _parquet_file(path, read_dictionary=[n for n in names if n in _FEW_VALUES])
    return _stream(f.iter_batches(batch_size=batch_size, columns=names, use_threads=False),
                   buckets, out, temp_dir, None, on_journeys, Path(path))


def _parquet_file(path: str | Path, read_dictionary: list[str] | None = None):
    """An open Parquet file (SpillError when it cannot be read as one)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(str(path), read_dictionary=read_dictionary)
    except (OSError, pa.ArrowException) as exc:
        raise SpillError(f"{path}: {_reason(exc)}") from None


def _copy_calls(source: Path, root: Path) -> None:
    """`root`/calls/part-0.parquet as a copy of `source`."""
    target = root / "calls" / "part-0.parquet"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    except OSError as exc:
        raise SpillError(f"{target}: {_reason(exc)}") from None


def _stream(batches, buckets, out, temp_dir, on_calls, on_journeys,
            calls_file: Path | None) -> SpillResult:
    if buckets < 1:
        raise ValueError("buckets must be at least 1")
    root = Path(out) if out is not None else None
    try:
        folder = Path(tempfile.mkdtemp(prefix="mqroute-journeys-", dir=temp_dir))
    except OSError as exc:
        raise SpillError(f"{temp_dir or tempfile.gettempdir()}: {_reason(exc)}") from None
    spills: list[Spills] = []
    sinks: list[_Sink] = []
    try:
        if calls_file is not None:
            _copy_calls(calls_file, root)
        with _system_pool():
            return _run(batches, buckets, root if calls_file is None else None, root,
                        folder, spills, sinks, on_calls, on_journeys)
    finally:
        for s in spills:
            s.abandon()
        for sink in sinks:
            sink.abandon()
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def _system_pool() -> Iterator[None]:
    """pyarrow allocating from the C library's malloc for the run (then the pool before):
    this work's buffers, made and dropped a batch at a time, cost ~10 % less CPU there than
    in mimalloc, pyarrow's default (measured A/B at 1M calls: fewer page faults)."""
    import pyarrow as pa

    before = pa.default_memory_pool()
    pa.set_memory_pool(pa.system_memory_pool())
    try:
        yield
    finally:
        pa.set_memory_pool(before)


def _run(batches, k, calls_root, root, folder, spills, sinks, on_calls,
         on_journeys) -> SpillResult:
    import time

    import pyarrow as pa
    import pyarrow.compute as pc

    clock = time.process_time
    c0 = clock()
    call_schema = arrow_schema(CALL_COLUMNS)
    spill_schema = arrow_schema(_SPILL_COLUMNS)
    spill_names = [name for name, _ in _SPILL_COLUMNS]
    row_schema = arrow_schema(JOURNEY_COLUMNS)
    table_schema = pa.schema([row_schema.field(n) for n in _TABLE_NAMES])
    calls_out = _Sink(calls_root / "calls" / "part-0.parquet" if calls_root else None,
                      call_schema, on_calls)
    copied = root is not None and calls_root is None  # calls/ is already there
    if copied:  # stream_parquet's batches: _FEW_VALUES as dictionaries (spilled so)
        spill_schema = pa.schema([
            pa.field(f.name, pa.dictionary(pa.int32(), f.type)) if f.name in _FEW_VALUES
            else f for f in spill_schema])
    in_names, in_schema = ((spill_names, spill_schema) if copied
                           else ([name for name, _ in CALL_COLUMNS], call_schema))
    journeys_out = _Sink(root / "journeys" / "part-0.parquet" if root else None,
                         table_schema, on_journeys)
    sinks += [calls_out, journeys_out]
    keyed = Spills(folder, "calls", spill_schema, k, compression=None)
    spills.append(keyed)
    result = SpillResult(buckets=k)
    # pass 1: calls/ out, keyed calls into buckets
    for batch in batches:
        if batch.num_rows == 0:
            continue
        table = pa.Table.from_batches([batch]).select(in_names).cast(in_schema)
        if not copied:
            calls_out.write(table)
        result.calls += table.num_rows
        keys = table.column("journey_key")
        if keys.null_count:
            table = table.filter(pc.is_valid(keys))
            keys = table.column("journey_key")
        if not table.num_rows:
            continue
        result.keyed_calls += table.num_rows
        for part in table.select(spill_names).to_batches():
            keyed.split(part, part.column("journey_key").to_pylist())
    calls_out.close()
    result.spill_bytes += keyed.close()
    result.largest_bucket = max(keyed.rows, default=0)
    stage = result.stage_cpu = dict.fromkeys(("spill", "read", "journeys", "out", "link"), 0.0)
    stage["spill"] = clock() - c0
    # pass 2: journeys per bucket; rows with a CorrelId wait for the join
    requests = Spills(folder, "requests", arrow_schema(_REQUEST_COLUMNS), k, compression=None)
    replies = Spills(folder, "replies", row_schema, k, compression=None)
    spills += [requests, replies]
    verdicts = result.verdicts
    for bucket in range(k):
        with paused_collector():  # a bucket's rows: no cycles, millions of objects
            c0 = clock()
            table = keyed.read(bucket)
            if table is None:
                continue
            cols = _pydict(table)
            del table
            c1 = clock()
            rows = journeys_of_columns(cols)
            del cols
            c2 = clock()
            stage["read"] += c1 - c0
            stage["journeys"] += c2 - c1
            if not rows:
                continue
            result.journeys += len(rows)
            linked = pa.Table.from_batches([journey_record_batch(rows)])
            del rows
            for counted in pc.value_counts(linked.column("verdict")).to_pylist():
                verdict = counted["values"]
                verdicts[verdict] = verdicts.get(verdict, 0) + counted["counts"]
            request_part = linked.select([n for n, _ in _REQUEST_COLUMNS])
            for part in request_part.to_batches():
                requests.split(part, part.column("msg_id").to_pylist())
            correl = linked.column("origin_correl_id")
            waiting = pc.is_valid(correl)
            if correl.null_count < len(correl):
                for part in linked.filter(waiting).to_batches():
                    replies.split(part, part.column("origin_correl_id").to_pylist())
                linked = linked.filter(pc.invert(waiting))
            journeys_out.write(linked.select(list(_TABLE_NAMES)))
            stage["out"] += clock() - c2
    c0 = clock()
    result.spill_bytes += requests.close() + replies.close()
    # pass 3: the reply rule (`link_replies`) per join-key bucket
    for bucket in range(k):
        with paused_collector():
            table = replies.read(bucket)
            if table is None:
                continue
            rows = table.to_pylist()
            found = requests.read(bucket)
            by_id: dict[str, tuple] = {}
            if found is not None:
                for m, v, c in zip(*(found.column(n).to_pylist() for n, _ in _REQUEST_COLUMNS),
                                   strict=True):
                    by_id[m] = (v, c)
            result.replies_linked += link_replies(rows, by_id)
            journeys_out.write(pa.Table.from_batches([journey_record_batch(rows)])
                               .select(list(_TABLE_NAMES)))
    journeys_out.close()
    stage["link"] = clock() - c0
    return result


def call_batches_of(rows: Iterable[dict], size: int = 50_000) -> Iterator:
    """Call rows (dicts of CALL_COLUMNS) as Arrow batches of `size` rows."""

    schema = arrow_schema(CALL_COLUMNS)
    chunk: list[dict] = []
    for r in rows:
        chunk.append(r)
        if len(chunk) >= size:
            yield dict_batch(chunk, schema)
            chunk = []
    if chunk:
        yield dict_batch(chunk, schema)
