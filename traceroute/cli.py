"""The `mqroute` command: decode PCF messages (and, as the project grows, trace and analyse)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict

import pcf
from pcf.errors import DumpFormatError, PCFError
from pcf.mqmd import MQMD
from traceroute.display import OUTLINE_OPTIONS, render_route
from traceroute.inputs import InputMessage, load_records, read_messages
from traceroute.jsonout import route_to_dict
from traceroute.ordering import Route, build_routes
from traceroute.verdict import Location


def md_to_dict(md: MQMD) -> dict:
    """An MQMD as JSON-ready values (byte fields as hex)."""
    return {k: v.hex() if isinstance(v, bytes) else v for k, v in asdict(md).items()}


def _md_line(md: MQMD) -> str:
    return (f"MsgId {md.msg_id.hex()}  CorrelId {md.correl_id.hex()}  Format '{md.format}'  "
            f"PutApplName '{md.put_appl_name}'  ReplyToQMgr '{md.reply_to_q_mgr}'")


def _decode_one(item: InputMessage) -> pcf.Message | None:
    """Decode an input message when it is PCF; None for other formats."""
    md = item.md
    if md is None:
        return pcf.decode(item.data)
    if not pcf.is_pcf_format(md.format):
        return None
    return pcf.decode(item.data, encoding=md.encoding, ccsid=md.coded_char_set_id,
                      fmt=md.format)


def decode_messages(items: Iterable[InputMessage], *, as_json: bool, out=None) -> int:
    """Print every message as a tree (or JSON Lines); the number that failed to decode."""
    out = out or sys.stdout
    failures = 0
    for n, item in enumerate(items, start=1):
        try:
            message = _decode_one(item)
        except PCFError as e:
            failures += 1
            print(f"mqroute: message {n} ({item.where}): {e}", file=sys.stderr)
            continue
        if as_json:
            record = {"message": n, "source": item.source, "line": item.line,
                      "md": md_to_dict(item.md) if item.md else None,
                      "pcf": message.to_dict() if message else None}
            if message is None:
                record["data_hex"] = item.data.hex()
            print(json.dumps(record), file=out)
            continue
        print(f"Message {n} ({item.where}), {len(item.data)} bytes", file=out)
        if item.md is not None:
            print(f"  {_md_line(item.md)}", file=out)
        if message is None:
            print(f"  not PCF (format '{item.md.format}'): data kept as {len(item.data)} bytes",
                  file=out)
        else:
            print(pcf.render_tree(message, indent="  "), file=out)
        print(file=out)
    return failures


def _example_items() -> list[InputMessage]:
    from traceroute.samples import example_reports

    return [InputMessage(md, data, "<example>", None) for md, data in example_reports()]


def cmd_decode(args: argparse.Namespace) -> int:
    """`mqroute decode`: print PCF messages of dumps or raw files."""
    if not args.files and not args.example:
        raise SystemExit("mqroute decode: give FILE... or --example")
    items: list[Iterable[InputMessage]] = [read_messages(f) for f in args.files]
    if args.example:
        items.insert(0, _example_items())
    failures = decode_messages((i for group in items for i in group), as_json=args.json)
    return 1 if failures else 0


def describe_location(loc: Location) -> str:
    """'queue manager 'QM1', queue 'QM2' (next: QM2)' for people."""
    parts = []
    if loc.queue_manager:
        parts.append(f"queue manager '{loc.queue_manager}'")
    if loc.queue:
        parts.append(f"queue '{loc.queue}'")
    if loc.channel:
        parts.append(f"channel '{loc.channel}'")
    if loc.remote_queue_manager:
        parts.append(f"bound for queue manager '{loc.remote_queue_manager}'")
    return ", ".join(parts) or "unknown"


def route_heading(route: Route) -> str:
    """One line naming the message, its verdict and where it was last seen."""
    gaps = len(route.gaps)
    state = "complete" if route.complete else f"{gaps} gap(s)" if gaps else "partial"
    return (f"Route of message X'{route.correl_id.hex().upper()}': {route.verdict.text}; "
            f"last known location: {describe_location(route.location)} "
            f"[{len(route.activities)} activities, {state}]")


def parse_verbosity(words: Sequence[str]) -> tuple[str, list[str]]:
    """dspmqrte's -v: a level (summary, outline, all, none) and outline's display options."""
    level, *rest = words or ["summary"]
    options = [o for w in rest for o in w.split(",") if o]
    if level not in ("summary", "outline", "all", "none"):
        raise SystemExit(f"mqroute: -v {level}: use summary, outline, all or none")
    bad = set(options) - OUTLINE_OPTIONS
    if bad or (options and level != "outline"):
        raise SystemExit(f"mqroute: -v {' '.join(words)}: display options go with outline: "
                         f"{', '.join(sorted(OUTLINE_OPTIONS))}")
    return level, options


def print_routes(routes: Iterable[Route], *, as_json: bool, verbosity: Sequence[str]) -> int:
    """Print routes as dspmqrte-style text or JSON Lines; the number printed."""
    level, options = parse_verbosity(verbosity)
    count = 0
    for route in routes:
        count += 1
        if as_json:
            print(json.dumps(route_to_dict(route)))
            continue
        print(route_heading(route))
        for line in render_route(route, level, options):
            print(line)
        for note in route.notes:
            print(f"note: {note}")
        print()
    return count


def after_routes(args: argparse.Namespace, routes: list[Route]) -> None:
    """Hand the routes to what a higher layer registered (e.g. `--graph` pictures)."""
    hook = getattr(args, "after_routes", None)
    if hook is not None:
        hook(args, routes)


def cmd_show(args: argparse.Namespace) -> int:
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
    after_routes(args, routes)
    if not shown:
        print("mqroute: no activity data found", file=sys.stderr)
    return 1 if problems or not shown else 0


def build_parser(extra: Sequence[Callable[[argparse._SubParsersAction], None]] = ()
                 ) -> argparse.ArgumentParser:
    """The argument parser of `mqroute`; `extra` adds subcommands of higher layers."""
    parser = argparse.ArgumentParser(
        prog="mqroute", description="Reconstruct the routes of messages through IBM MQ.")
    sub = parser.add_subparsers(dest="command", required=True)
    dec = sub.add_parser("decode", help="print PCF messages (dmpmqmsg dumps or raw PCF files)")
    dec.add_argument("files", nargs="*", metavar="FILE")
    dec.add_argument("--json", action="store_true",
                     help="one JSON object per message (JSON Lines)")
    dec.add_argument("--example", action="store_true",
                     help="decode the bundled example activity reports")
    dec.set_defaults(func=cmd_decode)
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
    show.set_defaults(func=cmd_show)
    from traceroute import trace_cmd

    trace_cmd.add_parser(sub)
    for add in extra:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None,
         extra: Sequence[Callable[[argparse._SubParsersAction], None]] = ()) -> int:
    """Run `mqroute` (the traceroute commands, plus `extra` ones)."""
    words = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(extra).parse_args(words)
    args.argv = words[1:]
    try:
        return args.func(args)
    except BrokenPipeError:  # output piped into `head` and closed: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (OSError, DumpFormatError, PCFError) as e:
        print(f"mqroute: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
