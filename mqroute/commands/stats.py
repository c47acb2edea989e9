"""`mqroute stats`: accounting and statistics messages as amqsmon prints them, or as JSON.

    mqroute stats FILE... [--json] [filters]                  dumps or raw messages
    mqroute stats -m QMGR [--browse] [--wait SECONDS] [--save FILE]
                                                              the queues, live (amqsmon)
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime

from mqroute.errors import Problems, UsageError
from mqroute.inputs import Inputs, add_inputs, read_stats, skipped_text
from mqroute.live import STATS_QUEUES, add_live_options, live_requested, read_queues
from mqroute.options import Filters, add_connection, add_filters, add_network
from mqroute.output import print_json_lines
from pcf.errors import PCFError
from pcf.mqmd import MQMD
from pcf.text import printable
from traceroute.display.amqsmon import record_to_json, render_amqsmon
from traceroute.stats import Kind, NotStatistics, decode_stats
from traceroute.stats.join import Joined, SequenceJoiner, show_ranges
from traceroute.stats.model import StatsRecord

#: The exit statuses, as --help and docs/commands/stats.md say them.
EXIT_STATUS = ("0 ok (messages of other kinds are counted, still 0); 1 an input unreadable (the "
               "rest shown), or (-m) a queue that cannot be read; 2 usage, or (-m) no queue "
               "manager, no connection, the dump or output not writable; 130 (-m) "
               "interrupted, after what was read was printed.")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute stats`."""
    p = sub.add_parser("stats", help="accounting and statistics messages (MQI, queue, "
                                     "channel) as IBM's amqsmon prints them, or as JSON, from "
                                     "files or live from the queues",
                       description="From files, or with -m QMGR live from the queue "
                                   "manager's SYSTEM.ADMIN.STATISTICS.QUEUE and "
                                   "SYSTEM.ADMIN.ACCOUNTING.QUEUE (only one of them with "
                                   "--statistics or --accounting; other queues with "
                                   "--input-queue, as amqsmon -n), as amqsmon does.")
    add_inputs(p, "dmpmqmsg dumps (e.g. of SYSTEM.ADMIN.STATISTICS.QUEUE or "
               "SYSTEM.ADMIN.ACCOUNTING.QUEUE) or raw message files",
               json_help="one JSON object per record and per queue/channel group", nargs="*")
    p.add_argument("--type", choices=("mqi", "queue", "channel"),
                   help="only records of this object type")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--accounting", action="store_true", help="only accounting records")
    which.add_argument("--statistics", action="store_true", help="only statistics records")
    add_filters(p)
    add_live_options(p, reads="the statistics and accounting queues")
    p.add_argument("--input-queue", action="append", default=[], metavar="NAME",
                   help="with -m: read this queue instead (amqsmon -n; repeatable)")
    add_network(p, help="with -m: the estate folder (mqroute sim init) whose queue manager's "
                        "statistics and accounting queues are read")
    add_connection(p, channel_flag="--client-channel")
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


class StatsPrinter:
    """Joins MsgSeqNumber sequences and prints the records that pass, read from files or
    live (a `traceroute.mq.live.Consumer`: a sequence is held until its last part)."""

    def __init__(self, args: argparse.Namespace, filters: Filters, problems: Problems) -> None:
        self.args = args
        self.filters = filters
        self.problems = problems
        self.joiner = SequenceJoiner()
        self.shown = 0
        self.skipped = 0

    def show(self, joined: Joined) -> None:
        """Print one joined sequence's records (and say when it is incomplete)."""
        if not wanted(joined.messages[0].kind, self.args):
            return
        records = [r for r in joined.records() if kept(r, self.filters)]
        if not joined.complete:
            first = joined.messages[0]
            lost = (f"messages {show_ranges(joined.missing)} missing"
                    if joined.missing else "its last message missing")
            print(printable(f"mqroute: {first.where}: incomplete {first.kind.value} sequence "
                            f"(MsgSeqNumber {', '.join(map(str, joined.numbers))}; {lost}); "
                            f"{len(records)} records used"), file=sys.stderr)
        if not records:
            return
        self.shown += len(records)
        if self.args.json:
            print_json_lines(record_to_json(r) for r in records)
        else:
            for line in render_amqsmon(records):
                print(line)

    def add(self, message) -> None:
        """One statistics message: the sequences it completes are printed."""
        for joined in self.joiner.add(message):
            self.show(joined)

    def take(self, source: str, md: MQMD, data: bytes) -> None:
        """One message read live."""
        try:
            message = decode_stats(md, data, source=source)
        except NotStatistics:
            self.skipped += 1
            return
        except PCFError as e:
            self.problems(f"{source} message {md.msg_id.hex().upper()}", str(e))
            return
        self.add(message)

    def holding(self) -> bool:
        """True while a sequence waits for its other parts."""
        return bool(self.joiner.pending)

    def finish(self) -> None:
        """The sequences still incomplete are printed as they are."""
        for joined in self.joiner.flush():
            self.show(joined)


def run(args: argparse.Namespace) -> int:
    """`mqroute stats`: print the records; 0 ok, 1 some input unreadable."""
    if args.qmgr or live_requested(args) or args.network or args.input_queue:
        return run_live(args)
    if not args.files:
        raise UsageError("stats: give files (dumps, raw messages) or -m QMGR to read the "
                         "statistics and accounting queues live")
    filters = Filters.from_args(args)
    inputs = Inputs(args.files, Problems())
    printer = StatsPrinter(args, filters, inputs.problems)
    for message in read_stats(inputs):
        printer.add(message)
    printer.finish()
    print(inputs.summary(f"{printer.shown} records", "accounting or statistics data"),
          file=sys.stderr)
    return inputs.problems.status()


def run_live(args: argparse.Namespace) -> int:
    """`mqroute stats -m QMGR`: the statistics and accounting queues as they fill."""
    if args.files:
        raise UsageError("stats: give files or -m QMGR (a live read), not both")
    if not args.qmgr and not args.network:
        raise UsageError("stats: --browse, --wait, --save and --input-queue read queues live: "
                         "give -m QMGR")
    problems = Problems()
    printer = StatsPrinter(args, Filters.from_args(args), problems)
    queues = list(dict.fromkeys(args.input_queue)) or \
        [q for q in STATS_QUEUES if not (args.accounting and "STATISTICS" in q)
         and not (args.statistics and "ACCOUNTING" in q)]
    outcome = read_queues(args, [args.qmgr] if args.qmgr else [], queues, printer,
                          command="stats")
    print(printable(f"mqroute: {printer.shown} records"
                    f"{skipped_text(printer.skipped, 'accounting or statistics data')}"
                    f"{outcome.summary(args)}"), file=sys.stderr)
    return outcome.exit_status(problems.status())
