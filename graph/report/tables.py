"""What the report shows, aggregated from `mqroute analyze`'s Parquet tables with pyarrow.

Every aggregate is computed in Arrow (group-bys, sorts, counts) and only its first rows
reach Python: at most `limit` lost-message groups, channels, stuck channels, rejects and
events for the page, and at most PLACES_DRAWN places and SENDS_DRAWN channel pairs for the
estate picture, the rest counted (`Estate.more`) and pointed at in the Parquet tables. So
the page's size and the Python objects are bounded whatever the number of routes or of
their groups; Arrow holds the columns read (a few tens of bytes per row).

Tables are read as data someone else wrote: a column of another type is cast to the
pipeline's type or refused (TableError, naming the table and column), a column that is
missing reads as nulls (a required one is refused), a table that is absent (an `events/`
table only some runs write) gives empty results.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from graph.pipeline.storage import dataset as open_dataset
from graph.pipeline.storage import location
from pcf import mqc
from traceroute.routes import Route, assemble

DELIVERED = ("delivered", "discarded_at_target")
#: Places (queue manager, cause) and channel pairs the estate picture is given at most.
PLACES_DRAWN = 2000
SENDS_DRAWN = 5000
#: Verdicts shown one by one (a tampered table may have any number).
VERDICTS_SHOWN = 50


class TableError(ValueError):
    """A table of the folder is not what `mqroute analyze` writes (named in the message)."""


def _types() -> dict[str, dict[str, str]]:
    from graph.pipeline.events import EVENT_COLUMNS
    from graph.pipeline.rows import HOP_COLUMNS, OPERATION_COLUMNS, REJECT_COLUMNS, ROUTE_COLUMNS

    return {"routes": dict(ROUTE_COLUMNS), "hops": dict(HOP_COLUMNS),
            "operations": dict(OPERATION_COLUMNS), "rejects": dict(REJECT_COLUMNS),
            "events": dict(EVENT_COLUMNS)}


#: The tables analyze partitions, by the column (a string) in their folder names.
PARTITIONS = {"operations": "date", "routes": "verdict", "events": "category",
              "journeys": "verdict"}


def dataset(out: str | Path, name: str):
    """A table of an analyze folder as a pyarrow dataset (None when absent): partition
    folders read as the string column they are, whatever values they hold (all null
    included, where there is nothing to infer a type from); TableError when unreadable."""
    import pyarrow as pa
    import pyarrow.dataset as ds

    path = location(out) / name
    if not path.exists():
        return None
    column = PARTITIONS.get(name)
    partitioning = ds.partitioning(pa.schema([(column, pa.string())]), flavor="hive") \
        if column else "hive"
    try:
        return open_dataset(path, format="parquet", partitioning=partitioning)
    except (OSError, ValueError) as e:
        raise TableError(f"{path}: not readable as Parquet ({_first_line(e)})") from None


_dataset = dataset


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _table(out: Path, name: str, columns: list[str], filter=None, *,
           required: tuple[str, ...] = ()):
    """The columns of a table, each of the pipeline's type (cast, or TableError); missing
    ones as nulls (TableError for `required` ones); None when the table is absent. `filter`
    (an Arrow expression) is applied after the casts."""
    import pyarrow as pa

    d = _dataset(out, name)
    if d is None:
        return None
    path = location(out) / name
    want = _types().get(name, {})
    kinds = {"string": pa.string(), "long": pa.int64(), "int": pa.int32(),
             "boolean": pa.bool_(), "binary": pa.binary()}
    missing = [c for c in required if c not in d.schema.names]
    if missing:
        raise TableError(f"{path}: no column {', '.join(missing)} (is this the --out folder "
                         "of mqroute analyze?)")
    have = [c for c in columns if c in d.schema.names]
    try:
        t = d.to_table(columns=have)
    except (OSError, ValueError) as e:
        raise TableError(f"{path}: not readable ({_first_line(e)})") from None
    arrays = {}
    for c in columns:
        kind = kinds.get(want.get(c, ""))
        if c not in have:
            arrays[c] = pa.nulls(t.num_rows, kind or pa.string())
            continue
        col = t[c]
        if kind is not None and col.type != kind:
            try:
                col = col.cast(kind)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError, ValueError):
                raise TableError(f"{path}: column {c} holds {col.type}, not "
                                 f"{want[c]}: not readable as mqroute analyze wrote it") from None
        arrays[c] = col
    t = pa.table(arrays) if arrays else t
    return t.filter(filter) if filter is not None and t.num_rows else t


@dataclass
class Estate:
    """The aggregates of one analyze output folder (each list bounded; `more` counts what
    was left out, by list)."""

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
    lost: int = 0
    causes: list[tuple[str, int]] = field(default_factory=list)
    #: list name -> (items not shown, messages in them)
    more: dict[str, tuple[int, int]] = field(default_factory=dict)


def _codes(column):
    """A column as integer codes (numpy), equal values equal codes (null its own code)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(column).combine_chunks() if column.num_chunks != 1 \
        else pc.dictionary_encode(column.chunk(0))
    if isinstance(encoded, pa.ChunkedArray):
        encoded = encoded.combine_chunks()
    return pc.fill_null(encoded.indices, len(encoded.dictionary)).to_numpy(
        zero_copy_only=False).astype("int64")


def _runs(keys: list, then: tuple = ()):
    """Group rows by equal keys (numpy code arrays, the first the most significant): the
    order that sorts them (within a group by `then`, else stably) and where each group
    starts in it."""
    import numpy as np

    order = np.lexsort(tuple(reversed([*keys, *then])))
    n = len(order)
    starts = np.ones(n, dtype=bool)
    if n:
        starts[0] = True
        same = np.ones(n - 1, dtype=bool)
        for k in keys:
            sk = k[order]
            same &= sk[1:] == sk[:-1]
        starts[1:] = ~same
    return order, np.flatnonzero(starts)


def _loop_ids(out: Path):
    """The correl_ids of routes whose channel sends leave some queue manager twice (two
    sends of one route and branch from one queue manager), as an Arrow array."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    hops = _table(out, "hops", ["correl_id", "kind", "src_queue_manager", "branch"])
    if hops is None or hops.num_rows == 0:
        return pa.array([], pa.string())
    hops = hops.filter(pc.equal(hops["kind"], "send"))
    if hops.num_rows == 0:
        return pa.array([], pa.string())
    keys = [_codes(hops[c]) for c in ("correl_id", "branch", "src_queue_manager")]
    order, starts = _runs(keys)
    counts = np.diff(np.append(starts, len(order)))
    twice = order[starts[counts > 1]]
    return pc.unique(hops["correl_id"].take(pa.array(twice, pa.int64())))


def looping_routes(out: Path) -> set[str]:
    """Routes whose channel sends leave some queue manager twice: they went round a loop."""
    return set(_loop_ids(location(out)).to_pylist())


def cause_of(verdict: str, correl_id: str, loops: set[str]) -> str:
    """A lost message's cause: `loop` when it went round in circles, else its verdict."""
    return "loop" if correl_id in loops else verdict


def _top(table, sort: list[tuple[str, str]], limit: int, count: str | None = None):
    """(the first `limit` rows of `table` sorted, as dicts; (rows left, their `count` sum))."""
    import pyarrow.compute as pc

    if table.num_rows == 0:
        return [], (0, 0)
    ordered = table.sort_by(sort)
    head = ordered.slice(0, limit).to_pylist()
    rest = ordered.num_rows - len(head)
    weight = 0
    if rest and count:
        weight = pc.sum(ordered.slice(limit)[count]).as_py() or 0
    return head, (rest, weight)


def read_estate(out: str | Path, *, limit: int = 200) -> Estate:
    """Verdict counts, lost messages by cause and place, channel traffic, rejects: each
    list at most `limit` long (the estate picture's at most PLACES_DRAWN/SENDS_DRAWN)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    out = location(out)
    est = Estate()
    cols = ["correl_id", "verdict", "last_queue_manager", "last_queue", "last_channel",
            "next_queue_manager", "first_time", "last_time", "activities"]
    routes = _table(out, "routes", cols, required=("correl_id", "verdict"))
    if routes is None:
        raise FileNotFoundError(f"{out}: no routes/ table (is this mqroute analyze's --out?)")
    est.routes = routes.num_rows
    verdict = pc.fill_null(routes["verdict"], "")
    counts = pa.table({"verdict": verdict}).group_by("verdict").aggregate(
        [("verdict", "count")])
    shown, est.more["verdicts"] = _top(counts, [("verdict_count", "descending"),
                                                ("verdict", "ascending")],
                                       VERDICTS_SHOWN, "verdict_count")
    est.verdicts = [(r["verdict"], r["verdict_count"]) for r in shown]
    loops = _loop_ids(out)
    est.loops = set(loops.slice(0, 100_000).to_pylist())
    lost = routes.filter(pc.invert(pc.is_in(verdict, value_set=pa.array(list(DELIVERED)))))
    del routes
    text = {c: pc.fill_null(lost[c], "") for c in (
        "last_queue_manager", "last_queue", "last_channel", "next_queue_manager",
        "first_time", "last_time")}
    cause = pc.if_else(pc.is_in(lost["correl_id"], value_set=loops), "loop",
                       pc.fill_null(lost["verdict"], ""))
    lost = pa.table({"cause": cause, **text, "correl_id": lost["correl_id"],
                     "activities": pc.fill_null(lost["activities"].cast(pa.int64()), 0)})
    est.lost = lost.num_rows
    _lost_groups(lost, est, limit)
    for r in lost.slice(0, 20 * limit).to_pylist():
        place = f"{r['last_queue_manager']}/{r['last_queue']}" if r["last_queue"] \
            else r["last_queue_manager"] or "?"
        est.lost_points.append((place, r["last_time"], r["cause"], r["correl_id"]))
    del lost
    _read_sends(out, est, limit)
    rejects = _table(out, "rejects", ["source", "position", "msg_id", "error"])
    if rejects is not None:
        est.rejected = rejects.num_rows
        est.rejects = rejects.slice(0, limit).to_pylist()
        est.more["rejects"] = (max(0, est.rejected - limit), 0)
    return est


#: The lost-message group's place: its cause and where it stopped.
GROUP_KEYS = ("cause", "last_queue_manager", "last_queue", "last_channel",
              "next_queue_manager")


def _sums(keys: list, weights):
    """Sum `weights` per distinct tuple of `keys` (numpy code arrays): (a representative row
    index of each distinct tuple, its sum), biggest sums first."""
    import numpy as np

    order, starts = _runs(keys)
    sums = np.add.reduceat(weights[order], starts) if len(order) else weights[:0]
    biggest = np.argsort(-sums, kind="stable")
    return order[starts][biggest], sums[biggest]


def _lost_groups(lost, est: Estate, limit: int) -> None:
    """The groups of lost messages (same cause, last queue manager, queue, channel, next
    queue manager), the places (queue manager, cause) and the stuck channels, from one
    sort of the lost routes' codes: numpy, whatever the number of groups; only the first
    `limit` of each (PLACES_DRAWN places) reach Python, the rest counted in `est.more`."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    n = lost.num_rows
    if not n:
        return
    codes = {k: _codes(lost[k]) for k in GROUP_KEYS}
    ones = np.ones(n, dtype="int64")
    rows, sums = _sums([codes["cause"]], ones)
    est.causes = [(lost["cause"][int(r)].as_py(), int(s)) for r, s in
                  zip(rows[:VERDICTS_SHOWN], sums[:VERDICTS_SHOWN], strict=True)]
    est.more["causes"] = (max(0, len(rows) - VERDICTS_SHOWN), int(sums[VERDICTS_SHOWN:].sum()))
    # the example of a group: its message with the fewest activities, then the lowest id
    by_id = pc.rank(lost["correl_id"], sort_keys="ascending", tiebreaker="first"
                    ).to_numpy(zero_copy_only=False)
    acts = lost["activities"].to_numpy(zero_copy_only=False)
    keys = [codes[k] for k in GROUP_KEYS]
    order, starts = _runs(keys, then=(acts, by_id))
    group_of = np.zeros(n, dtype="int64")
    group_of[starts] = 1
    group_of = np.cumsum(group_of) - 1            # group number of each sorted row
    sizes = np.bincount(group_of)
    first_rank = pc.rank(lost["first_time"], sort_keys="ascending", tiebreaker="first"
                         ).to_numpy(zero_copy_only=False)[order]
    last_rank = pc.rank(lost["last_time"], sort_keys="descending", tiebreaker="first"
                        ).to_numpy(zero_copy_only=False)[order]
    first_at = order[starts + _argmin_reduce(first_rank, starts)]
    last_at = order[starts + _argmin_reduce(last_rank, starts)]
    cause_text = np.array(lost["cause"].take(pa.array(order[starts])).to_pylist(),
                          dtype=object)
    ranking = np.lexsort((cause_text.astype(str), -sizes))
    top = ranking[:limit]
    rest = ranking[limit:]
    est.more["lost_groups"] = (len(rest), int(sizes[rest].sum()))
    pick = lambda at: lost.take(pa.array(at, pa.int64())).to_pylist()  # noqa: E731
    heads, firsts, lasts = pick(order[starts[top]]), pick(first_at[top]), pick(last_at[top])
    est.lost_groups = [{
        "cause": h["cause"], "queue_manager": h["last_queue_manager"],
        "queue": h["last_queue"], "channel": h["last_channel"],
        "next_queue_manager": h["next_queue_manager"], "messages": int(sizes[g]),
        "first_time": f["first_time"], "last_time": la["last_time"],
        "example": h["correl_id"], "example_activities": h["activities"]}
        for g, h, f, la in zip(top, heads, firsts, lasts, strict=True)]
    rows, sums = _sums([codes["last_queue_manager"], codes["cause"]], ones)
    est.more["losses"] = (max(0, len(rows) - PLACES_DRAWN), int(sums[PLACES_DRAWN:].sum()))
    est.losses = [(r["last_queue_manager"], r["cause"], int(s)) for r, s in zip(
        pick(rows[:PLACES_DRAWN]), sums[:PLACES_DRAWN], strict=True)]
    stuck = pc.or_(pc.equal(lost["cause"], "waiting_on_xmitq"),
                   pc.not_equal(lost["last_channel"], "")).to_numpy(zero_copy_only=False)
    where = np.flatnonzero(stuck)
    rows, sums = _sums([codes[k][where] for k in GROUP_KEYS[1:]], ones[where])
    rows = where[rows]
    est.more["stuck_channels"] = (max(0, len(rows) - limit), int(sums[limit:].sum()))
    est.stuck_channels = [{"queue_manager": r["last_queue_manager"], "xmitq": r["last_queue"],
                           "channel": r["last_channel"],
                           "next_queue_manager": r["next_queue_manager"], "messages": int(s)}
                          for r, s in zip(pick(rows[:limit]), sums[:limit], strict=True)]


def _argmin_reduce(values, starts):
    """Per run of `values` (runs starting at `starts`), the offset of its smallest value."""
    import numpy as np

    n = len(values)
    ends = np.append(starts[1:], n)
    mins = np.minimum.reduceat(values, starts)
    group_of = np.repeat(np.arange(len(starts)), ends - starts)
    hit = values == mins[group_of]
    first_hit = np.full(len(starts), n, dtype="int64")
    np.minimum.at(first_hit, group_of[hit], np.flatnonzero(hit))
    return first_hit - starts


def _read_sends(out: Path, est: Estate, limit: int) -> None:
    """Channel traffic from the hops table: the page's busiest channels and the picture's
    channel pairs, each bounded."""
    import pyarrow.compute as pc

    hops = _table(out, "hops", ["kind", "src_queue_manager", "dst_queue_manager", "channel",
                                "time"])
    if hops is None or not hops.num_rows:
        return
    hops = hops.filter(pc.equal(hops["kind"], "send"))
    if not hops.num_rows:
        return
    for c in ("src_queue_manager", "dst_queue_manager", "channel"):
        hops = hops.set_column(hops.schema.get_field_index(c), c,
                               pc.fill_null(hops[c], "?"))
    g = hops.group_by(["src_queue_manager", "dst_queue_manager", "channel"]).aggregate(
        [("kind", "count"), ("time", "min"), ("time", "max")])
    drawn, est.more["sends"] = _top(g, [("kind_count", "descending")], SENDS_DRAWN,
                                    "kind_count")
    est.sends = [(r["src_queue_manager"], r["dst_queue_manager"], r["channel"],
                  r["kind_count"]) for r in drawn]
    est.channels = [{"channel": r["channel"], "from": r["src_queue_manager"],
                     "to": r["dst_queue_manager"], "messages": r["kind_count"],
                     "first_time": r["time_min"] or "", "last_time": r["time_max"] or ""}
                    for r in drawn[:limit]]
    rest, weight = est.more["sends"]
    est.more["channels"] = (rest + len(drawn) - len(est.channels),
                            weight + sum(r["kind_count"] for r in drawn[limit:]))


def route_details(out: str | Path, correl_ids: list[str], failed: list | None = None, *,
                  destinations=None):
    """The routes of these messages, rebuilt from the operations table (as `show` would),
    in the order asked; a publication's (or its copy's) is its whole tree, its copies' ends
    where `destinations` (`traceroute.routes.Destinations`) says. A message whose rows
    cannot make a route (a tampered table) is left out and appended to `failed` as
    (correl_id, reason); at most MAX_ROUTE_OPERATIONS rows are read per message."""
    import pyarrow.compute as pc

    from graph.pipeline.rows import routes_from_operation_rows

    ops = _table(out, "operations", _OPERATION_COLUMNS)
    if ops is None or not ops.num_rows:
        return []
    correl_ids = _publications_of(ops, correl_ids)
    by_id: dict[str, list[dict]] = defaultdict(list)
    wanted = list(dict.fromkeys(correl_ids))
    for _level in range(MAX_PUBLICATION_DEPTH + 1):  # a publication's copies, level by level
        found = ops.filter(pc.is_in(ops["correl_id"], value_set=_array(wanted)))
        for batch in found.to_batches():
            for r in batch.to_pylist():
                rows = by_id[r["correl_id"]]
                if len(rows) < MAX_ROUTE_OPERATIONS:
                    rows.append(r)
        wanted = sorted({r["msg_id"] for key in wanted for r in by_id.get(key, ())
                         if r["operation_type"] in _PUBLISHES and r["msg_id"]} - set(by_id))
        if not wanted or len(by_id) > MAX_ROUTE_MESSAGES:
            break
    routes: dict[str, Route] = {}
    for key in list(by_id):
        try:
            for route in routes_from_operation_rows(by_id[key]):
                routes[route.correl_id.hex()] = route
        except (ValueError, TypeError, KeyError, OverflowError) as e:
            if failed is not None and key in correl_ids:
                failed.append((key, f"{type(e).__name__}: {e}"))
    whole = {r.correl_id.hex(): r for r in assemble(list(routes.values()), destinations)}
    return [whole[key] for key in correl_ids if key in whole]


def _publications_of(ops, correl_ids: list[str]) -> list[str]:
    """The messages asked, a publication's copy replaced by the publication it is part of
    (the message whose Publish or Discarded Publish gave it its MsgId, up the tree); each
    once, in the order asked."""
    import pyarrow as pa
    import pyarrow.compute as pc

    publishes = ops.filter(pc.is_in(ops["operation_type"],
                                    value_set=pa.array(_PUBLISHES, pa.int32())))
    if not publishes.num_rows:
        return correl_ids
    parent = dict(zip(publishes["msg_id"].to_pylist(), publishes["correl_id"].to_pylist(),
                      strict=True))
    out = []
    for key in correl_ids:
        seen = {key}
        while parent.get(key) and parent[key] not in seen:
            key = parent[key]
            seen.add(key)
        out.append(key)
    return list(dict.fromkeys(out))


#: The most operation rows one route page is rebuilt from (a route of more is cut there).
MAX_ROUTE_OPERATIONS = 20_000
#: How deep a publication's copies are followed (engines publishing again), and how many
#: messages' rows are read at most for the routes of one report.
MAX_PUBLICATION_DEPTH = 8
MAX_ROUTE_MESSAGES = 2_000
_PUBLISHES = (mqc.MQOPER_PUBLISH, mqc.MQOPER_DISCARDED_PUBLISH)


def _array(values: list):
    import pyarrow as pa

    return pa.array(values, pa.string())


_OPERATION_COLUMNS = [
    "correl_id", "record_kind", "report_msg_id", "source", "position", "activity_index",
    "recorded", "unrecorded", "discontinuity", "appl_name", "appl_type", "description",
    "operation_index", "operation_type", "operation", "time", "queue_manager", "queue",
    "resolved_queue", "remote_queue", "remote_queue_manager", "topic", "channel",
    "channel_type", "xmit_queue", "feedback", "msg_id", "embedded_msg_id", "has_embedded_md",
    "final_recorded", "final_unrecorded", "final_discontinuity", "date", "sub_id",
    "sub_level"]

#: The most (time, depth change) steps one timeline lane is given (coarser beyond).
MAX_LANE_STEPS = 2000


def queue_activity(out: str | Path, lanes: int = 12, prefer: tuple[str, ...] = ()
                   ) -> dict[str, list[tuple[str, int]]]:
    """Per queue (``QM/QUEUE``): (timestamp, net puts less gets in that second) in time
    order; the queues in `prefer` first, then those whose observed depth peaks highest.
    Aggregated in Arrow per queue and second; only the candidate lanes reach Python, each
    at most MAX_LANE_STEPS steps (by the minute, then the hour, when it has more)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    ops = _table(out, "operations", ["operation", "queue_manager", "resolved_queue", "queue",
                                     "date", "time"])
    if ops is None or ops.num_rows == 0:
        return {}
    ops = ops.filter(pc.is_in(ops["operation"], value_set=_array(
        ["Put", "Get", "Put Reply", "Put Report"])))
    if ops.num_rows == 0:
        return {}
    queue = pc.coalesce(ops["resolved_queue"], ops["queue"])
    lane = pc.binary_join_element_wise(pc.fill_null(ops["queue_manager"], "?"), queue, "/")
    stamp = pc.utf8_trim_whitespace(pc.binary_join_element_wise(
        pc.fill_null(ops["date"], ""), pc.fill_null(ops["time"], ""), " "))
    sign = pc.if_else(pc.equal(ops["operation"], "Get"), -1, 1)
    t = pa.table({"lane": lane, "stamp": stamp, "sign": sign}).filter(
        pc.and_(pc.is_valid(lane), pc.not_equal(stamp, "")))
    busy = t.group_by("lane").aggregate([("sign", "count")])
    wanted = [q for q in dict.fromkeys(prefer)][: lanes]
    top, _ = _top(busy, [("sign_count", "descending"), ("lane", "ascending")], 5 * lanes)
    candidates = list(dict.fromkeys([*wanted, *(r["lane"] for r in top)]))
    t = t.filter(pc.is_in(t["lane"], value_set=_array(candidates)))
    moves: dict[str, list[tuple[str, int]]] = {}
    counts: dict[str, int] = {}
    for name in candidates:
        one = t.filter(pc.equal(t["lane"], name))
        if not one.num_rows:
            continue
        counts[name] = one.num_rows
        for width in (None, 16, 13, 10):   # the second, the minute, the hour, the day
            key = one["stamp"] if width is None else pc.utf8_slice_codeunits(
                one["stamp"], 0, width)
            g = pa.table({"stamp": key, "sign": one["sign"]}).group_by("stamp").aggregate(
                [("sign", "sum")])
            if g.num_rows <= MAX_LANE_STEPS or width == 10:
                break
        moves[name] = [(r["stamp"], r["sign_sum"]) for r in
                       g.sort_by("stamp").slice(0, MAX_LANE_STEPS).to_pylist()]
    chosen = [q for q in wanted if q in moves]
    chosen += [q for q in _interesting(moves, counts, lanes) if q not in chosen]
    return {lane: sorted(moves[lane]) for lane in chosen[:lanes]}


def _interesting(moves: dict, counts: dict, lanes: int) -> list[str]:
    """The lanes whose observed depth peaks highest, then the busiest."""
    peak = {}
    for lane, m in moves.items():
        depth = top = 0
        for _, d in sorted(m):
            depth += d
            top = max(top, depth)
        peak[lane] = top
    return sorted(moves, key=lambda q: (-peak[q], -counts.get(q, 0), q))[:lanes]


EVENT_SHOWN = ("time", "category", "reason_name", "event_type_name", "queue_manager",
               "object", "channel", "xmit_queue", "object_state")


def events(out: str | Path, limit: int = 500, extra: tuple[str, ...] = ()
           ) -> tuple[list[str], list[dict], int]:
    """The `events/` table when present: the columns worth showing, the first `limit` rows
    in time order (with the `extra` columns too), and how many there are."""
    d = _dataset(location(out), "events")
    if d is None:
        return [], [], 0
    names = [c for c in EVENT_SHOWN if c in d.schema.names] or \
        [c for c in d.schema.names if c != "data"][:20]
    table = _table(location(out), "events", names + [c for c in extra if c not in names])
    if "time" in names:
        table = table.sort_by([("time", "ascending")])
    return names, table.slice(0, limit).to_pylist(), table.num_rows


def event_counts(out: str | Path, limit: int = 200) -> list[tuple[str, str, int]]:
    """(category, reason name, count) of the `events/` table, most frequent first (the
    first `limit`)."""
    d = _dataset(location(out), "events")
    if d is None or "reason_name" not in d.schema.names:
        return []
    t = _table(location(out), "events", ["category", "reason_name"])
    import pyarrow.compute as pc

    t = t.set_column(0, "category", pc.fill_null(t["category"], ""))
    t = t.set_column(1, "reason_name", pc.fill_null(t["reason_name"], ""))
    g = t.group_by(["category", "reason_name"]).aggregate([("reason_name", "count")])
    top, _ = _top(g, [("reason_name_count", "descending"), ("category", "ascending"),
                      ("reason_name", "ascending")], limit)
    return [(r["category"], r["reason_name"], r["reason_name_count"]) for r in top]


def route_events(out: str | Path, limit: int = 500) -> list[dict]:
    """The `route_events/` table when present: events that explain where routes stopped."""
    d = _dataset(location(out), "route_events")
    if d is None:
        return []
    try:
        return d.head(limit).to_pylist()
    except (OSError, ValueError) as e:
        raise TableError(f"{location(out) / 'route_events'}: not readable "
                         f"({_first_line(e)})") from None


def one_delivered(out: str | Path) -> str | None:
    """A delivered message to show a route page of (the one of most hops among the first
    5,000 delivered)."""
    import pyarrow.compute as pc

    t = _table(location(out), "routes", ["correl_id", "verdict", "hops"])
    if t is None or t.num_rows == 0:
        return None
    t = t.filter(pc.equal(t["verdict"], "delivered"))
    if t.num_rows == 0:
        return None
    best = max(t.slice(0, 5000).to_pylist(), key=lambda r: (r["hops"] or 0, r["correl_id"] or ""))
    return best["correl_id"]


def channel_xmitqs(out: str | Path, event_rows: list[dict] = ()) -> dict[tuple[str, str], str]:
    """(queue manager, channel) -> the transmission queue it serves, as the observed sends
    (hops: a send names its channel and transmission queue) and the events that name both
    (Channel Started, Channel Stopped) show it."""
    import pyarrow.compute as pc

    found: dict[tuple[str, str], str] = {}
    hops = _table(location(out), "hops", ["kind", "src_queue_manager", "channel", "queue"],
                  filter=pc.field("kind") == "send")
    if hops is not None and hops.num_rows:
        g = hops.group_by(["src_queue_manager", "channel", "queue"]).aggregate([])
        for r in g.to_pylist():
            if r["src_queue_manager"] and r["channel"] and r["queue"]:
                found.setdefault((r["src_queue_manager"], r["channel"]), r["queue"])
    for e in event_rows:
        if e.get("queue_manager") and e.get("channel") and e.get("xmit_queue"):
            found.setdefault((e["queue_manager"], e["channel"]), e["xmit_queue"])
    return found
