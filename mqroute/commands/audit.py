"""`mqroute audit`: the configured topology (MQSC) held against the observed routes."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute audit`."""
    audit = sub.add_parser("audit", help="hold the configured topology (MQSC) against the "
                                         "observed routes (mqroute analyze's output)")
    audit.add_argument("--config", nargs="+", required=True, metavar="FILE.mqsc",
                       help="dmpmqcfg output of every queue manager")
    audit.add_argument("--observed", metavar="DIR",
                       help="the --out folder of mqroute analyze (without it: configuration "
                            "checks only)")
    audit.add_argument("--json", action="store_true", help="one JSON object per finding")
    audit.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """One finding per line; exit 1 when there are findings."""
    from graph.audit import audit_with_statistics, observed_with_statistics
    from traceroute.sim.mqsc import MQSCError, read_mqsc

    try:
        network = read_mqsc(args.config)
    except MQSCError as e:
        print(f"mqroute: {e.located}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"mqroute: {e.filename or args.config[0]}: {e.strerror or e}", file=sys.stderr)
        return 2
    sends, queues = observed_with_statistics(args.observed) if args.observed else ([], [])
    findings = audit_with_statistics(network, sends, queues)
    for f in findings:
        if args.json:
            print(json.dumps(asdict(f)))
        else:
            print(f"{f.kind:<36}{f.queue_manager:<16}{','.join(f.objects):<40}{f.detail}")
    if not args.json:
        print(f"{len(findings)} finding(s): {len(network.qmgrs)} queue managers, "
              f"{len(sends)} observed channel uses", file=sys.stderr)
    return 1 if findings else 0
