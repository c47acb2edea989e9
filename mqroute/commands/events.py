"""`mqroute events`: MQ event messages decoded, amqsevt JSON read back, what-if replay.

    mqroute events FILE... [--json] [--reason NAME]...     event queues (dumps, raw files)
    mqroute events -m QMGR [--queue NAME]... [--browse] [--wait SECONDS] [--save FILE]
                                                             the event queues, live (amqsevt)
    mqroute events --from-json FILE... [--json]              amqsevt -o json / json_compact
    mqroute events FILE... --text [--constants]               amqsevt -o text (-d)
    mqroute events replay --mqsc F.mqsc... --ops OPS.csv [--json]

Exit status: 0 ok, 1 some input unreadable (the rest still processed), 2 usage or fatal.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys

from mqroute.errors import FatalError, Problems, UsageError
from mqroute.eventinputs import read_event_files, read_event_json, split_json
from mqroute.inputs import Inputs, add_inputs, load_mqsc, located, read_text, skipped_text
from mqroute.live import (
    EVENT_QUEUES,
    OPTIONAL_EVENT,
    add_live_options,
    live_requested,
    read_queues,
)
from mqroute.options import (
    Filters,
    add_connection,
    add_filters,
    add_mqsc,
    add_network,
    add_strict,
    several,
)
from mqroute.paths import input_path
from pcf import mqc
from pcf.errors import InputError, PCFError
from pcf.mqmd import MQMD
from pcf.text import printable
from traceroute.display.amqsevt import dumps, event_line, reason_from_name, text, to_json
from traceroute.events import Event, NotEventData, decode_event
from traceroute.events.build import perf_event
from traceroute.events.engine import Failure, PerfEvent
from traceroute.events.replay import Estate, OpError, parse_ops, replay
from traceroute.readers import source_name

#: MQRC names of the failures replay reports.
FAILURE_NAMES = {mqc.MQRC_Q_FULL: "MQRC_Q_FULL",
                 mqc.MQRC_NO_MSG_AVAILABLE: "MQRC_NO_MSG_AVAILABLE",
                 mqc.MQRC_UNKNOWN_OBJECT_NAME: "MQRC_UNKNOWN_OBJECT_NAME"}

#: The exit statuses, as --help and docs/commands/events.md say them.
EXIT_STATUS = ("0 ok (messages of other kinds counted; replay: failed puts and gets reported, "
               "still 0); 1 an input, a JSON event, a dump line or an OPS.csv line unreadable, "
               "or (-m) a queue that cannot be read; 2 usage, replay's MQSC or OPS.csv "
               "unreadable, or (-m) no queue manager, no connection, the dump or output not "
               "writable; 130 (-m) interrupted, after what was read was printed.")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute events`."""
    p = sub.add_parser(
        "events", help="MQ event messages (queue manager, channel, performance, "
        "configuration, command, logger) as lines or amqsevt JSON, from files or live from "
        "the event queues; `events replay` simulates performance events",
        description="Read event queues (dmpmqmsg dumps or raw files), amqsevt JSON "
        "(--from-json), the event queues of a queue manager live as amqsevt does (-m QMGR: "
        "without --queue, SYSTEM.ADMIN.QMGR/CHANNEL/PERFM/CONFIG/COMMAND/LOGGER.EVENT and "
        "SYSTEM.ADMIN.PUBSUB.EVENT where it exists; with -m, --queue names the queues to "
        "read), or replay operations: `mqroute events replay --mqsc F.mqsc... "
        "--ops OPS.csv [--json]` (OPS.csv: time_ms,qmgr,queue,op[,count]; op PUT, GET, "
        "RESET_STATS, RESTART).")
    add_inputs(p, "dmpmqmsg dumps or raw event messages; or the word `replay`", nargs="*",
               json_help="one amqsevt-shaped JSON object per event (JSON Lines)")
    p.add_argument("--pretty", action="store_true",
                   help="with --json: amqsevt -o json's indented layout")
    p.add_argument("--text", action="store_true",
                   help="amqsevt -o text: each event as amqsevt prints it (its header, then "
                        "one 'Label : value' line per parameter)")
    p.add_argument("--constants", action="store_true",
                   help="with --text: MQ's constant names, as amqsevt -d prints them")
    p.add_argument("--reason", action="append", default=[], metavar="NAME",
                   help="only events with this reason (MQRC_Q_FULL, 2053, 'Queue Full'); "
                        "repeatable")
    several(p, "--from-json", dest="from_json", files=True, metavar="FILE",
            help="read amqsevt -o json / json_compact output (- reads standard input; "
                 "repeatable)")
    add_mqsc(p, help="replay: the queue managers' MQSC (PERFMEV, QDPHIEV, QSVCINT ...)")
    add_strict(p)
    add_filters(p)
    p.add_argument("--ops", metavar="FILE", type=input_path, help="replay: OPS.csv")
    add_live_options(p, reads="the event queues")
    add_network(p, help="with -m: the estate folder (mqroute sim init) whose queue manager's "
                        "event queues are read")
    add_connection(p, channel_flag="--client-channel")
    p.set_defaults(func=run)


def kept(event: Event, filters: Filters) -> bool:
    """Whether an event passes --queue/--channel/--conn-id/--appl/--since/--until: the
    object it names (queue, channel), the application and connection in its event data."""
    if not filters.active:
        return True

    def text(parameter: int) -> str | None:
        value = event.get(parameter)
        return value.strip() if isinstance(value, str) else None

    conn = event.get(mqc.MQBACF_CONNECTION_ID)
    return filters.names(
        queues=[text(mqc.MQCA_BASE_OBJECT_NAME), text(mqc.MQCA_Q_NAME),
                text(mqc.MQCACF_OBJECT_NAME)],
        channels=[text(mqc.MQCACH_CHANNEL_NAME)],
        appl=text(mqc.MQCACF_APPL_NAME) or text(mqc.MQCACF_EVENT_APPL_NAME),
        conn_id=conn if isinstance(conn, bytes) else None) and filters.time(event.time)


def _print(event: Event, args: argparse.Namespace) -> None:
    if args.text:
        print(text(event, constants=args.constants))
        print()
    elif args.json:
        print(dumps(event) if args.pretty else json.dumps(to_json(event), ensure_ascii=False))
    else:
        print(event_line(event))


class EventPrinter:
    """Prints the events that pass --reason and the filters, read from files or live (a
    `traceroute.mq.live.Consumer`: nothing is held)."""

    def __init__(self, args: argparse.Namespace, reasons: set[int], filters: Filters,
                 problems: Problems) -> None:
        self.args = args
        self.reasons = reasons
        self.filters = filters
        self.problems = problems
        self.shown = 0
        self.skipped = 0

    def show(self, event: Event) -> None:
        """Print one event if it passes."""
        if (self.reasons and event.reason not in self.reasons) or not kept(event, self.filters):
            return
        self.shown += 1
        _print(event, self.args)

    def take(self, source: str, md: MQMD, data: bytes) -> None:
        """One message read live."""
        where = f"{source} message {md.msg_id.hex().upper()}"
        try:
            event = decode_event(data, md, where=where)
        except NotEventData:
            self.skipped += 1
            return
        except PCFError as e:
            self.problems(where, str(e))
            return
        self.show(event)

    def holding(self) -> bool:
        """Nothing is held: each event is printed as it comes."""
        return False

    def finish(self) -> None:
        """Nothing is held."""


def _reasons(args: argparse.Namespace) -> set[int]:
    reasons = set()
    for name in args.reason:
        value = reason_from_name(name)
        if value is None:
            raise _usage(f"--reason {name}: not an MQRC name, number or amqsevt reason name")
        reasons.add(value)
    return reasons


def run(args: argparse.Namespace) -> int:
    """`mqroute events`: 0 ok, 1 some input unreadable, 2 usage."""
    if args.files[:1] == ["replay"]:
        return run_replay(args)
    if args.mqsc or args.ops:
        raise _usage("--mqsc and --ops go with `mqroute events replay`")
    if args.text and args.json:
        raise _usage("--text and --json are two forms: give one")
    if args.constants and not args.text:
        raise _usage("--constants goes with --text")
    if args.qmgr or live_requested(args) or args.network:
        return run_live(args)
    if not args.files and not args.from_json:
        raise _usage("give event files (dumps, raw messages), --from-json FILE, or -m QMGR "
                     "to read the event queues live")
    reasons = _reasons(args)
    filters = Filters.from_args(args)
    problems = Problems()
    files, jsons = split_json(args.files, problems)  # amqsevt JSON given as FILE is read too
    inputs = Inputs(files, problems)
    printer = EventPrinter(args, reasons, filters, problems)
    sources = [read_event_files(inputs), read_event_json([*jsons, *args.from_json], problems)]
    for events in sources:
        for event in events:
            printer.show(event)
    print(inputs.summary(f"{printer.shown} events", "event data"), file=sys.stderr)
    return inputs.problems.status()


def run_live(args: argparse.Namespace) -> int:
    """`mqroute events -m QMGR`: the event queues read as they fill (amqsevt)."""
    from dataclasses import replace

    if args.files or args.from_json:
        raise _usage("give event files or -m QMGR (a live read), not both")
    if not args.qmgr and not args.network:
        raise _usage("--browse, --wait and --save read the event queues live: give -m QMGR")
    reasons = _reasons(args)
    filters = replace(Filters.from_args(args), queues=[])  # with -m, --queue: what to read
    problems = Problems()
    printer = EventPrinter(args, reasons, filters, problems)
    queues = list(dict.fromkeys(args.queue)) or list(EVENT_QUEUES)
    outcome = read_queues(args, [args.qmgr] if args.qmgr else [], queues, printer,
                          optional=() if args.queue else OPTIONAL_EVENT, command="events")
    print(printable(f"mqroute: {printer.shown} events"
                    f"{skipped_text(printer.skipped, 'event data')}{outcome.summary(args)}"),
          file=sys.stderr)
    return outcome.exit_status(problems.status())


def _usage(text: str) -> UsageError:
    return UsageError(f"events: {text}")


def run_replay(args: argparse.Namespace) -> int:
    """`mqroute events replay`: the performance events the queue managers would raise."""
    if len(args.files) > 1 or args.from_json or args.reason:
        raise _usage("replay takes only --mqsc FILE... --ops OPS.csv [--json]")
    if not args.mqsc or not args.ops:
        raise _usage("replay needs --mqsc FILE.mqsc... and --ops OPS.csv")
    network = load_mqsc(args.mqsc, strict=args.strict)
    ops_name = source_name(args.ops)
    try:
        text = read_text(args.ops, what="OPS.csv")
    except InputError as e:
        raise FatalError(located(e)) from None
    problem = Problems()
    ops, line = [], 1
    try:
        for item in parse_ops(text.splitlines()):
            line = item.line
            if isinstance(item, OpError):
                if item.line == 1:
                    raise FatalError(f"{ops_name}:1: {item.reason}")
                problem(f"{ops_name}:{item.line}", item.reason)
            elif item.qmgr not in network.qmgrs:
                problem(f"{ops_name}:{item.line}", f"queue manager {item.qmgr} is not in the "
                        f"MQSC (it has {', '.join(sorted(network.qmgrs)) or 'none'}; a "
                        "file's queue manager is named by its file name)")
            else:
                ops.append(item)
    except csv.Error as e:
        raise FatalError(f"{ops_name}: after line {line}: not CSV ({e})") from None
    estate = Estate.from_network(network)
    events = 0
    failures = FailureRuns(ops_name)
    for op, outcome in replay(estate, ops):
        if isinstance(outcome, Failure):
            failures.add(op, outcome)
            continue
        failures.flush()
        assert isinstance(outcome, PerfEvent)
        events += 1
        event = perf_event(outcome)
        if args.json:
            print(json.dumps(to_json(event)))
        else:
            lost = " (lost: event queue unavailable)" if outcome.lost else ""
            print(printable(
                f"{outcome.time_ms:>10} ms  {outcome.qmgr} {outcome.queue}: "
                f"{outcome.name}{lost}  timeSinceReset={outcome.time_since_reset} "
                f"highQueueDepth={outcome.high_q_depth} msgEnqCount={outcome.msg_enq_count} "
                f"msgDeqCount={outcome.msg_deq_count}"))
    failures.flush()
    print(f"mqroute: {events} performance events from {len(ops)} operations",
          file=sys.stderr)
    return problem.status()


class FailureRuns:
    """Failed operations said once per run of alike failures (same operation, queue
    manager, queue and reason, one after the other), with how many and over which lines
    and times: a failure repeated a million times is one line."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.key: tuple | None = None
        self.lines = (0, 0)
        self.times = (0, 0)
        self.count = 0

    def add(self, op, failure: Failure) -> None:
        """Count one (or `failure.count`) failed operations."""
        key = (op.op, failure.qmgr, failure.queue, failure.reason)
        if key != self.key:
            self.flush()
            self.key, self.lines, self.times = key, (op.line, op.line), \
                (failure.time_ms, failure.time_ms)
        self.lines = (self.lines[0], op.line)
        self.times = (self.times[0], failure.time_ms)
        self.count += failure.count

    def flush(self) -> None:
        """Say the run so far (if any)."""
        if self.key is None:
            return
        what, qmgr, queue, reason = self.key
        name = FAILURE_NAMES.get(reason, str(reason))
        lines = f"{self.lines[0]}" if self.lines[0] == self.lines[1] \
            else f"{self.lines[0]}-{self.lines[1]}"
        times = f"{self.times[0]}" if self.times[0] == self.times[1] \
            else f"{self.times[0]}-{self.times[1]}"
        many = f" ({self.count:,} times)" if self.count > 1 else ""
        print(printable(f"mqroute: {self.source}:{lines}: {what} {qmgr} {queue} at {times} "
                        f"ms failed: {name}{many}"), file=sys.stderr)
        self.key, self.count = None, 0
