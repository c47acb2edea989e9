"""Inputs of the analyze job: dmpmqmsg dumps (cut into byte ranges), raw files, Parquet.

Inputs are plain paths or URIs (`graph.pipeline.storage`). Listing and sorting happen on the
driver (`list_inputs`); reading happens on the executors. Each reader returns a DataFrame of
raw messages (`RAW_COLUMNS`); nothing is decoded here. What cannot be listed or read becomes
a raw row with its error (then a `rejects` row), never the end of the job.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from graph.pipeline import storage
from graph.pipeline.schema import arrow_schema, ddl, row_batch

RAW_COLUMNS = (("source", "string"), ("position", "long"), ("md", "binary"),
               ("data", "binary"), ("error", "string"))
DEFAULT_SPLIT_BYTES = 32 << 20
#: The largest message IBM MQ carries (MaxMsgLength at most 100 MB): a raw message file
#: larger than this cannot be one message and is rejected unread.
MAX_MESSAGE_BYTES = 100 * 1024 * 1024
#: Bytes read from each file to tell a dump from a raw message.
SNIFF_BYTES = 512
#: Raw rows read (and classified) at a time by the readers that run in Python.
BATCH_ROWS = 2_000
#: ...and at most about this many message bytes (raw files and Parquet rows may be large).
BATCH_BYTES = 64 << 20


@dataclass
class Listing:
    """The files of the inputs, sorted by kind, and the inputs that could not be listed."""

    dumps: list[storage.Entry] = field(default_factory=list)
    raws: list[storage.Entry] = field(default_factory=list)
    parquets: list[storage.Entry] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (URI, error)
    #: z/OS SMF data sets (graph.pipeline.smf), each with whether it has RDWs
    smf: list[tuple[storage.Entry, bool]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when no file at all was found."""
        return not (self.dumps or self.raws or self.parquets or self.smf)


def _looks_binary(head: bytes) -> bool:
    from traceroute.readers.files import looks_binary

    return looks_binary(head)


def _smf_kind(head: bytes) -> str | None:
    from traceroute.readers.smf import smf_kind

    return smf_kind(head)


def list_inputs(inputs: Sequence[str]) -> Listing:
    """List every input (file or folder, path or URI) on the driver and sort its files.

    A folder may hold dumps, raw files, Parquet files and z/OS SMF data sets side by side
    (recognised by their first bytes; a Spark-written Parquet folder is read as its part
    files). Hidden and `_` names are skipped.
    """
    listing = Listing()
    seen: set[str] = set()
    for item in inputs:
        try:
            entries = storage.list_files(item)
        except storage.StorageError as e:
            listing.problems.append((item, str(e)))
            continue
        for entry in entries:
            if entry.uri in seen:
                continue
            seen.add(entry.uri)
            if entry.uri.endswith(".parquet"):
                listing.parquets.append(entry)
                continue
            try:
                head = storage.read_head(entry.uri, SNIFF_BYTES)
            except storage.StorageError as e:
                listing.problems.append((entry.uri, str(e)))
                continue
            smf = _smf_kind(head)
            if smf is not None:
                listing.smf.append((entry, smf == "rdw"))
                continue
            (listing.raws if _looks_binary(head) else listing.dumps).append(entry)
    return listing


def classify_inputs(inputs: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """Sort inputs into (dump files, raw message files, Parquet files), as URIs or paths."""
    listing = list_inputs(inputs)
    return ([e.uri for e in listing.dumps], [e.uri for e in listing.raws],
            [e.uri for e in listing.parquets])


def read_raw(entry: storage.Entry) -> tuple[bytes | None, str | None]:
    """(the message bytes of a raw file, None) or (None, why it was not read)."""
    if entry.size > MAX_MESSAGE_BYTES:
        return None, (f"{entry.uri}: {entry.size} bytes, larger than IBM MQ's largest message "
                      f"({MAX_MESSAGE_BYTES} bytes); not read")
    try:
        return storage.read_all(entry.uri, MAX_MESSAGE_BYTES), None
    except storage.StorageError as e:
        return None, str(e)


def dump_rows(split) -> Iterator[tuple]:
    """Raw rows (RAW_COLUMNS) of one range of a dump; an MQMD that cannot be packed is an error."""
    from graph.pipeline.dumpsplit import read_range

    for e in read_range(split):
        md = None
        error = e.error
        if e.md is not None:
            try:
                md = pack_md(e.md)
            except Exception as err:
                error = f"MQMD of the message at byte {e.offset}: {type(err).__name__}: {err}"
        yield (e.source, e.offset, md if error is None else None,
               e.data if error is None else None, error)


def pack_md(md) -> bytes:
    """The MQMD as bytes for the raw table; byte order from its Encoding, else little-endian.

    An Encoding that names no integer byte order (0, say) is kept as it is: the MQMD is packed
    little-endian, and `pcf.mqmd.unpack` finds the order again from the Version field.
    """
    from pcf import mqc
    from pcf.errors import PCFError
    from pcf.mqmd import pack

    try:
        return pack(md, encoding=md.encoding)
    except PCFError:
        return pack(md, encoding=mqc.MQENC_REVERSED)


def read_dumps(spark, files: Sequence[str | storage.Entry],
               split_bytes: int = DEFAULT_SPLIT_BYTES):
    """dmpmqmsg dumps as raw rows; each dump is cut into ranges read by separate tasks."""
    from graph.pipeline.dumpsplit import splits

    parts = splits(list(files), split_bytes)
    rdd = spark.sparkContext.parallelize(parts, max(1, len(parts))).flatMap(dump_rows)
    return spark.createDataFrame(rdd, ddl(RAW_COLUMNS))


def read_raw_files(spark, files: Sequence[str | storage.Entry]):
    """Raw message files (message data, no MQMD), one message per file, read on executors."""
    entries = [f if isinstance(f, storage.Entry) else storage.stat(f) for f in files]

    def rows(entry: storage.Entry) -> Iterator[tuple]:
        data, error = read_raw(entry)
        yield (entry.uri, 0, None, data, error)

    slices = max(1, min(len(entries), spark.sparkContext.defaultParallelism * 4))
    rdd = spark.sparkContext.parallelize(entries, slices).flatMap(rows)
    return spark.createDataFrame(rdd, ddl(RAW_COLUMNS))


def parquet_columns(entry: storage.Entry) -> frozenset[str]:
    """The column names of a Parquet file (its footer only)."""
    return frozenset(parquet_schema(entry))


def parquet_schema(entry: storage.Entry) -> dict[str, object]:
    """The columns of a Parquet file and their Arrow types (its footer only)."""
    import pyarrow.parquet as pq

    try:
        with storage.open_input(entry.uri) as f:
            schema = pq.read_schema(f)
    except storage.StorageError:
        raise
    except Exception as e:
        raise storage.StorageError(entry.uri, f"not readable as Parquet: {storage.reason(e)}") \
            from e
    return {field.name: field.type for field in schema}


def _column_problem(name: str, kind) -> str | None:
    """Why a Parquet column the reader uses cannot be read as it must be (None: it can)."""
    import pyarrow as pa

    binary = (pa.types.is_binary(kind) or pa.types.is_large_binary(kind)
              or pa.types.is_fixed_size_binary(kind))
    text = pa.types.is_string(kind) or pa.types.is_large_string(kind)
    whole = pa.types.is_integer(kind) and not (pa.types.is_unsigned_integer(kind)
                                               and kind.bit_width == 64)
    ok = {"data": binary, "md": binary, "source": text, "position": whole}[name]
    want = {"data": "binary", "md": "binary", "source": "a string",
            "position": "an integer of at most 64 bits"}[name]
    return None if ok else f"column {name!r} is {kind}, not {want}"


def read_parquet(spark, files: Sequence[str], *, data_column: str = "data",
                 md_column: str = "md"):
    """Parquet with the message data in a binary column (and optionally a packed MQMD)."""
    from pyspark.sql import functions as F

    df = spark.read.parquet(*[storage.spark_path(f) for f in files])
    md = F.col(md_column) if md_column in df.columns else F.lit(None).cast("binary")
    source = F.col("source") if "source" in df.columns else F.input_file_name()
    position = F.col("position").cast("long") if "position" in df.columns else \
        F.monotonically_increasing_id()
    return df.select(source.alias("source"), position.alias("position"), md.alias("md"),
                     F.col(data_column).alias("data"),
                     F.lit(None).cast("string").alias("error"))


def parquet_groups(entries: Sequence[storage.Entry], *, data_column: str = "data"
                   ) -> tuple[list[list[str]], list[tuple[str, str]]]:
    """Parquet files grouped by the columns the reader uses, and the files it cannot use."""
    groups: dict[frozenset, list[str]] = {}
    bad: list[tuple[str, str]] = []
    for entry in entries:
        try:
            types = parquet_schema(entry)
        except storage.StorageError as e:
            bad.append((entry.uri, str(e)))
            continue
        if data_column not in types:
            shown = ", ".join(sorted(types)[:20]) + (" ..." if len(types) > 20 else "")
            bad.append((entry.uri, f"{entry.uri}: no {data_column!r} column (has {shown})"))
            continue
        used = {n: t for n, t in types.items() if n in ("source", "position", "md")}
        used["data"] = types[data_column]
        problems = [p for n, t in used.items() if (p := _column_problem(n, t))]
        if problems:  # one reject naming the file, never a failed union or cast
            bad.append((entry.uri, f"{entry.uri}: {'; '.join(problems)}: not read"))
            continue
        key = frozenset((n, str(t)) for n, t in used.items())
        groups.setdefault(key, []).append(entry.uri)
    return list(groups.values()), bad


def raw_row_batches(rows: Iterator[tuple]) -> Iterator:
    """Raw rows (RAW_COLUMNS tuples) as Arrow batches of at most BATCH_ROWS rows or about
    BATCH_BYTES of message bytes (a batch is never more than one row past the bound)."""
    schema = arrow_schema(RAW_COLUMNS)
    chunk: list[tuple] = []
    held = 0
    for row in rows:
        chunk.append(row)
        held += len(row[2] or b"") + len(row[3] or b"")
        if len(chunk) >= BATCH_ROWS or held >= BATCH_BYTES:
            yield row_batch(schema, chunk)
            chunk, held = [], 0
    if chunk:
        yield row_batch(schema, chunk)


def parquet_batches(uri: str, start: int = 0, end: int | None = None) -> Iterator:
    """Row groups [start, end) (default: all) of a Parquet file as raw batches, read as
    Arrow (no Python value per message): its `source`, `position` and `md` columns when it
    has them, else the file's URI, the row's index in the file, no MQMD. What cannot be read
    is one error row naming the file and the row where reading stopped: a file gone or
    unreadable ends there; a damaged row group loses the rest of that group only."""
    import pyarrow.parquet as pq

    schema = arrow_schema(RAW_COLUMNS)
    row = 0

    def failed(e: Exception):
        why = e.reason if isinstance(e, storage.StorageError) else storage.reason(e)
        return row_batch(schema, [(uri, row, None, None,
                                   f"{uri}: not readable as Parquet from row {row}: {why}")])

    try:
        f = storage.open_input(uri)
    except Exception as e:  # gone since it was listed: this file's reject
        yield failed(e)
        return
    with f:
        try:
            pf = pq.ParquetFile(f)
            meta = pf.metadata
            end = meta.num_row_groups if end is None else min(end, meta.num_row_groups)
            names = set(pf.schema_arrow.names)
        except Exception as e:
            yield failed(e)
            return
        wanted = [c for c in ("source", "position", "md", "data") if c in names]
        row = sum(meta.row_group(g).num_rows for g in range(start))
        for g in range(start, end):
            group = meta.row_group(g)
            after = row + group.num_rows
            size = max(1, min(BATCH_ROWS, BATCH_BYTES // max(
                1, group.total_byte_size // max(1, group.num_rows))))
            try:
                for batch in pf.iter_batches(batch_size=size, columns=wanted, row_groups=[g]):
                    yield _raw_batch(schema, batch, uri, row)
                    row += batch.num_rows
            except Exception as e:  # a damaged page: the group's reject
                yield failed(e)
            row = after


def _raw_batch(schema, batch, uri: str, row: int):
    """A Parquet batch as raw rows (the file's URI and row index where it has no source
    and position columns)."""
    import pyarrow as pa

    n = batch.num_rows
    got = dict(zip(batch.schema.names, batch.columns, strict=True))
    arrays = {"source": got.get("source", pa.array([uri] * n, pa.string())),
              "position": got.get("position", pa.array(range(row, row + n), pa.int64())),
              "md": got.get("md", pa.nulls(n, pa.binary())), "data": got["data"],
              "error": pa.nulls(n, pa.string())}
    return pa.RecordBatch.from_arrays([arrays[f.name].cast(f.type) for f in schema],
                                      schema=schema)


def error_rows(spark, problems: Sequence[tuple[str, str]]):
    """Raw rows of inputs that could not be listed or read at all."""
    return spark.createDataFrame([(uri, 0, None, None, error) for uri, error in problems],
                                 ddl(RAW_COLUMNS))


def read_inputs(spark, inputs: Sequence[str], *, split_bytes: int = DEFAULT_SPLIT_BYTES,
                listing: Listing | None = None):
    """Every message of the inputs (dumps, raw files, Parquet), as one raw DataFrame."""
    listing = listing if listing is not None else list_inputs(inputs)
    if listing.empty:
        detail = "; ".join(error for _, error in listing.problems)
        raise storage.StorageError(", ".join(inputs), detail or "no input files")
    frames = []
    problems = list(listing.problems)
    if listing.dumps:
        frames.append(read_dumps(spark, listing.dumps, split_bytes))
    if listing.raws:
        frames.append(read_raw_files(spark, listing.raws))
    if listing.parquets:
        groups, bad = parquet_groups(listing.parquets)
        problems += bad
        frames += [read_parquet(spark, files) for files in groups]
    if problems:
        frames.append(error_rows(spark, problems))
    if not frames:  # SMF data sets only: they are read by graph.pipeline.smf
        return spark.createDataFrame([], ddl(RAW_COLUMNS))
    df = frames[0]
    for other in frames[1:]:
        df = df.unionByName(other)
    return df
