"""Application activity trace in one process: the calls/ and journeys/ rows `run_local` gives.

The same row functions as the Spark stage (`graph.pipeline.journeys`), on every message of
the inputs in this process.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from graph.pipeline.journeys import TABLE_COLUMNS, rows_of_message
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


def local_messages(inputs: Sequence[str]) -> Iterator[tuple[bytes | None, bytes, str, int]]:
    """The readable messages of dumps and raw files as the Spark readers see them."""
    from graph.pipeline.dumpsplit import Split, read_range
    from graph.pipeline.inputs import list_inputs, pack_md, read_raw

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
