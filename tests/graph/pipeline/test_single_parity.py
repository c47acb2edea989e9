"""One answer on every path (issue 25): the single-process analyze (graph.pipeline.single)
writes every table the Spark job writes, with equal rows; the route_events/ table (Spark's
join, the single process) and `show --events` (the pure explain) give the same explanations.

One corpus: a simulated estate's dumps of every kind (tests/support/estate_dumps.py), and a
table of route and event rows for every verdict's rule (a channel stopped before the
message, restarted after it, an expired message's last stop, events out of the window or on
another queue manager).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.pipeline.events import EVENT_COLUMNS, facts_of_row, route_event_rows
from pcf.dmpmqmsg import iter_file
from tests.support.estate_dumps import KINDS, analyze_in_one_process, estate_dumps
from traceroute.events import NotEventData, decode_event
from traceroute.events.explain import explain_routes, facts_of
from traceroute.records.parse import NotActivityData, parse_message
from traceroute.routes.ordering import build_routes

pa = pytest.importorskip("pyarrow")

TABLES = ("operations", "rejects", "routes", "hops", "queue_stats", "channel_stats",
          "mqi_stats", "accounting", "events", "route_events", "calls", "journeys")


@pytest.fixture(scope="module")
def estate(tmp_path_factory) -> tuple[dict[str, Path], Path]:
    from tests.support.smfrecords import rdw_stream
    from tests.traceroute.smf.test_smf_framing import channel_record, dump_header, log_record

    base = tmp_path_factory.mktemp("estate")
    dumps = estate_dumps(base / "dumps")
    (base / "smf").mkdir()  # a z/OS SMF data set beside the dumps: the smf/ tables
    (base / "smf" / "MQ07.SMF116").write_bytes(rdw_stream(
        dump_header(), log_record(), channel_record("A.B", "B.A")))
    dumps["smf"] = base / "smf"
    out = base / "local"
    analyze_in_one_process([str(dumps[k]) for k in (*KINDS, "smf")], str(out))
    return dumps, out


def _smf_tables(out: Path) -> list[str]:
    return sorted(f"smf/{p.name}" for p in (out / "smf").iterdir() if p.is_dir())


def _rows(out: Path, table: str) -> list[tuple]:
    import pyarrow.dataset as ds

    t = ds.dataset(out / table, format="parquet", partitioning="hive").to_table()
    names = sorted(t.schema.names)
    return sorted(tuple(str(r[n]) for n in names) for r in t.to_pylist())


def _messages(folder: Path):
    for path in sorted(folder.iterdir()):
        for m in iter_file(path):
            yield m.md, m.data


def test_every_table_is_written(estate):
    _, out = estate
    for table in TABLES:
        assert (out / table).is_dir(), table
    counts = {t: len(_rows(out, t)) for t in TABLES}
    assert all(counts[t] for t in TABLES if t != "rejects"), counts
    assert _smf_tables(out)


def test_show_events_and_route_events_explain_alike(estate):
    """The pure explain (`show --events`) over Route and Event values, and route_events/
    of the single process over table rows: the same (message, event) pairs."""
    dumps, out = estate
    records = []
    for md, data in _messages(dumps["reports"]):
        try:
            records.append(parse_message(md, data))
        except NotActivityData:
            continue
    events = []
    for md, data in _messages(dumps["events"]):
        try:
            events.append(decode_event(data, md))
        except NotEventData:
            continue
    pure = {(r.correl_id.hex(), w.event.reason,
             w.event.time.strftime("%Y-%m-%dT%H:%M:%SZ") if w.event.time else None)
            for r, why in explain_routes(list(build_routes(records)), events) for w in why}
    import pyarrow.dataset as ds

    table = ds.dataset(out / "route_events", format="parquet").to_table().to_pylist()
    assert {(r["correl_id"], r["reason"], r["time"]) for r in table} == pure
    assert {reason for _, reason, _ in pure} >= {2279, 2224}  # channel stopped, depth high
    # the rule reads the same facts from an Event as from its events/ row
    from graph.pipeline.events import event_rows

    for md, data in _messages(dumps["events"]):
        (row,) = event_rows(md, data)
        assert facts_of_row(row) == facts_of(decode_event(data, md))


T = "2026-11-22T10:{:02d}:00Z"


def _event(qm, reason, minute, *, category="channel", obj=None, channel=None, xmitq=None,
           position=0):
    return {"category": category, "reason": reason, "reason_name": str(reason),
            "queue_manager": qm, "object": obj or channel, "channel": channel,
            "xmit_queue": xmitq, "time": T.format(minute), "epoch": 1795341600 + 60 * minute,
            "source": "ev.dmp", "position": position}


def _route(key, verdict, qm, queue, minute, channel=None):
    return {"correl_id": key, "verdict": verdict, "last_queue_manager": qm,
            "last_queue": queue, "last_channel": channel,
            "last_time": T.format(minute).replace("T", " ").rstrip("Z")}


#: (route, its events, the reasons that explain it)
RULES = [
    (_route("a1", "waiting_on_xmitq", "QM1", "QM2", 30),
     [_event("QM1", 2282, 5, channel="C1", xmitq="QM2"), _event("QM1", 2279, 10, channel="C1")],
     {2279}),                              # stopped (by user, xmitq learned) after started
    (_route("a2", "waiting_on_xmitq", "QM1", "QM2", 30),
     [_event("QM1", 2279, 5, channel="C1"), _event("QM1", 2282, 10, channel="C1",
                                                   xmitq="QM2")],
     set()),                               # restarted after: not what holds it
    (_route("a3", "expired", "QM1", "QM2", 30),
     [_event("QM1", 2283, 5, channel="C1", xmitq="QM2"),
      _event("QM1", 2282, 20, channel="C1", xmitq="QM2")],
     {2283}),                              # expired: the channel's last stop
    (_route("a4", "waiting_on_xmitq", "QM1", "QM2", 30),
     [_event("QM1", 2283, 40, channel="C1", xmitq="QM2")],
     set()),                               # stopped after the message was last seen (+5 min)
    (_route("a5", "delivered", "QM2", "TARGET.Q", 50),
     [_event("QM2", 2224, 30, category="performance", obj="TARGET.Q"),
      _event("QM2", 2226, 58, category="performance", obj="TARGET.Q"),
      _event("QM2", 2224, 40, category="performance", obj="OTHER.Q")],
     {2224}),                              # depth high before; service interval too late
    (_route("a6", "dead_lettered", "QM2", "TARGET.Q", 30),
     [_event("QM2", 2053, 29, category="performance", obj="TARGET.Q"),
      _event("QM1", 2053, 29, category="performance", obj="TARGET.Q")],
     {2053}),                              # queue full there; not another queue manager's
    (_route("a7", "waiting_on_xmitq", "QM1", "QM2", 30),
     [_event("QM1", 2053, 25, category="performance", obj="QM2")],
     {2053}),                              # the transmission queue itself is full
    (_route("a8", "discarded_at_target", "QM2", "TARGET.Q", 30),
     [_event("QM2", 2224, 29, category="performance", obj="TARGET.Q")],
     set()),                               # nothing to explain
    # every queue manager event of a failed put explains a dead letter for its queue: the
    # one of that reason nearest it, not every one of the hour (older puts' own events)
    *[(_route(f"r{reason}", "dead_lettered", "QM2", "TARGET.Q", 30),
       [_event("QM2", reason, 29, category="qmgr", obj="TARGET.Q"),
        _event("QM2", reason, 5, category="qmgr", obj="TARGET.Q"),
        _event("QM2", reason, 29, category="qmgr", obj="OTHER.Q")],
       {reason}) for reason in (2001, 2016, 2035, 2051, 2057, 2082, 2085, 2087, 2091, 2092,
                                2184, 2196, 2197, 2198, 2199)],
    (_route("b1", "waiting_on_xmitq", "QM1", "QM2", 30),
     [_event("QM1", 2282, 5, channel="C1", xmitq="QM2"),
      _event("QM1", 2577, 10, channel="C1")],
     {2577}),                              # blocked by CHLAUTH after it had started
    (_route("b2", "waiting_on_xmitq", "QM1", "QM2", 30),
     [_event("QM1", 2283, 10, channel="C1", xmitq="QM2"),
      _event("QM1", 2283, 20, channel="C1", xmitq="QM2")],
     {2283}),                              # retrying: its last Channel Stopped
    (_route("b3", "waiting_on_xmitq", "QM1", "DEFAULT.XMITQ", 30),
     [_event("QM1", 2577, 10, obj="10.9.0.7")],
     set()),                               # a client blocked by address names no channel
]


S = "2026-11-22T10:{}Z"


def _put(key, mmss):
    """A message dead-lettered at 10:mm:ss (its put to TARGET.Q on QM3 failed)."""
    return {"correl_id": key, "verdict": "dead_lettered", "last_queue_manager": "QM3",
            "last_queue": "TARGET.Q", "last_channel": None,
            "last_time": f"2026-11-22 10:{mmss}"}


def _refusal(mmss, reason=2051):
    """QM3's event of `reason` for TARGET.Q at 10:mm:ss."""
    m, sec = (int(x) for x in mmss.split(":"))
    return {"category": "qmgr", "reason": reason, "reason_name": str(reason),
            "queue_manager": "QM3", "object": "TARGET.Q", "channel": None,
            "xmit_queue": None, "time": S.format(mmss),
            "epoch": 1795341600 + 60 * m + sec, "source": "ev.dmp", "position": 0}


#: Puts failing seconds apart, each explained by its own event (the one of its reason
#: nearest its time; at equal distance the one not after it; one per reason):
#: (the routes, the events, {(correl_id, reason, event time)}).
PUTS = ([_put("p1", "35:15"), _put("p2", "36:12"), _put("p3", "36:22"),
         _put("p4", "40:00"), _put("p5", "45:00")],
        [_refusal("36:22"), _refusal("36:12"), _refusal("35:15"),
         _refusal("39:58"), _refusal("40:02"),        # equally near p4: the one before
         _refusal("44:10"), _refusal("45:03"),        # p5's clock 3 s behind its event
         _refusal("45:10", 2053), _refusal("20:00", 2053)],  # a dead letter: each reason
        {("p1", 2051, S.format("35:15")), ("p2", 2051, S.format("36:12")),
         ("p3", 2051, S.format("36:22")), ("p4", 2051, S.format("39:58")),
         ("p5", 2051, S.format("45:03")), ("p5", 2053, S.format("45:10")),
         *((p, 2053, S.format("20:00")) for p in ("p1", "p2", "p3", "p4"))})


def _numbered(events):
    return [{**e, "position": i} for i, e in enumerate(events)]


@pytest.mark.parametrize(("route", "events", "reasons"), RULES,
                         ids=[r[0]["correl_id"] for r in RULES])
def test_the_rule_in_one_process(route, events, reasons):
    got = route_event_rows([route], _numbered(events))
    assert sorted(r["reason"] for r in got) == sorted(reasons)   # one event per reason


def test_puts_failing_seconds_apart_each_meet_their_own_event():
    routes, events, want = PUTS
    got = route_event_rows(routes, _numbered(events))
    assert sorted((r["correl_id"], r["reason"], r["time"]) for r in got) == sorted(want)


@pytest.mark.slow
def test_spark_writes_the_same_tables_and_explanations(spark, estate, tmp_path):
    """The Spark job on the same dumps: every table's rows equal; and route_events on the
    rule table equal to the single process's."""
    from graph.pipeline.events import route_events
    from graph.pipeline.job import run
    from graph.pipeline.schema import ddl

    dumps, local = estate
    out = tmp_path / "spark"
    run(spark, [str(dumps[k]) for k in (*KINDS, "smf")], str(out))
    assert _smf_tables(out) == _smf_tables(local)
    for table in (*TABLES, *_smf_tables(local)):
        assert _rows(out, table) == _rows(local, table), table
    # each rule on queue managers of its own, so that the pooled events do not meet
    def own(row, i):
        return {k: (f"{v}.{i}" if k in ("queue_manager", "last_queue_manager") else v)
                for k, v in row.items()}

    routes = [own(r, i) for i, (r, _, _) in enumerate(RULES)] + PUTS[0]
    events = _numbered([own(e, i) for i, (_, es, _) in enumerate(RULES) for e in es]
                       + PUTS[1])
    columns = [c for c in EVENT_COLUMNS]
    frame = spark.createDataFrame([tuple(e.get(n) for n, _ in columns) for e in events],
                                  ddl(columns))
    names = ("correl_id", "verdict", "last_queue_manager", "last_queue", "last_channel",
             "last_time")
    route_frame = spark.createDataFrame([tuple(r[n] for n in names) for r in routes],
                                        ", ".join(f"{n} string" for n in names))
    got = sorted((r["correl_id"], r["reason"], r["time"])
                 for r in route_events(route_frame, frame).collect())
    want = sorted((r["correl_id"], r["reason"], r["time"])
                  for r in route_event_rows(routes, events))
    assert got == want
    assert sorted(w[:2] for w in want if w[0] in {r["correl_id"] for r, _, _ in RULES}) \
        == sorted((r["correl_id"], reason) for r, _, reasons in RULES for reason in reasons)
    assert {w for w in want if w[0].startswith("p")} == PUTS[2]
