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

from collections.abc import Iterable
from functools import cache

from traceroute.smf.clock import smf_date, smf_day, smf_time, stck_datetime
from traceroute.smf.decode import Header, Row
from traceroute.smf.layout import ENUMS, INTEGER_KINDS, Field, layout
from traceroute.smf.text import clean

#: Which record type each structure comes from.
STATISTICS_STRUCTURES = frozenset({"QSST", "QJST", "QMST", "QIST", "QPST", "QLST", "Q5ST",
                                   "QEST", "QTST", "QESD", "QIS1", "QSPH", "QSGM", "QSRS",
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


def _header_values(h: Header) -> tuple:
    parsed = smf_date(h.date)
    start = stck_datetime(h.interval_start) if h.interval_start else None
    return (h.type, h.subtype, None, parsed and smf_day(*parsed), smf_time(h.time), clean(h.lpar),
            clean(h.qmgr), None if h.qsg is None else clean(h.qsg), clean(h.version),
            start and start.date(), start and start.time(),
            h.interval_duration if start else None)


def _scalar(f: Field, part: str):
    """A function turning a raw value of field f into its table value."""
    kind = f.kind
    if kind == "time":
        def moment(v):
            m = stck_datetime(v) if v else None
            return None if m is None else (m.date() if part == "date" else m.time())
        return moment
    if kind in ("ebcdic", "ebcdicif"):
        return lambda v: None if v is None else clean(v)
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
    headers: dict[int, tuple] = {}
    common = []
    for r in rows:
        key = id(r.header)
        if key not in headers:
            headers[key] = _header_values(r.header)
        common.append(headers[key])
    statistics = name in STATISTICS_STRUCTURES
    width = 12 if statistics else 9
    arrays = [pa.array([c[k] for c in common], type=schema(name).field(k).type)
              for k in range(width)]
    arrays[2] = pa.array([name] * len(rows), type=pa.string())
    for _column, typ, positions, f, part in _columns(name):
        convert = _scalar(f, part)
        if f.array:
            if convert is None:
                data = [[r.values[i] for i in positions] for r in rows]
            else:
                data = [[convert(r.values[i]) for i in positions] for r in rows]
        else:
            i = positions[0]
            data = ([r.values[i] for r in rows] if convert is None
                    else [convert(r.values[i]) for r in rows])
        arrays.append(pa.array(data, type=typ))
    return pa.Table.from_arrays(arrays, schema=schema(name))


def table_rows(tables: dict[str, list[Row]]) -> dict[str, object]:
    """Rows grouped by structure as {structure: Arrow table}."""
    return {name: rows_to_table(name, rows) for name, rows in tables.items() if rows}
