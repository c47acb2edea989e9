"""`mqroute stats`: accounting and statistics messages as amqsmon prints them, or as JSON."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime

from mqroute.errors import Problems
from mqroute.inputs import Inputs, add_inputs, read_stats
from mqroute.options import Filters, add_filters
from mqroute.output import print_json_lines
from pcf.text import printable
from traceroute.display.amqsmon import record_to_json, render_amqsmon
from traceroute.stats import Kind, join_sequences
from traceroute.stats.join import show_ranges
from traceroute.stats.model import StatsRecord

#: The exit statuses, as --help and docs/commands/stats.md say them.
EXIT_STATUS = ("0 ok (messages of other kinds are counted, still 0); 1 an input unreadable (the "
               "rest shown); 2 usage.")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute stats`."""
    p = sub.add_parser("stats", help="accounting and statistics messages (MQI, queue, "
                                     "channel) as IBM's amqsmon prints them, or as JSON")
    add_inputs(p, "dmpmqmsg dumps (e.g. of SYSTEM.ADMIN.STATISTICS.QUEUE or "
               "SYSTEM.ADMIN.ACCOUNTING.QUEUE) or raw message files",
               json_help="one JSON object per record and per queue/channel group")
    p.add_argument("--type", choices=("mqi", "queue", "channel"),
                   help="only records of this object type")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--accounting", action="store_true", help="only accounting records")
    which.add_argument("--statistics", action="store_true", help="only statistics records")
    add_filters(p)
    p.set_defaults(func=run)


def wanted(kind: Kind, args: argparse.Namespace) -> bool:
    """Whether --type / --accounting / --statistics keep records of this kind."""
    if args.type and kind.object_type != args.type:
        return False
    if args.accounting and not kind.accounting:
        return False
    return not (args.statistics and kind.accounting)


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) else None


def _when(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def kept(record: StatsRecord, filters: Filters) -> bool:
    """Whether a record passes --queue/--channel/--conn-id/--appl/--since/--until (a filter
    on something the record does not have drops it, as amqsmon's do)."""
    if not filters.active:
        return True
    return filters.names(
        queues=[_text(getattr(record, "q_name", None))],
        channels=[_text(getattr(record, "channel_name", None))],
        appl=_text(getattr(record, "application_name", None)),
        conn_id=getattr(record, "connection_id", None)) and \
        filters.time(_when(record.interval_start), _when(record.interval_end))


def run(args: argparse.Namespace) -> int:
    """`mqroute stats`: print the records; 0 ok, 1 some input unreadable."""
    filters = Filters.from_args(args)
    inputs = Inputs(args.files, Problems())
    shown = 0
    for joined in join_sequences(read_stats(inputs)):
        if not wanted(joined.messages[0].kind, args):
            continue
        records = [r for r in joined.records() if kept(r, filters)]
        if not joined.complete:
            first = joined.messages[0]
            lost = (f"messages {show_ranges(joined.missing)} missing"
                    if joined.missing else "its last message missing")
            print(printable(f"mqroute: {first.where}: incomplete {first.kind.value} sequence "
                            f"(MsgSeqNumber {', '.join(map(str, joined.numbers))}; {lost}); "
                            f"{len(records)} records used"), file=sys.stderr)
        if not records:
            continue
        shown += len(records)
        if args.json:
            print_json_lines(record_to_json(r) for r in records)
        else:
            for line in render_amqsmon(records):
                print(line)
    print(inputs.summary(f"{shown} records", "accounting or statistics data"), file=sys.stderr)
    return inputs.problems.status()
