"""Rows as typed columns (Apache Arrow): one table per structure, IBM's formatter's column names.

Every table starts with the record's columns (recordType, recordSubType, structure, date, time,
lpar, qmgr, qsg, mqVersion, and for statistics intervalStartDate, intervalStartTime,
intervalDuration), then the structure's own, named as IBM's formatter's JSON keys. Types:
numbers int64 (STCK durations in microseconds), times of day a date32 NAMEDate and a
time64[us] NAMETime column (UTC; null when unset), EBCDIC text as text without its padding,
binary identifiers in hexadecimal, IBM's names for enumerations and flags, lists as list
columns. Fields that a record's MQ version does not have are null (IBM's formatter prints -1
or dots).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import cache

from traceroute.smf.clock import EPOCH_1970, PER_MICROSECOND, smf_date, smf_day
from traceroute.smf.decode import Header, Row
from traceroute.smf.layout import ENUMS, INTEGER_KINDS, Field, layout
from traceroute.smf.text import clean

#: Which record type each structure comes from.
STATISTICS_STRUCTURES = frozenset({"QSST", "QJST", "QMST", "QIST", "QPST", "QLST", "Q5ST",
                                   "QEST", "QTST", "QESD", "QIS1", "QQST", "QSPH", "QSGM", "QSRS",
                                   "QCCT", "QCTDSP", "QCTADP", "QCTSSL", "QCTDNS"})


def _pa():
    import pyarrow as pa  # the spark, pictures and test extras install it
    return pa


def _kind_type(f: Field):
    pa = _pa()
    if f.kind in INTEGER_KINDS:
        return pa.int64()
    return pa.string()


def _columns(name: str) -> list[tuple[str, object, list[int], Field | None, str]]:
    """(column, Arrow type, value positions, field, part) of a structure's own columns;
    part is "date"/"time" for the two columns of a time of day, "" otherwise."""
    pa = _pa()
    lay = layout(name)
    order: dict[str, tuple[str, object, list[int], Field, str]] = {}
    for i, f in enumerate(lay.fields):
        parts = (("Date", pa.date32(), "date"), ("Time", pa.time64("us"), "time")) \
            if f.kind == "time" else (("", _kind_type(f), ""),)
        for suffix, typ, part in parts:
            column = f.name + suffix
            if column in order:
                order[column][2].append(i)
            else:
                order[column] = (column, typ, [i], f, part)
    return [(c, pa.list_(t) if f.array else t, p, f, part)
            for c, t, p, f, part in order.values()]


@cache
def schema(name: str):
    """The Arrow schema of structure `name`'s table."""
    pa = _pa()
    fields = [pa.field("recordType", pa.int32()), pa.field("recordSubType", pa.int32()),
              pa.field("structure", pa.string()), pa.field("date", pa.date32()),
              pa.field("time", pa.time64("us")), pa.field("lpar", pa.string()),
              pa.field("qmgr", pa.string()), pa.field("qsg", pa.string()),
              pa.field("mqVersion", pa.string())]
    if name in STATISTICS_STRUCTURES:
        fields += [pa.field("intervalStartDate", pa.date32()),
                   pa.field("intervalStartTime", pa.time64("us")),
                   pa.field("intervalDuration", pa.int64())]
    fields += [pa.field(c, t) for c, t, *_ in _columns(name)]
    return pa.schema(fields)


def _moments(values: list) -> tuple:
    """STCK times of day (None: unset) as (date32, time64[us]) arrays, null when unset or
    before 1970: computed in Arrow, not value by value."""
    import pyarrow.compute as pc

    pa = _pa()
    raw = pa.array(values, type=pa.uint64())
    epoch = pa.scalar(EPOCH_1970, pa.uint64())
    valid = pc.and_kleene(pc.is_valid(raw), pc.greater_equal(raw, epoch))
    safe = pc.if_else(valid, raw, epoch)
    micros = pc.divide(pc.subtract(safe, epoch), pa.scalar(PER_MICROSECOND, pa.uint64()))
    moment = pc.if_else(valid, micros.cast(pa.int64()).cast(pa.timestamp("us")),
                        pa.scalar(None, pa.timestamp("us")))
    return moment.cast(pa.date32()), moment.cast(pa.time64("us"))


class _Text:
    """EBCDIC text to table text, each distinct value converted once."""

    def __init__(self) -> None:
        self.seen: dict[bytes, str] = {}

    def __call__(self, raw: bytes | None) -> str | None:
        if raw is None:
            return None
        text = self.seen.get(raw)
        if text is None:
            text = self.seen[raw] = clean(raw)
        return text


def _days(packed: list[bytes]) -> list:
    seen: dict[bytes, object] = {}
    out = []
    for raw in packed:
        if raw not in seen:
            parsed = smf_date(raw)
            seen[raw] = parsed and smf_day(*parsed)
        out.append(seen[raw])
    return out


def _common_arrays(name: str, rows: list[Row], text: _Text) -> list:
    """The record's columns of each row, as Arrow arrays (a record's rows share a header)."""
    pa = _pa()
    headers: list[Header] = []
    texts: list[tuple] = []
    last = None
    names: tuple = ()
    for r in rows:  # a record's rows share its header: its text converted once
        if r.header is not last:
            last = r.header
            names = (text(last.lpar), text(last.qmgr), text(last.qsg), text(last.version))
        headers.append(last)
        texts.append(names)
    lpars, qmgrs, qsgs, versions = zip(*texts, strict=True) if texts else ((),) * 4
    types = schema(name)
    out = [pa.array([h.type for h in headers], type=pa.int32()),
           pa.array([h.subtype for h in headers], type=pa.int32()),
           pa.array([name] * len(rows), type=pa.string()),
           pa.array(_days([h.date for h in headers]), type=pa.date32()),
           pa.array([h.time * 10_000 for h in headers], type=pa.int64()).cast(
               pa.time64("us")),
           pa.array(lpars, type=pa.string()), pa.array(qmgrs, type=pa.string()),
           pa.array(qsgs, type=pa.string()), pa.array(versions, type=pa.string())]
    if name in STATISTICS_STRUCTURES:
        dates, times = _moments([h.interval_start or None for h in headers])
        out += [dates, times, pa.array([h.interval_duration if h.interval_start else None
                                        for h in headers], type=types.field(11).type)]
    return out


def _converter(f: Field, text: _Text):
    """A function turning a raw value of field f into its table value (None: as it is)."""
    kind = f.kind
    if kind in ("ebcdic", "ebcdicif"):
        return text
    if kind in ("hex", "correlator"):
        return lambda v: None if v is None else v.hex().upper()
    if kind == "enum":
        names = ENUMS[f.args[0]]
        return lambda v: None if v is None else names.get(v, "")
    return None


def rows_to_table(name: str, rows: Iterable[Row]):
    """The rows of one structure (all named `name`) as an Arrow table of `schema(name)`."""
    pa = _pa()
    rows = list(rows)
    text = _Text()
    arrays = _common_arrays(name, rows, text)
    # one transposition in C: the values of each field across the rows
    by_field = list(zip(*(r.values for r in rows), strict=True)) if rows else \
        [()] * len(layout(name).fields)
    moments: dict[int, tuple] = {}
    for _column, typ, positions, f, part in _columns(name):
        if f.kind == "time":
            key = positions[0]
            if key not in moments:
                values = by_field[key] if not f.array else itertools.chain.from_iterable(
                    zip(*(by_field[i] for i in positions), strict=True))
                moments[key] = _moments([v or None for v in values])
            column = moments[key][0 if part == "date" else 1]
            if f.array:
                offsets = pa.array(range(0, len(rows) * len(positions) + 1, len(positions)),
                                   type=pa.int32())
                column = pa.ListArray.from_arrays(offsets, column)
            arrays.append(column)
            continue
        convert = _converter(f, text)
        if f.array:  # the elements row after row, then cut into lists: no tuple per row
            columns = [by_field[i] if convert is None else list(map(convert, by_field[i]))
                       for i in positions]
            flat = pa.array(list(itertools.chain.from_iterable(zip(*columns, strict=True))),
                            type=typ.value_type)
            offsets = pa.array(range(0, len(rows) * len(positions) + 1, len(positions)),
                               type=pa.int32())
            arrays.append(pa.ListArray.from_arrays(offsets, flat))
            continue
        data = by_field[positions[0]]
        if convert is not None:
            data = list(map(convert, data))
        arrays.append(pa.array(data, type=typ))
    return pa.Table.from_arrays(arrays, schema=schema(name))


def table_rows(tables: dict[str, list[Row]]) -> dict[str, object]:
    """Rows grouped by structure as {structure: Arrow table}."""
    return {name: rows_to_table(name, rows) for name, rows in tables.items() if rows}
