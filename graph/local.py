"""The single-process path over the same inputs as the Spark pipeline (no Spark).

It is the reference the Spark results are tested against, and the benchmark's baseline:
the same readers' logic, the same decoder, the same ordering code, in one Python process.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from graph.dumpsplit import Split, read_range
from graph.rows import hop_rows, route_row
from pcf.errors import PCFError
from traceroute.ordering import build_routes
from traceroute.parse import NotActivityData, Record, parse_message


@dataclass
class LocalResult:
    """Routes (as `routes` rows), hops, and rejects, from one process."""

    routes: list[dict] = field(default_factory=list)
    hops: list[dict] = field(default_factory=list)
    rejects: list[dict] = field(default_factory=list)
    messages: int = 0


def _records(inputs: Sequence[str], result: LocalResult) -> Iterator[Record]:
    from graph.pipeline import _files

    dumps, raws, parquets = _files(inputs)
    if parquets:
        raise ValueError("the single-process path reads dumps and raw files, not Parquet")
    entries = (e for p in dumps for e in read_range(Split(p, 0, Path(p).stat().st_size)))
    for e in entries:
        result.messages += 1
        if e.error is not None:
            result.rejects.append({"source": e.source, "position": e.offset, "error": e.error})
            continue
        try:
            yield parse_message(e.md, e.data or b"", source=e.source, line=e.offset)
        except (PCFError, NotActivityData) as err:
            result.rejects.append({"source": e.source, "position": e.offset,
                                   "error": f"{type(err).__name__}: {err}"})
    for path in raws:
        result.messages += 1
        try:
            yield parse_message(None, Path(path).read_bytes(), source=path, line=0)
        except (PCFError, NotActivityData) as err:
            result.rejects.append({"source": path, "position": 0,
                                   "error": f"{type(err).__name__}: {err}"})


def run_local(inputs: Sequence[str]) -> LocalResult:
    """Every route of the inputs, in this process."""
    result = LocalResult()
    routes = build_routes(_records(inputs, result))
    for route in routes:
        result.routes.append(route_row(route))
        result.hops.extend(hop_rows(route))
    return result
