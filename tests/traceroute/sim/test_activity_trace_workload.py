"""Every journey verdict from MQSC + a few lines of workload, through activity trace."""

from __future__ import annotations

from collections import Counter
from importlib import resources

from pcf import mqc
from traceroute.journeys import JourneyVerdict as V
from traceroute.journeys import Location, parse_activity_trace, reconstruct
from traceroute.sim.activity_trace import ActivityTracer
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator
from traceroute.sim.workload import Browser, Consumer, DistributionList, Producer, Workload

EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
MQSC = EXAMPLE.replace("ALTER QMGR ACTIVREC(MSG)", "ALTER QMGR ACTVTRC(ON) ACTIVREC(MSG)") + """
* Queue manager name: QM1
DEFINE QLOCAL('LQ') REPLACE
DEFINE QLOCAL('R.Q') REPLACE
DEFINE QREMOTE('TO.NOWHERE') RNAME('NOPE') RQMNAME('QM2') XMITQ('QM2') REPLACE
"""


def _run(*apps, until: float = 30.0, mqat=None, stop=None):
    sim = Simulator(parse_mqsc(MQSC, source="w.mqsc"))
    tracer = ActivityTracer(sim, mqat=mqat)
    if stop:
        sim.stop_channel(*stop)
    workload = Workload(sim).add(*apps)
    workload.run(until=until)
    result = reconstruct(parse_activity_trace(md, d) for md, d in tracer.messages())
    return workload, result


def test_every_verdict_of_a_mixed_workload() -> None:
    w, result = _run(
        Producer("QM1", "TARG.AT.QM2", count=3, reply_to_q="R.Q", appl_name="orders"),
        Consumer("QM2", "TARGET.Q", reply=True, appl_name="server"),
        Consumer("QM1", "R.Q", interval=2.0, appl_name="client"),       # slow but there
        Producer("QM1", "LQ", count=2, put1=False, appl_name="batch"),
        Consumer("QM1", "LQ", stopped=True),
        Browser("QM1", "LQ", appl_name="audit"),
        Producer("QM1", "TO.NOWHERE", appl_name="typo"),
        Producer("QM1", "NO.SUCH.Q", appl_name="lost"),
        DistributionList("QM1", ["LQ", ("TARGET.Q", "QM2")], appl_name="dist"))
    assert w.failed == [("lost", mqc.MQRC_UNKNOWN_OBJECT_NAME)]
    by_appl: dict[str, Counter] = {}
    for j in result.journeys:
        by_appl.setdefault(j.steps[0].call.conn.appl_name, Counter())[j.verdict] += 1
    assert by_appl["orders"] == {V.CONSUMED: 3}
    assert by_appl["server"] == {V.CONSUMED: 3}  # the replies
    assert by_appl["batch"] == {V.ON_QUEUE: 2}
    assert by_appl["typo"] == {V.DEAD_LETTERED: 1}
    assert by_appl["lost"] == {V.PUT_FAILED: 1}
    assert by_appl["dist"] == {V.ON_QUEUE: 1, V.CONSUMED: 1}
    replies = [j for j in result.journeys if j.reply_to]
    requests = {j.msg_id for j in result.journeys if j.steps[0].call.conn.appl_name == "orders"}
    assert len(replies) == 3 and {j.reply_to for j in replies} == requests
    on_lq = [j for j in result.journeys if j.verdict == V.ON_QUEUE]
    assert all("browse" in [s.role for s in j.steps] for j in on_lq)
    assert all(j.last_location == Location("QM1", "LQ") for j in on_lq)
    dead = next(j for j in result.journeys if j.verdict == V.DEAD_LETTERED)
    assert dead.last_location == Location("QM2", "SYSTEM.DEAD.LETTER.QUEUE")
    assert [s.role for s in dead.steps] == ["put", "mca_get", "failed_put", "dlq_put"]
    assert dead.steps[2].call.reason == mqc.MQRC_UNKNOWN_OBJECT_NAME
    assert result.holes == {} and result.duplicates == 0


def test_stopped_channel_keeps_replies_on_the_transmission_queue() -> None:
    _, result = _run(Producer("QM1", "TARG.AT.QM2", count=2, reply_to_q="R.Q"),
                     Consumer("QM2", "TARGET.Q", reply=True, appl_name="server"),
                     stop=("QM2", "QM2.TO.QM1"))
    replies = [j for j in result.journeys if j.reply_to]
    assert len(replies) == 2
    assert all(j.verdict == V.ON_XMITQ and j.last_location == Location("QM2", "QM1")
               for j in replies)


def test_in_transit_when_the_run_ends_mid_hop() -> None:
    _, result = _run(Producer("QM1", "TARG.AT.QM2", start=1.0), until=1.07)
    (j,) = result.journeys
    assert j.verdict == V.IN_TRANSIT
    assert j.last_location == Location("QM1", "QM2", "QM1.TO.QM2")


def test_incomplete_when_channels_are_not_traced() -> None:
    no_mca = "ApplicationTrace:\nApplClass=MCA\nApplName=*\nTrace=OFF\n"
    _, result = _run(Producer("QM1", "TARG.AT.QM2"), mqat={"QM1": no_mca})
    (j,) = result.journeys
    assert j.verdict == V.INCOMPLETE and j.last_location == Location("QM2", "TARGET.Q")
    assert any("records missing" in n for n in j.notes)


CLUSTER = """
* Queue manager name: GW
ALTER QMGR ACTVTRC(ON)
DEFINE CHANNEL(TO.GW) CHLTYPE(CLUSRCVR) CLUSTER(APPS) CONNAME('gw') REPLACE
* Queue manager name: A
ALTER QMGR ACTVTRC(ON)
DEFINE CHANNEL(TO.A) CHLTYPE(CLUSRCVR) CLUSTER(APPS) CONNAME('a') REPLACE
DEFINE QLOCAL(ORDERS) CLUSTER(APPS) REPLACE
* Queue manager name: B
ALTER QMGR ACTVTRC(ON)
DEFINE CHANNEL(TO.B) CHLTYPE(CLUSRCVR) CLUSTER(APPS) CONNAME('b') REPLACE
DEFINE QLOCAL(ORDERS) CLUSTER(APPS) REPLACE
"""


def test_cluster_messages_followed_through_the_cluster_transmission_queue() -> None:
    sim = Simulator(parse_mqsc(CLUSTER, source="cluster.mqsc"))
    tracer = ActivityTracer(sim)
    Workload(sim).add(Producer("GW", "ORDERS", count=4, interval=1.0),
                      Consumer("A", "ORDERS"), Consumer("B", "ORDERS")).run(until=10)
    result = reconstruct(parse_activity_trace(md, d) for md, d in tracer.messages())
    assert len(result.journeys) == 4 and {j.verdict for j in result.journeys} == {V.CONSUMED}
    assert Counter(j.last_location.queue_manager for j in result.journeys) == {"A": 2, "B": 2}
    for j in result.journeys:
        put, get, received, _got = j.steps
        assert put.queue == "SYSTEM.CLUSTER.TRANSMIT.QUEUE" and get.role == "mca_get"
        assert get.channel == received.channel == f"TO.{j.last_location.queue_manager}"
