"""`mqroute show`: every route found in dumps or raw message files, as dspmqrte shows it."""

from __future__ import annotations

import argparse
import sys

from mqroute.errors import Problems, UsageError
from mqroute.eventinputs import add_events_option, print_explanations
from mqroute.inputs import Inputs, add_inputs
from mqroute.otlp import add_otlp_options, export
from mqroute.output import add_graph_option, draw_routes, parse_verbosity, print_routes
from traceroute.readers import InputMessage
from traceroute.records import NotActivityData, Record, parse_message
from traceroute.routes import build_routes


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute show`."""
    show = sub.add_parser("show", help="order activity reports and trace-route replies into "
                                       "routes and display them as dspmqrte does")
    add_inputs(show, "dmpmqmsg dumps (e.g. of SYSTEM.ADMIN.ACTIVITY.QUEUE or a reply queue) "
               "or raw message files", json_help="one JSON document per route")
    show.add_argument("--correl-id", "-i", metavar="HEX",
                      help="only the message with this MsgId (48 hex digits)")
    show.add_argument("-v", nargs="+", default=["summary"], metavar="LEVEL",
                      help="summary (default), outline [activity,identifiers,message,msgdelta,"
                           "operation,traceroute], all or none")
    add_graph_option(show)
    add_otlp_options(show)
    add_events_option(show)
    show.set_defaults(func=run)


def _record(item: InputMessage, problems: Problems) -> Record | None:
    """The activity record of a message; one of another kind is reported as skipped."""
    try:
        return parse_message(item.md, item.data, source=item.source, line=item.line)
    except NotActivityData as e:
        problems(item.place, f"skipped: {e}")
        return None


def run(args: argparse.Namespace) -> int:
    """`mqroute show`: every route found in dumps or raw message files; 0 ok, 1 some input
    unreadable or no activity data at all."""
    parse_verbosity(args.v)  # a usage error before any input is read
    problems = Problems()
    wanted = None
    if args.correl_id:
        try:
            wanted = bytes.fromhex(args.correl_id)
        except ValueError:
            raise UsageError(f"--correl-id {args.correl_id}: not hex") from None
    records = Inputs(args.files, problems).decoded(
        lambda item: _record(item, problems))
    if wanted is not None:
        records = (r for r in records if r.key == wanted)
    routes = build_routes(records)
    shown = print_routes(routes, as_json=args.json, verbosity=args.v)
    draw_routes(args, routes)
    export(args, routes)
    print_explanations(args, routes=routes, problem=problems)
    status = problems.status()
    if not shown:
        print("mqroute: no activity data found", file=sys.stderr)
        return 1
    return status
