"""Analytics of the observed network: who is busy, what is central, islands, loops, paths,
where routes die, how long hops take, communities.

Every analytic is `f(spark, vertices, edges, ..., engine=None) -> DataFrame` on the tables of
`graph.network.observed_graph` (`where_routes_die` reads the routes table), and every
result has an `engine` column saying what computed it. `engine=None` takes the best engine
available (`graph.engines.choose_engine`); an engine that does not implement an analytic
hands it to the DataFrame implementation, and the column says so:

    analytic                         graphframes          graphx                 dataframe
    degrees, busiest_channels,       -                    -                      aggregations
      hop_latency, where_routes_die
    pagerank                         pageRank             lib.PageRank           iterative joins
    connected_components             connectedComponents  lib.ConnectedComponents min-label
    strongly_connected_components,   stronglyConnected-   lib.StronglyConnected- trim + fwd/bwd
      loops                            Components           Components             min-labels
    two_cycles                       find (motif)         -                      self-join
    shortest_paths                   shortestPaths        lib.ShortestPaths      BFS joins
    reachability                     bfs                  -                      BFS joins
    label_propagation                labelPropagation     lib.LabelPropagation   iterative joins

Graph algorithms see the simple directed graph: one edge per (src, dst) pair, whatever its
kinds and channels. Component, SCC and community labels are the smallest member id, so
the engines' answers can be compared directly. Iterative DataFrame loops are bounded and
localCheckpoint their state every iteration, so plans stay small.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from graph.engines import GraphXGraph, choose_engine

log = logging.getLogger(__name__)

#: Verdicts of routes that got where they should (a trace-route with Deliver=NO is discarded
#: at its target: that is its normal end).
OK_VERDICTS: tuple[str, ...] = ("delivered", "discarded_at_target")
#: Which engines implement which analytic natively (others run the DataFrame version).
NATIVE: dict[str, tuple[str, ...]] = {
    "degrees": (), "busiest_channels": (), "hop_latency": (), "where_routes_die": (),
    "pagerank": ("graphframes", "graphx"),
    "connected_components": ("graphframes", "graphx"),
    "strongly_connected_components": ("graphframes", "graphx"),
    "loops": ("graphframes", "graphx"),
    "two_cycles": ("graphframes",),
    "shortest_paths": ("graphframes", "graphx"),
    "reachability": ("graphframes",),
    "label_propagation": ("graphframes", "graphx"),
}


# --- helpers -------------------------------------------------------------------------------

def engine_for(spark, analytic: str, engine: str | None = None) -> str:
    """The engine that will run `analytic`: the chosen one if it implements it, else
    'dataframe' (an explicitly requested engine that cannot run raises EngineUnavailable)."""
    chosen = choose_engine(spark, engine)
    return chosen if chosen in NATIVE[analytic] else "dataframe"


def _tag(df, engine: str):
    from pyspark.sql import functions as F

    return df.withColumn("engine", F.lit(engine))


def _cp(df):
    """Materialize and cut the lineage (iterative loops)."""
    return df.localCheckpoint(eager=True)


def _ids(vertices, edges):
    """Every vertex id: the vertex table's and any edge end it lacks."""
    from pyspark.sql import functions as F

    return (vertices.select("id")
            .unionByName(edges.select(F.col("src").alias("id")))
            .unionByName(edges.select(F.col("dst").alias("id")))
            .distinct())


def _pairs(edges, weighted: bool = False):
    """The simple directed graph: (src, dst, w) per distinct pair, w = messages or 1."""
    from pyspark.sql import functions as F

    w = F.sum(F.coalesce(F.col("messages"), F.lit(0))).cast("double") if weighted \
        else F.lit(1.0)
    return edges.groupBy("src", "dst").agg(w.alias("w"))


def _min_member(df, label: str, out: str):
    """(id, out): relabel each group of `label` by the smallest id in it."""
    from pyspark.sql import functions as F

    mins = df.groupBy(label).agg(F.min("id").alias(out))
    return df.join(mins, label).select("id", out)


def _graphframe(vertices, edges):
    from graphframes import GraphFrame

    return GraphFrame(vertices, edges)


def _ranked(df, order: list, top: int | None):
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    if top is not None:
        df = df.orderBy(*order).limit(top)
    ranked = df.withColumn("rank", F.row_number().over(Window.orderBy(*order)))
    return ranked.select("rank", *(c for c in df.columns)).orderBy("rank")


# --- aggregations (every engine: DataFrame operations) -------------------------------------

def degrees(spark, vertices, edges, *, engine: str | None = None):
    """Per vertex: in/out/total degree (edges) and messages in/out/total (weighted degree)."""
    from pyspark.sql import functions as F

    ran = engine_for(spark, "degrees", engine)
    out = edges.groupBy(F.col("src").alias("id")).agg(
        F.count(F.lit(1)).alias("out_degree"), F.sum("messages").alias("out_messages"))
    inn = edges.groupBy(F.col("dst").alias("id")).agg(
        F.count(F.lit(1)).alias("in_degree"), F.sum("messages").alias("in_messages"))
    base = vertices.select("id", "kind", "queue_manager")
    df = base.join(inn, "id", "left").join(out, "id", "left")
    zero = {"in_degree": 0, "out_degree": 0, "in_messages": 0, "out_messages": 0}
    df = df.fillna(zero).select(
        "id", "kind", "queue_manager", "in_degree", "out_degree",
        (F.col("in_degree") + F.col("out_degree")).alias("degree"),
        "in_messages", "out_messages",
        (F.col("in_messages") + F.col("out_messages")).alias("messages"))
    return _tag(df, ran)


def busiest_channels(spark, vertices, edges, *, top: int | None = 20,
                     engine: str | None = None):
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


def hop_latency(spark, vertices, edges, *, top: int | None = None,
                engine: str | None = None):
    """Per edge with timed hops: samples and min/avg/max/p50 seconds, slowest p50 first."""
    from pyspark.sql import functions as F

    ran = engine_for(spark, "hop_latency", engine)
    df = edges.filter(F.col("latency_samples") > 0).select(
        "src", "dst", "kind", "channel", "messages", "latency_samples", "latency_min",
        "latency_avg", "latency_max", "latency_p50")
    order = [F.desc("latency_p50"), F.desc("latency_max"), F.asc("src"), F.asc("dst"),
             F.asc("kind"), F.asc_nulls_first("channel")]
    return _tag(_ranked(df, order, top), ran)


def where_routes_die(spark, routes, *, ok_verdicts: Sequence[str] = OK_VERDICTS,
                     top: int | None = None, engine: str | None = None):
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

def pagerank(spark, vertices, edges, *, reset_probability: float = 0.15, max_iter: int = 20,
             tol: float | None = None, weighted: bool = False, engine: str | None = None):
    """(id, pagerank, engine), ranks summing to 1.

    dataframe: networkx's formulation (power iteration from 1/N; a dangling vertex's rank is
    spread over all vertices; teleport uniform), `max_iter` iterations, or until the L1
    change is below N*tol like nx.pagerank; `weighted` weighs edges by messages.
    graphx/graphframes: GraphX's PageRank (ranks start at 1, r = reset + (1-reset)*sum,
    dangling rank is dropped each iteration, the result rescaled), divided by N here; its
    values differ from networkx's wherever there are sinks (every queue is one), rankings
    mostly agree. GraphX's PageRank is unweighted, so `weighted=True` runs the DataFrame one.
    """
    native = () if weighted else None
    ran = "dataframe" if native == () else engine_for(spark, "pagerank", engine)
    if weighted and engine is not None:
        choose_engine(spark, engine)  # still reject an unavailable explicit engine
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


def _normalized(df, column: str):
    from pyspark.sql import functions as F

    total = df.agg(F.sum(column).alias("_total"))
    return df.crossJoin(F.broadcast(total)).select(
        "id", (F.col(column) / F.col("_total")).alias(column))


def _pagerank_dataframe(vertices, edges, alpha: float, max_iter: int, tol: float | None,
                        weighted: bool):
    from pyspark.sql import functions as F

    ids = _cp(_ids(vertices, edges))
    n = ids.count()
    pairs = _pairs(edges, weighted)
    out_w = pairs.groupBy("src").agg(F.sum("w").alias("w_out"))
    share = _cp(pairs.join(out_w, "src").filter(F.col("w_out") > 0).select(
        "src", "dst", (F.col("w") / F.col("w_out")).alias("share")))
    if n == 0:
        return ids.select("id", F.lit(0.0).alias("rank"))
    has_out = share.select(F.col("src").alias("id")).distinct().withColumn("d", F.lit(False))
    ranks = _cp(ids.join(has_out, "id", "left").select(
        "id", F.coalesce("d", F.lit(True)).alias("dangling"), F.lit(1.0 / n).alias("rank")))
    for _ in range(max_iter):
        contrib = ranks.join(share, ranks["id"] == share["src"]).groupBy(
            F.col("dst").alias("id")).agg(F.sum(F.col("rank") * F.col("share")).alias("c"))
        dangling = ranks.filter("dangling").agg(
            F.coalesce(F.sum("rank"), F.lit(0.0)).alias("dsum"))
        new = (ranks.withColumnRenamed("rank", "old").join(contrib, "id", "left")
               .crossJoin(F.broadcast(dangling))
               .select("id", "dangling", "old",
                       (F.lit(alpha) * (F.coalesce("c", F.lit(0.0)) + F.col("dsum") / n)
                        + F.lit((1.0 - alpha) / n)).alias("rank")))
        new = _cp(new)
        ranks = new.drop("old")
        if tol is not None:
            err = new.agg(F.sum(F.abs(F.col("rank") - F.col("old")))).first()[0]
            if err < n * tol:
                break
    return ranks.select("id", "rank")


# --- components ----------------------------------------------------------------------------

def connected_components(spark, vertices, edges, *, max_iter: int = 100,
                         engine: str | None = None):
    """(id, component, engine): islands (weakly connected), component = smallest id in it."""
    ran = engine_for(spark, "connected_components", engine)
    if ran == "graphx":
        with GraphXGraph(spark, vertices, edges) as gx:
            df = _min_member(gx.connected_components(), "label", "component")
    elif ran == "graphframes":
        g = _graphframe(_ids(vertices, edges), _pairs(edges).select("src", "dst"))
        cc = g.connectedComponents(use_local_checkpoints=True)
        df = _min_member(cc.select("id", cc["component"].alias("label")), "label", "component")
    else:
        df = _components_dataframe(vertices, edges, max_iter)
    return _tag(df, ran)


def _components_dataframe(vertices, edges, max_iter: int):
    from pyspark.sql import functions as F

    pairs = edges.select("src", "dst")
    both = _cp(pairs.select(F.col("src").alias("a"), F.col("dst").alias("b"))
               .unionByName(pairs.select(F.col("dst").alias("a"), F.col("src").alias("b")))
               .filter(F.col("a") != F.col("b")).distinct())
    labels = _cp(_ids(vertices, edges).select("id", F.col("id").alias("label")))
    for n in range(max_iter):
        best = both.join(labels, both["b"] == labels["id"]).groupBy(
            F.col("a").alias("id")).agg(F.min("label").alias("m"))
        new = _cp(labels.join(best, "id", "left").select(
            "id", F.least("label", F.coalesce("m", "label")).alias("label"),
            (F.col("m") < F.col("label")).alias("changed")))
        labels = new.drop("changed")
        if new.filter("changed").isEmpty():
            break
        if n == max_iter - 1:
            log.warning("connected components: not stable after %d iterations", max_iter)
    return labels.select("id", F.col("label").alias("component"))


def strongly_connected_components(spark, vertices, edges, *, max_iter: int = 100,
                                  engine: str | None = None):
    """(id, component, engine): SCCs, component = smallest id in it (singletons included).

    dataframe: rounds of (1) trimming vertices without in- or out-edges among the remaining
    ones (singleton SCCs) and (2) propagating, until stable, fwd = min id of the vertices
    that reach v and bwd = min id of those v reaches; fwd == bwd == u puts v in u's SCC
    (u = its smallest member), and each round settles at least the SCC of the smallest
    remaining id. `max_iter` bounds the rounds and each propagation; a vertex left
    unsettled then gets component null (and a warning is logged).
    """
    df, ran = _scc(spark, vertices, edges, max_iter, engine)
    return _tag(df, ran)


def _scc(spark, vertices, edges, max_iter: int, engine: str | None):
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


def _scc_dataframe(vertices, edges, max_iter: int):
    from pyspark.sql import functions as F

    remaining = _cp(_ids(vertices, edges))
    arcs = _cp(edges.select("src", "dst").filter(F.col("src") != F.col("dst")).distinct())
    settled = []
    for _ in range(max_iter):
        if remaining.isEmpty():
            break
        arcs = _cp(arcs.join(remaining.select(F.col("id").alias("src")), "src", "left_semi")
                   .join(remaining.select(F.col("id").alias("dst")), "dst", "left_semi"))
        # (1) trim: no in-edge or no out-edge left -> its own SCC
        has_in = arcs.select(F.col("dst").alias("id")).distinct()
        has_out = arcs.select(F.col("src").alias("id")).distinct()
        core = _cp(remaining.join(has_in, "id", "left_semi").join(has_out, "id", "left_semi"))
        trimmed = remaining.join(core, "id", "left_anti")
        settled.append(_cp(trimmed.select("id", F.col("id").alias("component"))))
        if core.isEmpty():
            remaining = core
            break
        arcs = _cp(arcs.join(core.select(F.col("id").alias("src")), "src", "left_semi")
                   .join(core.select(F.col("id").alias("dst")), "dst", "left_semi"))
        # (2) forward and backward min-label propagation on what is left
        lab = _cp(core.select("id", F.col("id").alias("f"), F.col("id").alias("b")))
        for _ in range(max_iter):
            fwd = arcs.join(lab.select(F.col("id").alias("src"), "f"), "src").groupBy(
                F.col("dst").alias("id")).agg(F.min("f").alias("mf"))
            bwd = arcs.join(lab.select(F.col("id").alias("dst"), "b"), "dst").groupBy(
                F.col("src").alias("id")).agg(F.min("b").alias("mb"))
            new = _cp(lab.join(fwd, "id", "left").join(bwd, "id", "left").select(
                "id", F.least("f", F.coalesce("mf", "f")).alias("f"),
                F.least("b", F.coalesce("mb", "b")).alias("b"),
                ((F.col("mf") < F.col("f")) | (F.col("mb") < F.col("b"))).alias("changed")))
            lab = new.drop("changed")
            if new.filter("changed").isEmpty():
                break
        found = _cp(lab.filter(F.col("f") == F.col("b")).select(
            "id", F.col("f").alias("component")))
        settled.append(found)
        remaining = _cp(core.join(found, "id", "left_anti"))
    else:
        if not remaining.isEmpty():
            log.warning("strongly connected components: unsettled after %d rounds", max_iter)
    if not remaining.isEmpty():
        settled.append(remaining.select("id", F.lit(None).cast("string").alias("component")))
    df = settled[0]
    for part in settled[1:]:
        df = df.unionByName(part)
    return df


def two_cycles(spark, vertices, edges, *, engine: str | None = None):
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


def loops(spark, vertices, edges, *, max_iter: int = 100, engine: str | None = None):
    """(component, size, members, engine): every strongly connected set of more than one
    vertex, i.e. the loops messages can go round (2-cycles and longer)."""
    from pyspark.sql import functions as F

    scc, ran = _scc(spark, vertices, edges, max_iter, engine)
    df = (scc.filter(F.col("component").isNotNull()).groupBy("component")
          .agg(F.count(F.lit(1)).alias("size"), F.array_sort(F.collect_list("id"))
               .alias("members"))
          .filter(F.col("size") > 1))
    return _tag(df, ran)


# --- paths ---------------------------------------------------------------------------------

def shortest_paths(spark, vertices, edges, landmarks: Sequence[str], *,
                   direction: str = "from", max_hops: int = 100, engine: str | None = None):
    """(id, landmark, distance, engine): hop counts from each landmark to every vertex it
    reaches (direction='from'), or from every vertex to each landmark ('to').

    Only reachable pairs are rows (a landmark is 0 hops from itself); distances over
    `max_hops` are left out on every engine (the DataFrame BFS stops there).
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


def _bfs_dataframe(spark, vertices, edges, landmarks: list[str], direction: str,
                   max_hops: int):
    from pyspark.sql import functions as F

    ids = _ids(vertices, edges)
    s, d = ("src", "dst") if direction == "from" else ("dst", "src")
    arcs = _cp(edges.select(F.col(s).alias("a"), F.col(d).alias("b")).distinct())
    start = spark.createDataFrame([(x,) for x in landmarks], "id string")
    known = _cp(start.join(ids, "id", "left_semi").select(
        "id", F.col("id").alias("landmark"), F.lit(0).alias("distance")))
    frontier = known
    for hop in range(1, max_hops + 1):
        step = frontier.join(arcs, frontier["id"] == arcs["a"]).select(
            F.col("b").alias("id"), "landmark").distinct()
        step = _cp(step.join(known, ["id", "landmark"], "left_anti")
                   .withColumn("distance", F.lit(hop)))
        if step.isEmpty():
            break
        known = known.unionByName(step)
        if hop % 8 == 0:
            known = _cp(known)
        frontier = step
    return known


def reachability(spark, vertices, edges, source: str, target: str, *, max_hops: int = 32,
                 engine: str | None = None):
    """One row (source, target, reachable, hops, path, engine): can a message at `source`
    (a queue manager) get to `target` (e.g. 'QM2/TARGET.Q'), and a shortest way there.

    dataframe: BFS from the source by iterative joins, at most `max_hops` levels, keeping
    one path per vertex (the lexicographically smallest of its shortest paths); graphframes:
    bfs(), the smallest of its shortest paths.
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


def _bfs_path_dataframe(spark, vertices, edges, source: str, target: str, max_hops: int):
    from pyspark.sql import functions as F

    ids = _ids(vertices, edges)
    if ids.filter(F.col("id") == source).isEmpty():
        return None, None
    if source == target:
        return 0, [source]
    arcs = _cp(edges.select(F.col("src").alias("a"), F.col("dst").alias("b")).distinct())
    seen = _cp(spark.createDataFrame([(source, [source])], "id string, path array<string>"))
    frontier = seen
    for hop in range(1, max_hops + 1):
        step = frontier.join(arcs, frontier["id"] == arcs["a"]).select(
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
        if hop % 8 == 0:
            seen = _cp(seen)
        frontier = step
    return None, None


def _quote(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _bfs_graphframes(vertices, edges, source: str, target: str, max_hops: int):
    from pyspark.sql import functions as F

    if source == target:
        exists = not _ids(vertices, edges).filter(F.col("id") == source).isEmpty()
        return (0, [source]) if exists else (None, None)
    g = _graphframe(_ids(vertices, edges), _pairs(edges).select("src", "dst"))
    found = g.bfs(fromExpr=f"id = {_quote(source)}", toExpr=f"id = {_quote(target)}",
                  maxPathLength=max_hops)
    middle = sorted((c for c in found.columns if re.fullmatch(r"v\d+", c)),
                    key=lambda c: int(c[1:]))
    cols = [F.col("from.id"), *(F.col(f"{c}.id") for c in middle), F.col("to.id")]
    row = found.select(F.array(*cols).alias("path")).agg(F.min("path")).first()
    if row is None or row[0] is None:
        return None, None
    return len(row[0]) - 1, list(row[0])


# --- communities ---------------------------------------------------------------------------

def label_propagation(spark, vertices, edges, *, max_steps: int = 5,
                      engine: str | None = None):
    """(id, community, engine): synchronous label propagation over the undirected pairs
    (GraphX's LPA: each step a vertex takes the label most of its neighbours have; the
    DataFrame version breaks ties by the smallest label, GraphX by whichever comes first),
    `max_steps` steps; community = the smallest id among the vertices sharing a label."""
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


def _lpa_dataframe(vertices, edges, max_steps: int):
    from pyspark.sql import functions as F

    pairs = edges.select("src", "dst").distinct()
    # one message per directed pair and direction, as GraphX's LPA sends them
    hears = _cp(pairs.filter(F.col("src") != F.col("dst")).select(
        F.col("dst").alias("node"), F.col("src").alias("from")).unionAll(
        pairs.filter(F.col("src") != F.col("dst")).select(
            F.col("src").alias("node"), F.col("dst").alias("from"))))
    labels = _cp(_ids(vertices, edges).select("id", F.col("id").alias("label")))
    for _ in range(max_steps):
        counts = hears.join(labels, hears["from"] == labels["id"]).groupBy(
            "node", "label").agg(F.count(F.lit(1)).alias("n"))
        best = counts.groupBy(F.col("node").alias("id")).agg(
            F.min(F.struct((-F.col("n")).alias("neg"), F.col("label").alias("l")))
            .alias("best"))
        labels = _cp(labels.join(best, "id", "left").select(
            "id", F.coalesce(F.col("best.l"), F.col("label")).alias("label")))
    return labels
