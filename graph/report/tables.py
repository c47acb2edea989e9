"""What the report shows, aggregated from `mqroute analyze`'s Parquet tables with pyarrow.

Every function reads only the columns it needs and returns small Python values (grouped
counts, at most `limit` rows), so a report of millions of routes stays in bounded memory.
A table that is absent (an `events/` table only some runs write) gives empty results.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

DELIVERED = ("delivered", "discarded_at_target")


def _dataset(out: Path, name: str):
    import pyarrow.dataset as ds

    path = Path(out) / name
    if not path.exists():
        return None
    return ds.dataset(path, format="parquet", partitioning="hive")


def _table(out: Path, name: str, columns: list[str], filter=None):
    d = _dataset(out, name)
    if d is None:
        return None
    have = [c for c in columns if c in d.schema.names]
    return d.to_table(columns=have, filter=filter)


@dataclass
class Estate:
    """The aggregates of one analyze output folder."""

    verdicts: list[tuple[str, int]] = field(default_factory=list)
    routes: int = 0
    loops: set[str] = field(default_factory=set)
    lost_groups: list[dict] = field(default_factory=list)
    sends: list[tuple[str, str, str, int]] = field(default_factory=list)
    losses: list[tuple[str, str, int]] = field(default_factory=list)
    channels: list[dict] = field(default_factory=list)
    stuck_channels: list[dict] = field(default_factory=list)
    rejects: list[dict] = field(default_factory=list)
    rejected: int = 0
    lost_points: list[tuple[str, str, str, str]] = field(default_factory=list)


def looping_routes(out: Path) -> set[str]:
    """Routes whose channel sends leave some queue manager twice: they went round a loop."""
    import pyarrow.compute as pc

    hops = _table(out, "hops", ["correl_id", "kind", "src_queue_manager", "branch"],
                  filter=pc.field("kind") == "send")
    if hops is None or hops.num_rows == 0:
        return set()
    g = hops.group_by(["correl_id", "branch"]).aggregate(
        [("src_queue_manager", "count"), ("src_queue_manager", "count_distinct")])
    over = pc.greater(g["src_queue_manager_count"], g["src_queue_manager_count_distinct"])
    return set(g.filter(over)["correl_id"].to_pylist())


def cause_of(verdict: str, correl_id: str, loops: set[str]) -> str:
    """A lost message's cause: `loop` when it went round in circles, else its verdict."""
    return "loop" if correl_id in loops else verdict


def read_estate(out: str | Path, *, limit: int = 200) -> Estate:
    """Verdict counts, lost messages by cause and place, channel traffic, rejects."""
    import pyarrow.compute as pc

    out = Path(out)
    est = Estate()
    cols = ["correl_id", "verdict", "last_queue_manager", "last_queue", "last_channel",
            "next_queue_manager", "first_time", "last_time", "feedback", "activities"]
    routes = _table(out, "routes", cols)
    if routes is None:
        raise FileNotFoundError(f"{out}: no routes/ table (is this mqroute analyze's --out?)")
    est.routes = routes.num_rows
    est.verdicts = sorted(Counter(routes["verdict"].to_pylist()).items(),
                          key=lambda kv: (-kv[1], kv[0]))
    est.loops = looping_routes(out)
    lost = routes.filter(pc.invert(pc.is_in(routes["verdict"],
                                            value_set=_array(list(DELIVERED)))))
    groups: dict[tuple, dict] = {}
    for r in lost.to_pylist():
        cause = cause_of(r["verdict"], r["correl_id"], est.loops)
        key = (cause, r["last_queue_manager"], r["last_queue"], r["last_channel"],
               r["next_queue_manager"])
        g = groups.setdefault(key, {
            "cause": cause, "queue_manager": r["last_queue_manager"] or "",
            "queue": r["last_queue"] or "", "channel": r["last_channel"] or "",
            "next_queue_manager": r["next_queue_manager"] or "", "messages": 0,
            "first_time": r["first_time"] or "", "last_time": r["last_time"] or "",
            "example": r["correl_id"], "example_activities": r["activities"] or 0})
        if (r["activities"] or 0) < g["example_activities"]:
            g["example"], g["example_activities"] = r["correl_id"], r["activities"] or 0
        g["messages"] += 1
        if len(est.lost_points) < 20 * limit:
            est.lost_points.append((f"{key[1]}/{key[2]}" if key[2] else key[1] or "?",
                                    r["last_time"] or "", cause, r["correl_id"]))
        g["first_time"] = min(g["first_time"], r["first_time"] or g["first_time"])
        g["last_time"] = max(g["last_time"], r["last_time"] or "")
    est.lost_groups = sorted(groups.values(), key=lambda g: (-g["messages"], g["cause"]))
    by_place: Counter = Counter()
    for g in est.lost_groups:
        by_place[(g["queue_manager"], g["cause"])] += g["messages"]
    est.losses = [(qm, c, n) for (qm, c), n in by_place.items()]
    hops = _table(out, "hops", ["kind", "src_queue_manager", "dst_queue_manager", "channel",
                                "time"], filter=pc.field("kind") == "send")
    if hops is not None and hops.num_rows:
        g = hops.group_by(["src_queue_manager", "dst_queue_manager", "channel"]).aggregate(
            [("kind", "count"), ("time", "min"), ("time", "max")])
        rows = g.to_pylist()
        est.sends = [(r["src_queue_manager"] or "?", r["dst_queue_manager"] or "?",
                      r["channel"] or "?", r["kind_count"]) for r in rows]
        est.channels = sorted(
            ({"channel": r["channel"] or "?", "from": r["src_queue_manager"] or "?",
              "to": r["dst_queue_manager"] or "?", "messages": r["kind_count"],
              "first_time": r["time_min"] or "", "last_time": r["time_max"] or ""}
             for r in rows), key=lambda c: (-c["messages"], c["channel"]))
    stuck: dict[tuple, dict] = {}
    for g in est.lost_groups:
        if g["cause"] == "waiting_on_xmitq" or g["channel"]:
            key = (g["queue_manager"], g["queue"], g["channel"], g["next_queue_manager"])
            s = stuck.setdefault(key, {"queue_manager": g["queue_manager"],
                                       "xmitq": g["queue"], "channel": g["channel"],
                                       "next_queue_manager": g["next_queue_manager"],
                                       "messages": 0})
            s["messages"] += g["messages"]
    est.stuck_channels = sorted(stuck.values(), key=lambda s: -s["messages"])
    rejects = _table(out, "rejects", ["source", "position", "msg_id", "error"])
    if rejects is not None:
        est.rejected = rejects.num_rows
        est.rejects = rejects.slice(0, limit).to_pylist()
    return est


def _array(values: list):
    import pyarrow as pa

    return pa.array(values, pa.string())


#: The most operation rows one route page is rebuilt from (a route of more is cut there).
MAX_ROUTE_OPERATIONS = 20_000


def route_details(out: str | Path, correl_ids: list[str], failed: list | None = None):
    """The routes of these messages, rebuilt from the operations table (as `show` would),
    in the order asked. A message whose rows cannot make a route (a tampered table) is left
    out and appended to `failed` as (correl_id, reason); at most MAX_ROUTE_OPERATIONS rows
    are read per message."""
    import pyarrow.compute as pc

    from graph.pipeline.rows import routes_from_operation_rows

    ops = _table(out, "operations", _OPERATION_COLUMNS,
                 filter=pc.field("correl_id").isin(correl_ids))
    if ops is None:
        return []
    by_id: dict[str, list[dict]] = defaultdict(list)
    for batch in ops.to_batches():
        for r in batch.to_pylist():
            rows = by_id[r["correl_id"]]
            if len(rows) < MAX_ROUTE_OPERATIONS:
                r.setdefault("date", None)
                rows.append(r)
    out_routes = []
    for correl_id in correl_ids:
        if correl_id not in by_id:
            continue
        try:
            out_routes += list(routes_from_operation_rows(by_id.pop(correl_id)))
        except (ValueError, TypeError, KeyError, OverflowError) as e:
            if failed is not None:
                failed.append((correl_id, f"{type(e).__name__}: {e}"))
    return out_routes


_OPERATION_COLUMNS = [
    "correl_id", "record_kind", "report_msg_id", "source", "position", "activity_index",
    "recorded", "unrecorded", "discontinuity", "appl_name", "appl_type", "description",
    "operation_index", "operation_type", "operation", "time", "queue_manager", "queue",
    "resolved_queue", "remote_queue", "remote_queue_manager", "topic", "channel",
    "channel_type", "xmit_queue", "feedback", "msg_id", "embedded_msg_id", "has_embedded_md",
    "final_recorded", "final_unrecorded", "final_discontinuity", "date"]


def queue_activity(out: str | Path, lanes: int = 12, prefer: tuple[str, ...] = ()
                   ) -> dict[str, list[tuple[str, int]]]:
    """Per queue (``QM/QUEUE``): (timestamp, net puts less gets in that second) in time
    order; the queues in `prefer` first, then those whose observed depth peaks highest.
    Aggregated in Arrow per queue and second, so the rows that reach Python are bounded by
    queues x distinct seconds, not by operations."""
    import pyarrow as pa
    import pyarrow.compute as pc

    ops = _table(out, "operations", ["operation", "queue_manager", "resolved_queue", "queue",
                                     "date", "time"],
                 filter=pc.field("operation").isin(["Put", "Get", "Put Reply", "Put Report"]))
    if ops is None or ops.num_rows == 0:
        return {}
    queue = pc.coalesce(ops["resolved_queue"], ops["queue"])
    lane = pc.binary_join_element_wise(pc.fill_null(ops["queue_manager"], "?"), queue, "/")
    date = ops["date"] if "date" in ops.column_names else pa.nulls(ops.num_rows, pa.string())
    stamp = pc.utf8_trim_whitespace(pc.binary_join_element_wise(
        pc.fill_null(pc.cast(date, pa.string()), ""), ops["time"], " "))
    sign = pc.if_else(pc.equal(ops["operation"], "Get"), -1, 1)
    t = pa.table({"lane": lane, "stamp": stamp, "sign": sign}).filter(
        pc.and_(pc.is_valid(lane), pc.is_valid(stamp)))
    g = t.group_by(["lane", "stamp"]).aggregate([("sign", "sum"), ("sign", "count")])
    moves: dict[str, list[tuple[str, int]]] = defaultdict(list)
    counts: Counter = Counter()
    for r in g.to_pylist():
        moves[r["lane"]].append((r["stamp"], r["sign_sum"]))
        counts[r["lane"]] += r["sign_count"]
    chosen = [q for q in dict.fromkeys(prefer) if q in moves][:lanes]
    chosen += [q for q in _interesting(moves, counts, lanes) if q not in chosen]
    return {lane: sorted(moves[lane]) for lane in chosen[:lanes]}


def _interesting(moves: dict, counts: Counter, lanes: int) -> list[str]:
    """The lanes whose observed depth peaks highest, then the busiest."""
    peak = {}
    for lane, m in moves.items():
        depth = top = 0
        for _, d in sorted(m):
            depth += d
            top = max(top, depth)
        peak[lane] = top
    return sorted(moves, key=lambda q: (-peak[q], -counts[q], q))[:lanes]


EVENT_SHOWN = ("time", "category", "reason_name", "event_type_name", "queue_manager",
               "object", "channel", "xmit_queue", "object_state")


def events(out: str | Path, limit: int = 500) -> tuple[list[str], list[dict], int]:
    """The `events/` table when present: the columns worth showing, the first `limit` rows
    in time order, and how many there are."""
    d = _dataset(Path(out), "events")
    if d is None:
        return [], [], 0
    names = [c for c in EVENT_SHOWN if c in d.schema.names] or \
        [c for c in d.schema.names if c != "data"]
    table = d.to_table(columns=names)
    if "time" in names:
        table = table.sort_by([("time", "ascending")])
    return names, table.slice(0, limit).to_pylist(), table.num_rows


def event_counts(out: str | Path) -> list[tuple[str, str, int]]:
    """(category, reason name, count) of the `events/` table, most frequent first."""
    d = _dataset(Path(out), "events")
    if d is None or "reason_name" not in d.schema.names:
        return []
    cols = [c for c in ("category", "reason_name") if c in d.schema.names]
    t = d.to_table(columns=cols).group_by(cols).aggregate([(cols[-1], "count")])
    return sorted(((r.get("category") or "", r["reason_name"] or "", r[f"{cols[-1]}_count"])
                   for r in t.to_pylist()), key=lambda x: (-x[2], x[0], x[1]))


def route_events(out: str | Path, limit: int = 500) -> list[dict]:
    """The `route_events/` table when present: events that explain where routes stopped."""
    d = _dataset(Path(out), "route_events")
    if d is None:
        return []
    return d.head(limit).to_pylist()
