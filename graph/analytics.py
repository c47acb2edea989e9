"""Analytics of the observed network: who is busy, what is central, islands, loops, paths,
where routes die, how long hops take, communities.

Every analytic is `f(spark, vertices, edges, ..., engine=None) -> DataFrame` on the tables of
`graph.network.observed_graph` (`where_routes_die` reads the routes table), and every
result has an `engine` column saying what computed it. `engine=None` takes the best engine
available (`graph.engines.choose_engine`); an engine that does not implement an analytic
hands it to the DataFrame implementation, and the column says so:

    analytic                         graphframes          graphx                 dataframe
    degrees                          aggregateMessages    -                      aggregations
    vertex_latency                   aggregateMessages    -                      aggregations
    busiest_channels, hop_latency,   -                    -                      aggregations
      where_routes_die
    pagerank                         pageRank             lib.PageRank           iterative joins
    connected_components             connectedComponents  lib.ConnectedComponents min-label
    strongly_connected_components,   stronglyConnected-   lib.StronglyConnected- fwd/bwd min-
      loops                            Components           Components             labels + trim
    two_cycles                       find (motif)         -                      self-join
    shortest_paths                   shortestPaths        lib.ShortestPaths      BFS joins
    reachability                     pregel (not bfs)     -                      BFS joins
    depth                            pregel               -                      BFS joins
    label_propagation                labelPropagation     lib.LabelPropagation   iterative joins
    configuration_patterns           find (motifs)        -                      joins

Graph algorithms see the simple directed graph: one edge per (src, dst) pair, whatever its
kinds and channels. Component, SCC and community labels are the smallest member id, so
the engines' answers can be compared directly.

The DataFrame loops are bounded (`max_iter`, `max_hops`, `max_steps`) and localCheckpoint
their state every iteration, so plans and lineage stay small: loops that test for
convergence materialize it with their one count per iteration, fixed-length ones every
EAGER_EVERY iterations. Local checkpoints live on the executors: losing one mid-analytic
fails the analytic (run it again), as with GraphFrames' use_local_checkpoints.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from graph.engines import GraphXGraph, choose_engine

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

log = logging.getLogger(__name__)

#: Verdicts of routes that got where they should (a trace-route with Deliver=NO is discarded
#: at its target: that is its normal end).
OK_VERDICTS: tuple[str, ...] = ("delivered", "discarded_at_target")
#: Fixed-iteration DataFrame loops (PageRank, label propagation) materialize their state
#: every this many iterations (the others do at every iteration, counting changes).
EAGER_EVERY = 10
#: GraphFrames' connectedComponents algorithm. The default 'two_phase' took 158 s on the
#: tests' 30-vertex graph (2 CPUs shared with other work, load ~20); 'graphx' (GraphFrames'
#: own copy of GraphX's min-label propagation) took 4 s there (load ~6), and 8 s and 5 s on
#: the benchmark's 1,000 and 10,000 queue managers. 'two_phase' is meant for graphs far
#: larger than an MQ estate.
GRAPHFRAMES_CC_ALGORITHM = "graphx"
#: Which engines implement which analytic natively (others run the DataFrame version).
NATIVE: dict[str, tuple[str, ...]] = {
    "degrees": ("graphframes",), "vertex_latency": ("graphframes",),
    "busiest_channels": (), "hop_latency": (), "where_routes_die": (),
    "pagerank": ("graphframes", "graphx"),
    "connected_components": ("graphframes", "graphx"),
    "strongly_connected_components": ("graphframes", "graphx"),
    "loops": ("graphframes", "graphx"),
    "two_cycles": ("graphframes",),
    "shortest_paths": ("graphframes", "graphx"),
    "reachability": ("graphframes",),
    "depth": ("graphframes",),
    "label_propagation": ("graphframes", "graphx"),
    "configuration_patterns": ("graphframes",),
}


# --- helpers -------------------------------------------------------------------------------

def engine_for(spark: SparkSession, analytic: str, engine: str | None = None) -> str:
    """The engine that will run `analytic`: the chosen one if it has it, else 'dataframe'.

    An explicitly requested engine that cannot run here raises EngineUnavailable.
    """
    chosen = choose_engine(spark, engine)
    return chosen if chosen in NATIVE[analytic] else "dataframe"


def _tag(df: DataFrame, engine: str) -> DataFrame:
    from pyspark.sql import functions as F

    return df.withColumn("engine", F.lit(engine))


def _cp(df: DataFrame, eager: bool = False) -> DataFrame:
    """Cut the lineage (iterative loops): a local checkpoint, materialized now if `eager`,
    else by the next action that reads it (the loops' convergence counts)."""
    return df.localCheckpoint(eager=eager)


def _changes(df: DataFrame, flag: str) -> tuple[DataFrame, int]:
    """(df checkpointed without `flag`, how many rows have `flag` set): one job."""
    from pyspark.sql import functions as F

    df = _cp(df)
    return df.drop(flag), df.filter(F.col(flag)).count()


def _ids(vertices: DataFrame, edges: DataFrame) -> DataFrame:
    """Every vertex id: the vertex table's and any edge end it lacks."""
    from pyspark.sql import functions as F

    return (vertices.select("id")
            .unionByName(edges.select(F.col("src").alias("id")))
            .unionByName(edges.select(F.col("dst").alias("id")))
            .distinct())


def _checked_ids(vertices: DataFrame, edges: DataFrame) -> tuple[DataFrame, int]:
    """(ids, n): the vertex ids, checkpointed, and how many."""
    ids = _cp(_ids(vertices, edges))
    return ids, ids.count()


def _pairs(edges: DataFrame, weighted: bool = False) -> DataFrame:
    """The simple directed graph: (src, dst, w) per distinct pair, w = messages or 1."""
    from pyspark.sql import functions as F

    w = F.sum(F.coalesce(F.col("messages"), F.lit(0))).cast("double") if weighted \
        else F.lit(1.0)
    return edges.groupBy("src", "dst").agg(w.alias("w"))


def _min_member(df: DataFrame, label: str, out: str) -> DataFrame:
    """(id, out): relabel each group of `label` by the smallest id in it."""
    from pyspark.sql import functions as F

    mins = df.groupBy(label).agg(F.min("id").alias(out))
    return df.join(mins, label).select("id", out)


def _graphframe(vertices: DataFrame, edges: DataFrame) -> Any:
    """A GraphFrame of the two tables, each local-checkpointed first: GraphFrames' iterative
    algorithms re-read their inputs every round, so a derived table (a distinct, a groupBy)
    would be computed again each time."""
    from graphframes import GraphFrame

    return GraphFrame(_cp(vertices, eager=True), _cp(edges, eager=True))


def _aggregate_messages(g: Any, aggs: dict[str, Any], *, to_src: Any,
                        to_dst: Any) -> DataFrame:
    """(id, one column per named aggregate) by GraphFrames' aggregateMessages.

    The aggregates go in as one struct (graphframes-py 0.12 passes the first of several
    Column aggregates to the JVM twice, which makes its name ambiguous).
    """
    from pyspark.sql import functions as F

    packed = F.struct(*(agg.alias(name) for name, agg in aggs.items())).alias("_agg")
    got = g.aggregateMessages([packed], sendToSrc=[to_src], sendToDst=[to_dst])
    return got.select("id", *(F.col("_agg")[n].alias(n) for n in aggs))


def _ranked(df: DataFrame, order: list, top: int | None) -> DataFrame:
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    if top is not None:
        df = df.orderBy(*order).limit(top)
    ranked = df.withColumn("rank", F.row_number().over(Window.orderBy(*order)))
    return ranked.select("rank", *(c for c in df.columns)).orderBy("rank")


# --- aggregations (every engine: DataFrame operations) -------------------------------------

def degrees(spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
            engine: str | None = None) -> DataFrame:
    """Per vertex: in/out/total degree (edges) and messages in/out/total (weighted degree).

    graphframes: one aggregateMessages pass (each edge tells both ends its message count);
    dataframe: two groupBys.
    """
    from pyspark.sql import functions as F

    ran = engine_for(spark, "degrees", engine)
    base = vertices.select("id", "kind", "queue_manager")
    if ran == "graphframes":
        from graphframes import GraphFrame as G

        g = _graphframe(_ids(vertices, edges), edges.select("src", "dst", "messages"))
        one, zero, none = (F.lit(x).cast("long") for x in (1, 0, None))
        messages = F.col(f"{G.EDGE}.messages")
        msgs = _aggregate_messages(
            g, {"in_degree": F.sum("msg.i"), "out_degree": F.sum("msg.o"),
                "in_messages": F.sum("msg.im"), "out_messages": F.sum("msg.om")},
            to_src=F.struct(zero.alias("i"), one.alias("o"), none.alias("im"),
                            messages.alias("om")),
            to_dst=F.struct(one.alias("i"), zero.alias("o"), messages.alias("im"),
                            none.alias("om")))
        df = base.join(msgs, "id", "left")
    else:
        out = edges.groupBy(F.col("src").alias("id")).agg(
            F.count(F.lit(1)).alias("out_degree"), F.sum("messages").alias("out_messages"))
        inn = edges.groupBy(F.col("dst").alias("id")).agg(
            F.count(F.lit(1)).alias("in_degree"), F.sum("messages").alias("in_messages"))
        df = base.join(inn, "id", "left").join(out, "id", "left")
    zero = {"in_degree": 0, "out_degree": 0, "in_messages": 0, "out_messages": 0}
    df = df.fillna(zero).select(
        "id", "kind", "queue_manager", "in_degree", "out_degree",
        (F.col("in_degree") + F.col("out_degree")).alias("degree"),
        "in_messages", "out_messages",
        (F.col("in_messages") + F.col("out_messages")).alias("messages"))
    return _tag(df, ran)


def vertex_latency(spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
                   engine: str | None = None) -> DataFrame:
    """Per vertex: timed hops arriving and leaving, their mean and worst latency (seconds).

    (id, in_samples, in_latency_avg, in_latency_max, out_samples, out_latency_avg,
    out_latency_max, engine): an edge's latency is the time from its hop to the route's
    next one (`graph.network`), so `in_*` is how long messages took to get here and
    `out_*` how long they waited or travelled after leaving. Means are weighted by samples;
    a vertex without timed hops has 0 samples and null latencies. graphframes: one
    aggregateMessages pass; dataframe: two groupBys.
    """
    from pyspark.sql import functions as F

    ran = engine_for(spark, "vertex_latency", engine)
    timed = edges.filter(F.col("latency_samples") > 0).select(
        "src", "dst", F.col("latency_samples").alias("n"),
        (F.col("latency_avg") * F.col("latency_samples")).alias("total"),
        F.col("latency_max").alias("worst"))
    if ran == "graphframes":
        from graphframes import GraphFrame as G

        g = _graphframe(_ids(vertices, edges), timed)
        e = G.EDGE
        none_l, none_d = F.lit(None).cast("long"), F.lit(None).cast("double")
        agg = _aggregate_messages(
            g, {"in_samples": F.sum("msg.in_n"), "in_total": F.sum("msg.in_t"),
                "in_latency_max": F.max("msg.in_w"), "out_samples": F.sum("msg.out_n"),
                "out_total": F.sum("msg.out_t"), "out_latency_max": F.max("msg.out_w")},
            to_dst=F.struct(F.col(f"{e}.n").alias("in_n"), F.col(f"{e}.total").alias("in_t"),
                            F.col(f"{e}.worst").alias("in_w"), none_l.alias("out_n"),
                            none_d.alias("out_t"), none_d.alias("out_w")),
            to_src=F.struct(none_l.alias("in_n"), none_d.alias("in_t"), none_d.alias("in_w"),
                            F.col(f"{e}.n").alias("out_n"), F.col(f"{e}.total").alias("out_t"),
                            F.col(f"{e}.worst").alias("out_w")))
    else:
        inn = timed.groupBy(F.col("dst").alias("id")).agg(
            F.sum("n").alias("in_samples"), F.sum("total").alias("in_total"),
            F.max("worst").alias("in_latency_max"))
        out = timed.groupBy(F.col("src").alias("id")).agg(
            F.sum("n").alias("out_samples"), F.sum("total").alias("out_total"),
            F.max("worst").alias("out_latency_max"))
        agg = inn.join(out, "id", "full")
    df = vertices.select("id").join(agg, "id", "left").fillna(
        {"in_samples": 0, "out_samples": 0})
    df = df.select(
        "id", F.col("in_samples").cast("long").alias("in_samples"),
        F.try_divide("in_total", "in_samples").alias("in_latency_avg"), "in_latency_max",
        F.col("out_samples").cast("long").alias("out_samples"),
        F.try_divide("out_total", "out_samples").alias("out_latency_avg"),
        "out_latency_max")
    return _tag(df, ran)


def busiest_channels(spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
                     top: int | None = 20, engine: str | None = None) -> DataFrame:
    """Channels (send edges) by messages carried, with their share and latency."""
    from pyspark.sql import functions as F

    ran = engine_for(spark, "busiest_channels", engine)
    sends = edges.filter(F.col("kind") == "send")
    total = sends.agg(F.sum("messages").alias("total"))
    df = sends.crossJoin(F.broadcast(total)).select(
        "channel", "src", "dst", "messages",
        (F.col("messages") / F.col("total")).alias("share"),
        "latency_samples", "latency_avg", "latency_p50")
    order = [F.desc("messages"), F.asc("channel"), F.asc("src"), F.asc("dst")]
    return _tag(_ranked(df, order, top), ran)


def hop_latency(spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
                top: int | None = None, engine: str | None = None) -> DataFrame:
    """Per edge with timed hops: samples and min/avg/max/p50 seconds, slowest p50 first."""
    from pyspark.sql import functions as F

    ran = engine_for(spark, "hop_latency", engine)
    df = edges.filter(F.col("latency_samples") > 0).select(
        "src", "dst", "kind", "channel", "messages", "latency_samples", "latency_min",
        "latency_avg", "latency_max", "latency_p50")
    order = [F.desc("latency_p50"), F.desc("latency_max"), F.asc("src"), F.asc("dst"),
             F.asc("kind"), F.asc_nulls_first("channel")]
    return _tag(_ranked(df, order, top), ran)


def where_routes_die(spark: SparkSession, routes: DataFrame, *,
                     ok_verdicts: Sequence[str] = OK_VERDICTS, top: int | None = None,
                     engine: str | None = None) -> DataFrame:
    """Last known locations of routes that failed or have not finished, most routes first."""
    from pyspark.sql import functions as F

    ran = engine_for(spark, "where_routes_die", engine)
    verdict = F.col("verdict")
    dead = routes.filter(verdict.isNull() | ~verdict.isin(*ok_verdicts))
    keys = ["verdict", "last_queue_manager", "last_queue", "last_channel",
            "next_queue_manager"]
    grouped = dead.groupBy(*keys).agg(F.count(F.lit(1)).alias("routes"))
    total = dead.agg(F.count(F.lit(1)).alias("total"))
    df = grouped.crossJoin(F.broadcast(total)).select(
        *keys, "routes", (F.col("routes") / F.col("total")).alias("share"))
    order = [F.desc("routes"), *(F.asc_nulls_first(k) for k in keys)]
    return _tag(_ranked(df, order, top), ran)


# --- PageRank ------------------------------------------------------------------------------

def pagerank(spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
             reset_probability: float = 0.15, max_iter: int = 20, tol: float | None = None,
             weighted: bool = False, engine: str | None = None) -> DataFrame:
    """(id, pagerank, engine), ranks summing to 1.

    dataframe: networkx's formulation (power iteration from 1/N; a dangling vertex's rank is
    spread over all vertices; teleport uniform), `max_iter` iterations, or until the L1
    change is below N*tol like nx.pagerank; `weighted` weighs edges by messages.
    graphx/graphframes: GraphX's PageRank (ranks start at 1, r = reset + (1-reset)*sum,
    dangling rank dropped each iteration, the result rescaled to sum N), divided by N here;
    with `tol`, GraphX's runUntilConvergence (per-vertex change below tol). Its fixed point
    is networkx's up to scale (both teleport uniformly), so converged ranks agree; after a
    fixed number of iterations they differ slightly where there are sinks (every queue is
    one). GraphX's PageRank is unweighted, so `weighted=True` runs the DataFrame one.
    """
    if weighted:
        choose_engine(spark, engine)  # still reject an unavailable explicit engine
        ran = "dataframe"
    else:
        ran = engine_for(spark, "pagerank", engine)
    if ran == "graphx":
        with GraphXGraph(spark, vertices, edges) as gx:
            df = _normalized(gx.pagerank(max_iter, reset_probability, tol), "rank")
    elif ran == "graphframes":
        g = _graphframe(_ids(vertices, edges), _pairs(edges).select("src", "dst"))
        if tol is None:
            ranks = g.pageRank(resetProbability=reset_probability, maxIter=max_iter).vertices
        else:
            ranks = g.pageRank(resetProbability=reset_probability, tol=tol).vertices
        df = _normalized(ranks.select("id", ranks["pagerank"].alias("rank")), "rank")
    else:
        df = _pagerank_dataframe(vertices, edges, 1.0 - reset_probability, max_iter, tol,
                                 weighted)
    return _tag(df.withColumnRenamed("rank", "pagerank"), ran)


def _normalized(df: DataFrame, column: str) -> DataFrame:
    from pyspark.sql import functions as F

    total = df.agg(F.sum(column).alias("_total"))
    return df.crossJoin(F.broadcast(total)).select(
        "id", (F.col(column) / F.col("_total")).alias(column))


def _pagerank_dataframe(vertices: DataFrame, edges: DataFrame, alpha: float, max_iter: int,
                        tol: float | None, weighted: bool) -> DataFrame:
    from pyspark.sql import functions as F

    ids, n = _checked_ids(vertices, edges)
    if n == 0:
        return ids.select("id", F.lit(0.0).alias("rank"))
    pairs = _pairs(edges, weighted)
    out_w = pairs.groupBy("src").agg(F.sum("w").alias("w_out"))
    share = _cp(pairs.join(out_w, "src").filter(F.col("w_out") > 0).select(
        "src", "dst", (F.col("w") / F.col("w_out")).alias("share")))
    has_out = share.select(F.col("src").alias("id")).distinct().withColumn("d", F.lit(False))
    ranks = _cp(ids.join(has_out, "id", "left").select(
        "id", F.coalesce("d", F.lit(True)).alias("dangling"), F.lit(1.0 / n).alias("rank")))
    none_b, none_d = F.lit(None).cast("boolean"), F.lit(None).cast("double")
    for i in range(max_iter):
        # contributions and each vertex's own row, summed in one aggregation
        contrib = share.join(ranks, ranks["id"] == share["src"]).select(
            F.col("dst").alias("id"), (F.col("rank") * F.col("share")).alias("c"),
            none_b.alias("dangling"), none_d.alias("old"))
        own = ranks.select("id", F.lit(0.0).alias("c"), "dangling", F.col("rank").alias("old"))
        summed = contrib.unionByName(own).groupBy("id").agg(
            F.sum("c").alias("c"), F.max("dangling").alias("dangling"),
            F.max("old").alias("old"))
        dangling = ranks.filter("dangling").agg(
            F.coalesce(F.sum("rank"), F.lit(0.0)).alias("dsum"))
        new = summed.crossJoin(F.broadcast(dangling)).select(
            "id", "dangling", "old",
            (F.lit(alpha) * (F.col("c") + F.col("dsum") / n)
             + F.lit((1.0 - alpha) / n)).alias("rank"))
        if tol is None:
            ranks = _cp(new.drop("old"), eager=(i + 1) % EAGER_EVERY == 0)
            continue
        new = _cp(new)
        ranks = new.drop("old")
        err = new.agg(F.sum(F.abs(F.col("rank") - F.col("old")))).first()[0]
        if err < n * tol:
            break
    return ranks.select("id", "rank")


def connected_components(spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
                         max_iter: int = 100, engine: str | None = None) -> DataFrame:
    """(id, component, engine): islands (weakly connected), component = smallest id in it."""
    ran = engine_for(spark, "connected_components", engine)
    if ran == "graphx":
        with GraphXGraph(spark, vertices, edges) as gx:
            df = _min_member(gx.connected_components(), "label", "component")
    elif ran == "graphframes":
        g = _graphframe(_ids(vertices, edges), _pairs(edges).select("src", "dst"))
        cc = g.connectedComponents(algorithm=GRAPHFRAMES_CC_ALGORITHM,
                                   use_local_checkpoints=True)
        df = _min_member(cc.select("id", cc["component"].alias("label")), "label", "component")
    else:
        df = _components_dataframe(vertices, edges, max_iter)
    return _tag(df, ran)


def _components_dataframe(vertices: DataFrame, edges: DataFrame, max_iter: int) -> DataFrame:
    from pyspark.sql import functions as F

    pairs = edges.select("src", "dst")
    both = _cp(pairs.select(F.col("src").alias("a"), F.col("dst").alias("b"))
               .unionByName(pairs.select(F.col("dst").alias("a"), F.col("src").alias("b")))
               .filter(F.col("a") != F.col("b")).distinct())
    ids, _ = _checked_ids(vertices, edges)
    labels = ids.select("id", F.col("id").alias("label"))
    for _ in range(max_iter):
        # the neighbours' labels and the vertex's own, in one aggregation
        heard = both.join(labels, both["b"] == labels["id"]).select(
            F.col("a").alias("id"), "label", F.lit(None).cast("string").alias("old"))
        own = labels.select("id", "label", F.col("label").alias("old"))
        labels, changed = _changes(
            heard.unionByName(own).groupBy("id")
            .agg(F.min("label").alias("label"), F.min("old").alias("old"))
            .select("id", "label", (F.col("label") < F.col("old")).alias("changed")),
            "changed")
        if not changed:
            break
    else:
        log.warning("connected components: not stable after %d iterations", max_iter)
    return labels.select("id", F.col("label").alias("component"))


def strongly_connected_components(spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
                                  max_iter: int = 100, engine: str | None = None) -> DataFrame:
    """(id, component, engine): SCCs, component = smallest id in it (singletons included).

    dataframe: rounds of min-label propagation over the unsettled vertices until stable,
    fwd = min id of the vertices that reach v and bwd = min id of those v reaches; then
    fwd == bwd == u puts v in u's SCC (u is its smallest member, and an SCC is settled whole
    or not at all), and a vertex without in- or out-arcs among them is its own SCC
    (trimming). Each round settles at least the SCC of the smallest unsettled id, and
    every source and sink. `max_iter` bounds the rounds and each propagation; a vertex
    left unsettled then gets component null (and a warning is logged).
    """
    df, ran = _scc(spark, vertices, edges, max_iter, engine)
    return _tag(df, ran)


def _scc(spark: SparkSession, vertices: DataFrame, edges: DataFrame, max_iter: int,
         engine: str | None) -> tuple[DataFrame, str]:
    ran = engine_for(spark, "strongly_connected_components", engine)
    if ran == "graphx":
        with GraphXGraph(spark, vertices, edges) as gx:
            df = _min_member(gx.strongly_connected_components(max_iter), "label", "component")
    elif ran == "graphframes":
        g = _graphframe(_ids(vertices, edges), _pairs(edges).select("src", "dst"))
        scc = g.stronglyConnectedComponents(maxIter=max_iter)
        df = _min_member(scc.select("id", scc["component"].alias("label")), "label",
                         "component")
    else:
        df = _scc_dataframe(vertices, edges, max_iter)
    return df, ran


def _scc_dataframe(vertices: DataFrame, edges: DataFrame, max_iter: int) -> DataFrame:
    from pyspark.sql import functions as F

    remaining, _ = _checked_ids(vertices, edges)
    arcs = _cp(edges.select("src", "dst").filter(F.col("src") != F.col("dst")).distinct())
    settled = []
    for _ in range(max_iter):
        # f: min id of the vertices reaching v; b: min id of those v reaches; t: v has no
        # in-arc or no out-arc among the remaining vertices (a singleton SCC: trimmed)
        lab = remaining.select("id", F.col("id").alias("f"), F.col("id").alias("b"),
                               F.lit(None).cast("boolean").alias("t"))
        none_s, none_b = F.lit(None).cast("string"), F.lit(None).cast("boolean")
        for _ in range(max_iter):
            # forward and backward messages and each vertex's own row, one aggregation
            fwd = arcs.join(lab.select(F.col("id").alias("src"), "f"), "src").select(
                F.col("dst").alias("id"), none_s.alias("f"), none_s.alias("b"),
                none_b.alias("t"), F.col("f").alias("mf"), none_s.alias("mb"))
            bwd = arcs.join(lab.select(F.col("id").alias("dst"), "b"), "dst").select(
                F.col("src").alias("id"), none_s.alias("f"), none_s.alias("b"),
                none_b.alias("t"), none_s.alias("mf"), F.col("b").alias("mb"))
            own = lab.select("id", "f", "b", "t", none_s.alias("mf"), none_s.alias("mb"))
            merged = fwd.unionByName(bwd).unionByName(own).groupBy("id").agg(
                *(F.min(c).alias(c) for c in ("f", "b", "mf", "mb")), F.max("t").alias("t"))
            lab, changed = _changes(
                merged.select(
                    "id", F.least("f", F.coalesce("mf", "f")).alias("f"),
                    F.least("b", F.coalesce("mb", "b")).alias("b"),
                    F.coalesce("t", F.col("mf").isNull() | F.col("mb").isNull()).alias("t"),
                    ((F.col("mf") < F.col("f")) | (F.col("mb") < F.col("b")))
                    .alias("changed")), "changed")
            if not changed:
                break
        else:
            log.warning("strongly connected components: propagation not stable after %d "
                        "iterations; SCCs found this round may be split", max_iter)
        done = F.col("t") | (F.col("f") == F.col("b"))
        settled.append(lab.filter(done).select(
            "id", F.when(F.col("t"), F.col("id")).otherwise(F.col("f")).alias("component")))
        remaining = _cp(lab.filter(~done).select("id"))
        if remaining.count() == 0:
            break
        arcs = _cp(arcs.join(remaining.select(F.col("id").alias("src")), "src", "left_semi")
                   .join(remaining.select(F.col("id").alias("dst")), "dst", "left_semi"))
    else:
        log.warning("strongly connected components: unsettled after %d rounds", max_iter)
        settled.append(remaining.select("id", F.lit(None).cast("string").alias("component")))
    df = settled[0]
    for part in settled[1:]:
        df = df.unionByName(part)
    return df


def two_cycles(spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
               engine: str | None = None) -> DataFrame:
    """(a, b, messages_ab, messages_ba, engine): pairs with edges both ways, a < b.

    dataframe: a self-join of the (src, dst) pairs; graphframes: the motif
    (a)-[]->(b); (b)-[]->(a).
    """
    from pyspark.sql import functions as F

    ran = engine_for(spark, "two_cycles", engine)
    pairs = _pairs(edges, weighted=True).withColumnRenamed("w", "messages")
    if ran == "graphframes":
        g = _graphframe(_ids(vertices, edges), pairs)
        found = g.find("(a)-[ab]->(b); (b)-[ba]->(a)").filter("a.id < b.id")
        df = found.select(F.col("a.id").alias("a"), F.col("b.id").alias("b"),
                          F.col("ab.messages").alias("messages_ab"),
                          F.col("ba.messages").alias("messages_ba"))
    else:
        ab, ba = pairs.alias("ab"), pairs.alias("ba")
        df = ab.join(ba, (F.col("ab.src") == F.col("ba.dst"))
                     & (F.col("ab.dst") == F.col("ba.src"))
                     & (F.col("ab.src") < F.col("ab.dst"))).select(
            F.col("ab.src").alias("a"), F.col("ab.dst").alias("b"),
            F.col("ab.messages").alias("messages_ab"),
            F.col("ba.messages").alias("messages_ba"))
    df = df.select("a", "b", F.col("messages_ab").cast("long").alias("messages_ab"),
                   F.col("messages_ba").cast("long").alias("messages_ba"))
    return _tag(df, ran)


def loops(spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
          components: DataFrame | None = None, max_iter: int = 100,
          engine: str | None = None) -> DataFrame:
    """(component, size, members, engine): SCCs of more than one vertex, i.e. loops.

    These are the sets messages can go round and round in (2-cycles and longer);
    `components` reuses a strongly_connected_components result instead of computing one.
    """
    from pyspark.sql import functions as F

    if components is None:
        scc, ran = _scc(spark, vertices, edges, max_iter, engine)
        components = _tag(scc, ran)
    return (components.filter(F.col("component").isNotNull()).groupBy("component")
            .agg(F.count(F.lit(1)).alias("size"),
                 F.array_sort(F.collect_list("id")).alias("members"),
                 F.max("engine").alias("engine"))
            .filter(F.col("size") > 1))


# --- paths ---------------------------------------------------------------------------------

def shortest_paths(spark: SparkSession, vertices: DataFrame, edges: DataFrame,
                   landmarks: Sequence[str], *, direction: str = "from", max_hops: int = 100,
                   engine: str | None = None) -> DataFrame:
    """(id, landmark, distance, engine): hop counts from (or to) landmark vertices.

    direction='from': from each landmark to every vertex it reaches; 'to': from every
    vertex to each landmark it can reach. Only reachable pairs are rows (a landmark is 0
    hops from itself); distances over `max_hops` are left out on every engine (the
    DataFrame BFS stops there).
    """
    from pyspark.sql import functions as F

    if direction not in ("from", "to"):
        raise ValueError("direction is 'from' (landmark -> vertex) or 'to' (vertex -> landmark)")
    ran = engine_for(spark, "shortest_paths", engine)
    landmarks = list(dict.fromkeys(landmarks))
    if ran == "graphx":
        with GraphXGraph(spark, vertices, edges, reverse=direction == "from") as gx:
            df = gx.shortest_paths(landmarks)
    elif ran == "graphframes":
        e = _pairs(edges).select("src", "dst")
        if direction == "from":
            e = e.select(F.col("dst").alias("src"), F.col("src").alias("dst"))
        g = _graphframe(_ids(vertices, edges), e)
        sp = g.shortestPaths(landmarks=landmarks)
        df = sp.select("id", F.explode("distances").alias("landmark", "distance"))
    else:
        df = _bfs_dataframe(spark, vertices, edges, landmarks, direction, max_hops)
    df = df.filter(F.col("distance") <= max_hops).select(
        "id", "landmark", F.col("distance").cast("int").alias("distance"))
    return _tag(df, ran)


def _bfs_dataframe(spark: SparkSession, vertices: DataFrame, edges: DataFrame, landmarks: list[str],
                   direction: str, max_hops: int) -> DataFrame:
    from pyspark.sql import functions as F

    s, d = ("src", "dst") if direction == "from" else ("dst", "src")
    arcs = _cp(edges.select(F.col(s).alias("a"), F.col(d).alias("b")).distinct())
    start = spark.createDataFrame([(x,) for x in landmarks], "id string")
    known = _cp(start.join(_ids(vertices, edges), "id", "left_semi").select(
        "id", F.col("id").alias("landmark"), F.lit(0).alias("distance")))
    frontier = known
    for hop in range(1, max_hops + 1):
        step = arcs.join(frontier, frontier["id"] == arcs["a"]).select(
            F.col("b").alias("id"), "landmark").distinct()
        step = _cp(step.join(known, ["id", "landmark"], "left_anti")
                   .withColumn("distance", F.lit(hop)))
        if step.count() == 0:
            break
        known = known.unionByName(step)
        if hop % EAGER_EVERY == 0:
            known = _cp(known)
        frontier = step
    return known


def reachability(spark: SparkSession, vertices: DataFrame, edges: DataFrame, source: str,
                 target: str, *, max_hops: int = 32, engine: str | None = None) -> DataFrame:
    """One row (source, target, reachable, hops, path, engine): can source reach target?

    Can a message at `source` (a queue manager) get to `target` (e.g. 'QM2/TARGET.Q'), and
    by which shortest way. dataframe: BFS from the source by iterative joins, at most
    `max_hops` levels, keeping one path per vertex (the lexicographically smallest of its
    shortest paths); graphframes: the same as a Pregel run (see `_bfs_graphframes` for why
    not GraphFrames' bfs()).
    """
    from pyspark.sql import functions as F

    ran = engine_for(spark, "reachability", engine)
    if ran == "graphframes":
        hops, path = _bfs_graphframes(vertices, edges, source, target, max_hops)
    else:
        hops, path = _bfs_path_dataframe(spark, vertices, edges, source, target, max_hops)
    df = spark.createDataFrame(
        [(source, target, path is not None, hops, path)],
        "source string, target string, reachable boolean, hops int, path array<string>")
    return df.withColumn("engine", F.lit(ran))


def _bfs_path_dataframe(spark: SparkSession, vertices: DataFrame, edges: DataFrame, source: str,
                        target: str, max_hops: int) -> tuple[int | None, list[str] | None]:
    from pyspark.sql import functions as F

    if _ids(vertices, edges).filter(F.col("id") == source).isEmpty():
        return None, None
    if source == target:
        return 0, [source]
    arcs = _cp(edges.select(F.col("src").alias("a"), F.col("dst").alias("b")).distinct())
    seen = _cp(spark.createDataFrame([(source, [source])], "id string, path array<string>"))
    frontier = seen
    for hop in range(1, max_hops + 1):
        step = arcs.join(frontier, frontier["id"] == arcs["a"]).select(
            F.col("b").alias("id"), F.concat("path", F.array("b")).alias("path"))
        step = _cp(step.join(seen, "id", "left_anti").groupBy("id")
                   .agg(F.min("path").alias("path")))
        found = step.agg(F.count(F.lit(1)).alias("n"),
                         F.min(F.when(F.col("id") == target, F.col("path"))).alias("p")).first()
        if found["p"] is not None:
            return hop, list(found["p"])
        if found["n"] == 0:
            break
        seen = seen.unionByName(step)
        if hop % EAGER_EVERY == 0:
            seen = _cp(seen)
        frontier = step
    return None, None


def _bfs_graphframes(vertices: DataFrame, edges: DataFrame, source: str, target: str,
                     max_hops: int) -> tuple[int | None, list[str] | None]:
    """The least of the shortest paths, by a Pregel run over GraphFrames.

    Each vertex keeps the least path from the source it has heard of; a vertex without one
    hears from its predecessors that have one. It stops when no vertex learns a path (or
    after `max_hops` supersteps). GraphFrames' own bfs() was the first choice, but it only
    stops at maxPathLength when the target cannot be reached: on a 14-vertex graph it took
    475 s to say so with maxPathLength 32, against 52 s for this (and 61 s against 52 s for
    a 5-hop path), on the shared 2-CPU machine.
    """
    from graphframes.lib import Pregel
    from pyspark.sql import functions as F

    ids = _ids(vertices, edges)
    if ids.filter(F.col("id") == source).isEmpty():
        return None, None
    if source == target:
        return 0, [source]
    g = _graphframe(ids, _pairs(edges).select("src", "dst"))
    src_path, dst_path = Pregel.src("path"), Pregel.dst("path")
    got = (g.pregel.setMaxIter(max_hops).setEarlyStopping(True).setUseLocalCheckpoints(True)
           .withVertexColumn("path", F.when(F.col("id") == source, F.array(F.col("id"))),
                             F.coalesce(F.col("path"), Pregel.msg()))
           .sendMsgToDst(F.when(src_path.isNotNull() & dst_path.isNull(),
                                F.concat(src_path, F.array(Pregel.dst("id")))))
           .aggMsgs(F.min(Pregel.msg()))
           .run())
    row = got.filter(F.col("id") == target).select("path").first()
    if row is None or row[0] is None:
        return None, None
    return len(row[0]) - 1, list(row[0])


def depth(spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
          sources: Sequence[str] | None = None, max_hops: int = 32,
          engine: str | None = None) -> DataFrame:
    """(id, depth, engine): the fewest hops from an entry point to each vertex (null: none).

    Entry points are `sources`, or else every vertex with outgoing edges and no incoming
    ones (where messages only start). graphframes: a Pregel run (each vertex sends its
    depth + 1 along its out-edges, keeps the least it hears; stops when nothing changes or
    after `max_hops` supersteps); dataframe: breadth-first joins, one per hop.
    """
    from pyspark.sql import functions as F

    ran = engine_for(spark, "depth", engine)
    ids = _ids(vertices, edges)
    arcs = edges.select("src", "dst").filter(F.col("src") != F.col("dst")).distinct()
    if sources is None:
        starts = arcs.select(F.col("src").alias("id")).distinct().join(
            arcs.select(F.col("dst").alias("id")), "id", "left_anti")
    else:
        starts = spark.createDataFrame([(x,) for x in dict.fromkeys(sources)], "id string")
    starts = _cp(starts.join(ids, "id", "left_semi"), eager=True)
    if ran == "graphframes":
        from graphframes.lib import Pregel

        marked = ids.join(starts.withColumn("start", F.lit(True)), "id", "left")
        g = _graphframe(marked, arcs)
        got = (g.pregel.setMaxIter(max_hops).setEarlyStopping(True)
               .setUseLocalCheckpoints(True)
               .withVertexColumn("depth", F.when(F.col("start"), F.lit(0)),
                                 F.least(F.col("depth"), Pregel.msg()))
               .sendMsgToDst(F.when(Pregel.src("depth").isNotNull()
                                    & (Pregel.dst("depth").isNull()
                                       | (Pregel.dst("depth") > Pregel.src("depth") + 1)),
                                    Pregel.src("depth") + 1))
               .aggMsgs(F.min(Pregel.msg()))
               .run())
        df = got.select("id", F.col("depth").cast("int").alias("depth"))
    else:
        known = starts.select("id", F.lit(0).alias("depth"))
        frontier = known
        for hop in range(1, max_hops + 1):
            step = _cp(arcs.join(frontier.select(F.col("id").alias("src")), "src")
                       .select(F.col("dst").alias("id")).distinct()
                       .join(known, "id", "left_anti").withColumn("depth", F.lit(hop)))
            if step.count() == 0:
                break
            known = known.unionByName(step)
            if hop % EAGER_EVERY == 0:
                known = _cp(known)
            frontier = step
        df = ids.join(known, "id", "left").select("id", F.col("depth").cast("int"))
    return _tag(df, ran)


# --- configuration patterns (the audit's, as motifs) ---------------------------------------

def _motif(g: Any, edges: DataFrame, pattern: str) -> DataFrame:
    """Rows of a chain motif '(a)-[e1]->(b); (b)-[e2]->(c) ...' with the edge structs
    e1, e2, ...: GraphFrames' find on `g`, or the same chain as joins of `edges` (g None)."""
    from pyspark.sql import functions as F

    if g is not None:
        return g.find(pattern)
    terms = [t.strip() for t in pattern.split(";")]
    parsed = [re.fullmatch(r"\((\w+)\)-\[(\w+)\]->\((\w+)\)", t).groups() for t in terms]
    cols = edges.columns
    df, bound = None, {}
    for a, e, b in parsed:
        part = edges.select(F.struct(*cols).alias(e))
        if df is None:
            df = part
        else:
            cond = F.lit(True)
            if a in bound:
                cond = cond & (F.col(f"{e}.src") == bound[a])
            if b in bound:
                cond = cond & (F.col(f"{e}.dst") == bound[b])
            df = df.join(part, cond)
        bound.setdefault(a, F.col(f"{e}.src"))
        bound.setdefault(b, F.col(f"{e}.dst"))
    return df


def configuration_patterns(spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
                           engine: str | None = None) -> DataFrame:
    """The audit's graph-shaped findings on the configured graph, as motifs.

    On `graph.network.configured_graph`'s tables: (kind, queue_manager, objects, detail,
    engine) rows in `graph.audit`'s terms:

        alias_loop                         forwards edges round two or three queue
                                           managers, each hop looked up by the name the
                                           previous one forwards: (a)-[e1]->(b); (b)-[e2]->(a)
                                           and the three-hop ring
        receiver_without_sender            (q)-[defines]->(r) with r a receiver and no
                                           (s)-[partner]->(r)
        remote_definition_without_channel  (r)-[resolves]->(x) with no
                                           (x)-[served_by]->(c); (c)-[reaches]->(t)

    A loop is reported once, at its least queue manager, with the definition there first.
    graphframes: `find`; dataframe: the same chains as joins.
    """
    from pyspark.sql import functions as F

    from traceroute.sim.resolve import CLUSTER_XMITQ

    ran = engine_for(spark, "configuration_patterns", engine)
    g = _graphframe(vertices, edges) if ran == "graphframes" else None
    kinds = vertices.select("id", "kind", "queue_manager", "name")

    def motif(pattern: str) -> DataFrame:
        return _motif(g, edges, pattern)

    # receivers no sender channel names
    defined = motif("(q)-[d]->(r)").filter(F.col("d.kind") == "defines").select(
        F.col("d.dst").alias("id"), F.col("d.src").alias("queue_manager"),
        F.col("d.name").alias("name"))
    fed = motif("(s)-[p]->(r)").filter(F.col("p.kind") == "partner").select(
        F.col("p.dst").alias("id"))
    receivers = defined.join(kinds.filter(F.col("kind") == "receiver").select("id"), "id")
    orphans = receivers.join(fed, "id", "left_anti").select(
        F.lit("receiver_without_sender").alias("kind"), "queue_manager",
        F.array("name").alias("objects"),
        F.format_string("receiver channel %s has no sender channel of that name on any "
                        "queue manager", "name").alias("detail"))
    # remote definitions whose transmission queue no channel serves
    resolved = motif("(r)-[s]->(x)").filter(F.col("s.kind") == "resolves").select(
        F.col("s.src").alias("definition"), F.col("s.dst").alias("id"),
        F.col("s.name").alias("xmitq"))
    served = motif("(x)-[b]->(c); (c)-[p]->(t)").filter(
        (F.col("b.kind") == "served_by") & (F.col("p.kind") == "reaches")).select(
        F.col("b.src").alias("id")).distinct()
    xmitq = F.when(F.col("xmitq") == CLUSTER_XMITQ, F.lit("cluster")).otherwise(F.col("xmitq"))
    dead = (resolved.join(served, "id", "left_anti")
            .join(kinds.select(F.col("id").alias("definition"), "queue_manager", "name"),
                  "definition")
            .select(F.lit("remote_definition_without_channel").alias("kind"), "queue_manager",
                    F.array("name", xmitq).alias("objects"),
                    F.format_string("%s resolves to transmission queue %s, which no sender "
                                    "channel serves: messages wait there", "name", xmitq)
                    .alias("detail")))
    # forwarding rings of two and three queue managers
    fwd = [F.col(f"e{i}.kind") == "forwards" for i in (1, 2, 3)]
    ring2 = motif("(a)-[e1]->(b); (b)-[e2]->(a)").filter(
        fwd[0] & fwd[1] & (F.col("e1.src") != F.col("e1.dst"))
        & (F.col("e1.next") == F.col("e2.name")) & (F.col("e2.next") == F.col("e1.name")))
    ring3 = motif("(a)-[e1]->(b); (b)-[e2]->(c); (c)-[e3]->(a)").filter(
        fwd[0] & fwd[1] & fwd[2] & (F.col("e1.src") != F.col("e1.dst"))
        & (F.col("e2.src") != F.col("e2.dst")) & (F.col("e3.src") != F.col("e3.dst"))
        & (F.col("e1.next") == F.col("e2.name")) & (F.col("e2.next") == F.col("e3.name"))
        & (F.col("e3.next") == F.col("e1.name")))
    hops = (ring2.select(F.array("e1", "e2").alias("ring"))
            .unionByName(ring3.select(F.array("e1", "e2", "e3").alias("ring"))))
    # one row per ring: its rotation that starts at the least queue manager
    first = F.array_min(F.transform("ring", lambda e: e["src"]))
    rings = hops.filter(F.col("ring")[0]["src"] == first).select(
        F.col("ring")[0]["src"].alias("queue_manager"), F.col("ring")[0]["name"].alias("name"),
        F.array_sort(F.transform("ring", lambda e: e["src"])).alias("members"),
        F.array_join(F.transform("ring", lambda e: e["src"]), " -> ").alias("path")).distinct()
    loops = rings.select(
        F.lit("alias_loop").alias("kind"), "queue_manager",
        F.concat(F.array("name"), "members").alias("objects"),
        F.format_string("a message put to %s goes round %s -> %s until MaxActivities (or its "
                        "expiry) stops it", "name", "path", "queue_manager").alias("detail"))
    return _tag(orphans.unionByName(dead).unionByName(loops), ran)


# --- communities ---------------------------------------------------------------------------

def label_propagation(spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
                      max_steps: int = 5, engine: str | None = None) -> DataFrame:
    """(id, community, engine): communities by label propagation, `max_steps` steps.

    Synchronous, over the undirected pairs, like GraphX's LPA: each step a vertex takes the
    label most of its neighbours have (the DataFrame version breaks ties by the smallest
    label, GraphX by whichever comes first). community = the smallest id among the
    vertices sharing a label.
    """
    ran = engine_for(spark, "label_propagation", engine)
    if ran == "graphx":
        with GraphXGraph(spark, vertices, edges) as gx:
            labels = gx.label_propagation(max_steps)
    elif ran == "graphframes":
        g = _graphframe(_ids(vertices, edges), _pairs(edges).select("src", "dst"))
        lp = g.labelPropagation(maxIter=max_steps)
        labels = lp.select("id", lp["label"])
    else:
        labels = _lpa_dataframe(vertices, edges, max_steps)
    return _tag(_min_member(labels, "label", "community"), ran)


def _lpa_dataframe(vertices: DataFrame, edges: DataFrame, max_steps: int) -> DataFrame:
    from pyspark.sql import functions as F

    pairs = edges.select("src", "dst").distinct()
    # one message per directed pair and direction, as GraphX's LPA sends them
    hears = _cp(pairs.select(F.col("dst").alias("node"), F.col("src").alias("from"))
                .unionAll(pairs.select(F.col("src").alias("node"), F.col("dst").alias("from"))))
    labels = _cp(_ids(vertices, edges).select("id", F.col("id").alias("label")))
    for i in range(max_steps):
        counts = hears.join(labels, hears["from"] == labels["id"]).groupBy(
            "node", "label").agg(F.count(F.lit(1)).alias("n"))
        # a vertex's own label, with count 0, is only taken when it hears none
        own = labels.select(F.col("id").alias("node"), "label", F.lit(0).cast("long")
                            .alias("n"))
        best = counts.unionByName(own).groupBy(F.col("node").alias("id")).agg(
            F.min(F.struct((-F.col("n")).alias("neg"), F.col("label").alias("l")))
            .alias("best"))
        labels = _cp(best.select("id", F.col("best.l").alias("label")),
                     eager=(i + 1) % EAGER_EVERY == 0)
    return labels


# --- all of them, as tables ------------------------------------------------------------------

#: What `write_analytics` writes under OUT/graph/, each a Parquet table.
TABLES: tuple[str, ...] = (
    "vertices", "edges", "degrees", "vertex_latency", "hop_latency", "busiest_channels",
    "where_routes_die", "pagerank", "connected_components", "strongly_connected_components",
    "loops", "two_cycles", "depth", "label_propagation")


def write_analytics(spark: SparkSession, out: str, *, engine: str | None = None,
                    progress: Any = None) -> dict[str, str]:
    """Every analytic of the network under `mqroute analyze`'s --out, written to OUT/graph/.

    Reads the hops and routes tables, builds the observed graph (graph.network), runs each
    analytic on `engine` (default: the best available) and writes it as OUT/graph/NAME;
    returns {table: the engine that computed it}.
    """
    from graph.network import read_observed_graph

    routes = spark.read.parquet(f"{out.rstrip('/')}/routes")
    vertices, edges = read_observed_graph(spark, out)
    vertices = vertices.localCheckpoint(eager=True)
    edges = edges.localCheckpoint(eager=True)
    scc = strongly_connected_components(spark, vertices, edges, engine=engine)
    scc = scc.localCheckpoint(eager=True)
    make = {
        "vertices": lambda: _tag(vertices, "dataframe"),
        "edges": lambda: _tag(edges, "dataframe"),
        "degrees": lambda: degrees(spark, vertices, edges, engine=engine),
        "vertex_latency": lambda: vertex_latency(spark, vertices, edges, engine=engine),
        "hop_latency": lambda: hop_latency(spark, vertices, edges, engine=engine),
        "busiest_channels": lambda: busiest_channels(spark, vertices, edges, top=None,
                                                     engine=engine),
        "where_routes_die": lambda: where_routes_die(spark, routes, engine=engine),
        "pagerank": lambda: pagerank(spark, vertices, edges, engine=engine),
        "connected_components": lambda: connected_components(spark, vertices, edges,
                                                             engine=engine),
        "strongly_connected_components": lambda: scc,
        "loops": lambda: loops(spark, vertices, edges, components=scc),
        "two_cycles": lambda: two_cycles(spark, vertices, edges, engine=engine),
        "depth": lambda: depth(spark, vertices, edges, engine=engine),
        "label_propagation": lambda: label_propagation(spark, vertices, edges, engine=engine),
    }
    ran = {}
    for name in TABLES:
        df = make[name]()
        df.write.mode("overwrite").parquet(f"{out.rstrip('/')}/graph/{name}")
        ran[name] = engine_for(spark, name, engine) if name in NATIVE else "dataframe"
        if progress is not None:
            progress(f"graph/{name} written ({ran[name]})")
    return ran
