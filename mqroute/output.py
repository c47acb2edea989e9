"""What several subcommands print: routes as dspmqrte text or JSON, and `--graph` pictures."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence

from traceroute.display import OUTLINE_OPTIONS, render_route, route_heading, route_to_dict
from traceroute.routes import Route


def parse_verbosity(words: Sequence[str]) -> tuple[str, list[str]]:
    """dspmqrte's -v: a level (summary, outline, all, none) and outline's display options."""
    level, *rest = words or ["summary"]
    options = [o for w in rest for o in w.split(",") if o]
    if level not in LEVELS:
        raise SystemExit(f"mqroute: -v {level}: use summary, outline, all or none")
    bad = set(options) - OUTLINE_OPTIONS
    if bad or (options and level != "outline"):
        raise SystemExit(f"mqroute: -v {' '.join(words)}: display options go with outline: "
                         f"{', '.join(sorted(OUTLINE_OPTIONS))}")
    return level, options


LEVELS = ("summary", "outline", "all", "none")


def verbosity_word(word: str) -> bool:
    """Whether a word belongs to dspmqrte's -v: a level or outline's display options."""
    return word in LEVELS or all(o in OUTLINE_OPTIONS for o in word.split(",") if o)


def add_verbosity(parser: argparse.ArgumentParser, *, unset: bool = False) -> None:
    """dspmqrte's `-v LEVEL [OPTIONS]`: stops at the first word that is not its own, so the
    files after it stay the command's. With `unset`, `args.v` is None when -v is not given
    (summary all the same), so a command can tell that -v was asked for."""
    from mqroute.options import several

    several(parser, "-v", dest="v", replace=True, accepts=verbosity_word,
            default=None if unset else ["summary"],
            metavar="LEVEL", help="summary (default), outline [activity,identifiers,message,"
                                  "msgdelta,operation,traceroute], all or none")


def print_route(route: Route, *, as_json: bool, level: str, options: Sequence[str],
                heading: bool = True, parameters: str | None = None) -> None:
    """One route as a JSON line, or as dspmqrte's text (with `show`'s heading, notes and
    blank line unless heading=False, as `trace` prints it)."""
    if as_json:
        print(json.dumps(route_to_dict(route, parameters=parameters)))
        return
    if heading:
        print(route_heading(route))
    for line in render_route(route, level, list(options)):
        print(line)
    if heading:
        for note in route.notes:
            print(f"note: {note}")
        print()


def print_routes(routes: Iterable[Route], *, as_json: bool, verbosity: Sequence[str]) -> int:
    """Print routes as dspmqrte-style text or JSON Lines; the number printed."""
    level, options = parse_verbosity(verbosity)
    count = 0
    for route in routes:
        count += 1
        print_route(route, as_json=as_json, level=level, options=options)
    return count


def add_graph_option(parser: argparse.ArgumentParser) -> None:
    """`--graph FILE`: also draw the routes."""
    parser.add_argument("--graph", metavar="FILE", help="also draw the route(s): .png, .svg or "
                        ".pdf picture, .graphml or .json (node-link)")


def draw_routes(args: argparse.Namespace, routes: list[Route]) -> None:
    """`--graph FILE`: the routes as one picture or export."""
    if not getattr(args, "graph", None) or not routes:
        return
    from graph.routegraph import network_graph, save

    title = routes[0].verdict.text if len(routes) == 1 else f"{len(routes)} routes"
    path = save(network_graph(routes), args.graph, title=title)
    print(f"mqroute: route graph written to {path}", file=sys.stderr)


def print_json_lines(objects: Iterable[object], *, ensure_ascii: bool = True) -> int:
    """Print each object as one line of JSON (JSON Lines) on standard output; how many."""
    count = 0
    for obj in objects:
        print(json.dumps(obj, ensure_ascii=ensure_ascii))
        count += 1
    return count
