"""Snapshots: label values from hostile names, fair --max-series bounds, histograms, and the
exposition read back by prometheus_client's own parsers (text format and OpenMetrics)."""

from __future__ import annotations

import gzip
import math
import urllib.request

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graph.metrics.catalog import FAMILIES, HOP_BUCKETS, family
from graph.metrics.labels import MAX_LABEL, label_value
from graph.metrics.prometheus import SnapshotCollector, exposition, serve
from graph.metrics.snapshot import Histogram, Snapshot, bounded

prom = pytest.importorskip("prometheus_client")
from prometheus_client.openmetrics.parser import (  # noqa: E402
    text_string_to_metric_families as parse_openmetrics,
)
from prometheus_client.parser import text_string_to_metric_families as parse_text  # noqa: E402


def samples(text: str, openmetrics: bool = False) -> dict[tuple, float]:
    parse = parse_openmetrics if openmetrics else parse_text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for fam in parse(text) for s in fam.samples}


def test_label_values_are_safe_text():
    assert label_value("APP.Q" + " " * 43) == "APP.Q"
    assert label_value(b"\x01\xff") == "01FF"
    assert label_value(None) == ""
    assert label_value("A\x00B") == "AB"
    assert label_value("\ud800x") == "?x"
    long = label_value("Q" * 1000)
    assert len(long) == MAX_LABEL and long.endswith("\u2026")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=80))
def test_any_name_survives_both_formats(name):
    """Whatever a message calls a queue, the exposition parses back to the same label value
    (quotes, backslashes, newlines, any Unicode) in Prometheus text and in OpenMetrics."""
    snap = Snapshot()
    snap.put("ibmmq_queue_depth", {"qmgr": "QM1", "queue": name}, 3)
    want = label_value(name)
    for om in (False, True):
        got = samples(exposition(snap, openmetrics=om).decode("utf-8"), om)
        (key, value), = got.items()
        assert dict(key[1])["queue"] == want and value == 3


def test_histogram_cumulative_and_merge():
    h = Histogram(HOP_BUCKETS)
    for v in (0.2, 1.0, 7.0, 99999.0):
        h.observe(v)
    cum = dict(h.cumulative())
    assert cum[0.5] == 1 and cum[1.0] == 2 and cum[10.0] == 3 and cum[86400.0] == 3
    assert cum[math.inf] == 4 and h.sum == pytest.approx(100007.2)
    g = Histogram(HOP_BUCKETS)
    g.observe(3.0)
    h.merge(g)
    assert h.count == 5 and h.min == 0.2 and h.max == 99999.0


def test_merge_adds_counters_and_takes_the_newer_gauge():
    a, b = Snapshot(), Snapshot()
    a.put("mqroute_events_total", {"qmgr": "QM1", "reason": "MQRC_Q_FULL"}, 2)
    b.put("mqroute_events_total", {"qmgr": "QM1", "reason": "MQRC_Q_FULL"}, 3)
    a.put("ibmmq_queue_depth", {"qmgr": "QM1", "queue": "Q"}, 5)
    b.put("ibmmq_queue_depth", {"qmgr": "QM1", "queue": "Q"}, 1)
    a.merge(b)
    assert a.get("mqroute_events_total", qmgr="QM1", reason="MQRC_Q_FULL") == 5
    assert a.get("ibmmq_queue_depth", qmgr="QM1", queue="Q") == 1
    with pytest.raises(KeyError):
        a.put("ibmmq_queue_depth", {"qmgr": "QM1", "bogus": "x"}, 1)
    a.put("ibmmq_queue_depth", {"qmgr": "QM1", "queue": "N"}, float("nan"))
    assert a.get("ibmmq_queue_depth", qmgr="QM1", queue="N") is None


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from([f.name for f in FAMILIES if f.kind == "gauge"][:12]),
                       st.integers(1, 60), min_size=1), st.integers(1, 300))
def test_bounded_is_fair_and_within_budget(sizes, budget):
    snap = Snapshot()
    for name, n in sizes.items():
        fam = family(name)
        for i in range(n):
            snap.put(name, {fam.labels[0]: f"O{i:03d}"} if fam.labels else {}, i)
    kept, dropped = bounded(snap, budget)
    assert len(kept) <= budget
    have = {name: len(kept.series.get(name, {})) for name in sizes}
    for name, n in sizes.items():
        assert have[name] + dropped.get(name, 0) == min(n, 1 if not family(name).labels
                                                        else n)
        keys = sorted(snap.series[name])
        assert sorted(kept.series.get(name, {})) == keys[:have[name]]  # a prefix, in order
        if dropped.get(name):
            assert all(have[o] <= have[name] + 1 for o in sizes)  # nobody got more
    if len(snap) > budget:
        assert len(kept) == budget


def test_bounded_keeps_a_fair_share_in_label_order_and_counts_the_rest():
    snap = Snapshot()
    for i in range(100):
        snap.put("ibmmq_queue_depth", {"qmgr": "QM1", "queue": f"Q{i:03d}"}, i)
    snap.put("ibmmq_channel_status", {"qmgr": "QM1", "channel": "C"}, 3)
    snap.observe("mqroute_route_hop_seconds", {"qmgr": "QM1", "channel": "C"}, 2)
    kept, dropped = bounded(snap, 30)
    assert len(kept) <= 30
    assert kept.get("ibmmq_channel_status", qmgr="QM1", channel="C") == 3
    assert kept.get("mqroute_route_hop_seconds", qmgr="QM1", channel="C") is not None
    depths = kept.series["ibmmq_queue_depth"]
    assert sorted(k[1] for k in depths) == [f"Q{i:03d}" for i in range(len(depths))]
    assert dropped == {"ibmmq_queue_depth": 100 - len(depths)}
    assert bounded(snap, 10_000) == (snap, {})


def test_exposition_types_names_and_values():
    snap = Snapshot()
    snap.put("ibmmq_queue_depth", {"qmgr": "QM1", "queue": "Q"}, 5)
    snap.put("ibmmq_channel_messages", {"qmgr": "QM1", "channel": "C", "type": "SENDER"}, 4)
    snap.put("mqroute_events_total", {"qmgr": "QM1", "reason": "MQRC_Q_FULL"}, 2)
    snap.observe("mqroute_route_hop_seconds", {"qmgr": "QM1", "channel": "C"}, 3)
    text = exposition(snap).decode()
    assert "# TYPE ibmmq_channel_messages gauge" in text      # as mq-metric-samples types it
    assert "# TYPE mqroute_events_total counter" in text
    assert "# TYPE mqroute_route_hop_seconds histogram" in text
    for om in (False, True):
        got = samples(exposition(snap, openmetrics=om).decode(), om)
        assert got[("mqroute_events_total", (("qmgr", "QM1"), ("reason", "MQRC_Q_FULL")))] == 2
        assert got[("mqroute_route_hop_seconds_bucket",
                    (("channel", "C"), ("le", "5.0"), ("qmgr", "QM1")))] == 1
        assert got[("mqroute_route_hop_seconds_count", (("channel", "C"), ("qmgr", "QM1")))] == 1


def _get(url: str, accept: str | None = None, gzip_ok: bool = False):
    req = urllib.request.Request(url)
    if accept:
        req.add_header("Accept", accept)
    if gzip_ok:
        req.add_header("Accept-Encoding", "gzip")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_server_negotiates_and_serves_the_latest_snapshot():
    snap = Snapshot()
    snap.put("ibmmq_queue_depth", {"qmgr": "QM1", "queue": "GONE.SOON"}, 7)
    collector = SnapshotCollector(snap)
    httpd, _ = serve(collector, "127.0.0.1", 0)
    try:
        base = f"http://127.0.0.1:{httpd.server_address[1]}"
        status, headers, body = _get(base + "/metrics")
        assert status == 200 and headers["Content-Type"].startswith("text/plain")
        assert b'queue="GONE.SOON"' in body
        status, headers, body = _get(base + "/metrics", accept=(
            "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"))
        assert headers["Content-Type"].startswith("application/openmetrics-text")
        assert body.endswith(b"# EOF\n")
        status, headers, body = _get(base + "/metrics", gzip_ok=True)
        assert headers.get("Content-Encoding") == "gzip" and b"GONE.SOON" in \
            gzip.decompress(body)
        assert _get(base + "/nothing")[0] == 404
        again = _get(base + "/metrics")[2]
        assert again == _get(base + "/metrics")[2]  # made once per refresh, then kept
        assert len(collector._bodies) == 3  # text, OpenMetrics, gzipped text
        fresh = Snapshot()
        fresh.put("ibmmq_queue_depth", {"qmgr": "QM1", "queue": "STAYS"}, 1)
        collector.snapshot = fresh  # a refresh: the queue that went is no longer exported
        body = _get(base + "/metrics")[2]
        assert b"STAYS" in body and b"GONE.SOON" not in body
    finally:
        httpd.shutdown()
        httpd.server_close()
