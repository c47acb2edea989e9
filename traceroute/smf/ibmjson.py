"""Rows as IBM's formatter (mq-smf-csv, `-f JSON -g yes`) prints them: the same keys, values.

Its conventions, kept so that existing consumers of its output read ours unchanged: every
object starts with the record's type, subtype, structure, SMF date and time, LPAR, queue
manager, QSG, MQ version (and for statistics the interval); times of day are two strings,
NAMEDate (YYYY-MM-DD) and NAMETime (HH:MM:SS.uuuuuu, UTC), "1970-01-01" and
"00:00:00.000000" when unset; STCK durations are whole microseconds; EBCDIC text keeps its
width with '.' for bytes it cannot show; fields that a record's MQ version does not have show
-1 (numbers) or "....." (text); lists (NAME[] in the layouts) come last.
"""

from __future__ import annotations

import datetime as _dt

from traceroute.smf.clock import smf_date, smf_day, stck_datetime
from traceroute.smf.decode import STATISTICS, Header, Row
from traceroute.smf.layout import ENUMS, INTEGER_KINDS, Field, layout
from traceroute.smf.text import shown

UNSET_DATE, UNSET_TIME = "1970-01-01", "00:00:00.000000"
ABSENT_TEXT = "....."
#: IBM's formatter shows no QSG before MQ 10 (no QWHX header extension) as four dots.
NO_QSG = "...."


def time_strings(stck: int | None) -> tuple[str, str]:
    """A STCK time of day as IBM's formatter's (date, time) strings."""
    moment = stck_datetime(stck) if stck else None
    if moment is None:
        return UNSET_DATE, UNSET_TIME
    return moment.strftime("%Y-%m-%d"), moment.strftime("%H:%M:%S.%f")


def header_date(header: Header) -> str:
    """The SMF header's date as "YYYY/MM/DD"."""
    parsed = smf_date(header.date)
    day = smf_day(*parsed) if parsed else None
    return day.strftime("%Y/%m/%d") if day else "0000/00/00"


def header_time(header: Header) -> str:
    """The SMF header's time as "HH:MM:SS.hh0000" (it counts hundredths of a second)."""
    seconds, hund = divmod(header.time, 100)
    return (f"{seconds // 3600 % 24:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}."
            f"{hund:02d}0000")


def _common(row: Row) -> dict:
    h = row.header
    out = {"recordType": h.type, "recordSubType": h.subtype, "structure": row.structure,
           "date": header_date(h), "time": header_time(h), "lpar": shown(h.lpar),
           "qmgr": shown(h.qmgr)}
    out["qsg"] = NO_QSG if h.qsg is None else shown(h.qsg)
    out["mqVersion"] = shown(h.version)
    if h.type == STATISTICS and h.interval_start:
        out["intervalStartDate"], out["intervalStartTime"] = time_strings(h.interval_start)
        out["intervalDuration"] = h.interval_duration
    return out


def _value(f: Field, value: object) -> object:
    kind = f.kind
    if kind in INTEGER_KINDS:
        return -1 if value is None else value
    if value is None:
        return ABSENT_TEXT
    if kind in ("ebcdic", "ebcdicif"):
        return shown(value)
    if kind in ("hex", "correlator"):
        return value.hex().upper()
    if kind == "enum":
        return ENUMS[f.args[0]].get(value, "")
    return value


def row_to_ibm(row: Row) -> dict:
    """One row as the JSON object IBM's formatter prints for it."""
    out = _common(row)
    lists: dict[str, list] = {}
    for f, value in zip(layout(row.structure).fields, row.values, strict=True):
        if f.kind == "time":
            date, time = time_strings(value)
            if f.array:
                lists.setdefault(f.name + "Date", []).append(date)
                lists.setdefault(f.name + "Time", []).append(time)
            else:
                out[f.name + "Date"], out[f.name + "Time"] = date, time
        elif f.array:
            lists.setdefault(f.name, []).append(_value(f, value))
        else:
            out[f.name] = _value(f, value)
    out.update(lists)
    return out


def interval_start(header: Header) -> _dt.datetime | None:
    """The statistics interval's start (UTC), when the record has one."""
    return stck_datetime(header.interval_start) if header.interval_start else None
