"""`mqroute show`: every route found in dumps or raw message files, as dspmqrte shows it."""

from __future__ import annotations

import argparse
import sys

from mqroute.errors import Problems
from mqroute.eventinputs import add_events_option, print_explanations
from mqroute.inputs import Inputs, add_inputs
from mqroute.livestatus import destinations, live_explainer, stop_of_route
from mqroute.options import add_connection, add_msg_id, add_network, msg_ids
from mqroute.otlp import add_otlp_options, check_otlp, export
from mqroute.output import (
    add_graph_option,
    add_verbosity,
    check_graph,
    draw_routes,
    parse_verbosity,
    print_routes,
)
from traceroute.readers import InputMessage
from traceroute.records import NotActivityData, Record, parse_message
from traceroute.routes import build_routes

#: The exit statuses, as --help and docs/commands/show.md say them.
EXIT_STATUS = ("0 routes shown; 1 an input unreadable, a message that does not decode, or no "
               "activity data at all (messages of other kinds are only counted); 2 usage.")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute show`."""
    show = sub.add_parser("show", help="order activity reports and trace-route replies into "
                                       "routes and display them as dspmqrte does")
    add_inputs(show, "dmpmqmsg dumps (e.g. of SYSTEM.ADMIN.ACTIVITY.QUEUE or a reply queue) "
               "or raw message files", json_help="one JSON document per route")
    add_msg_id(show, "-i", old=["--correl-id"],
               help="only the message with this MsgId (the CorrelId of its reports; 48 hex "
                    "digits, either case; repeatable)")
    add_verbosity(show)
    add_graph_option(show)
    add_otlp_options(show)
    add_events_option(show)
    add_network(show, help="explain where stuck messages wait by asking this simulated "
                           "estate now (demo, MQSC files or an estate folder)")
    add_connection(show)
    show.set_defaults(func=run)


def _record(item: InputMessage) -> Record:
    """The activity record of a message (NotActivityData for one of another kind)."""
    return parse_message(item.md, item.data, source=item.source, line=item.line)


def run(args: argparse.Namespace) -> int:
    """`mqroute show`: every route found in dumps or raw message files; 0 ok, 1 some input
    unreadable or no activity data at all in the messages read (inputs holding no message,
    such as an empty queue's dump, are no problem)."""
    parse_verbosity(args.v)  # usage errors and missing extras before any input is read
    check_graph(args)
    check_otlp(args)
    problems = Problems()
    wanted = msg_ids(args)
    inputs = Inputs(args.files, problems)
    records = inputs.decoded(_record, skip=(NotActivityData,))
    if wanted:
        records = (r for r in records if r.key.ljust(24, b"\0") in wanted)
    with live_explainer(args, stop_of_route,
                        lambda text: problems("live status", text)) as why:
        # with queue managers to ask (-m, --network), a publication's branches end at each
        # subscription's destination, as trace's do
        where = destinations(why.admins, lambda text: problems("subscriptions", text))
        routes = build_routes(records, where)
        shown = print_routes(routes, as_json=args.json, verbosity=args.v, live=why)
    draw_routes(args, routes)
    export(args, routes)
    print_explanations(args, routes=routes, problem=problems)
    found = {r.correl_id.ljust(24, b"\0") for r in routes}
    for missing in sorted(wanted - found):
        print(f"mqroute: no activity data of MsgId {missing.hex().upper()} in the input",
              file=sys.stderr)  # all 48 digits, as MQ pads it (and as follow says it)
    print(inputs.summary(f"{shown} routes", "activity data"), file=sys.stderr)
    status = problems.status()
    if not shown and not wanted and not inputs.read and not problems.count:
        return status  # only dumps of empty queues: good inputs holding nothing
    if not shown:
        print("mqroute: no activity data found" + (" for the MsgId given" if wanted else ""),
              file=sys.stderr)
        return 1
    return status
