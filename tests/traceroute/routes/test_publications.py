"""A publication's route as one tree, built from realistic data: the reports the simulated
publish/subscribe estate (traceroute/examples/pubsub.mqsc) writes for a trace-route message
published on a cluster topic, and for an ordinary message published with MQRO_ACTIVITY
(no TraceRoute counters: chaining)."""

from __future__ import annotations

import random
from importlib import resources

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.records.parse import parse_message
from traceroute.records.tracemsg import TraceOptions, build_trace_message
from traceroute.routes import Gap, Location, Verdict, build_routes
from traceroute.routes.ordering import build_routes as by_correl_id
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.network import MQObject
from traceroute.sim.simulator import Simulator

EXAMPLE = resources.files("traceroute").joinpath("examples/pubsub.mqsc").read_text()


def estate(seed: int) -> Simulator:
    sim = Simulator(parse_mqsc(EXAMPLE, source="pubsub.mqsc"), seed=seed)
    sim.network.qmgrs["QMA"].queues["REPLY"] = MQObject("QLOCAL", "REPLY")
    return sim


def reports(sim: Simulator) -> list:
    out = []
    while (got := sim.get("QMA", "REPLY")) is not None:
        out.append(parse_message(*got, source="QMA:REPLY"))
    return out


def traced(sim: Simulator, **options) -> tuple[bytes, list]:
    md, data = build_trace_message(TraceOptions.from_dspmqrte(
        ts="Sport/Scores/Soccer", rq="REPLY", **options), msg_id=bytes(24))
    result = sim.publish("QMA", "Sport/Scores/Soccer", md, data, appl_name="dspmqrte")
    sim.run()
    return result.msg_id, reports(sim)


def shape(route) -> list:
    """Each branch as (its via operation's name and queue manager, its shape)."""
    return [((b.via.name, b.via.qmgr) if b.via else None, shape(b)) for b in route.branches]


def test_a_traced_publication_is_one_tree_with_a_branch_per_subscriber():
    msg_id, records = traced(estate(1))
    # the original, the copies sent to QMB, QMC and (by QMC) QMD: each its own CorrelId
    assert len(by_correl_id(records)) == 4
    (route,) = build_routes(records)
    assert route.correl_id == msg_id and route.complete and not route.gaps
    # QMA: A.ALL.SCORES (local), the proxies of QMB and QMC; QMB and QMC publish again,
    # QMC on to QMD in the hierarchy (A.URGENT's selector excludes it: no branch)
    assert shape(route) == [
        (("DiscardedPublish", "QMA"), []),
        (("Publish", "QMA"), [(("DiscardedPublish", "QMB"), []),
                              (("DiscardedPublish", "QMB"), [])]),
        (("Publish", "QMA"), [(("DiscardedPublish", "QMC"), []),
                              (("Publish", "QMC"), [(("DiscardedPublish", "QMD"), [])])]),
    ]
    assert {leaf.verdict for leaf in route.leaves} == {Verdict.DISCARDED_AT_TARGET}
    assert route.verdict is Verdict.DISCARDED_AT_TARGET
    # the copies' routes start after the publishing activity: no gap is shown before them
    assert all(not isinstance(b.steps[0], Gap) for b in route.branches if b.steps)
    excluded = [op for op in route.steps[-1].operations
                if op.type == mqc.MQOPER_EXCLUDED_PUBLISH]
    assert len(excluded) == 1 and excluded[0].feedback == mqc.MQFB_SELECTOR_MISMATCH


def test_the_tree_does_not_depend_on_the_order_reports_arrive_in():
    _msg_id, records = traced(estate(2))
    first = build_routes(records)
    for seed in range(5):
        shuffled = records[:]
        random.Random(seed).shuffle(shuffled)
        assert shape(build_routes(shuffled)[0]) == shape(first[0])


def test_destinations_name_each_subscribers_queue_and_the_worst_branch_wins():
    sim = estate(3)
    _msg_id, records = traced(sim, d="yes", ro="activity")  # no MQRO_DISCARD_MSG
    subs = {s.sub_id: s for q in sim.network.qmgrs for s in sim.pubsub.of(sim.network, q)}

    def where(qmgr: str, sub_id: bytes):
        s = subs.get(sub_id)
        return Location(s.destination_qmgr, s.dest) if s else None

    (route,) = build_routes(records, where)
    leaves = {(leaf.location.queue_manager, leaf.location.queue): leaf.verdict
              for leaf in route.leaves}
    assert leaves == {("QMA", "A.SCORES"): Verdict.DELIVERED,
                      ("QMB", "SYSTEM.DEAD.LETTER.QUEUE"): Verdict.DEAD_LETTERED,
                      ("QMB", "B.SOCCER"): Verdict.DELIVERED,
                      ("QMC", "C.SCORES"): Verdict.DELIVERED,
                      ("QMD", "D.SCORES"): Verdict.DELIVERED}
    # B.ARCHIVE is full: its copy went to the dead-letter queue; the route's verdict is its
    assert route.verdict is Verdict.DEAD_LETTERED and route.outcome.feedback == \
        mqc.MQRC_Q_FULL


def test_a_copy_with_nothing_recorded_after_its_publish():
    sim = estate(4)
    sim.stop_channel("QMC", "QMC.QMD")  # QMD's subscriber is out of reach
    _msg_id, records = traced(sim)
    (route,) = build_routes(records)
    (to_qmd,) = [b for leaf in route.branches for b in leaf.branches
                 if b.via.type == mqc.MQOPER_PUBLISH and b.via.qmgr == "QMC"]
    assert not to_qmd.steps and to_qmd.verdict is Verdict.DELIVERED  # as far as data says
    # the subscription's destination says where it went: QMD, so it waits on its way
    (route,) = build_routes(records, lambda q, s: Location("QMD", "SYSTEM.INTER.QMGR.PUBS")
                            if q == "QMC" and s == to_qmd.via.sub_id else None)
    assert route.verdict is Verdict.WAITING_ON_XMITQ
    assert route.location == Location("QMC", None, None, "QMD")


def test_missing_reports_of_a_copy_leave_its_branch_without_steps():
    _msg_id, records = traced(estate(5))
    (route,) = build_routes(records)
    copy = route.branches[1].correl_id
    kept = [r for r in records if r.key != copy]
    (partial,) = build_routes(kept)
    assert len(partial.branches) == 3 and not partial.branches[1].steps
    assert partial.branches[1].via.md.msg_id == copy


def test_an_ordinary_publication_is_chained_without_counters():
    sim = estate(6)
    result = sim.publish("QMA", "Sport/Scores/Soccer",
                         MQMD(report=mqc.MQRO_ACTIVITY, reply_to_q="REPLY"), b"1-1")
    sim.run()
    (route,) = build_routes(reports(sim))
    assert route.correl_id == result.msg_id
    # three copies from QMA; each remote one: MCA get, send, receive, the engine's publish
    assert len(route.branches) == 3
    assert not route.gaps  # the copies' routes start where the publication left them
    assert {leaf.location.queue_manager for leaf in route.leaves} == {"QMA", "QMB", "QMC",
                                                                     "QMD"}
    assert route.verdict is Verdict.DEAD_LETTERED  # B.ARCHIVE is full


def test_a_publication_to_no_subscriber_is_said_so():
    sim = estate(7)
    sim.publish("QMA", "Weather", MQMD(report=mqc.MQRO_ACTIVITY, reply_to_q="REPLY"), b"x")
    sim.run()
    (route,) = build_routes(reports(sim))
    assert route.verdict is Verdict.DISCARDED and not route.branches
    assert route.outcome.feedback == mqc.MQRC_NO_SUBS_MATCHED
    assert "no subscription" in route.outcome.text
