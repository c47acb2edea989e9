"""The simulated network, end to end from MQSC: IBM's four dspmqrte examples and more."""

from __future__ import annotations

from importlib import resources

import pytest

from pcf import mqc
from pcf.headers import unpack_dlh
from tests.support import dspmqrte_examples as ex
from traceroute.display.dspmqrte import render_route
from traceroute.records.parse import REPLY, parse_message
from traceroute.records.tracemsg import TraceOptions, build_trace_message
from traceroute.routes.ordering import Gap, build_routes
from traceroute.routes.verdict import Verdict
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import ACTIVITY_QUEUE, Simulator

EXAMPLE_MQSC = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
NAMES = {"sending_mca": ex.SENDER, "receiving_mca": ex.RECEIVER}


def simulator(extra: str = "", **kw) -> Simulator:
    return Simulator(parse_mqsc(EXAMPLE_MQSC + "\n" + extra, source="qm1_qm2.mqsc"),
                     **{**NAMES, **kw})


def trace(sim: Simulator, qmgr: str = "QM1", **options) -> bytes:
    opts = TraceOptions.from_dspmqrte(**options)
    md, data = build_trace_message(opts, msg_id=sim.new_msg_id(qmgr))
    result = sim.put(qmgr, opts.target_q, md, data, target_qmgr=opts.target_q_mgr,
                     appl_name=ex.DSPMQRTE, appl_type=mqc.MQAT_WINDOWS_NT)
    assert result.ok, result.reason
    sim.run()
    return md.msg_id


def routes_from(sim: Simulator, qmgr: str, queue: str):
    return build_routes(parse_message(md, data) for md, data in sim.browse(qmgr, queue))


def stripped(lines) -> list[str]:
    return [line.strip() for line in lines]


def without_ids(lines) -> list[str]:
    return [x for x in stripped(lines) if not x.startswith(("MsgId:", "CorrelId:"))]


def test_example1_activity_reports():
    sim = simulator()
    msg_id = trace(sim, q="TARG.AT.QM2", rq="ACTIV.REPLY.Q")
    assert sim.depth("QM1", "ACTIV.REPLY.Q") == 3
    (route,) = routes_from(sim, "QM1", "ACTIV.REPLY.Q")
    assert route.correl_id == msg_id
    assert [a.appl_name for a in route.activities] == [ex.DSPMQRTE, ex.SENDER, ex.RECEIVER]
    assert route.verdict is Verdict.DISCARDED_AT_TARGET and route.complete
    assert stripped(render_route(route)) == stripped(ex.SUMMARY.splitlines())
    assert sim.depth("QM2", "TARGET.Q") == 0  # Deliver=NO: not delivered


def test_example2_trace_route_reply():
    sim = simulator()
    trace(sim, q="TARG.AT.QM2", rq="TR.REPLY.Q", ac=True, ar=True, ro="discard")
    msgs = sim.browse("QM1", "TR.REPLY.Q")
    assert len(msgs) == 1  # no activity reports: -ro discard only
    record = parse_message(*msgs[0])
    assert record.kind == REPLY and len(record.activities) == 3
    (route,) = build_routes([record])
    assert route.verdict is Verdict.DISCARDED_AT_TARGET and route.complete
    assert stripped(render_route(route)) == stripped(ex.SUMMARY.splitlines())


def test_example3_report_lands_on_the_system_queue_of_qm2():
    sim = simulator("* Queue manager name: QM2\nALTER QMGR ACTIVREC(QUEUE)\n")
    msg_id = trace(sim, q="TARG.AT.QM2", rq="ACTIV.REPLY.Q")
    (route,) = routes_from(sim, "QM1", "ACTIV.REPLY.Q")
    assert route.verdict is Verdict.INCOMPLETE
    shown = render_route(route, "outline", ["identifiers"])
    assert without_ids(shown) == without_ids(ex.EXAMPLE3.splitlines())
    put, get, send = (op for a in route.activities for op in a.operations)
    assert put.md.msg_id == msg_id and send.md.msg_id == msg_id
    assert get.md.correl_id == msg_id and get.embedded_md.msg_id == msg_id
    assert get.md.msg_id != msg_id  # the xmitq copy has its own MsgId
    # the follow-up: dspmqrte -m QM2 -q SYSTEM.ADMIN.ACTIVITY.QUEUE -i <MsgId> -v outline
    (follow,) = routes_from(sim, "QM2", ACTIVITY_QUEUE)
    assert follow.correl_id == msg_id and follow.steps[0] == Gap(missing=2)
    assert stripped(render_route(follow, "outline")) == \
        stripped(ex.EXAMPLE3_FOLLOW_UP.splitlines())


def test_example4_stopped_channel_then_started():
    sim = simulator("* Queue manager name: QM1\nSTOP CHANNEL(QM1.TO.QM2)\n")
    trace(sim, q="TARG.AT.QM2", rq="ACTIV.REPLY.Q")
    (route,) = routes_from(sim, "QM1", "ACTIV.REPLY.Q")
    assert route.verdict is Verdict.WAITING_ON_XMITQ
    assert stripped(render_route(route, "outline")) == stripped(ex.EXAMPLE4.splitlines())
    assert sim.depth("QM1", "QM2") == 1  # waiting on the transmission queue
    sim.start_channel("QM1", "QM1.TO.QM2")
    sim.run()
    (route,) = routes_from(sim, "QM1", "ACTIV.REPLY.Q")
    assert route.verdict is Verdict.DISCARDED_AT_TARGET and route.complete


def test_expired_while_the_channel_was_stopped():
    sim = simulator("* Queue manager name: QM1\nSTOP CHANNEL(QM1.TO.QM2)\n")
    trace(sim, q="TARG.AT.QM2", rq="ACTIV.REPLY.Q", xs="10", ro="activity,expiration")
    sim.run(until=30)
    sim.start_channel("QM1", "QM1.TO.QM2")
    sim.run()
    assert sim.depth("QM1", "QM2") == 0
    feedback = [md.feedback for md, _ in sim.browse("QM1", "ACTIV.REPLY.Q")]
    assert mqc.MQFB_EXPIRATION in feedback and feedback.count(mqc.MQFB_ACTIVITY) == 2
    reports = [(m, d) for m, d in sim.browse("QM1", "ACTIV.REPLY.Q")
               if m.feedback == mqc.MQFB_ACTIVITY]
    (route,) = build_routes(parse_message(m, d) for m, d in reports)
    assert route.verdict is Verdict.EXPIRED  # the sending MCA's Discard, MQFB_EXPIRATION
    assert route.location.queue == "QM2" and route.location.queue_manager == "QM1"


def test_deliver_yes_puts_the_trace_route_message_on_the_target():
    sim = simulator()
    trace(sim, q="TARG.AT.QM2", rq="ACTIV.REPLY.Q", d="yes", ac=True)
    (on_target,) = sim.browse("QM2", "TARGET.Q")
    record = parse_message(*on_target)
    assert [a.appl_name for a in record.activities] == [ex.DSPMQRTE, ex.SENDER, ex.RECEIVER]
    (route,) = routes_from(sim, "QM1", "ACTIV.REPLY.Q")
    assert route.verdict is Verdict.DELIVERED


def test_max_activities_stops_a_queue_manager_alias_loop():
    loop = """
* Queue manager name: QM1
DEFINE QREMOTE(LOOP.Q) RNAME(LOOP.Q) RQMNAME(QMX) XMITQ(QM2) REPLACE
DEFINE QREMOTE(QMX) RNAME(' ') RQMNAME(QMX) XMITQ(QM2) REPLACE
* Queue manager name: QM2
DEFINE QREMOTE(QMX) RNAME(' ') RQMNAME(QMX) XMITQ(QM1) REPLACE
"""
    sim = simulator(loop)
    trace(sim, q="LOOP.Q", rq="ACTIV.REPLY.Q", s="6")
    (route,) = routes_from(sim, "QM1", "ACTIV.REPLY.Q")
    assert route.verdict is Verdict.MAX_ACTIVITIES
    assert len(route.activities) == 7  # the 7th activity is rejected, and recorded
    last = route.activities[-1]
    assert last.trace_route.recorded_activities == 7
    assert (last.last.name, last.last.feedback) == ("Discard", mqc.MQFB_MAX_ACTIVITIES)


def test_dead_letter_queue_with_reason():
    missing = """
* Queue manager name: QM1
DEFINE QREMOTE(NOWHERE) RNAME(NO.SUCH.Q) RQMNAME(QM2) XMITQ(QM2) REPLACE
"""
    sim = simulator(missing)
    trace(sim, q="NOWHERE", rq="ACTIV.REPLY.Q", ro="activity", d="yes")
    (route,) = routes_from(sim, "QM1", "ACTIV.REPLY.Q")
    assert route.verdict is Verdict.DEAD_LETTERED
    assert route.outcome.feedback == mqc.MQRC_UNKNOWN_OBJECT_NAME
    assert route.location.queue == "SYSTEM.DEAD.LETTER.QUEUE"
    ((md, data),) = sim.browse("QM2", "SYSTEM.DEAD.LETTER.QUEUE")
    dlh = unpack_dlh(data)
    assert md.format == "MQDEAD" and dlh.reason == mqc.MQRC_UNKNOWN_OBJECT_NAME
    assert (dlh.dest_q_name, dlh.dest_q_mgr_name) == ("NO.SUCH.Q", "QM2")


def test_a_queue_manager_without_trace_route_support():
    old = """
* Queue manager name: QM2
ALTER QMGR CMDLEVEL(530)
DEFINE QREMOTE(TO.QM3) RNAME(FINAL.Q) RQMNAME(QM3) XMITQ(QM3) REPLACE
DEFINE QLOCAL(QM3) USAGE(XMITQ) REPLACE
DEFINE CHANNEL(QM2.TO.QM3) CHLTYPE(SDR) CONNAME('qm3(1414)') XMITQ(QM3) REPLACE
* Queue manager name: QM3
ALTER QMGR ACTIVREC(MSG) DEADQ(DLQ)
DEFINE QLOCAL(DLQ) REPLACE
DEFINE QLOCAL(FINAL.Q) REPLACE
DEFINE QLOCAL(QM1) USAGE(XMITQ) REPLACE
DEFINE CHANNEL(QM2.TO.QM3) CHLTYPE(RCVR) REPLACE
DEFINE CHANNEL(QM3.TO.QM1) CHLTYPE(SDR) CONNAME('qm1(1414)') XMITQ(QM1) REPLACE
* Queue manager name: QM1
DEFINE QREMOTE(VIA.OLD) RNAME(TO.QM3) RQMNAME(QM2) XMITQ(QM2) REPLACE
DEFINE CHANNEL(QM3.TO.QM1) CHLTYPE(RCVR) REPLACE
"""
    sim = simulator(old)
    trace(sim, q="VIA.OLD", rq="ACTIV.REPLY.Q", d="yes", f="all")
    (route,) = routes_from(sim, "QM1", "ACTIV.REPLY.Q")
    assert [a.qmgr for a in route.activities] == ["QM1", "QM1", "QM3"]
    assert route.steps[2] == Gap(missing=0, discontinuities=1)
    assert route.verdict is Verdict.DELIVERED and not route.complete
    assert sim.depth("QM3", "FINAL.Q") == 1


def test_forward_if_supported_is_not_forwarded_to_an_old_queue_manager():
    sim = simulator("* Queue manager name: QM2\nALTER QMGR CMDLEVEL(530)\n")
    trace(sim, q="TARG.AT.QM2", rq="ACTIV.REPLY.Q")
    (route,) = routes_from(sim, "QM1", "ACTIV.REPLY.Q")
    assert route.verdict is Verdict.NOT_FORWARDED
    assert route.location.remote_queue_manager == "QM2"


CLUSTER = """
* Queue manager name: GW
DEFINE CHANNEL(TO.GW) CHLTYPE(CLUSRCVR) CLUSTER(APPS) CONNAME('gw') REPLACE
DEFINE QLOCAL(REPLY.Q) REPLACE
* Queue manager name: A
DEFINE CHANNEL(TO.A) CHLTYPE(CLUSRCVR) CLUSTER(APPS) CONNAME('a') REPLACE
DEFINE QLOCAL(ORDERS) CLUSTER(APPS) REPLACE
* Queue manager name: B
DEFINE CHANNEL(TO.B) CHLTYPE(CLUSRCVR) CLUSTER(APPS) CONNAME('b') REPLACE
DEFINE QLOCAL(ORDERS) CLUSTER(APPS) REPLACE
* Queue manager name: C
DEFINE CHANNEL(TO.C) CHLTYPE(CLUSRCVR) CLUSTER(APPS) CONNAME('c') REPLACE
DEFINE QLOCAL(ORDERS) CLUSTER(APPS) REPLACE
"""


def test_cluster_round_robin_over_three_instances():
    sim = Simulator(parse_mqsc(CLUSTER, source="cluster.mqsc"))
    for _ in range(10):
        trace(sim, "GW", q="ORDERS", rq="REPLY.Q", d="yes")
    routes = routes_from(sim, "GW", "REPLY.Q")
    assert len(routes) == 10
    ends = [r.location.queue_manager for r in routes]
    assert all(r.verdict is Verdict.DELIVERED for r in routes)
    assert sorted(ends.count(q) for q in "ABC") == [3, 3, 4]
    assert sum(sim.depth(q, "ORDERS") for q in "ABC") == 10


def test_runs_are_deterministic():
    def run() -> list[tuple[bytes, bytes]]:
        sim = simulator(seed=7)
        trace(sim, q="TARG.AT.QM2", rq="ACTIV.REPLY.Q")
        return sim.browse("QM1", "ACTIV.REPLY.Q")
    assert run() == run()


@pytest.mark.parametrize("reason, setup, queue", [
    (mqc.MQRC_UNKNOWN_OBJECT_NAME, "", "NO.SUCH.QUEUE"),
    (mqc.MQRC_UNKNOWN_REMOTE_Q_MGR, "", "X"),
])
def test_open_failures_give_mq_reasons(reason, setup, queue):
    sim = simulator(setup)
    opts = TraceOptions.from_dspmqrte(q=queue, rq="ACTIV.REPLY.Q")
    md, data = build_trace_message(opts, msg_id=sim.new_msg_id("QM1"))
    target = "QM9" if reason == mqc.MQRC_UNKNOWN_REMOTE_Q_MGR else ""
    assert sim.put("QM1", queue, md, data, target_qmgr=target).reason == reason


def test_ordinary_message_with_activity_reports_and_coa():
    from pcf.mqmd import MQMD
    sim = simulator()
    md = MQMD(report=mqc.MQRO_ACTIVITY | mqc.MQRO_COA, format="MQSTR",
              reply_to_q="ACTIV.REPLY.Q")
    assert sim.put("QM1", "TARG.AT.QM2", md, b"hello").ok
    sim.run()
    assert sim.browse("QM2", "TARGET.Q")[0][1] == b"hello"
    msgs = sim.browse("QM1", "ACTIV.REPLY.Q")
    feedback = sorted(m.feedback for m, _ in msgs)
    assert feedback == [mqc.MQFB_COA] + [mqc.MQFB_ACTIVITY] * 3
    records = [parse_message(m, d) for m, d in msgs if m.feedback == mqc.MQFB_ACTIVITY]
    (route,) = build_routes(records)
    assert route.verdict is Verdict.DELIVERED and route.complete  # chained, no counters


def test_bind_on_open_versus_bind_not_fixed():
    from pcf.mqmd import MQMD
    sim = Simulator(parse_mqsc(CLUSTER, source="cluster.mqsc"))
    fixed = sim.open("GW", "ORDERS", bind_not_fixed=False)
    for _ in range(6):
        assert fixed.put(MQMD(format="MQSTR"), b"x").ok
    sim.run()
    assert sorted(sim.depth(q, "ORDERS") for q in "ABC") == [0, 0, 6]
    loose = sim.open("GW", "ORDERS", bind_not_fixed=True)
    for _ in range(6):
        assert loose.put(MQMD(format="MQSTR"), b"x").ok
    sim.run()
    assert sorted(sim.depth(q, "ORDERS") for q in "ABC") == [2, 2, 8]


def test_queue_manager_alias_resolution_rules():
    from traceroute.sim.resolve import resolve
    text = """
* Queue manager name: QMA
DEFINE QLOCAL(APP.Q) REPLACE
DEFINE QLOCAL(QMB) USAGE(XMITQ) REPLACE
DEFINE QREMOTE(OLD.NAME) RNAME(' ') RQMNAME(QMA) XMITQ(QMB) REPLACE
DEFINE QREMOTE(QMC) RNAME(' ') RQMNAME(QMC) REPLACE
DEFINE CHANNEL(TO.QMA) CHLTYPE(CLUSRCVR) CLUSTER(CL) CONNAME('a') REPLACE
* Queue manager name: QMC
DEFINE CHANNEL(TO.QMC) CHLTYPE(CLUSRCVR) CLUSTER(CL) CONNAME('c') REPLACE
"""
    net = parse_mqsc(text, source="aliases.mqsc")
    local = resolve(net, "QMA", "APP.Q", "OLD.NAME")  # XMITQ ignored: the alias is local
    assert local.local and local.queue == "APP.Q"
    clustered = resolve(net, "QMA", "APP.Q", "QMC")  # substituted once, then the cluster
    assert clustered.ok and clustered.xmitq == "SYSTEM.CLUSTER.TRANSMIT.QUEUE"
    assert clustered.remote_qmgr == "QMC"


def test_cod_and_exception_reports_with_data():
    from pcf.mqmd import MQMD
    sim = simulator("* Queue manager name: QM1\n"
                    "DEFINE QREMOTE(NOWHERE) RNAME(NO.SUCH.Q) RQMNAME(QM2) XMITQ(QM2) REPLACE\n")
    cod = MQMD(report=mqc.MQRO_COD_WITH_DATA, format="MQSTR", reply_to_q="ACTIV.REPLY.Q")
    assert sim.put("QM1", "TARG.AT.QM2", cod, b"x" * 150).ok
    bad = MQMD(report=mqc.MQRO_EXCEPTION_WITH_FULL_DATA, format="MQSTR",
               reply_to_q="ACTIV.REPLY.Q")
    assert sim.put("QM1", "NOWHERE", bad, b"y" * 150).ok
    sim.run()
    assert sim.get("QM2", "TARGET.Q") is not None  # the consumer's get makes the COD
    sim.run()
    reports = {m.feedback: (m, d) for m, d in sim.browse("QM1", "ACTIV.REPLY.Q")}
    md, data = reports[mqc.MQFB_COD]
    assert md.msg_type == mqc.MQMT_REPORT and data == b"x" * 100  # WITH_DATA: 100 bytes
    md, data = reports[mqc.MQRC_UNKNOWN_OBJECT_NAME]
    assert data == b"y" * 150 and md.format == "MQSTR"  # WITH_FULL_DATA: all of it
    ((dlq_md, _),) = sim.browse("QM2", "SYSTEM.DEAD.LETTER.QUEUE")
    assert dlq_md.format == "MQDEAD"
