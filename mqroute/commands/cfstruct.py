"""`mqroute cfstruct`: z/OS CF-structure offload rules evaluated, and sizing for a backlog.

    mqroute cfstruct [--mqsc FILE --name STRUCT] [--offload N TH SZ]... \
                     [--size 4G --backlog 1M [--usable 90]] [--message SIZE --usage PCT]
"""

from __future__ import annotations

import argparse

from mqroute.errors import UsageError
from mqroute.inputs import load_mqsc
from mqroute.options import add_mqsc, add_strict
from traceroute.events.offload import (
    KB,
    OffloadRules,
    backlog_bytes,
    backlog_percent,
    offload_all_limit,
    parse_size,
    show_size,
    suggest_rules,
)

SIZES = ("0K", "1K", "4K", "6K", "16K", "32K", "48K", "63K", "64K")
USAGES = (0, 50, 70, 75, 80, 85, 90, 95)

#: The exit statuses, as --help and docs/commands/cfstruct.md say them.
EXIT_STATUS = ("0 ok; 2 usage (a bad size, percentage or rule), the MQSC unreadable or without "
               "the CFSTRUCT.")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute cfstruct`."""
    p = sub.add_parser("cfstruct", help="z/OS shared-queue offload rules (OFFLOAD, "
                       "OFFLDnTH/OFFLDnSZ): what is offloaded when, CF storage for a backlog")
    add_mqsc(p, help="read DEFINE CFSTRUCT from this MQSC")
    add_strict(p)
    p.add_argument("--name", metavar="STRUCT", help="the CFSTRUCT to use from --mqsc")
    p.add_argument("--offload", nargs=3, action="append", default=[],
                   metavar=("N", "TH", "SZ"), help="rule N (1-3): OFFLDnTH %% and OFFLDnSZ")
    p.add_argument("--size", help="structure size (e.g. 4G)")
    p.add_argument("--backlog", help="messages the structure must hold (e.g. 1M = 2^20)")
    p.add_argument("--usable", type=float, default=100.0,
                   help="%% of the structure to plan with (the seed advises 90)")
    p.add_argument("--message", help="one message size to evaluate (e.g. 16K)")
    p.add_argument("--usage", type=float, help="with --message: structure usage %%")
    p.set_defaults(func=run)


def _checked(option: str, text: str | None, least: int) -> int | None:
    """A size or count (1M = 2^20, as MQ's sizing examples count) of at least `least`."""
    if not text:
        return None
    try:
        value = parse_size(text)
    except OverflowError:
        raise ValueError(f"{option} {text}: too large") from None
    if value < least or value >= 2 ** 63:
        raise ValueError(f"{option} {text}: must be {least} or more (and under 8 EB)")
    return value


def _rules(args: argparse.Namespace) -> OffloadRules:
    rules = OffloadRules()
    if args.mqsc:
        network = load_mqsc(args.mqsc, strict=args.strict)
        found = [obj for qm in network.qmgrs.values() for (kind, name), obj in qm.others.items()
                 if kind == "CFSTRUCT" and (args.name is None or name == args.name.upper())]
        if not found:
            raise ValueError(f"{', '.join(args.mqsc)}: no DEFINE CFSTRUCT"
                             + (f"({args.name})" if args.name else ""))
        rules = OffloadRules.from_mqsc(found[0].attrs)
    table = list(rules.rules)
    for n, th, sz in args.offload:
        if n not in ("1", "2", "3"):
            raise ValueError(f"--offload {n}: the rule number is 1, 2 or 3")
        if not th.isdigit():
            raise ValueError(f"--offload {n} {th}: OFFLD{n}TH is a whole number 0..100")
        threshold = int(th)
        if not 0 <= threshold <= 100:
            raise ValueError(f"--offload {n} {th}: OFFLD{n}TH is 0..100")
        table[int(n) - 1] = (threshold, parse_size(sz))
    return OffloadRules(tuple(table), rules.offload)


def run(args: argparse.Namespace) -> int:
    """Print the evaluation; 0 ok, 2 usage."""
    try:
        rules = _rules(args)
        message = _checked("--message", args.message, 0)
        size = _checked("--size", args.size, 1)
        backlog = _checked("--backlog", args.backlog, 0)
        if not 0 < args.usable <= 100:
            raise ValueError(f"--usable {args.usable:g}: a percentage over 0, at most 100")
        if args.usage is not None and not 0 <= args.usage <= 100:
            raise ValueError(f"--usage {args.usage:g}: a percentage from 0 to 100")
    except ValueError as e:
        raise UsageError(f"cfstruct: {e}") from None
    print(f"rules: {rules.mqsc()}")
    print("offloaded (rule that offloads; 'a' = always, over 63.75 KB) by message size and "
          "structure usage:")
    print(f"{'size':>6} " + " ".join(f"{f'>{u}%':>5}" for u in USAGES))
    for text in SIZES:
        n = parse_size(text) + (1 if text != "0K" else 0)
        cells = []
        for u in USAGES:
            rule = rules.rule_applied(n, u + 0.5)
            cells.append({None: "-", 0: "a"}.get(rule, str(rule)))
        print(f"{text + ('+' if text != '0K' else ''):>6} " + " ".join(f"{c:>5}" for c in cells))
    if message is not None:
        usage = args.usage if args.usage is not None else 0.0
        where = "offloaded" if rules.offloaded(message, usage) else "kept in the CF"
        print(f"a {show_size(message)} message at {usage:g}% usage: {where}; CF storage "
              f"{show_size(rules.cf_bytes(message, usage))}")
    if backlog is not None:
        need = backlog_bytes(backlog)
        print(f"backlog {backlog} messages: {show_size(need)} of CF storage (0.75 KB each)")
        if size is not None:
            limit = offload_all_limit(backlog, size, args.usable)
            print(f"structure {show_size(size)}: backlog is {backlog_percent(backlog, size):g}%;"
                  f" offload-all threshold must be <= {limit:g}% (planning with "
                  f"{args.usable:g}% of the structure)")
            print(f"suggested: {suggest_rules(backlog, size, args.usable, rules).mqsc()}")
    elif size is not None:
        print(f"structure {show_size(size)} holds about {size // (3 * KB // 4)} offloaded "
              "messages")
    return 0
