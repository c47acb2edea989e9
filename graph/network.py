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
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

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
