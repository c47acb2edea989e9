"""The three real SMF data sets decode equal to IBM's formatter, every field of every structure.

../shared/vectors/smf/ holds TEST115, TEST116 and TESTCHL (MQ 8.0) and what mq-smf-csv printed
for each, as JSON (`-f JSON -g yes`) and as CSV (one file per structure). Our JSON must be the
same objects in the same order; our tables (the Parquet/CSV columns) must hold the same values
(typed: numbers, dates, times, text without padding); IBM's CSV, read independently of its
JSON, must agree with our JSON too.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from traceroute.readers.smf import SMFCounts, read_smf
from traceroute.smf import row_to_ibm
from traceroute.smf.ibmjson import ABSENT_TEXT, NO_QSG, UNSET_DATE, UNSET_TIME
from traceroute.smf.text import ebcdic, shown

NAMES = ("TEST115", "TEST116", "TESTCHL")


def ibm_json(path: Path) -> list[dict]:
    """IBM's objects (one per structure, pretty-printed), its second "structure" key (QESD's
    CF structure name) read as structureName."""
    def pairs(items):
        out = {}
        for key, value in items:
            out["structureName" if key in out and key == "structure" else key] = value
        return out
    text = path.read_text()
    return [json.loads(block, object_pairs_hook=pairs)
            for block in re.findall(r"^\{\n.*?\n\}$", text, re.S | re.M)]


@pytest.fixture(scope="module")
def decoded(vectors):
    out = {}
    for name in NAMES:
        problems: list = []
        counts = SMFCounts()
        rows = list(read_smf([vectors / "smf" / f"{name}.dat"],
                             lambda w, r, seen=problems: seen.append((w, r)), counts=counts))
        out[name] = (rows, problems, counts)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_json_equals_ibm_formatter(decoded, vectors, name):
    rows, problems, _ = decoded[name]
    assert problems == []
    ours = [row_to_ibm(r) for r in rows]
    theirs = ibm_json(vectors / "smf" / "ibm-formatter" / name / "json" / "SMF-MQSMF.json")
    assert len(ours) == len(theirs)
    for n, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        assert list(a) == list(b), f"{name} object {n} ({b['structure']}): keys differ"
        differ = {k: (a[k], b[k]) for k in a if a[k] != b[k]}
        assert not differ, f"{name} object {n} ({b['structure']}): {differ}"


def test_what_each_data_set_holds(decoded):
    _, _, counts = decoded["TESTCHL"]
    assert sum(counts.records.values()) == 317  # 319 records, a dump header and trailer
    assert counts.records[(115, 231)] == 16 and counts.records[(116, 10)] == 8
    assert counts.rows["QCST"] == 23 and counts.rows["QPST"] == 384
    assert sorted(counts.skipped.values()) == [1, 1]
    _, _, counts = decoded["TEST116"]
    assert counts.rows == {"QMAC": 2, "WTAS": 1, "WQ": 2, "WTID": 1}


def _table_value(column: str, value, ibm):
    """Our typed table value seen as IBM's formatter shows it."""
    if isinstance(value, list):
        return [_table_value(column, v, i) for v, i in zip(value, ibm, strict=True)]
    if value is None:
        if isinstance(ibm, int):
            return -1
        if column.endswith("Date") and ibm in (UNSET_DATE,):
            return UNSET_DATE
        if column.endswith("Time") and ibm in (UNSET_TIME,):
            return UNSET_TIME
        return NO_QSG if column == "qsg" else ABSENT_TEXT
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.strftime("%Y/%m/%d" if column == "date" else "%Y-%m-%d")
    if isinstance(value, dt.time):
        return (value.strftime("%H:%M:%S.%f") if column != "time"
                else value.strftime("%H:%M:%S.%f")[:11] + "0000")
    if isinstance(value, str) and isinstance(ibm, str):
        # tables hold the code page 037 text without its padding; IBM keeps the field's width
        # and shows only printable ASCII ('.' for the rest, padding of zeros included)
        seen = shown(ebcdic(value)) if value.isascii() is False or "." in value else value
        return seen + ibm[len(seen):] if ibm[len(seen):].strip(" .") == "" else seen
    return value


@pytest.mark.parametrize("name", NAMES)
def test_tables_hold_the_same_values(decoded, vectors, name):
    pytest.importorskip("pyarrow")
    from traceroute.smf.tables import rows_to_table

    rows, _, _ = decoded[name]
    theirs = ibm_json(vectors / "smf" / "ibm-formatter" / name / "json" / "SMF-MQSMF.json")
    by_structure = defaultdict(list)
    for row, ibm in zip(rows, theirs, strict=True):
        by_structure[row.structure].append((row, ibm))
    for structure, pairs in by_structure.items():
        table = rows_to_table(structure, [r for r, _ in pairs]).to_pylist()
        for n, (ours, (_, ibm)) in enumerate(zip(table, pairs, strict=True)):
            missing = set(ibm) - set(ours)
            assert not missing, f"{structure}: columns missing {missing}"
            for column, value in ours.items():
                if column not in ibm:  # the interval of records without one
                    assert value is None, (structure, column)
                    continue
                assert _table_value(column, value, ibm[column]) == ibm[column], \
                    f"{name} {structure} row {n} {column}: {value!r} vs {ibm[column]!r}"


def _csv_key(header: str) -> tuple[str, str]:
    """IBM's CSV column header as (JSON key, part): part "S"/"US" for the two halves of a
    duration, "" otherwise; indexed columns ({1.2}) as their list's key."""
    part = ""
    text = header
    for suffix in ("(S)", "(US)"):
        if text.endswith(suffix):
            part, text = suffix[1:-1], text[: -len(suffix)]
    index = re.search(r"\s*\{([\d.]*)\}", text)  # a list element; {Open_Lock} is a name
    if index:
        text = text[: index.start()] + text[index.end():]
    words = re.split(r"[ _().{}]+", text.strip())
    key = words[0].lower() + "".join(w[:1].upper() + w[1:].lower() for w in words[1:] if w)
    if part:
        key += "US" if index and index.group(1)[:1].isdigit() else "Us"
    return key, part


def _csv_rows(path: Path) -> list[dict[str, list]]:
    """Each CSV row as {json key: [values in column order]} (durations as microseconds)."""
    with path.open(newline="") as f:
        reader = csv.reader(f)
        headers = next(reader)[:-1]  # each line ends with a comma
        out = []
        for line in reader:
            values = defaultdict(list)
            seconds = None
            for header, value in zip(headers, line, strict=False):
                key, part = _csv_key(header)
                if part == "S":
                    seconds = int(value)
                    continue
                if part == "US":
                    value = seconds * 1_000_000 + int(value) if seconds >= 0 else -1
                values[key].append(value)
            out.append(values)
        return out


def _same(csv_value, json_value) -> bool:
    if isinstance(json_value, int):
        return int(csv_value) == json_value
    text = str(csv_value)
    if text == "" and json_value in (UNSET_DATE, UNSET_TIME):  # CSV leaves unset times empty
        return True
    if re.fullmatch(r"\d{4}/\d\d/\d\d", text) and re.fullmatch(r"\d{4}-\d\d-\d\d", json_value):
        return text.replace("/", "-") == json_value
    if re.fullmatch(r"\d\d:\d\d:\d\d,\d{6}", text):
        return text.replace(",", ".") == json_value
    return text == json_value


@pytest.mark.parametrize("name", NAMES)
def test_ibm_csv_agrees_with_our_json(decoded, vectors, name):
    """IBM's CSV (one file per structure, durations split in seconds and microseconds,
    dates with slashes) read on its own agrees with our JSON, value for value."""
    rows, _, _ = decoded[name]
    ours = defaultdict(list)
    for row in rows:
        ours[row.structure].append(row_to_ibm(row))
    folder = vectors / "smf" / "ibm-formatter" / name / "csv"
    files = sorted(folder.glob("SMF-*.csv"))
    assert {f.stem[4:] for f in files} == set(ours)
    compared, skipped = 0, []
    for path in files:
        structure = path.stem[4:]
        theirs = _csv_rows(path)
        assert len(theirs) == len(ours[structure]), structure
        for n, (line, obj) in enumerate(zip(theirs, ours[structure], strict=True)):
            for key, values in line.items():
                if structure == "QESD" and key == "structure":
                    key = "structureName"
                expected = obj.get(key)
                if expected is None:
                    date, time = obj.get(key + "Date"), obj.get(key + "Time")
                    if date is None:
                        skipped.append((structure, key))
                        continue
                    expected = [date, time] if not isinstance(date, list) else \
                        [v for pair in zip(date, time, strict=True) for v in pair]
                elif not isinstance(expected, list):
                    expected = [expected]
                if len(values) != len(expected):
                    skipped.append((structure, key))
                    continue
                assert all(_same(c, j) for c, j in zip(values, expected, strict=True)), \
                    f"{name} {structure} row {n} {key}: {values} vs {expected}"
                compared += len(values)
    assert compared > 0 and not skipped, sorted(set(skipped))
