"""The audit uses channel statistics as observed traffic and queue statistics for queues."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from graph.audit import (
    ObservedQueue,
    ObservedSend,
    audit_with_statistics,
    merge_sends,
    observed_with_statistics,
    sends_from_channel_statistics,
    statistics_findings,
)
from graph.pipeline.stats import TABLES, stats_rows
from pcf.mqmd import MQMD
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator
from traceroute.sim.statistics import StatisticsCollector

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
EXTRA = """
* Queue manager name: QM1
ALTER QMGR STATQ(ON) STATCHL(MEDIUM) STATINT(60)
DEFINE QLOCAL('LOCAL.Q') REPLACE
* Queue manager name: QM2
ALTER QMGR STATQ(ON) STATCHL(MEDIUM) STATINT(60)
"""


def test_pure_findings():
    net = parse_mqsc(EXAMPLE + EXTRA)
    rows = [ObservedQueue("QM1", "LOCAL.Q", "t0", "t1", 5, 0, 0, 5),
            ObservedQueue("QM1", "LOCAL.Q", "t1", "t2", 3, 0, 5, 8),
            ObservedQueue("QM2", "TARGET.Q", "t0", "t1", 5, 0, 0, 5),
            ObservedQueue("QM2", "TARGET.Q", "t1", "t2", 0, 5, 0, 5),   # read: not growing
            ObservedQueue("QM1", "QM2", "t0", "t1", 4, 4, 0, 4, 3_000_000),
            ObservedQueue("QM1", "QM2", "t1", "t2", 4, 4, 0, 1, 1_000_000),
            ObservedQueue("QM2", "QM1", "t0", "t1", 4, 4, 0, 1, 999_999),
            ObservedQueue("QM1", "SYSTEM.ADMIN.ACTIVITY.QUEUE", "t0", "t1", 9, 0, 0, 9)]
    found = statistics_findings(net, rows)
    assert [(f.kind, f.queue_manager, f.objects) for f in found] == [
        ("growing_queue", "QM1", ("LOCAL.Q",)),
        ("slow_transmission_queue", "QM1", ("QM2", "QM1.TO.QM2"))]
    assert "2.0 s" in found[1].detail and "depth rose to 8" in found[0].detail


def test_channel_statistics_are_observed_sends():
    rows = [{"queue_manager": "QM1", "object": "QM1.TO.QM2", "channel_type": 1,
             "remote_qmgr": "QM2", "msg_count": 4},
            {"queue_manager": "QM1", "object": "QM1.TO.QM2", "channel_type": 1,
             "remote_qmgr": "QM2", "msg_count": 6},
            {"queue_manager": "QM2", "object": "QM1.TO.QM2", "channel_type": 3,
             "remote_qmgr": "QM1", "msg_count": 10},           # the receiving end
            {"queue_manager": "QM2", "object": "QM2.TO.QM1", "channel_type": 1,
             "remote_qmgr": "QM1", "msg_count": 0}]
    assert sends_from_channel_statistics(rows) == [ObservedSend("QM1", "QM2", "QM1.TO.QM2", 10)]
    route = [ObservedSend("QM1", "QM2", "QM1.TO.QM2", 3)]
    assert merge_sends(route, sends_from_channel_statistics(rows)) == route


def write_tables(folder: Path, written) -> None:
    """The analyze output's statistics tables, written with pyarrow (no Spark needed)."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = [r for w in written for r in stats_rows(w.md, w.data, source="sim")]
    for table in ("queue_stats", "channel_stats"):
        names = [n for n, _ in TABLES[table]]
        picked = [{n: r.get(n) for n in names} for r in rows if r["table"] == table]
        (folder / table).mkdir(parents=True)
        pq.write_table(pa.Table.from_pylist(picked), folder / table / "part-0.parquet")


def simulated_day(tmp_path):
    mqsc = EXAMPLE + EXTRA
    sim = Simulator(parse_mqsc(mqsc))
    collector = StatisticsCollector(sim)
    sim.stop_channel("QM1", "QM1.TO.QM2")
    for _ in range(20):
        assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"p" * 20).ok
        assert sim.put("QM1", "LOCAL.Q", MQMD(format="MQSTR"), b"l").ok
        sim.run(until=sim.now + 6)
    sim.start_channel("QM1", "QM1.TO.QM2")
    sim.run()
    for _ in range(20):
        assert sim.get("QM2", "TARGET.Q") is not None
    out = tmp_path / "observed"
    write_tables(out, collector.finish())
    (tmp_path / "estate.mqsc").write_text(mqsc)
    return parse_mqsc(mqsc), out


def test_audit_from_a_simulated_day_of_statistics(tmp_path):
    network, out = simulated_day(tmp_path)
    sends, queues = observed_with_statistics(out)
    assert sends == [ObservedSend("QM1", "QM2", "QM1.TO.QM2", 20)]
    found = {(f.kind, f.queue_manager, f.objects)
             for f in audit_with_statistics(network, sends, queues)}
    assert ("growing_queue", "QM1", ("LOCAL.Q",)) in found
    assert ("slow_transmission_queue", "QM1", ("QM2", "QM1.TO.QM2")) in found
    assert ("unused_channel", "QM2", ("QM2.TO.QM1",)) in found      # carried nothing
    assert not any(k == "unused_channel" and q == "QM1" for k, q, _ in found)
    assert not any(k == "growing_queue" and o == ("TARGET.Q",) for k, _, o in found)
    rogue = [ObservedSend("QM1", "QM2", "ROGUE.CHANNEL", 7)]
    found = audit_with_statistics(network, merge_sends(sends, rogue), queues)
    assert any(f.kind == "unexplained_route" and f.objects == ("ROGUE.CHANNEL", "QM2")
               for f in found)


def test_mqroute_audit_reads_the_statistics_tables(tmp_path):
    _, out = simulated_day(tmp_path)
    r = subprocess.run([sys.executable, "-m", "mqroute", "audit", "--mqsc",
                        str(tmp_path / "estate.mqsc"), "--observed", str(out), "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 3, r.stderr
    kinds = [json.loads(line)["kind"] for line in r.stdout.splitlines()]
    assert "growing_queue" in kinds and "slow_transmission_queue" in kinds
