"""`--otlp FILE` and `--otlp-endpoint URL`: the file parses with the official OpenTelemetry
protobuf definitions; the endpoint receives the same spans from OpenTelemetry's own
OTLP/HTTP exporter (a local HTTP server stands in for a collector)."""

from __future__ import annotations

import http.server
import json
import threading
from typing import ClassVar

import pytest

from mqroute.main import main
from mqroute.otlp import readable_spans, send_otlp
from pcf import dmpmqmsg
from tests.traceroute.display.test_otlp import parse_otlp
from traceroute.display.otlp import routes_to_otlp
from traceroute.records.parse import parse_message
from traceroute.routes import build_routes
from traceroute.sim.corpus import simulate

trace_service = pytest.importorskip(
    "opentelemetry.proto.collector.trace.v1.trace_service_pb2",
    reason="opentelemetry-proto is in the test extra")


@pytest.fixture(scope="module")
def delivered():
    return list(simulate("delivered", 2, seed=4))


def test_show_writes_otlp(tmp_path, capsys, delivered):
    dump = tmp_path / "r.dmp"
    dump.write_text(dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in delivered]),
                    encoding="latin-1")
    out = tmp_path / "traces.json"
    assert main(["show", str(dump), "--otlp", str(out), "-v", "none"]) == 0
    request = parse_otlp(out.read_text())
    routes = build_routes(parse_message(c.md, c.data) for c in delivered)
    spans = [s for rs in request.resource_spans for ss in rs.scope_spans for s in ss.spans]
    assert len({s.trace_id for s in spans}) == len(routes) == 2
    assert len(spans) == sum(len(r.activities) for r in routes)


class _Collector(http.server.BaseHTTPRequestHandler):
    bodies: ClassVar[list[tuple[str, bytes, str]]] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        _Collector.bodies.append((self.path, body, self.headers["Content-Type"]))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.end_headers()
        self.wfile.write(b"")

    def log_message(self, *args):
        pass


def test_the_official_exporter_sends_the_same_spans(delivered):
    pytest.importorskip("opentelemetry.exporter.otlp.proto.http.trace_exporter",
                        reason="the otel extra is not installed")
    server = http.server.HTTPServer(("127.0.0.1", 0), _Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        routes = build_routes(parse_message(c.md, c.data) for c in delivered)
        document = routes_to_otlp(routes)
        url = f"http://127.0.0.1:{server.server_port}/v1/traces"
        assert send_otlp(url, document) == sum(len(r.activities) for r in routes)
    finally:
        server.shutdown()
    (path, body, kind), = _Collector.bodies
    assert path == "/v1/traces" and kind == "application/x-protobuf"
    got = trace_service.ExportTraceServiceRequest.FromString(body)
    want = parse_otlp(json.dumps(document))
    def spans(r):
        return sorted((s.trace_id, s.span_id, s.parent_span_id, s.name, s.start_time_unix_nano,
                       s.end_time_unix_nano, s.status.code, len(s.events), len(s.attributes))
                      for rs in r.resource_spans for ss in rs.scope_spans for s in ss.spans)
    assert spans(got) == spans(want)
    services = {kv.value.string_value for rs in got.resource_spans
                for kv in rs.resource.attributes if kv.key == "service.name"}
    assert services == {"QM1", "QM2"}


def test_a_failed_export_is_an_error(delivered):
    class Refusing:
        def export(self, spans):
            from opentelemetry.sdk.trace.export import SpanExportResult
            return SpanExportResult.FAILURE

        def shutdown(self):
            pass

    pytest.importorskip("opentelemetry.sdk")
    routes = build_routes(parse_message(c.md, c.data) for c in delivered)
    document = routes_to_otlp(routes)
    assert len(readable_spans(document)) == sum(len(r.activities) for r in routes)
    with pytest.raises(OSError, match="OTLP export failed"):
        send_otlp("http://x/v1/traces", document, exporter=Refusing())


def test_follow_writes_journeys_as_otlp(tmp_path, capsys):
    from pcf.dmpmqmsg import DumpedMessage, write_file
    from pcf.mqmd import unpack
    from tests.traceroute.journeys.scenarios import M, app_put, qm1_to_qm2

    stuck_id = b"AMQ QM1         \x11\x22\x33\x44\x00\x00\x00\x02"
    messages = [*qm1_to_qm2(), app_put("QM1", "TARG.AT.QM2", stuck_id, target_qmgr="QM2",
                                       xmitq="QM2", n=9, t=50)]
    dump = tmp_path / "trace.dmp"
    write_file(dump, [DumpedMessage(unpack(md), data) for md, data in messages])
    out = tmp_path / "journeys.json"
    status = main(["follow", str(dump), "--json", "--otlp", str(out)])
    journeys = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 4  # the second message waits on a transmission queue
    request = parse_otlp(out.read_text())
    spans = [s for rs in request.resource_spans for ss in rs.scope_spans for s in ss.spans]
    assert len(spans) == sum(len(j["path"]) for j in journeys) == 5  # one span per MQI call
    by_trace: dict[bytes, list] = {}
    for s in spans:
        by_trace.setdefault(s.trace_id, []).append(s)
    assert len(by_trace) == 2
    done = next(v for v in by_trace.values() if len(v) == 4)
    chain = sorted(done, key=lambda s: s.start_time_unix_nano)
    path = next(j["path"] for j in journeys if len(j["path"]) == 4)
    assert [s.name.split()[0] for s in chain] == [p["operation"] for p in path]
    assert [s.name.split()[0] for s in chain] == ["MQPUT", "MQGET", "MQPUT1", "MQGET"]
    assert chain[-1].status.code == 1 and all(s.status.code == 0 for s in chain[:-1])
    (stuck,) = next(v for v in by_trace.values() if len(v) == 1)
    assert stuck.status.code == 2 and stuck.status.message.startswith("on_xmitq")
    assert M.hex() in {kv.value.string_value for s in done for kv in s.attributes
                       if kv.key == "messaging.message.id"}
