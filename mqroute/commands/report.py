"""`mqroute report`: one self-contained HTML page from `mqroute analyze`'s output folder."""

from __future__ import annotations

import argparse
import sys

from mqroute.errors import FatalError
from mqroute.extras import need
from mqroute.options import add_mqsc, add_strict
from mqroute.paths import input_path, output_path
from pcf.text import printable

#: The exit statuses, as --help and docs/commands/report.md say them.
EXIT_STATUS = ("0 written; 2 the folder is not analyze output, its tables or the MQSC "
               "unreadable, or the page cannot be written.")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `mqroute report`."""
    p = sub.add_parser("report", help="one self-contained HTML page of an analyze output: "
                                      "verdicts, lost messages, estate picture, channels, "
                                      "audit, events, routes")
    p.add_argument("dir", metavar="DIR", type=input_path,
                   help="the --out folder of mqroute analyze: a path, or a URI as analyze "
                        "takes (file://, s3://, gs://, abfs://, hdfs://)")
    p.add_argument("-o", "--output", default="report.html", metavar="FILE.html",
                   type=output_path, help="where to write the page (default: report.html)")
    add_mqsc(p, old=["--config"], help="dmpmqcfg output of every queue manager: adds the "
             "audit's findings, dead configured channels and MQ clusters on the estate picture")
    add_strict(p)
    p.add_argument("--routes", type=int, default=12, metavar="N",
                   help="route pages: one example per group of lost messages and one "
                        "delivered, at most N (default 12)")
    p.add_argument("--max-nodes", type=int, default=24, metavar="N",
                   help="queue managers drawn on their own in the estate picture; the "
                        "quieter rest are aggregated per cluster (default 24)")
    p.add_argument("--title", help="the page's title")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the report; 0 when written, 2 when the folder or configuration cannot be read."""
    need("report", "numpy", "pyarrow", "pygraphviz", "networkx", extra="pictures")
    from graph.pipeline.storage import StorageError, location
    from graph.report import build_report
    from graph.report.tables import TableError
    from mqroute.inputs import load_mqsc
    from mqroute.output import WriteError, write_file

    try:
        has_routes = (location(str(args.dir)) / "routes").is_dir()
    except StorageError as e:
        raise FatalError(f"{args.dir}: {e.reason}") from None
    if not has_routes:
        raise FatalError(f"{args.dir}: no routes/ table here (give the --out folder of "
                         "mqroute analyze)")
    network = load_mqsc(args.mqsc, strict=args.strict) if args.mqsc else None
    try:
        page = build_report(args.dir, network=network, title=args.title,
                            routes=args.routes, max_nodes=args.max_nodes,
                            problem=lambda text: print(
                                printable(f"mqroute: {args.output}: {text}"), file=sys.stderr))
    except TableError as e:                # names the table and column
        raise FatalError(str(e)) from None
    except StorageError as e:              # names the file or folder of the store
        raise FatalError(str(e).splitlines()[0]) from None
    except (OSError, ValueError) as e:     # pyarrow's ArrowInvalid is a ValueError
        raise FatalError(f"{args.dir}: {e}".splitlines()[0]) from None
    try:
        path = write_file(args.output, page)
    except WriteError as e:
        raise FatalError(str(e)) from None
    print(f"{path}: report of {args.dir}", file=sys.stderr)
    return 0
