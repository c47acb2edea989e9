"""`mqroute trace`: dspmqrte's job — generate, send, collect, order, display — done better.

Runs on a real queue manager (pymqi, the `mq` extra) or on a simulated network defined in
MQSC (`--mqsc FILE.mqsc...`, or `--network demo` for IBM's QM1/QM2 example network), or on
an estate folder (`--network DIR`, `mqroute sim init`) that lives between commands. When the
message stops waiting somewhere, the queue manager there is asked why (stderr; --json:
"live_status").
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence

from mqroute.errors import EXIT_TERMINATED, Terminated
from mqroute.estates import Admins, real_admins
from mqroute.livestatus import Explainer, destinations, stop_of_route
from mqroute.options import (
    add_connection,
    add_mqsc,
    add_msg_id,
    add_network,
    add_strict,
    connection_given,
    connection_of,
)
from mqroute.output import (
    OutputError,
    add_graph_option,
    add_verbosity,
    check_graph,
    draw_routes,
    output_written,
    parse_verbosity,
    print_route,
)
from mqroute.paths import output_path
from pcf.text import printable
from traceroute.display import branch_results, describe_location, route_to_dict
from traceroute.mq.archive import Archive, ArchiveError
from traceroute.mq.client import PymqiMissing
from traceroute.mq.collect import Collection, Source, collect, send_trace
from traceroute.mq.options import ConnectionOptionError
from traceroute.mq.transport import Transport, TransportError
from traceroute.records.tracemsg import DEFAULT_MODEL_QUEUE, TraceOptions
from traceroute.routes.ordering import Route
from traceroute.routes.verdict import Verdict

#: Exit statuses: what the trace found, for scripts.
EXIT_OK, EXIT_ERROR, EXIT_INCOMPLETE, EXIT_STUCK, EXIT_DEAD_LETTER, EXIT_DISCARDED = \
    0, 2, 3, 4, 5, 6
_EXIT_BY_VERDICT = {
    Verdict.DELIVERED: EXIT_OK, Verdict.DISCARDED_AT_TARGET: EXIT_OK,
    Verdict.WAITING_ON_XMITQ: EXIT_STUCK, Verdict.INCOMPLETE: EXIT_INCOMPLETE,
    Verdict.DEAD_LETTERED: EXIT_DEAD_LETTER, Verdict.MAX_ACTIVITIES: EXIT_DISCARDED,
    Verdict.NOT_FORWARDED: EXIT_DISCARDED, Verdict.EXPIRED: EXIT_DISCARDED,
    Verdict.DISCARDED: EXIT_DISCARDED,
}
#: Options that shape the message, as dspmqrte spells them -> TraceOptions.from_dspmqrte key.
_SHAPING = ("q", "qm", "ts", "o", "l", "p", "xs", "ro", "ac", "ar", "d", "f", "s", "xp", "t",
            "rq", "rqm")
_OWN = ("--network", "--mqsc", "--count", "--json", "--save", "--also", "--seed", "--latency",
        "--graph", "--user", "-u", "--cipher", "--channel", "--conname", "--ccdt",
        "--key-repository", "--cert-label", "--msg-id")
#: The longest -w, in seconds: MQGMO WaitInterval is an MQLONG of milliseconds.
MAX_WAIT = 2147483

#: The exit statuses, as --help and docs/commands/trace.md say them.
EXIT_STATUS = ("0 delivered (or discarded at the target, as a trace-route message with -d no "
               "is); 3 incomplete; 4 waiting on a transmission queue; 5 dead-lettered; 6 "
               "discarded (expired, not forwarded, MaxActivities); 2 usage, MQSC, connection or "
               "output error.")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute trace` and its dspmqrte-compatible options."""
    p = sub.add_parser("trace", allow_abbrev=False,
                       help="generate a trace-route message, collect and display its route",
                       description="dspmqrte's options with dspmqrte's meanings and defaults, "
                                   "plus --network/--mqsc, --count, --also, --save, --json.")
    p.add_argument("-q", dest="q", default="", help="target queue (or, with -i, the queue "
                                                    "holding the activity information)")
    p.add_argument("-qm", dest="qm", help="target queue manager")
    p.add_argument("-ts", dest="ts", help="target topic string (topic mode)")
    p.add_argument("-o", dest="o", action="store_true", help="open with MQOO_BIND_NOT_FIXED")
    p.add_argument("-l", dest="l", help="persistence: yes, no, q")
    p.add_argument("-p", dest="p", help="priority (>= 0, or -1 as the queue's default)")
    p.add_argument("-xs", dest="xs", help="expiry in seconds (default 60)")
    p.add_argument("-ro", dest="ro", help="report options: activity,coa,cod,exception,"
                                          "expiration,discard or none")
    p.add_argument("-ac", dest="ac", action="store_true", help="accumulate in the message")
    p.add_argument("-ar", dest="ar", action="store_true", help="ask for a trace-route reply")
    p.add_argument("-d", dest="d", help="deliver to the target: yes, no (default)")
    p.add_argument("-f", dest="f", help="forward: all, supported (default)")
    p.add_argument("-s", dest="s", help="maximum activities (default unlimited)")
    p.add_argument("-xp", dest="xp", help="pass expiry and discard to reports: yes, no")
    p.add_argument("-t", dest="t", help="detail: low, medium (default), high")
    p.add_argument("-rq", dest="rq", help="reply-to queue (default: a temporary dynamic "
                                          "queue)")
    p.add_argument("-rqm", dest="rqm", help="reply-to queue manager")
    p.add_argument("-n", dest="no_display", action="store_true",
                   help="do not wait or display: print the MsgId for a later -i")
    p.add_argument("-w", dest="wait", type=float, help="seconds to wait (default expiry+60)")
    add_msg_id(p, "-i", help="display earlier traces: the reports of this MsgId (their "
               "CorrelId), from the -q queue; repeatable")
    p.add_argument("-b", dest="browse", action="store_true", help="browse, do not get")
    add_verbosity(p, unset=True)
    add_network(p, help="run on a simulated estate: demo (IBM's QM1/QM2 example), MQSC "
                        "files (as --mqsc), or an estate folder (mqroute sim init), which "
                        "keeps the trace-route message where it stops")
    add_mqsc(p, help="run on a simulated network defined in these MQSC files (dmpmqcfg "
                     "output of each queue manager)")
    p.add_argument("--seed", type=int, default=None,
                   help="simulation seed: the same MsgIds every run (default: unique "
                        "MsgIds, as a queue manager makes them)")
    p.add_argument("--latency", type=float, default=0.05, help="simulated seconds per hop")
    add_strict(p)
    p.add_argument("--count", type=int, default=1, help="send N traces, then summarise "
                                                        "where they went")
    p.add_argument("--also", action="append", default=[], metavar="QMGR:QUEUE",
                   help="also collect from this queue (e.g. QM2:SYSTEM.ADMIN.ACTIVITY.QUEUE)")
    p.add_argument("--save", metavar="FILE", type=output_path,
                   help="append every report and reply collected to a dmpmqmsg dump (each "
                        "durable before its get is committed)")
    p.add_argument("--json", action="store_true", help="one JSON document per route")
    add_connection(p)
    add_graph_option(p)
    p.set_defaults(func=run)


def typed_options(argv: Sequence[str]) -> str:
    """The dspmqrte options as typed (ours left out), for the AMQ8653 line."""
    out: list[str] = []
    skip = False
    for word in argv:
        if skip and not word.startswith("-"):
            continue
        skip = word.split("=")[0] in _OWN
        if not skip:
            out.append(word)
    return " ".join(out)


def trace_options(args: argparse.Namespace) -> TraceOptions:
    """The TraceOptions the command line asks for."""
    given = {k: getattr(args, k) for k in _SHAPING}
    given = {k: v for k, v in given.items() if v not in (None, False, "")}
    return TraceOptions.from_dspmqrte(**given)


def simulated(args: argparse.Namespace) -> list[str]:
    """What --network and --mqsc name to simulate ([] for a real queue manager)."""
    return [*args.network, *args.mqsc]


def _connector(args: argparse.Namespace):
    """A function: queue manager name -> Transport to a real queue manager."""
    from dataclasses import replace

    from traceroute.mq.client import MQTransport

    base = replace(connection_of(args), qmgr="")

    def connect(name: str) -> Transport:
        return MQTransport.connect(replace(base, qmgr=name))

    return connect


def correl_id_of(text: str) -> bytes:
    """-i's CorrelId: up to 48 hex digits (24 bytes), padded with nulls as MQ pads it."""
    return bytes.fromhex(text).ljust(24, b"\0")


def _argument_problem(args: argparse.Namespace) -> str:
    """What is wrong with -i, -w, --count, --latency or --also ('' if nothing)."""
    for text in args.msg_id:
        if not text or len(text) > 48 or len(text) % 2 or \
                any(c not in "0123456789abcdefABCDEF" for c in text):
            return f"-i {text}: a CorrelId is up to 48 hex digits (24 bytes), an even number"
    if args.wait is not None and not 0 <= args.wait <= MAX_WAIT:
        return (f"-w {args.wait:g}: seconds to wait are 0 to {MAX_WAIT} (MQ's longest wait, "
                "2147483647 ms)")
    if args.count < 1:
        return f"--count {args.count}: send at least 1 trace"
    if not args.latency >= 0:
        return f"--latency {args.latency:g}: simulated seconds per hop are 0 or more"
    for spec in args.also:
        if not spec.partition(":")[2].strip():
            return (f"--also {spec}: give QMGR:QUEUE (or :QUEUE for the queue manager "
                    "connected to); the queue is missing")
    return ""


def result_line(route: Route) -> str:
    """The verdict and last known location after a route's dspmqrte lines, as `show` heads
    its routes: 'Result: waiting on a transmission queue ...; last known location: ...'
    (for a fan-out, its worst branch's; `branch_results` gives each)."""
    return (f"Result: {route.outcome.text}; last known location: "
            f"{describe_location(route.location)}")


def distribution(routes: list[Route]) -> list[str]:
    """--count's summary: where the traces ended (by queue manager) and how (by verdict)."""
    where = Counter(r.location.queue_manager or "?" for r in routes)
    how = Counter(r.verdict.value for r in routes)
    return ["Distribution: " + ", ".join(f"{q}: {n}" for q, n in sorted(where.items())),
            "Verdicts: " + ", ".join(f"{v}: {n}" for v, n in sorted(how.items()))]


def exit_status(routes: list[Route]) -> int:
    """The worst outcome among the routes, as an exit status."""
    if not routes:
        return EXIT_INCOMPLETE
    return max(_EXIT_BY_VERDICT[r.verdict] for r in routes)


def run(args: argparse.Namespace) -> int:
    """`mqroute trace`."""
    parse_verbosity(args.v or ["summary"])  # a usage error before anything else
    check_graph(args)  # before anything is put
    try:
        options = None if args.msg_id else trace_options(args)
    except ValueError as e:
        _error(f"mqroute: trace: {e}")
        return EXIT_ERROR
    problem = _argument_problem(args)
    if problem:
        _error(f"mqroute: trace: {problem}")
        return EXIT_ERROR
    if args.no_display and options and not options.reply_to_q:
        _error("mqroute: trace: -n needs a named reply-to queue (-rq): a temporary dynamic "
              "queue is deleted, with the reports, when the command ends")
        return EXIT_ERROR
    if not args.q and not (options and options.target_topic):
        _error("mqroute: trace: -q (or -ts) is required")
        return EXIT_ERROR
    if simulated(args):
        refused = connection_given(args)
        if refused:
            _error(f"mqroute: trace: {', '.join(refused)}: no meaning with --network (a "
                  "simulated network has no connections to configure)")
            return EXIT_ERROR
        from mqroute.estates import simulated_admins, simulated_events, simulation
        from traceroute.mq.transport import SimTransport

        with simulation(simulated(args), seed=args.seed, latency=args.latency,
                        strict=args.strict) as live:
            folder = live.estate is not None  # a quiet estate has nothing more to come

            def connect(name: str) -> Transport:
                return SimTransport(live.sim, name or live.first, quiet_ends_wait=folder)

            admins = simulated_admins(live)
            try:
                return _trace(args, options, connect, admins,
                              events=lambda: simulated_events(live.sim))
            finally:
                admins.close()
    try:
        connect = _connector(args)
        admins = real_admins(args)
    except ConnectionOptionError as e:
        _error(f"mqroute: trace: {e}")
        return EXIT_ERROR
    try:
        return _trace(args, options, connect, admins)
    finally:
        admins.close()


def _trace(args: argparse.Namespace, options: TraceOptions | None, connect,
           admins: Admins | None = None, events=None) -> int:
    """Send, collect, display: the trace itself, on a connected estate (`events`: the
    simulated estate's event messages, which explain where a route stopped)."""
    level, display = parse_verbosity(args.v or ["summary"])
    argv = getattr(args, "argv", [])
    say = (lambda text: None) if args.json or level == "none" \
        else (lambda text: print(printable(text)))
    try:
        archive = Archive(args.save) if args.save and not args.no_display else None
    except ArchiveError as e:
        _error(f"mqroute: trace: {e}")
        return EXIT_ERROR
    transports: list[Transport] = []
    try:
        main = connect(args.qmgr)
        transports.append(main)
        say(f"AMQ8653: DSPMQRTE command started with options '{typed_options(argv)}'.")
        extra = []
        for spec in args.also:
            qmgr, _, queue = spec.partition(":")
            t = connect(qmgr) if qmgr and qmgr != main.qmgr_name else main
            if t is not main:
                transports.append(t)
            extra.append(Source(t, queue))
        if args.msg_id:
            ids = [correl_id_of(text) for text in args.msg_id]
            sources = [Source(main, args.q), *extra]
            wait = args.wait if args.wait is not None else 60.0
        else:
            reply_q = main.open_reply_queue(options.reply_to_q or DEFAULT_MODEL_QUEUE)
            ids = []
            for _ in range(args.count):
                sent = send_trace(main, options, reply_q=reply_q)
                ids.append(sent.msg_id)
                if options.target_topic:  # topic mode: published
                    say(f"AMQ8659: DSPMQRTE command successfully put a message on topic "
                        f"string '{options.target_topic}', queue manager '{sent.qmgr}'.")
                else:
                    say(f"AMQ8659: DSPMQRTE command successfully put a message on queue "
                        f"'{sent.resolved_queue}', queue manager '{sent.qmgr}'.")
            if args.no_display:
                for msg_id in ids:
                    print(msg_id.hex().upper())
                return EXIT_OK
            sources = [Source(main, reply_q), *extra]
            wait = args.wait if args.wait is not None else options.expiry + 60.0
        say("AMQ8674: DSPMQRTE command is now waiting for information to display.")

        why = Explainer(admins, stop_of_route, lambda text: _error(f"mqroute: trace: {text}"))
        subscribers = destinations(admins, lambda text: _error(f"mqroute: trace: {text}"))

        def show_route(route: Route) -> None:
            # where it waits (each stuck branch of a fan-out), explained by what is true now
            found = [live for leaf in route.leaves if (live := why(leaf)) is not None]
            if args.json and found:
                document = route_to_dict(route, parameters=typed_options(argv))
                document["live_status"] = [s for _, statuses in found for s in statuses]
                print(json.dumps(document))
            else:
                print_route(route, as_json=args.json, level=level, options=display,
                            heading=False, parameters=typed_options(argv))
                say(result_line(route))
                for line in branch_results(route):
                    say(line)
            for live in found:  # on stderr: standard output stays dspmqrte's
                output_written()
                _error(f"mqroute: trace: now: {live[0]}")
            if events is not None:  # the simulated queue managers' events say why
                from traceroute.events.explain import explain_place, place_of_route

                for why_event in explain_place(place_of_route(route), events()):
                    output_written()
                    _error(f"mqroute: trace: event: {why_event.text}")

        routes: list[Route] = []
        many = args.count > 1 and not args.msg_id  # --count: the distribution first
        every = not many or args.json or args.v is not None  # -v asks for every route
        for msg_id in ids:
            found: Collection = collect(sources, msg_id, wait=wait, browse=args.browse,
                                        keep=archive.keep if archive else None,
                                        destinations=subscribers)
            for problem in found.problems:
                _error(f"mqroute: trace: {problem}")
            built = found.routes  # ordered once: every rebuild is a pass over all records
            routes += built
            if many and archive is None:
                continue  # committed once the distribution is displayed
            if not many:
                for route in built:
                    show_route(route)
            if archive is None:
                output_written()  # displayed means written, before the gets become final
            for t in transports:
                t.commit()  # displayed (or archived): the gets are final
        if many:
            if not args.json:
                for line in distribution(routes):
                    print(printable(line))
            if every:
                for route in routes:
                    show_route(route)
            if archive is None:
                output_written()
                for t in transports:
                    t.commit()
        draw_routes(args, routes)
        say("AMQ8652: DSPMQRTE command has finished.")
        return exit_status(routes)
    except (TransportError, PymqiMissing) as e:
        _error(f"mqroute: trace: {e}")
        return EXIT_ERROR
    except OutputError as e:
        _back_out(transports)
        _error(f"mqroute: trace: the output cannot be written ({e}): the reports are backed "
              "out and stay on their queues")
        return EXIT_ERROR
    except ArchiveError as e:
        _back_out(transports)
        _error(f"mqroute: trace: {e}: the report that could not be saved is backed out and "
              f"stays on its queue, as does everything collected but not saved; "
              f"{archive.saved if archive else 0} report(s) saved before it are in the dump")
        return EXIT_ERROR
    except KeyboardInterrupt as e:
        if isinstance(e, Terminated):
            _error("mqroute: trace: terminated (SIGTERM); what was not saved or displayed is "
                   "backed out and stays on its queue")
            return EXIT_TERMINATED
        _error("mqroute: trace: interrupted; what was not saved or displayed is backed out "
              "and stays on its queue")
        return 130
    finally:
        _close_all(transports)
        if archive:
            archive.close()


def _error(text: str) -> None:
    """One line on standard error, whatever names or file names it holds."""
    print(printable(text), file=sys.stderr)


def _on_each(transports: list[Transport], doing: str, action: str) -> None:
    """Call `action` (backout, close) on every transport, even if one fails (said once)."""
    for t in transports:
        try:
            getattr(t, action)()
        except (TransportError, OSError) as e:
            _error(f"mqroute: trace: {doing} {t.qmgr_name}: {e}")


def _back_out(transports: list[Transport]) -> None:
    """Back out every transport's uncommitted gets now (close would, too: say it early)."""
    _on_each(transports, "backing out on", "backout")


def _close_all(transports: list[Transport]) -> None:
    """Close every transport (each backs out what is uncommitted), even if one fails."""
    _on_each(transports, "closing", "close")
