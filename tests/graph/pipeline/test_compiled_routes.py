"""The compiled routes of the common chain (graph/pipeline/_ccolumns.c) are the Python ones.

routes_of_batches with the compiled path and without it (`compiled._C = None`: every
message through `routes_of_columns`, route_of and route_values, the reference) must give the
same batches on the corpus and on hypothesis-made operation rows: chains with and without
gaps, duplicates of one activity in several records (a report and a reply), trace-route
messages whose activities have no counters, fan-outs and activities the counters cannot
place (the Python ordering's), every operation type and feedback, null and empty values,
and any cut of the batches.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graph.pipeline import compiled, reports
from graph.pipeline.rows import OPERATION_COLUMNS, OPERATION_NAMES
from graph.pipeline.schema import arrow_schema

pa = pytest.importorskip("pyarrow")
pytestmark = pytest.mark.skipif(not compiled.available(),
                                reason=f"compiled columns: {compiled.STATUS}")


def _batches(ops: list[dict], cuts: list[int]) -> list:
    batch = pa.RecordBatch.from_pylist(ops, schema=arrow_schema(OPERATION_COLUMNS))
    edges = [0, *sorted(c for c in cuts if 0 <= c <= len(ops)), len(ops)]
    return [batch.slice(a, b - a) for a, b in pairwise(edges)]


def _routes(batches: list, *, use_compiled: bool) -> list[dict]:
    saved = compiled._C
    try:
        if not use_compiled:
            compiled._C = None
        return [r for b in reports.routes_of_batches(iter(batches)) for r in b.to_pylist()]
    finally:
        compiled._C = saved


def _taken(ops: list[dict]) -> int:
    """How many messages' routes the compiled path makes."""
    batch = pa.RecordBatch.from_pylist(ops, schema=arrow_schema(OPERATION_COLUMNS))
    return len(compiled.route_arrays(batch)[3])


def _assert_same(ops: list[dict], cuts: list[int]) -> None:
    batches = _batches(ops, cuts)
    assert _routes(batches, use_compiled=True) == _routes(batches, use_compiled=False)


def test_the_corpus_gives_the_same_routes_and_all_compiled():
    from tests.graph.pipeline.test_routes_body import _operation_rows

    ops = _operation_rows(200, seed=1)
    _assert_same(ops, list(range(0, len(ops), 1500)))
    keys = len({r["correl_id"] for r in ops})
    assert _taken(ops) == keys > 1000


# --- operation rows made up ----------------------------------------------------------------

_NAMES = st.sampled_from([None, "", "QM1", "QM2", "Q.A", "SYSTEM.DEAD.LETTER.QUEUE", "Zürich"])
_DATES = st.sampled_from([None, "", *["2026-11-22", "2026-11-23"] * 8, "2026-11-2٢"])
_TIMES = st.sampled_from([None, "", *["10.00.00", "10:00:01", "09.59.59.50"] * 5,
                          " 10:00:00"])
_TYPES = st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 70000])
_FEEDBACK = st.sampled_from([None, None, 0, 284, 282, 283, 258, 2053, 2085])


@st.composite
def _operation(draw) -> dict:
    return {
        "operation_type": draw(_TYPES), "operation": "x", "date": draw(_DATES),
        "time": draw(_TIMES), "queue_manager": draw(_NAMES), "queue": draw(_NAMES),
        "resolved_queue": draw(_NAMES), "remote_queue": draw(_NAMES),
        "remote_queue_manager": draw(_NAMES), "topic": draw(_NAMES), "channel": draw(_NAMES),
        "channel_type": draw(st.sampled_from([None, 1, 3])), "xmit_queue": draw(_NAMES),
        "feedback": draw(_FEEDBACK), "msg_id": None, "embedded_msg_id": None,
        "has_embedded_md": draw(st.booleans())}


@st.composite
def _activity(draw, recorded: int | None) -> dict:
    return {"recorded": recorded,
            "unrecorded": draw(st.sampled_from([0, 0, 0, 1, None, -1])),
            "discontinuity": draw(st.sampled_from([0, 0, 0, 2, None])),
            "appl_name": draw(st.sampled_from(["amqrmppa", "app", "", None])),
            "appl_type": draw(st.sampled_from([None, 7, 11])),
            "description": draw(st.sampled_from(["", "Sending MCA", None])),
            "operations": draw(st.lists(_operation(), min_size=1, max_size=3))}


@st.composite
def _message(draw, key: str) -> list[dict]:
    """One original message's rows: a route of activities (counted 1, 2, ... with holes,
    sometimes without counters, sometimes two at one count), reported in records of any
    kind, an activity in several records at times."""
    length = draw(st.integers(1, 5))
    counts = sorted(draw(st.lists(st.integers(1, 8), min_size=length, max_size=length,
                                  unique=True)))
    if draw(st.integers(0, 5)) == 0:
        counts[-1] = counts[0]  # two activities at one count: not one chain
    activities = [draw(_activity(c if draw(st.integers(0, 19)) else None)) for c in counts]
    rows: list[dict] = []
    n_records = draw(st.integers(1, 4))
    for r in range(n_records):
        kind = draw(st.sampled_from(["report"] * 4 + ["reply", "trace-route message"]))
        chosen = draw(st.lists(st.sampled_from(range(len(activities))), min_size=1,
                               max_size=3, unique=True))
        final = draw(st.sampled_from([None, None, 3, 9]))
        head = {"correl_id": key, "record_kind": kind,
                "report_msg_id": draw(st.sampled_from([f"{r:048x}"] * 8 + [None, ""])),
                "source": draw(st.sampled_from(["a.dmp"] * 6 + ["b.dmp", "", None])),
                "position": draw(st.sampled_from([r] * 6 + [r * 10, 0, None])),
                "final_recorded": final, "final_unrecorded": None if final is None else 0,
                "final_discontinuity": None if final is None else 0}
        for a_index, which in enumerate(chosen):
            a = activities[which]
            for o_index, op in enumerate(a["operations"]):
                rows.append({**head, "activity_index": a_index, "operation_index": o_index,
                             **{k: v for k, v in a.items() if k != "operations"}, **op})
    return rows


_KEYS = st.sampled_from(["0a" * 24, "0b" * 24, "0c" * 24, "0D" * 24, "0e", "abc", "", "zz"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_made_up_rows_give_the_same_routes(data):
    keys = sorted(set(data.draw(st.lists(_KEYS, min_size=1, max_size=4), label="keys")))
    ops = [r for k in keys for r in data.draw(_message(k), label=f"message {k}")]
    ops = [{n: r.get(n) for n in OPERATION_NAMES} for r in ops]
    cuts = data.draw(st.lists(st.integers(0, len(ops)), max_size=3), label="cuts")
    _assert_same(ops, cuts)


def test_made_up_chains_are_compiled():
    """Not vacuously equal: made-up chains (with gaps, duplicates, replies) are compiled."""
    def op(qmgr: str, kind: int, **more) -> dict:
        return {"operation_type": kind, "queue_manager": qmgr, "date": "2026-11-22",
                "time": "10.00.00", "has_embedded_md": False, **more}

    route = [  # put to an xmitq, send, receive, put: counts 1, 2, (3 missing), 4
        (1, [op("QM1", 4, queue="Q", remote_queue="Q", remote_queue_manager="QM2")]),
        (2, [op("QM1", 3, queue="QM2", has_embedded_md=True),
             op("QM1", 8, channel="C", remote_queue_manager="QM2", xmit_queue="QM2")]),
        (4, [op("QM2", 7, channel="C"), op("QM2", 4, queue="Q")])]
    ops = []
    for r, (source, kind) in enumerate((("a", "report"), ("a", "report"), ("b", "reply"))):
        for a_index, (count, operations) in enumerate(route if kind == "reply" else
                                                      [route[r], route[r + 1]]):
            for o_index, o in enumerate(operations):
                ops.append({n: None for n in OPERATION_NAMES} | {
                    "correl_id": "01" * 24, "record_kind": kind, "report_msg_id": f"{r:048x}",
                    "source": source, "position": r, "activity_index": a_index,
                    "operation_index": o_index, "recorded": count, "unrecorded": 0,
                    "discontinuity": 0, "appl_name": "x", "description": "",
                    "final_recorded": 5 if kind == "reply" else None} | o)
    _assert_same(ops, [])
    assert _taken(ops) == 1
    (route_row,) = _routes(_batches(ops, []), use_compiled=True)
    assert (route_row["verdict"], route_row["gaps"], route_row["missing"]) == \
        ("incomplete", 2, 2)
