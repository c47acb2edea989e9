"""An analyze output folder -> routes, lost messages, journeys, events, hop latencies.

One folder is written by hand (Parquet with the pipeline's own column types, partitioned by
verdict as the job writes it) so every expected number is written out here; another comes
from the simulator's corpus of every verdict, where the lost messages must agree with what
`mqroute report` groups (graph.report.tables.read_estate), the other reader of the tables.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.metrics.analyze import analyze_snapshot
from graph.pipeline.events import EVENT_COLUMNS
from graph.pipeline.journeys import TABLE_COLUMNS as JOURNEY_COLUMNS
from graph.pipeline.rows import HOP_COLUMNS, ROUTE_COLUMNS, hop_rows, route_row
from graph.pipeline.schema import arrow_schema
from pcf import mqc

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def write(folder: Path, name: str, columns, rows: list[dict], by: str | None = None) -> None:
    schema = arrow_schema(columns)
    table = pa.Table.from_pylist([{c: r.get(c) for c in schema.names} for r in rows],
                                 schema=schema)
    if by:
        pq.write_to_dataset(table, folder / name, partition_cols=[by])
    else:
        (folder / name).mkdir(parents=True)
        pq.write_table(table, folder / name / "part-0.parquet")


def route(key: str, verdict: str, qmgr: str, queue: str) -> dict:
    return {"correl_id": key, "verdict": verdict, "last_queue_manager": qmgr,
            "last_queue": queue}


def hops(key: str, *steps: tuple) -> list[dict]:
    """steps: (kind, src qmgr, dst qmgr, channel, 'HH:MM:SS')."""
    return [{"correl_id": key, "seq": i, "kind": kind, "src_queue_manager": src,
             "dst_queue_manager": dst, "channel": chl,
             "time": t if "T" in t else f"2026-11-22 {t}",
             "branch": 0} for i, (kind, src, dst, chl, t) in enumerate(steps, 1)]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return write_analyze_output(tmp_path / "out")


def write_analyze_output(out: Path) -> Path:
    """routes/, hops/, journeys/, events/ with the numbers the tests below expect."""
    write(out, "routes", ROUTE_COLUMNS, [
        route("R1", "delivered", "QM2", "TARGET"),
        route("R2", "waiting_on_xmitq", "QM1", "QM2"),
        route("R3", "waiting_on_xmitq", "QM1", "QM2"),
        route("R4", "max_activities", "QM2", "TARGET"),
        route("R5", "delivered", "QM2", "TARGET"),
        route("R6", "dead_lettered", "QM2", "DLQ")], by="verdict")
    write(out, "hops", HOP_COLUMNS, [
        *hops("R1", ("put", "QM1", "QM1", None, "10:00:00"),
              ("send", "QM1", "QM2", "QM1.TO.QM2", "10:00:02"),
              ("put", "QM2", "QM2", None, "10:00:05")),                       # 5 s
        *hops("R2", ("put", "QM1", "QM1", None, "10:00:00")),                 # never sent
        *hops("R4", ("put", "QM1", "QM1", None, "10:00:00"),                  # a loop
              ("send", "QM1", "QM2", "QM1.TO.QM2", "10:00:01"),
              ("put", "QM2", "QM2", None, "10:00:02"),                        # 2 s
              ("send", "QM2", "QM1", "QM2.TO.QM1", "10:00:03"),
              ("put", "QM1", "QM1", None, "10:00:04"),                        # 2 s
              ("send", "QM1", "QM2", "QM1.TO.QM2", "10:00:05"),
              ("put", "QM2", "QM2", None, "10:01:44")),                       # 100 s
        *hops("R5", ("put", "QM1", "QM1", None, "10:00:10"),                  # clocks apart
              ("send", "QM1", "QM2", "QM1.TO.QM2", "10:00:10"),
              ("put", "QM2", "QM2", None, "10:00:05")),
        *hops("R0", ("send", "QM1", "QM2", "QM1.TO.QM2", "2026-11-22T10:00:00Z"),  # ISO
              ("put", "QM2", "QM2", None, "10:00:30"))])  # 30 s; the table's first row
    write(out, "journeys", JOURNEY_COLUMNS, [
        {"msg_id": "J1", "verdict": "consumed"}, {"msg_id": "J2", "verdict": "consumed"},
        {"msg_id": "J3", "verdict": "on_xmitq"}], by="verdict")
    write(out, "events", EVENT_COLUMNS, [
        {"reason": mqc.MQRC_Q_FULL, "queue_manager": "QM2"},
        {"reason": mqc.MQRC_Q_FULL, "queue_manager": "QM2"},
        {"reason": mqc.MQRC_CHANNEL_STOPPED_BY_USER, "queue_manager": "QM1"}])
    (out / "_MQROUTE_ANALYZE").touch()
    return out


def test_routes_lost_journeys_events(folder):
    snap = analyze_snapshot(folder)
    assert {k[0]: v for k, v in snap.series["mqroute_routes"].items()} == {
        "delivered": 2, "waiting_on_xmitq": 2, "max_activities": 1, "dead_lettered": 1}
    lost = {k: v for k, v in snap.series["mqroute_lost_messages"].items()}
    assert lost == {("QM1", "QM2", "waiting_on_xmitq"): 2, ("QM2", "TARGET", "loop"): 1,
                    ("QM2", "DLQ", "dead_lettered"): 1}
    assert {k[0]: v for k, v in snap.series["mqroute_journeys"].items()} == {
        "consumed": 2, "on_xmitq": 1}
    assert snap.get("mqroute_events_total", qmgr="QM2", reason="MQRC_Q_FULL") == 2
    assert snap.get("mqroute_events_total", qmgr="QM1",
                    reason="MQRC_CHANNEL_STOPPED_BY_USER") == 1


def test_hop_latency_per_channel(folder):
    snap = analyze_snapshot(folder)
    out = snap.get("mqroute_route_hop_seconds", qmgr="QM1", channel="QM1.TO.QM2")
    back = snap.get("mqroute_route_hop_seconds", qmgr="QM2", channel="QM2.TO.QM1")
    assert (out.count, out.sum, out.min, out.max) == (4, 5 + 2 + 100 + 30, 2, 100)
    cum = dict(out.cumulative())
    assert (cum[2.0], cum[5.0], cum[30.0], cum[120.0]) == (1, 2, 3, 4)
    assert (back.count, back.sum) == (1, 2)


def test_not_an_analyze_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match="no routes/ or journeys/"):
        analyze_snapshot(tmp_path)


def test_lost_messages_agree_with_the_report(tmp_path):
    pytest.importorskip("networkx")
    from graph.report.tables import read_estate
    from traceroute.records.parse import NotActivityData, parse_message
    from traceroute.routes.ordering import build_routes
    from traceroute.sim.corpus import corpus

    records = []
    for i, c in enumerate(corpus(4, seed=7)):
        try:
            records.append(parse_message(c.md, c.data, source="c.dmp", line=i))
        except NotActivityData:
            continue
    routes = list(build_routes(records))
    out = tmp_path / "corpus"
    write(out, "routes", ROUTE_COLUMNS, [route_row(r) for r in routes], by="verdict")
    write(out, "hops", HOP_COLUMNS, [h for r in routes for h in hop_rows(r)])
    snap = analyze_snapshot(out)
    est = read_estate(out)
    want: dict[tuple, int] = {}
    for g in est.lost_groups:
        key = (g["queue_manager"], g["queue"], g["cause"])
        want[key] = want.get(key, 0) + g["messages"]
    assert snap.series["mqroute_lost_messages"] == want
    assert {k[0]: v for k, v in snap.series["mqroute_routes"].items()} == dict(est.verdicts)
    assert sum(h.count for h in snap.series["mqroute_route_hop_seconds"].values()) > 0
