"""One simulated estate's monitoring data, end to end: its statistics and event dumps and its
analyze output (the real one-process analyze) through `mqroute metrics`, each number held to
what another command shows of the same data (`stats --json`, `events --json`, the report's
tables)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from tests.support.estate_dumps import analyze_in_one_process, estate_dumps

pytest.importorskip("pyarrow")
pytest.importorskip("prometheus_client")
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[3]


def mqroute(*args: str) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "mqroute", *args], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, (args, r.stderr)
    return r


def samples(path: Path) -> dict[str, dict[tuple, float]]:
    out: dict[str, dict[tuple, float]] = defaultdict(dict)
    for fam in text_string_to_metric_families(path.read_text()):
        for s in fam.samples:
            out[s.name][tuple(sorted((k, v) for k, v in s.labels.items() if v))] = s.value
    return out


@pytest.fixture(scope="module")
def estate(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("estate")
    dumps = estate_dumps(tmp / "dumps")
    out = tmp / "analyze"
    analyze_in_one_process([str(p) for p in dumps.values()], str(out))
    prom = tmp / "estate.prom"
    mqroute("metrics", "--stats", str(dumps["statistics"]), "--events", str(dumps["events"]),
            "--analyze", str(out), "--textfile", str(prom))
    return {"dumps": dumps, "out": out, "metrics": samples(prom)}


def test_statistics_as_stats_json_shows_them(estate):
    shown = [json.loads(line) for line in mqroute(
        "stats", str(estate["dumps"]["statistics"]), "--json").stdout.splitlines()]
    puts, gets = Counter(), Counter()
    for o in shown:
        if o["record_type"] == "QueueStatistics":
            key = (("qmgr", o["queue_manager"]), ("queue", o["object"]))
            puts[key] += sum(o["data"].get("PutCount", [0])) + sum(o["data"].get("Put1Count",
                                                                                  [0]))
            gets[key] += sum(o["data"].get("GetCount", [0]))
    m = estate["metrics"]
    got_puts = {k: m["ibmmq_queue_mqput_message_count"].get(k, 0) +
                m["ibmmq_queue_mqput1_message_count"].get(k, 0) for k in puts}
    assert got_puts == dict(puts) and sum(puts.values()) > 0
    assert {k: m["ibmmq_queue_destructive_mqget_message_count"][k] for k in gets} == dict(gets)
    assert m["mqroute_channel_statistics_messages"]  # STATCHL on both queue managers


def test_events_as_events_json_shows_them(estate):
    shown = [json.loads(line) for line in mqroute(
        "events", str(estate["dumps"]["events"]), "--json").stdout.splitlines()]
    from graph.metrics.labels import reason_label

    want = Counter((("qmgr", e["eventSource"]["queueMgr"]),
                    ("reason", reason_label(e["eventReason"]["value"]))) for e in shown)
    got = estate["metrics"]["mqroute_events_total"]
    # the analyze folder's events/ table holds the same events again: counted twice
    assert got == {k: 2 * n for k, n in want.items()} and want


def test_routes_and_lost_messages_as_the_report_groups_them(estate):
    from graph.report.tables import read_estate

    est = read_estate(estate["out"])
    m = estate["metrics"]
    assert {dict(k)["verdict"]: v for k, v in m["mqroute_routes"].items()} == dict(est.verdicts)
    want: Counter = Counter()
    for g in est.lost_groups:
        want[tuple(sorted((k, v) for k, v in (("qmgr", g["queue_manager"]),
                                               ("queue", g["queue"]),
                                               ("cause", g["cause"])) if v))] += g["messages"]
    assert m["mqroute_lost_messages"] == dict(want) and want
    hops = m["mqroute_route_hop_seconds_count"]
    assert sum(hops.values()) >= 4  # the four delivered orders crossed QM1.TO.QM2
    assert m["mqroute_journeys"]  # activity trace: journeys by verdict
