"""analyze of a publish/subscribe day's activity reports (tests/support/pubsub_day.py): the
operations table keeps each Publish's SubId and SubLevel, a publication's routes row counts
its subscribers as branches, and the hops table begins each branch with its publish hop.
One process (the Spark job runs the same row code: graph.pipeline.rows)."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from tests.support.estate_dumps import analyze_in_one_process
from tests.support.pubsub_day import pubsub_dumps


@pytest.fixture(scope="module")
def analyzed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pubsub")
    kinds, sim = pubsub_dumps(folder)
    out = folder / "out"
    analyze_in_one_process([str(kinds["reports"])], str(out))
    return out, sim


@pytest.fixture(scope="module")
def tables(analyzed):
    out, sim = analyzed
    return {name: pq.read_table(out / name).to_pylist()
            for name in ("operations", "routes", "hops")}, sim


def test_publish_operations_keep_their_subscription(tables):
    t, sim = tables
    publishes = [r for r in t["operations"] if r["operation"] in (
        "Publish", "DiscardedPublish", "ExcludedPublish")]
    # every Publish names a subscription there is (QMB's MQSUB is durable: it stays)
    subs = {s.sub_id.hex() for q in sim.network.qmgrs for s in sim.pubsub.of(sim.network, q)}
    named = {r["sub_id"] for r in publishes}
    assert publishes and all(r["sub_level"] == 1 for r in publishes)
    assert named <= subs and all(len(s) == 48 for s in named)
    assert all(r["sub_id"] is None for r in t["operations"] if r["operation"] == "Put")
    excluded = [r for r in publishes if r["operation"] == "ExcludedPublish"]
    assert excluded and all(r["msg_id"] is None and r["feedback"] == 504 for r in excluded)


def test_a_publication_row_counts_its_subscribers(tables):
    t, _ = tables
    by_key = {r["correl_id"]: r for r in t["routes"]}
    published = [r for r in t["routes"] if any(
        h["kind"] == "put" and h["dst"] == "QMA/Sport/Scores/Soccer" and h["branch"] == 0
        for h in t["hops"] if h["correl_id"] == r["correl_id"])]
    assert len(published) == 3  # three scores published on QMA
    for row in published:
        assert row["branches"] == 3  # A.ALL.SCORES, the proxies of QMB and QMC
        hops = [h for h in t["hops"] if h["correl_id"] == row["correl_id"]]
        assert [(h["kind"], h["branch"]) for h in hops] == [
            ("put", 0), ("publish", 1), ("publish", 2), ("publish", 3)]
    # QMB's engine publishes each again: B.ARCHIVE is full, its copy dead-lettered
    again = [r for r in by_key.values() if r["last_queue_manager"] == "QMB"]
    assert len(again) == 3 and {r["verdict"] for r in again} == {"dead_lettered"}
    assert all(r["feedback"] == 2053 for r in again)


def test_the_compiled_paths_leave_publications_to_python(tmp_path):
    """The compiled operation rows and routes (graph/pipeline/_ccolumns.c) know no SubId and
    no fan-out: messages with a publish operation go through the Python path, and both paths
    give the same rows and routes."""
    from graph.pipeline import compiled
    from pcf.dmpmqmsg import read_file

    if not compiled.available():
        pytest.skip(f"compiled columns: {compiled.STATUS}")
    from tests.graph.pipeline import test_compiled_columns as columns
    from tests.graph.pipeline import test_compiled_routes as routes

    kinds, _ = pubsub_dumps(tmp_path, scores=2)
    rows = [(path.name, i, m.md.pack(), m.data, None)
            for path in sorted(kinds["reports"].iterdir())
            for i, m in enumerate(read_file(path).messages)]
    columns._assert_same(rows)
    table = columns._classified(rows, use_compiled=True)
    ops = [r for r in table.to_pylist() if r["kind"] == "op"]
    assert any(r["sub_id"] for r in ops)
    names = [n for n, _ in routes.OPERATION_COLUMNS]
    ops = sorted(({n: r[n] for n in names} for r in ops),
                 key=lambda r: (r["correl_id"] or "", r["source"], r["position"]))
    routes._assert_same(ops, [len(ops) // 2])


def test_the_report_draws_the_fan_out(analyzed):
    """The report's route of a publication is its whole tree (its copies' rows joined from
    the operations table): the picture has the topic and every subscriber's queue that
    was reached in its queue manager's box, and the tree's text each branch."""
    import re

    from graph.report import build_report
    from graph.report.tables import route_details

    out, _ = analyzed
    ops = pq.read_table(out / "operations").to_pylist()
    copies = {r["msg_id"] for r in ops if r["operation"] in ("Publish", "DiscardedPublish")}
    publication = {"correl_id": next(
        r["correl_id"] for r in ops if r["operation"] == "Put" and r["topic"]
        and r["queue_manager"] == "QMA" and r["correl_id"] not in copies)}
    route = route_details(out, [publication["correl_id"]])[0]
    ends = {(leaf.location.queue_manager, leaf.location.queue) for leaf in route.leaves}
    assert {("QMA", None), ("QMB", "SYSTEM.DEAD.LETTER.QUEUE")} <= ends
    assert len(route.leaves) == 6  # A, B.SOCCER, B.ARCHIVE, RESULTS, C, towards QMD
    # (QMC's copy for QMD's proxy subscription: without Inquire Subscription answers the
    # reports cannot tell it waits for QMD: a branch that ends on QMC)
    assert sum(leaf.location.queue_manager == "QMC" for leaf in route.leaves) == 2
    html = build_report(out)
    article = re.search(r'<article id="[^"]*' + publication["correl_id"] + r'.*?</article>',
                        html, re.S | re.I)
    assert article, "the publication's route is in the report"
    svg = article.group(0)
    assert "out: 6 branches" in svg  # (Graphviz writes the hyphen as &#45;)
    assert svg.count("Sport/Scores/") >= 3  # the topic on QMA, QMB and QMC
    for name in ("SYSTEM.DEAD.", "SYSTEM.INTER.", "hexagon" if "hexagon" in svg else "polygon"):
        assert name in svg


def test_with_the_mqsc_the_report_knows_where_each_subscription_sends(analyzed):
    """report --mqsc: DEFINE SUB (with the SUBID dmpmqcfg writes, or as the simulator made
    it) says where each copy went: the subscriber's queue, or the queue manager a proxy
    subscription's copy waits to reach (API subscriptions are in no MQSC)."""
    from graph.report.html import _destinations
    from graph.report.tables import route_details
    from tests.support.pubsub_day import EXAMPLE, SETTINGS
    from traceroute.sim.mqsc import parse_mqsc

    out, _ = analyzed
    ops = pq.read_table(out / "operations").to_pylist()
    copies = {r["msg_id"] for r in ops if r["operation"] in ("Publish", "DiscardedPublish")}
    key = next(r["correl_id"] for r in ops if r["operation"] == "Put" and r["topic"]
               and r["queue_manager"] == "QMA" and r["correl_id"] not in copies)
    network = parse_mqsc(EXAMPLE + SETTINGS, source="pubsub.mqsc")
    [route] = route_details(out, [key], destinations=_destinations(network))
    ends = {(x.location.queue_manager, x.location.queue or x.location.remote_queue_manager,
             x.verdict.value) for x in route.leaves}
    assert {("QMA", "A.SCORES", "delivered"), ("QMB", "B.SOCCER", "delivered"),
            ("QMC", "C.SCORES", "delivered"), ("QMC", "QMD", "waiting_on_xmitq"),
            ("QMB", "SYSTEM.DEAD.LETTER.QUEUE", "dead_lettered")} <= ends
