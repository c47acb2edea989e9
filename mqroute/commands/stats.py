"""`mqroute stats`: accounting and statistics messages as amqsmon prints them, or as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator

from pcf.errors import DumpFormatError, PCFError
from traceroute.display.amqsmon import record_to_json, render_amqsmon
from traceroute.readers import read_messages
from traceroute.stats import Kind, NotStatistics, StatsMessage, decode_stats, join_sequences


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute stats`."""
    p = sub.add_parser("stats", help="accounting and statistics messages (MQI, queue, "
                                     "channel) as IBM's amqsmon prints them, or as JSON")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="dmpmqmsg dumps (e.g. of SYSTEM.ADMIN.STATISTICS.QUEUE or "
                        "SYSTEM.ADMIN.ACCOUNTING.QUEUE) or raw message files")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per record and per queue/channel group")
    p.add_argument("--type", choices=("mqi", "queue", "channel"),
                   help="only records of this object type")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--accounting", action="store_true", help="only accounting records")
    which.add_argument("--statistics", action="store_true", help="only statistics records")
    p.set_defaults(func=run)


def wanted(kind: Kind, args: argparse.Namespace) -> bool:
    """Whether --type / --accounting / --statistics keep records of this kind."""
    if args.type and kind.object_type != args.type:
        return False
    if args.accounting and not kind.accounting:
        return False
    return not (args.statistics and kind.accounting)


def read_stats(files: list[str], problem, skipped: list[int]) -> Iterator[StatsMessage]:
    """Every accounting/statistics message of the files; others counted in skipped[0]."""
    for path in files:
        def dump_error(e: DumpFormatError) -> None:
            problem(f"{e.source}:{e.line}", e.reason)

        try:
            for item in read_messages(path, on_error=dump_error):
                where = f"{item.source}:{item.line}" if item.line else item.source
                try:
                    yield decode_stats(item.md, item.data, source=item.source, line=item.line)
                except NotStatistics:
                    skipped[0] += 1
                except PCFError as e:
                    problem(where, str(e))
        except OSError as e:
            problem(path, e.strerror or str(e))


def run(args: argparse.Namespace) -> int:
    """`mqroute stats`: print the records; 0 ok, 1 some input unreadable."""
    problems = 0

    def problem(where: str, what: str) -> None:
        nonlocal problems
        problems += 1
        print(f"mqroute: {where}: {what}", file=sys.stderr)

    skipped = [0]
    shown = 0
    for joined in join_sequences(read_stats(args.files, problem, skipped)):
        if not wanted(joined.messages[0].kind, args):
            continue
        records = joined.records()
        if not joined.complete:
            first = joined.messages[0]
            lost = (f"messages {', '.join(map(str, joined.missing))} missing"
                    if joined.missing else "its last message missing")
            print(f"mqroute: {first.where}: incomplete {first.kind.value} sequence "
                  f"(MsgSeqNumber {', '.join(map(str, joined.numbers))}; {lost}); "
                  f"{len(records)} records used", file=sys.stderr)
        shown += len(records)
        if args.json:
            for r in records:
                print(json.dumps(record_to_json(r)))
        else:
            for line in render_amqsmon(records):
                print(line)
    note = f"mqroute: {shown} records"
    if skipped[0]:
        note += f"; {skipped[0]} other messages skipped"
    print(note, file=sys.stderr)
    return 1 if problems else 0
