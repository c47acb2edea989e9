"""Issue 31's "Done when", on one simulated estate (tests/support/pubsub_day.py on
traceroute/examples/pubsub.mqsc): topics on QMA (clustered, DIRECT routing, with QMB and
QMC in cluster SPORTS), QMC and QMD (QMD a hierarchy child of QMC); subscribers on all four
(administrative and API, durable, managed, a selector that excludes, a full queue), and QMD
out of reach (QMC.QMD stopped).

* `trace -ts` (dspmqrte's topic mode: a trace-route message published on the same estate,
  through the same transport and collection as the command) has a branch per subscription
  the publication went towards, each with its verdict;
* the application's publication, recorded by activity reports (what `analyze` reads) and by
  activity trace (what `follow` reads), gives the same branches: the same tree of queue
  managers, each leaf at the same subscriber queue with a verdict of the same kind;
* every publish operation of the reports holds exactly the parameters seed 002's tables
  return for it (read with pcf.decode alone).

Wildcard matching against IBM's documented rules: tests/traceroute/records/test_topics.py.
"""

from __future__ import annotations

import pytest

import pcf
from pcf import mqc
from pcf.model import ByteString, Group
from tests.support.pubsub_day import pubsub_dumps
from traceroute.journeys import JourneyVerdict, adopt_routes, link_publications, reconstruct
from traceroute.mq.collect import Source, collect, send_trace
from traceroute.mq.transport import SimTransport
from traceroute.readers import load_records
from traceroute.records.tracemsg import TraceOptions
from traceroute.routes import Location, Verdict, build_routes
from traceroute.sim.activity_trace import TRACE_QUEUE
from traceroute.sim.simulator import ACTIVITY_QUEUE

#: A route verdict and a journey verdict that say the same of a copy.
SAME = {Verdict.DELIVERED: {JourneyVerdict.ON_QUEUE, JourneyVerdict.CONSUMED},
        Verdict.DISCARDED_AT_TARGET: {JourneyVerdict.ON_QUEUE, JourneyVerdict.CONSUMED},
        Verdict.DEAD_LETTERED: {JourneyVerdict.DEAD_LETTERED},
        Verdict.WAITING_ON_XMITQ: {JourneyVerdict.ON_XMITQ}}


@pytest.fixture(scope="module")
def day(tmp_path_factory):
    kinds, sim = pubsub_dumps(tmp_path_factory.mktemp("done"), scores=1)

    def where(qmgr: str, sub_id: bytes):
        s = sim.pubsub.find(sim.network, qmgr, sub_id)
        return Location(s.destination_qmgr, s.dest) if s else None

    return kinds, sim, where


def _shape(route) -> tuple:
    """A route's tree: each branch's queue manager (and its leaves' places), in order."""
    loc = route.location
    return (loc.queue_manager, tuple(_shape(b) for b in route.branches)) if route.branches \
        else (loc.queue_manager, loc.queue or f"->{loc.remote_queue_manager}")


def _managers(tree) -> tuple:
    """A route's or journey's tree as its branches' ends' queue managers, nested."""
    loc = getattr(tree, "last_location", None) or tree.location
    return tuple(_managers(b) for b in tree.branches) if tree.branches \
        else loc.queue_manager


def _leaves(route) -> dict[tuple, Verdict]:
    return {(x.location.queue_manager, x.location.queue or x.location.remote_queue_manager):
            x.verdict for x in route.leaves}


@pytest.fixture(scope="module")
def traced(day):
    """dspmqrte -m QMA -ts Sport/Scores/Soccer -d yes -ro activity, on the day's estate."""
    _, sim, where = day
    qma = SimTransport(sim, "QMA")
    reply = qma.open_reply_queue("SYSTEM.DEFAULT.MODEL.QUEUE")
    options = TraceOptions(target_topic="Sport/Scores/Soccer", deliver=mqc.MQROUTE_DELIVER_YES,
                           report=mqc.MQRO_ACTIVITY)
    sent = send_trace(qma, options, reply_q=reply)
    # ACTIVREC(QUEUE) on every queue manager: the reports are on their activity queues
    sources = [Source(SimTransport(sim, q), ACTIVITY_QUEUE) for q in ("QMA", "QMB", "QMC")]
    got = collect([Source(qma, reply), *sources], sent.msg_id, wait=30, browse=True,
                  destinations=where)
    assert not got.problems
    [route] = got.routes
    return route


@pytest.fixture(scope="module")
def published(day):
    """The application's publication, from its activity reports (as analyze reads them)."""
    kinds, _, where = day
    records = list(load_records([str(p) for p in sorted(kinds["reports"].iterdir())], print))
    [route] = [r for r in build_routes(records, where) if r.branches]
    return route, records


def test_trace_ts_has_a_branch_per_subscription_with_its_verdict(traced):
    leaves = _leaves(traced)
    assert leaves.pop(("QMC", "QMD")) is Verdict.WAITING_ON_XMITQ   # QMD out of reach
    assert leaves.pop(("QMB", "SYSTEM.DEAD.LETTER.QUEUE")) is Verdict.DEAD_LETTERED
    managed = next(q for qm, q in leaves if qm == "QMB" and q.startswith("SYSTEM.MANAGED"))
    assert set(leaves) == {("QMA", "A.SCORES"), ("QMB", "B.SOCCER"), ("QMB", managed),
                           ("QMC", "C.SCORES")}
    assert set(leaves.values()) == {Verdict.DELIVERED}
    # nested as the copies went: QMA's engine, then QMB's and QMC's (cluster proxies), the
    # hierarchy proxy of QMD on QMC
    assert [len(b.branches) for b in traced.branches] == [0, 3, 2]
    assert traced.verdict is Verdict.DEAD_LETTERED  # the worst branch (SEVERITY)


def test_the_publication_has_the_same_branches_in_its_reports(traced, published):
    route, _ = published
    assert _shape(route) == _shape(traced)
    assert _leaves(route) == _leaves(traced)


def test_follow_gives_the_same_branches(day, published):
    kinds, _, _ = day
    route, records = published
    traces = [t for path in sorted(kinds["trace"].iterdir()) for t in _traces(path)]
    result = reconstruct(traces)
    journeys = adopt_routes(link_publications(result.journeys, result.subscriptions),
                            build_routes(records, day[2]))
    [journey] = [j for j in journeys if j.branches]
    assert journey.msg_id == route.correl_id
    assert _managers(journey) == _managers(route)  # the same tree of queue managers
    route_leaves = route.leaves
    journey_leaves = journey.leaves
    assert len(journey_leaves) == len(route_leaves) == 6
    for j, r in zip(journey_leaves, route_leaves, strict=True):
        assert j.last_location.queue_manager == r.location.queue_manager
        assert (j.last_location.queue or None) == (r.location.queue or None)
        assert j.verdict in SAME[r.verdict]
    assert journey.verdict is JourneyVerdict.DEAD_LETTERED


def test_analyze_gives_the_same_branches(day, published, tmp_path):
    import pyarrow.parquet as pq

    from graph.report.tables import route_details
    from tests.support.estate_dumps import analyze_in_one_process

    kinds, _, _ = day
    route, _ = published
    out = tmp_path / "out"
    analyze_in_one_process([str(kinds["reports"])], str(out))
    rows = {r["correl_id"]: r for r in pq.read_table(out / "routes").to_pylist()}
    key = route.correl_id.hex()
    assert rows[key]["branches"] == len(route.branches) == 3
    hops = [h for h in pq.read_table(out / "hops").to_pylist() if h["correl_id"] == key]
    assert sum(h["kind"] in ("publish", "discarded_publish") for h in hops) == 3
    [rebuilt] = route_details(out, [key])  # the whole tree, from the operations table
    assert len(rebuilt.leaves) == len(route.leaves)
    assert [x.location.queue_manager for x in rebuilt.leaves] == \
        [x.location.queue_manager for x in route.leaves]


def _traces(path):
    from pcf.dmpmqmsg import read_file
    from traceroute.journeys import parse_activity_trace

    return [parse_activity_trace(m.md, m.data, source=str(path))
            for m in read_file(path).messages]


#: seed 002, "Publish/Discarded Publish/Excluded Publish": SubId and SubLevel always;
#: Feedback for a discarded or excluded one; the message group (an MQMD of the eight fields
#: a subscriber may override) for Publish and Discarded Publish, none for Excluded Publish.
MQMD_FIELDS = {mqc.MQCACH_FORMAT_NAME, mqc.MQIACF_PRIORITY, mqc.MQIACF_PERSISTENCE,
               mqc.MQBACF_MSG_ID, mqc.MQBACF_CORREL_ID, mqc.MQCACF_USER_IDENTIFIER,
               mqc.MQBACF_ACCOUNTING_TOKEN, mqc.MQCACF_APPL_IDENTITY_DATA}
COMMON = {mqc.MQIACF_OPERATION_TYPE, mqc.MQCACF_OPERATION_DATE, mqc.MQCACF_OPERATION_TIME,
          mqc.MQCA_Q_MGR_NAME}


def test_every_publish_operation_is_as_the_seed_tables_say(day):
    _, sim, _ = day
    seen = {mqc.MQOPER_PUBLISH: 0, mqc.MQOPER_DISCARDED_PUBLISH: 0,
            mqc.MQOPER_EXCLUDED_PUBLISH: 0}
    for qmgr in ("QMA", "QMB", "QMC"):
        for _, data in sim.browse(qmgr, ACTIVITY_QUEUE):
            message = pcf.decode(data)
            for activity in message.find_all(mqc.MQGACF_ACTIVITY):
                for op in activity.find_all(mqc.MQGACF_OPERATION):
                    kind = op.find(mqc.MQIACF_OPERATION_TYPE).value
                    if kind not in seen:
                        continue
                    seen[kind] += 1
                    ids = {p.parameter for p in op.parameters}
                    sub_id = op.find(mqc.MQBACF_SUB_ID)
                    assert isinstance(sub_id, ByteString) and len(sub_id.value) == 24
                    assert op.find(mqc.MQIACF_SUB_LEVEL).value == 1
                    feedback = {mqc.MQIACF_FEEDBACK} if kind != mqc.MQOPER_PUBLISH else set()
                    group = {mqc.MQGACF_MESSAGE} if kind != mqc.MQOPER_EXCLUDED_PUBLISH \
                        else set()
                    assert ids == COMMON | {mqc.MQBACF_SUB_ID, mqc.MQIACF_SUB_LEVEL} | \
                        feedback | group, kind
                    if group:
                        message_group = op.find(mqc.MQGACF_MESSAGE)
                        md = message_group.find(mqc.MQGACF_MQMD)
                        assert isinstance(md, Group)
                        assert {p.parameter for p in md.parameters} == MQMD_FIELDS
                    # the topic's Put of the same activity names no queue (seed: "not
                    # returned for a put to a topic")
                    puts = [o for o in activity.find_all(mqc.MQGACF_OPERATION)
                            if o.find(mqc.MQIACF_OPERATION_TYPE).value == mqc.MQOPER_PUT
                            and o.find(mqc.MQCA_TOPIC_STRING) is not None]
                    assert puts and all(o.find(mqc.MQCA_Q_NAME) is None for o in puts)
    assert all(seen.values()), seen
    assert sim.browse("QMA", TRACE_QUEUE)  # (the day was traced too)


def test_show_lists_every_branch_of_the_publication(day, capsys):
    from mqroute.main import main

    kinds, _, _ = day
    assert main(["show", str(kinds["reports"])]) == 0
    lines = capsys.readouterr().out.splitlines()
    branches = [line.split(":")[0] for line in lines if line.startswith("Branch ")]
    assert branches == ["Branch 1", "Branch 2.1", "Branch 2.2", "Branch 2.3", "Branch 3.1",
                        "Branch 3.2"]
    assert "on the dead-letter queue of QMB" in next(x for x in lines if "Branch 2.1" in x)


def test_show_with_queue_managers_to_ask_names_each_subscribers_queue(tmp_path, capsys):
    """show --network asks where each subscription sends its copies, as trace does: every
    delivered branch ends at its subscriber's queue (without it, on its queue manager)."""
    from pathlib import Path

    from mqroute.main import main

    example = Path(__file__).resolve().parents[2] / "traceroute" / "examples" / "pubsub.mqsc"
    estate, dump = str(tmp_path / "estate"), str(tmp_path / "t.dmp")
    assert main(["sim", "init", estate, str(example)]) == 0
    main(["trace", "--network", estate, "-m", "QMA", "-ts", "Sport/Scores/Soccer", "-d", "yes",
          "-ro", "activity", "--save", dump])
    capsys.readouterr()

    def delivered(*words: str) -> list[str]:
        main(["show", dump, *words])
        return [x.split("last known location: ")[1] for x in capsys.readouterr().out.splitlines()
                if x.startswith("Branch ") and ": delivered;" in x]

    asked = delivered("--network", estate)
    assert "queue manager 'QMA', queue 'A.SCORES'" in asked
    assert len(asked) >= 3 and all(", queue '" in x for x in asked)
    assert all(", queue '" not in x for x in delivered())  # nobody to ask: where it is known
