"""Activity data as flat rows and back: the tables the Spark pipeline works on.

Pure functions, no Spark: one row per operation (with its activity and record), one row per
route, one row per hop. The Spark pipeline applies exactly these to its partitions, and the
single-process path applies them to a list, so both give the same answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from operator import itemgetter

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.records.model import PUT_TYPES, Activity, Operation, TraceRoute
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
    ("sub_id", "string"), ("sub_level", "int"),
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


#: Names of the `operations` columns, in order.
OPERATION_NAMES: tuple[str, ...] = tuple(name for name, _ in OPERATION_COLUMNS)




#: Names of the `routes` and `hops` columns, in order.
ROUTE_NAMES: tuple[str, ...] = tuple(name for name, _ in ROUTE_COLUMNS)
HOP_NAMES: tuple[str, ...] = tuple(name for name, _ in HOP_COLUMNS)
#: The `operations` columns a route is rebuilt from (the operation's name is not read).
ROUTE_INPUT: tuple[str, ...] = tuple(n for n in OPERATION_NAMES if n != "operation")
#: Of ROUTE_INPUT, the operations' MsgIds: read only when MQMDs are asked for.
MD_COLUMNS: tuple[str, ...] = ("msg_id", "embedded_msg_id")
#: The operation columns the routes stage reads (no MQMDs are made: their MsgIds stay behind).
ROUTES_READ: tuple[str, ...] = tuple(n for n in ROUTE_INPUT if n not in MD_COLUMNS)

_route_input = itemgetter(*ROUTE_INPUT)


@lru_cache(maxsize=4096)
def _counters(recorded: int, unrecorded: int | None, discontinuity: int | None) -> TraceRoute:
    """The TraceRoute of these counters (one value for each, as many records share them)."""
    return TraceRoute(None, recorded, unrecorded, discontinuity)


_ANY_MD = MQMD()  # one embedded MQMD for every operation with one, when nothing reads them


def records_of_columns(c: Mapping[str, Sequence], rows: Iterable[int], *,
                       mds: bool = True) -> list[Record]:
    """Rebuild Records (what ordering needs of them) from operation rows of one message.

    `c`: the ROUTE_INPUT columns as lists; `rows`: the message's row indices in them, any
    order. Records in (source, position, report MsgId) order, their activities and
    operations by index. `mds=False` leaves out the operations' MQMDs, which routes and hops
    do not read (MD_COLUMNS are then not read; an embedded MQMD is a blank one: only its
    presence counts, as a get from a transmission queue).
    """
    (correl, kind, report, source, position, a_index, rec, unrec, disc, appl_name, appl_type,
     desc, o_index, op_type, date, time, qmgr, queue, resolved, remote_queue, remote_qmgr,
     topic, channel, channel_type, xmitq, feedback, msg_id, emb_id, has_emb, f_rec, f_unrec,
     f_disc, sub_id, sub_level) = _route_input(c)
    ordered = sorted(rows, key=lambda i: (source[i] or "", position[i] or 0, report[i] or "",
                                          a_index[i], o_index[i]))
    records: list[Record] = []
    activities: list[Activity] = []
    ops: list[Operation] = []
    at_record = at_activity = -1
    record_key: tuple = ()
    for i in (*ordered, -1):  # -1: the end, which closes the last activity and record
        key = (source[i], position[i], report[i]) if i >= 0 else None
        if at_activity >= 0 and (key != record_key or a_index[i] != a_index[at_activity]):
            a = at_activity
            activities.append(Activity(
                appl_name[a] or "", appl_type[a], desc[a] or "", tuple(ops),
                _counters(rec[a], unrec[a], disc[a]) if rec[a] is not None else None))
            ops = []
            at_activity = -1
            if key != record_key:
                r = at_record
                records.append(Record(
                    kind[r], bytes.fromhex(correl[r]), tuple(activities),
                    _counters(f_rec[r], f_unrec[r], f_disc[r])
                    if f_rec[r] is not None else None, None, source[r], position[r]))
                activities = []
        if i < 0:
            break
        if at_activity < 0:
            at_activity = i
            if key != record_key:
                at_record, record_key = i, key
        md, embedded = None, _ANY_MD if has_emb[i] else None
        if mds:
            md = MQMD(msg_id=bytes.fromhex(msg_id[i])) if msg_id[i] else None
            if has_emb[i]:
                embedded = MQMD(msg_id=bytes.fromhex(emb_id[i])) if emb_id[i] else MQMD()
        ops.append(Operation(op_type[i], date[i] or "", time[i] or "", qmgr[i] or "", None,
                             queue[i], resolved[i], remote_queue[i], remote_qmgr[i], topic[i],
                             channel[i], channel_type[i], xmitq[i], feedback[i],
                             bytes.fromhex(sub_id[i]) if sub_id[i] else None, sub_level[i],
                             None, md, embedded))
    return records


def routes_of_columns(c: Mapping[str, Sequence], *, mds: bool = True
                      ) -> Iterator[tuple[int, Route | Exception]]:
    """(row, route) of each original message in operation columns whose rows are grouped by
    correl_id (`c` as for `records_of_columns`), or (row, the error) for one whose route
    could not be built: one bad message never stops the others. The row is the message's
    first; with an error, its earliest by (source, position), which its reject names."""
    keys = c["correl_id"]
    n = len(keys)
    lo = 0
    while lo < n:
        key = keys[lo]
        hi = lo + 1
        while hi < n and keys[hi] == key:
            hi += 1
        first = lo
        try:
            outcome: Route | Exception = route_of(
                bytes.fromhex(key), records_of_columns(c, range(lo, hi), mds=mds))
        except Exception as e:  # a reject row, not a dead job
            source, position = c["source"], c["position"]
            first = min(range(lo, hi), key=lambda i: (source[i] or "", position[i] or 0))
            outcome = e
        yield first, outcome
        lo = hi


def routes_from_operation_rows(rows: Iterable[dict]) -> Iterator[Route]:
    """The route of each original message in operation rows (any order, any mix)."""
    by_key: dict[str, list[dict]] = {}
    for r in rows:
        by_key.setdefault(r["correl_id"], []).append(r)
    grouped = [r for group in by_key.values() for r in group]
    columns = {name: [r.get(name) for r in grouped] for name in ROUTE_INPUT}
    for _, outcome in routes_of_columns(columns):
        if isinstance(outcome, Exception):
            raise outcome
        yield outcome


def route_failure(c: Mapping[str, Sequence], row: int, error: Exception) -> dict:
    """The `rejects` row of a message whose route could not be built (`row`: its first)."""
    return {"source": c["source"][row], "position": c["position"][row],
            "msg_id": c["report_msg_id"][row],
            "error": f"route of message {c['correl_id'][row]}: "
                     f"{type(error).__name__}: {error}"}


def route_values(route: Route) -> tuple[tuple, list[tuple]]:
    """The `routes` row of a route and its `hops` rows, as tuples in ROUTE_COLUMNS and
    HOP_COLUMNS order, from one walk over the route and its branches.

    Hops are the message's movements in order (put to a queue, send over a channel, gaps;
    a publication's copy begins its branch with a `publish` or `discarded_publish` hop):
    the trunk, then each branch (numbered within its parent) with its own branches, `seq`
    counting on across them all. The route's activities, gaps and times count every branch;
    its `branches` is its own fan-out.
    """
    hops: list[tuple] = []
    key = route.correl_id.hex()
    activities = gaps = missing = 0
    first = last = None
    stack = [(route, 0)]
    while stack:
        r, branch = stack.pop()
        via = r.via
        if via is not None:  # a publication's copy: the Publish it began with
            kind = "publish" if via.type == mqc.MQOPER_PUBLISH else "discarded_publish"
            hops.append((key, len(hops) + 1, kind, via.qmgr, via.qmgr, via.qmgr, via.qmgr,
                         None, None, via.timestamp or None, via.feedback, branch))
        for step in r.steps:
            if isinstance(step, Gap):
                gaps += 1
                missing += step.missing or 0
                hops.append((key, len(hops) + 1, "gap", "?", "?", None, None, None, None, None,
                             None, branch))
                continue
            activities += 1
            for op in step.operations:
                time = op.timestamp
                if time:
                    if first is None or time < first:
                        first = time
                    if last is None or time > last:
                        last = time
                kind, q = op.type, op.qmgr
                if kind == mqc.MQOPER_SEND:
                    hops.append((key, len(hops) + 1, "send", q, op.remote_qmgr or "?", q,
                                 op.remote_qmgr, op.channel, op.xmit_queue, time, op.feedback,
                                 branch))
                elif kind in PUT_TYPES:
                    queue = op.resolved_queue or op.queue or op.topic or "?"
                    hops.append((key, len(hops) + 1, "put", q, f"{q}/{queue}", q, q, None, queue,
                                 time, op.feedback, branch))
                elif kind == mqc.MQOPER_DISCARD:
                    hops.append((key, len(hops) + 1, "discard", q, f"{q}/(discarded)", q, q,
                                 None, op.queue, time, op.feedback, branch))
        stack.extend((b, n) for n, b in reversed(list(enumerate(r.branches, start=1))))
    outcome = route.outcome
    loc = outcome.location
    verdict = outcome.verdict
    complete = verdict.terminal and not gaps and all(b.complete for b in route.branches)
    return (key, verdict.value, complete, outcome.feedback, loc.queue_manager, loc.queue,
            loc.channel, loc.remote_queue_manager, activities, len(hops), gaps, missing,
            len(route.branches), first, last, route.records), hops


def route_row(route: Route) -> dict:
    """The `routes` table row of a route."""
    return dict(zip(ROUTE_NAMES, route_values(route)[0], strict=True))


def hop_rows(route: Route) -> list[dict]:
    """The `hops` table rows of a route."""
    return [dict(zip(HOP_NAMES, h, strict=True)) for h in route_values(route)[1]]
