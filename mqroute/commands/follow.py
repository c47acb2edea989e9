"""`mqroute follow`: where real messages went, from application activity trace.

    mqroute follow FILE... [--json] [filters] [-m QMGR | --network DIR]
                                        dumps; -m / --network explain where messages wait now
    mqroute follow -m QMGR [-m QMGR]... [--browse] [--wait SECONDS] [--save FILE]
                                        each queue manager's SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE,
                                        live (amqsact), journeys stitched across them
    mqroute follow -m QMGR... --subscribe --appl NAME|--channel NAME|--conn-id HEX --wait S
                                        subscribe to the $SYS/MQ/INFO/QMGR/<qmgr>/ActivityTrace
                                        topics for the reading (amqsact -t: -a, -c, -i)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from mqroute.errors import Problems, UsageError
from mqroute.eventinputs import add_events_option, print_explanations
from mqroute.inputs import Inputs, add_inputs, skipped_text
from mqroute.live import TRACE_QUEUE, add_live_options, live_requested, read_queues
from mqroute.livestatus import destinations, live_explainer, stop_of_journey
from mqroute.options import Filters, add_connection, add_filters, add_msg_id, add_network, msg_ids
from mqroute.otlp import add_otlp_options, check_otlp, export
from mqroute.output import print_json_lines
from pcf.errors import PCFError
from pcf.mqmd import MQMD
from pcf.text import printable
from traceroute.display.amqsact import render_journey
from traceroute.journeys import (
    ActivityTrace,
    Journey,
    NotActivityTrace,
    Reconstruction,
    exit_status,
    reconstruct,
)
from traceroute.journeys.join import join_records
from traceroute.journeys.parse import parse_activity_trace
from traceroute.journeys.publications import adopt_routes, link_publications
from traceroute.readers import InputMessage
from traceroute.records import NotActivityData, Record, parse_message
from traceroute.routes import build_routes

#: The exit statuses, as --help and docs/commands/follow.md say them.
EXIT_STATUS = ("the first that applies: 1 an input (or, -m, a queue or a subscription) "
               "unreadable (the rest followed); 6 a put failed; 5 dead-lettered; 4 waiting on "
               "a transmission queue; 3 in transit or incomplete; else 0; 2 usage, or (-m) no "
               "queue manager, no connection, the dump or output not writable; 130 (-m) "
               "interrupted, after the journeys read were printed.")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute follow`."""
    p = sub.add_parser(
        "follow", help="follow real messages through activity trace (MQCMD_ACTIVITY_TRACE): "
                       "where each went and where it stopped",
        description="Reads activity-trace messages (dmpmqmsg dumps of "
                    "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE or raw files, any mix of queue "
                    "managers, any order) and prints one journey per original message; "
                    "without FILE, -m QMGR (repeatable) reads each queue manager's "
                    "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE live, as amqsact does, and stitches "
                    "the journeys across them.")
    add_inputs(p, "dmpmqmsg dumps or raw messages",
               json_help="one JSON object per original message (JSON Lines)", nargs="*")
    add_msg_id(p)
    add_filters(p)
    p.add_argument("-v", "--verbose", action="store_true",
                   help="each call's trace record as amqsact -v prints it")
    add_events_option(p)
    add_otlp_options(p)
    add_live_options(p, reads="SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE of each -m queue manager")
    add_network(p, help="explain where stuck messages wait by asking this simulated estate "
                        "now (demo, MQSC files or an estate folder); without FILE, the estate "
                        "folder whose activity-trace queues are read")
    add_connection(p, qmgr=False, channel_flag="--client-channel")
    p.add_argument("--subscribe", action="store_true",
                   help="with -m and --wait: instead of the activity-trace queue, subscribe "
                        "(non-durable, managed queue) to $SYS/MQ/INFO/QMGR/<qmgr>/"
                        "ActivityTrace/ApplName/<--appl>, .../ChannelName/<--channel> or "
                        ".../ConnectionId/<--conn-id: 48 hex> for the reading, as amqsact -t "
                        "-a/-c/-i (a name with * or ? is a character wildcard, '#' every one; "
                        "a subscription switches activity trace on for what it matches)")
    p.add_argument("-m", dest="qmgrs", action="append", default=[], metavar="QMGR",
                   help="with FILE: the queue manager asked why messages wait (the first); "
                        "without: read this queue manager's activity trace live (repeatable)")
    p.set_defaults(func=run)


def kept(journey: Journey, filters: Filters) -> bool:
    """Whether a journey passes the filters: one of its calls matches every name filter
    (queue: the local queue or the object opened; channel: the MCA's), and its time span
    overlaps --since/--until."""
    if not filters.active:
        return True
    steps = journey.steps
    named = any(filters.names(queues=[s.queue, s.call.object_name], channels=[s.channel],
                              appl=s.call.conn.appl_name, conn_id=s.call.conn.conn_id or None)
                for s in steps)
    times = [s.call.time for s in steps if s.call.time]
    return named and filters.time(min(times) if times else None,
                                  max(times) if times else None)


def read_traces(inputs: Inputs, records: list[Record]) -> Iterator[ActivityTrace]:
    """Every activity-trace message of the inputs; activity reports and trace-route messages
    go to `records`, anything else is counted as skipped; unreadable input is reported."""
    def decode(item: InputMessage) -> ActivityTrace | None:
        try:
            return parse_activity_trace(item.md, item.data, source=item.source, line=item.line)
        except NotActivityTrace:
            try:
                records.append(parse_message(item.md, item.data, source=item.place,
                                             line=item.line))
            except (NotActivityData, PCFError):
                raise NotActivityTrace from None
            return None

    return inputs.decoded(decode, skip=(NotActivityTrace,))


def _tree(journey: Journey) -> list[Journey]:
    """The journey and its branches' (a publication's copies), depth first."""
    return [journey, *(x for b in journey.branches for x in _tree(b))]


def _ids(journey: Journey) -> set[bytes]:
    return {j.msg_id for j in _tree(journey)}


def _with_live(journey: Journey, why) -> dict:
    document = journey.to_dict()
    now = why(journey)
    if now is not None:
        document["live_status"] = now[1]
    return document


class TraceReader:
    """Activity trace read live, held until the end (a `traceroute.mq.live.Consumer`): the
    journeys are stitched and printed once every queue manager's trace is read."""

    def __init__(self, problems: Problems) -> None:
        self.problems = problems
        self.traces: list[ActivityTrace] = []
        self.records: list[Record] = []
        self.skipped = 0
        self.read = 0
        self.printed = False
        self.show = None  # set by run_live: prints the journeys of what was read

    def take(self, source: str, md: MQMD, data: bytes) -> None:
        """One message read live."""
        self.read += 1
        self.printed = False
        try:
            self.traces.append(parse_activity_trace(md, data, source=source))
            return
        except NotActivityTrace:
            pass
        except PCFError as e:
            self.problems(f"{source} message {md.msg_id.hex().upper()}", str(e))
            return
        try:
            self.records.append(parse_message(md, data, source=source))
        except (NotActivityData, PCFError):
            self.skipped += 1

    def holding(self) -> bool:
        """True while what was read is not printed."""
        return self.read > 0 and not self.printed

    def finish(self) -> None:
        """Stitch and print the journeys."""
        if self.show is not None:
            self.show(reconstruct(iter(self.traces)), self.records)
        self.printed = True


def _journeys(args: argparse.Namespace, result: Reconstruction, records: list[Record],
              problems: Problems) -> list[Journey]:
    """Print the journeys that pass (-v, --json, live explanations, --events, OTLP)."""
    wanted = msg_ids(args)
    filters = Filters.from_args(args)
    with live_explainer(args, stop_of_journey,
                        lambda text: problems("live status", text)) as why:
        # a publication is one journey, each copy of it that was followed a branch; with
        # its activity reports, exactly its route's branches (one per subscription)
        linked = link_publications(result.journeys, result.subscriptions)
        if records:
            where = destinations(why.admins, lambda text: problems("subscriptions", text))
            linked = adopt_routes(linked, build_routes(records, where))
        journeys = [j for j in linked if (not wanted or wanted & _ids(j))
                    and any(kept(x, filters) for x in _tree(j))]
        join_records(journeys, records)
        if args.json:
            print_json_lines(_with_live(j, why) for j in journeys)
        else:
            for n, j in enumerate(journeys):
                if n:
                    print()
                print("\n".join(render_journey(j, verbose=args.verbose)))
                now = why(j)
                if now is not None:
                    print(printable(f"Now: {now[0]}"))
    for missing in sorted(wanted - {i for j in journeys for i in _ids(j)}):
        print(f"mqroute: no MQI call of MsgId {missing.hex().upper()} in the trace",
              file=sys.stderr)
    print_explanations(args, journeys=journeys, problem=problems)
    export(args, journeys, journeys=True)
    return journeys


def _summary(journeys: list[Journey], result: Reconstruction, records: list[Record],
             skipped: str) -> str:
    summary = (f"mqroute: {len(journeys)} journeys from {result.calls} MQI calls{skipped}")
    if records:
        summary += f"; {len(records)} activity reports/trace-route messages read"
    return summary


def _subscriptions(args: argparse.Namespace):
    """`--subscribe`: checked, and the topics of each queue manager (a function of its
    name); the filter the topic selects by is dropped (the subscription selects: a
    wildcard such as '#' is MQ's, not a filter's)."""
    from traceroute.mq.trace_topics import activity_trace_topic

    if not args.qmgrs and not args.network:
        raise UsageError("follow --subscribe: give -m QMGR (the queue manager whose "
                         "$SYS/MQ/INFO/QMGR/<qmgr>/ActivityTrace topics to subscribe to)")
    if args.browse:
        raise UsageError("follow --subscribe: --browse has no meaning (the subscription's "
                         "managed queue holds only this reading's copies, and goes with it)")
    if not args.wait:
        raise UsageError("follow --subscribe: give --wait SECONDS (how long to go on "
                         "reading after the last publication, as amqsact -w)")
    chosen = {kind: [n for text in getattr(args, kind) for n in text.split(",") if n.strip()]
              for kind in ("appl", "channel", "conn_id")}
    given = [kind for kind, names in chosen.items() if names]
    if len(given) != 1:
        raise UsageError("follow --subscribe: give one of --appl NAME, --channel NAME or "
                         "--conn-id HEX (each repeatable; '#' for every one), as amqsact's "
                         "-a, -c or -i")
    kind = given[0]
    names = list(dict.fromkeys(n.strip() for n in chosen[kind]))

    def topics(qmgr: str) -> list:
        try:
            return [activity_trace_topic(qmgr, kind, name) for name in names]
        except ValueError as e:
            raise UsageError(f"follow --subscribe: {e}") from None

    for qmgr in args.qmgrs:
        topics(qmgr)  # a usage error before anything is read
    setattr(args, kind, [])
    return topics


def run(args: argparse.Namespace) -> int:
    """`mqroute follow`: print the journeys; the exit status of the contract."""
    args.qmgr = args.qmgrs[0] if args.qmgrs else ""  # the queue manager asked (live status)
    if not args.files:
        if args.qmgrs or live_requested(args):
            return run_live(args)
        raise UsageError("follow: give activity-trace files (dumps, raw messages), or -m QMGR "
                         "to read SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE live")
    if live_requested(args) or args.subscribe:
        raise UsageError("follow: --browse, --wait, --save and --subscribe read activity trace "
                         "live: give -m QMGR without files")
    msg_ids(args)  # a usage error before anything is read
    check_otlp(args)
    inputs = Inputs(args.files, Problems())
    records: list[Record] = []
    result = reconstruct(read_traces(inputs, records))
    journeys = _journeys(args, result, records, inputs.problems)
    print(_summary(journeys, result, records, skipped_text(inputs.skipped,
                                                             "activity trace data")),
          file=sys.stderr)
    for note in result.notes():
        print(printable(f"mqroute: note: {note}"), file=sys.stderr)
    inputs.problems.finish()
    return exit_status((j.verdict for j in journeys), unreadable=inputs.problems.count > 0)


def run_live(args: argparse.Namespace) -> int:
    """`mqroute follow -m QMGR...`: each queue manager's activity-trace queue, live."""
    msg_ids(args)
    check_otlp(args)
    if not args.qmgrs and not args.network:
        raise UsageError("follow: --browse, --wait and --save read the activity-trace queues "
                         "live: give -m QMGR")
    topics = _subscriptions(args) if args.subscribe else None
    problems = Problems()
    reader = TraceReader(problems)
    done: dict = {}

    def show(result: Reconstruction, records: list[Record]) -> None:
        done["result"] = result
        done["journeys"] = _journeys(args, result, records, problems)

    reader.show = show
    outcome = read_queues(args, list(dict.fromkeys(args.qmgrs)),
                          [] if topics else [TRACE_QUEUE], reader, topics=topics,
                          command="follow")
    result = done.get("result") or reconstruct(iter(()))
    journeys = done.get("journeys", [])
    print(printable(_summary(journeys, result, reader.records,
                             skipped_text(reader.skipped, "activity trace data"))
                    + outcome.summary(args)), file=sys.stderr)
    for note in result.notes():
        print(printable(f"mqroute: note: {note}"), file=sys.stderr)
    problems.finish()
    status = exit_status((j.verdict for j in journeys),
                         unreadable=problems.count > 0 or outcome.status != 0)
    return outcome.exit_status(status)
