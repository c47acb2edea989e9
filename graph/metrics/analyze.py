"""An `mqroute analyze` output folder -> metric values (read with pyarrow, grouped in Arrow).

Routes by verdict, lost messages by the queue manager and queue they were last seen on and
their cause (the verdict, or `loop`, as the report groups them), journeys by verdict, events
by queue manager and reason, and how long messages took over each channel: from the put on
the sending queue manager (to the transmission queue) to the next put on the receiving one,
as the hops table records them (one-second times; a message that never arrived, or times
going backwards between two queue managers' clocks, give no observation).
"""

from __future__ import annotations

from pathlib import Path

from graph.metrics.catalog import family
from graph.metrics.labels import reason_label
from graph.metrics.snapshot import Histogram, Snapshot
from graph.report.tables import DELIVERED, dataset, looping_routes

HOP_COLUMNS = ["correl_id", "seq", "kind", "src_queue_manager", "dst_queue_manager",
               "channel", "time", "branch"]


def _dataset(out: Path, name: str):
    """A table of the folder as a pyarrow dataset, or None when the run wrote none (read as
    the report reads it: partition folders as strings, whatever values they hold)."""
    return dataset(out, name)


def _counts(out: Path, name: str, columns: list[str]) -> list[dict]:
    d = _dataset(out, name)
    if d is None or not set(columns) <= set(d.schema.names):
        return []
    t = d.to_table(columns=columns)
    return t.group_by(columns).aggregate([(columns[0], "count")]).to_pylist() if \
        t.num_rows else []


def _lost(snap: Snapshot, out: Path) -> None:
    import pyarrow as pa
    import pyarrow.compute as pc

    d = _dataset(out, "routes")
    if d is None:
        return
    lost = d.to_table(columns=["correl_id", "verdict", "last_queue_manager", "last_queue"],
                      filter=~pc.field("verdict").isin(list(DELIVERED)))
    if not lost.num_rows:
        return
    loops = pa.array(sorted(looping_routes(out)), pa.string())
    cause = pc.if_else(pc.is_in(lost["correl_id"], value_set=loops), "loop", lost["verdict"])
    t = pa.table({"qmgr": pc.fill_null(lost["last_queue_manager"], ""),
                  "queue": pc.fill_null(lost["last_queue"], ""), "cause": cause})
    for r in t.group_by(["qmgr", "queue", "cause"]).aggregate([("cause", "count")]).to_pylist():
        snap.put("mqroute_lost_messages", r, r.pop("cause_count"))


def _seconds(times):
    """'YYYY-MM-DD HH:MM:SS' (or ISO with T) as seconds since 1970; null when unreadable."""
    import pyarrow as pa
    import pyarrow.compute as pc

    text = pc.replace_substring(pc.utf8_slice_codeunits(times, 0, 19), "T", " ")
    stamps = pc.strptime(text, format="%Y-%m-%d %H:%M:%S", unit="s", error_is_null=True)
    return pc.cast(stamps, pa.int64())


def _shift(array, by: int):
    """The array moved down (by > 0) or up (by < 0) one place, nulls filling the gap."""
    import pyarrow as pa

    pad = pa.nulls(1, array.type)
    if by > 0:
        return pa.concat_arrays([pad, array.slice(0, len(array) - 1)])
    return pa.concat_arrays([array.slice(1), pad])


def hop_seconds(out: Path):
    """(sending queue manager, channel, seconds) of every channel hop with an arrival, as
    Arrow arrays: each send compared with the hops before and after it (the table sorted by
    message, branch and sequence; shifted columns, no Python loop)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    d = _dataset(out, "hops")
    if d is None or not set(HOP_COLUMNS) <= set(d.schema.names):
        return None
    t = d.to_table(columns=HOP_COLUMNS, filter=pc.field("kind").isin(["put", "send"]))
    if t.num_rows < 2:
        return None
    t = t.sort_by([("correl_id", "ascending"), ("branch", "ascending"), ("seq", "ascending")])
    t = t.append_column("t", _seconds(t["time"])).combine_chunks()
    here = {c: t[c].chunk(0) if t[c].num_chunks else pa.array([], t[c].type)
            for c in t.column_names}
    before = {c: _shift(a, 1) for c, a in here.items()}
    after = {c: _shift(a, -1) for c, a in here.items()}
    same_before = pc.and_(pc.equal(here["correl_id"], before["correl_id"]),
                          pc.equal(here["branch"], before["branch"]))
    same_after = pc.and_(pc.equal(here["correl_id"], after["correl_id"]),
                         pc.equal(here["branch"], after["branch"]))
    arrived = pc.and_(same_after, pc.and_(
        pc.equal(after["kind"], "put"),
        pc.equal(after["src_queue_manager"], here["dst_queue_manager"])))
    queued = pc.and_(same_before, pc.and_(
        pc.equal(before["kind"], "put"),
        pc.equal(before["src_queue_manager"], here["src_queue_manager"])))
    start = pc.if_else(pc.fill_null(queued, False), before["t"], here["t"])
    took = pc.subtract(after["t"], start)
    keep = pc.fill_null(pc.and_(pc.and_(pc.equal(here["kind"], "send"), arrived),
                                pc.greater_equal(took, 0)), False)
    return (pc.filter(here["src_queue_manager"], keep), pc.filter(here["channel"], keep),
            pc.filter(took, keep))


def _hops(snap: Snapshot, out: Path) -> None:
    """The hop histograms, bucketed and summed in Arrow: Python sees one row per channel
    and bucket, not one per hop."""
    import pyarrow as pa
    import pyarrow.compute as pc

    hops = hop_seconds(out)
    if hops is None or not len(hops[2]):
        return
    qmgr, channel, took = hops
    fam = family("mqroute_route_hop_seconds")
    bucket = pa.array([0] * len(took), pa.int64())
    for bound in fam.buckets:  # the index of the first bound >= the value
        bucket = pc.add(bucket, pc.cast(pc.greater(took, bound), pa.int64()))
    t = pa.table({"qmgr": pc.fill_null(qmgr, ""), "channel": pc.fill_null(channel, ""),
                  "bucket": bucket, "took": took})
    whole = t.group_by(["qmgr", "channel"]).aggregate(
        [("took", "sum"), ("took", "min"), ("took", "max")])
    hists = {(r["qmgr"], r["channel"]): Histogram(fam.buckets, sum=float(r["took_sum"]),
                                                   min=float(r["took_min"]),
                                                   max=float(r["took_max"]))
             for r in whole.to_pylist()}
    for r in t.group_by(["qmgr", "channel", "bucket"]).aggregate(
            [("took", "count")]).to_pylist():
        h = hists[(r["qmgr"], r["channel"])]
        h.counts[r["bucket"]] += r["took_count"]
        h.count += r["took_count"]
    for (q, c), h in hists.items():
        snap.put_histogram("mqroute_route_hop_seconds", {"qmgr": q, "channel": c}, h)


def analyze_snapshot(out: str | Path) -> Snapshot:
    """The metric values of an analyze output folder; FileNotFoundError when it has no
    routes/ or journeys/ table (not an analyze output)."""
    out = Path(out)
    if not (out / "routes").exists() and not (out / "journeys").exists():
        raise FileNotFoundError(f"{out}: no routes/ or journeys/ table (is this mqroute "
                                f"analyze's --out?)")
    snap = Snapshot()
    for r in _counts(out, "routes", ["verdict"]):
        snap.put("mqroute_routes", {"verdict": r["verdict"]}, r["verdict_count"])
    for r in _counts(out, "journeys", ["verdict"]):
        snap.put("mqroute_journeys", {"verdict": r["verdict"]}, r["verdict_count"])
    for r in _counts(out, "events", ["queue_manager", "reason"]):
        snap.put("mqroute_events_total", {"qmgr": r["queue_manager"],
                                          "reason": reason_label(r["reason"])},
                 r["queue_manager_count"], "sum")
    _lost(snap, out)
    _hops(snap, out)
    return snap
