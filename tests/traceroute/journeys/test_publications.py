"""Publications followed through application activity trace (tests/support/pubsub_day.py):
one journey per publication, a branch per copy a subscriber got (nested where another queue
manager's engine published it again), and a branch for the traced subscription no copy
reached; the same branches as the publication's route from its activity reports."""

from __future__ import annotations

import json

import pytest

from mqroute.main import main
from tests.support.pubsub_day import pubsub_dumps
from traceroute.journeys import JourneyVerdict, link_publications, parse_activity_trace
from traceroute.journeys.reconstruct import reconstruct
from traceroute.readers import load_records
from traceroute.routes import Location, build_routes


@pytest.fixture(scope="module")
def day(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pubsub")
    return pubsub_dumps(folder, scores=2)


def traces(folder):
    from pcf.dmpmqmsg import read_file

    out = []
    for path in sorted(folder.iterdir()):
        for m in read_file(path).messages:
            out.append(parse_activity_trace(m.md, m.data, source=str(path)))
    return out


def test_one_journey_per_publication_with_a_branch_per_copy(day):
    kinds, _ = day
    result = reconstruct(traces(kinds["trace"]))
    journeys = link_publications(result.journeys, result.subscriptions)
    assert len(journeys) == 2  # two scores published: every copy is a branch of one
    for j in journeys:
        assert j.steps[0].role == "put" and j.steps[0].call.res_object_string == \
            "Sport/Scores/Soccer"
        ends = {(leaf.last_location.queue_manager, leaf.last_location.queue, leaf.verdict)
                for leaf in j.leaves}
        managed = next(q for qm, q, _ in ends if qm == "QMB")
        assert ends == {("QMA", "A.SCORES", JourneyVerdict.CONSUMED),
                        ("QMB", managed, JourneyVerdict.CONSUMED),
                        ("QMC", "C.SCORES", JourneyVerdict.CONSUMED),
                        ("QMD", "D.SCORES", JourneyVerdict.INCOMPLETE)}
        # QMB's and QMC's copies came through their engines: nested one level deeper
        relayed = [b for b in j.branches if b.branches]
        assert {b.branches[0].last_location.queue_manager for b in relayed} == {"QMB", "QMC"}
        assert all(b.steps[-1].queue == "SYSTEM.INTER.QMGR.PUBS" for b in relayed)
        assert j.verdict is JourneyVerdict.INCOMPLETE  # the worst branch: QMD not reached
        assert any("no copy of this publication was seen" in n
                   for b in j.branches for n in b.notes)


def test_follow_prints_the_tree_and_exits_with_the_worst_branch(day, capsys):
    kinds, _ = day
    status = main(["follow", str(kinds["trace"]), "--json"])
    documents = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 3 and len(documents) == 2
    assert [len(d["branches"]) for d in documents] == [4, 4]
    assert documents[0]["path"][0]["operation"] == "MQPUT1"


def test_follow_and_the_reports_give_the_same_branches(day):
    kinds, sim = day
    result = reconstruct(traces(kinds["trace"]))
    journeys = link_publications(result.journeys, result.subscriptions)
    records = load_records([str(p) for p in sorted(kinds["reports"].iterdir())], print)
    subs = {s.sub_id: s for q in sim.network.qmgrs for s in sim.pubsub.of(sim.network, q)}

    def where(qmgr: str, sub_id: bytes):
        s = subs.get(sub_id)
        return Location(s.destination_qmgr, s.dest) if s else None

    routes = build_routes(records, where)
    assert len(routes) == len(journeys) == 2
    for route, journey in zip(sorted(routes, key=lambda r: r.correl_id),
                              sorted(journeys, key=lambda j: j.msg_id), strict=True):
        assert route.correl_id == journey.msg_id  # the same publication
        route_ends = {leaf.location.queue_manager for leaf in route.leaves} | {
            leaf.location.remote_queue_manager for leaf in route.leaves
            if leaf.location.remote_queue_manager}
        journey_ends = {leaf.last_location.queue_manager for leaf in journey.leaves}
        assert journey_ends == {"QMA", "QMB", "QMC", "QMD"} <= route_ends
        # every copy a subscriber got is a branch of the route ending at that queue
        got = {(leaf.last_location.queue_manager, leaf.last_location.queue)
               for leaf in journey.leaves if leaf.verdict is JourneyVerdict.CONSUMED}
        assert got <= {(leaf.location.queue_manager, leaf.location.queue)
                       for leaf in route.leaves}


def _shape_of_route(route) -> tuple:
    return (route.correl_id, tuple(_shape_of_route(b) for b in route.branches))


def _shape_of_journey(journey) -> tuple:
    return (journey.msg_id, tuple(_shape_of_journey(b) for b in journey.branches))


def test_with_the_reports_follow_gives_the_routes_branches(day):
    """Trace and reports read together: one branch per Publish/Discarded Publish, nested as
    the route's (the subscriptions nobody traced are branches too), each copy's traced
    journey in its place; verdicts of untraced copies are what the reports say."""
    from traceroute.journeys import adopt_routes

    kinds, sim = day
    subs = {s.sub_id: s for q in sim.network.qmgrs for s in sim.pubsub.of(sim.network, q)}

    def where(qmgr: str, sub_id: bytes):
        s = subs.get(sub_id)
        return Location(s.destination_qmgr, s.dest) if s else None

    records = list(load_records([str(p) for p in sorted(kinds["reports"].iterdir())], print))
    routes = build_routes(records, where)
    result = reconstruct(traces(kinds["trace"]))
    journeys = adopt_routes(link_publications(result.journeys, result.subscriptions), routes)
    assert len(journeys) == 2
    by_key = {r.correl_id: r for r in routes}
    for j in journeys:
        route = by_key[j.msg_id]
        assert _shape_of_journey(j) == _shape_of_route(route)
        assert len(j.leaves) == len(route.leaves) == 6  # A, B.SOCCER, B.ARCHIVE, RESULTS, C, ->QMD
        ends = {(x.last_location.queue_manager, x.last_location.queue, x.verdict)
                for x in j.leaves}
        managed = next(s.dest for s in subs.values() if s.name == "RESULTS")
        assert ends == {("QMA", "A.SCORES", JourneyVerdict.CONSUMED),
                        ("QMB", "B.SOCCER", JourneyVerdict.ON_QUEUE),
                        ("QMB", "SYSTEM.DEAD.LETTER.QUEUE", JourneyVerdict.DEAD_LETTERED),
                        ("QMB", managed, JourneyVerdict.CONSUMED),
                        ("QMC", "C.SCORES", JourneyVerdict.CONSUMED),
                        ("QMC", None, JourneyVerdict.ON_XMITQ)}
        waiting = next(x for x in j.leaves if x.verdict is JourneyVerdict.ON_XMITQ)
        assert "bound for QMD" in waiting.notes[0]
        assert j.verdict is JourneyVerdict.DEAD_LETTERED  # the worst: B.ARCHIVE is full
        # the MQSUB on QMD no copy reached is a note: the route's QMD branch waits at QMC
        assert any("LATE.EDITION" in n or "D.SCORES" in n for n in j.notes)


def test_follow_of_trace_and_reports_exits_with_the_worst_branch(day, capsys):
    kinds, _ = day
    status = main(["follow", str(kinds["trace"]), str(kinds["reports"]), "--json"])
    documents = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 5 and len(documents) == 2  # dead-lettered (B.ARCHIVE MAXDEPTH 0)
    assert [len(d["branches"]) for d in documents] == [3, 3]


def test_follow_otlp_puts_a_publication_and_its_copies_in_one_trace(day, tmp_path, capsys):
    kinds, _ = day
    out = tmp_path / "traces.json"
    main(["follow", str(kinds["trace"]), "--otlp", str(out)])
    capsys.readouterr()
    document = json.loads(out.read_text().splitlines()[0])
    spans = [s for r in document["resourceSpans"] for ss in r["scopeSpans"]
             for s in ss["spans"]]
    traces = {s["traceId"] for s in spans}
    assert len(traces) == 2  # two publications, their copies inside them
    ids = {s["spanId"] for s in spans}
    assert len(ids) == len(spans)  # no span id twice
    for tid in traces:
        mine = [s for s in spans if s["traceId"] == tid]
        roots = [s for s in mine if "parentSpanId" not in s]
        assert len(roots) == 1 and roots[0]["name"].startswith("MQPUT1")
        assert all(s["parentSpanId"] in ids for s in mine if s is not roots[0])
        consumed = [s for s in mine if s["status"].get("code") == 1]  # STATUS_OK
        assert len(consumed) == 3  # A.SCORES, the managed queue on QMB, C.SCORES
