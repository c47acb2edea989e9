"""Command-line options for the graph engine (`--engine`, `--graphframes-jar`), shared by
`analyze` and `audit`, and starting Spark with them."""

from __future__ import annotations

import argparse
import contextlib


def add_graph_engine_options(p: argparse.ArgumentParser) -> None:
    """--engine and --graphframes-jar (shared by analyze and audit)."""
    from graph.engines import ENGINES, GRAPHFRAMES_JAR_ENV
    from mqroute.paths import input_path

    p.add_argument("--engine", choices=ENGINES,
                   help="graph engine for the analytics (default: the best available: "
                        "GraphFrames when its jar is loaded, else GraphX, else DataFrames)")
    p.add_argument("--graphframes-jar", metavar="PATH", action="append", type=input_path,
                   help="GraphFrames jar(s) to load into Spark (default: "
                        f"${GRAPHFRAMES_JAR_ENV}; Spark's own spark.jars / "
                        "spark.jars.packages settings work too)")


def add_spark_log_options(p: argparse.ArgumentParser) -> None:
    """--verbose and --spark-log: Spark's own chatter, hidden unless asked for."""
    from graph.pipeline.session import LOG_LEVELS

    p.add_argument("--verbose", action="store_true",
                   help="show Spark's console progress bars and its warnings (log4j WARN)")
    p.add_argument("--spark-log", metavar="LEVEL", type=str.lower, choices=LOG_LEVELS,
                   help="Spark's (log4j) log level on stderr: off (default), error, warn, "
                        "info, debug ...")


def start_session(args: argparse.Namespace, app_name: str, *, always: bool = True):
    """The SparkSession, started with the GraphFrames jar(s) the options or environment name
    (they must be on spark.jars before the JVM starts) and quiet (Spark's log at
    --spark-log, or off; its console progress only with --verbose); None when there are no
    jars and not `always` (the job then starts its own)."""
    from graph.engines import graphframes_config
    from graph.pipeline.session import quiet_config, spark_session

    config = graphframes_config(args.graphframes_jar)  # FileNotFoundError: exit 2, one line
    if not always and "spark.jars" not in config:
        return None
    verbose = getattr(args, "verbose", False)
    chosen = getattr(args, "spark_log", None)
    level = chosen or ("warn" if verbose else "off")
    config = {**quiet_config(level, console_progress=verbose), **config}
    master = getattr(args, "master", None)
    with jvm_output(None if verbose or chosen else spark_log_path()):
        spark = spark_session(master, app_name=app_name, config=config)
    spark.sparkContext.setLogLevel(level.upper())
    return spark


def spark_log_path() -> str:
    """Where the JVM's own output goes when Spark is quiet (one file per process)."""
    import os
    import tempfile

    return os.path.join(tempfile.gettempdir(), f"mqroute-spark-{os.getpid()}.log")


@contextlib.contextmanager
def jvm_output(path: str | None):
    """While Spark's JVM starts, the process's stderr (file descriptor 2, which the JVM
    inherits and keeps) goes to `path`: the JVM's own warnings ("Using incubator modules")
    land there, not on the terminal. None: left alone (--verbose, --spark-log)."""
    import os
    import sys

    if path is None:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(path, "ab") as log:
            os.dup2(log.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
