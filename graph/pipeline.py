"""The Spark pipeline: every route in a whole network's activity data.

    raw messages ──decode on the executors (Arrow)──▶ operations + rejects
    operations ──group by original MsgId, same ordering code──▶ routes + hops ──▶ Parquet

Readers take directories of dmpmqmsg dumps (cut into byte ranges, so a large dump is read by
many tasks), raw message files, and Parquet with a binary column. Nothing is dropped: what
fails to read or decode goes to `rejects` with its source, position and the error.
Run it here in local mode, on any cluster with `--master`, or through spark-submit.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from graph.rows import (
    HOP_COLUMNS,
    OPERATION_COLUMNS,
    ROUTE_COLUMNS,
    hop_rows,
    operation_rows,
    route_row,
    routes_from_operation_rows,
)

RAW_COLUMNS = (("source", "string"), ("position", "long"), ("md", "binary"),
               ("data", "binary"), ("error", "string"))
DEFAULT_SPLIT_BYTES = 32 << 20


def _ddl(columns: Sequence[tuple[str, str]]) -> str:
    return ", ".join(f"`{name}` {kind}" for name, kind in columns)


def _arrow_schema(columns: Sequence[tuple[str, str]]):
    import pyarrow as pa

    kinds = {"string": pa.string(), "long": pa.int64(), "int": pa.int32(),
             "boolean": pa.bool_(), "binary": pa.binary()}
    return pa.schema([(name, kinds[kind]) for name, kind in columns])


# --- readers -------------------------------------------------------------------------------

def _files(inputs: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """Sort inputs into (dump files, raw message files, Parquet paths)."""
    from traceroute.inputs import looks_binary

    dumps, raws, parquets = [], [], []
    for item in inputs:
        path = Path(item)
        if path.is_dir() and (any(path.glob("*.parquet")) or (path / "_SUCCESS").exists()):
            parquets.append(str(path))
            continue
        candidates = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() \
            else [path]
        for p in candidates:
            if p.name.startswith((".", "_")):
                continue
            if p.suffix == ".parquet":
                parquets.append(str(p))
                continue
            with p.open("rb") as f:
                (raws if looks_binary(f.read(512)) else dumps).append(str(p))
    return dumps, raws, parquets


def read_dumps(spark, paths: Sequence[str], split_bytes: int = DEFAULT_SPLIT_BYTES):
    """dmpmqmsg dumps as raw rows; each dump is cut into ranges read by separate tasks."""
    from graph.dumpsplit import read_range, splits
    from pcf.mqmd import pack

    parts = splits(list(paths), split_bytes)

    def rows(split) -> Iterator[tuple]:
        for e in read_range(split):
            md = pack(e.md, encoding=e.md.encoding) if e.md is not None else None
            yield (e.source, e.offset, md, e.data, e.error)

    rdd = spark.sparkContext.parallelize(parts, max(1, len(parts))).flatMap(rows)
    return spark.createDataFrame(rdd, _ddl(RAW_COLUMNS))


def read_raw_files(spark, paths: Sequence[str]):
    """Raw message files (message data, no MQMD), one message per file."""
    from pyspark.sql import functions as F

    df = spark.read.format("binaryFile").load(list(paths))
    return df.select(F.col("path").alias("source"), F.lit(0).cast("long").alias("position"),
                     F.lit(None).cast("binary").alias("md"), F.col("content").alias("data"),
                     F.lit(None).cast("string").alias("error"))


def read_parquet(spark, paths: Sequence[str], *, data_column: str = "data",
                 md_column: str = "md"):
    """Parquet with the message data in a binary column (and optionally a packed MQMD)."""
    from pyspark.sql import functions as F

    df = spark.read.parquet(*paths)
    md = F.col(md_column) if md_column in df.columns else F.lit(None).cast("binary")
    source = F.col("source") if "source" in df.columns else F.input_file_name()
    position = F.col("position").cast("long") if "position" in df.columns else \
        F.monotonically_increasing_id()
    return df.select(source.alias("source"), position.alias("position"), md.alias("md"),
                     F.col(data_column).alias("data"),
                     F.lit(None).cast("string").alias("error"))


def read_inputs(spark, inputs: Sequence[str], *, split_bytes: int = DEFAULT_SPLIT_BYTES):
    """Every message of the inputs (dumps, raw files, Parquet), as one raw DataFrame."""
    dumps, raws, parquets = _files(inputs)
    frames = []
    if dumps:
        frames.append(read_dumps(spark, dumps, split_bytes))
    if raws:
        frames.append(read_raw_files(spark, raws))
    if parquets:
        frames.append(read_parquet(spark, parquets))
    if not frames:
        raise FileNotFoundError(f"no input files in {', '.join(inputs)}")
    df = frames[0]
    for other in frames[1:]:
        df = df.unionByName(other)
    return df


# --- decoding on the executors -------------------------------------------------------------

DECODED_COLUMNS = (*OPERATION_COLUMNS, ("error", "string"), ("rejected", "boolean"))


def decode_batches(batches: Iterator) -> Iterator:
    """mapInArrow body: raw message batches -> operation rows and reject rows."""
    import pyarrow as pa

    from pcf.errors import PCFError
    from pcf.mqmd import unpack
    from traceroute.parse import NotActivityData, parse_message

    schema = _arrow_schema(DECODED_COLUMNS)
    empty = dict.fromkeys(name for name, _ in OPERATION_COLUMNS)
    for batch in batches:
        out: list[dict] = []
        for row in batch.to_pylist():
            source, position = row["source"], row["position"]
            error = row["error"]
            if error is None:
                try:
                    md = unpack(row["md"]) if row["md"] is not None else None
                    record = parse_message(md, row["data"] or b"", source=source,
                                           line=position)
                    out.extend({**r, "error": None, "rejected": False}
                               for r in operation_rows(record, position=position))
                    continue
                except (PCFError, NotActivityData) as e:
                    error = f"{type(e).__name__}: {e}"
            out.append({**empty, "source": source, "position": position,
                        "report_msg_id": _msg_id(row["md"]), "error": error,
                        "rejected": True})
        yield pa.RecordBatch.from_pylist(out, schema=schema)


def _msg_id(md: bytes | None) -> str | None:
    return md[48:72].hex() if md is not None and len(md) >= 72 else None


def decode(raw):
    """(operations, rejects) DataFrames from raw messages; decoded once, cached."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    decoded = raw.mapInArrow(decode_batches, _ddl(DECODED_COLUMNS))
    decoded = decoded.persist(StorageLevel.MEMORY_AND_DISK)
    ops = decoded.filter(~F.col("rejected")).drop("error", "rejected")
    rejects = decoded.filter(F.col("rejected")).select(
        "source", "position", F.col("report_msg_id").alias("msg_id"), "error")
    return ops, rejects


# --- routes --------------------------------------------------------------------------------

ROUTE_OUTPUT = (*ROUTE_COLUMNS, ("hop_list", "array<struct<" + ", ".join(
    f"{n}: {k}" for n, k in HOP_COLUMNS) + ">>"))


def routes_of_batches(batches: Iterator) -> Iterator:
    """mapInArrow body over rows sorted by correl_id: each message's route (with its hops).

    One Python call serves a whole partition, however many messages it holds; a message
    whose rows straddle two Arrow batches is carried over to the next one.
    """
    import pyarrow as pa

    schema = _route_arrow_schema()
    carry: list[dict] = []
    for batch in batches:
        rows = carry + batch.to_pylist()
        if not rows:
            continue
        last = rows[-1]["correl_id"]
        cut = len(rows)
        while cut and rows[cut - 1]["correl_id"] == last:
            cut -= 1
        done, carry = rows[:cut], rows[cut:]
        if done:
            yield pa.RecordBatch.from_pylist(_route_rows(done), schema=schema)
    if carry:
        yield pa.RecordBatch.from_pylist(_route_rows(carry), schema=schema)


def _route_rows(rows: list[dict]) -> list[dict]:
    return [{**route_row(route), "hop_list": list(hop_rows(route))}
            for route in routes_from_operation_rows(rows)]


def _route_arrow_schema():
    import pyarrow as pa

    base = _arrow_schema(ROUTE_COLUMNS)
    hop = pa.struct(list(_arrow_schema(HOP_COLUMNS)))
    return base.append(pa.field("hop_list", pa.list_(hop)))


def build_routes(ops):
    """(routes, hops) DataFrames: the same ordering code as single-process, per message.

    Rows are shuffled by original MsgId and sorted within each partition, so one Python
    call orders every message of a partition (a per-group call costs ~10 ms each).
    """
    from pyspark.sql import functions as F

    grouped = ops.repartition("correl_id").sortWithinPartitions("correl_id")
    with_hops = grouped.mapInArrow(routes_of_batches, _ddl(ROUTE_OUTPUT))
    with_hops = with_hops.persist()  # routes and hops both come from it: build routes once
    routes = with_hops.drop("hop_list")
    hops = with_hops.select(F.explode("hop_list").alias("h")).select("h.*")
    return routes, hops


# --- the whole job -------------------------------------------------------------------------

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


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute analyze`."""
    p = sub.add_parser("analyze", help="reconstruct every route in a network's activity data "
                                       "with Spark, written as Parquet")
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="dmpmqmsg dumps, raw message files, Parquet, or folders of them")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--master", help="Spark master URL (default local[*], or spark-submit's)")
    p.add_argument("--split-mb", type=int, default=DEFAULT_SPLIT_BYTES >> 20,
                   help="bytes of dump per task, in MB (default 32)")
    p.set_defaults(func=main_args)


def main_args(args: argparse.Namespace) -> int:
    """`mqroute analyze`."""
    from graph.session import spark_session

    spark = spark_session(args.master, app_name="mqroute analyze")
    summary = run(spark, args.inputs, args.out, split_bytes=args.split_mb << 20,
                  progress=lambda s: print(s, file=sys.stderr, flush=True))
    print(summary.table())
    print(f"tables written to {summary.out}: operations, rejects, routes, hops")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for spark-submit: `spark-submit graph/pipeline.py INPUT... --out DIR`."""
    parser = argparse.ArgumentParser(prog="mqroute analyze")
    sub = parser.add_subparsers(dest="command")
    add_parser(sub)
    args = parser.parse_args(["analyze", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
