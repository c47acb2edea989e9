"""`mqroute audit`: the configured topology (MQSC) held against the observed routes."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from mqroute.errors import EXIT_FINDINGS, FatalError, UsageError
from mqroute.estates import add_admin_options
from mqroute.graphopts import add_graph_engine_options
from mqroute.inputs import load_mqsc
from mqroute.options import add_connection, add_mqsc, add_network, add_rest, add_strict
from mqroute.paths import input_path
from pcf.text import printable

#: The exit statuses, as --help and docs/commands/audit.md say them.
EXIT_STATUS = ("0 no findings; 3 findings; 2 usage, the MQSC or --observed unreadable.")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute audit`."""
    audit = sub.add_parser("audit", help="hold the configured topology (MQSC) against the "
                                         "observed routes (mqroute analyze's output)")
    add_mqsc(audit, old=["--config"], help="dmpmqcfg output of every queue manager (or -m)")
    add_strict(audit)
    audit.add_argument("-m", dest="qmgrs", action="append", default=[], metavar="QMGR",
                       help="collect this queue manager's configuration live, through its "
                            "command server, instead of reading MQSC (repeatable; with "
                            "--network or the connection options)")
    add_network(audit, help="with -m (or alone: every queue manager of it): a simulated "
                            "estate, demo, MQSC files or an estate folder")
    add_admin_options(audit)
    add_connection(audit, qmgr=False)
    add_rest(audit)
    audit.add_argument("--observed", metavar="DIR", type=input_path,
                       help="the --out folder of mqroute analyze, a path or a URI as "
                            "analyze takes (file://, s3://, gs://, abfs://, hdfs://); without "
                            "it: configuration checks only")
    audit.add_argument("--json", action="store_true", help="one JSON object per finding")
    add_graph_engine_options(audit)
    audit.epilog = ("With --engine or --graphframes-jar, the graph-shaped checks (alias loops "
                    "of two or three queue managers, receivers without a sender, remote "
                    "definitions that lead nowhere) run as motifs on Spark.")
    audit.set_defaults(func=run)


def spark_patterns(args: argparse.Namespace, network, findings: list) -> list:
    """The findings with the graph-shaped kinds found by motifs on Spark instead (alias
    loops longer than three queue managers still come from the walk in graph.audit)."""
    from graph.analytics import configuration_patterns
    from graph.audit import Finding
    from graph.engines import choose_engine
    from graph.network import configured_graph
    from mqroute.graphopts import start_session

    spark = start_session(args, "mqroute audit")
    engine = choose_engine(spark, args.engine)
    vertices, edges = configured_graph(spark, network)
    rows = configuration_patterns(spark, vertices, edges, engine=engine).collect()
    kinds = {"alias_loop", "receiver_without_sender", "remote_definition_without_channel"}
    kept = [f for f in findings if f.kind not in kinds
            or (f.kind == "alias_loop" and len(f.objects) > 4)]
    found = [Finding(r["kind"], r["queue_manager"], tuple(r["objects"]), r["detail"])
             for r in rows]
    print(f"graph patterns on {engine}", file=sys.stderr)
    return sorted(kept + found, key=lambda f: (f.kind, f.queue_manager, f.objects))


def live_network(args: argparse.Namespace):
    """The configuration of the -m queue managers (every queue manager of --network when
    none is named), collected through their command servers: the network audit reads."""
    from mqroute.estates import administration
    from traceroute.mq.config import collect_config, to_queue_manager
    from traceroute.sim.network import Network

    if not args.wait > 0:
        raise UsageError(f"--wait {args.wait:g}: seconds above 0")
    network = Network()
    with administration(args, wait=args.wait, specs=args.network) as connect:
        for name in args.qmgrs or list(connect.names):
            config = collect_config(connect(name))
            network.qmgrs[config.name] = to_queue_manager(config, defaults=False,
                                                          keep_level=True)
    if not network.qmgrs:
        raise UsageError("audit: -m QMGR (which queue managers to collect)")
    return network


def run(args: argparse.Namespace) -> int:
    """One finding per line; exit 3 when there are findings (0 when the estate is clean)."""
    from graph.audit import audit_output

    if args.qmgrs or args.network:
        if args.mqsc:
            raise UsageError("audit: --mqsc reads the configuration from files; -m/--network "
                             "collect it live: give one or the other")
        network = live_network(args)
    elif not args.mqsc:
        raise UsageError("audit needs the configuration: --mqsc FILE.mqsc... (dmpmqcfg output "
                         "of every queue manager), or -m QMGR... to collect it live")
    else:
        network = load_mqsc(args.mqsc, strict=args.strict)
    stored: tuple = ()
    if args.observed:
        from graph.pipeline.storage import StorageError
        stored = (StorageError,)
    try:
        findings = audit_output(network, args.observed or None)
    except stored as e:  # a store's file or folder: its URI and the reason
        raise FatalError(str(e).splitlines()[0]) from None
    except (OSError, ValueError, KeyError) as e:  # pyarrow's ArrowInvalid is a ValueError
        reason = (e.strerror if isinstance(e, OSError) and e.strerror else str(e))
        first = reason.splitlines()[0] if reason.strip() else type(e).__name__
        raise FatalError(f"{args.observed}: {first}") from None
    if args.engine or args.graphframes_jar:
        findings = spark_patterns(args, network, findings)
    for f in findings:
        if args.json:
            print(json.dumps(asdict(f)))
        else:
            print(printable(f"{f.kind:<36}{f.queue_manager:<16}{','.join(f.objects):<40}"
                            f"{f.detail}"))
    if not args.json:
        seen = (f"held against {args.observed}" if args.observed
                else "configuration checks only")
        print(f"{len(findings)} finding(s): {len(network.qmgrs)} queue managers, {seen}",
              file=sys.stderr)
    return EXIT_FINDINGS if findings else 0
