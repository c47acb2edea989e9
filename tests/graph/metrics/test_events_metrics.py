"""MQ events -> mqroute_events_total{qmgr,reason}: typed events, the simulator's real PCF
event messages, and IBM's amqsevt captures checked against `mqroute events --json`."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from graph.metrics.events import events_snapshot
from graph.metrics.labels import reason_label
from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.events import Event, EventSource, decode_event
from traceroute.sim.events import SimEvents
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

ROOT = Path(__file__).resolve().parents[3]


def test_counts_by_queue_manager_and_reason():
    src = EventSource("SYSTEM.ADMIN.PERFM.EVENT", queue_mgr="QM1")
    events = [Event(src, mqc.MQCMD_PERFM_EVENT, mqc.MQRC_Q_FULL)] * 3 + \
        [Event(src, mqc.MQCMD_PERFM_EVENT, mqc.MQRC_Q_DEPTH_HIGH),
         Event(EventSource("X", queue_mgr="QM2"), mqc.MQCMD_CHANNEL_EVENT, 99999)]
    snap = events_snapshot(events)
    assert snap.get("mqroute_events_total", qmgr="QM1", reason="MQRC_Q_FULL") == 3
    assert snap.get("mqroute_events_total", qmgr="QM1", reason="MQRC_Q_DEPTH_HIGH") == 1
    assert snap.get("mqroute_events_total", qmgr="QM2", reason="99999") == 1
    assert reason_label(None) == "" and reason_label(2053) == "MQRC_Q_FULL"


def test_the_simulators_event_messages():
    """Real PCF event messages (a queue filling past QDEPTHHI, then emptied below QDEPTHLO)
    decoded and counted."""
    mqsc = """
    ALTER QMGR PERFMEV(ENABLED)
    DEFINE QLOCAL(WATCHED) MAXDEPTH(10) QDEPTHHI(20) QDEPTHLO(10) QDPHIEV(ENABLED)
    """
    sim = Simulator(parse_mqsc(mqsc, qmgr="QM1"))
    SimEvents(sim)
    for _ in range(3):
        sim.put("QM1", "WATCHED", MQMD(format="MQSTR"), b"x")
    for _ in range(3):
        sim.get("QM1", "WATCHED")
    decoded = [decode_event(data, md) for md, data in
               sim.browse("QM1", "SYSTEM.ADMIN.PERFM.EVENT")]
    want = Counter((e.qmgr, reason_label(e.reason)) for e in decoded)
    assert {r for _, r in want} == {"MQRC_Q_DEPTH_HIGH", "MQRC_Q_DEPTH_LOW"}
    snap = events_snapshot(decoded)
    for (qm, reason), n in want.items():
        assert snap.get("mqroute_events_total", qmgr=qm, reason=reason) == n


def test_amqsevt_captures_count_as_mqroute_events_shows_them(vectors, tmp_path):
    files = sorted(str(p) for p in (vectors / "amqsevt-json").glob("*.json.txt"))
    r = subprocess.run([sys.executable, "-m", "mqroute", "events", "--from-json", *files,
                        "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    shown = [json.loads(line) for line in r.stdout.splitlines()]
    want = Counter((e["eventSource"]["queueMgr"], reason_label(e["eventReason"]["value"]))
                   for e in shown)
    out = tmp_path / "events.prom"
    m = subprocess.run([sys.executable, "-m", "mqroute", "metrics", "--events", *files,
                        "--textfile", str(out)], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert m.returncode == 0, m.stderr
    from prometheus_client.parser import text_string_to_metric_families

    got = Counter()
    for fam in text_string_to_metric_families(out.read_text()):
        if fam.name == "mqroute_events":
            for s in fam.samples:
                got[(s.labels["qmgr"], s.labels["reason"])] = s.value
    assert got == want and sum(want.values()) == len(shown) > 10
