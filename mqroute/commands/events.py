"""`mqroute events`: MQ event messages decoded, amqsevt JSON read back, what-if replay.

    mqroute events FILE... [--json] [--reason NAME]...     event queues (dumps, raw files)
    mqroute events --from-json FILE... [--json]              amqsevt -o json / json_compact
    mqroute events replay --mqsc F.mqsc... --ops OPS.csv [--json]

Exit status: 0 ok, 1 some input unreadable (the rest still processed), 2 usage or fatal.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Iterator

from mqroute.errors import FatalError, Problems, UsageError
from mqroute.inputs import Inputs, add_inputs, load_mqsc, located, read_text
from pcf import mqc
from pcf.errors import InputError
from traceroute.display.amqsevt import dumps, event_line, iter_json, reason_from_name, to_json
from traceroute.events import Event, NotEventData, decode_event
from traceroute.events.build import perf_event
from traceroute.events.engine import Failure, PerfEvent
from traceroute.events.replay import Estate, OpError, parse_ops, replay
from traceroute.readers import source_name

#: MQRC names of the failures replay reports.
FAILURE_NAMES = {mqc.MQRC_Q_FULL: "MQRC_Q_FULL",
                 mqc.MQRC_NO_MSG_AVAILABLE: "MQRC_NO_MSG_AVAILABLE",
                 mqc.MQRC_UNKNOWN_OBJECT_NAME: "MQRC_UNKNOWN_OBJECT_NAME"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute events`."""
    p = sub.add_parser(
        "events", help="MQ event messages (queue manager, channel, performance, "
        "configuration, command, logger) as lines or amqsevt JSON; `events replay` "
        "simulates performance events",
        description="Read event queues (dmpmqmsg dumps or raw files), amqsevt JSON "
        "(--from-json), or replay operations: `mqroute events replay --mqsc F.mqsc... "
        "--ops OPS.csv [--json]` (OPS.csv: time_ms,qmgr,queue,op[,count]; op PUT, GET, "
        "RESET_STATS, RESTART).")
    add_inputs(p, "dmpmqmsg dumps or raw event messages; or the word `replay`", nargs="*",
               json_help="one amqsevt-shaped JSON object per event (JSON Lines)")
    p.add_argument("--pretty", action="store_true",
                   help="with --json: amqsevt -o json's indented layout")
    p.add_argument("--reason", action="append", default=[], metavar="NAME",
                   help="only events with this reason (MQRC_Q_FULL, 2053, 'Queue Full'); "
                        "repeatable")
    p.add_argument("--from-json", action="extend", nargs="+", default=[], metavar="FILE",
                   help="read amqsevt -o json / json_compact output (- reads standard "
                        "input; repeatable)")
    p.add_argument("--mqsc", nargs="+", default=[], metavar="FILE",
                   help="replay: the queue managers' MQSC (PERFMEV, QDPHIEV, QSVCINT ...)")
    p.add_argument("--ops", metavar="FILE", help="replay: OPS.csv")
    p.set_defaults(func=run)


def _read_files(inputs: Inputs) -> Iterator[Event]:
    """Every event message of the inputs; other messages counted as skipped."""
    return inputs.decoded(lambda item: decode_event(item.data, item.md, where=item.place),
                          skip=(NotEventData,))


def _read_json(files: list[str], problems: Problems) -> Iterator[Event]:
    for path in files:
        try:
            text = read_text(path, what="amqsevt JSON")
        except InputError as e:
            problems.error(e)
            continue
        source = source_name(path)
        for item in iter_json(text, source=source):
            if item.event is None:
                problems(f"{source}:{item.line}", item.error or "unreadable")
            else:
                yield item.event


def _print(event: Event, args: argparse.Namespace) -> None:
    if args.json:
        print(dumps(event) if args.pretty else json.dumps(to_json(event), ensure_ascii=False))
    else:
        print(event_line(event))


def run(args: argparse.Namespace) -> int:
    """`mqroute events`: 0 ok, 1 some input unreadable, 2 usage."""
    if args.files[:1] == ["replay"]:
        return run_replay(args)
    if args.mqsc or args.ops:
        raise _usage("--mqsc and --ops go with `mqroute events replay`")
    if not args.files and not args.from_json:
        raise _usage("give event files (dumps, raw messages) or --from-json FILE")
    reasons = set()
    for name in args.reason:
        value = reason_from_name(name)
        if value is None:
            raise _usage(f"--reason {name}: not an MQRC name, number or amqsevt reason name")
        reasons.add(value)
    problems, shown = Problems(), 0
    files, jsons = split_json(args.files, problems)  # amqsevt JSON given as FILE is read too
    inputs = Inputs(files, problems)
    sources = [_read_files(inputs), _read_json([*jsons, *args.from_json], problems)]
    for events in sources:
        for event in events:
            if reasons and event.reason not in reasons:
                continue
            shown += 1
            _print(event, args)
    print(inputs.summary(f"{shown} events"), file=sys.stderr)
    return inputs.problems.status()


def _usage(text: str) -> UsageError:
    return UsageError(f"events: {text}")


def run_replay(args: argparse.Namespace) -> int:
    """`mqroute events replay`: the performance events the queue managers would raise."""
    if len(args.files) > 1 or args.from_json or args.reason:
        raise _usage("replay takes only --mqsc FILE... --ops OPS.csv [--json]")
    if not args.mqsc or not args.ops:
        raise _usage("replay needs --mqsc FILE.mqsc... and --ops OPS.csv")
    network = load_mqsc(args.mqsc)
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
    for op, outcome in replay(estate, ops):
        if isinstance(outcome, Failure):
            name = FAILURE_NAMES.get(outcome.reason, str(outcome.reason))
            print(f"mqroute: {ops_name}:{op.line}: {op.op} {outcome.qmgr} {outcome.queue} "
                  f"at {outcome.time_ms} ms failed: {name}", file=sys.stderr)
            continue
        assert isinstance(outcome, PerfEvent)
        events += 1
        event = perf_event(outcome)
        if args.json:
            print(json.dumps(to_json(event)))
        else:
            lost = " (lost: event queue unavailable)" if outcome.lost else ""
            print(f"{outcome.time_ms:>10} ms  {outcome.qmgr} {outcome.queue}: "
                  f"{outcome.name}{lost}  timeSinceReset={outcome.time_since_reset} "
                  f"highQueueDepth={outcome.high_q_depth} msgEnqCount={outcome.msg_enq_count} "
                  f"msgDeqCount={outcome.msg_deq_count}")
    print(f"mqroute: {events} performance events from {len(ops)} operations",
          file=sys.stderr)
    return problem.status()


# --- events explain routes and journeys (`show --events`, `follow --events`) -------------

def add_events_option(parser: argparse.ArgumentParser) -> None:
    """`--events FILE...`: event queues (dumps, raw messages) or amqsevt JSON files whose
    events explain where messages stopped."""
    parser.add_argument("--events", nargs="+", default=[], metavar="FILE",
                        help="event messages (dmpmqmsg dumps, raw files) or amqsevt JSON "
                             "that explain where messages stopped (channel stopped, queue "
                             "full, service interval high ...)")


def split_json(paths: list[str], problems: Problems) -> tuple[list[str], list[str]]:
    """(dumps and raw files, amqsevt JSON files): JSON is text starting with {, [ or #;
    `-` counts as a dump (standard input is read once)."""
    dumps_, jsons = [], []
    for path in paths:
        if path == "-":
            dumps_.append(path)
            continue
        try:
            with open(path, "rb") as f:
                head = f.read(4096).lstrip()
        except OSError as e:
            problems(path, e.strerror or str(e))
            continue
        (jsons if head[:1] in (b"{", b"#", b"[") else dumps_).append(path)
    return dumps_, jsons


def read_any_events(paths: list[str], problems: Problems) -> list[Event]:
    """Events from dumps/raw files, or from amqsevt JSON (files whose text starts with {)."""
    dumps_, jsons = split_json(paths, problems)
    return [*_read_files(Inputs(dumps_, problems)), *_read_json(jsons, problems)]


def print_explanations(args: argparse.Namespace, *, routes=(), journeys=(),
                       problem=None) -> int:
    """Print the events that explain each route/journey (text: stdout; --json: stderr);
    how many explanations were printed."""
    if not getattr(args, "events", None):
        return 0
    from traceroute.events.explain import explain_journeys, explain_routes

    problem = problem or Problems()
    events = read_any_events(args.events, problem)
    pairs = [(r.correl_id, why) for r, why in explain_routes(list(routes), events)]
    pairs += [(j.msg_id, why) for j, why in explain_journeys(list(journeys), events)]
    out = sys.stderr if getattr(args, "json", False) else sys.stdout
    shown = 0
    for msg_id, why in pairs:
        for w in why:
            when = w.event.time.strftime("%Y-%m-%dT%H:%M:%SZ") if w.event.time else "-"
            print(f"event {msg_id.hex().upper()}: {when} {w.text}", file=out)
            shown += 1
    print(f"mqroute: {len(events)} events read; {shown} explain where messages stopped",
          file=sys.stderr)
    return shown
