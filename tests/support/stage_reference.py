"""The per-stage decoders the analyze job used before the one pass, kept as the reference
`graph.pipeline.classify` is tested against, and the Record path's operation rows
(`operation_values`: a parsed Record flattened) that classify's flat rows are tested against.

`decode_batches` is the reports stage's mapInArrow body (operation rows, and reject rows with
the error; it reads its batches row by row, the job's read them column-wise: the same
values), `message_batches` the side stages' (events, statistics): each read every message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial

from graph.pipeline.rows import OPERATION_COLUMNS, OPERATION_NAMES
from graph.pipeline.schema import arrow_schema
from traceroute.records.parse import Record


def operation_rows(record: Record, *, position: int | None = None) -> Iterator[dict]:
    """One row per operation of every activity of the record."""
    names = OPERATION_NAMES
    for values in operation_values(record, position=position):
        yield dict(zip(names, values, strict=True))


def operation_values(record: Record, *, position: int | None = None) -> Iterator[tuple]:
    """operation_rows' rows as tuples in OPERATION_COLUMNS order (no dict per row)."""
    report_id = _hex(record.md.msg_id) if record.md is not None else None
    final = record.trace_route.counters if record.trace_route else None
    f0, f1, f2 = final if final else (None, None, None)
    key, kind, source = record.key.hex(), record.kind, record.source
    pos = position if position is not None else record.line
    for a_index, activity in enumerate(record.activities):
        counters = activity.trace_route.counters if activity.trace_route else None
        c0, c1, c2 = counters if counters else (None, None, None)
        appl_name, appl_type, desc = activity.appl_name, activity.appl_type, activity.description
        for o_index, op in enumerate(activity.operations):
            md, emb = op.md, op.embedded_md
            yield (key, kind, report_id, source, pos, a_index, c0, c1, c2,
                   appl_name, appl_type, desc, o_index,
                   op.type, op.name, op.date, op.time, op.qmgr, op.queue,
                   op.resolved_queue, op.remote_queue, op.remote_qmgr, op.topic,
                   op.channel, op.channel_type, op.xmit_queue, op.feedback,
                   md.msg_id.hex() if md is not None else None,
                   emb.msg_id.hex() if emb is not None else None,
                   emb is not None, f0, f1, f2,
                   op.sub_id.hex() if op.sub_id is not None else None, op.sub_level)


def _hex(value: bytes | None) -> str | None:
    return value.hex() if value is not None else None


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
