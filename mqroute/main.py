"""The `mqroute` entry point: the parser of every subcommand, dispatch, exit statuses."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from mqroute.errors import run_command
from mqroute.extras import missing_extra
from mqroute.options import untangle
from mqroute.output import terminal_safe
from mqroute.paths import check_paths, option_names

#: The subcommand modules under mqroute.commands, in the order `mqroute --help` lists them.
COMMANDS = ("decode", "show", "trace", "analyze", "audit", "stats", "events", "cfstruct",
            "follow", "report", "metrics", "smf", "sim")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `mqroute`, with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="mqroute", description="Reconstruct the routes of messages through IBM MQ.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"mqroute.commands.{name}").add_parser(sub)
    return parser


def subcommand_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Each subcommand's parser by name."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def _dispatch(words: list[str]) -> int:
    parser = build_parser()
    subs = subcommand_parsers(parser)
    typed = words[1:]
    if words and words[0] in subs:  # values several-valued options would swallow: back
        words = [words[0], *untangle(subs[words[0]], words[1:])]
    args, extra = parser.parse_known_args(words)  # --help, usage errors: SystemExit 0 or 2
    if extra:  # the subcommand's own usage, not the list of subcommands
        subs[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    check_paths(args, option_names(subs[args.command]))  # before any work
    args.argv = typed
    try:
        return args.func(args)
    except ModuleNotFoundError as e:  # an optional dependency: which extra installs it
        error = missing_extra(args.command, e)
        if error is None:
            raise
        raise error from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run `mqroute` with these arguments (default: the process's); the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    with terminal_safe():
        return run_command(_dispatch, words)


if __name__ == "__main__":
    sys.exit(main())
