"""The metrics as a real Prometheus stores them: Debian's `prometheus` scrapes `mqroute
metrics` processes on 127.0.0.1 (one server for the module, scraping every second, as it
scrapes in production: OpenMetrics negotiated) and its HTTP API is queried.

* a statistics dump (two intervals, two queue managers; plus IBM's real STATQ message when
  ../shared/vectors is present) gives the put and get counts `mqroute stats --json` gives;
* an analyze output gives lost messages and hop latencies that PromQL's histogram_quantile
  reads;
* a simulated estate folder with a stopped channel and messages waiting on its transmission
  queue gives the queue depths and channel status `mqroute status --json` gives.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from pcf.dmpmqmsg import DumpedMessage, write_file
from tests.graph.metrics.test_analyze_metrics import write_analyze_output
from tests.graph.metrics.test_statistics_metrics import (
    mqi_statistics,
    queue_group,
    queue_statistics,
)
from tests.mqroute.test_metrics_cli import ADMIN
from tests.support.prometheus import MetricsProcess, Prometheus, prometheus_binary

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def estate(tmp_path_factory):
    """The inputs, the mqroute metrics processes and the Prometheus that scrapes them."""
    prometheus_binary()  # skip early, before starting anything
    tmp = tmp_path_factory.mktemp("prom")
    stats = tmp / "stats.dmp"
    write_file(stats, [DumpedMessage(ADMIN, m) for m in (
        queue_statistics([queue_group("APP.Q", puts=(3, 4), gets=(2, 5)),
                          queue_group("OTHER.Q", puts=(1, 0), gets=(0, 0))]),
        queue_statistics([queue_group("APP.Q", puts=(10, 0), gets=(9, 1))],
                         start="10.30.00", end="11.00.00"),
        queue_statistics([queue_group("APP.Q", puts=(6, 6), gets=(1, 1))], qmgr="QM2"),
        mqi_statistics())])
    inputs = [str(stats)]
    vector = ROOT.parent / "shared" / "vectors" / "pymqi" / "statistics_q.dat"
    if vector.exists():
        inputs.append(str(vector))
    out = write_analyze_output(tmp / "analyze")
    folder = make_estate(tmp / "estate")
    procs = {"stats": MetricsProcess("--stats", *inputs),
             "analyze": MetricsProcess("--analyze", str(out)),
             "estate": MetricsProcess("--network", str(folder))}
    server = None
    try:
        server = Prometheus(tmp / "server", {job: p.address for job, p in procs.items()})
        yield {"server": server, "stats_inputs": inputs, "analyze": out, "estate": folder}
    finally:
        if server is not None:
            server.stop()
        for p in procs.values():
            p.stop()


def mqroute(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "mqroute", *args], cwd=ROOT, input=stdin,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (args, r.stderr)
    return r


def make_estate(folder: Path) -> Path:
    """IBM's QM1/QM2 example as an estate folder, monitoring on, QM1's channel to QM2
    stopped and four messages waiting on its transmission queue."""
    mqroute("sim", "init", str(folder), "--network", "demo")
    for qmgr in ("QM1", "QM2"):
        mqroute("sim", "runmqsc", str(folder), qmgr,
                stdin="ALTER QMGR MONQ(MEDIUM) MONCHL(MEDIUM)\n")
    mqroute("sim", "runmqsc", str(folder), "QM1", stdin="STOP CHANNEL(QM1.TO.QM2)\n")
    mqroute("sim", "put", str(folder), "-m", "QM1", "-q", "TARG.AT.QM2", "--count", "4")
    return folder


def stats_json(inputs: list[str]) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "mqroute", "stats", *inputs, "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_statistics_counts_as_prometheus_stores_them(estate):
    server = estate["server"]
    want_puts: dict[tuple, int] = defaultdict(int)
    want_gets: dict[tuple, int] = defaultdict(int)
    for o in stats_json(estate["stats_inputs"]):
        if o["record_type"] == "QueueStatistics":
            key = (o["queue_manager"], o["object"])
            want_puts[key] += sum(o["data"].get("PutCount", [0]))
            want_gets[key] += sum(o["data"].get("GetCount", [0]))
    puts = server.wait_for('ibmmq_queue_mqput_message_count{job="stats"}')
    gets = server.query('ibmmq_queue_destructive_mqget_message_count{job="stats"}')
    got_puts = {(r["metric"]["qmgr"], r["metric"]["queue"]): r["value"] for r in puts}
    got_gets = {(r["metric"]["qmgr"], r["metric"]["queue"]): r["value"] for r in gets}
    assert got_puts == want_puts and got_gets == want_gets
    assert got_puts[("QM1", "APP.Q")] == 17 and got_puts[("QM2", "APP.Q")] == 12
    mqi = server.query('ibmmq_qmgr_mqopen_count{job="stats"}')
    assert [r["value"] for r in mqi] == [sum(range(1, 14))]
    health = {t["labels"]["job"]: t["health"] for t in server.targets()}
    assert health["stats"] == "up"


def test_lost_messages_and_hop_latency_in_promql(estate):
    server = estate["server"]
    lost = server.wait_for('mqroute_lost_messages{job="analyze"}')
    assert {(r["metric"]["qmgr"], r["metric"].get("queue"), r["metric"]["cause"]): r["value"]
            for r in lost} == {("QM1", "QM2", "waiting_on_xmitq"): 2,
                               ("QM2", "TARGET", "loop"): 1,
                               ("QM2", "DLQ", "dead_lettered"): 1}
    count = server.query('mqroute_route_hop_seconds_count{channel="QM1.TO.QM2"}')
    assert [r["value"] for r in count] == [4]
    q = server.query('histogram_quantile(0.5, mqroute_route_hop_seconds_bucket'
                     '{channel="QM1.TO.QM2"})')
    assert 2 <= q[0]["value"] <= 30
    assert server.query('sum(mqroute_events_total{job="analyze"})')[0]["value"] == 3


def test_estate_as_mqroute_status_shows_it(estate):
    """The stopped channel and the four messages waiting, as Prometheus stores them, equal
    to what `mqroute status --json` shows of the same estate folder."""
    from traceroute.status.words import CHANNEL_STATUS, reverse

    server = estate["server"]
    got = server.wait_for('ibmmq_queue_depth{job="estate"}')
    depths = {(r["metric"]["qmgr"], r["metric"]["queue"]): r["value"] for r in got}
    assert depths[("QM1", "QM2")] == 4 and depths[("QM2", "TARGET.Q")] == 0
    channels = server.query('ibmmq_channel_status{job="estate"}')
    states = {(r["metric"]["qmgr"], r["metric"]["channel"]): r["value"] for r in channels}
    assert states[("QM1", "QM1.TO.QM2")] == 6  # MQCHS_STOPPED
    squash = server.query('ibmmq_channel_status_squash{job="estate",channel="QM1.TO.QM2"}')
    assert [r["value"] for r in squash] == [0]
    age = server.query('ibmmq_queue_oldest_message_age{job="estate",queue="QM2"}')
    assert len(age) == 1  # MONQ(MEDIUM): the dashboards' oldest-message panel has it
    full = server.query('(ibmmq_queue_depth{job="estate",queue="QM2"} * 100) / '
                        'ibmmq_queue_attribute_max_depth{job="estate"}')
    assert [r["value"] for r in full] == [4 * 100 / 5000]
    shown = [json.loads(line) for qmgr in ("QM1", "QM2") for line in mqroute(
        "status", "--network", str(estate["estate"]), "-m", qmgr, "--json",
        "--system").stdout.splitlines()]
    assert depths == {(o["queue_manager"], o["name"]): o["curdepth"] for o in shown
                      if o["object_type"] == "queue"}
    assert states == {(o["queue_manager"], o["name"]): reverse(CHANNEL_STATUS)[o["status"]]
                      for o in shown if o["object_type"] == "channel"
                      and o["status"] != "INACTIVE"}


def test_mqroutes_own_dashboard_runs_on_prometheus(estate):
    """Every expression of docs/grafana/mqroute.json is valid PromQL on the real server, and
    the panels for what only mqroute knows have data."""
    from tests.graph.metrics.test_dashboards import our_dashboard

    server = estate["server"]
    server.wait_for('mqroute_lost_messages{job="analyze"}')
    results = {expr: server.query(expr) for _, expr in our_dashboard()}
    assert {r["metric"]["cause"]: r["value"] for r in
            results["sum by (cause) (mqroute_lost_messages)"]} == {
        "waiting_on_xmitq": 2, "loop": 1, "dead_lettered": 1}
    p95 = results["histogram_quantile(0.95, sum by (le, qmgr, channel) "
                  "(mqroute_route_hop_seconds_bucket))"]
    assert {(r["metric"]["qmgr"], r["metric"]["channel"]) for r in p95} >= {
        ("QM1", "QM1.TO.QM2"), ("QM2", "QM2.TO.QM1")}
    assert results["sum by (verdict) (mqroute_routes)"]
