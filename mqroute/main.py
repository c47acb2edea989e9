"""The `mqroute` entry point: the parser of every subcommand, dispatch, exit statuses."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from pcf.errors import DumpFormatError, PCFError

#: The subcommand modules under mqroute.commands, in the order `mqroute --help` lists them.
COMMANDS = ("decode", "show", "trace", "analyze", "audit", "stats", "events", "cfstruct",
            "report")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `mqroute`, with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="mqroute", description="Reconstruct the routes of messages through IBM MQ.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"mqroute.commands.{name}").add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run `mqroute` with these arguments (default: the process's); the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(words)
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
