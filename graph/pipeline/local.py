"""The single-process path over the same inputs as the Spark pipeline (no Spark).

It is the reference the Spark results are tested against, and the benchmark's baseline:
the same readers' logic, the same decoder, the same ordering code, in one Python process.
Parquet inputs are streamed a batch of rows at a time (pyarrow), like dumps a message at a time.
Records are grouped by original MsgId in a bounded window (`WINDOW_RECORDS`). When it is full,
the messages seen longest ago leave it: each one's route is built at once, and its raw
messages (MQMD, data, source, position) are written to a run on disk sorted by MsgId. Only a
message that shows up again later (more reports after it left the window) needs the runs: its
early route is dropped, and it is built again from its spilled messages, parsed again, and
the records of it still in the window. Peak memory is the window's, whatever the input's size;
the answers are those of an unbounded window.
"""

from __future__ import annotations

import gc
import heapq
import itertools
import os
import pickle
import tempfile
from collections.abc import Iterator, Sequence

from graph.pipeline import storage
from graph.pipeline.dumpsplit import read_range, splits
from graph.pipeline.rows import (
    HOP_COLUMNS,
    ROUTE_COLUMNS,
    route_values,
)
from pcf.errors import PCFError
from pcf.mqmd import unpack
from traceroute.records.parse import NotActivityData, Record, parse_message
from traceroute.routes.ordering import route_of

#: Rows of routes or hops gathered before they are packed into an Arrow batch.
RESULT_BATCH_ROWS = 8192


class _Table:
    """Rows (tuples in `columns` order) appended one by one, kept as Arrow record batches."""

    def __init__(self, columns: tuple[tuple[str, str], ...]) -> None:
        self.columns = columns
        self.batches: list = []
        self.pending: list[tuple] = []
        self.count = 0

    def add(self, row: tuple) -> None:
        self.pending.append(row)
        self.count += 1
        if len(self.pending) >= RESULT_BATCH_ROWS:
            self._pack()

    def extend(self, rows: list[tuple]) -> None:
        self.pending.extend(rows)
        self.count += len(rows)
        if len(self.pending) >= RESULT_BATCH_ROWS:
            self._pack()

    def _pack(self) -> None:
        from graph.pipeline.schema import arrow_schema, row_batch

        if self.pending:
            self.batches.append(row_batch(arrow_schema(self.columns), self.pending))
            self.pending = []

    def table(self):
        """Every row so far as a pyarrow Table."""
        import pyarrow as pa

        from graph.pipeline.schema import arrow_schema

        self._pack()
        return pa.Table.from_batches(self.batches, schema=arrow_schema(self.columns))

    def drop(self, keys: set[bytes]) -> None:
        """Forget the rows whose correl_id is one of these keys."""
        import pyarrow as pa
        import pyarrow.compute as pc

        self._pack()
        hexes = pa.array(sorted(k.hex() for k in keys), pa.string())
        kept = [b.filter(pc.invert(pc.is_in(b.column("correl_id"), value_set=hexes)))
                for b in self.batches]
        self.batches = [b for b in kept if b.num_rows]
        self.count = sum(b.num_rows for b in self.batches)

    def rows(self) -> list[dict]:
        names = [n for n, _ in self.columns]
        return [r for b in self.batches for r in b.to_pylist()] + [
            dict(zip(names, r, strict=True)) for r in self.pending]


class LocalResult:
    """Routes (as `routes` rows), hops, and rejects, from one process.

    Routes and hops are held column-wise (Arrow); `routes` and `hops` give them as rows
    (made on each access: for tests and small inputs), `route_table()`/`hop_table()` as tables.
    """

    def __init__(self) -> None:
        self._routes = _Table(ROUTE_COLUMNS)
        self._hops = _Table(HOP_COLUMNS)
        self.rejects: list[dict] = []
        self.messages = 0
        #: z/OS SMF tables (graph.pipeline.smf): structure -> pyarrow Table
        self.smf: dict[str, object] = {}

    @property
    def routes(self) -> list[dict]:
        """The `routes` rows, in the order built."""
        return self._routes.rows()

    @property
    def hops(self) -> list[dict]:
        """The `hops` rows, in the order built."""
        return self._hops.rows()

    @property
    def route_count(self) -> int:
        """How many routes (without making their rows)."""
        return self._routes.count

    @property
    def hop_count(self) -> int:
        """How many hops (without making their rows)."""
        return self._hops.count

    def drop_routes(self, keys: set[bytes]) -> None:
        """Forget the routes and hops of these original MsgIds."""
        self._routes.drop(keys)
        self._hops.drop(keys)

    def route_table(self):
        """The routes as a pyarrow Table (ROUTE_COLUMNS)."""
        return self._routes.table()

    def hop_table(self):
        """The hops as a pyarrow Table (HOP_COLUMNS)."""
        return self._hops.table()


def _reject(result: LocalResult, source: str, position: int, error: str) -> None:
    result.rejects.append({"source": source, "position": position, "error": error})


def _parse(result: LocalResult, md, data: bytes, source: str, position: int
           ) -> Iterator[tuple[Record, bytes]]:
    try:
        yield parse_message(md, data, source=source, line=position), data
    except (PCFError, NotActivityData) as err:
        _reject(result, source, position, f"{type(err).__name__}: {err}")
    except Exception as err:
        _reject(result, source, position, f"{type(err).__name__}: {err}")


def _records(inputs: Sequence[str], result: LocalResult
             ) -> Iterator[tuple[Record, bytes]]:
    """(record, the message data it was parsed from) of every message; rejects as they come."""
    from graph.pipeline.inputs import DEFAULT_SPLIT_BYTES, list_inputs, parquet_groups, read_raw

    listing = list_inputs(inputs)
    if listing.empty:
        detail = "; ".join(error for _, error in listing.problems)
        raise storage.StorageError(", ".join(inputs), detail or "no input files")
    for uri, error in listing.problems:
        result.messages += 1
        _reject(result, uri, 0, error)
    # ranges as on Spark: a dump of any size is read a range at a time, in bounded memory
    entries = (e for part in splits(listing.dumps, DEFAULT_SPLIT_BYTES)
               for e in read_range(part))
    for e in entries:
        result.messages += 1
        if e.error is not None:
            _reject(result, e.source, e.offset, e.error)
            continue
        yield from _parse(result, e.md, e.data or b"", e.source, e.offset)
    for entry in listing.raws:
        result.messages += 1
        data, error = read_raw(entry)
        if error is not None:
            _reject(result, entry.uri, 0, error)
            continue
        yield from _parse(result, None, data, entry.uri, 0)
    if listing.smf:  # the smf/ tables, by the same ranges and decoder as on Spark
        from graph.pipeline.smf import local_tables

        result.smf, smf = local_tables(listing.smf, DEFAULT_SPLIT_BYTES)
        for source, position, error in smf.problems:
            _reject(result, source, position, error)
    if listing.parquets:
        groups, bad = parquet_groups(listing.parquets)
        for uri, error in bad:
            result.messages += 1
            _reject(result, uri, 0, error)
        for files in groups:
            for path in files:
                yield from _parquet_records(path, result)


def _column(batch, name: str) -> list | None:
    """A column of a record batch as Python values; None when the batch has no such column."""
    if name not in batch.schema.names:
        return None
    return batch.column(name).to_pylist()


#: Rows per batch read from Parquet: what is decoded at a time (a row group at most is buffered).
PARQUET_BATCH_ROWS = 4096


def _parquet_records(uri: str, result: LocalResult, *, data_column: str = "data",
                     md_column: str = "md") -> Iterator[tuple[Record, bytes]]:
    """Records of Parquet rows (binary message data, optional packed MQMD, source, position).

    The columns are those `graph.pipeline.inputs.read_parquet` reads. Without a `source` column the
    file's path is the source, without `position` the row's index in its file (Spark numbers
    such rows differently, so rejects may then name other positions).
    """
    import pyarrow.parquet as pq

    with storage.open_input(uri) as f:
        pf = pq.ParquetFile(f)
        names = set(pf.schema_arrow.names)
        columns = [c for c in ("source", "position", md_column, data_column) if c in names]
        row = 0
        for batch in pf.iter_batches(batch_size=PARQUET_BATCH_ROWS, columns=columns):
            n = batch.num_rows
            sources = _column(batch, "source") or [uri] * n
            positions = _column(batch, "position") or list(range(row, row + n))
            mds = _column(batch, md_column) or [None] * n
            datas = _column(batch, data_column)
            row += n
            for source, position, md, data in zip(sources, positions, mds, datas, strict=True):
                result.messages += 1
                try:
                    header = unpack(md) if md is not None else None
                except PCFError as err:
                    _reject(result, source, position, f"{type(err).__name__}: {err}")
                    continue
                yield from _parse(result, header, data or b"", source, position)


#: Records held in memory at most while grouping by original MsgId (then the oldest spill).
WINDOW_RECORDS = 20_000
#: Messages per Arrow batch of a spilled run (what a merge holds of each run: ~1.5 MB).
SPILL_BATCH_ROWS = 512
#: Rows made into dicts at once by the final merge, over all runs together.
MERGE_ROWS = 16_384


def _add_route(result: LocalResult, key: bytes, records: list[Record]) -> dict | None:
    """The route of one message into `result`, or a reject naming its first message (returned)."""
    try:
        route = route_of(key, records)
    except Exception as err:  # one message without a route is a reject, as on Spark
        first = min(records, key=lambda r: (r.source or "", r.line or 0))
        _reject(result, first.source, first.line,
                f"route of message {key.hex()}: {type(err).__name__}: {err}")
        return result.rejects[-1]
    row, hops = route_values(route)
    result._routes.add(row)
    result._hops.extend(hops)
    return None


SPILL_COLUMNS = (("key", "binary"), ("md", "binary"), ("data", "binary"),
                 ("source", "string"), ("position", "long"))


class _Spill:
    """Raw messages of the messages that left the window, in runs sorted by original MsgId
    (Arrow IPC files in a private temporary folder)."""

    def __init__(self) -> None:
        self.folder: tempfile.TemporaryDirectory | None = None
        self.runs: list[str] = []
        self.keys: set[bytes] = set()

    def write(self, groups: dict[bytes, list[tuple[Record, bytes]]]) -> None:
        """One run of these messages' raw messages, sorted by original MsgId."""
        import pyarrow as pa

        from graph.pipeline.schema import arrow_schema, row_batch

        if self.folder is None:
            self.folder = tempfile.TemporaryDirectory(prefix="mqroute-local-")
        path = os.path.join(self.folder.name, f"run{len(self.runs):05d}.arrow")
        schema = arrow_schema(SPILL_COLUMNS)
        rows = ((key, None if r.md is None else pickle.dumps(r.md, pickle.HIGHEST_PROTOCOL),
                 data, r.source, r.line)
                for key in sorted(groups) for r, data in groups[key])
        with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, schema) as writer:
            while chunk := list(itertools.islice(rows, SPILL_BATCH_ROWS)):
                writer.write_batch(row_batch(schema, chunk))
        self.runs.append(path)
        self.keys.update(groups)

    def messages(self, wanted: set[bytes]) -> Iterator[tuple[bytes, list[tuple]]]:
        """(key, its spilled (md, data, source, position)) of the wanted keys, in key order;
        one message's rows in memory at a time, plus a slice of each run."""
        if not wanted:
            return
        step = max(16, MERGE_ROWS // max(1, len(self.runs)))
        merged = heapq.merge(*(_run_rows(p, step) for p in self.runs), key=lambda r: r[0])
        for key, group in itertools.groupby(merged, key=lambda r: r[0]):
            if key in wanted:
                yield key, [r[1:] for r in group]

    def close(self) -> None:
        if self.folder is not None:
            self.folder.cleanup()


def _run_rows(path: str, step: int) -> Iterator[tuple]:
    """A run's rows as tuples, `step` rows made at a time."""
    import pyarrow as pa

    with pa.OSFile(path, "rb") as source:  # read, not mapped: a run's pages stay out of RSS
        reader = pa.ipc.open_file(source)
        for i in range(reader.num_record_batches):
            batch = reader.get_batch(i)
            for start in range(0, batch.num_rows, step):
                part = batch.slice(start, step)
                yield from zip(*(c.to_pylist() for c in part.columns), strict=True)


def _reparse(key: bytes, spilled: list[tuple]) -> list[Record]:
    """The records of spilled raw messages, parsed again (they parsed the first time)."""
    return [parse_message(None if md is None else pickle.loads(md), data, source=source,
                          line=position) for md, data, source, position in spilled]


def run_local(inputs: Sequence[str], *, window: int | None = None) -> LocalResult:
    """Every route of the inputs, in this process, in bounded memory (see the module's text).

    `window` is the number of records held at most (default `WINDOW_RECORDS`).
    """
    limit = WINDOW_RECORDS if window is None else max(1, window)
    result = LocalResult()
    by_key: dict[bytes, list[tuple[Record, bytes]]] = {}
    held = 0
    spill = _Spill()
    again: set[bytes] = set()  # spilled messages that came back: built again at the end
    early_rejects: dict[bytes, dict] = {}
    # The cycle collector, left on, scanned the whole window again and again (half the time);
    # the only cycles are the ordering code's, made while a route is built: one young-object
    # collection after each batch of routes frees them.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for record, data in _records(inputs, result):
            key = record.key
            if key in spill.keys:
                again.add(key)
            by_key.setdefault(key, []).append((record, data))
            held += 1
            if held > limit:  # the messages seen longest ago leave, half the window at once
                out: dict[bytes, list[tuple[Record, bytes]]] = {}
                for k in list(by_key):
                    if held <= limit // 2:
                        break
                    out[k] = by_key.pop(k)
                    held -= len(out[k])
                    if k not in again:  # built now; again if it comes back
                        reject = _add_route(result, k, [r for r, _ in out[k]])
                        if reject is not None:
                            early_rejects[k] = reject
                spill.write(out)
                gc.collect(0)
        if again:
            result.drop_routes(again)
            dropped = {id(early_rejects[k]) for k in again if k in early_rejects}
            result.rejects = [r for r in result.rejects if id(r) not in dropped]
        for key in [k for k in by_key if k not in again]:
            _add_route(result, key, [r for r, _ in by_key.pop(key)])
        for key, spilled in spill.messages(again):
            rest = [r for r, _ in by_key.pop(key, ())]
            _add_route(result, key, _reparse(key, spilled) + rest)
    finally:
        spill.close()
        if collecting:
            gc.enable()
    return result
