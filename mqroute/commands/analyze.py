"""`mqroute analyze`: every route in a whole network's activity data, on Spark, as Parquet."""

from __future__ import annotations

import argparse
import sys

from mqroute.graphopts import add_graph_engine_options, start_session
from mqroute.otlp import add_otlp_options
from mqroute.paths import input_path, output_folder


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute analyze` (the job's own options, shared with spark-submit, plus
    the graph analytics and OpenTelemetry export)."""
    from graph.pipeline.job import add_arguments

    p = sub.add_parser("analyze", help="reconstruct every route in a network's activity data "
                                       "with Spark, written as Parquet")
    add_arguments(p, input_type=input_path, output_type=output_folder)
    p.add_argument("--graph", action="store_true",
                   help="also run the graph analytics of the observed network and write "
                        "them under OUT/graph/ (degrees, latency, PageRank, islands, loops, "
                        "depth, communities ...)")
    add_graph_engine_options(p)
    add_otlp_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the analyze job; then the analytics (--graph) and the traces (--otlp)."""
    from pyspark.sql import SparkSession

    from graph.pipeline.job import run_args

    start_session(args, "mqroute analyze", always=False)
    status = run_args(args)  # gets the session started above, if any
    if status == 2 or not (args.graph or args.otlp or args.otlp_endpoint):
        return status
    spark = SparkSession.getActiveSession() or start_session(args, "mqroute analyze")
    try:
        if args.graph:
            from graph.analytics import write_analytics
            from graph.engines import choose_engine

            engine = choose_engine(spark, args.engine)
            print(f"graph analytics on {engine}", file=sys.stderr, flush=True)
            write_analytics(spark, args.out, engine=engine,
                            progress=lambda s: print(s, file=sys.stderr, flush=True))
        if args.otlp or args.otlp_endpoint:
            from mqroute.otlp import export_tables

            spans = export_tables(args, spark)
            print(f"{spans} spans exported as OpenTelemetry traces", file=sys.stderr)
    except (OSError, ValueError, RuntimeError) as e:
        print(f"mqroute: {e}", file=sys.stderr)
        return 2
    return status
