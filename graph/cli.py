"""The `mqroute` console script: the traceroute commands plus the Spark and graph ones."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from traceroute import cli


def _graph_commands(sub) -> None:
    from graph import pipeline

    pipeline.add_parser(sub)
    for name in ("show", "trace"):
        command = sub.choices[name]
        command.add_argument("--graph", metavar="FILE", help="also draw the route(s): .png, "
                             ".svg or .pdf picture, .graphml or .json (node-link)")
        command.set_defaults(after_routes=_draw)


def _draw(args, routes) -> None:
    """`--graph FILE`: the routes as one picture or export."""
    if not getattr(args, "graph", None) or not routes:
        return
    from graph.routegraph import network_graph, save

    title = routes[0].verdict.text if len(routes) == 1 else f"{len(routes)} routes"
    path = save(network_graph(routes), args.graph, title=title)
    print(f"mqroute: route graph written to {path}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `mqroute`."""
    return cli.main(argv, extra=[_graph_commands])


if __name__ == "__main__":
    sys.exit(main())
