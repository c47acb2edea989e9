"""`mqroute sim`: a simulated estate that lives between commands.

    mqroute sim init DIR FILE.mqsc...       (or --network demo) make the estate folder
    mqroute sim runmqsc DIR QMGR < cmds     MQSC commands, as runmqsc runs them
    mqroute sim put DIR -m QMGR -q QUEUE    put messages, as amqsput does
    mqroute sim get DIR -m QMGR -q QUEUE    get (or --browse) messages, as amqsget does
    mqroute sim rest DIR --listen HOST:PORT --user NAME [--cert FILE --key FILE]
                                            serve MQ's administrative REST API from it

These commands change the estate: that is their purpose. Every other mqroute command given
`--network DIR` only reads it, apart from what it does on purpose (a trace puts its
trace-route message, as dspmqrte does).
"""

from __future__ import annotations

import argparse
import sys

from mqroute.errors import EXIT_FATAL, EXIT_OK, FatalError, UsageError
from mqroute.estates import network_of, simulation
from mqroute.options import add_network, add_strict
from mqroute.paths import input_path, output_folder
from traceroute.status.commands import reason_text

ACTIONS = ("init", "runmqsc", "put", "get", "rest")
#: The largest message `sim put --size` makes (MQ's largest, 100 MB).
MAX_SIZE = 100 * 1024 * 1024
MAX_COUNT = 1_000_000


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute sim`."""
    p = sub.add_parser(
        "sim", help="a simulated estate that lives between commands: init, runmqsc, put, "
                    "get, and its REST API (rest)",
        description="init DIR FILE.mqsc... (or --network demo) makes an estate folder; "
                    "runmqsc DIR QMGR runs MQSC commands from standard input as runmqsc does "
                    "(exit 0 when every one succeeded, else 2); put DIR -m QMGR -q QUEUE and "
                    "get DIR -m QMGR -q QUEUE act as amqsput and amqsget; rest DIR --listen "
                    "HOST:PORT --user NAME serves IBM MQ's administrative REST API "
                    "(runCommandJSON) from the estate until Ctrl-C (the password from "
                    "MQROUTE_PASSWORD; HTTPS with --cert and --key). Any command's --network "
                    "DIR then works on the estate.")
    p.add_argument("action", choices=ACTIONS, help="what to do")
    p.add_argument("dir", metavar="DIR", type=output_folder, help="the estate folder")
    p.add_argument("rest", nargs="*", metavar="ARG",
                   help="init: MQSC files defining the queue managers; runmqsc: the queue "
                        "manager")
    add_network(p, help="init: demo (IBM's QM1/QM2 example) or MQSC files, instead of the "
                        "files after DIR")
    add_strict(p)
    p.add_argument("-m", dest="qmgr", metavar="QMGR", help="put/get: the queue manager")
    p.add_argument("-q", dest="queue", metavar="QUEUE", help="put/get: the queue")
    p.add_argument("--count", type=int, metavar="N",
                   help="put: how many messages (default 1); get: at most N (default all)")
    p.add_argument("--size", type=int, metavar="BYTES",
                   help="put: each message's length (text padded with '.')")
    p.add_argument("--persistent", action="store_true", help="put: persistent messages")
    p.add_argument("--expiry", type=float, metavar="SECONDS",
                   help="put: expiry in seconds (MQMD Expiry in tenths)")
    p.add_argument("--browse", action="store_true", help="get: browse, leave them there")
    p.add_argument("--seed", type=int, default=None,
                   help="init: the simulation's seed: the same MsgIds every time (default: "
                        "unique ones)")
    p.add_argument("--latency", type=float, default=0.05,
                   help="init: simulated seconds a message takes per channel hop")
    p.add_argument("--qmgr-tz", dest="qmgr_tz", metavar="ZONE",
                   help="init: the time zone the queue managers' clocks show, for the local "
                        "dates and times of their status (LPUTDATE ...): an IANA name such "
                        "as Europe/Paris, UTC, +05:30 or local (default UTC)")
    p.add_argument("--listen", metavar="HOST:PORT",
                   help="rest: where to listen (default 127.0.0.1:9443; port 0: any free one)")
    p.add_argument("-u", "--user", dest="user", metavar="NAME",
                   help="rest: the one user the server accepts (its password: "
                        "MQROUTE_PASSWORD, or asked on the terminal)")
    p.add_argument("--cert", metavar="FILE", type=input_path,
                   help="rest: serve HTTPS with this certificate (PEM; with --key)")
    p.add_argument("--key", metavar="FILE", type=input_path,
                   help="rest: the certificate's private key (PEM)")
    p.set_defaults(func=run)


def _check(args: argparse.Namespace) -> None:
    action = args.action
    extra = {"put": ("persistent", "expiry", "size"), "get": ("browse",)}
    for other, flags in extra.items():
        given = [f"--{f}" for f in flags if getattr(args, f) not in (None, False)]
        if given and action != other:
            raise UsageError(f"sim {action}: {', '.join(given)} belongs to sim {other}")
    if action in ("put", "get"):
        if args.rest:
            raise UsageError(f"sim {action}: unexpected {' '.join(args.rest)} (give -m QMGR "
                             "-q QUEUE)")
        if not args.qmgr or not args.queue:
            raise UsageError(f"sim {action} needs -m QMGR and -q QUEUE")
    elif args.qmgr or args.queue or args.count is not None:
        raise UsageError(f"sim {action}: -m, -q and --count belong to sim put and sim get")
    if args.count is not None and not 1 <= args.count <= MAX_COUNT:
        raise UsageError(f"--count {args.count}: 1 to {MAX_COUNT}")
    if args.size is not None and not 0 <= args.size <= MAX_SIZE:
        raise UsageError(f"--size {args.size}: 0 to {MAX_SIZE} bytes")
    if args.expiry is not None and not 0 < args.expiry <= 214748364:
        raise UsageError(f"--expiry {args.expiry:g}: seconds above 0 (MQ's limit is "
                         "214748364.7)")
    if action != "init" and args.network:
        raise UsageError(f"sim {action}: --network belongs to sim init (DIR is the estate)")
    if action != "init" and args.qmgr_tz is not None:
        raise UsageError(f"sim {action}: --qmgr-tz belongs to sim init (the estate keeps its "
                         "zone)")
    rest = [f for f, v in (("--listen", args.listen), ("--user", args.user),
                           ("--cert", args.cert), ("--key", args.key)) if v]
    if rest and action != "rest":
        raise UsageError(f"sim {action}: {', '.join(rest)} belongs to sim rest")
    if not args.latency >= 0:
        raise UsageError(f"--latency {args.latency:g}: 0 or more")


def run(args: argparse.Namespace) -> int:
    """`mqroute sim ACTION DIR ...`."""
    _check(args)
    return {"init": _init, "runmqsc": _runmqsc, "put": _put, "get": _get,
            "rest": _rest}[args.action](args)


def _init(args: argparse.Namespace) -> int:
    from traceroute.sim.estate import Estate, EstateError
    from traceroute.status.zones import ZoneError, zone_of

    specs = [*args.network, *args.rest]
    if args.network and args.rest:
        raise UsageError("sim init: give MQSC files after DIR or --network, not both")
    if not specs:
        raise UsageError("sim init DIR needs MQSC files (or --network demo)")
    zone = args.qmgr_tz or "UTC"
    try:
        zone_of(zone)
    except ZoneError as e:
        raise UsageError(f"--qmgr-tz {e}") from None
    network = network_of(specs, strict=args.strict)
    try:
        Estate.create(args.dir, network, seed=args.seed, latency=args.latency,
                      time_zone=zone)
    except EstateError as e:
        raise FatalError(str(e)) from None
    names = ", ".join(network.qmgrs)
    n = len(network.qmgrs)
    print(f"estate {args.dir}: {n} queue manager{'s' if n != 1 else ''} ({names})")
    return EXIT_OK


def _runmqsc(args: argparse.Namespace) -> int:
    from traceroute.sim.estate.runmqsc import run_mqsc

    if len(args.rest) != 1:
        raise UsageError("sim runmqsc DIR QMGR (the MQSC commands come from standard input)")
    data = sys.stdin.buffer.read(64 * 1024 * 1024 + 1)
    if len(data) > 64 * 1024 * 1024:
        raise FatalError("<stdin>: over 64 MiB of MQSC: split it")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FatalError(f"<stdin>:offset {e.start}: not UTF-8") from None
    with simulation([args.dir]) as live:
        assert live.estate is not None
        result = run_mqsc(live.estate, _qmgr(live, args.rest[0]), text)
    for line in result.lines:
        print(line)
    return EXIT_OK if result.ok else EXIT_FATAL


def _qmgr(live, name: str) -> str:
    if name not in live.sim.network.qmgrs:
        known = ", ".join(live.sim.network.qmgrs)
        raise FatalError(f"AMQ8118E: IBM MQ queue manager {name} does not exist (the estate "
                         f"has {known}): {reason_text(2058)}")
    return name


def _estate(args: argparse.Namespace):
    from mqroute.estates import is_folder

    if not is_folder([args.dir]):
        raise FatalError(f"{args.dir}: not an estate folder (make one with mqroute sim init)")
    return simulation([args.dir])


def _put(args: argparse.Namespace) -> int:
    from traceroute.sim.estate.apps import put_messages

    count = args.count or 1
    with _estate(args) as live:
        qmgr = _qmgr(live, args.qmgr)
        print(f"target queue is {args.queue}")
        outcome = put_messages(live.sim, qmgr, args.queue, count=count, size=args.size,
                               persistent=args.persistent, expiry=args.expiry)
    for msg_id in outcome.msg_ids:
        print(f"put MsgId {msg_id.hex().upper()}")
    if not outcome.ok:
        print(f"mqroute: sim put: {outcome.call} of {args.queue} on {args.qmgr} failed: "
              f"{reason_text(outcome.reason)}; {len(outcome.msg_ids)} of {count} put",
              file=sys.stderr)
        return EXIT_FATAL
    r = outcome.resolution
    where = ""
    if r is not None and r.xmitq:
        where = (f" (for {r.remote_q} on {r.remote_qmgr}, through transmission queue "
                 f"{r.xmitq})")
    print(f"{len(outcome.msg_ids)} message(s) put to {args.queue} on {qmgr}{where}")
    return EXIT_OK


def _shown(data: bytes, limit: int = 200) -> str:
    """Message data as amqsget prints it: text, with anything unprintable escaped."""
    text = data[:limit].decode("latin-1")
    out = "".join(c if c.isprintable() and c.isascii() else f"\\x{ord(c):02x}" for c in text)
    return out + (f"... ({len(data)} bytes)" if len(data) > limit else "")


def _get(args: argparse.Namespace) -> int:
    from traceroute.sim.estate.apps import get_messages

    with _estate(args) as live:
        qmgr = _qmgr(live, args.qmgr)
        print(f"source queue is {args.queue}")
        outcome = get_messages(live.sim, qmgr, args.queue, count=args.count,
                               browse=args.browse)
    if not outcome.ok:
        print(f"mqroute: sim get: MQOPEN of {args.queue} on {args.qmgr} failed: "
              f"{reason_text(outcome.reason)}", file=sys.stderr)
        return EXIT_FATAL
    for md, data in outcome.messages:
        print(f"message <{_shown(data)}> MsgId {md.msg_id.hex().upper()}")
    verb = "browsed" if args.browse else "got"
    print(f"no more messages ({len(outcome.messages)} {verb})")
    return EXIT_OK


def listen_address(text: str) -> tuple[str, int]:
    """HOST:PORT ([::1]:PORT for IPv6) as (host, port); UsageError otherwise."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise UsageError(f"--listen {text}: give HOST:PORT (e.g. 127.0.0.1:9443; port 0 "
                         "takes any free one)")
    return host, int(port)


def _rest(args: argparse.Namespace) -> int:
    """Serve the REST API of the estate until Ctrl-C (or SIGTERM)."""
    import signal
    import ssl

    from mqroute.estates import is_folder
    from traceroute.mq.options import ConnectionOptionError, password_for
    from traceroute.mq.transport import Connection
    from traceroute.sim.estate import Estate, EstateError
    from traceroute.sim.rest import RestServer

    if args.rest:
        raise UsageError(f"sim rest: unexpected {' '.join(args.rest)}")
    if not args.user:
        raise UsageError("sim rest needs --user NAME (its password: MQROUTE_PASSWORD)")
    if bool(args.cert) != bool(args.key):
        raise UsageError("sim rest: --cert and --key go together (HTTPS)")
    host, port = listen_address(args.listen or "127.0.0.1:9443")
    if not is_folder([args.dir]):
        raise FatalError(f"{args.dir}: not an estate folder (make one with mqroute sim init)")
    try:
        password = password_for(Connection(user=args.user)).password
    except ConnectionOptionError as e:
        raise UsageError(f"sim rest: {e}") from None
    context = None
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        try:
            context.load_cert_chain(args.cert, args.key)
        except (OSError, ssl.SSLError) as e:
            raise FatalError(f"{args.cert}, {args.key}: not a certificate and its key "
                             f"({e.strerror or e})") from None
    try:
        with Estate.open(args.dir) as estate:
            names = ", ".join(estate.sim.network.qmgrs)
    except EstateError as e:
        raise FatalError(str(e)) from None
    try:
        server = RestServer(args.dir, host=host, port=port, user=args.user,
                            password=password, ssl_context=context)
    except OSError as e:
        raise FatalError(f"--listen {host}:{port}: {e.strerror or e}") from None

    def stop(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    print(f"mqroute: sim rest: the REST API of estate {args.dir} ({names}) at "
          f"{server.url}/ibmmq/rest/v2/admin/action/qmgr/QMGR/mqsc, user {args.user}; "
          "Ctrl-C stops", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.httpd.server_close()
    print(f"mqroute: sim rest: stopped after {server.requests} requests", file=sys.stderr)
    return EXIT_OK
