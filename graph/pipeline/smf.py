"""SMF data sets as an input kind of the analyze job: smf/<structure>/ tables, one decoder.

A data set is recognised by its first bytes (`traceroute.readers.smf.smf_kind`: an RDW and an
SMF header, or an SMF header alone for data sets transferred without RDWs). The driver walks
each one's records once (`plan`: framing only, no decoding) and cuts it into ranges that start
at record boundaries, about `split_bytes` each; a spanned record belongs to the range its
first segment starts in. Each range is read by one task (on Spark) or in turn (in one
process), decoded by `traceroute.smf` and written by the same code as Parquet parts:
smf/<structure lower case>/part-NNNNN.parquet, the schema of `traceroute.smf.tables.schema`.
Bad spots become rejects rows (source, position, msg_id null, error).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from graph.pipeline import storage

#: Rows of one structure gathered before they become a row group.
ROW_GROUP_ROWS = 20_000
#: Bad spots one range reports at most (the rest are counted in one more line).
MAX_PROBLEMS = 200
#: The folder under the output that holds the SMF tables.
FOLDER = "smf"


@dataclass(frozen=True)
class SMFSplit:
    """Records of one SMF data set starting at byte offsets in [start, end)."""

    uri: str
    start: int
    end: int | None
    rdw: bool
    index: int


@dataclass
class SMFResult:
    """What reading SMF ranges gave: rows per structure, bytes, problems (source, offset,
    reason)."""

    rows: Counter = field(default_factory=Counter)
    bytes: int = 0
    records: int = 0
    problems: list[tuple[str, int, str]] = field(default_factory=list)

    def add(self, other: SMFResult) -> None:
        """Add another range's result."""
        self.rows.update(other.rows)
        self.bytes += other.bytes
        self.records += other.records
        self.problems += other.problems


def plan(entries: Sequence[tuple[storage.Entry, bool]], split_bytes: int) -> list[SMFSplit]:
    """Ranges of about `split_bytes` of each data set, cut at record starts found by walking
    its records (entries: (file, has RDWs))."""
    from traceroute.smf.framing import Frame, frames

    out: list[SMFSplit] = []
    for entry, rdw in entries:
        start, cuts = 0, []
        try:
            with storage.open_input(entry.uri) as f:
                for frame in frames(f, rdw=rdw):
                    if isinstance(frame, Frame) and frame.offset - start >= split_bytes:
                        cuts.append(frame.offset)
                        start = frame.offset
        except (OSError, storage.StorageError):
            cuts = []  # the task reading it reports what cannot be read
        bounds = [0, *cuts]
        for i, begin in enumerate(bounds):
            end = bounds[i + 1] if i + 1 < len(bounds) else None
            out.append(SMFSplit(entry.uri, begin, end, rdw, len(out)))
    return out


def read_split(split: SMFSplit, result: SMFResult) -> Iterator:
    """The rows (traceroute.smf.Row) of one range; problems and counts into `result`."""
    from traceroute.readers.smf import SMFCounts, smf_rows

    counts = SMFCounts()
    shown = 0

    def problem(where: str, reason: str) -> None:
        nonlocal shown
        shown += 1
        if shown <= MAX_PROBLEMS:
            offset = where.rsplit(":offset ", 1)
            result.problems.append((split.uri, int(offset[1]) if len(offset) == 2 else 0,
                                    f"{where}: {reason}"))

    try:
        with storage.open_input(split.uri) as f:
            if split.start:
                f.seek(split.start)
            yield from smf_rows(f, split.uri, problem, rdw=split.rdw, counts=counts,
                                offset=split.start, end=split.end)
    except (OSError, storage.StorageError) as e:
        problem(split.uri, storage.reason(e) if not isinstance(e, storage.StorageError)
                else e.reason)
    if shown > MAX_PROBLEMS:
        result.problems.append((split.uri, split.start, f"{split.uri}: {shown - MAX_PROBLEMS} "
                                                        f"more problems in this range"))
    result.rows.update(counts.rows)
    result.bytes += counts.bytes
    result.records += sum(counts.records.values())


class PartWriter:
    """Rows of one range into smf/<structure>/part-NNNNN.parquet under `folder` (a path or
    URI), a row group per ROW_GROUP_ROWS rows of a structure."""

    def __init__(self, folder: str, index: int) -> None:
        self.folder = folder
        self.index = index
        self.pending: dict[str, list] = {}
        self.writers: dict[str, tuple] = {}

    def add(self, row) -> None:
        rows = self.pending.setdefault(row.structure, [])
        rows.append(row)
        if len(rows) >= ROW_GROUP_ROWS:
            self._flush(row.structure)

    def _flush(self, name: str) -> None:
        import pyarrow.parquet as pq

        from traceroute.smf.tables import rows_to_table, schema

        rows = self.pending.pop(name, [])
        if not rows:
            return
        if name not in self.writers:
            path = storage.join(storage.join(self.folder, name.lower()),
                                f"part-{self.index:05d}.parquet")
            sink = storage.open_output(path)
            self.writers[name] = (sink, pq.ParquetWriter(sink, schema(name)))
        self.writers[name][1].write_table(rows_to_table(name, rows))

    def close(self) -> None:
        """Write what is pending and close every file."""
        for name in list(self.pending):
            self._flush(name)
        for sink, writer in self.writers.values():
            writer.close()
            sink.close()


def write_split(split: SMFSplit, folder: str) -> SMFResult:
    """Read, decode and write one range (what a task does); its result."""
    result = SMFResult()
    writer = PartWriter(folder, split.index)
    try:
        for row in read_split(split, result):
            writer.add(row)
    finally:
        writer.close()
    return result


def write_tables(spark, entries: Sequence[tuple[storage.Entry, bool]], stage: str,
                 split_bytes: int, progress: Callable[[str], None] = lambda s: None
                 ) -> SMFResult:
    """The SMF tables on Spark: one task per range writes its parts under stage/smf/; the
    driver gets back each range's counts and (bounded) problems."""
    splits = plan(entries, split_bytes)
    folder = storage.join(stage, FOLDER)
    result = SMFResult()
    if not splits:
        return result
    progress(f"SMF data sets {len(entries)}, read in {len(splits)} ranges")
    parts = spark.sparkContext.parallelize(splits, len(splits)).map(
        lambda s: write_split(s, folder)).collect()  # one small result per range
    for part in parts:
        result.add(part)
    return result


def write_local(entries: Sequence[tuple[storage.Entry, bool]], folder: str,
                split_bytes: int) -> SMFResult:
    """The same tables in this process: the same ranges, read in turn."""
    result = SMFResult()
    for split in plan(entries, split_bytes):
        result.add(write_split(split, storage.join(folder, FOLDER)))
    return result


def local_tables(entries: Sequence[tuple[storage.Entry, bool]], split_bytes: int
                 ) -> tuple[dict[str, object], SMFResult]:
    """The SMF tables of these data sets as Arrow tables (structure -> table), in memory."""
    import pyarrow as pa

    from traceroute.smf.tables import rows_to_table

    result = SMFResult()
    tables: dict[str, list] = {}
    pending: dict[str, list] = {}
    for split in plan(entries, split_bytes):
        for row in read_split(split, result):
            rows = pending.setdefault(row.structure, [])
            rows.append(row)
            if len(rows) >= ROW_GROUP_ROWS:
                tables.setdefault(row.structure, []).append(rows_to_table(row.structure, rows))
                pending[row.structure] = []
    for name, rows in pending.items():
        if rows:
            tables.setdefault(name, []).append(rows_to_table(name, rows))
    return {name: pa.concat_tables(parts) for name, parts in tables.items()}, result
