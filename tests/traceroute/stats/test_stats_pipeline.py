"""`mqroute analyze` writes the accounting/statistics tables with the same code as `stats`."""

from __future__ import annotations

import json

import pytest

from graph.pipeline.job import run
from pcf.dmpmqmsg import DumpedMessage, write_file
from tests.traceroute.stats.test_stats_simulator import run_day
from traceroute.display.amqsmon import record_to_json
from traceroute.sim.simulator import ACTIVITY_QUEUE
from traceroute.stats import decode_stats, join_sequences

pytestmark = pytest.mark.slow


def test_analyze_writes_the_statistics_tables(spark, tmp_path, vectors):
    pq = pytest.importorskip("pyarrow.parquet")
    sim, written = run_day()
    inputs = tmp_path / "in"
    inputs.mkdir()
    write_file(inputs / "stats.dmp", [DumpedMessage(w.md, w.data) for w in written])
    write_file(inputs / "activity.dmp", [DumpedMessage(md, d) for qm in ("QM1", "QM2")
                                         for md, d in sim.browse(qm, ACTIVITY_QUEUE)])
    (inputs / "statistics_q.dat").write_bytes(
        (vectors / "pymqi" / "statistics_q.dat").read_bytes())
    out = tmp_path / "out"
    summary = run(spark, [str(inputs)], str(out))
    expected = [record_to_json(r) for j in join_sequences(
        decode_stats(w.md, w.data) for w in written) for r in j.records()]
    kinds = {"queue_stats": "QueueStatistics", "channel_stats": "ChannelStatistics",
             "mqi_stats": "MQIStatistics"}
    for table, kind in kinds.items():
        want = [e for e in expected if e["record_type"] == kind]
        if table == "queue_stats":
            want += [None] * 16  # the real vector's groups
        rows = pq.read_table(out / table).to_pylist()
        assert summary.stats[table] == len(rows) == len(want), table
        by_key = {(r["queue_manager"], r["interval_start"], r["object"]): r for r in rows}
        for e in want:
            if e is None:
                continue
            row = by_key[(e["queue_manager"], e["interval_start"], e["object"])]
            assert json.loads(row["data"]) == e["data"]
            assert row["interval_end"] == e["interval_end"]
    accounting = pq.read_table(out / "accounting").to_pylist()
    assert len(accounting) == sum(e["record_type"].endswith("Accounting") for e in expected)
    consumer = [r for r in accounting if r["application_name"] == "consumer"
                and r["object"] == "TARGET.Q"]
    assert sum(r["get_count"] for r in consumer) == 7
    queues = pq.read_table(out / "queue_stats").to_pylist()
    vector = [r for r in queues if r["queue_manager"] == "mq_mgr1"]
    assert sorted(r["avg_time_on_q"] for r in vector)[-1] == 2670
    channels = pq.read_table(out / "channel_stats").to_pylist()
    assert sum(r["msg_count"] for r in channels if r["channel_type"] == 1) == 10
    assert pq.read_table(out / "rejects").num_rows == 0   # statistics are not rejects
    assert summary.routes > 0
