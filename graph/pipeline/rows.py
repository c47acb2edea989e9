"""Activity data as flat rows and back: the tables the Spark pipeline works on.

Pure functions, no Spark: one row per operation (with its activity and record), one row per
route, one row per hop. The Spark pipeline applies exactly these to its partitions, and the
single-process path applies them to a list, so both give the same answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import groupby

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.records.model import Activity, Operation, TraceRoute
from traceroute.records.parse import Record
from traceroute.routes.ordering import Gap, Route, route_of

#: Columns of the `operations` table, in order, with their Spark SQL types.
OPERATION_COLUMNS: tuple[tuple[str, str], ...] = (
    ("correl_id", "string"), ("record_kind", "string"), ("report_msg_id", "string"),
    ("source", "string"), ("position", "long"), ("activity_index", "int"),
    ("recorded", "int"), ("unrecorded", "int"), ("discontinuity", "int"),
    ("appl_name", "string"), ("appl_type", "int"), ("description", "string"),
    ("operation_index", "int"), ("operation_type", "int"), ("operation", "string"),
    ("date", "string"), ("time", "string"), ("queue_manager", "string"),
    ("queue", "string"), ("resolved_queue", "string"), ("remote_queue", "string"),
    ("remote_queue_manager", "string"), ("topic", "string"), ("channel", "string"),
    ("channel_type", "int"),
    ("xmit_queue", "string"), ("feedback", "int"), ("msg_id", "string"),
    ("embedded_msg_id", "string"), ("has_embedded_md", "boolean"),
    ("final_recorded", "int"), ("final_unrecorded", "int"), ("final_discontinuity", "int"),
)
ROUTE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("correl_id", "string"), ("verdict", "string"), ("complete", "boolean"),
    ("feedback", "int"), ("last_queue_manager", "string"), ("last_queue", "string"),
    ("last_channel", "string"), ("next_queue_manager", "string"), ("activities", "int"),
    ("hops", "int"), ("gaps", "int"), ("missing", "int"), ("branches", "int"),
    ("first_time", "string"), ("last_time", "string"), ("records", "int"),
)
HOP_COLUMNS: tuple[tuple[str, str], ...] = (
    ("correl_id", "string"), ("seq", "int"), ("kind", "string"), ("src", "string"),
    ("dst", "string"), ("src_queue_manager", "string"), ("dst_queue_manager", "string"),
    ("channel", "string"), ("queue", "string"), ("time", "string"), ("feedback", "int"),
    ("branch", "int"),
)
REJECT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("source", "string"), ("position", "long"), ("msg_id", "string"), ("error", "string"),
)


def _hex(value: bytes | None) -> str | None:
    return value.hex() if value is not None else None


#: Names of the `operations` columns, in order.
OPERATION_NAMES: tuple[str, ...] = tuple(name for name, _ in OPERATION_COLUMNS)


def operation_rows(record: Record, *, position: int | None = None) -> Iterator[dict]:
    """One row per operation of every activity of the record."""
    names = OPERATION_NAMES
    for values in operation_values(record, position=position):
        yield dict(zip(names, values, strict=True))


def operation_values(record: Record, *, position: int | None = None) -> Iterator[tuple]:
    """operation_rows' rows as tuples in OPERATION_COLUMNS order (no dict per row)."""
    report_id = _hex(record.md.msg_id) if record.md is not None else None
    final = record.trace_route.counters if record.trace_route else None
    f0, f1, f2 = final if final else (None, None, None)
    key, kind, source = record.key.hex(), record.kind, record.source
    pos = position if position is not None else record.line
    for a_index, activity in enumerate(record.activities):
        counters = activity.trace_route.counters if activity.trace_route else None
        c0, c1, c2 = counters if counters else (None, None, None)
        appl_name, appl_type, desc = activity.appl_name, activity.appl_type, activity.description
        for o_index, op in enumerate(activity.operations):
            md, emb = op.md, op.embedded_md
            yield (key, kind, report_id, source, pos, a_index, c0, c1, c2,
                   appl_name, appl_type, desc, o_index,
                   op.type, op.name, op.date, op.time, op.qmgr, op.queue,
                   op.resolved_queue, op.remote_queue, op.remote_qmgr, op.topic,
                   op.channel, op.channel_type, op.xmit_queue, op.feedback,
                   md.msg_id.hex() if md is not None else None,
                   emb.msg_id.hex() if emb is not None else None,
                   emb is not None, f0, f1, f2)


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
    """Rebuild Records (what ordering needs of them) from operation rows of one message."""
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
    """The `routes` table row of a route (`hops`: its hop_rows, when already made)."""
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
    """The message's movements in order: put to a queue, send over a channel, gaps."""
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


def routes_from_operation_rows(rows: Iterable[dict]) -> Iterator[Route]:
    """The route of each original message in operation rows (any order, any mix)."""
    for _, outcome in routes_or_failures(rows):
        if isinstance(outcome, Exception):
            raise outcome
        yield outcome


def routes_or_failures(rows: Iterable[dict]) -> Iterator[tuple[dict, Route | Exception]]:
    """(first row, route) of each original message, or (first row, the error) for one whose
    route could not be built: one bad message never stops the others."""
    by_key: dict[str, list[dict]] = {}
    for r in rows:
        by_key.setdefault(r["correl_id"], []).append(r)
    for key, group in by_key.items():
        first = min(group, key=lambda r: (r["source"] or "", r["position"] or 0))
        try:
            yield first, route_of(bytes.fromhex(key), records_from_rows(group))
        except Exception as e:  # a reject row, not a dead job
            yield first, e


def route_failure(first: dict, error: Exception) -> dict:
    """The `rejects` row of a message whose route could not be built."""
    return {"source": first.get("source"), "position": first.get("position"),
            "msg_id": first.get("report_msg_id"),
            "error": f"route of message {first.get('correl_id')}: "
                     f"{type(error).__name__}: {error}"}
