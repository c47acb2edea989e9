"""The analyze job: every route in a whole network's activity data, written as Parquet.

Readers take directories of dmpmqmsg dumps (cut into byte ranges, so a large dump is read by
many tasks), raw message files, and Parquet with a binary column. Nothing is dropped: what
fails to read or decode goes to `rejects` with its source, position and the error.
Run it here in local mode, on any cluster with `--master`, or through spark-submit
(`spark-submit graph/pipeline/job.py INPUT... --out DIR`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from graph.pipeline import storage
from graph.pipeline.classify import (
    EVENT,
    OP,
    REJECT,
    STATS,
    TRACE,
    events_frame,
    stats_frame,
    trace_messages,
)
from graph.pipeline.commit import OutputError, check_out, remove_folders, staged_output
from graph.pipeline.events import EVENT_COLUMNS, ROUTE_EVENT_COLUMNS
from graph.pipeline.events import write_tables as write_events_tables
from graph.pipeline.inputs import DEFAULT_SPLIT_BYTES, Listing, list_inputs
from graph.pipeline.journeys import TABLE_COLUMNS as JOURNEY_TABLE_COLUMNS
from graph.pipeline.journeys import write_tables as write_journey_tables
from graph.pipeline.rows import REJECT_COLUMNS
from graph.pipeline.schema import ddl
from graph.pipeline.smf import write_tables as write_smf_tables
from graph.pipeline.stats import TABLES as STATS_TABLES
from graph.pipeline.stats import write_tables as write_stats_tables
from graph.pipeline.storage import StorageError
from graph.pipeline.summary import Summary
from graph.pipeline.units import COUNTS, SIDE, side_rows, write_empty, write_reports
from pcf.text import has_credentials, masked, printable
from traceroute.journeys.rows import CALL_COLUMNS


def run(spark, inputs: Sequence[str], out: str, *, split_bytes: int = DEFAULT_SPLIT_BYTES,
        progress: Callable[[str], None] = lambda s: None,
        listing: Listing | None = None) -> Summary:
    """Read, decode, build routes and write operations/rejects/routes/hops as Parquet.

    The tables go to a staging folder that replaces `out` only when all are written
    (`graph.pipeline.commit`); `out` inside an input is refused before anything is read.
    """
    check_out(inputs, out)
    if listing is None:
        listing = list_inputs(inputs)
        for _uri, error in listing.problems:
            progress(f"mqroute: {error}")
    from graph.pipeline.ship import ship  # here: `python -m graph.pipeline.ship` runs clean

    ship(spark)
    storage.forward_environment(spark)
    with staged_output(spark, inputs, out, progress) as stage:
        # one job: tasks read and classify their own units and write operations/, rejects/
        # and routes/, hops/ with pyarrow (graph.pipeline.units); no raw message enters
        # the JVM, nothing is cached
        found = write_reports(spark, listing, stage, split_bytes)
        by_kind = found.by_kind
        ops_n, messages = by_kind.get(OP, (0, 0))
        rejected = by_kind.get(REJECT, (0, 0))[0]
        messages += rejected
        progress(f"reports read {messages}, decoded {messages - rejected}, rejected {rejected}")
        verdicts, failed_n = found.verdicts, found.failed
        n_routes = sum(verdicts.values())
        if failed_n:  # messages whose route could not be built: rejects too
            rejected += failed_n
            progress(f"routes failed {failed_n} (in rejects)")
        progress(f"routes built {n_routes}")

        def present(kind: str) -> bool:
            return by_kind.get(kind, (0, 0))[0] > 0

        # a kind the input has none of: its tables are written empty, with no Spark job
        if present(STATS):
            stats_rows = stats_frame(side_rows(spark, stage, STATS)).persist()
            stats = write_stats_tables(stats_rows, stage)
            stats_rows.unpersist()
        else:
            stats = {table: 0 for table in STATS_TABLES}
            write_empty_tables(spark, stage, STATS_TABLES)
        if present(TRACE):
            journeys = write_journey_tables(trace_messages(side_rows(spark, stage, TRACE)),
                                            stage)
        else:
            journeys = {}
            write_empty_tables(spark, stage, {"calls": CALL_COLUMNS,
                                              "journeys": JOURNEY_TABLE_COLUMNS})
        if present(EVENT):  # events/, route_events/ (the routes read back)
            event_rows = events_frame(side_rows(spark, stage, EVENT)).persist()
            write_events_tables(event_rows, stage, spark.read.parquet(
                storage.spark_path(storage.join(stage, "routes"))))
            event_rows.unpersist()
        else:
            write_empty_tables(spark, stage, {"events": EVENT_COLUMNS,
                                              "route_events": ROUTE_EVENT_COLUMNS})
        remove_folders(spark, [storage.join(stage, SIDE), storage.join(stage, COUNTS)])
        smf = write_smf_tables(spark, listing.smf, stage, split_bytes, progress)  # smf/
        if smf.problems:  # bad spots in SMF data sets: rejects too
            spark.createDataFrame([(src, pos, None, error) for src, pos, error in smf.problems],
                                  ddl(REJECT_COLUMNS)).write.mode("append").parquet(
                f"{stage}/rejects")
            rejected += len(smf.problems)
    return Summary(messages, ops_n, rejected, n_routes, verdicts, out, list(listing.problems),
                   stats, journeys, dict(sorted(smf.rows.items())))


def write_empty_tables(spark, stage: str, tables: dict[str, Sequence[tuple[str, str]]]
                       ) -> None:
    """Each of `tables` (name -> columns) written empty under `stage`, keeping its schema:
    by pyarrow when the staging folder is local (no Spark job), else by Spark."""
    for name, columns in tables.items():
        path = f"{stage}/{name}"
        if storage.is_local(stage):
            write_empty(path, columns)
        else:
            spark.createDataFrame([], ddl(columns)).write.mode("overwrite").parquet(path)


def add_arguments(p: argparse.ArgumentParser, *, input_type: Callable[[str], str] = str,
                  output_type: Callable[[str], str] = str,
                  address_type: Callable[[str], str] = str) -> None:
    """The analyze job's options (shared by `mqroute analyze` and spark-submit); the
    types mark the inputs and the output folder (`mqroute.paths` checks them)."""
    p.add_argument("inputs", nargs="+", metavar="INPUT", type=input_type,
                   help="dmpmqmsg dumps, raw message files, Parquet, z/OS SMF data sets, or "
                        "folders of them; paths or URIs (s3://, gs://, abfs://, hdfs://, "
                        "file://)")
    p.add_argument("--out", required=True, metavar="DIR", type=output_type,
                   help="folder (path or URI) for the tables; replaced only when all are "
                        "written")
    p.add_argument("--master", type=address_type, metavar="URL",
                   help="Spark master URL (default local[*], or spark-submit's)")
    p.add_argument("--split-mb", type=int, default=DEFAULT_SPLIT_BYTES >> 20,
                   help="bytes of dump per task, in MB (default 32)")


#: How many rejects `mqroute analyze` names on stderr (all are in the rejects table).
SHOWN_REJECTS = 20


def run_args(args: argparse.Namespace, *, spark=None, single: bool = False,
             listing: Listing | None = None,
             progress: Callable[[str], None] | None = None) -> int:
    """Run the job as the command line asks; print the verdict table; the exit status.

    0 every message read, 1 some input or message unreadable (the rest processed, each one
    in `rejects`), 2 a usage or fatal error (one line naming the URI and the reason). With
    `single`, the tables are made in this process (`graph.pipeline.single`), no Spark;
    otherwise on `spark` (default: a session of `--master`).
    """
    def say(text: str) -> None:
        print(printable(text), file=sys.stderr, flush=True)   # one line, whatever it names

    say = progress or say
    for uri in (*args.inputs, args.out):   # spark-submit's way in: mqroute checks it first
        if has_credentials(uri):
            say(f"mqroute: {masked(uri)}: credentials do not go in a URI; give them through "
                "the store's environment or configuration")
            return 2
    try:
        check_out(args.inputs, args.out)
        if listing is None:
            listing = list_inputs(args.inputs)  # before Spark starts: a wrong URI fails fast
            for _uri, error in listing.problems:
                say(f"mqroute: {error}")
        if listing.empty:
            raise StorageError(", ".join(args.inputs), "no input files could be read")
        if single:
            from graph.pipeline.single import run_single

            summary = run_single(args.inputs, args.out, listing=listing, progress=say,
                                 split_bytes=args.split_mb << 20)
        else:
            if spark is None:
                from graph.pipeline.session import spark_session

                spark = spark_session(args.master, app_name="mqroute analyze")
            summary = run(spark, args.inputs, args.out, split_bytes=args.split_mb << 20,
                          progress=say, listing=listing)
    except (OutputError, StorageError) as e:
        say(f"mqroute: {e}")
        return 2
    except Exception as e:  # Spark's Java errors: one line, never a traceback
        say(f"mqroute: analyze failed: {storage.describe_error(e)}")
        return 2
    if hasattr(say, "close"):
        say.close()  # the status line ends before the results
    print(summary.table())
    print(summary.written())
    if summary.rejected:
        _name_rejects(spark, summary, say)
    return 1 if summary.rejected or summary.unreadable else 0


def _reject_rows(spark, out: str) -> list[dict]:
    """The first rejects, by source and position (Spark's, or of a small single-process run
    with pyarrow)."""
    path = storage.join(out, "rejects")
    if spark is None:
        import pyarrow.dataset as ds

        rows = ds.dataset(storage.local_path(path), format="parquet").to_table(
            columns=["source", "position", "error"]).to_pylist()
        return sorted(rows, key=lambda r: (r["source"] or "", r["position"] or 0)
                      )[:SHOWN_REJECTS]
    table = spark.read.parquet(storage.spark_path(path))
    return [r.asDict() for r in table.orderBy("source", "position").limit(SHOWN_REJECTS)
            .collect()]


def _name_rejects(spark, summary: Summary, say: Callable[[str], None]) -> None:
    """Name the first rejects on stderr as `mqroute: SOURCE:POSITION: error`."""
    for r in _reject_rows(spark, summary.out):
        error = r["error"] or ""
        if error.startswith(f"{r['source']}:"):
            say(f"mqroute: {error}")
        else:
            say(f"mqroute: {r['source']}:{r['position']}: {error}")
    if summary.rejected > SHOWN_REJECTS:
        say(f"mqroute: ... and {summary.rejected - SHOWN_REJECTS} more, in "
            f"{storage.join(summary.out, 'rejects')}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for spark-submit: `spark-submit graph/pipeline/job.py INPUT... --out DIR`."""
    parser = argparse.ArgumentParser(prog="mqroute analyze")
    add_arguments(parser)
    return run_args(parser.parse_args(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    sys.exit(main())
