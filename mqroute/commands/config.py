"""`mqroute config`: a queue manager's definitions as MQSC, collected live.

As `dmpmqcfg -o mqsc` writes them: ALTER QMGR, then DEFINE ... REPLACE of every queue and
channel with all its attributes, asked through the Inquire commands of the queue manager's
command server (a simulated estate's with `--network`, a real one's through the connection
options). Read-only attributes (CMDLEVEL, PLATFORM, CRDATE ...) are written as comments, as
dmpmqcfg writes them, and so is each password or key that is set (MQ shows only
asterisks); the SYSTEM.* objects exactly as crtmqm made them only with --system.
What it writes, read back by runmqsc (or mqroute's MQSC reader), gives the same
definitions. Only asks: nothing changes on the queue manager.
"""

from __future__ import annotations

import argparse

from mqroute.errors import EXIT_OK, UsageError
from mqroute.estates import add_admin_options, administration, say_left_out
from mqroute.options import add_connection, add_network, add_rest


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute config`."""
    p = sub.add_parser("config", help="a queue manager's definitions as MQSC (as dmpmqcfg), "
                                      "from a simulated estate or a real queue manager")
    p.add_argument("--system", action="store_true",
                   help="the SYSTEM.* objects crtmqm made too (altered ones always)")
    add_admin_options(p)
    add_network(p, help="a simulated estate: demo, MQSC files, or an estate folder")
    add_connection(p)
    add_rest(p)
    p.set_defaults(func=run)


def config_text(config, *, system: bool = False) -> str:
    """The MQSC of a live configuration (`traceroute.mq.config.LiveConfig`)."""
    from traceroute.mq.config import readonly_of, secrets_of, to_queue_manager
    from traceroute.sim.mqsc import to_mqsc
    from traceroute.sim.network import Network

    qm = to_queue_manager(config, system=system)
    qm.stopped = set()  # channel state, not configuration
    text = to_mqsc(Network({qm.name: qm}))
    readonly = readonly_of(config.qmgr)
    comments = []
    if readonly:
        comments.append("* " + " ".join(f"{k}({v})" for k, v in readonly.items()))
    for d, keyword in secrets_of(config):
        if d.kind != "QMGR" and (d.name not in qm.queues and d.name not in qm.channels):
            continue  # an object left out (a SYSTEM.* one as crtmqm made it ...)
        quoted = "'" + d.name.replace("'", "''") + "'"
        what = "ALTER QMGR" if d.kind == "QMGR" else f"{d.kind}({quoted})"
        comments.append(f"* {what} {keyword}: set, but MQ shows it only as asterisks; "
                        "give it again")
    if comments:
        lines = text.split("\n")
        at = next(i for i, line in enumerate(lines) if line.startswith("* Queue manager name:"))
        lines[at + 2:at + 2] = comments  # after the header box, as dmpmqcfg's *CMDLEVEL
        text = "\n".join(lines)
    return text


def run(args: argparse.Namespace) -> int:
    """`mqroute config -m QMGR`: MQSC on standard output."""
    from traceroute.mq.config import collect_config

    if not args.qmgr and not args.network:
        raise UsageError("config: -m QMGR (and --network or the connection options)")
    if not args.wait > 0:
        raise UsageError(f"--wait {args.wait:g}: seconds above 0")
    with administration(args, wait=args.wait) as connect:
        config = collect_config(connect(args.qmgr))
    print(config_text(config, system=args.system), end="")
    say_left_out(unread_lines(config))
    return EXIT_OK


def unread_lines(config) -> list[str]:
    """One line per answer parameter with no MQSC keyword here (or of a structure type MQ
    does not use for it), so that nothing is left out of the MQSC unsaid ('QM1 QLOCAL(A):
    MQIA_XYZ (9999) = 5 left out: no MQSC keyword here for it as sent')."""
    return [f"{d.queue_manager} {d.kind}({d.name}): {p} left out: no MQSC keyword here for "
            "it as sent" for d in (config.qmgr, *config.queues, *config.channels)
            for p in d.unread]
