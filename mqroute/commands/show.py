"""`mqroute show`: every route found in dumps or raw message files, as dspmqrte shows it."""

from __future__ import annotations

import argparse
import sys

from mqroute.output import add_graph_option, draw_routes, print_routes
from traceroute.readers import load_records
from traceroute.routes import build_routes


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute show`."""
    show = sub.add_parser("show", help="order activity reports and trace-route replies into "
                                       "routes and display them as dspmqrte does")
    show.add_argument("files", nargs="+", metavar="FILE",
                      help="dmpmqmsg dumps (e.g. of SYSTEM.ADMIN.ACTIVITY.QUEUE or a reply "
                           "queue) or raw message files")
    show.add_argument("--correl-id", "-i", metavar="HEX",
                      help="only the message with this MsgId (48 hex digits)")
    show.add_argument("-v", nargs="+", default=["summary"], metavar="LEVEL",
                      help="summary (default), outline [activity,identifiers,message,msgdelta,"
                           "operation,traceroute], all or none")
    show.add_argument("--json", action="store_true", help="one JSON document per route")
    add_graph_option(show)
    show.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """`mqroute show`: every route found in dumps or raw message files."""
    problems = 0

    def problem(where: str, what: str) -> None:
        nonlocal problems
        problems += 1
        print(f"mqroute: {where}: {what}", file=sys.stderr)

    records = load_records(args.files, problem)
    if args.correl_id:
        try:
            wanted = bytes.fromhex(args.correl_id)
        except ValueError:
            raise SystemExit(f"mqroute: --correl-id {args.correl_id}: not hex") from None
        records = (r for r in records if r.key == wanted)
    routes = build_routes(records)
    shown = print_routes(routes, as_json=args.json, verbosity=args.v)
    draw_routes(args, routes)
    if not shown:
        print("mqroute: no activity data found", file=sys.stderr)
    return 1 if problems or not shown else 0
