"""The command-line reference made from the parsers themselves (docs pages, `--help` checks).

The documentation's command pages hold a marker, `<!-- mqroute-options: show -->`, that
`tools/docs_hooks.py` replaces with `options_markdown("show")` when the site is built, so
the options a page lists are the parser's, never a copy that could drift.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from mqroute.main import build_parser, subcommand_parsers


def subparsers(parser: argparse.ArgumentParser | None = None) -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser by name, in `mqroute --help`'s order."""
    return subcommand_parsers(parser or build_parser())


def command_helps(parser: argparse.ArgumentParser | None = None) -> dict[str, str]:
    """Each subcommand's one-line help, as `mqroute --help` lists it."""
    parser = parser or build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help or "" for a in action._choices_actions}
    return {}


def visible_actions(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """The parser's arguments as `--help` shows them (hidden aliases and -h left out)."""
    for action in parser._actions:
        if action.help == argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
            continue
        yield action


def _usage_of(action: argparse.Action, parser: argparse.ArgumentParser) -> str:
    formatter = parser._get_formatter()
    if not action.option_strings:
        return formatter._format_args(action, action.metavar or action.dest)
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    args = formatter._format_args(action, formatter._get_default_metavar_for_optional(action))
    return ", ".join(f"{o} {args}" for o in action.option_strings)


def _help_of(action: argparse.Action, parser: argparse.ArgumentParser) -> str:
    text = parser._get_formatter()._expand_help(action) if action.help else ""
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        choices = ", ".join(f"`{c}`" for c in action.choices)
        if "one of" not in text:
            text = f"{text} (one of {choices})" if text else f"one of {choices}"
    return text


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def options_markdown(name: str, parser: argparse.ArgumentParser | None = None) -> str:
    """The usage line and a Markdown table of every option of `mqroute NAME`."""
    sub = subparsers(parser)[name]
    usage = " ".join(sub.format_usage().split())
    usage = usage.removeprefix("usage: ")
    lines = [f"```text\n{usage}\n```", "", "| option | meaning |", "| --- | --- |"]
    for action in visible_actions(sub):
        lines.append(f"| `{_cell(_usage_of(action, sub))}` | {_cell(_help_of(action, sub))} |")
    for note in (sub.epilog or "").split("\n\n"):  # the page has its own statuses and is
        if note.strip() and not note.startswith(("Exit status:", "Documentation:")):  # itself
            lines += ["", _cell(note)]
    return "\n".join(lines) + "\n"


def commands_markdown(parser: argparse.ArgumentParser | None = None) -> str:
    """A Markdown table of every command with its one-line help, linking its page."""
    lines = ["| command | what it does |", "| --- | --- |"]
    for name, text in command_helps(parser).items():
        lines.append(f"| [`{name}`]({name}.md) | {_cell(text)} |")
    return "\n".join(lines) + "\n"
