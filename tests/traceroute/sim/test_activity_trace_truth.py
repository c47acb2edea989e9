"""Journeys from simulated activity trace agree with where the simulator really left each
message (its queues), over random workloads: a property test against ground truth."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pcf.headers import unpack_xqh
from tests.traceroute.sim.test_activity_trace_workload import MQSC
from traceroute.journeys import JourneyVerdict as V
from traceroute.journeys import parse_activity_trace, reconstruct
from traceroute.sim.activity_trace import ActivityTracer
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator
from traceroute.sim.workload import Browser, Consumer, Producer, Workload

TARGETS = ["TARG.AT.QM2", "LQ", "TO.NOWHERE", "NO.SUCH.Q", "R.Q"]
CONSUMERS = [("QM2", "TARGET.Q"), ("QM1", "LQ"), ("QM1", "R.Q")]


def where_is(sim: Simulator, msg_id: bytes) -> tuple[str, str, str] | None:
    """(verdict, queue manager, queue) of a message still on a queue, from the simulator."""
    for (qm, queue), stored in sim.queues.items():
        for s in stored:
            if s.md.format.strip() == "MQXMIT":
                original = s.original or unpack_xqh(s.data).msg_desc
                if original.msg_id == msg_id:
                    return "on_xmitq", qm, queue
            elif s.md.msg_id == msg_id and not queue.startswith("SYSTEM.ADMIN"):
                dead = queue == sim.network.qmgrs[qm].deadq
                return ("dead_lettered" if dead else "on_queue"), qm, queue
    return None


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TARGETS), st.integers(1, 4),
                          st.floats(0, 5), st.booleans()), min_size=1, max_size=5),
       st.lists(st.tuples(st.sampled_from(CONSUMERS), st.booleans(),
                          st.sampled_from([0.5, 3.0, 20.0])), max_size=3),
       st.booleans(), st.booleans())
def test_journeys_match_the_simulators_queues(producers, consumers, stop, browse) -> None:
    sim = Simulator(parse_mqsc(MQSC, source="w.mqsc"), seed=1)
    tracer = ActivityTracer(sim, mqat={"QM1": "AllActivityTrace:\nActivityCount=5\n",
                                       "QM2": "AllActivityTrace:\nActivityCount=3\n"})
    if stop:
        sim.stop_channel("QM1", "QM1.TO.QM2")
    apps = [Producer("QM1", q, count=n, start=t, put1=put1, appl_name=f"p{i}")
            for i, (q, n, t, put1) in enumerate(producers)]
    apps += [Consumer(qm, q, stopped=stopped, interval=every, appl_name=f"c{i}")
             for i, ((qm, q), stopped, every) in enumerate(consumers)]
    if browse:
        apps.append(Browser("QM1", "LQ"))
    workload = Workload(sim).add(*apps)
    workload.run(until=8.0, disconnect=False)
    sim.run()  # nothing left in flight
    sim.disconnect_all()
    result = reconstruct(parse_activity_trace(md, d) for md, d in tracer.messages())
    journeys = {j.msg_id: j for j in result.journeys if j.verdict != V.PUT_FAILED}
    assert sorted(journeys) == sorted(m for _, m in workload.sent)
    got = {m for _, m in workload.got}
    failed = [j for j in result.journeys if j.verdict == V.PUT_FAILED]
    assert len(failed) == len(workload.failed)
    for msg_id, j in journeys.items():
        if msg_id in got:
            assert j.verdict == V.CONSUMED, j.to_dict()
            continue
        truth = where_is(sim, msg_id)
        assert truth is not None, j.to_dict()
        verdict, qm, queue = truth
        assert (str(j.verdict), j.last_location.queue_manager, j.last_location.queue) == \
            (verdict, qm, queue), j.to_dict()
    assert not result.holes and not result.duplicates
