"""Command-line options for the graph engine (`--engine`, `--graphframes-jar`), shared by
`analyze` and `audit`, and starting Spark with them."""

from __future__ import annotations

import argparse


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


def start_session(args: argparse.Namespace, app_name: str, *, always: bool = True):
    """The SparkSession, started with the GraphFrames jar(s) the options or environment name
    (they must be on spark.jars before the JVM starts); None when there are none and not
    `always` (the job then starts its own)."""
    from graph.engines import graphframes_config
    from graph.pipeline.session import spark_session

    config = graphframes_config(args.graphframes_jar)  # FileNotFoundError: exit 2, one line
    if not always and "spark.jars" not in config:
        return None
    return spark_session(getattr(args, "master", None), app_name=app_name, config=config)
