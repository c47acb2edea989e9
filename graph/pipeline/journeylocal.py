"""Application activity trace in one process: the calls/ and journeys/ rows `run_local` gives.

The same row functions as the Spark stage (`graph.pipeline.journeys`), on every message of
the inputs in this process: `run_local` holds every row in memory (small inputs, notebooks);
`stream_local` spills the rows into buckets by journey key (`graph.pipeline.journeyspill`)
and writes calls/ and journeys/ as Parquet with memory bounded by a bucket.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from graph.pipeline.journeys import TABLE_COLUMNS, rows_of_message
from graph.pipeline.journeyspill import (
    BYTES_PER_CALL,
    SpillResult,
    buckets_for,
    call_batches_of,
    stream_journeys,
)
from traceroute.journeys.rows import journeys_of_rows, link_reply_rows


def local_tables(messages: Iterator[tuple[bytes | None, bytes, str, int]]
                 ) -> tuple[list[dict], list[dict]]:
    """(calls rows, journeys rows) of (packed MQMD, data, source, position) messages."""
    calls: list[dict] = []
    for md, data, source, position in messages:
        calls.extend(rows_of_message(md, data, source, position) or ())
    journeys = journeys_of_rows(calls)
    link_reply_rows(journeys)
    keep = [name for name, _ in TABLE_COLUMNS]
    return calls, [{k: r[k] for k in keep} for r in journeys]


def local_messages(inputs: Sequence[str], listing=None
                   ) -> Iterator[tuple[bytes | None, bytes, str, int]]:
    """The readable messages of dumps and raw files as the Spark readers see them (of
    `listing` when given: `list_inputs(inputs)` made already)."""
    from graph.pipeline.dumpsplit import Split, read_range
    from graph.pipeline.inputs import list_inputs, pack_md, read_raw

    if listing is None:
        listing = list_inputs(inputs)
    for d in listing.dumps:
        for e in read_range(Split(d.uri, 0, d.size, d.size, d.mtime_ns)):
            if e.error is None and e.md is not None:
                yield pack_md(e.md), e.data or b"", e.source, e.offset
            elif e.error is None:
                yield None, e.data or b"", e.source, e.offset
    for entry in listing.raws:
        data, error = read_raw(entry)
        if error is None:
            yield None, data, entry.uri, 0


def run_local(inputs: Sequence[str]) -> tuple[list[dict], list[dict]]:
    """calls and journeys rows of the inputs, in this process."""
    return local_tables(local_messages(inputs))


def stream_local(inputs: Sequence[str], out: str | Path | None = None, *,
                 buckets: int | None = None, temp_dir: str | Path | None = None,
                 on_calls: Callable[[object], None] | None = None,
                 on_journeys: Callable[[object], None] | None = None) -> SpillResult:
    """calls/ and journeys/ of the inputs under `out` (Parquet), memory bounded by one of
    `buckets` spill buckets (from the input size when not given)."""
    from graph.pipeline.inputs import list_inputs

    listing = list_inputs(inputs)
    if buckets is None:
        size = sum(e.size or 0 for e in (*listing.dumps, *listing.raws))
        buckets = buckets_for(size // BYTES_PER_CALL)
    rows = (r for m in local_messages(inputs, listing) for r in rows_of_message(*m) or ())
    return stream_journeys(call_batches_of(rows), buckets=buckets, out=out,
                           temp_dir=temp_dir, on_calls=on_calls, on_journeys=on_journeys)


def run_streaming(inputs: Sequence[str], *, buckets: int | None = None,
                  temp_dir: str | Path | None = None) -> tuple[list[dict], list[dict]]:
    """`run_local`'s rows computed by `stream_local` (collected: for tests and comparisons)."""
    calls: list[dict] = []
    journeys: list[dict] = []
    stream_local(inputs, buckets=buckets, temp_dir=temp_dir,
                 on_calls=lambda t: calls.extend(t.to_pylist()),
                 on_journeys=lambda t: journeys.extend(t.to_pylist()))
    return calls, journeys
