"""`mqroute status`: queues and channels as the queue manager sees them now.

What DISPLAY QSTATUS and DISPLAY CHSTATUS show, asked through the PCF command server of a
simulated estate (`--network`) or of a real queue manager (the connection options): every
local queue (transmission queues included) and every channel defined, or those named
(generic names such as APP.* allowed), with real-time monitoring where MONQ/MONCHL have it
switched on. Only asks: nothing changes on the queue manager (on an estate folder, the
command queue's own statistics, as on a real one).
"""

from __future__ import annotations

import argparse
import sys

from mqroute.errors import EXIT_OK, UsageError
from mqroute.estates import add_admin_options, administration
from mqroute.options import add_connection, add_network, add_rest
from mqroute.output import print_json_lines
from traceroute.status import ChannelStatus, CommandFailed, QueueStatus
from traceroute.status.commands import is_generic, reason_text
from traceroute.status.display import text_value
from traceroute.status.values import iso

#: A named object is not there (the others are still shown).
EXIT_NOT_FOUND = 1
#: The channel types DISPLAY CHSTATUS knows (client connections are the client's).
CHANNEL_TYPES = ("SDR", "RCVR", "SVR", "RQSTR", "CLUSSDR", "CLUSRCVR", "SVRCONN")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute status`."""
    p = sub.add_parser(
        "status", help="queue and channel status now (DISPLAY QSTATUS / CHSTATUS), from a "
                       "simulated estate or a real queue manager",
        description="Without --queue and --channel: every local queue and every channel of "
                    "the queue manager (SYSTEM.* only with --system); with only --queue, "
                    "queues; with only --channel, channels. Names may be generic (APP.*).")
    p.add_argument("--queue", action="append", default=[], metavar="NAME",
                   help="this queue (repeatable; APP.* is generic)")
    p.add_argument("--channel", action="append", default=[], metavar="NAME",
                   help="this channel (repeatable; generic allowed)")
    p.add_argument("--system", action="store_true", help="SYSTEM.* queues and channels too")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    add_admin_options(p)
    add_network(p, help="a simulated estate: demo, MQSC files, or an estate folder (mqroute "
                        "sim init)")
    add_connection(p, channel_flag="--client-channel")
    add_rest(p)
    p.set_defaults(func=run)


def _shown(name: str, pattern: str, system: bool) -> bool:
    """SYSTEM.* objects are left out of what a generic name lists, unless --system, or the
    name itself asks for SYSTEM.* ones ('SYSTEM.ADMIN.*')."""
    return system or not is_generic(pattern) or not name.startswith("SYSTEM.") \
        or pattern.startswith("SYSTEM.")


def _v(value: object) -> str:
    """A value as DISPLAY shows it: blank as ' ', a pair as 'short,long'."""
    if value is None or value == "":
        return " "
    if isinstance(value, tuple):
        return f"{value[0]},{value[1]}"
    return text_value(str(value))


def queue_line(s: QueueStatus) -> str:
    """One queue as DISPLAY QSTATUS shows it, on one line."""
    fields = [f"QUEUE({_v(s.name)})", f"CURDEPTH({s.curdepth})", f"IPPROCS({s.ipprocs})",
              f"OPPROCS({s.opprocs})", f"UNCOM({s.uncom or 'NO'})", f"MONQ({s.monq})",
              f"MSGAGE({_v(s.msgage)})", f"QTIME({_v(s.qtime) if s.qtime else ' , '})",
              f"LPUT({_v(iso(s.last_put))})", f"LGET({_v(iso(s.last_get))})"]
    return f"{s.queue_manager}  " + "  ".join(fields)


def channel_line(c: ChannelStatus) -> str:
    """One channel as DISPLAY CHSTATUS shows it, on one line."""
    fields = [f"CHANNEL({_v(c.name)})", f"CHLTYPE({c.chltype})", f"STATUS({c.status})",
              f"SUBSTATE({_v(c.substate)})", f"CONNAME({_v(c.conname)})",
              f"XMITQ({_v(c.xmitq)})", f"MSGS({_v(c.msgs)})", f"BATCHES({_v(c.batches)})",
              f"XQTIME({_v(c.xqtime) if c.xqtime else ' , '})",
              f"NETTIME({_v(c.nettime) if c.nettime else ' , '})",
              f"LSTMSG({_v(iso(c.last_msg))})"]
    return f"{c.queue_manager}  " + "  ".join(fields)


def collect(admin, queues: list[str], channels: list[str], *, system: bool,
            missing) -> tuple[list[QueueStatus], list[ChannelStatus]]:
    """The status of the queues and channels named (patterns); `missing(what, e)` hears of
    each named object that is not there."""
    found_q: dict[str, QueueStatus] = {}
    for pattern in queues:
        try:
            statuses = admin.queue_status(pattern)
        except CommandFailed as e:
            missing(f"queue {pattern}", e)
            continue
        own = getattr(admin.channel, "_reply_q", "")  # the command's own reply queue
        for s in statuses:
            if s.name != own and _shown(s.name, pattern, system):
                found_q[s.name] = s
    found_c: dict[tuple[str, str], ChannelStatus] = {}
    for pattern in channels:
        running = admin.channel_status(pattern)
        try:
            defined = admin.channels(pattern)
        except CommandFailed as e:
            if not running:
                missing(f"channel {pattern}", e)
                continue
            defined = []
        have = {c.name for c in running}
        for c in running:
            if _shown(c.name, pattern, system):
                found_c[(c.name, c.conname)] = c
        for d in defined:
            kind = d.attrs.get("CHLTYPE", "")
            if d.name in have or kind not in CHANNEL_TYPES or \
                    not _shown(d.name, pattern, system):
                continue
            found_c[(d.name, "")] = ChannelStatus(
                admin.qmgr, d.name, kind, "INACTIVE", conname=d.attrs.get("CONNAME", ""),
                xmitq=d.attrs.get("XMITQ", "") if kind in ("SDR", "SVR") else "")
    return ([found_q[k] for k in sorted(found_q)],
            [found_c[k] for k in sorted(found_c)])


def run(args: argparse.Namespace) -> int:
    """`mqroute status`: 0, 1 when a named object does not exist, 2 usage/no connection."""
    if not args.qmgr and not args.network:
        raise UsageError("status: -m QMGR (and --network or the connection options)")
    if not args.wait > 0:
        raise UsageError(f"--wait {args.wait:g}: seconds above 0")
    for option, names in (("--queue", args.queue), ("--channel", args.channel)):
        if any(not name.strip() for name in names):
            raise UsageError(f"status: {option} needs a name (generic ones end in *)")
    queues = args.queue or ([] if args.channel else ["*"])
    channels = args.channel or ([] if args.queue else ["*"])
    problems = 0

    def missing(what: str, e: CommandFailed) -> None:
        nonlocal problems
        problems += 1
        print(f"mqroute: status: {what} on {e_qmgr}: {reason_text(e.reason)}",
              file=sys.stderr)

    with administration(args, wait=args.wait) as connect:
        admin = connect(args.qmgr)
        e_qmgr = admin.qmgr
        found_q, found_c = collect(admin, queues, channels, system=args.system,
                                   missing=missing)
    if args.json:
        print_json_lines([*(q.to_json() for q in found_q), *(c.to_json() for c in found_c)])
    else:
        for q in found_q:
            print(queue_line(q))
        for c in found_c:
            print(channel_line(c))
    return EXIT_NOT_FOUND if problems else EXIT_OK


__all__ = ["channel_line", "collect", "queue_line"]
