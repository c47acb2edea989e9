"""Every example table of the seeds, replayed put by put and get by get through the engine."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from pcf import mqc
from traceroute.events.engine import (
    Failure,
    PerfEvent,
    QueueAttrs,
    QueueManagerEngine,
)

HIGH, OK = mqc.MQRC_Q_SERVICE_INTERVAL_HIGH, mqc.MQRC_Q_SERVICE_INTERVAL_OK
DHIGH, DLOW, FULL = mqc.MQRC_Q_DEPTH_HIGH, mqc.MQRC_Q_DEPTH_LOW, mqc.MQRC_Q_FULL
INTERVAL = 10_000  # QSVCINT(10000)


def si_engine(qsvciev: int) -> QueueManagerEngine:
    """ALTER QMGR PERFMEV(ENABLED); ALTER QLOCAL('MYQUEUE') QSVCINT(10000) QSVCIEV(...)."""
    return QueueManagerEngine("QM1", [QueueAttrs("MYQUEUE", service_interval=INTERVAL,
                                                 service_interval_event=qsvciev,
                                                 depth_max_event=False)])


def run(engine: QueueManagerEngine, ops: list[tuple[int, str]]) -> list[PerfEvent]:
    out: list[PerfEvent] = []
    for t, op in ops:
        method = engine.put if op.startswith("P") else engine.get
        out += [e for e in method(t, "MYQUEUE") if isinstance(e, PerfEvent)]
    return out


def row(e: PerfEvent) -> tuple:
    return (e.time_ms, e.reason, e.time_since_reset, e.high_q_depth, e.msg_enq_count,
            e.msg_deq_count)


def test_service_interval_example_1() -> None:
    """P1, G1 after more than I (High), P2, G2 within I (OK); T0 = start."""
    t0, p1, g1, p2, g2 = 0, 2_000, 15_000, 20_000, 25_000
    events = run(si_engine(mqc.MQQSIE_HIGH), [(p1, "P1"), (g1, "G1"), (p2, "P2"), (g2, "G2")])
    assert [row(e) for e in events] == [
        (g1, HIGH, (g1 - t0) // 1000, 1, 1, 1),
        (g2, OK, (g2 - g1) // 1000, 1, 1, 1),
    ]


def test_service_interval_example_2() -> None:
    """OK enabled at T0: P1, P2 (no event), G1 after I (no event, timer reset), G2 in I."""
    t0, p1, p2, g1, g2 = 0, 1_000, 4_000, 13_000, 20_000
    engine = si_engine(mqc.MQQSIE_OK)
    events = run(engine, [(p1, "P1"), (p2, "P2"), (g1, "G1"), (g2, "G2")])
    assert [row(e) for e in events] == [(g2, OK, (g2 - t0) // 1000, 2, 2, 2)]
    q = engine.snapshot("MYQUEUE")
    assert q.service_event == mqc.MQQSIE_HIGH and q.timer_ms is None  # High on, timer OFF


def test_service_interval_example_3() -> None:
    """P1, P2, P3 (> I: High, timer not reset), G1, G2 (> I: nothing), G3 at exactly I: OK."""
    t0, p1, p2, p3, g1, g2 = 0, 1_000, 5_000, 12_000, 30_000, 45_000
    g3 = g2 + INTERVAL  # the service timer EQUAL to the interval
    engine = si_engine(mqc.MQQSIE_HIGH)
    events = run(engine, [(p1, "P1"), (p2, "P2"), (p3, "P3"), (g1, "G1"), (g2, "G2"),
                          (g3, "G3")])
    assert [row(e) for e in events] == [
        (p3, HIGH, (p3 - t0) // 1000, 3, 3, 0),
        (g3, OK, (g3 - p3) // 1000, 3, 0, 3),
    ]
    assert engine.snapshot("MYQUEUE").timer_ms is None


def test_no_event_when_the_interval_merely_passes() -> None:
    engine = si_engine(mqc.MQQSIE_HIGH)
    assert run(engine, [(0, "P1")]) == []
    assert engine.snapshot("MYQUEUE").timer_ms == 0  # nothing happens without an MQI call


# ------------------------------------------------------------------ queue depth examples

def depth_engine() -> QueueManagerEngine:
    """DEFINE QLOCAL('MYQUEUE1') MAXDEPTH(1000) QDPMAXEV(DISABLED) QDEPTHHI(80)
    QDPHIEV(ENABLED) QDEPTHLO(20) QDPLOEV(DISABLED)."""
    return QueueManagerEngine("QM1", [QueueAttrs(
        "MYQUEUE1", max_depth=1000, depth_max_event=False, depth_high_limit=80,
        depth_high_event=True, depth_low_limit=20, depth_low_event=False)])


class Replay:
    """Puts and gets one per second; records events, enabled states and named times."""

    def __init__(self) -> None:
        self.engine = depth_engine()
        self.t = 0
        self.events: list[PerfEvent] = []
        self.failures: list[Failure] = []
        self.enabled: list[tuple[int, dict[str, bool]]] = []

    def __call__(self, op: str, count: int) -> None:
        for _ in range(count):
            self.t += 1000
            fn = self.engine.put if op == "put" else self.engine.get
            for out in fn(self.t, "MYQUEUE1"):
                (self.events if isinstance(out, PerfEvent) else self.failures).append(out)
            self.enabled.append((self.t, self.engine.snapshot("MYQUEUE1").enabled))

    @property
    def depth(self) -> int:
        return self.engine.snapshot("MYQUEUE1").depth

    def state(self) -> tuple[bool, bool, bool]:
        e = self.engine.snapshot("MYQUEUE1").enabled
        return e["high"], e["low"], e["full"]


def stats(e: PerfEvent) -> tuple:
    return (e.reason, e.high_q_depth, e.msg_enq_count, e.msg_deq_count)


def test_queue_depth_example_1() -> None:
    r = Replay()
    assert r.state() == (True, False, False)          # before T(1): High only
    r("put", 600)                                      # T(1): up through 20 %: no event
    r("get", 357)
    assert r.depth == 243 and r.events == []
    r("put", 557)                                      # T(2): 800 = 80 % -> Depth High
    t2 = r.t
    assert r.state() == (False, True, True)           # T(2)-T(4): Low + Full
    r("put", 100)                                      # up to 900
    r("get", 600)                                      # T(3): down through 80 %: no event
    r("put", 600)
    r("get", 600)
    r("put", 520)
    r("get", 619)
    assert r.depth == 201 and len(r.events) == 1
    r("get", 1)                                        # T(4): 200 = 20 % -> Depth Low
    t4 = r.t
    assert r.state() == (True, False, True)           # after T(4): High + Full
    assert [stats(e) for e in r.events] == [(DHIGH, 800, 1157, 357), (DLOW, 900, 1220, 1820)]
    assert [e.time_ms for e in r.events] == [t2, t4]
    assert [e.time_since_reset for e in r.events] == [t2 // 1000, (t4 - t2) // 1000]


def test_queue_depth_example_2() -> None:
    r = Replay()
    periods: dict[str, tuple[bool, bool, bool]] = {"T0-T4": r.state()}
    r("put", 300)       # T(1): up through the low limit (Low not enabled)
    r("get", 150)       # T(2): below it (not enabled)
    r("put", 600)       # T(3): up through it again (not enabled)
    r("get", 695)
    r("put", 745)       # T(4): 800 -> Depth High
    times = {4: r.t}
    periods["T4-T6"] = r.state()
    r("put", 55)        # up to 855
    r("get", 400)       # T(5): down through 80 %
    r("put", 256)
    r("get", 510)
    r("get", 1)         # T(6): 200 -> Depth Low
    times[6] = r.t
    periods["T6-T8"] = r.state()
    r("put", 599)
    r("get", 777)       # T(7): down through 20 % (Low not enabled)
    r("put", 778)       # T(8): 800 -> Depth High
    times[8] = r.t
    periods["T8-T9"] = r.state()
    r("get", 124)
    r("put", 324)       # up to 1000 = MAXDEPTH
    assert r.depth == 1000 and len(r.events) == 3
    r("put", 1)         # T(9): the first put that fails -> Queue Full
    times[9] = r.t
    periods["T9-T12"] = r.state()
    r("put", 5)         # T(10), T(11): more failed puts, Full not enabled: no event
    r("get", 500)
    r("put", 221)
    r("get", 520)
    r("get", 1)         # T(12): 200 -> Depth Low
    times[12] = r.t
    periods["after T12"] = r.state()
    assert [stats(e) for e in r.events] == [
        (DHIGH, 800, 1645, 845), (DLOW, 855, 311, 911), (DHIGH, 800, 1377, 777),
        (FULL, 1000, 324, 124), (DLOW, 1000, 221, 1021)]
    t = [0, *(times[k] for k in (4, 6, 8, 9, 12))]
    assert [e.time_ms for e in r.events] == t[1:]
    assert [e.time_since_reset for e in r.events] == [
        (b - a) // 1000 for a, b in pairwise(t)]
    assert periods == {  # Table 11: (High, Low, Full)
        "T0-T4": (True, False, False), "T4-T6": (False, True, True),
        "T6-T8": (True, False, True), "T8-T9": (False, True, True),
        "T9-T12": (False, True, False), "after T12": (True, False, True)}
    assert len(r.failures) == 6 and all(f.reason == mqc.MQRC_Q_FULL for f in r.failures)


def test_events_are_out_of_syncpoint() -> None:
    """Fill (event), roll back, refill: no second event - the enabling already toggled."""
    r = Replay()
    r("put", 800)
    assert len(r.events) == 1
    r.engine.backout(r.t, "MYQUEUE1", 800)
    assert r.depth == 0 and r.state() == (False, True, True)
    r("put", 800)
    assert len(r.events) == 1


def test_event_queue_unavailable_loses_the_event_but_toggles() -> None:
    engine = QueueManagerEngine("QM1", [
        QueueAttrs("Q", max_depth=10, depth_high_event=True),
        QueueAttrs("SYSTEM.ADMIN.PERFM.EVENT", max_depth=0, depth_high_event=True)])
    out = engine.put(1000, "Q", 8)
    assert [(e.reason, e.lost) for e in out] == [(DHIGH, True)]
    assert engine.snapshot("Q").enabled == {"high": False, "low": True, "full": True}
    assert engine.snapshot("Q").stats.msg_enq_count == 0  # statistics reset all the same
    engine.event_queue_available = False
    out = engine.put(2000, "Q", 3)  # depth 10, then a put fails: Queue Full, lost too
    assert [(type(o).__name__, o.reason) for o in out] == [("Failure", FULL), ("PerfEvent", FULL)]
    assert out[1].lost and engine.snapshot("Q").enabled["full"] is False


def test_no_performance_events_for_event_queues() -> None:
    engine = QueueManagerEngine("QM1", [QueueAttrs("SYSTEM.ADMIN.PERFM.EVENT", max_depth=10,
                                                   depth_high_event=True)])
    assert engine.put(0, "SYSTEM.ADMIN.PERFM.EVENT", 11) == [
        Failure(0, "QM1", "SYSTEM.ADMIN.PERFM.EVENT", "PUT", mqc.MQRC_Q_FULL)]


def test_perfmev_disabled_raises_nothing_and_toggles_nothing() -> None:
    engine = QueueManagerEngine("QM1", [QueueAttrs("LQ1", max_depth=10,
                                                   depth_high_event=True)], perfmev=False)
    assert engine.put(0, "LQ1", 9) == []
    assert engine.snapshot("LQ1").enabled == {"high": True, "low": False, "full": True}


def test_reset_qstats_and_restart_reset_the_statistics() -> None:
    engine = QueueManagerEngine("QM1", [QueueAttrs("Q", max_depth=10, depth_high_event=True,
                                                   service_interval=5_000,
                                                   service_interval_event=mqc.MQQSIE_HIGH)])
    engine.put(1_000, "Q", 3)
    engine.reset_stats(4_000, "Q")
    s = engine.snapshot("Q").stats
    assert (s.reset_ms, s.high_q_depth, s.msg_enq_count, s.msg_deq_count) == (4000, 3, 0, 0)
    engine.put(5_000, "Q", 1)
    engine.restart(60_000)
    q = engine.snapshot("Q")
    assert q.timer_ms == 60_000 and q.stats.reset_ms == 60_000 and q.stats.msg_enq_count == 0
    # the timer restarted at start-up: a get 3 s later is within the interval -> no High
    assert engine.get(63_000, "Q") == []
    out = engine.get(70_000, "Q")  # 7 s since the last get -> High
    assert [(e.reason, e.time_since_reset, e.msg_deq_count) for e in out] == [(HIGH, 10, 2)]


def test_failed_operations_are_not_counted() -> None:
    engine = QueueManagerEngine("QM1", [QueueAttrs("Q", max_depth=2, depth_max_event=False)])
    out = engine.get(0, "Q") + engine.put(1, "Q", 3)
    assert [f.reason for f in out] == [mqc.MQRC_NO_MSG_AVAILABLE, mqc.MQRC_Q_FULL]
    s = engine.snapshot("Q").stats
    assert (s.msg_enq_count, s.msg_deq_count, s.high_q_depth) == (2, 0, 2)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["put", "get"]), st.integers(1, 40)),
                max_size=40))
def test_depth_events_alternate_and_statistics_add_up(ops: list[tuple[str, int]]) -> None:
    """Depth High and Low alternate (Full between them), and each event's counts balance."""
    engine = QueueManagerEngine("QM1", [QueueAttrs("Q", max_depth=50, depth_high_event=True,
                                                   depth_low_event=True)])
    depth_at_reset, t = 0, 0
    last = None
    steps = [op for op, n in ops for _ in range(n)]
    for op in steps:
        t += 1000
        for out in (engine.put if op == "put" else engine.get)(t, "Q"):
            if not isinstance(out, PerfEvent):
                continue
            after = engine.snapshot("Q").depth
            assert depth_at_reset + out.msg_enq_count - out.msg_deq_count == after
            assert out.high_q_depth >= max(depth_at_reset, after)
            if out.reason in (DHIGH, DLOW):
                assert out.reason != last
                last = out.reason
            depth_at_reset = after


def test_equal_limits_give_an_event_every_crossing() -> None:
    """QDEPTHHI = QDEPTHLO: High when the depth reaches it from below, Low from above."""
    engine = QueueManagerEngine("QM1", [QueueAttrs("Q", max_depth=10, depth_high_limit=50,
                                                   depth_low_limit=50, depth_high_event=True,
                                                   depth_max_event=False)])
    reasons = []
    for t, (op, n) in enumerate([("put", 5), ("get", 1), ("put", 1), ("get", 1), ("get", 1)]):
        fn = engine.put if op == "put" else engine.get
        reasons += [e.reason for e in fn(t * 1000, "Q", n) if isinstance(e, PerfEvent)]
    assert reasons == [DHIGH, DLOW, DHIGH, DLOW]
