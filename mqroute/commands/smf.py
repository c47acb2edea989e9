"""`mqroute smf`: z/OS SMF statistics (type 115) and accounting (type 116) of IBM MQ.

Reads SMF data sets as downloaded from z/OS in binary (with RDWs, or without with
`--no-rdw`) and prints what they hold, every structure as IBM's formatter mq-smf-csv prints it
(`--json`), or writes one table per structure (`--out DIR`: DIR/<structure>/, Parquet or CSV).
`--findings` interprets the numbers by the rules of IBM's documentation; exit 3 when any.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from mqroute.errors import EXIT_FINDINGS, Problems, UsageError
from mqroute.extras import need
from mqroute.inputs import expand, open_binary
from mqroute.options import Filters, add_filters
from mqroute.output import replacing
from mqroute.paths import input_path, output_folder
from pcf.errors import InputError
from traceroute.readers import source_name
from traceroute.readers.smf import SMFCounts, smf_rows
from traceroute.smf import STRUCTURES, Row, row_to_ibm
from traceroute.smf.clock import stck_datetime
from traceroute.smf.findings import named, when_written

#: Rows of one structure kept before they are written out as a row group.
BATCH_ROWS = 20_000
EXIT_STATUS = ("0 read (with --findings: none); 1 an input unreadable or a bad spot in one "
               "(each named with its byte offset, the rest still read); 2 usage, or a table "
               "that cannot be written; 3 --findings found some (and every input was read).")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute smf`."""
    p = sub.add_parser("smf", help="z/OS SMF statistics (115) and accounting (116) of IBM MQ: "
                                   "decode as IBM's formatter does, write tables, interpret")
    p.add_argument("files", nargs="+", metavar="FILE", type=input_path,
                   help="SMF data sets downloaded from z/OS in binary (IFASMFDP/IFASMFDL "
                        "output, with RDWs unless --no-rdw), folders of them or URIs; - "
                        "reads standard input")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per structure per line, the keys and values IBM's "
                        "formatter mq-smf-csv prints (-f JSON -g yes); with --findings: one "
                        "object per finding")
    p.add_argument("--out", metavar="DIR", type=output_folder,
                   help="write one table per structure: DIR/<structure>/ (lower case)")
    p.add_argument("--format", choices=("parquet", "csv"), default="parquet",
                   help="the tables' format with --out (default parquet)")
    p.add_argument("--no-rdw", action="store_true",
                   help="the data sets were transferred without record descriptor words")
    p.add_argument("--structure", action="append", metavar="NAME", type=str.upper,
                   help="only these structures (QJST, QPST, WQ, QCST ...; repeatable)")
    p.add_argument("--findings", action="store_true",
                   help="interpret the numbers by IBM's rules: one finding per symptom "
                        "(exit 3 when any)")
    p.add_argument("--short-lived-pools", metavar="N,...", type=_pools, default=(0,),
                   help="with --findings: the buffer pools that hold short-lived messages, "
                        "whose rules differ (default 0)")
    p.add_argument("--processors", metavar="N", type=int,
                   help="with --findings: the LPAR's processors, to check the number of "
                        "dispatchers against")
    add_filters(p, conn_id=False)
    p.set_defaults(func=run)


def _pools(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(n) for n in text.split(",") if n.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: buffer pool numbers, e.g. 0,1") from None


def _check(args: argparse.Namespace) -> None:
    unknown = sorted(set(args.structure or ()) - set(STRUCTURES))
    if unknown:
        raise UsageError(f"smf --structure {', '.join(unknown)}: not a structure we decode "
                         f"({', '.join(STRUCTURES)})")
    if args.json and args.out and not args.findings:
        raise UsageError("smf: --json prints the structures, --out writes them: choose one")
    if args.format != "parquet" and not args.out:
        raise UsageError("smf: --format goes with --out DIR")


def run(args: argparse.Namespace) -> int:
    """`mqroute smf`: 0 ok, 1 some input unreadable, 3 findings (with --findings)."""
    _check(args)
    problems = Problems()
    counts = SMFCounts()
    wanted = set(args.structure or STRUCTURES)
    filters = Filters.from_args(args)
    rows: Iterable[Row] = (r for r in read_datasets(args.files, problems,
                                                    rdw=not args.no_rdw, counts=counts)
                           if r.structure in wanted and kept(r, filters))
    printer = _FindingPrinter(as_json=args.json)
    if args.findings:
        from traceroute.smf.findings import Interpreter

        interpreter = Interpreter(short_lived_pools=args.short_lived_pools,
                                  processors=args.processors)
        rows = printer.watch(rows, interpreter)
    if args.out:
        written = write_tables(rows, Path(args.out), args.format)
        print(f"mqroute: {sum(written.values())} rows in {len(written)} tables written to "
              f"{args.out}", file=sys.stderr)
    elif args.json and not args.findings:
        for row in rows:
            print(json.dumps(row_to_ibm(row)))
    elif args.findings:
        for _ in rows:
            pass
    else:
        print_summary(rows, counts)
    if args.findings:
        printer.print(interpreter.finish())
        printer.close()
    print(f"mqroute: {counts.summary()}", file=sys.stderr)
    return problems.status(EXIT_FINDINGS if printer.count else 0)


#: The names each structure is about, for --queue, --channel and --appl: (queues,
#: channels, application) columns.
_NAMES = {"WQ": (("openName", "baseName"), (), None),
          "QCST": ((), ("chlName",), "remoteQmgrOrApp"),
          "WTID": ((), ("channelName",), "connectionName"),
          "QMAC": ((), (), "connectionName")}
#: The times each accounting structure is about (UTC), for --since and --until.
_TIMES = {"WQ": ("open", "close"), "QCST": ("start", "collectionTime"),
          "WTAS": ("wtasIntervalStart", "wtasIntervalEnd")}


def kept(row: Row, filters: Filters) -> bool:
    """Whether the filters keep a row: its queue, channel or application names, and its
    time (statistics: the interval; accounting: the structure's own times, or when SMF
    wrote the record)."""
    if filters.queues or filters.channels or filters.appls:
        queues, channels, appl = _NAMES.get(row.structure, ((), (), None))
        values = named(row) if queues or channels or appl else {}
        if not filters.names(queues=[values.get(q) for q in queues],
                             channels=[values.get(c) for c in channels],
                             appl=values.get(appl) if appl else None):
            return False
    if filters.since or filters.until:
        h = row.header
        start = end = None
        if h.interval_start:
            start = stck_datetime(h.interval_start)
            end = start + dt.timedelta(seconds=h.interval_duration or 0) if start else None
        elif row.structure in _TIMES:
            values = named(row)
            start, end = (values.get(t) for t in _TIMES[row.structure])
        if start is None and end is None:
            start = end = when_written(h)
        return filters.time(start, end)
    return True


def read_datasets(paths: Iterable[str], problems: Problems, *, rdw: bool,
                  counts: SMFCounts) -> Iterator[Row]:
    """The rows of every data set the paths name (files, folders' files, URIs, `-`); each
    unreadable input and bad spot reported, the rest still read."""
    for top in paths:
        for path in expand(top, problems):
            source = source_name(path)
            try:
                with open_binary(path) as stream:
                    yield from smf_rows(stream, source, problems, rdw=rdw, counts=counts)
            except InputError as e:
                problems.error(e)
            except OSError as e:
                problems(source, e.strerror or str(e))


class _FindingPrinter:
    """Prints findings as they are found (text or JSON Lines) and counts them."""

    def __init__(self, *, as_json: bool) -> None:
        self.as_json = as_json
        self.count = 0

    def watch(self, rows: Iterable[Row], interpreter) -> Iterator[Row]:
        """The rows, passed through the interpreter; its findings printed as they come."""
        for row in rows:
            interpreter.see(row)
            yield row
            if interpreter.found:
                self.print(interpreter.take())

    def print(self, findings: Iterable) -> None:
        """Print these findings."""
        for finding in findings:
            self.count += 1
            print(json.dumps(finding.to_json()) if self.as_json else finding.text())

    def close(self) -> None:
        """The closing line of the text output."""
        if not self.as_json:
            n = self.count
            print(f"{n} finding{'s' if n != 1 else ''}" if n else "no findings")


def print_summary(rows: Iterable[Row], counts: SMFCounts) -> None:
    """What the data sets hold: per queue manager, its records' span, then rows per
    structure."""
    from traceroute.smf.ibmjson import header_date, header_time
    from traceroute.smf.text import clean

    managers: dict[tuple[str, str], dict] = {}
    structures: Counter = Counter()
    for row in rows:
        h = row.header
        key = (clean(h.lpar), clean(h.qmgr))
        when = f"{header_date(h)} {header_time(h)[:8]}"
        seen = managers.setdefault(key, {"version": clean(h.version), "first": when,
                                         "last": when, "qsg": None})
        seen["first"], seen["last"] = min(seen["first"], when), max(seen["last"], when)
        if h.qsg is not None and clean(h.qsg):
            seen["qsg"] = clean(h.qsg)
        structures[row.structure] += 1
    for (lpar, qmgr), seen in sorted(managers.items()):
        qsg = f", QSG {seen['qsg']}" if seen["qsg"] else ""
        print(f"queue manager {qmgr} on LPAR {lpar}{qsg}, MQ {seen['version']}: SMF records "
              f"written {seen['first']} to {seen['last']}")
    if counts.records:
        print("records: " + ", ".join(f"{t} subtype {s}: {n}" for (t, s), n in
                                      sorted(counts.records.items())))
    for name in STRUCTURES:
        if structures[name]:
            print(f"  {name:<8} {structures[name]:>9,} rows")


class _TableWriter:
    """One structure's table: row groups written through `replacing` (a file beside the
    table's, renamed into place when the whole run succeeds)."""

    def __init__(self, name: str, folder: Path, fmt: str, files: contextlib.ExitStack) -> None:
        from traceroute.smf.tables import schema

        self.name = name
        self.fmt = fmt
        target = folder / name.lower()
        target.mkdir(parents=True, exist_ok=True)
        self.file = files.enter_context(replacing(target / f"part-00000.{fmt}", "wb"))
        self.schema = schema(name)
        self.rows: list[Row] = []
        self.count = 0
        self._writer = None

    def add(self, row: Row) -> None:
        self.rows.append(row)
        if len(self.rows) >= BATCH_ROWS:
            self.flush()

    def flush(self) -> None:
        if not self.rows:
            return
        from traceroute.smf.tables import rows_to_table

        table = rows_to_table(self.name, self.rows)
        self.count += len(self.rows)
        self.rows = []
        if self.fmt == "parquet":
            import pyarrow.parquet as pq

            if self._writer is None:
                self._writer = pq.ParquetWriter(self.file, self.schema)
        else:
            import pyarrow.csv as pacsv

            table = _csv_ready(table)
            if self._writer is None:
                self._writer = pacsv.CSVWriter(self.file, table.schema)
        self._writer.write_table(table)

    def close(self) -> None:
        self.flush()
        if self._writer is not None:
            self._writer.close()


def _csv_ready(table):
    """List columns as JSON text (CSV has no lists)."""
    import pyarrow as pa

    for i, f in enumerate(table.schema):
        if pa.types.is_list(f.type):
            text = [None if v is None else json.dumps(v, default=str)
                    for v in table.column(i).to_pylist()]
            table = table.set_column(i, f.name, pa.array(text, type=pa.string()))
    return table


def write_tables(rows: Iterable[Row], folder: Path, fmt: str = "parquet") -> dict[str, int]:
    """Write each structure's rows to folder/<structure>/part-00000.<fmt>; rows per table.
    The tables are renamed into place when every row is written: a failure leaves the old
    ones."""
    need("smf --out", "pyarrow")
    writers: dict[str, _TableWriter] = {}
    with contextlib.ExitStack() as files:
        for row in rows:
            writer = writers.get(row.structure)
            if writer is None:
                writer = writers[row.structure] = _TableWriter(row.structure, folder, fmt,
                                                               files)
            writer.add(row)
        for writer in writers.values():
            writer.close()
    return {name: w.count for name, w in writers.items()}
