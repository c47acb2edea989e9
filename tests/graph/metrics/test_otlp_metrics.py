"""OTLP metrics: the same numbers as the Prometheus exposition, read back with
opentelemetry-proto (the JSON file, and the protobuf body OpenTelemetry's exporter posts to
a collector on 127.0.0.1); names Prometheus's OTLP translation turns into ours."""

from __future__ import annotations

import http.server
import re
import threading
from typing import ClassVar

import pytest

from graph.metrics.catalog import COUNTER, FAMILIES, GAUGE
from graph.metrics.otlp import otlp_json, send
from graph.metrics.prometheus import exposition
from graph.metrics.snapshot import Snapshot

pytest.importorskip("opentelemetry.sdk.metrics")
metrics_service = pytest.importorskip(
    "opentelemetry.proto.collector.metrics.v1.metrics_service_pb2")
from google.protobuf.json_format import ParseDict  # noqa: E402
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

UNITS = {"s": "seconds", "By": "bytes", "1": "ratio"}


def prometheus_name(name: str, unit: str, kind: str) -> str:
    """Prometheus's translation of an OTLP metric name (UnderscoreEscapingWithSuffixes):
    characters outside [a-zA-Z0-9_:] become `_`, the unit's word is appended unless the
    name ends with it, a monotonic sum gets `_total`."""
    out = re.sub(r"[^a-zA-Z0-9_:]", "_", name)
    word = UNITS.get(unit, unit)
    if word and not out.endswith("_" + word):
        out += "_" + word
    if kind == COUNTER and not out.endswith("_total"):
        out += "_total"
    return out


def test_otlp_names_translate_back_to_the_prometheus_names():
    wrong = [f.name for f in FAMILIES if prometheus_name(f.otel_name, f.unit, f.kind) != f.name]
    assert not wrong
    for fam in FAMILIES:
        if fam.origin == "mq-metric-samples":  # mq_otel: ibmmq.<class>.<attribute>
            assert fam.otel_name.startswith(f"ibmmq.{fam.name.split('_')[1]}.")


def snapshot() -> Snapshot:
    s = Snapshot()
    s.put("ibmmq_queue_depth", {"qmgr": "QM1", "queue": "APP.Q", "usage": "NORMAL"}, 5)
    s.put("ibmmq_channel_status", {"qmgr": "QM1", "channel": "QM1.TO.QM2", "type": "SENDER"},
          6)
    s.put("mqroute_events_total", {"qmgr": "QM1", "reason": "MQRC_Q_FULL"}, 2)
    for v in (0.2, 3, 3, 500):
        s.observe("mqroute_route_hop_seconds", {"qmgr": "QM1", "channel": "QM1.TO.QM2"}, v)
    return s


def points(request) -> dict[tuple, object]:
    """(metric name, attributes) -> value, or (count, sum, bucket counts) of histograms."""
    out: dict[tuple, object] = {}
    for rm in request.resource_metrics:
        for sm in rm.scope_metrics:
            for m in sm.metrics:
                kind = m.WhichOneof("data")
                for p in getattr(m, kind).data_points:
                    attrs = tuple(sorted((a.key, a.value.string_value) for a in p.attributes))
                    out[(m.name, attrs)] = (p.count, p.sum, list(p.bucket_counts)) \
                        if kind == "histogram" else p.as_double
                if kind == "sum":
                    assert m.sum.is_monotonic and m.sum.aggregation_temporality == 2
    return out


def test_json_parses_with_opentelemetry_proto_and_carries_the_same_numbers():
    snap = snapshot()
    doc = otlp_json(snap, start_ns=1_000, now_ns=2_000, version="0.1.0")
    request = ParseDict(doc, metrics_service.ExportMetricsServiceRequest())
    got = points(request)
    assert got[("ibmmq.queue.depth", (("qmgr", "QM1"), ("queue", "APP.Q"),
                                       ("usage", "NORMAL")))] == 5
    assert got[("mqroute.events", (("qmgr", "QM1"), ("reason", "MQRC_Q_FULL")))] == 2
    count, total, buckets = got[("mqroute.route_hop", (("channel", "QM1.TO.QM2"),
                                                       ("qmgr", "QM1")))]
    assert (count, total) == (4, 506.2) and sum(buckets) == 4
    # the Prometheus text says the same
    text = exposition(snap).decode()
    prom = {(s.name, tuple(sorted((k, v) for k, v in s.labels.items() if v))): s.value
            for f in text_string_to_metric_families(text) for s in f.samples}
    for fam in FAMILIES:
        if fam.kind not in (GAUGE, COUNTER):
            continue
        for (name, attrs), value in got.items():
            if name == fam.otel_name:
                assert prom[(fam.name, attrs)] == value
    assert prom[("mqroute_route_hop_seconds_count",
                 (("channel", "QM1.TO.QM2"), ("qmgr", "QM1")))] == count
    scope = request.resource_metrics[0].scope_metrics[0].scope
    assert (scope.name, scope.version) == ("mqroute.metrics", "0.1.0")


class _Collector(http.server.BaseHTTPRequestHandler):
    bodies: ClassVar[list[tuple[str, bytes]]] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).bodies.append((self.path, body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_the_official_exporter_posts_the_same_numbers():
    pytest.importorskip("opentelemetry.exporter.otlp.proto.http.metric_exporter")
    server = http.server.HTTPServer(("127.0.0.1", 0), _Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/v1/metrics"
        assert send(url, snapshot(), start_ns=1, now_ns=2) == 4
    finally:
        server.shutdown()
        server.server_close()
    (path, body), = _Collector.bodies
    assert path == "/v1/metrics"
    got = points(metrics_service.ExportMetricsServiceRequest.FromString(body))
    want = points(ParseDict(otlp_json(snapshot(), start_ns=1, now_ns=2),
                            metrics_service.ExportMetricsServiceRequest()))
    assert got == want


def test_a_refused_export_is_an_error():
    class Refusing:
        def export(self, data, timeout_millis=None):
            from opentelemetry.sdk.metrics.export import MetricExportResult

            return MetricExportResult.FAILURE

        def shutdown(self):
            pass

    with pytest.raises(OSError, match="export failed"):
        send("http://127.0.0.1:9/v1/metrics", snapshot(), start_ns=1, now_ns=2,
             exporter=Refusing())
