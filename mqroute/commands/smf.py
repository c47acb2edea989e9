"""`mqroute smf`: z/OS SMF statistics (type 115) and accounting (type 116) of IBM MQ.

Reads SMF data sets as downloaded from z/OS in binary (with RDWs, or without with
`--no-rdw`) and prints what they hold, every structure as IBM's formatter mq-smf-csv prints it
(`--json`), or writes one table per structure (`--out DIR`: DIR/<structure>/, Parquet or CSV).
`--findings` interprets the numbers by the rules of IBM's documentation; exit 3 when any.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from mqroute.errors import EXIT_FINDINGS, Problems, UsageError
from traceroute.readers.smf import SMFCounts, read_smf
from traceroute.smf import STRUCTURES, Row, row_to_ibm

#: Rows of one structure kept before they are written out as a row group.
BATCH_ROWS = 20_000


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute smf`."""
    p = sub.add_parser("smf", help="z/OS SMF statistics (115) and accounting (116) of IBM MQ: "
                                   "decode as IBM's formatter does, write tables, interpret")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="SMF data sets downloaded from z/OS in binary (IFASMFDP/IFASMFDL "
                        "output, with RDWs unless --no-rdw); - reads standard input")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per structure per line, the keys and values IBM's "
                        "formatter mq-smf-csv prints (-f JSON -g yes); with --findings: one "
                        "object per finding")
    p.add_argument("--out", metavar="DIR",
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
    rows: Iterable[Row] = (r for r in read_smf(args.files, problems, rdw=not args.no_rdw,
                                               counts=counts) if r.structure in wanted)
    found = 0
    if args.findings:
        from traceroute.smf.findings import Interpreter

        interpreter = Interpreter(short_lived_pools=args.short_lived_pools,
                                  processors=args.processors)
        rows = interpreter.watch(rows)
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
        found = print_findings(interpreter.finish(), as_json=args.json)
    print(f"mqroute: {counts.summary()}", file=sys.stderr)
    return problems.status(EXIT_FINDINGS if found else 0)


def print_findings(findings: Iterable, *, as_json: bool) -> int:
    """Print the findings (text or JSON Lines); how many."""
    count = 0
    for finding in findings:
        count += 1
        if as_json:
            print(json.dumps(finding.to_json()))
        else:
            print(finding.text())
    if not as_json:
        print(f"{count} finding{'s' if count != 1 else ''}" if count else "no findings")
    return count


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
    """One structure's table: row groups appended to a file beside its final name, renamed
    into place by `close`."""

    def __init__(self, name: str, folder: Path, fmt: str) -> None:
        from traceroute.smf.tables import schema

        self.name = name
        self.fmt = fmt
        self.folder = folder / name.lower()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.final = self.folder / f"part-00000.{fmt}"
        self.temp = self.folder / f".part-00000.{fmt}.{os.getpid()}.tmp"
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
                self._writer = pq.ParquetWriter(self.temp, self.schema)
            self._writer.write_table(table)
        else:
            import pyarrow.csv as pacsv

            table = _csv_ready(table)
            if self._writer is None:
                self._writer = pacsv.CSVWriter(self.temp, table.schema)
            self._writer.write_table(table)

    def close(self) -> None:
        self.flush()
        if self._writer is not None:
            self._writer.close()
            os.replace(self.temp, self.final)

    def abandon(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self.temp.unlink(missing_ok=True)


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
    A table is renamed into place only when complete: a failure leaves the old one."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise UsageError("smf --out needs pyarrow: pip install 'mqroute[spark]'") from None
    writers: dict[str, _TableWriter] = {}
    try:
        for row in rows:
            writer = writers.get(row.structure)
            if writer is None:
                writer = writers[row.structure] = _TableWriter(row.structure, folder, fmt)
            writer.add(row)
        for writer in writers.values():
            writer.close()
    except BaseException:
        for writer in writers.values():
            writer.abandon()
        raise
    return {name: w.count for name, w in writers.items()}

