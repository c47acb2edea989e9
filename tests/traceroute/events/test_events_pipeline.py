"""The analyze job's events/ table and route_events/ join, on local Spark."""

from __future__ import annotations

from datetime import UTC, datetime

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.display.amqsevt import from_json
from traceroute.events.build import event_message
from traceroute.events.config import channel_event
from traceroute.events.model import md_time

T = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def _raw(spark, events):
    rows = []
    for n, e in enumerate(events):
        md, data = event_message(e)
        rows.append(("ev.dmp", n, md.pack(), data, None))
    rows.append(("ev.dmp", 99, MQMD(format="MQSTR").pack(), b"not pcf", None))
    from graph.pipeline.inputs import RAW_COLUMNS
    from graph.pipeline.schema import ddl

    return spark.createDataFrame(rows, ddl(RAW_COLUMNS))


def test_events_table_and_route_events_join(spark, tmp_path) -> None:
    from graph.pipeline.classify import classify, events_frame
    from graph.pipeline.events import route_events, write_tables
    from graph.pipeline.rows import ROUTE_COLUMNS
    from graph.pipeline.schema import ddl

    started = channel_event(mqc.MQRC_CHANNEL_STARTED, "QM1", "QM1.TO.QM2", T, xmitq="QM2")
    stopped = channel_event(mqc.MQRC_CHANNEL_STOPPED_BY_USER, "QM1", "QM1.TO.QM2",
                            T.replace(minute=5), qualifier=mqc.MQRQ_CHANNEL_STOPPED_DISABLED)
    full = from_json({"eventSource": {"objectName": "SYSTEM.ADMIN.PERFM.EVENT",
                                      "objectType": "Queue", "queueMgr": "QM2"},
                      "eventType": {"name": "Perfm Event", "value": 45},
                      "eventReason": {"name": "Queue Full", "value": 2053},
                      "eventCreation": {"timeStamp": "2026-11-22T11:00:00Z",
                                        "epoch": int(T.replace(hour=11).timestamp())},
                      "eventData": {"queueMgrName": "QM2", "baseObjectName": "APP.IN",
                                    "highQueueDepth": 5000}})
    events = events_frame(classify(_raw(spark, [started, stopped, full]))).persist()
    rows = sorted(events.collect(), key=lambda r: r["position"])
    assert [(r["category"], r["reason_name"], r["object"], r["xmit_queue"]) for r in rows] == [
        ("channel", "Channel Started", "QM1.TO.QM2", "QM2"),
        ("channel", "Channel Stopped By User", "QM1.TO.QM2", None),
        ("performance", "Queue Full", "APP.IN", None)]
    assert rows[2]["time"] == "2026-11-22T11:00:00Z" and '"highQueueDepth": 5000' in rows[2]["data"]
    routes = spark.createDataFrame([
        ("AA", "waiting_on_xmitq", False, None, "QM1", "QM2", None, "QM2", 2, 0, 0, 0, 0,
         "2026-11-22 10:00:00", "2026-11-22 10:30:00", 2),
        ("BB", "dead_lettered", True, 2053, "QM2", "APP.IN", None, None, 3, 1, 0, 0, 0,
         "2026-11-22 10:59:00", "2026-11-22 11:00:10", 3),
        ("CC", "delivered", True, None, "QM2", "OTHER.Q", None, None, 3, 1, 0, 0, 0,
         "2026-11-22 10:59:00", "2026-11-22 11:00:10", 3)], ddl(ROUTE_COLUMNS))
    joined = sorted((r["correl_id"], r["reason_name"]) for r in
                    route_events(routes, events).collect())
    assert joined == [("AA", "Channel Stopped By User"), ("BB", "Queue Full")]
    assert write_tables(events, str(tmp_path), routes) == 3
    assert (tmp_path / "events" / "category=channel").is_dir()
    assert spark.read.parquet(str(tmp_path / "route_events")).count() == 2
    events.unpersist()
    assert md_time(T) == ("20261122", "10000000")
