"""`mqroute analyze`: every route in a whole network's data, as Parquet: on Spark, or in
one process when the input is small (fewer than `SMALL_INPUT` messages and no master)."""

from __future__ import annotations

import argparse
import socket
import sys

from mqroute.errors import FatalError, UsageError
from mqroute.extras import need
from mqroute.graphopts import add_graph_engine_options, add_spark_log_options, start_session
from mqroute.otlp import add_otlp_options, check_otlp
from mqroute.paths import address as address_arg
from mqroute.paths import input_path, output_folder

#: Seconds to wait for a standalone master to answer before giving up (each address).
MASTER_TIMEOUT = 10.0

#: The exit statuses, as --help and docs/commands/analyze.md say them.
EXIT_STATUS = ("0 everything read; 1 some input or message unreadable (the rest analysed, each "
               "one in rejects/); 2 usage or the job failed.")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute analyze` (the job's own options, shared with spark-submit, plus
    the engine choice, the graph analytics and OpenTelemetry export)."""
    from graph.pipeline.job import add_arguments
    from graph.pipeline.single import SMALL_INPUT

    p = sub.add_parser("analyze", help="reconstruct every route, journey, event and statistic "
                                       "of a network's data, written as Parquet (Spark, or "
                                       "one process for small inputs)")
    add_arguments(p, input_type=input_path, output_type=output_folder,
                  address_type=address_arg)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--spark", action="store_true",
                       help="run on Spark even for a small input")
    which.add_argument("--no-spark", action="store_true",
                       help="run in this process, whatever the input's size (no JVM; the "
                            "same tables)")
    p.epilog = (f"Without --master, an input of fewer than {SMALL_INPUT:,} messages (counted "
                "before anything starts) runs in one process, and says so; --spark and "
                "--no-spark force either.")
    p.add_argument("--graph", action="store_true",
                   help="also run the graph analytics of the observed network and write "
                        "them under OUT/graph/ (degrees, latency, PageRank, islands, loops, "
                        "depth, communities ...; Spark)")
    add_graph_engine_options(p)
    add_otlp_options(p)
    add_spark_log_options(p)
    p.set_defaults(func=run)


def check_master(master: str | None, timeout: float = MASTER_TIMEOUT) -> None:
    """A standalone master (spark://HOST:PORT[,HOST:PORT...]) that nothing answers at is one
    line naming it and the reason, before Spark starts (it would retry for minutes)."""
    if not master or not master.startswith("spark://"):
        return
    reasons = []
    for address in master[len("spark://"):].split(","):
        host, _, port = address.strip().rpartition(":")
        if not host or not port.isdigit():
            raise UsageError(f"--master {master}: give spark://HOST:PORT")
        try:
            with socket.create_connection((host, int(port)), timeout=timeout):
                return
        except OSError as e:
            reasons.append(f"{host}:{port}: {e.strerror or type(e).__name__}"
                           if not isinstance(e, TimeoutError)
                           else f"{host}:{port}: no answer in {timeout:g} s")
    raise FatalError(f"--master {master}: no Spark master answers ({'; '.join(reasons)})")


def _needs_spark(args: argparse.Namespace) -> list[str]:
    """The options given that only run on Spark."""
    given = [("--master", args.master), ("--graph", args.graph), ("--engine", args.engine),
             ("--graphframes-jar", args.graphframes_jar), ("--otlp", args.otlp),
             ("--otlp-endpoint", args.otlp_endpoint)]
    return [flag for flag, value in given if value]


def run(args: argparse.Namespace) -> int:
    """Run the analyze job; then the analytics (--graph) and the traces (--otlp)."""
    from graph.pipeline.commit import OutputError, check_out
    from graph.pipeline.inputs import list_inputs
    from graph.pipeline.job import run_args
    from graph.pipeline.single import SMALL_INPUT, count_messages
    from graph.pipeline.storage import StorageError, is_local
    from mqroute.progress import Progress

    check_otlp(args)
    # plain strings from here on: the paths travel to Spark's executors (pickled rows)
    args.inputs = [str(path) for path in args.inputs]
    args.out = str(args.out)
    spark_only = _needs_spark(args)
    if args.no_spark and spark_only:
        raise UsageError(f"--no-spark: {', '.join(spark_only)} run(s) on Spark only")
    need("analyze", "pyarrow")
    if args.spark or spark_only:
        need("analyze", "pyspark", "pandas", "numpy")
    try:
        check_out(args.inputs, args.out)  # refused before anything is read: one line
    except (OutputError, StorageError) as e:
        raise FatalError(str(e)) from None
    progress = Progress("analyze")
    progress("listing the inputs")
    try:
        listing = list_inputs(args.inputs)
    except (OutputError, StorageError) as e:
        progress.close()
        raise FatalError(str(e)) from None
    for _uri, error in listing.problems:
        progress(f"mqroute: {error}")
    single = args.no_spark
    if not (single or args.spark or spark_only) and is_local(args.out):
        counted = count_messages(listing, SMALL_INPUT)
        if counted <= SMALL_INPUT:
            single = True
            progress(f"mqroute: {counted} messages: analysed in this process, without Spark "
                     "(--spark to use it)")
    if single:
        try:
            return run_args(args, single=True, listing=listing, progress=progress)
        finally:
            progress.close()
    try:
        need("analyze", "pyspark", "pandas", "numpy")
        check_master(args.master)
        progress("starting Spark")
        spark = start_session(args, "mqroute analyze")
        status = run_args(args, spark=spark, listing=listing, progress=progress)
    finally:
        progress.close()
    if status == 2 or not (args.graph or args.otlp or args.otlp_endpoint):
        return status
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
