"""Inputs of the analyze job: dmpmqmsg dumps (cut into byte ranges), raw files, Parquet.

Each reader returns a DataFrame of raw messages (`RAW_COLUMNS`); nothing is decoded here.
Listing happens on the driver, reading on the executors.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from graph.pipeline.schema import ddl

RAW_COLUMNS = (("source", "string"), ("position", "long"), ("md", "binary"),
               ("data", "binary"), ("error", "string"))
DEFAULT_SPLIT_BYTES = 32 << 20


def classify_inputs(inputs: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """Sort inputs into (dump files, raw message files, Parquet paths)."""
    from traceroute.readers.files import looks_binary

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
    from graph.pipeline.dumpsplit import read_range, splits
    from pcf.mqmd import pack

    parts = splits(list(paths), split_bytes)

    def rows(split) -> Iterator[tuple]:
        for e in read_range(split):
            md = pack(e.md, encoding=e.md.encoding) if e.md is not None else None
            yield (e.source, e.offset, md, e.data, e.error)

    rdd = spark.sparkContext.parallelize(parts, max(1, len(parts))).flatMap(rows)
    return spark.createDataFrame(rdd, ddl(RAW_COLUMNS))


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
    dumps, raws, parquets = classify_inputs(inputs)
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


