"""`mqroute decode`: every message of dmpmqmsg dumps or raw PCF files, as a tree or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import asdict

import pcf
from mqroute.errors import Problems, UsageError
from mqroute.inputs import add_inputs, message_problem, read_inputs
from pcf.errors import PCFError
from pcf.mqmd import MQMD
from pcf.text import printable
from traceroute.readers import InputMessage

#: The exit statuses, as --help and docs/commands/decode.md say them.
EXIT_STATUS = ("0 every message decoded; 1 an input unreadable or a message that does not decode"
               " (each named, the rest printed); 2 usage.")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute decode`."""
    dec = sub.add_parser("decode", help="print PCF messages (dmpmqmsg dumps or raw PCF files)")
    add_inputs(dec, "dmpmqmsg dumps or raw PCF files", nargs="*",
               json_help="one JSON object per message (JSON Lines)")
    dec.add_argument("--example", action="store_true",
                     help="decode the bundled example activity reports")
    dec.set_defaults(func=run)


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


def decode_messages(items: Iterable[InputMessage], *, as_json: bool, out=None,
                    problems: Problems | None = None) -> int:
    """Print every message as a tree (or JSON Lines); the number that failed to decode.

    Each failure goes to `problems` (default: a line on stderr) and the other messages are
    still printed.
    """
    out = out or sys.stdout
    problems = problems or Problems()
    failures = 0
    for n, item in enumerate(items, start=1):
        try:
            message = _decode_one(item)
        except PCFError as e:
            failures += 1
            message_problem(problems, item, e, prefix=f"message {n}: ")
            continue
        if as_json:
            record = {"message": n, "source": item.source, "line": item.line,
                      "md": md_to_dict(item.md) if item.md else None,
                      "pcf": pcf.message_to_dict(message) if message else None}
            if message is None:
                record["data_hex"] = item.data.hex()
            print(json.dumps(record), file=out)
            continue
        print(printable(f"Message {n} ({item.where}), {len(item.data)} bytes"), file=out)
        if item.md is not None:
            print(printable(f"  {_md_line(item.md)}"), file=out)
        if message is None:
            print(printable(f"  not PCF (format '{item.md.format}'): data kept as "
                            f"{len(item.data)} bytes"), file=out)
        else:
            print(pcf.render_tree(message, indent="  "), file=out)
        print(file=out)
    return failures


def _example_items() -> list[InputMessage]:
    from traceroute.records import example_reports

    return [InputMessage(md, data, "<example>", None) for md, data in example_reports()]


def run(args: argparse.Namespace) -> int:
    """`mqroute decode`: print PCF messages of dumps or raw files; 0 ok, 1 some unreadable."""
    if not args.files and not args.example:
        raise UsageError("decode: give FILE... (- for standard input) or --example")
    problems = Problems()
    items: list[Iterable[InputMessage]] = [read_inputs(args.files, problems)]
    if args.example:
        items.insert(0, _example_items())
    decode_messages((i for group in items for i in group), as_json=args.json,
                    problems=problems)
    return problems.status()
