"""What the side stages (events, statistics) do with raw messages on the executors.

A side stage turns each readable raw message into rows of its own table with a pure
per-message function; a message it cannot read is left to the activity stage, which names
unreadable messages among the rejects. Nothing here imports pyspark at module level.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial

from graph.pipeline.schema import arrow_schema, ddl

#: (MQMD or None, data, source, position) -> the rows of one message.
RowsOf = Callable[..., Iterable[dict]]


def _message_batches(batches: Iterator, *, columns: Sequence[tuple[str, str]],
                     rows_of: RowsOf) -> Iterator:
    import pyarrow as pa

    from pcf.mqmd import unpack

    schema = arrow_schema(columns)
    empty = dict.fromkeys(name for name, _ in columns)
    for batch in batches:
        out: list[dict] = []
        for row in batch.to_pylist():
            if row["error"] is not None or not row["data"]:
                continue
            try:
                md = unpack(row["md"]) if row["md"] is not None else None
                out.extend({**empty, **r} for r in rows_of(
                    md, row["data"], source=row["source"], position=row["position"]))
            except Exception:  # a PCFError or worse: one bad message never stops the job
                continue  # the activity stage names it among the rejects
        yield pa.RecordBatch.from_pylist(out, schema=schema)


def message_batches(columns: Sequence[tuple[str, str]], rows_of: RowsOf
                    ) -> Callable[[Iterator], Iterator]:
    """A mapInArrow body: raw message batches -> the rows `rows_of` makes of each message."""
    return partial(_message_batches, columns=tuple(columns), rows_of=rows_of)


def map_messages(raw, columns: Sequence[tuple[str, str]], rows_of: RowsOf):
    """The rows of every message of a raw-message DataFrame (inputs.RAW_COLUMNS)."""
    return raw.mapInArrow(message_batches(columns, rows_of), ddl(columns))
