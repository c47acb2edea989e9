"""The fast constructors of the journeys path make what the plain ones make.

`call_maker` (positional MQICall) against MQICall(**keywords); `traces_of_columns` (one zip
pass) against MQICall built field by field with keywords from the same rows, the way these
functions did before, and against `traces_of_rows` (dict rows, read as columns, those without
a journey key left out beforehand); `iso_micros` against `iso(datetime)`.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.traceroute.journeys.test_journeys_spill import _message, _workload
from traceroute.journeys.calls import Connection, MQICall, call_maker, iso, iso_micros
from traceroute.journeys.rows import (
    CALL_COLUMNS,
    traces_of_columns,
    traces_of_rows,
)

FIELDS = [f.name for f in dataclasses.fields(MQICall)]


def _values(call: MQICall) -> tuple:
    key = call.conn.key  # cached in the connection: taken before its fields
    return (*(getattr(call, n) for n in FIELDS if n != "conn"),
            dataclasses.astuple(call.conn), key)


def test_call_maker_equals_keywords() -> None:
    conn = Connection(qmgr="QM1")
    make = call_maker("operation", "msg_id", "object_name")
    got = make(conn, 3, 8, b"x" * 24, "Q")
    want = MQICall(conn, 3, operation=8, msg_id=b"x" * 24, object_name="Q")
    assert _values(got) == _values(want)
    other = make(conn, 3, 8, b"x" * 24, "Q")
    assert other.dist_list is not got.dist_list and other.structures is not got.structures
    assert other.unknown is not got.unknown
    with pytest.raises(ValueError):
        call_maker("no_such_field")
    with pytest.raises(ValueError):
        call_maker("operation", "operation")


def _keyword_calls(rows: list[dict]) -> list[tuple]:
    """Calls made the way before call_maker: MQICall(conn, index, **keywords)."""
    out = []
    for r in rows:
        if r["journey_key"] is None:
            continue
        h = bytes.fromhex
        c = MQICall(
            Connection(qmgr=r["queue_manager"]), r["call_index"], operation=r["operation_id"],
            operation_date=r["operation_date"] or "", operation_time=r["operation_time"] or "",
            comp_code=r["comp_code"], reason=r["reason"], hobj=r["hobj"],
            object_name=r["object_name"] or "", object_qmgr=r["object_qmgr"] or "",
            resolved_q_name=r["resolved_q_name"] or "", resolved_q_mgr=r["resolved_q_mgr"] or "",
            resolved_local_q_name=r["resolved_local_q_name"] or "",
            resolved_local_q_mgr=r["resolved_local_q_mgr"] or "",
            msg_id=h(r["msg_id"]) if r["msg_id"] else None,
            correl_id=h(r["correl_id"]) if r["correl_id"] else None, format=r["format"],
            msg_type=r["msg_type"], msg_length=r["msg_length"], get_options=r["get_options"],
            put_options=r["put_options"], open_options=r["open_options"],
            call_type=r["call_type"],
            high_res_time=r["high_res_time"],
            xmitq_msg_id=h(r["xmitq_msg_id"]) if r["xmitq_msg_id"] else None,
            xmitq_remote_q_name=r["xmitq_remote_q_name"] or "",
            xmitq_remote_q_mgr=r["xmitq_remote_q_mgr"] or "")
        out.append(tuple(getattr(c, n) for n in FIELDS if n != "conn"))
    return out


@settings(max_examples=40, deadline=None)
@given(st.lists(_message, min_size=1, max_size=30), st.randoms(use_true_random=False))
def test_traces_of_columns_equal_rows_and_keywords(messages, rnd) -> None:
    rows = _workload(messages)
    rnd.shuffle(rows)  # any row order: messages' calls interleaved, out of call order
    cols = {name: [r[name] for r in rows] for name, _ in CALL_COLUMNS}
    a, b = traces_of_columns(cols), traces_of_rows(r for r in rows if r["journey_key"])
    assert [(t.source, [_values(c) for c in t.calls]) for t in a] == [
        (t.source, [_values(c) for c in t.calls]) for t in b]
    made = sorted((tuple(getattr(c, n) for n in FIELDS if n != "conn") for t in a
                   for c in t.calls), key=repr)
    assert made == sorted(_keyword_calls(rows), key=repr)


@given(st.integers(-(1 << 33) * 10**6 // 8, (1 << 33) * 10**6))  # 1901 .. 2242
def test_iso_micros_is_iso_of_the_datetime(micros: int) -> None:
    """As MQICall.time gives it: fromtimestamp of the seconds as a float."""
    assert iso_micros(micros) == iso(datetime.fromtimestamp(micros / 1_000_000, UTC))
