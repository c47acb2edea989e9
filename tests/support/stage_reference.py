"""The per-stage decoders the analyze job used before the one pass, kept as the reference
`graph.pipeline.classify` is tested against.

`decode_batches` is the reports stage's mapInArrow body (operation rows, and reject rows with
the error; it reads its batches row by row, the job's read them column-wise: the same
values), `message_batches` the side stages' (events, statistics): each read every message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial

from graph.pipeline.rows import OPERATION_COLUMNS, operation_values
from graph.pipeline.schema import arrow_schema

DECODED_COLUMNS = (*OPERATION_COLUMNS, ("error", "string"), ("rejected", "boolean"))

#: (MQMD or None, data, source, position) -> the rows of one message.
RowsOf = Callable[..., Iterable[dict]]


def decode_batches(batches: Iterator) -> Iterator:
    """The reports stage: raw message batches -> operation rows and reject rows."""
    import pyarrow as pa

    from pcf.errors import PCFError
    from pcf.mqmd import unpack
    from traceroute.records.parse import NotActivityData, parse_message

    schema = arrow_schema(DECODED_COLUMNS)
    width = len(OPERATION_COLUMNS)
    at = {name: i for i, (name, _) in enumerate(OPERATION_COLUMNS)}
    for batch in batches:
        out: list[tuple] = []
        for row in batch.to_pylist():  # row-wise here; the job's body went column-wise
            source, position, md_raw, data, error = (
                row["source"], row["position"], row["md"], row["data"], row["error"])
            if error is None:
                try:
                    md = unpack(md_raw) if md_raw is not None else None
                    record = parse_message(md, data or b"", source=source, line=position)
                    out.extend((*values, None, False)
                               for values in operation_values(record, position=position))
                    continue
                except (PCFError, NotActivityData) as e:
                    error = f"{type(e).__name__}: {e}"
                except Exception as e:
                    error = f"{type(e).__name__}: {e}"
            reject = [None] * width + [error, True]
            reject[at["source"]], reject[at["position"]] = source, position
            reject[at["report_msg_id"]] = (md_raw[48:72].hex() if md_raw is not None
                                           and len(md_raw) >= 72 else None)
            out.append(tuple(reject))
        columns = list(zip(*out, strict=True)) if out else [()] * len(schema)
        yield pa.RecordBatch.from_arrays(
            [pa.array(c, type=f.type) for c, f in zip(columns, schema, strict=True)],
            schema=schema)


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
    """A side stage: raw message batches -> the rows `rows_of` makes of each message."""
    return partial(_message_batches, columns=tuple(columns), rows_of=rows_of)
