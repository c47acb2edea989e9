"""Which graph engine runs the analytics: GraphFrames, GraphX through the JVM gateway, or
plain DataFrames.

    graphframes  the GraphFrames JVM package is on the driver's class path (spark.jars.packages
                 or spark.jars, see `configure_graphframes`) and the Python package imports
    graphx       classic PySpark (not Spark Connect) with the JVM gateway up: GraphX ships with
                 Spark, and `GraphXGraph` drives it through py4j
    dataframe    always: iterative DataFrame joins, the same code on classic and Connect

`choose_engine` picks the first available in that order, or checks the one asked for.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import tempfile
import uuid
from collections.abc import Iterable, Sequence
from importlib import metadata
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

#: The engines, in the order `choose_engine` prefers them.
ENGINES: tuple[str, ...] = ("graphframes", "graphx", "dataframe")
GRAPHFRAMES_CLASS = "org.graphframes.GraphFramePythonAPI"
GRAPHX_CLASSES = ("org.apache.spark.graphx.GraphLoader", "org.apache.spark.graphx.lib.PageRank$")
#: GraphFrames JVM release used when the graphframes-py version cannot be read.
GRAPHFRAMES_FALLBACK_VERSION = "0.12.1"
#: Environment variable naming local GraphFrames jar(s) (several: separated by commas or
#: the path separator), used when no jar is given on the command line.
GRAPHFRAMES_JAR_ENV = "MQROUTE_GRAPHFRAMES_JAR"


class EngineUnavailable(RuntimeError):
    """The engine asked for cannot run in this session."""


# --- detection -----------------------------------------------------------------------------

def is_classic(spark: SparkSession) -> bool:
    """True for a classic (py4j) SparkSession with a live JVM gateway, False on Spark Connect."""
    if type(spark).__module__.startswith("pyspark.sql.connect"):
        return False
    try:
        return spark._jvm is not None and spark.sparkContext._jsc is not None
    except Exception:
        return False


def _load_class(spark: SparkSession, name: str) -> bool:
    try:
        spark._jvm.Thread.currentThread().getContextClassLoader().loadClass(name)
        return True
    except Exception:
        return False


def graphframes_available(spark: SparkSession) -> bool:
    """True when the GraphFrames JVM package loads on the driver and graphframes imports."""
    if not is_classic(spark) or importlib.util.find_spec("graphframes") is None:
        return False
    return _load_class(spark, GRAPHFRAMES_CLASS)


def graphx_available(spark: SparkSession) -> bool:
    """True in classic mode with the JVM gateway reachable and GraphX's classes loadable."""
    if not is_classic(spark):
        return False
    return all(_load_class(spark, name) for name in GRAPHX_CLASSES)


def available_engines(spark: SparkSession) -> list[str]:
    """The engines that can run in this session, most preferred first."""
    checks = {"graphframes": graphframes_available, "graphx": graphx_available,
              "dataframe": lambda s: True}
    return [name for name in ENGINES if checks[name](spark)]


def choose_engine(spark: SparkSession, prefer: str | None = None) -> str:
    """'graphframes' | 'graphx' | 'dataframe': `prefer` if it can run (else raise), or the best."""
    if prefer is None:
        return available_engines(spark)[0]
    if prefer not in ENGINES:
        raise ValueError(f"unknown graph engine {prefer!r}: one of {', '.join(ENGINES)}")
    if prefer == "graphframes" and not graphframes_available(spark):
        raise EngineUnavailable(
            f"GraphFrames is not available: {GRAPHFRAMES_CLASS} does not load on the driver "
            f"(start the session with configure_graphframes(builder), i.e. spark.jars.packages="
            f"{graphframes_package()}, or spark.jars=<graphframes jar>), or the graphframes "
            "Python package is missing, or this is a Spark Connect session")
    if prefer == "graphx" and not graphx_available(spark):
        raise EngineUnavailable("GraphX needs a classic SparkSession with its JVM gateway "
                                "(not Spark Connect) and spark-graphx on the class path")
    return prefer


# --- GraphFrames packages ------------------------------------------------------------------

def graphframes_package(version: str | None = None, *, spark_version: str | None = None,
                        scala_version: str | None = None) -> str:
    """GraphFrames' Maven coordinate for a Spark and Scala version (default: this pyspark's).

    E.g. io.graphframes:graphframes-spark4_2.13:0.12.3; the version defaults to the installed
    graphframes-py release, which GraphFrames publishes together with its JVM package.
    """
    if spark_version is None:
        import pyspark

        spark_version = pyspark.__version__
    major = spark_version.split(".")[0]
    if scala_version is None:
        scala_version = "2.12" if major == "3" else "2.13"
    if version is None:
        try:
            version = metadata.version("graphframes-py")
        except metadata.PackageNotFoundError:
            version = GRAPHFRAMES_FALLBACK_VERSION
    return f"io.graphframes:graphframes-spark{major}_{scala_version}:{version}"


def _append(builder: Any, key: str, values: Iterable[str]) -> Any:
    options = getattr(builder, "_options", {})
    items = [v for v in (options.get(key) or "").split(",") if v]
    items += [v for v in values if v not in items]
    return builder.config(key, ",".join(items))


def configure_graphframes(builder: Any, *, package: str | None = None,
                          jar: str | Sequence[str] | None = None) -> Any:
    """Add GraphFrames to a SparkSession.Builder (spark.jars or spark.jars.packages).

    A local `jar` (or several) goes to spark.jars, else the Maven `package` (default
    `graphframes_package()`) to spark.jars.packages; returns the builder. Only a new JVM
    picks this up: call it before the first getOrCreate() of the process.
    GraphFrames 0.10+ also needs its graphframes-graphx jar; Maven resolves it, a local
    install has to list it in `jar` too.
    """
    if jar is not None:
        jars = [jar] if isinstance(jar, str) else list(jar)
        return _append(builder, "spark.jars", [os.path.abspath(j) if "://" not in j else j
                                               for j in jars])
    return _append(builder, "spark.jars.packages", [package or graphframes_package()])


def graphframes_jars(jar: str | Sequence[str] | None = None, *,
                     environ: dict[str, str] | None = None) -> list[str]:
    """The local GraphFrames jars to load: `jar` if given, else $MQROUTE_GRAPHFRAMES_JAR.

    Paths are made absolute (URLs such as hdfs://... are kept); a missing local file raises
    FileNotFoundError naming it, so a typo fails at once rather than as an engine that
    silently is not there.
    """
    if jar is None:
        value = (os.environ if environ is None else environ).get(GRAPHFRAMES_JAR_ENV, "")
        jars = [j for j in re.split(rf"[,{re.escape(os.pathsep)}]", value) if j.strip()]
    else:
        jars = [jar] if isinstance(jar, str) else list(jar)
    out = []
    for j in (j.strip() for j in jars):
        if "://" in j:
            out.append(j)
            continue
        path = os.path.abspath(os.path.expanduser(j))
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{j}: no such GraphFrames jar")
        out.append(path)
    return out


def graphframes_config(jar: str | Sequence[str] | None = None, *,
                       environ: dict[str, str] | None = None,
                       config: dict[str, str] | None = None) -> dict[str, str]:
    """Spark settings `config` plus the GraphFrames jars (see `graphframes_jars`) on spark.jars.

    With no jar given or in the environment, `config` comes back unchanged: Spark's own
    spark.jars / spark.jars.packages (spark-defaults.conf, --conf) still apply.
    """
    settings = dict(config or {})
    jars = graphframes_jars(jar, environ=environ)
    if jars:
        have = [j for j in settings.get("spark.jars", "").split(",") if j]
        settings["spark.jars"] = ",".join(have + [j for j in jars if j not in have])
    return settings


def shared_graphframes_jars(root: str | os.PathLike[str]) -> list[str]:
    """The GraphFrames jars in `root`/../shared/jars (this project's build area), sorted."""
    folder = os.path.join(os.path.abspath(root), os.pardir, "shared", "jars")
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.abspath(os.path.join(folder, name)) for name in os.listdir(folder)
                  if name.startswith("graphframes") and name.endswith(".jar"))


# --- GraphX through the JVM gateway --------------------------------------------------------

def _module(jvm: Any, name: str) -> Any:
    """A Scala object (the MODULE$ of class `name$`)."""
    return getattr(getattr(jvm, name + "$"), "MODULE$")


class GraphXGraph:
    """A GraphX Graph[AnyRef, Int] on the JVM, built from vertex and edge DataFrames.

    String vertex ids get long ids (a checkpointed monotonically_increasing_id table) and
    distinct (src, dst) pairs become the edges: both go to the JVM as Datasets of Scala
    tuples (Encoders.tuple), so no Python function runs on the executors. Vertex results
    come back the same way (createDataset with a tuple encoder); ShortestPaths' Map
    attributes have no Java-side encoder, so they go through saveAsTextFile to a temporary
    directory (the checkpoint directory if set, else a local one: local mode only).
    """

    def __init__(self, spark: SparkSession, vertices: DataFrame, edges: DataFrame, *,
                 reverse: bool = False) -> None:
        from pyspark.sql import functions as F

        self.spark = spark
        self.jvm = spark._jvm
        ids = (vertices.select("id").unionByName(edges.select(F.col("src").alias("id")))
               .unionByName(edges.select(F.col("dst").alias("id"))).distinct()
               .withColumn("vid", F.monotonically_increasing_id()))
        self.ids = ids.localCheckpoint(eager=True)
        s, d = ("dst", "src") if reverse else ("src", "dst")
        pairs = (edges.select(F.col(s).alias("a"), F.col(d).alias("b")).distinct()
                 .join(self.ids.select(F.col("id").alias("a"), F.col("vid").alias("s")), "a")
                 .join(self.ids.select(F.col("id").alias("b"), F.col("vid").alias("d")), "b")
                 .select("s", "d"))
        enc = self.jvm.org.apache.spark.sql.Encoders
        long_pair = enc.tuple(enc.scalaLong(), enc.scalaLong())
        ct = _module(self.jvm, "scala.reflect.ClassTag")
        level = self.jvm.org.apache.spark.storage.StorageLevel.MEMORY_AND_DISK()
        graph_obj = _module(self.jvm, "org.apache.spark.graphx.Graph")
        edge_rdd = getattr(pairs._jdf, "as")(long_pair).rdd()
        vertex_rdd = getattr(self.ids.select("vid", F.col("vid").alias("attr"))._jdf,
                             "as")(long_pair).rdd()
        shape = graph_obj.fromEdgeTuples(edge_rdd, None, _module(self.jvm, "scala.None"),
                                         level, level, ct.AnyRef())
        self.graph = graph_obj.apply(vertex_rdd, shape.edges(), None, level, level,
                                     ct.AnyRef(), ct.Int())
        self._ct = ct
        self._jgraphs = [shape, self.graph]

    def _lib(self, name: str) -> Any:
        return _module(self.jvm, f"org.apache.spark.graphx.lib.{name}")

    def _vertices(self, jgraph: Any, value: str, kind: str) -> DataFrame:
        """(id, value) of a result graph's Long or Double vertex attributes, checkpointed."""
        from pyspark.sql import DataFrame
        from pyspark.sql import functions as F

        self._jgraphs.append(jgraph)
        enc = self.jvm.org.apache.spark.sql.Encoders
        value_enc = enc.scalaDouble() if kind == "double" else enc.scalaLong()
        jds = self.spark._jsparkSession.createDataset(
            jgraph.vertices(), enc.tuple(enc.scalaLong(), value_enc))
        df = DataFrame(jds.toDF(), self.spark).select(F.col("_1").alias("vid"),
                                                      F.col("_2").alias(value))
        return df.join(self.ids, "vid").select("id", value).localCheckpoint(eager=True)

    def pagerank(self, num_iter: int, reset_prob: float, tol: float | None = None) -> DataFrame:
        """(id, rank): lib.PageRank.run (fixed iterations) or runUntilConvergence (tol)."""
        pr = self._lib("PageRank")
        if tol is None:
            result = pr.run(self.graph, num_iter, float(reset_prob), self._ct.AnyRef(),
                            self._ct.Int())
        else:
            result = pr.runUntilConvergence(self.graph, float(tol), float(reset_prob),
                                            self._ct.AnyRef(), self._ct.Int())
        return self._vertices(result, "rank", "double")

    def connected_components(self) -> DataFrame:
        """(id, label): lib.ConnectedComponents.run, label = the smallest long id."""
        result = self._lib("ConnectedComponents").run(self.graph, self._ct.AnyRef(),
                                                      self._ct.Int())
        return self._vertices(result, "label", "long")

    def strongly_connected_components(self, num_iter: int) -> DataFrame:
        """(id, label): lib.StronglyConnectedComponents.run with at most num_iter rounds."""
        result = self._lib("StronglyConnectedComponents").run(
            self.graph, int(num_iter), self._ct.AnyRef(), self._ct.Int())
        return self._vertices(result, "label", "long")

    def label_propagation(self, max_steps: int) -> DataFrame:
        """(id, label): lib.LabelPropagation.run for max_steps supersteps."""
        result = self._lib("LabelPropagation").run(self.graph, int(max_steps), self._ct.Int())
        return self._vertices(result, "label", "long")

    def long_ids(self, names: Sequence[str]) -> Any:
        """The JVM Seq[Long] of the long ids of these vertex names (those that exist)."""
        from pyspark.sql import functions as F

        names_df = self.ids.filter(F.col("id").isin(list(names))).select("vid")
        enc = self.jvm.org.apache.spark.sql.Encoders
        jlist = getattr(names_df._jdf, "as")(enc.scalaLong()).collectAsList()
        return self.jvm.scala.jdk.javaapi.CollectionConverters.asScala(jlist).toList()

    def shortest_paths(self, landmarks: Sequence[str]) -> DataFrame:
        """(id, landmark, distance): lib.ShortestPaths.run, hops from vertices to landmarks.

        Distances follow the edges from each vertex to each landmark; build the graph with
        reverse=True for landmark-to-vertex distances.
        """
        from pyspark.sql import functions as F

        seq = self.long_ids(landmarks)
        result = self._lib("ShortestPaths").run(self.graph, seq, self._ct.AnyRef())
        self._jgraphs.append(result)
        path = self._scratch()
        try:
            result.vertices().saveAsTextFile(path)
            # lines look like (12,Map(3 -> 2, 7 -> 0)) or (5,HashMap(...)) or (6,Map())
            text = self.spark.read.text(path)
            pattern = r"^\((-?\d+),[A-Za-z]*\((.*)\)\)$"
            entries = text.select(
                F.regexp_extract("value", pattern, 1).cast("long").alias("vid"),
                F.explode(F.split(F.regexp_extract("value", pattern, 2), ", ")).alias("kv"))
            pairs = entries.filter(F.col("kv") != "").select(
                "vid", F.split("kv", " -> ").getItem(0).cast("long").alias("lvid"),
                F.split("kv", " -> ").getItem(1).cast("int").alias("distance"))
            ids = self.ids
            out = (pairs.join(ids, "vid")
                   .join(ids.select(F.col("vid").alias("lvid"), F.col("id").alias("landmark")),
                         "lvid")
                   .select("id", "landmark", "distance"))
            return out.localCheckpoint(eager=True)
        finally:
            self._delete(path)

    def _scratch(self) -> str:
        jsc = self.spark.sparkContext._jsc.sc()
        checkpoint = jsc.getCheckpointDir()
        if checkpoint.isDefined():
            return f"{checkpoint.get()}/mqroute-graphx-{uuid.uuid4().hex}"
        if not jsc.isLocal():
            raise EngineUnavailable("GraphX shortest paths on a cluster need a shared scratch "
                                    "folder: set spark.sparkContext.setCheckpointDir(...)")
        return "file://" + os.path.join(tempfile.gettempdir(),
                                        f"mqroute-graphx-{uuid.uuid4().hex}")

    def _delete(self, path: str) -> None:
        jpath = self.jvm.org.apache.hadoop.fs.Path(path)
        conf = self.spark.sparkContext._jsc.hadoopConfiguration()
        with contextlib.suppress(Exception):  # best effort: a leftover scratch folder is harmless
            jpath.getFileSystem(conf).delete(jpath, True)

    def close(self) -> None:
        """Unpersist the JVM graphs (results are already checkpointed)."""
        for jgraph in self._jgraphs:
            with contextlib.suppress(Exception):
                jgraph.unpersist(False)
        self._jgraphs.clear()

    def __enter__(self) -> GraphXGraph:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
