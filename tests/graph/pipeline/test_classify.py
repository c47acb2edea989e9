"""The one classification pass gives what the four stages, each reading every message, gave.

No Spark: the mapInArrow bodies run on Arrow batches here. The reference
(tests/support/stage_reference.py) is the reports stage's decode (operations and rejects),
the statistics and events stages' per-message bodies and the activity-trace parser, each
over every message, with rejects narrowed by the side stages' (source, position) pairs, as
the job did before the one pass.
"""

from __future__ import annotations

import json
import struct
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graph.pipeline.classify import (
    CLASSIFIED_COLUMNS,
    EVENT,
    OP,
    REJECT,
    STATS,
    TRACE,
    classify_batches,
    stage_order,
)
from graph.pipeline.events import EVENT_COLUMNS, event_rows
from graph.pipeline.inputs import RAW_COLUMNS
from graph.pipeline.journeys import rows_of_message
from graph.pipeline.rows import OPERATION_NAMES
from graph.pipeline.schema import arrow_schema
from graph.pipeline.stats import STATS_COLUMNS, stats_rows
from pcf import mqc
from pcf.mqmd import MQMD
from tests.support.stage_reference import decode_batches, message_batches

pa = pytest.importorskip("pyarrow")

T = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def _cfh(type_: int, command: int, *, big: bool = False, count: int = 0) -> bytes:
    """An MQCFH built from the spec's layout (9 MQLONGs), no parameters."""
    return struct.pack(">9i" if big else "<9i", type_, 36, 1, command, 1, 1, 0, 0, count)


def _messages() -> list[tuple]:
    from tests.traceroute.journeys.scenarios import M
    from tests.traceroute.journeys.spec_build import OPEN, PUT, op, trace_message
    from tests.traceroute.stats.test_stats_simulator import run_day
    from traceroute.events.build import event_message
    from traceroute.events.config import channel_event
    from traceroute.sim.corpus import corpus, is_report
    from traceroute.sim.simulator import ACTIVITY_QUEUE

    pairs = [(c.md.pack(), c.data) for c in corpus(6, seed=3) if is_report(c.md)]
    sim, written = run_day()
    pairs += [(w.md.pack(), w.data) for w in written]
    pairs += [(md.pack(), d) for qm in ("QM1", "QM2") for md, d in sim.browse(qm,
                                                                              ACTIVITY_QUEUE)]
    for reason in (mqc.MQRC_CHANNEL_STARTED, mqc.MQRC_CHANNEL_STOPPED_BY_USER):
        md, data = event_message(channel_event(reason, "QM1", "QM1.TO.QM2", T, xmitq="QM2"))
        pairs.append((md.pack(), data))
    md, data = trace_message("QM1", "amqsput", [op(OPEN, hobj=4), op(PUT, hobj=4, msg_id=M)])
    pairs.append((md, data))
    admin = MQMD(format="MQADMIN").pack()
    pairs += [
        (admin, _cfh(mqc.MQCFT_EVENT, 44)),            # an event of no parameters
        (admin, _cfh(mqc.MQCFT_EVENT, 44, count=3)),   # an event cut short: a reject
        (admin, _cfh(mqc.MQCFT_STATISTICS, 164, big=True, count=2)),  # statistics cut short
        (admin, _cfh(mqc.MQCFT_APP_ACTIVITY, 209)),    # an activity trace of no calls
        (admin, _cfh(mqc.MQCFT_REPORT, mqc.MQCMD_ACTIVITY_MSG)),  # a report of no activity
        (admin, _cfh(99, 1)),                          # an unknown Type
        (MQMD(format="MQSTR").pack(), b"not pcf"),
        (admin, b""), (None, b"EPH \x00\x00"), (b"\x01" * 10, b"short MQMD"),
    ]
    rows = [("mix.dmp", n, md, data, None) for n, (md, data) in enumerate(pairs)]
    rows.append(("gone.dmp", 0, None, None, "gone.dmp: cannot be read"))
    return rows


def _batches(rows: list[tuple], size: int = 7) -> list:
    schema = arrow_schema(RAW_COLUMNS)
    cols = list(zip(*rows, strict=True))
    table = pa.Table.from_arrays([pa.array(c, type=f.type) for c, f in zip(cols, schema,
                                                                            strict=True)],
                                 schema=schema)
    return table.to_batches(max_chunksize=size)


def _rows(out) -> list[dict]:
    return [r for b in out for r in b.to_pylist()]


def _before(rows: list[tuple]) -> dict[str, list]:
    """What the four stages each over every message gave."""
    decoded = _rows(decode_batches(iter(_batches(rows))))
    ops = [{k: r[k] for k in OPERATION_NAMES} for r in decoded if not r["rejected"]]
    stats = _rows(message_batches(STATS_COLUMNS, stats_rows)(iter(_batches(rows))))
    events = _rows(message_batches(EVENT_COLUMNS, event_rows)(iter(_batches(rows))))
    traced = [(s, p, md, d) for s, p, md, d, e in rows
              if e is None and d and rows_of_message(md, d, s, p)]
    claimed = {(r["source"], r["position"]) for r in stats + events} | {
        (s, p) for s, p, _, _ in traced}
    rejects = [(r["source"], r["position"], r["report_msg_id"], r["error"]) for r in decoded
               if r["rejected"] and (r["source"], r["position"]) not in claimed]
    messages = len({(r["source"], r["position"], r["report_msg_id"]) for r in ops})
    return {"ops": ops, "rejects": rejects, "stats": stats, "events": events,
            "traced": traced, "messages": messages}


def _after(rows: list[tuple]) -> dict[str, list]:
    out = _rows(classify_batches(iter(_batches(rows))))
    assert all(set(r) == {n for n, _ in CLASSIFIED_COLUMNS} for r in out)
    stats_names = [n for n, _ in STATS_COLUMNS]
    event_names = [n for n, _ in EVENT_COLUMNS]
    return {
        "ops": [{k: r[k] for k in OPERATION_NAMES} for r in out if r["kind"] == OP],
        "rejects": [(r["source"], r["position"], r["report_msg_id"], r["error"])
                    for r in out if r["kind"] == REJECT],
        "stats": [{**dict.fromkeys(stats_names), **json.loads(r["side"])}
                  for r in out if r["kind"] == STATS],
        "events": [{**dict.fromkeys(event_names), **json.loads(r["side"])}
                   for r in out if r["kind"] == EVENT],
        "traced": [(r["source"], r["position"], r["md"], r["data"])
                   for r in out if r["kind"] == TRACE],
        "messages": sum(1 for r in out if r["kind"] == OP and r["first"]),
    }


@pytest.fixture(scope="module")
def mixed() -> list[tuple]:
    return _messages()


def test_one_pass_gives_what_every_stage_gave(mixed) -> None:
    before, after = _before(mixed), _after(mixed)
    assert before["ops"] and before["stats"] and before["events"] and before["traced"]
    assert len(before["rejects"]) >= 5
    for key in before:
        assert after[key] == before[key], key


def test_each_kind_is_where_its_stage_put_it(mixed) -> None:
    after = _after(mixed)
    assert {r["record_type"] for r in after["stats"]} >= {"QueueStatistics", "MQIStatistics"}
    assert [r["reason_name"] for r in after["events"]][:2] == ["Channel Started",
                                                              "Channel Stopped By User"]
    assert len(after["events"]) == 3  # and the event of no parameters (reason 0)
    assert len(after["traced"]) == 1  # the trace of no calls is a reject, as before
    assert ("gone.dmp", 0, None, "gone.dmp: cannot be read") in after["rejects"]


def test_stage_order_from_the_type_in_either_byte_order() -> None:
    for type_, first in ((mqc.MQCFT_EVENT, 2), (mqc.MQCFT_STATISTICS, 1),
                         (mqc.MQCFT_ACCOUNTING, 1), (mqc.MQCFT_APP_ACTIVITY, 3),
                         (mqc.MQCFT_REPORT, 0), (mqc.MQCFT_TRACE_ROUTE, 0), (99, 0)):
        for big in (False, True):
            order = stage_order(_cfh(type_, 1, big=big))
            assert order[0] == first and sorted(order) == [0, 1, 2, 3]
    assert stage_order(b"EPH ")[0] == 0 and stage_order(b"")[0] == 0
    for big in (False, True):  # after an MQEPH: the MQCFH at the MQEPH's StrucLength
        i4 = ">2i" if big else "<2i"
        for type_, first in ((mqc.MQCFT_EVENT, 2), (mqc.MQCFT_REPORT, 0),
                             (mqc.MQCFT_STATISTICS, 1)):
            eph = b"EPH " + struct.pack(i4, 1, 72) + bytes(60)
            assert stage_order(eph + _cfh(type_, 1, big=big))[0] == first


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([mqc.MQCFT_EVENT, mqc.MQCFT_STATISTICS,
                                           mqc.MQCFT_REPORT, mqc.MQCFT_APP_ACTIVITY,
                                           mqc.MQCFT_TRACE_ROUTE, 1, 99]),
                          st.integers(0, 300), st.booleans(), st.binary(max_size=40)),
                max_size=6))
def test_hostile_messages_agree(mixed, parts) -> None:
    admin = MQMD(format="MQADMIN").pack()
    rows = [("h.dmp", n, admin, _cfh(t, c, big=b) + tail)
            for n, (t, c, b, tail) in enumerate(parts)]
    rows = [(s, p, md, d, None) for s, p, md, d in rows] + mixed[:3]
    before, after = _before(rows), _after(rows)
    for key in before:
        assert after[key] == before[key], key
