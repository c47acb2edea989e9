"""The `mqroute` entry point: the parser of every subcommand, dispatch, exit statuses."""

from __future__ import annotations

import argparse
import importlib
import sys
import textwrap
from collections.abc import Sequence

from mqroute.errors import run_command, terminate_cleanly
from mqroute.extras import missing_extra
from mqroute.options import untangle
from mqroute.output import terminal_safe
from mqroute.paths import check_paths, option_names, plain

#: The subcommand modules under mqroute.commands, in the order `mqroute --help` lists them.
COMMANDS = ("decode", "show", "trace", "analyze", "audit", "stats", "events", "cfstruct",
            "follow", "report", "metrics", "smf", "sim", "status", "config")


#: Said at the end of every command's --help: the statuses every command shares.
COMMON_STATUSES = "141 output closed early (piped into head); 130 interrupted."
#: Width of --help's paragraphs.
HELP_WIDTH = 78


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `mqroute`, with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="mqroute", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=_fill("Where did my IBM MQ message go? Routes, journeys, events and "
                          "statistics of IBM MQ networks, from what queue managers write."),
        epilog=_fill("mqroute COMMAND --help describes each command; the documentation is in "
                     "docs/ (mkdocs serve)."))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"mqroute.commands.{name}")
        module.add_parser(sub)
        _one_tool(sub, name, getattr(module, "EXIT_STATUS", None))
    return parser


def _fill(text: str) -> str:
    return "\n\n".join(textwrap.fill(" ".join(p.split()), HELP_WIDTH)
                        for p in text.split("\n\n") if p.strip())


def _one_tool(sub: argparse._SubParsersAction, name: str, statuses: str | None) -> None:
    """Every command's --help in one shape: what it does (its line in `mqroute --help`, then
    its own description), its options, its own notes, its exit statuses, where its page is."""
    parser = sub.choices[name]
    summary = next((a.help for a in sub._choices_actions if a.dest == name), "") or ""
    head = summary[:1].upper() + summary[1:].rstrip(".") + "." if summary else ""
    description = parser.description or ""
    if head and not description.startswith(head[:-1]):
        description = f"{head}\n\n{description}" if description else head
    notes = [parser.epilog] if parser.epilog else []
    if statuses:
        notes.append(f"Exit status: {statuses} {COMMON_STATUSES}")
    notes.append(f"Documentation: docs/commands/{name}.md")
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = _fill(description)
    parser.epilog = _fill("\n\n".join(notes))


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
    plain(args)          # the commands get plain strings (Spark cannot pickle a subclass)
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
    with terminal_safe(), terminate_cleanly():
        return run_command(_dispatch, words)


if __name__ == "__main__":
    sys.exit(main())
