"""The analyze job: every route in a whole network's activity data, written as Parquet.

Readers take directories of dmpmqmsg dumps (cut into byte ranges, so a large dump is read by
many tasks), raw message files, and Parquet with a binary column. Nothing is dropped: what
fails to read or decode goes to `rejects` with its source, position and the error.
Run it here in local mode, on any cluster with `--master`, or through spark-submit
(`spark-submit graph/pipeline/job.py INPUT... --out DIR`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from graph.pipeline.inputs import DEFAULT_SPLIT_BYTES, read_inputs
from graph.pipeline.reports import build_routes, decode


@dataclass
class Summary:
    """Counts from one run, and where the tables were written."""

    messages: int
    operations: int
    rejected: int
    routes: int
    verdicts: dict[str, int]
    out: str

    def table(self) -> str:
        """A small text table for the end of a run."""
        lines = [f"{'verdict':<24}{'routes':>10}"]
        lines += [f"{v:<24}{n:>10}" for v, n in sorted(self.verdicts.items())]
        lines.append(f"{'(rejected messages)':<24}{self.rejected:>10}")
        return "\n".join(lines)


def run(spark, inputs: Sequence[str], out: str, *, split_bytes: int = DEFAULT_SPLIT_BYTES,
        progress: Callable[[str], None] = lambda s: None) -> Summary:
    """Read, decode, build routes and write operations/rejects/routes/hops as Parquet."""
    raw = read_inputs(spark, inputs, split_bytes=split_bytes)
    ops, rejects = decode(raw)
    ops_n = ops.count()
    rejected = rejects.count()
    messages = ops.select("source", "position", "report_msg_id").distinct().count() + rejected
    progress(f"reports read {messages}, decoded {messages - rejected}, rejected {rejected}")
    ops.write.mode("overwrite").partitionBy("date").parquet(os.path.join(out, "operations"))
    rejects.write.mode("overwrite").parquet(os.path.join(out, "rejects"))
    routes, hops = build_routes(ops)
    routes = routes.persist()
    routes.write.mode("overwrite").partitionBy("verdict").parquet(os.path.join(out, "routes"))
    hops.write.mode("overwrite").parquet(os.path.join(out, "hops"))
    verdicts = {r["verdict"]: r["count"] for r in routes.groupBy("verdict").count().collect()}
    n_routes = sum(verdicts.values())
    progress(f"routes built {n_routes}")
    routes.unpersist()
    return Summary(messages, ops_n, rejected, n_routes, verdicts, out)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The analyze job's options (shared by `mqroute analyze` and spark-submit)."""
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="dmpmqmsg dumps, raw message files, Parquet, or folders of them")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--master", help="Spark master URL (default local[*], or spark-submit's)")
    p.add_argument("--split-mb", type=int, default=DEFAULT_SPLIT_BYTES >> 20,
                   help="bytes of dump per task, in MB (default 32)")


def run_args(args: argparse.Namespace) -> int:
    """Run the job as the command line asks; print the verdict table."""
    from graph.pipeline.session import spark_session

    spark = spark_session(args.master, app_name="mqroute analyze")
    summary = run(spark, args.inputs, args.out, split_bytes=args.split_mb << 20,
                  progress=lambda s: print(s, file=sys.stderr, flush=True))
    print(summary.table())
    print(f"tables written to {summary.out}: operations, rejects, routes, hops")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for spark-submit: `spark-submit graph/pipeline/job.py INPUT... --out DIR`."""
    parser = argparse.ArgumentParser(prog="mqroute analyze")
    add_arguments(parser)
    return run_args(parser.parse_args(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    sys.exit(main())
