"""The `mqroute` console script: the traceroute commands plus the Spark and graph ones."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from traceroute import cli


def _graph_commands(sub) -> None:
    from graph import pipeline

    pipeline.add_parser(sub)
    audit = sub.add_parser("audit", help="hold the configured topology (MQSC) against the "
                                         "observed routes (mqroute analyze's output)")
    audit.add_argument("--config", nargs="+", required=True, metavar="FILE.mqsc",
                       help="dmpmqcfg output of every queue manager")
    audit.add_argument("--observed", metavar="DIR",
                       help="the --out folder of mqroute analyze (without it: configuration "
                            "checks only)")
    audit.add_argument("--json", action="store_true", help="one JSON object per finding")
    audit.set_defaults(func=_audit)
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



def _audit(args) -> int:
    """`mqroute audit`: one finding per line; exit 1 when there are findings."""
    import json
    from dataclasses import asdict

    from graph.audit import audit, observed_sends
    from traceroute.mqsc import read_mqsc

    network = read_mqsc(args.config)
    sends = observed_sends(args.observed) if args.observed else []
    findings = audit(network, sends)
    for f in findings:
        if args.json:
            print(json.dumps(asdict(f)))
        else:
            print(f"{f.kind:<36}{f.queue_manager:<16}{','.join(f.objects):<40}{f.detail}")
    if not args.json:
        print(f"{len(findings)} finding(s): {len(network.qmgrs)} queue managers, "
              f"{len(sends)} observed channel uses", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
