"""Network analytics on every engine here, checked against networkx on the same graphs.

One graph holds both test networks as islands, so each analytic runs once per engine: a
hand-made network (a 2-cycle with two channels one way, a 3-cycle, a second island with a
gap in a route, sinks, a queue manager only the routes table names, a send to an unknown
queue manager) and the network the Spark pipeline finds in a small corpus (QM1 and QM2).
"""

from __future__ import annotations

import datetime as dt
import math
import time
from collections import Counter, defaultdict

import pytest

from graph import analytics as an
from graph import engines, pipeline
from graph.network import observed_graph, queue_manager_graph
from graph.pipeline.rows import HOP_COLUMNS, ROUTE_COLUMNS
from pcf import dmpmqmsg
from traceroute.sim.corpus import corpus

nx = pytest.importorskip("networkx")
pytestmark = pytest.mark.slow

T0 = dt.datetime(2026, 11, 22, 10, 0, 0)
PR_ITER = 10
LANDMARKS = ["A", "QM1", "F"]


# --- the hand-made network, as hops and routes -------------------------------------------

def _hop(correl, seq, kind, src, dst, *, channel=None, t=None, branch=0):
    qm_dst = dst if kind == "send" else (src if kind in ("put", "discard") else None)
    queue = dst.split("/", 1)[1] if kind in ("put", "discard") else None
    when = (T0 + dt.timedelta(seconds=t)).strftime("%Y-%m-%d %H:%M:%S") if t is not None \
        else None
    return {"correl_id": correl, "seq": seq, "kind": kind, "src": src, "dst": dst,
            "src_queue_manager": None if kind == "gap" else src, "dst_queue_manager": qm_dst,
            "channel": channel, "queue": queue, "time": when, "feedback": None,
            "branch": branch}


def _route(correl, steps, *, branch=0, start=0):
    """steps: (kind, src, dst, channel, seconds) in order."""
    return [_hop(correl, start + n, kind, src, dst, channel=ch, t=t, branch=branch)
            for n, (kind, src, dst, ch, t) in enumerate(steps, start=1)]


def hand_hops() -> list[dict]:
    """The hand-made network's hops, as the pipeline's hops table has them."""
    hops = []
    for n in range(3):  # A -> B -> C -> D -> E -> E/SINK.Q, 3 times
        hops += _route(f"r1-{n}", [
            ("put", "A", "A/XMIT", None, 0), ("send", "A", "B", "A.TO.B", 2 + n),
            ("send", "B", "C", "B.TO.C", 5 + n), ("send", "C", "D", "C.TO.D", 6 + n),
            ("send", "D", "E", "D.TO.E", 10 + n), ("put", "E", "E/SINK.Q", None, 11 + n)])
    hops += _route("r2", [  # round the 2-cycle, A.TO.B.2 the second channel
        ("send", "B", "A", "B.TO.A", 0), ("send", "A", "B", "A.TO.B.2", 1),
        ("send", "B", "A", "B.TO.A", 4), ("put", "A", "A/XMIT", None, 4)])
    hops += _route("r3", [  # round the 3-cycle
        ("send", "D", "E", "D.TO.E", 0), ("send", "E", "C", "E.TO.C", 1),
        ("send", "C", "D", "C.TO.D", 3), ("put", "D", "D/TARGET.Q", None, 3)])
    hops += _route("r4", [  # the other island, a report lost in the middle
        ("send", "F", "G", "F.TO.G", 0), ("gap", "?", "?", None, None),
        ("send", "G", "H", "G.TO.H", 7), ("put", "H", "H/Q", None, 9)])
    hops += _route("r5", [("discard", "H", "H/(discarded)", None, 0)])
    main = _route("r6", [("send", "A", "B", "A.TO.B", 0)])  # a branch: no latency across
    hops += main + _route("r6", [("send", "B", "C", "B.TO.C", 50)], branch=1, start=1)
    hops += _route("r7", [("send", "C", "D", "C.TO.D", None),  # no time: no latency
                          ("put", "D", "D/TARGET.Q", None, 2)])
    hops += _route("r8", [("send", "A", "?", "A.TO.NOWHERE", 0)])  # unknown QM: no edge
    return hops


def _route_row(correl, verdict, qm, queue=None, channel=None, next_qm=None):
    row = dict.fromkeys(name for name, _ in ROUTE_COLUMNS)
    row.update(correl_id=correl, verdict=verdict, last_queue_manager=qm, last_queue=queue,
               last_channel=channel, next_queue_manager=next_qm)
    return row


def hand_routes() -> list[dict]:
    """Its routes: the verdicts and where they ended."""
    return ([_route_row(f"r1-{n}", "delivered", "E", "SINK.Q") for n in range(3)]
            + [_route_row("r2", "waiting_on_xmitq", "A", "XMIT", "A.TO.B", "B"),
               _route_row("r3", "delivered", "D", "TARGET.Q"),
               _route_row("r4", "incomplete", "H", "Q"),
               _route_row("r5", "discarded", "H", "(discarded)"),
               _route_row("r6", "dead_lettered", "C", "SYSTEM.DEAD.LETTER.QUEUE"),
               _route_row("r7", "waiting_on_xmitq", "A", "XMIT", "A.TO.B", "B"),
               _route_row("r8", "incomplete", "I")])  # I: named only here


# --- fixtures -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def network(spark, tmp_path_factory):
    """Both networks' hops and routes, the observed graph (checkpointed) and Python copies."""
    folder = tmp_path_factory.mktemp("analytics")
    items = corpus(2, seed=3)
    (folder / "activity.dmp").write_text(
        dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in items],
                       qmgr="QM1", queue="ACTIV.REPLY.Q"), encoding="latin-1")
    # the pipeline's routes and hops tables (as `mqroute analyze` writes them)
    ops, _ = pipeline.decode(pipeline.read_inputs(spark, [str(folder)]))
    spark_routes, spark_hops = pipeline.build_routes(ops)
    hops = spark_hops.unionByName(
        spark.createDataFrame(hand_hops(), pipeline.ddl(HOP_COLUMNS)))
    routes = spark_routes.unionByName(
        spark.createDataFrame(hand_routes(), pipeline.ddl(ROUTE_COLUMNS)))
    hops = hops.localCheckpoint(eager=True)
    routes = routes.localCheckpoint(eager=True)
    vertices, edges = observed_graph(hops, routes)
    vertices = vertices.localCheckpoint(eager=True)
    edges = edges.localCheckpoint(eager=True)
    net = {"hops": hops, "routes": routes, "vertices": vertices, "edges": edges,
           "hop_rows": [r.asDict() for r in hops.collect()],
           "route_rows": [r.asDict() for r in routes.collect()],
           "vertex_rows": [r.asDict() for r in vertices.collect()],
           "edge_rows": [r.asDict() for r in edges.collect()]}
    g = nx.DiGraph()
    g.add_nodes_from(v["id"] for v in net["vertex_rows"])
    g.add_edges_from((e["src"], e["dst"]) for e in net["edge_rows"])
    net["G"] = g
    m = nx.MultiDiGraph()
    m.add_nodes_from(g)
    m.add_edges_from((e["src"], e["dst"], {"messages": e["messages"]})
                     for e in net["edge_rows"])
    net["M"] = m
    return net


@pytest.fixture(scope="module", params=list(engines.ENGINES))
def results(request, spark, network):
    """Every analytic on one engine, collected (each runs once per engine)."""
    engine = request.param
    if engine == "graphframes" and not engines.graphframes_available(spark):
        pytest.skip("GraphFrames' JVM package (org.graphframes.GraphFramePythonAPI) is not on "
                    "the driver's class path: no graphframes jar in ../shared/jars (the test "
                    f"session loads it from there) and {engines.graphframes_package()} "
                    "is not on spark.jars.packages")
    if engine == "graphx" and not engines.graphx_available(spark):
        pytest.skip("GraphX cannot be reached through the JVM gateway in this session")
    v, e = network["vertices"], network["edges"]
    calls = {
        "pagerank": lambda: an.pagerank(spark, v, e, max_iter=PR_ITER, engine=engine),
        "components": lambda: an.connected_components(spark, v, e, engine=engine),
        "two_cycles": lambda: an.two_cycles(spark, v, e, engine=engine),
        "from": lambda: an.shortest_paths(spark, v, e, LANDMARKS, engine=engine),
        "to": lambda: an.shortest_paths(spark, v, e, ["C"], direction="to", engine=engine),
        "lpa": lambda: an.label_propagation(spark, v, e, engine=engine),
        "degrees": lambda: an.degrees(spark, v, e, engine=engine),
        "vertex_latency": lambda: an.vertex_latency(spark, v, e, engine=engine),
        "depth": lambda: an.depth(spark, v, e, engine=engine),
        "depth_from": lambda: an.depth(spark, v, e, sources=["B", "nowhere"], engine=engine),
        "channels": lambda: an.busiest_channels(spark, v, e, top=5, engine=engine),
        "latency": lambda: an.hop_latency(spark, v, e, engine=engine),
        "deaths": lambda: an.where_routes_die(spark, network["routes"], engine=engine),
        "reach": lambda: an.reachability(spark, v, e, "A", "E/SINK.Q", engine=engine),
        "unreachable": lambda: an.reachability(spark, v, e, "H", "E/SINK.Q", engine=engine),
    }
    analytic = {"components": "connected_components", "from": "shortest_paths",
                "to": "shortest_paths", "lpa": "label_propagation", "channels":
                "busiest_channels", "latency": "hop_latency", "deaths": "where_routes_die",
                "reach": "reachability", "unreachable": "reachability",
                "depth_from": "depth"}
    if engine != "dataframe":  # what it lacks runs the DataFrame code: checked in that run
        calls = {k: f for k, f in calls.items()
                 if an.engine_for(spark, analytic.get(k, k), engine) == engine}
    got, seconds = {"engine": engine}, {}
    for name, call in calls.items():
        start = time.perf_counter()
        got[name] = [r.asDict() for r in call().collect()]
        seconds[name] = round(time.perf_counter() - start, 2)
    start = time.perf_counter()
    scc = an.strongly_connected_components(spark, v, e, engine=engine).localCheckpoint()
    got["scc"] = [r.asDict() for r in scc.collect()]
    got["loops"] = [r.asDict() for r in an.loops(spark, v, e, components=scc).collect()]
    seconds["scc+loops"] = round(time.perf_counter() - start, 2)
    print(f"\n{engine}: {seconds}")
    return got


def _rows(results, key, analytic):
    """The collected rows of one analytic, or skip when this engine handed it over."""
    if key not in results:
        pytest.skip(f"{results['engine']} has no {analytic}: the DataFrame implementation runs "
                    "it, and the dataframe run checks that")
    return results[key]


def _engines_of(rows) -> set[str]:
    return {r["engine"] for r in rows}


def _native(result, analytic):
    return result["engine"] if result["engine"] in an.NATIVE[analytic] else "dataframe"


def _partition(mapping) -> set[frozenset]:
    groups = defaultdict(set)
    for node, label in mapping.items():
        groups[label].add(node)
    return {frozenset(g) for g in groups.values()}


# --- the observed graph -------------------------------------------------------------------

def _seconds(text):
    return dt.datetime.strptime(text, "%Y-%m-%d %H:%M:%S").timestamp() if text else None


def reference_edges(hop_rows) -> dict[tuple, list]:
    """(src, dst, kind, channel) -> [latencies or None per hop], from the hop rows."""
    routes = defaultdict(list)
    for h in hop_rows:
        routes[h["correl_id"], h["branch"]].append(h)
    out = defaultdict(list)
    for hops in routes.values():
        hops.sort(key=lambda h: h["seq"])
        for h, nxt in zip(hops, [*hops[1:], None], strict=True):
            if h["kind"] == "gap" or "?" in (h["src"], h["dst"]):
                continue
            t, t2 = _seconds(h["time"]), _seconds(nxt["time"]) if nxt else None
            lat = t2 - t if nxt and nxt["kind"] != "gap" and None not in (t, t2) else None
            out[h["src"], h["dst"], h["kind"], h["channel"]].append(lat)
    return out


def test_observed_graph_edges_and_latency(network):
    ref = reference_edges(network["hop_rows"])
    got = {(e["src"], e["dst"], e["kind"], e["channel"]): e for e in network["edge_rows"]}
    assert set(got) == set(ref)
    for key, lats in ref.items():
        e, known = got[key], sorted(x for x in lats if x is not None)
        assert e["messages"] == len(lats), key
        assert e["latency_samples"] == len(known), key
        if not known:
            assert e["latency_min"] is e["latency_avg"] is e["latency_p50"] is None
            continue
        assert (e["latency_min"], e["latency_max"]) == (known[0], known[-1])
        assert math.isclose(e["latency_avg"], sum(known) / len(known))
        assert known[(len(known) - 1) // 2] <= e["latency_p50"] <= known[len(known) // 2]
    # the planted cases
    assert got["A", "B", "send", "A.TO.B"]["messages"] == 4  # 3 of r1, 1 of r6
    assert got["B", "C", "send", "B.TO.C"]["latency_samples"] == 3  # not r6's branch hop
    assert got["F", "G", "send", "F.TO.G"]["latency_samples"] == 0  # a gap follows
    assert got["C", "D", "send", "C.TO.D"]["latency_samples"] == 4  # not r7's (no time)
    assert got["D", "E", "send", "D.TO.E"]["latency_max"] == 1.0
    assert not any("?" in (e["src"], e["dst"]) for e in network["edge_rows"])


def test_observed_graph_vertices(network):
    kinds = {v["id"]: (v["kind"], v["queue_manager"]) for v in network["vertex_rows"]}
    assert len(kinds) == len(network["vertex_rows"])
    for e in network["edge_rows"]:
        assert kinds[e["src"]] == ("queue_manager", e["src"])
        want = ("queue_manager", e["dst"]) if e["kind"] == "send" else ("queue", e["src"])
        assert kinds[e["dst"]] == want
    assert kinds["I"] == ("queue_manager", "I")  # only the routes table names it
    assert kinds["E/SINK.Q"] == ("queue", "E") and kinds["QM2/TARGET.Q"] == ("queue", "QM2")
    assert "?" not in kinds
    qv, qe = queue_manager_graph(network["vertices"], network["edges"])
    assert {r["kind"] for r in qv.select("kind").distinct().collect()} == {"queue_manager"}
    assert {r["kind"] for r in qe.select("kind").distinct().collect()} == {"send"}


# --- aggregations -------------------------------------------------------------------------

def test_degrees(results, network):
    m = network["M"]
    rows = {r["id"]: r for r in _rows(results, "degrees", "degrees")}
    assert set(rows) == set(m)
    for node, r in rows.items():
        assert r["in_degree"] == m.in_degree(node)
        assert r["out_degree"] == m.out_degree(node)
        assert r["degree"] == m.degree(node)
        assert r["in_messages"] == m.in_degree(node, weight="messages")
        assert r["out_messages"] == m.out_degree(node, weight="messages")
        assert r["messages"] == m.degree(node, weight="messages")
    assert _engines_of(rows.values()) == {_native(results, "degrees")}


def test_vertex_latency(results, network):
    timed = [e for e in network["edge_rows"] if e["latency_samples"]]
    got = {r["id"]: r for r in _rows(results, "vertex_latency", "vertex_latency")}
    assert set(got) == set(network["G"])
    for node, r in got.items():
        for side, end in (("in", "dst"), ("out", "src")):
            mine = [e for e in timed if e[end] == node]
            n = sum(e["latency_samples"] for e in mine)
            assert r[f"{side}_samples"] == n, (node, side)
            if not n:
                assert r[f"{side}_latency_avg"] is r[f"{side}_latency_max"] is None
                continue
            mean = sum(e["latency_avg"] * e["latency_samples"] for e in mine) / n
            assert math.isclose(r[f"{side}_latency_avg"], mean), (node, side)
            assert r[f"{side}_latency_max"] == max(e["latency_max"] for e in mine)
    assert got["E"]["in_latency_max"] == 1.0  # D -> E, slowest of r1's three
    assert _engines_of(got.values()) == {_native(results, "vertex_latency")}


def test_busiest_channels(results, network):
    sends = [e for e in network["edge_rows"] if e["kind"] == "send"]
    total = sum(e["messages"] for e in sends)
    want = sorted(sends, key=lambda e: (-e["messages"], e["channel"], e["src"], e["dst"]))[:5]
    got = _rows(results, "channels", "busiest_channels")
    assert [r["rank"] for r in got] == [1, 2, 3, 4, 5]
    assert [(r["channel"], r["messages"]) for r in got] == \
        [(e["channel"], e["messages"]) for e in want]
    assert all(math.isclose(r["share"], r["messages"] / total) for r in got)


def test_hop_latency(results, network):
    got = _rows(results, "latency", "hop_latency")
    timed = [e for e in network["edge_rows"] if e["latency_samples"]]
    assert len(got) == len(timed) and [r["rank"] for r in got] == list(range(1, len(got) + 1))
    assert {(r["src"], r["dst"], r["channel"], r["latency_p50"]) for r in got} == \
        {(e["src"], e["dst"], e["channel"], e["latency_p50"]) for e in timed}
    p50 = [r["latency_p50"] for r in got]
    assert p50 == sorted(p50, reverse=True)


def test_where_routes_die(results, network):
    keys = ("verdict", "last_queue_manager", "last_queue", "last_channel", "next_queue_manager")
    dead = Counter(tuple(r[k] for k in keys) for r in network["route_rows"]
                   if r["verdict"] not in an.OK_VERDICTS)
    got = _rows(results, "deaths", "where_routes_die")
    assert {tuple(r[k] for k in keys): r["routes"] for r in got} == dict(dead)
    assert [r["routes"] for r in got] == sorted(dead.values(), reverse=True)
    assert got[0]["rank"] == 1
    assert dead["waiting_on_xmitq", "A", "XMIT", "A.TO.B", "B"] == 2
    assert math.isclose(sum(r["share"] for r in got), 1.0)


# --- PageRank -----------------------------------------------------------------------------

def networkx_iterations(g, k, alpha=0.85, weight=None) -> dict:
    """networkx's PageRank formulation (google_matrix), exactly k power iterations."""
    np = pytest.importorskip("numpy")
    nodes = sorted(g)
    m = nx.google_matrix(g, alpha=alpha, nodelist=nodes, weight=weight)
    x = np.full(len(nodes), 1.0 / len(nodes))
    for _ in range(k):
        x = x @ m
    return dict(zip(nodes, (float(v) for v in x), strict=True))


def graphx_iterations(g, k, reset=0.15) -> dict:
    """GraphX's static PageRank (start at 1, dangling rank dropped), rescaled to sum 1."""
    x = dict.fromkeys(g, 1.0)
    for _ in range(k):
        s = dict.fromkeys(g, 0.0)
        for u, v in g.edges():
            s[v] += x[u] / g.out_degree(u)
        x = {n: reset + (1 - reset) * s[n] for n in g}
    total = sum(x.values())
    return {n: v / total for n, v in x.items()}


def test_pagerank(results, network):
    g = network["G"]
    got = {r["id"]: r["pagerank"] for r in results["pagerank"]}
    assert set(got) == set(g) and math.isclose(sum(got.values()), 1.0)
    converged = networkx_iterations(g, 300)  # nx.pagerank's answer, without needing scipy
    assert max(abs(got[n] - converged[n]) for n in g) < 1e-3
    ran = _native(results, "pagerank")
    exact = networkx_iterations(g, PR_ITER) if ran == "dataframe" else \
        graphx_iterations(g, PR_ITER)
    assert max(abs(got[n] - exact[n]) for n in g) < 1e-9
    assert _engines_of(results["pagerank"]) == {ran}


def test_weighted_pagerank_runs_on_dataframes(spark, network):
    engine = "graphx" if engines.graphx_available(spark) else None
    df = an.pagerank(spark, network["vertices"], network["edges"], max_iter=3, weighted=True,
                     engine=engine)
    got = {r["id"]: (r["pagerank"], r["engine"]) for r in df.collect()}
    w = nx.DiGraph()
    w.add_nodes_from(network["G"])
    for e in network["edge_rows"]:
        old = w.get_edge_data(e["src"], e["dst"], {"messages": 0})["messages"]
        w.add_edge(e["src"], e["dst"], messages=old + e["messages"])
    exact = networkx_iterations(w, 3, weight="messages")
    assert max(abs(got[n][0] - exact[n]) for n in w) < 1e-9
    assert {e for _, e in got.values()} == {"dataframe"}  # GraphX's PageRank is unweighted


# --- components, loops --------------------------------------------------------------------

def test_connected_components(results, network):
    got = {r["id"]: r["component"] for r in results["components"]}
    want = {frozenset(c) for c in nx.weakly_connected_components(network["G"])}
    assert _partition(got) == want
    assert all(label == min(c) for c in want for label in {got[n] for n in c})
    assert len(want) == 4  # the pipeline's, the hand-made two, and I alone
    assert _engines_of(results["components"]) == {_native(results, "connected_components")}


def test_strongly_connected_components(results, network):
    got = {r["id"]: r["component"] for r in results["scc"]}
    want = {frozenset(c) for c in nx.strongly_connected_components(network["G"])}
    assert _partition(got) == want
    assert all(got[n] == min(c) for c in want for n in c)
    assert _engines_of(results["scc"]) == {_native(results, "strongly_connected_components")}


def test_loops(results, network):
    g = network["G"]
    got = {frozenset(r["members"]): r for r in results["loops"]}
    want = {frozenset(c) for c in nx.strongly_connected_components(g) if len(c) > 1}
    assert set(got) == want
    assert {frozenset({"A", "B"}), frozenset({"C", "D", "E"}),
            frozenset({"QM1", "QM2"})} <= want
    for cycle in nx.simple_cycles(g, length_bound=4):
        assert any(set(cycle) <= members for members in got)
    assert all(r["size"] == len(m) and r["members"] == sorted(m) for m, r in got.items())
    assert _engines_of(results["loops"]) == {_native(results, "loops")}


def test_two_cycles(results, network):
    g = network["G"]
    messages = Counter()
    for e in network["edge_rows"]:
        messages[e["src"], e["dst"]] += e["messages"]
    want = {(a, b) for a, b in g.edges() if a < b and g.has_edge(b, a)}
    rows = _rows(results, "two_cycles", "two_cycles")
    got = {(r["a"], r["b"]): r for r in rows}
    assert set(got) == want == {("A", "B"), ("QM1", "QM2")}
    for (a, b), r in got.items():
        assert (r["messages_ab"], r["messages_ba"]) == (messages[a, b], messages[b, a])
    assert {tuple(sorted(c)) for c in nx.simple_cycles(g, length_bound=2) if len(c) == 2} \
        == want
    assert _engines_of(rows) == {_native(results, "two_cycles")}


# --- paths --------------------------------------------------------------------------------

def test_shortest_paths_from_landmarks(results, network):
    g = network["G"]
    want = {(n, lm, d) for lm in LANDMARKS
            for n, d in nx.single_source_shortest_path_length(g, lm).items()}
    assert {(r["id"], r["landmark"], r["distance"]) for r in results["from"]} == want
    assert _engines_of(results["from"]) == {_native(results, "shortest_paths")}


def test_shortest_paths_to_a_landmark(results, network):
    rev = network["G"].reverse()
    want = {(n, "C", d) for n, d in nx.single_source_shortest_path_length(rev, "C").items()}
    assert {(r["id"], r["landmark"], r["distance"]) for r in results["to"]} == want


def test_reachability(results, network):
    g = network["G"]
    (row,) = _rows(results, "reach", "reachability")
    assert row["reachable"] and row["engine"] == _native(results, "reachability")
    assert row["hops"] == nx.shortest_path_length(g, "A", "E/SINK.Q")
    assert row["path"] == min(nx.all_shortest_paths(g, "A", "E/SINK.Q"))
    (row,) = results["unreachable"]
    assert not nx.has_path(g, "H", "E/SINK.Q")
    assert (row["reachable"], row["hops"], row["path"]) == (False, None, None)


def test_depth_from_entry_points(results, network):
    g = network["G"].copy()
    g.remove_edges_from(nx.selfloop_edges(g))
    starts = [n for n in g if g.in_degree(n) == 0 and g.out_degree(n) > 0]
    want = nx.multi_source_dijkstra_path_length(g, starts)
    got = {r["id"]: r["depth"] for r in _rows(results, "depth", "depth")}
    assert set(got) == set(g)
    assert {n: d for n, d in got.items() if d is not None} == want
    assert "F" in starts and got["H"] == 2 and got["A"] is None  # A: only reached round loops
    assert _engines_of(_rows(results, "depth", "depth")) == {_native(results, "depth")}
    given = {r["id"]: r["depth"] for r in results["depth_from"]}
    assert {n: d for n, d in given.items() if d is not None} == \
        nx.single_source_shortest_path_length(g, "B")


# --- communities --------------------------------------------------------------------------

def lpa_reference(g, steps) -> dict:
    """Synchronous label propagation like GraphX's, ties to the smallest label."""
    hears = defaultdict(list)
    for u, v in g.edges():
        hears[v].append(u)
        hears[u].append(v)
    labels = {n: n for n in g}
    for _ in range(steps):
        new = {}
        for n in g:
            counts = Counter(labels[u] for u in hears[n])
            new[n] = min(counts, key=lambda lab: (-counts[lab], lab)) if counts else labels[n]
        labels = new
    return labels


def test_label_propagation(results, network):
    g = network["G"]
    got = {r["id"]: r["community"] for r in results["lpa"]}
    assert set(got) == set(g)
    communities = _partition(got)
    islands = [set(c) for c in nx.weakly_connected_components(g)]
    for c in communities:  # communities never cross islands; labelled by their least member
        assert any(c <= island for island in islands)
        assert {got[n] for n in c} == {min(c)}
    if _native(results, "label_propagation") == "dataframe":
        assert communities == _partition(lpa_reference(g, 5))
    assert _engines_of(results["lpa"]) == {_native(results, "label_propagation")}


# --- engines ------------------------------------------------------------------------------

def test_engine_choice(spark):
    here = engines.available_engines(spark)
    assert here[-1] == "dataframe" and engines.choose_engine(spark) == here[0]
    assert engines.choose_engine(spark, "dataframe") == "dataframe"
    with pytest.raises(ValueError, match="unknown graph engine"):
        engines.choose_engine(spark, "neo4j")
    if "graphframes" not in here:
        with pytest.raises(engines.EngineUnavailable, match="GraphFrames"):
            engines.choose_engine(spark, "graphframes")
    # engines without an analytic hand it to the DataFrame implementation
    assert an.engine_for(spark, "reachability", "dataframe") == "dataframe"
    if "graphx" in here:
        assert an.engine_for(spark, "pagerank", "graphx") == "graphx"
        assert an.engine_for(spark, "reachability", "graphx") == "dataframe"
        assert an.engine_for(spark, "two_cycles", "graphx") == "dataframe"


def test_graphx_is_reachable_in_classic_mode(spark):
    assert engines.is_classic(spark)
    assert engines.graphx_available(spark)


def test_graphframes_package_and_builder():
    pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    assert engines.graphframes_package("0.12.3", spark_version="4.3.0") == \
        "io.graphframes:graphframes-spark4_2.13:0.12.3"
    assert engines.graphframes_package("0.10.0", spark_version="3.5.6") == \
        "io.graphframes:graphframes-spark3_2.12:0.10.0"
    builder = SparkSession.builder.config("spark.jars.packages", "org.example:x:1")
    engines.configure_graphframes(builder)
    assert builder._options["spark.jars.packages"] == \
        f"org.example:x:1,{engines.graphframes_package()}"
    jarred = engines.configure_graphframes(SparkSession.builder, jar=["/opt/gf.jar",
                                                                      "hdfs://nn/gx.jar"])
    assert jarred._options["spark.jars"] == "/opt/gf.jar,hdfs://nn/gx.jar"


def test_graphframes_jar_from_option_environment_or_spark_settings(tmp_path):
    jar = tmp_path / "gf.jar"
    jar.write_bytes(b"PK")
    other = tmp_path / "gx.jar"
    other.write_bytes(b"PK")
    env = {engines.GRAPHFRAMES_JAR_ENV: f"{jar},{other}"}
    assert engines.graphframes_jars(environ=env) == [str(jar), str(other)]
    assert engines.graphframes_jars(str(jar), environ={}) == [str(jar)]  # the option wins
    assert engines.graphframes_jars(environ={}) == []
    with pytest.raises(FileNotFoundError, match="no such GraphFrames jar"):
        engines.graphframes_jars(str(tmp_path / "typo.jar"))
    assert engines.graphframes_jars("hdfs://nn/gf.jar") == ["hdfs://nn/gf.jar"]
    conf = engines.graphframes_config(str(jar), config={"spark.jars": "/opt/a.jar", "x": "1"})
    assert conf == {"spark.jars": f"/opt/a.jar,{jar}", "x": "1"}
    # nothing given: Spark's own spark.jars / spark.jars.packages settings are left alone
    assert engines.graphframes_config(environ={}, config={"spark.jars.packages": "p"}) == \
        {"spark.jars.packages": "p"}


def test_graphframes_runs_where_the_shared_jar_is(spark):
    """With ../shared/jars present (as in CI), GraphFrames must be the engine, not skipped."""
    from tests.conftest import ROOT

    jars = engines.shared_graphframes_jars(ROOT)
    if not jars:
        pytest.skip("no GraphFrames jar in ../shared/jars: a fresh clone runs without it")
    assert engines.graphframes_available(spark), f"{jars} on spark.jars, yet no GraphFrames"
    assert engines.choose_engine(spark) == "graphframes"
