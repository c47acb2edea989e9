"""The observed network as a graph: vertex and edge DataFrames in GraphFrames' shape.

Built from the pipeline's `hops/` (and optionally `routes/`) tables with DataFrame
aggregations only, so it scales with the cluster and nothing unbounded reaches the driver.

    vertices  id (queue manager name, or QM/QUEUE for a queue), kind ('queue_manager' |
              'queue'), queue_manager
    edges     src, dst, kind ('send' over a channel, 'put' to a queue, 'discard'), channel,
              messages (hops), latency_samples, latency_min/avg/max/p50 (seconds)

An edge's latency is the time from one of its hops to the route's next hop (same message and
branch, next `seq`): for a send, the transit over the channel to the next operation at the
receiving queue manager; for a put to a transmission queue, the wait before the channel took
the message. Only hops with both times count, never across a gap; a route's last hop has none.
Gaps and hops to or from an unknown queue manager ('?') are not edges.

`configured_graph` is the other side: what the MQSC defines (queue managers, channel ends,
remote definitions, transmission queues) as a graph in the same shape, for the audit's
patterns (`graph.analytics.configuration_patterns`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from traceroute.sim.network import Network

#: Columns of the vertex table, with their Spark SQL types.
VERTEX_COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "string"), ("kind", "string"), ("queue_manager", "string"))
#: Columns of the edge table, with their Spark SQL types.
EDGE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("src", "string"), ("dst", "string"), ("kind", "string"), ("channel", "string"),
    ("messages", "long"), ("latency_samples", "long"), ("latency_min", "double"),
    ("latency_avg", "double"), ("latency_max", "double"), ("latency_p50", "double"))
EDGE_KINDS = ("send", "put", "discard")
UNKNOWN = "?"
#: The hop `time` format ('YYYY-MM-DD HH:MM:SS'), as a Spark datetime pattern.
TIME_PATTERN = "yyyy-MM-dd HH:mm:ss"
#: percentile_approx accuracy for latency_p50 (memory per edge grows with it).
P50_ACCURACY = 10_000


def ddl(columns: tuple[tuple[str, str], ...]) -> str:
    """A DDL schema string for `spark.createDataFrame`."""
    return ", ".join(f"`{name}` {kind}" for name, kind in columns)


def hop_latencies(hops: DataFrame) -> DataFrame:
    """Hops that are edges, each with `latency` (seconds to the route's next hop, or null)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    seconds = F.unix_timestamp(F.try_to_timestamp(F.col("time"), F.lit(TIME_PATTERN)))
    order = Window.partitionBy("correl_id", "branch").orderBy("seq")
    timed = hops.select("correl_id", "branch", "seq", "kind", "src", "dst", "channel",
                        seconds.alias("t"))
    timed = timed.select("*", F.lead("t").over(order).alias("next_t"),
                         F.lead("kind").over(order).alias("next_kind"))
    latency = F.when((F.col("next_kind") != "gap") & F.col("t").isNotNull()
                     & F.col("next_t").isNotNull(),
                     (F.col("next_t") - F.col("t")).cast("double"))
    known = (F.col("kind").isin(*EDGE_KINDS) & F.col("src").isNotNull()
             & F.col("dst").isNotNull() & (F.col("src") != UNKNOWN)
             & (F.col("dst") != UNKNOWN))
    return timed.filter(known).select("src", "dst", "kind", "channel", latency.alias("latency"))


def observed_graph(hops_df: DataFrame, routes_df: DataFrame | None = None
                   ) -> tuple[DataFrame, DataFrame]:
    """(vertices, edges) of the network the hops show (plus queue managers routes name)."""
    from pyspark.sql import functions as F

    lat = F.col("latency")
    edges = hop_latencies(hops_df).groupBy("src", "dst", "kind", "channel").agg(
        F.count(F.lit(1)).alias("messages"), F.count(lat).alias("latency_samples"),
        F.min(lat).alias("latency_min"), F.avg(lat).alias("latency_avg"),
        F.max(lat).alias("latency_max"),
        F.percentile_approx(lat, 0.5, P50_ACCURACY).cast("double").alias("latency_p50"))
    qm, queue = F.lit("queue_manager"), F.lit("queue")
    ends = edges.select("src", "dst", "kind").distinct()
    parts = [
        ends.select(F.col("src").alias("id"), qm.alias("kind"), F.col("src").alias("qm")),
        ends.filter(F.col("kind") == "send").select(F.col("dst").alias("id"), qm.alias("kind"),
                                                    F.col("dst").alias("qm")),
        ends.filter(F.col("kind") != "send").select(F.col("dst").alias("id"),
                                                    queue.alias("kind"),
                                                    F.col("src").alias("qm")),
    ]
    if routes_df is not None:
        for column in ("last_queue_manager", "next_queue_manager"):
            name = F.col(column)
            parts.append(routes_df.filter(name.isNotNull() & (name != "") & (name != UNKNOWN))
                         .select(name.alias("id"), qm.alias("kind"), name.alias("qm")))
    found = parts[0]
    for part in parts[1:]:
        found = found.unionByName(part)
    # an id seen both ways is a queue manager ('queue_manager' > 'queue')
    vertices = found.groupBy("id").agg(F.max(F.struct("kind", "qm")).alias("k")).select(
        "id", F.col("k.kind").alias("kind"), F.col("k.qm").alias("queue_manager"))
    return vertices, edges.select(*(name for name, _ in EDGE_COLUMNS))


def queue_manager_graph(vertices: DataFrame, edges: DataFrame) -> tuple[DataFrame, DataFrame]:
    """Only queue managers and the channels between them (send edges)."""
    from pyspark.sql import functions as F

    return (vertices.filter(F.col("kind") == "queue_manager"),
            edges.filter(F.col("kind") == "send"))


def read_observed_graph(spark: SparkSession, out: str) -> tuple[DataFrame, DataFrame]:
    """(vertices, edges) from the `hops/` and `routes/` tables under mqroute analyze's --out."""
    hops = spark.read.parquet(os.path.join(out, "hops"))
    routes = spark.read.parquet(os.path.join(out, "routes"))
    return observed_graph(hops, routes)


# --- the configured network ----------------------------------------------------------------

#: Columns of the configured graph's vertex table (`configured_graph`).
CONFIG_VERTEX_COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "string"), ("kind", "string"), ("queue_manager", "string"), ("name", "string"))
#: Columns of the configured graph's edge table.
CONFIG_EDGE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("src", "string"), ("dst", "string"), ("kind", "string"), ("name", "string"),
    ("next", "string"))
SENDER_TYPES = ("SDR", "SVR")
RECEIVER_TYPES = ("RCVR", "RQSTR")


def configured_rows(network: Network) -> tuple[list[tuple], list[tuple]]:
    """(vertices, edges) of what the MQSC defines, as rows of the CONFIG_* columns (pure).

    Vertices: queue managers (id = name), channel ends ('QM:CHANNEL', kind 'sender',
    'receiver' or 'cluster_receiver'), remote definitions ('QM/NAME', 'remote_definition',
    queue-manager aliases included) and transmission queues ('QM/XMITQ', 'xmitq').
    Edges, each a fact of the configuration or of MQ's name resolution:

        defines    queue manager -> its channel ends and remote definitions
        partner    sender end -> every receiver end of the same channel name
        reaches    sender end -> the queue manager of each partner; cluster receiver end ->
                   its own queue manager
        served_by  transmission queue -> the sender ends whose XMITQ it is (a cluster
                   transmission queue: the destination's cluster receiver)
        resolves   remote definition -> the transmission queue a put to it is queued on
        forwards   queue manager -> the queue manager the channel takes it to, once per
                   remote definition (name), with `next` the name the message is looked up
                   by there (its queue-manager name unless that is the receiver's own, else
                   its queue name)
    """
    from traceroute.sim.resolve import (
        CLUSTER_XMITQ,
        receiving_end,
        resolve,
        sending_channel,
    )

    vertices: dict[str, tuple] = {}
    edges: set[tuple] = set()
    receivers: dict[str, list[str]] = {}
    for qm in network.qmgrs.values():
        vertices[qm.name] = (qm.name, "queue_manager", qm.name, qm.name)
        for ch in qm.channels.values():
            if ch.get("CHLTYPE") in RECEIVER_TYPES:
                receivers.setdefault(ch.name, []).append(qm.name)
    for qm in network.qmgrs.values():
        for ch in qm.channels.values():
            kind = ch.get("CHLTYPE")
            end = f"{qm.name}:{ch.name}"
            if kind in SENDER_TYPES:
                vertices[end] = (end, "sender", qm.name, ch.name)
                xq = f"{qm.name}/{ch.get('XMITQ')}"
                vertices.setdefault(xq, (xq, "xmitq", qm.name, ch.get("XMITQ")))
                edges.add((xq, end, "served_by", ch.name, None))
                for other in receivers.get(ch.name, []):
                    edges.add((end, f"{other}:{ch.name}", "partner", ch.name, None))
                    if other != qm.name:
                        edges.add((end, other, "reaches", ch.name, None))
            elif kind in RECEIVER_TYPES:
                vertices[end] = (end, "receiver", qm.name, ch.name)
            else:
                continue
            edges.add((qm.name, end, "defines", ch.name, None))
        for q in qm.queues.values():
            if q.kind != "QREMOTE":
                continue
            definition = f"{qm.name}/{q.name}"
            vertices[definition] = (definition, "remote_definition", qm.name, q.name)
            edges.add((qm.name, definition, "defines", q.name, None))
            qmgr_alias = not q.get("RNAME")
            queue, target = ("ANY.QUEUE", q.name) if qmgr_alias else (q.name, "")
            r = resolve(network, qm.name, queue, target)
            if not r.ok or r.local:
                continue
            xq = f"{qm.name}/{r.xmitq}"
            vertices.setdefault(xq, (xq, "xmitq", qm.name, r.xmitq))
            edges.add((definition, xq, "resolves", r.xmitq, r.remote_qmgr))
            channel = sending_channel(network, qm, r)
            if channel is None:
                continue
            if r.xmitq == CLUSTER_XMITQ and r.remote_qmgr in network.qmgrs:
                end = f"{r.remote_qmgr}:{channel.name}"
                vertices.setdefault(end, (end, "cluster_receiver", r.remote_qmgr,
                                          channel.name))
                edges.add((xq, end, "served_by", channel.name, None))
                edges.add((end, r.remote_qmgr, "reaches", channel.name, None))
            other = receiving_end(network, channel, qm, r.remote_qmgr)
            if other is not None:
                following = r.remote_qmgr if r.remote_qmgr != other.name else r.remote_q
                edges.add((qm.name, other.name, "forwards", q.name, following))
    return sorted(vertices.values()), sorted(edges, key=lambda e: tuple(x or "" for x in e))


def configured_graph(spark: SparkSession, network: Network) -> tuple[DataFrame, DataFrame]:
    """(vertices, edges) of the configured network (see `configured_rows`) as DataFrames."""
    vertices, edges = configured_rows(network)
    return (spark.createDataFrame(vertices, ddl(CONFIG_VERTEX_COLUMNS)),
            spark.createDataFrame(edges, ddl(CONFIG_EDGE_COLUMNS)))
