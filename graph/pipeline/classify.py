"""One pass over the raw messages that serves every stage of the analyze job.

    raw messages ──classify (one mapInArrow)──▶ one row per operation of an activity report
    or trace-route message (`op`), per statistics/accounting record (`stats`), per event
    (`event`), per activity-trace message (`trace`, its MQMD and data passed on), per
    unreadable message (`reject`, with the error the reports stage gives)

Each message is decoded by the stages in turn until one reads it: the reports stage first
unless the MQCFH Type (in the first four bytes, or after an MQEPH; either byte order) names
another stage's kind. The stages' kinds are told apart by that Type (activity report 12,
trace route 10, statistics 21, accounting 22, event 7, activity trace 26), so at most one
reads a message and the order changes only how many decoders an unusual message costs. A
message no stage reads is a reject with the reports stage's error: what the reports,
statistics, events and activity-trace stages each reading the whole input, and rejects
narrowed by anti-joins, gave. Statistics and event rows travel as JSON text (`side`, parsed
by `from_json` in the JVM) so the output keeps the operations' columns and a few more.
Imports: the stage modules' row functions; pyspark lazily.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterable, Iterator

from graph.pipeline.events import EVENT_COLUMNS, event_rows
from graph.pipeline.opvalues import operation_tuples
from graph.pipeline.rows import OPERATION_COLUMNS
from graph.pipeline.schema import arrow_schema, ddl, row_batch
from graph.pipeline.stats import STATS_COLUMNS, stats_rows
from pcf import mqc

OP, REJECT, STATS, EVENT, TRACE = "op", "reject", "stats", "event", "trace"
#: The classified rows: the kind, the operation columns, whether the row is its message's
#: first operation, the error of a reject, a side stage's row as JSON, a trace's MQMD+data.
CLASSIFIED_COLUMNS: tuple[tuple[str, str], ...] = (
    ("kind", "string"), *OPERATION_COLUMNS, ("first", "boolean"), ("error", "string"),
    ("side", "string"), ("md", "binary"), ("data", "binary"))

_REPORTS, _STATS, _EVENTS, _TRACE = range(4)
_ORDER = {  # MQCFH Type -> the stages to try, in order
    mqc.MQCFT_EVENT: (_EVENTS, _REPORTS, _STATS, _TRACE),
    mqc.MQCFT_STATISTICS: (_STATS, _REPORTS, _EVENTS, _TRACE),
    mqc.MQCFT_ACCOUNTING: (_STATS, _REPORTS, _EVENTS, _TRACE),
    mqc.MQCFT_APP_ACTIVITY: (_TRACE, _REPORTS, _STATS, _EVENTS)}
_DEFAULT_ORDER = (_REPORTS, _STATS, _EVENTS, _TRACE)
_EPH = (b"EPH ", b"\xc5\xd7\xc8\x40")  # an MQEPH's StrucId, ASCII or EBCDIC


def stage_order(data: bytes) -> tuple[int, ...]:
    """The stages to try on a message, most likely first: from the MQCFH Type in its first
    four bytes, or in the four after an MQEPH (at the MQEPH's StrucLength), either order."""
    at = 0
    if data[:4] in _EPH and len(data) >= 12:
        big = int.from_bytes(data[4:8], "little") != 1  # Version 1 in the message's order
        at = int.from_bytes(data[8:12], "big" if big else "little")
    head = data[at:at + 4]
    order = _ORDER.get(int.from_bytes(head, "little"))
    return order or _ORDER.get(int.from_bytes(head, "big"), _DEFAULT_ORDER)


def classify_message(md_raw: bytes | None, data: bytes | None, source: str, position: int,
                     error: str | None) -> tuple[str, object]:
    """(kind, what the message gives): (`op`, operation tuples), (`stats`|`event`, rows),
    (`trace`, None) or (`reject`, the error)."""
    from pcf.mqmd import unpack

    if error is not None:
        return REJECT, error
    try:
        md = unpack(md_raw) if md_raw is not None else None
    except Exception as e:
        return REJECT, f"{type(e).__name__}: {e}"
    data = data or b""
    report_error = None
    for stage in stage_order(data) if data else _DEFAULT_ORDER:
        if stage == _REPORTS:
            try:
                return OP, operation_tuples(md, data, source=source, position=position)
            except Exception as e:
                report_error = f"{type(e).__name__}: {e}"
        elif not data:
            continue  # the side stages skip empty messages
        elif stage == _TRACE:
            if _trace_rows(md_raw, data, source, position):
                return TRACE, None
        else:
            rows_of = stats_rows if stage == _STATS else event_rows
            try:
                rows = rows_of(md, data, source=source, position=position)
            except Exception:  # a PCFError or worse: the reports stage's error names it
                rows = None
            if rows:
                return (STATS if stage == _STATS else EVENT), rows
    return REJECT, report_error


def _trace_rows(md_raw: bytes | None, data: bytes, source: str, position: int) -> bool:
    from graph.pipeline.journeys import rows_of_message

    try:
        return bool(rows_of_message(md_raw, data, source, position))
    except Exception:
        return False


_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_TIME = re.compile(r"([01]\d|2[0-3])[.:]([0-5]\d)[.:]([0-5]\d|60)(?:[.:]\d{1,6})?")


def checked_date(text: object) -> str | None:
    """An OperationDate as read ('YYYY-MM-DD', a real day), else None: a date is a
    claim, and the `date` partition and every time made of it must be able to hold it."""
    if not isinstance(text, str):
        return None
    if not text:
        return text    # none given
    m = _DATE.fullmatch(text)
    if not m:
        return None
    try:
        datetime.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None
    return text


def checked_time(text: object) -> str | None:
    """An OperationTime as read ('HH:MM:SS' or 'HH.MM.SS', hundredths allowed), else None."""
    return text if isinstance(text, str) and (not text or _TIME.fullmatch(text)) else None


def classify_batches(batches: Iterator) -> Iterator:
    """mapInArrow body: raw message batches (inputs.RAW_COLUMNS) -> classified rows, in the
    order of their messages. An operation's date or time that is not one is null (the rest
    of its row kept). Activity reports and trace-route messages go through the compiled path
    when it is built (graph.pipeline.compiled: their rows straight from the bytes), every
    other message, and all of them without it, through `classify_message`."""
    from graph.pipeline import compiled

    schema = arrow_schema(CLASSIFIED_COLUMNS)
    for batch in batches:
        if compiled.available():
            yield _compiled_batch(batch, schema)
            continue
        names = batch.schema.names
        yield row_batch(schema, [row for _, row in _python_rows(
            *(batch.column(names.index(n)).to_pylist()
              for n in ("source", "position", "md", "data", "error")))])


def _python_rows(sources: list, positions: list, mds: list, datas: list, errors: list,
                 rows: Iterable[int] | None = None) -> Iterator[tuple[int, tuple]]:
    """(input row, classified row) of the messages at `rows` (default: all), each message's
    rows in order, by `classify_message`."""
    width = len(OPERATION_COLUMNS)
    at = {name: i for i, (name, _) in enumerate(OPERATION_COLUMNS)}
    day, clock = at["date"], at["time"]
    blank = [None] * width
    for i in range(len(sources)) if rows is None else rows:
        source, position, md_raw, data = sources[i], positions[i], mds[i], datas[i]
        kind, got = classify_message(md_raw, data, source, position, errors[i])
        if kind == OP:
            first = True
            for values in got:
                if checked_date(values[day]) is None or checked_time(values[clock]) is None:
                    values = list(values)
                    values[day] = checked_date(values[day])
                    values[clock] = checked_time(values[clock])
                yield i, (OP, *values, first, None, None, None, None)
                first = False
            continue
        row = blank.copy()
        row[at["source"]], row[at["position"]] = source, position
        if kind == REJECT:
            row[at["report_msg_id"]] = _msg_id(md_raw)
            yield i, (REJECT, *row, None, got, None, None, None)
        elif kind == TRACE:
            yield i, (TRACE, *row, None, None, None, md_raw, data)
        else:
            for r in got:
                yield i, (kind, *row, None, None, json.dumps(r), None, None)


def _compiled_batch(batch, schema):
    """classify_batches' output for one batch: the compiled operation rows, and
    `_python_rows` for the messages the compiled path leaves, merged in message order."""
    import pyarrow as pa

    from graph.pipeline import compiled

    column = batch.column
    names = batch.schema.names
    made, rest = compiled.operation_arrays(column(names.index("md")),
                                           column(names.index("data")),
                                           column(names.index("error")))
    rows = made["row"]
    n = len(rows)
    arrays = []
    for field in schema:
        name = field.name
        if name == "kind":
            arrays.append(pa.Array.from_buffers(pa.string(), n, [
                None, pa.py_buffer(_step_offsets(n, len(OP))), pa.py_buffer(OP.encode() * n)]))
        elif name in ("source", "position"):
            arrays.append(column(names.index(name)).take(rows).cast(field.type))
        elif name in made:
            arrays.append(made[name])
        else:
            arrays.append(pa.nulls(n, field.type))
    taken = pa.RecordBatch.from_arrays(arrays, schema=schema)
    if not len(rest):
        return taken
    listed = [column(names.index(c)).to_pylist()
              for c in ("source", "position", "md", "data", "error")]
    pairs = list(_python_rows(*listed, rows=rest.to_pylist()))
    others = row_batch(schema, [r for _, r in pairs])
    order = pa.concat_arrays([rows, pa.array([i for i, _ in pairs], pa.int32())])
    both = pa.Table.from_batches([taken, others]).combine_chunks()
    return both.take(order.to_numpy().argsort(kind="stable")).to_batches()[0] \
        if both.num_rows else taken


def _step_offsets(n: int, width: int) -> bytes:
    """Arrow int32 offsets of n strings of `width` bytes each."""
    import numpy as np

    return np.arange(0, (n + 1) * width, width, dtype=np.int32).tobytes()


def _msg_id(md: bytes | None) -> str | None:
    return md[48:72].hex() if md is not None and len(md) >= 72 else None


def classify(raw):
    """The classified rows of a raw-message DataFrame, persisted (memory and disk)."""
    from pyspark import StorageLevel

    return raw.mapInArrow(classify_batches, ddl(CLASSIFIED_COLUMNS)).persist(
        StorageLevel.MEMORY_AND_DISK)


def operations(classified):
    """The operations (rows.OPERATION_COLUMNS) of classified rows."""
    from pyspark.sql import functions as F

    return classified.filter(F.col("kind") == OP).select(*[n for n, _ in OPERATION_COLUMNS])


def rejects(classified):
    """The rejects (rows.REJECT_COLUMNS) of classified rows."""
    from pyspark.sql import functions as F

    return classified.filter(F.col("kind") == REJECT).select(
        "source", "position", F.col("report_msg_id").alias("msg_id"), "error")


def _side(classified, kind: str, columns):
    from pyspark.sql import functions as F

    return (classified.filter(F.col("kind") == kind)
            .select(F.from_json("side", ddl(columns)).alias("r")).select("r.*"))


def stats_frame(classified):
    """The statistics/accounting rows (stats.STATS_COLUMNS) of classified rows."""
    return _side(classified, STATS, STATS_COLUMNS)


def events_frame(classified):
    """The event rows (events.EVENT_COLUMNS) of classified rows."""
    return _side(classified, EVENT, EVENT_COLUMNS)


def trace_messages(classified):
    """The activity-trace messages of classified rows, as raw rows (inputs.RAW_COLUMNS)."""
    from pyspark.sql import functions as F

    return classified.filter(F.col("kind") == TRACE).select(
        "source", "position", "md", "data", F.lit(None).cast("string").alias("error"))

