"""A count in OPS.csv is a claim, not a budget: the engines' work follows the events.

`put`/`get` with a count count the operations that only count at once and give the
failures past a full (empty) queue as one Failure with their count. Property: on any queue
definition and any operations, the outcomes and the final state are exactly those of the
operations done one at a time (the reference), failures expanded. And a line claiming ten
million operations costs about what a line claiming one does.
"""

from __future__ import annotations

import time
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from pcf import mqc
from traceroute.events.engine import Failure, QueueAttrs, QueueManagerEngine
from traceroute.events.qsg import SharedQueue
from traceroute.events.replay import MAX_COUNT, Estate, Op, parse_ops, replay

ATTRS = st.builds(
    QueueAttrs, name=st.just("Q"), max_depth=st.integers(0, 30),
    depth_high_limit=st.integers(0, 100), depth_low_limit=st.integers(0, 100),
    depth_high_event=st.booleans(), depth_low_event=st.booleans(),
    depth_max_event=st.booleans(),
    service_interval_event=st.sampled_from([mqc.MQQSIE_NONE, mqc.MQQSIE_HIGH,
                                            mqc.MQQSIE_OK]),
    service_interval=st.integers(-5, 3000))
OPS = st.lists(st.tuples(st.integers(0, 2000), st.sampled_from(["PUT", "GET", "BACKOUT",
                                                                "RESET", "RESTART"]),
                         st.integers(1, 60)), max_size=25)


def expanded(outcomes) -> list:
    out = []
    for o in outcomes:
        if isinstance(o, Failure):
            out += [replace(o, count=1)] * o.count
        else:
            out.append(o)
    return out


def one_at_a_time(engine: QueueManagerEngine, op: str, t: int, count: int) -> list:
    """The reference: every operation on its own, through the engine's per-operation rules."""
    q = engine.queues["Q"]
    out: list = []
    for _ in range(count):
        (engine._put if op == "PUT" else engine._get)(t, q, out)
    return out


def state(engine: QueueManagerEngine):
    return {name: (q.depth, q.timer_ms, q.high_enabled, q.low_enabled, q.full_enabled,
                   q.service_event, q.stats) for name, q in engine.queues.items()}


@settings(max_examples=300, deadline=None)
@given(ATTRS, OPS, st.booleans(), st.integers(0, 3))
def test_batched_operations_equal_one_at_a_time(attrs, ops, perfmev, event_room):
    event_q = QueueAttrs("SYSTEM.ADMIN.PERFM.EVENT", max_depth=event_room)
    fast = QueueManagerEngine("QM1", [attrs, event_q], perfmev=perfmev)
    slow = QueueManagerEngine("QM1", [attrs, event_q], perfmev=perfmev)
    now = 0
    for dt, op, count in ops:
        now += dt
        if op in ("PUT", "GET"):
            got = (fast.put if op == "PUT" else fast.get)(now, "Q", count)
            want = one_at_a_time(slow, op, now, count)
            assert expanded(got) == want
            assert len(got) <= len(want) and len(got) <= 8   # work bounded by the events
        elif op == "BACKOUT":
            assert fast.backout(now, "Q", count) == slow.backout(now, "Q", count)
        elif op == "RESET":
            fast.reset_stats(now, "Q")
            slow.reset_stats(now, "Q")
        else:
            fast.restart(now)
            slow.restart(now)
        assert state(fast) == state(slow)


def shared_one_at_a_time(sq: SharedQueue, op: str, t: int, qmgr: str, count: int) -> list:
    out: list = []
    for _ in range(count):
        out += (sq.put if op == "PUT" else sq.get)(t, qmgr, 1)
    return out


@settings(max_examples=200, deadline=None)
@given(ATTRS, OPS, st.lists(st.booleans(), min_size=1, max_size=3))
def test_shared_queue_batches_equal_one_at_a_time(attrs, ops, perfmev):
    members = {f"QM{i}": on for i, on in enumerate(perfmev)}
    fast, slow = SharedQueue(attrs, members), SharedQueue(attrs, members)
    now = 0
    for dt, op, count in ops:
        now += dt
        qmgr = f"QM{count % len(members)}"
        if op in ("PUT", "GET"):
            got = (fast.put if op == "PUT" else fast.get)(now, qmgr, count)
            assert expanded(got) == shared_one_at_a_time(slow, op, now, qmgr, count)
        assert (fast.depth, fast.enabled) == (slow.depth, slow.enabled)
        assert {k: m.stats for k, m in fast.members.items()} == \
            {k: m.stats for k, m in slow.members.items()}


def _seconds(lines: list[str]) -> float:
    ops = [o for o in parse_ops(lines) if isinstance(o, Op)]
    estate = Estate()
    estate.engines["QM1"] = QueueManagerEngine("QM1", [QueueAttrs(
        "Q", max_depth=999_999_999, depth_high_event=True, depth_low_event=True,
        service_interval_event=mqc.MQQSIE_HIGH, service_interval=10)])
    start = time.perf_counter()
    outcomes = list(replay(estate, ops))
    took = time.perf_counter() - start
    assert len(outcomes) <= 6 * len(ops)
    return took


def test_ten_million_claimed_costs_what_one_does():
    header = "time_ms,qmgr,queue,op,count"
    lines = [f"{t},QM1,Q,{op},{MAX_COUNT}" for t, op in
             enumerate(["PUT", "GET", "GET", "PUT", "PUT", "GET"] * 50)]
    small = [line.rsplit(",", 1)[0] + ",1" for line in lines]
    big, one = _seconds([header, *lines]), _seconds([header, *small])
    assert big < 20 * one + 0.5, (big, one)   # ratio, not a timed budget


def test_time_values_past_what_an_event_can_hold_are_bad_lines():
    lines = ["time_ms,qmgr,queue,op,count", "2147483647999,QM1,Q,PUT,1",
             "2147483648000,QM1,Q,PUT,1", "9" * 400 + ",QM1,Q,PUT,1", "5,QM1,Q,PUT," + "9" * 400]
    out = list(parse_ops(lines))
    assert isinstance(out[0], Op)
    assert [o.line for o in out[1:]] == [3, 4, 5] and all(not isinstance(o, Op) for o in out[1:])


def test_a_repeated_failure_is_said_once_with_its_count(tmp_path, capsys):
    from mqroute.main import main

    mqsc = tmp_path / "QM1.mqsc"
    mqsc.write_text("ALTER QMGR PERFMEV(ENABLED)\nDEFINE QLOCAL(Q) MAXDEPTH(5) QDPMAXEV(ENABLED)\n")
    ops = tmp_path / "ops.csv"
    ops.write_text("time_ms,qmgr,queue,op,count\n0,QM1,Q,PUT,10000000\n"
                   + "".join(f"{t},QM1,Q,PUT,3\n" for t in range(1, 1001))
                   + "2000,QM1,Q,GET,10000000\n")
    assert main(["events", "replay", "--mqsc", str(mqsc), "--ops", str(ops)]) == 0
    out, err = capsys.readouterr()
    failed = [line for line in err.splitlines() if "failed" in line]
    assert failed == [   # the first put to the full queue, its Queue Full event, the rest
        f"mqroute: {ops}:2: PUT QM1 Q at 0 ms failed: MQRC_Q_FULL",
        f"mqroute: {ops}:2-1002: PUT QM1 Q at 0-1000 ms failed: MQRC_Q_FULL "
        "(10,002,994 times)",
        f"mqroute: {ops}:1003: GET QM1 Q at 2000 ms failed: MQRC_NO_MSG_AVAILABLE "
        "(9,999,995 times)"]
    assert "Queue Full" in out
