"""Network analytics benchmark: the Spark engines (GraphFrames, GraphX, DataFrame) against
networkx on the collected graph, in one run.

GraphFrames' jar comes from --graphframes-jar, $MQROUTE_GRAPHFRAMES_JAR or ../shared/jars
(the project's build area), whichever is first; without one there is no GraphFrames column.

Run from the project root (or anywhere):

    python benchmarks/bench_analytics.py                 # 1,000 and 10,000 queue managers
    python benchmarks/bench_analytics.py --quick         # a small smoke run
    python -m benchmarks.bench_analytics --sizes 500 --engines dataframe --json out.json

The graphs are synthetic, generated straight as the `graph.network` vertex and edge tables
(the issue is the analytics, not building them): a directed scale-free mesh of channels
(networkx's scale_free_graph) plus hubs with spokes, a few islands of two, and queues every
queue manager puts to; message counts are heavy-tailed and add up as if from 1M routes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import networkx as nx  # noqa: E402

from graph.network import EDGE_COLUMNS, VERTEX_COLUMNS, ddl  # noqa: E402

ROUTES = 1_000_000
MEAN_SENDS = 2.5
PR_ITER = 20
LPA_STEPS = 5
TOP = 20
WARM_UP = 50
ANALYTICS = ("degrees", "vertex_latency", "busiest_channels", "hop_latency", "pagerank",
             "connected_components", "strongly_connected_components", "two_cycles", "loops",
             "shortest_paths", "reachability", "depth", "label_propagation")


# --- the synthetic network ----------------------------------------------------------------

@dataclass
class Network:
    """A generated network: the vertex and edge rows, and what the paths are asked about."""

    qmgrs: int
    vertices: list[tuple]
    edges: list[tuple]
    landmarks: list[str]
    source: str
    target: str


def _name(i: int) -> str:
    return f"QM{i:05d}"


def generate(qmgrs: int, *, seed: int = 7, routes: int = ROUTES) -> Network:
    """A hub-and-spoke plus scale-free mesh of `qmgrs` queue managers, as if from `routes`."""
    import numpy as np

    rng = random.Random(seed)
    hubs = max(3, qmgrs // 50)
    island = max(2, qmgrs // 100) // 2 * 2  # the last ones pair up into islands of two
    core = qmgrs - island
    pairs: set[tuple[int, int]] = set()
    for u, v in nx.scale_free_graph(core, seed=seed).edges():
        if u != v:
            pairs.add((u, v))
    for i in range(hubs, core):  # spokes: both ways to one hub
        pairs.update({(i, i % hubs), (i % hubs, i)})
    for h in range(hubs):  # hubs: a ring and a few chords, both ways
        for other in {(h + 1) % hubs, *rng.sample(range(hubs), min(3, hubs))}:
            if other != h:
                pairs.update({(h, other), (other, h)})
    for i in range(core, qmgrs, 2):
        pairs.update({(i, i + 1), (i + 1, i)})
    sends = sorted(pairs)
    nprng = np.random.default_rng(seed)

    def counts(n: int, total: int) -> list[int]:
        """Heavy-tailed message counts for n edges adding up to about `total`."""
        weights = nprng.pareto(1.2, n) + 1e-3
        return [int(c) + 1 for c in nprng.multinomial(total, weights / weights.sum())]

    vertices = [(_name(i), "queue_manager", _name(i)) for i in range(qmgrs)]
    puts = []
    for i in range(qmgrs):
        queues = ["APP.Q"] + (["SYSTEM.DEAD.LETTER.QUEUE"] if i % 10 == 0 else [])
        for q in queues:
            vertices.append((f"{_name(i)}/{q}", "queue", _name(i)))
            puts.append((_name(i), f"{_name(i)}/{q}"))
    edges = []
    for (u, v), n in zip(sends, counts(len(sends), int(routes * MEAN_SENDS)), strict=True):
        edges.append((_name(u), _name(v), "send", f"{_name(u)}.TO.{_name(v)}", n))
    for (u, v), n in zip(puts, counts(len(puts), routes), strict=True):
        edges.append((u, v, "put", None, n))
    rows = []
    for src, dst, kind, channel, n in edges:
        if rng.random() < 0.8:
            p50 = round(rng.lognormvariate(0, 1), 3)
            stats = (max(1, n // 3), p50 / 4, p50 * 1.3, p50 * 8, p50)
        else:
            stats = (0, None, None, None, None)
        rows.append((src, dst, kind, channel, n, *stats))
    far = core - 1 if core - 1 >= hubs else core // 2
    return Network(qmgrs, vertices, rows, [_name(h) for h in range(min(3, hubs))],
                   _name(hubs + 1 if hubs + 1 < core else 0), f"{_name(far)}/APP.Q")


# --- timing -------------------------------------------------------------------------------

@dataclass
class Timings:
    """Seconds per analytic per engine for one network."""

    qmgrs: int
    vertices: int
    edges: int
    seconds: dict[str, dict[str, float | None]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _force(df) -> None:
    """Compute every column of every row without collecting them."""
    df.write.format("noop").mode("overwrite").save()


def run_spark(spark, net: Network, engine: str, timings: Timings, *,
              quiet: bool = False) -> None:
    """Time every analytic on one Spark engine."""
    from graph import analytics as an

    v = spark.createDataFrame(net.vertices, ddl(VERTEX_COLUMNS)).localCheckpoint(eager=True)
    e = spark.createDataFrame(net.edges, ddl(EDGE_COLUMNS)).localCheckpoint(eager=True)
    calls: dict[str, Callable[[], Any]] = {
        "degrees": lambda: an.degrees(spark, v, e, engine=engine),
        "vertex_latency": lambda: an.vertex_latency(spark, v, e, engine=engine),
        "busiest_channels": lambda: an.busiest_channels(spark, v, e, top=TOP, engine=engine),
        "hop_latency": lambda: an.hop_latency(spark, v, e, top=TOP, engine=engine),
        "pagerank": lambda: an.pagerank(spark, v, e, max_iter=PR_ITER, engine=engine),
        "connected_components": lambda: an.connected_components(spark, v, e, engine=engine),
        "strongly_connected_components":
            lambda: an.strongly_connected_components(spark, v, e, engine=engine),
        "two_cycles": lambda: an.two_cycles(spark, v, e, engine=engine),
        "loops": lambda: an.loops(spark, v, e, engine=engine),
        "shortest_paths": lambda: an.shortest_paths(spark, v, e, net.landmarks, engine=engine),
        "reachability": lambda: an.reachability(spark, v, e, net.source, net.target,
                                                engine=engine),
        "depth": lambda: an.depth(spark, v, e, sources=net.landmarks, engine=engine),
        "label_propagation":
            lambda: an.label_propagation(spark, v, e, max_steps=LPA_STEPS, engine=engine),
    }
    column = timings.seconds.setdefault(engine, {})
    for name, call in calls.items():
        ran = an.engine_for(spark, name, engine)
        if ran != engine:  # the DataFrame code would run again: not this engine's figure
            column[name] = None
            continue
        column[name] = _timed(lambda call=call: _force(call()))
        if not quiet:
            print(f"  {engine:<12} {name:<30} {column[name]:8.2f} s", file=sys.stderr,
                  flush=True)


def run_networkx(spark, net: Network, timings: Timings) -> None:
    """Collect the tables, build networkx graphs and time the same questions on them."""
    v = spark.createDataFrame(net.vertices, ddl(VERTEX_COLUMNS)).localCheckpoint(eager=True)
    e = spark.createDataFrame(net.edges, ddl(EDGE_COLUMNS)).localCheckpoint(eager=True)
    graphs: dict[str, Any] = {}

    def build() -> None:
        """Collect the tables and build the graphs on the driver."""
        vertex_rows, edge_rows = v.collect(), e.collect()
        g, m = nx.DiGraph(), nx.MultiDiGraph()
        g.add_nodes_from(r["id"] for r in vertex_rows)
        m.add_nodes_from(g)
        for r in edge_rows:
            m.add_edge(r["src"], r["dst"], messages=r["messages"])
            g.add_edge(r["src"], r["dst"])
        graphs.update(g=g, m=m, edges=[r.asDict() for r in edge_rows])

    column = timings.seconds.setdefault("networkx", {})
    column["(collect + build)"] = _timed(build)
    g, m, edges = graphs["g"], graphs["m"], graphs["edges"]
    sends = [r for r in edges if r["kind"] == "send"]
    timed_edges = [r for r in edges if r["latency_samples"]]
    calls: dict[str, Callable[[], Any]] = {
        "degrees": lambda: (dict(m.in_degree()), dict(m.out_degree()),
                            dict(m.in_degree(weight="messages")),
                            dict(m.out_degree(weight="messages"))),
        "vertex_latency": lambda: _vertex_latency(timed_edges),
        "busiest_channels": lambda: sorted(sends, key=lambda r: -r["messages"])[:TOP],
        "hop_latency": lambda: sorted(timed_edges, key=lambda r: -r["latency_p50"])[:TOP],
        "pagerank": lambda: nx.pagerank(g, alpha=0.85, weight=None),
        "connected_components": lambda: list(nx.weakly_connected_components(g)),
        "strongly_connected_components": lambda: list(nx.strongly_connected_components(g)),
        "two_cycles": lambda: [(a, b) for a, b in g.edges() if a < b and g.has_edge(b, a)],
        "loops": lambda: [c for c in nx.strongly_connected_components(g) if len(c) > 1],
        "shortest_paths": lambda: [nx.single_source_shortest_path_length(g, lm)
                                   for lm in net.landmarks],
        "reachability": lambda: nx.has_path(g, net.source, net.target)
        and nx.shortest_path(g, net.source, net.target),
        "depth": lambda: nx.multi_source_dijkstra_path_length(g, net.landmarks),
        "label_propagation":
            lambda: list(nx.community.label_propagation_communities(g.to_undirected())),
    }
    for name, call in calls.items():
        column[name] = _timed(call)
    timings.notes.append("networkx pagerank runs to tol=1e-6 (Spark engines: a fixed "
                         f"{PR_ITER} iterations); networkx label propagation is its "
                         "semi-synchronous variant on the undirected graph (Spark: "
                         f"{LPA_STEPS} synchronous steps)")


def _vertex_latency(timed_edges: list[dict]) -> dict:
    """Per vertex: samples, weighted mean and worst latency in and out (the Spark table)."""
    out: dict = {}
    for r in timed_edges:
        for side, vertex in (("in", r["dst"]), ("out", r["src"])):
            n, total, worst = out.get((vertex, side), (0, 0.0, 0.0))
            out[vertex, side] = (n + r["latency_samples"],
                                 total + r["latency_avg"] * r["latency_samples"],
                                 max(worst, r["latency_max"]))
    return {k: (n, total / n, worst) for k, (n, total, worst) in out.items()}


# --- output -------------------------------------------------------------------------------

def render(all_timings: list[Timings], engines: list[str]) -> str:
    """The table: seconds per analytic and engine, and each engine's ratio to networkx."""
    lines = []
    for t in all_timings:
        lines.append(f"\n{t.qmgrs:,} queue managers: {t.vertices:,} vertices, "
                     f"{t.edges:,} edges")
        head = f"{'analytic':<32}{'networkx s':>11}"
        for name in engines:
            head += f"{name + ' s':>15}{'x nx':>8}"
        lines.append(head)
        lines.append("-" * len(head))
        base = t.seconds.get("networkx", {})
        for analytic in ("(collect + build)", *ANALYTICS):
            nxs = base.get(analytic)
            row = f"{analytic:<32}{_fmt(nxs):>11}"
            for name in engines:
                s = t.seconds.get(name, {}).get(analytic)
                ratio = f"{s / nxs:.0f}" if s is not None and nxs else "-"
                if s is not None and nxs and s / nxs < 10:
                    ratio = f"{s / nxs:.1f}"
                row += f"{_fmt(s):>15}{ratio:>8}"
            lines.append(row)
        totals = {name: sum(x for x in t.seconds.get(name, {}).values() if x is not None)
                  for name in ["networkx", *engines]}
        row = f"{'total':<32}{_fmt(totals['networkx']):>11}"
        for name in engines:
            ratio = totals[name] / totals["networkx"] if totals["networkx"] else 0
            row += f"{_fmt(totals[name]):>15}{ratio:>8.0f}"
        lines.append(row)
    return "\n".join(lines)


def _fmt(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.2f}"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000],
                        help="numbers of queue managers (default 1000 10000)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 200 queue managers")
    parser.add_argument("--engines", nargs="+", choices=["graphframes", "graphx", "dataframe"],
                        help="default: every Spark engine available")
    parser.add_argument("--master", default="local[*]")
    parser.add_argument("--shuffle-partitions", type=int, default=None,
                        help="spark.sql.shuffle.partitions (default: 2 x cores, at least 4)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--graphframes-jar", action="append", metavar="PATH",
                        help="GraphFrames jar (default: $MQROUTE_GRAPHFRAMES_JAR, else the "
                             "one in ../shared/jars if there is one)")
    args = parser.parse_args(argv)
    sizes = [200] if args.quick else args.sizes

    import tempfile

    from graph import engines as eng
    from graph.pipeline.session import spark_session

    partitions = args.shuffle_partitions or max(4, 2 * (os.cpu_count() or 2))
    jars = args.graphframes_jar or eng.graphframes_jars() or \
        eng.shared_graphframes_jars(ROOT) or None
    config = eng.graphframes_config(jars, environ={}, config={
        "spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": str(partitions),
        "spark.driver.bindAddress": "127.0.0.1", "spark.driver.host": "127.0.0.1"})
    spark = spark_session(args.master, app_name="mqroute bench_analytics", config=config)
    spark.sparkContext.setLogLevel("ERROR")
    checkpoints = tempfile.TemporaryDirectory(prefix="bench-analytics-")
    spark.sparkContext.setCheckpointDir(checkpoints.name)
    available = eng.available_engines(spark)
    engines = [e for e in (args.engines or available) if e in available]
    skipped = [e for e in (args.engines or ["graphframes"]) if e not in available]
    print(f"Python {platform.python_version()}, Spark {spark.version} ({args.master}, "
          f"{partitions} shuffle partitions), networkx {nx.__version__}, "
          f"{os.cpu_count()} CPUs; engines {', '.join(engines)}"
          + (f" (not available: {', '.join(skipped)})" if skipped else ""))
    # warm-up, untimed: JIT, Python workers, scipy imports, on a small network
    start = time.perf_counter()
    warm = generate(WARM_UP)
    scratch = Timings(WARM_UP, len(warm.vertices), len(warm.edges))
    run_networkx(spark, warm, scratch)
    for engine in engines:
        run_spark(spark, warm, engine, scratch, quiet=True)
    print(f"warm-up ({WARM_UP} queue managers) took {time.perf_counter() - start:.1f} s",
          file=sys.stderr, flush=True)
    results = []
    for size in sizes:
        start = time.perf_counter()
        net = generate(size)
        timings = Timings(size, len(net.vertices), len(net.edges))
        print(f"{size:,} queue managers: generated in {time.perf_counter() - start:.1f} s",
              file=sys.stderr, flush=True)
        run_networkx(spark, net, timings)
        for engine in engines:
            run_spark(spark, net, engine, timings)
        results.append(timings)
    print(render(results, engines))
    print("\nseconds are wall time per analytic, results forced with a noop write; "
          "'x nx' = engine seconds / networkx seconds on the same graph (networkx: "
          "after collecting it, the first row). '-': the engine lacks the analytic and "
          "would run the DataFrame code again.")
    for note in sorted({n for t in results for n in t.notes}):
        print(f"note: {note}")
    if args.json is not None:
        args.json.write_text(json.dumps(
            {"sizes": sizes, "engines": engines, "master": args.master,
             "results": [t.__dict__ for t in results]}, indent=2) + "\n")
        print(f"wrote {args.json}")
    spark.stop()
    checkpoints.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
