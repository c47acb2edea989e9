"""Ordering at scale: indexed chaining gives the same routes as trying every pair, and
10,000 activities of one message (chained, unchained, counted) come out right."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pcf import mqc
from pcf.mqmd import MQMD
from tests.support.ordering_reference import reference_by_chaining, reference_by_counters
from traceroute.records.model import Activity, Operation, TraceRoute
from traceroute.records.parse import REPORT, Record
from traceroute.routes import ordering
from traceroute.routes.ordering import Gap, build_routes

KEY = b"K" * 24


def reference_routes(records):
    saved = ordering._by_chaining, ordering._by_counters
    ordering._by_chaining, ordering._by_counters = reference_by_chaining, reference_by_counters
    try:
        return build_routes(records)
    finally:
        ordering._by_chaining, ordering._by_counters = saved


# --- random activity data over a few names, so that links, ties and cycles happen ---------
QMGRS = ["QM1", "QM2"]
QUEUES = ["A", "QM2", ""]
CHANNELS = ["C1"]
TYPES = [mqc.MQOPER_PUT, mqc.MQOPER_GET, mqc.MQOPER_BROWSE, mqc.MQOPER_SEND,
         mqc.MQOPER_RECEIVE, mqc.MQOPER_DISCARD, mqc.MQOPER_PUT_REPLY]
maybe = st.one_of(st.none(), st.sampled_from(QUEUES))

operations = st.builds(
    lambda typ, t, qm, q, rq, remq, remqm, ch, emb: Operation(
        typ, "2026-11-22", f"10:00:0{t}", qm, queue=q, resolved_queue=rq, remote_queue=remq,
        remote_qmgr=remqm, channel=ch, embedded_md=MQMD() if emb else None),
    st.sampled_from(TYPES), st.integers(0, 2), st.sampled_from(QMGRS), maybe, maybe,
    st.one_of(st.none(), st.just("A")),
    st.one_of(st.none(), st.sampled_from(QMGRS)),
    st.one_of(st.none(), st.sampled_from(CHANNELS)), st.booleans())


def activity(ops, recorded=None):
    tr = TraceRoute(recorded_activities=recorded) if recorded is not None else None
    return Activity("app", None, "", tuple(ops), tr)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(operations, min_size=0, max_size=3), min_size=1, max_size=12))
def test_chaining_same_as_every_pair(activity_ops):
    records = [Record(REPORT, KEY, (activity(ops),)) for ops in activity_ops]
    assert build_routes(records) == reference_routes(records)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.lists(operations, min_size=1, max_size=3), st.integers(1, 4)),
                min_size=1, max_size=12))
def test_counters_same_as_every_pair(counted):
    records = [Record(REPORT, KEY, (activity(ops, n),)) for ops, n in counted]
    assert build_routes(records) == reference_routes(records)


# --- 10,000 activities of one message --------------------------------------------------
def hop_chain(n: int, *, counted: bool = False) -> list[Activity]:
    """n activities of one message passing queue managers QM0, QM1 ...: put to the xmitq,
    the sender's get + send, the receiver's receive + put, ... (names all distinct)."""
    out: list[Activity] = []
    k = 0

    def add(*ops):
        nonlocal k
        k += 1
        out.append(activity(ops, k if counted else None))

    hop = 0
    while len(out) < n:
        qm, nxt = f"QM{hop}", f"QM{hop + 1}"
        t = f"{hop // 3600:02d}:{hop // 60 % 60:02d}:{hop % 60:02d}"
        if hop == 0:
            add(Operation(mqc.MQOPER_PUT, "2026-11-22", t, qm, queue="Q", resolved_queue=nxt,
                          remote_queue="Q", remote_qmgr="QM_END"))
        else:
            add(Operation(mqc.MQOPER_RECEIVE, "2026-11-22", t, qm, channel=f"{qm}.CH",
                          remote_qmgr=f"QM{hop - 1}"),
                Operation(mqc.MQOPER_PUT, "2026-11-22", t, qm, queue="Q", resolved_queue=nxt,
                          remote_queue="Q", remote_qmgr="QM_END"))
        add(Operation(mqc.MQOPER_GET, "2026-11-22", t, qm, queue=nxt, resolved_queue=nxt,
                      embedded_md=MQMD()),
            Operation(mqc.MQOPER_SEND, "2026-11-22", t, qm, channel=f"{nxt}.CH",
                      remote_qmgr=nxt, xmit_queue=nxt))
        hop += 1
    return out[:n]


def test_ten_thousand_chained_activities_in_order():
    acts = hop_chain(10_000)
    records = [Record(REPORT, KEY, (a,)) for a in reversed(acts)]  # arrival order reversed
    (route,) = build_routes(records)
    assert list(route.steps) == acts
    assert not route.branches and not route.notes


def test_ten_thousand_unchained_activities_by_time():
    # one queue manager's many gets of distinct queues: nothing links, time orders them
    acts = [activity([Operation(mqc.MQOPER_BROWSE, "2026-11-22",
                                f"{k // 3600:02d}:{k // 60 % 60:02d}:{k % 60:02d}", "QM1",
                                queue=f"Q{k}")]) for k in range(10_000)]
    records = [Record(REPORT, KEY, (a,)) for a in acts[::2] + acts[1::2]]
    (route,) = build_routes(records)
    assert [s for s in route.steps if not isinstance(s, Gap)] == acts
    assert route.steps[0] is acts[0] and route.steps[-1] is acts[-1]
    assert sum(isinstance(s, Gap) for s in route.steps) == 9_999  # unknown holes between
    assert any("could not be chained" in n for n in route.notes)


def test_ten_thousand_counted_activities():
    acts = hop_chain(10_000, counted=True)
    records = [Record(REPORT, KEY, (a,)) for a in acts[1::2] + acts[::2]]
    (route,) = build_routes(records)
    assert list(route.steps) == acts
    assert route.complete is False or route.verdict.terminal


def test_ten_thousand_activities_on_one_queue():
    # a message put to and got from the same queue again and again: every get has
    # thousands of candidate puts, and the ordering still picks as before, fast
    def at(k):
        return f"{k // 3600:02d}:{k // 60 % 60:02d}:{k % 60:02d}"

    acts = [activity([Operation(mqc.MQOPER_PUT if k % 2 == 0 else mqc.MQOPER_GET,
                                "2026-11-22", at(k), "QM1", queue="Q", resolved_queue="Q")])
            for k in range(10_000)]
    records = [Record(REPORT, KEY, (a,)) for a in acts[1::2] + acts[::2]]
    (route,) = build_routes(records)
    assert [s for s in route.steps if not isinstance(s, Gap)] == acts
    # put k -> get k+1 chain; a get is never followed by a put, so 5,000 fragments
    assert sum(isinstance(s, Gap) for s in route.steps) == 4_999
    small = records[:300:3] + records[5_000:5_300:3]
    assert build_routes(small) == reference_routes(small)
