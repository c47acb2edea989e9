"""The `mqroute` console script: the traceroute commands plus the Spark and graph ones."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from traceroute import cli


def _graph_commands(sub) -> None:
    from graph import pipeline

    pipeline.add_parser(sub)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `mqroute`."""
    return cli.main(argv, extra=[_graph_commands])


if __name__ == "__main__":
    sys.exit(main())
