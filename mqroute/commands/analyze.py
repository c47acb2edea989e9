"""`mqroute analyze`: every route in a whole network's activity data, on Spark, as Parquet."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute analyze` (the options are the job's own, shared with spark-submit)."""
    from graph.pipeline.job import add_arguments

    p = sub.add_parser("analyze", help="reconstruct every route in a network's activity data "
                                       "with Spark, written as Parquet")
    add_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the analyze job."""
    from graph.pipeline.job import run_args

    return run_args(args)
