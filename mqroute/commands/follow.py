"""`mqroute follow`: where real messages went, from application activity trace."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from mqroute.errors import Problems
from mqroute.eventinputs import add_events_option, print_explanations
from mqroute.inputs import Inputs, add_inputs
from mqroute.livestatus import live_explainer, stop_of_journey
from mqroute.options import Filters, add_connection, add_filters, add_msg_id, add_network, msg_ids
from mqroute.otlp import add_otlp_options, check_otlp, export
from mqroute.output import print_json_lines
from pcf.errors import PCFError
from pcf.text import printable
from traceroute.display.amqsact import render_journey
from traceroute.journeys import (
    ActivityTrace,
    Journey,
    NotActivityTrace,
    exit_status,
    reconstruct,
)
from traceroute.journeys.join import join_records
from traceroute.journeys.parse import parse_activity_trace
from traceroute.readers import InputMessage
from traceroute.records import NotActivityData, Record, parse_message

#: The exit statuses, as --help and docs/commands/follow.md say them.
EXIT_STATUS = ("the first that applies: 1 an input unreadable (the rest followed); 6 a put "
               "failed; 5 dead-lettered; 4 waiting on a transmission queue; 3 in transit or "
               "incomplete; else 0; 2 usage.")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute follow`."""
    p = sub.add_parser(
        "follow", help="follow real messages through activity trace (MQCMD_ACTIVITY_TRACE): "
                       "where each went and where it stopped",
        description="Reads activity-trace messages (dmpmqmsg dumps of "
                    "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE or raw files, any mix of queue "
                    "managers, any order) and prints one journey per original message.")
    add_inputs(p, "dmpmqmsg dumps or raw messages",
               json_help="one JSON object per original message (JSON Lines)")
    add_msg_id(p)
    add_filters(p)
    p.add_argument("-v", "--verbose", action="store_true",
                   help="each call's trace record as amqsact -v prints it")
    add_events_option(p)
    add_otlp_options(p)
    add_network(p, help="explain where stuck messages wait by asking this simulated estate "
                        "now (demo, MQSC files or an estate folder)")
    add_connection(p, channel_flag="--client-channel")
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


def _with_live(journey: Journey, why) -> dict:
    document = journey.to_dict()
    now = why(journey)
    if now is not None:
        document["live_status"] = now[1]
    return document


def run(args: argparse.Namespace) -> int:
    """`mqroute follow`: print the journeys; the exit status of the contract."""
    wanted = msg_ids(args)
    filters = Filters.from_args(args)
    check_otlp(args)
    inputs = Inputs(args.files, Problems())
    records: list[Record] = []
    result = reconstruct(read_traces(inputs, records))
    journeys = [j for j in result.journeys
                if (not wanted or j.msg_id in wanted) and kept(j, filters)]
    join_records(journeys, records)
    with live_explainer(args, stop_of_journey,
                        lambda text: inputs.problems("live status", text)) as why:
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
    for missing in sorted(wanted - {j.msg_id for j in journeys}):
        print(f"mqroute: no MQI call of MsgId {missing.hex().upper()} in the trace",
              file=sys.stderr)
    print_explanations(args, journeys=journeys, problem=inputs.problems)
    export(args, journeys, journeys=True)
    summary = inputs.summary(f"{len(journeys)} journeys from {result.calls} MQI calls",
                             "activity trace data")
    if records:
        summary += f"; {len(records)} activity reports/trace-route messages read"
    print(summary, file=sys.stderr)
    for note in result.notes():
        print(printable(f"mqroute: note: {note}"), file=sys.stderr)
    inputs.problems.finish()
    return exit_status((j.verdict for j in journeys), unreadable=inputs.problems.count > 0)
