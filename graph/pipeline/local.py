"""The single-process path over the same inputs as the Spark pipeline (no Spark).

It is the reference the Spark results are tested against, and the benchmark's baseline:
the same readers' logic, the same decoder, the same ordering code, in one Python process.
Parquet inputs are streamed a batch of rows at a time (pyarrow), like dumps a message at a time;
the records themselves are kept until every route is built.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from graph.pipeline.dumpsplit import Split, read_range
from graph.pipeline.rows import hop_rows, route_row
from pcf.errors import PCFError
from pcf.mqmd import unpack
from traceroute.records.parse import NotActivityData, Record, parse_message
from traceroute.routes.ordering import build_routes


@dataclass
class LocalResult:
    """Routes (as `routes` rows), hops, and rejects, from one process."""

    routes: list[dict] = field(default_factory=list)
    hops: list[dict] = field(default_factory=list)
    rejects: list[dict] = field(default_factory=list)
    messages: int = 0


def _records(inputs: Sequence[str], result: LocalResult) -> Iterator[Record]:
    from graph.pipeline.inputs import classify_inputs

    dumps, raws, parquets = classify_inputs(inputs)
    entries = (e for p in dumps for e in read_range(Split(p, 0, Path(p).stat().st_size)))
    for e in entries:
        result.messages += 1
        if e.error is not None:
            result.rejects.append({"source": e.source, "position": e.offset, "error": e.error})
            continue
        try:
            yield parse_message(e.md, e.data or b"", source=e.source, line=e.offset)
        except (PCFError, NotActivityData) as err:
            result.rejects.append({"source": e.source, "position": e.offset,
                                   "error": f"{type(err).__name__}: {err}"})
    for path in raws:
        result.messages += 1
        try:
            yield parse_message(None, Path(path).read_bytes(), source=path, line=0)
        except (PCFError, NotActivityData) as err:
            result.rejects.append({"source": path, "position": 0,
                                   "error": f"{type(err).__name__}: {err}"})
    for path in parquets:
        yield from _parquet_records(path, result)


def _column(batch, name: str) -> list | None:
    """A column of a record batch as Python values; None when the batch has no such column."""
    if name not in batch.schema.names:
        return None
    return batch.column(name).to_pylist()


#: Rows per batch read from Parquet: what is decoded at a time (a row group at most is buffered).
PARQUET_BATCH_ROWS = 4096


def _parquet_files(path: str) -> list[Path]:
    """A Parquet file, or the Parquet files under a folder (as Spark writes them), sorted."""
    p = Path(path)
    if p.is_file():
        return [p]
    return sorted(f for f in p.rglob("*.parquet") if f.is_file()
                  and not any(part.startswith((".", "_")) for part in f.relative_to(p).parts))


def _parquet_records(path: str, result: LocalResult, *, data_column: str = "data",
                     md_column: str = "md") -> Iterator[Record]:
    """Records of Parquet rows (binary message data, optional packed MQMD, source, position).

    The columns are those `graph.pipeline.inputs.read_parquet` reads. Without a `source` column the
    file's path is the source, without `position` the row's index in its file (Spark numbers
    such rows differently, so rejects may then name other positions).
    """
    import pyarrow.parquet as pq

    for file in _parquet_files(path):
        pf = pq.ParquetFile(file)
        names = set(pf.schema_arrow.names)
        if data_column not in names:
            raise ValueError(f"{file}: no {data_column!r} column (has {', '.join(sorted(names))})")
        columns = [c for c in ("source", "position", md_column, data_column) if c in names]
        row = 0
        for batch in pf.iter_batches(batch_size=PARQUET_BATCH_ROWS, columns=columns):
            n = batch.num_rows
            sources = _column(batch, "source") or [str(file)] * n
            positions = _column(batch, "position") or list(range(row, row + n))
            mds = _column(batch, md_column) or [None] * n
            datas = _column(batch, data_column)
            row += n
            for source, position, md, data in zip(sources, positions, mds, datas, strict=True):
                result.messages += 1
                try:
                    yield parse_message(unpack(md) if md is not None else None, data or b"",
                                        source=source, line=position)
                except (PCFError, NotActivityData) as err:
                    result.rejects.append({"source": source, "position": position,
                                           "error": f"{type(err).__name__}: {err}"})


def run_local(inputs: Sequence[str]) -> LocalResult:
    """Every route of the inputs, in this process."""
    result = LocalResult()
    routes = build_routes(_records(inputs, result))
    for route in routes:
        result.routes.append(route_row(route))
        result.hops.extend(hop_rows(route))
    return result
