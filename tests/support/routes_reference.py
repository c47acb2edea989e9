"""The routes stage's mapInArrow body as it was before it went column-wise, kept as the
reference `graph.pipeline.reports.routes_of_batches` is tested against.

It reads its batches row by row (a dict per operation row), groups the dicts by correl_id,
rebuilds each message's Records from them and writes the route and hop rows as dicts for
`from_pylist`. The ordering itself (`route_of`) is the project's: what is held equal here is
everything around it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import groupby

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.records.model import Activity, Operation, TraceRoute
from traceroute.records.parse import Record
from traceroute.routes.ordering import Gap, Route, route_of


def routes_of_batches(batches: Iterator) -> Iterator:
    """Operation batches sorted by correl_id -> route batches (ROUTE_OUTPUT), row by row."""
    import pyarrow as pa

    from graph.pipeline.reports import _route_arrow_schema

    schema = _route_arrow_schema()
    carry: list[dict] = []
    for batch in batches:
        rows = carry + batch.to_pylist()
        if not rows:
            continue
        last = rows[-1]["correl_id"]
        cut = len(rows)
        while cut and rows[cut - 1]["correl_id"] == last:
            cut -= 1
        done, carry = rows[:cut], rows[cut:]
        if done:
            yield pa.RecordBatch.from_pylist(_route_rows(done), schema=schema)
    if carry:
        yield pa.RecordBatch.from_pylist(_route_rows(carry), schema=schema)


def _route_rows(rows: list[dict]) -> list[dict]:
    out = []
    for first, outcome in routes_or_failures(rows):
        if isinstance(outcome, Exception):
            failure = {"source": first.get("source"), "position": first.get("position"),
                       "msg_id": first.get("report_msg_id"),
                       "error": f"route of message {first.get('correl_id')}: "
                                f"{type(outcome).__name__}: {outcome}"}
            out.append({"correl_id": first["correl_id"], "hop_list": [],
                        **{f"failed_{k}": v for k, v in failure.items()}})
        else:
            hops = list(hop_rows(outcome))
            out.append({**route_row(outcome, hops), "hop_list": hops})
    return out


def routes_or_failures(rows: Iterable[dict]) -> Iterator[tuple[dict, Route | Exception]]:
    """(first row, route or error) of each original message in dict rows."""
    by_key: dict[str, list[dict]] = {}
    for r in rows:
        by_key.setdefault(r["correl_id"], []).append(r)
    for key, group in by_key.items():
        first = min(group, key=lambda r: (r["source"] or "", r["position"] or 0))
        try:
            yield first, route_of(bytes.fromhex(key), records_from_rows(group))
        except Exception as e:
            yield first, e


def _operation(row: dict) -> Operation:
    emb = row.get("embedded_msg_id")
    md_id = row.get("msg_id")
    return Operation(
        row["operation_type"], row["date"] or "", row["time"] or "", row["queue_manager"] or "",
        None, row["queue"], row["resolved_queue"], row["remote_queue"],
        row["remote_queue_manager"], row.get("topic"), row["channel"], row["channel_type"],
        row["xmit_queue"], row["feedback"],
        md=MQMD(msg_id=bytes.fromhex(md_id)) if md_id else None,
        embedded_md=MQMD(msg_id=bytes.fromhex(emb)) if row.get("has_embedded_md") and emb
        else (MQMD() if row.get("has_embedded_md") else None))


def _counters(row: dict, prefix: str = "") -> TraceRoute | None:
    r = row.get(f"{prefix}recorded")
    if r is None:
        return None
    return TraceRoute(recorded_activities=r, unrecorded_activities=row[f"{prefix}unrecorded"],
                      discontinuity_count=row[f"{prefix}discontinuity"])


def records_from_rows(rows: Iterable[dict]) -> list[Record]:
    """Records rebuilt from the dict rows of one message."""
    ordered = sorted(rows, key=lambda r: (r["source"] or "", r["position"] or 0,
                                          r["report_msg_id"] or "", r["activity_index"],
                                          r["operation_index"]))
    records = []
    for _, record_rows in groupby(ordered, key=lambda r: (r["source"], r["position"],
                                                         r["report_msg_id"])):
        record_rows = list(record_rows)
        first = record_rows[0]
        activities = []
        for _, act_rows in groupby(record_rows, key=lambda r: r["activity_index"]):
            act_rows = list(act_rows)
            a = act_rows[0]
            activities.append(Activity(a["appl_name"] or "", a["appl_type"],
                                       a["description"] or "",
                                       tuple(_operation(r) for r in act_rows),
                                       _counters(a)))
        records.append(Record(first["record_kind"], bytes.fromhex(first["correl_id"]),
                              tuple(activities), _counters(first, "final_"),
                              source=first["source"], line=first["position"]))
    return records


def _times(route: Route) -> list[str]:
    return [op.timestamp for a in route.activities for op in a.operations if op.timestamp]


def route_row(route: Route, hops: list[dict] | None = None) -> dict:
    """The `routes` row of a route, as a dict."""
    loc = route.location
    times = _times(route)
    gaps = route.gaps
    return {
        "correl_id": route.correl_id.hex(), "verdict": route.verdict.value,
        "complete": route.complete, "feedback": route.outcome.feedback,
        "last_queue_manager": loc.queue_manager, "last_queue": loc.queue,
        "last_channel": loc.channel, "next_queue_manager": loc.remote_queue_manager,
        "activities": len(route.activities),
        "hops": len(hops) if hops is not None else sum(1 for _ in hop_rows(route)),
        "gaps": len(gaps), "missing": sum(g.missing or 0 for g in gaps),
        "branches": len(route.branches),
        "first_time": min(times) if times else None, "last_time": max(times) if times else None,
        "records": route.records,
    }


def hop_rows(route: Route, branch: int = 0, start: int = 0) -> Iterator[dict]:
    """The `hops` rows of a route, as dicts, branches after the trunk."""
    seq = start
    key = route.correl_id.hex()

    def row(kind: str, src: str, dst: str, op: Operation | None, **extra) -> dict:
        nonlocal seq
        seq += 1
        base = {"correl_id": key, "seq": seq, "kind": kind, "src": src, "dst": dst,
                "src_queue_manager": op.qmgr if op else None, "dst_queue_manager": None,
                "channel": None, "queue": None, "time": op.timestamp if op else None,
                "feedback": op.feedback if op else None, "branch": branch}
        return {**base, **extra}

    for step in route.steps:
        if isinstance(step, Gap):
            yield row("gap", "?", "?", None, feedback=None)
            continue
        for op in step.operations:
            if op.type == mqc.MQOPER_SEND:
                yield row("send", op.qmgr, op.remote_qmgr or "?", op,
                          dst_queue_manager=op.remote_qmgr, channel=op.channel,
                          queue=op.xmit_queue)
            elif op.is_put:
                queue = op.resolved_queue or op.queue or op.topic or "?"
                yield row("put", op.qmgr, f"{op.qmgr}/{queue}", op,
                          dst_queue_manager=op.qmgr, queue=queue)
            elif op.type == mqc.MQOPER_DISCARD:
                yield row("discard", op.qmgr, f"{op.qmgr}/(discarded)", op,
                          dst_queue_manager=op.qmgr, queue=op.queue)
    for n, b in enumerate(route.branches, start=1):
        for r in hop_rows(b, branch=n, start=seq):
            seq = r["seq"]
            yield r
