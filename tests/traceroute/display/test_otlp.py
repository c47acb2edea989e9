"""Routes as OTLP/JSON: validated with the official OpenTelemetry protobuf definitions
(opentelemetry-proto), one trace per original message, one span per hop."""

from __future__ import annotations

import base64
import json

import pytest

from traceroute.display.otlp import (
    STATUS_ERROR,
    STATUS_OK,
    STATUS_UNSET,
    operation_nanos,
    otlp_json,
    trace_id,
)
from traceroute.records.model import Operation
from traceroute.records.parse import parse_message
from traceroute.routes import Gap, Verdict, build_routes
from traceroute.sim.corpus import corpus

trace_service = pytest.importorskip(
    "opentelemetry.proto.collector.trace.v1.trace_service_pb2",
    reason="opentelemetry-proto is in the test extra: pip install -e '.[test]'")
json_format = pytest.importorskip("google.protobuf.json_format")

IDS = ("traceId", "spanId", "parentSpanId")


def to_protobuf_json(node):
    """OTLP/JSON -> protobuf's canonical JSON: the one documented difference is that OTLP
    writes trace and span ids as hex where protobuf JSON has base64 for bytes."""
    if isinstance(node, dict):
        return {k: base64.b64encode(bytes.fromhex(v)).decode() if k in IDS else
                to_protobuf_json(v) for k, v in node.items()}
    if isinstance(node, list):
        return [to_protobuf_json(v) for v in node]
    return node


def parse_otlp(text: str):
    """The ExportTraceServiceRequest the official definitions read from OTLP/JSON text."""
    request = trace_service.ExportTraceServiceRequest()
    json_format.Parse(json.dumps(to_protobuf_json(json.loads(text))), request)
    return request


def _hops(route) -> list:
    """Every activity of a route and its branches (a hop each)."""
    return [s for s in route.steps if not isinstance(s, Gap)] + \
        [a for b in route.branches for a in _hops(b)]


def _attrs(span) -> dict:
    out = {}
    for kv in span.attributes:
        kind = kv.value.WhichOneof("value")
        value = getattr(kv.value, kind)
        out[kv.key] = [getattr(v, v.WhichOneof("value")) for v in value.values] \
            if kind == "array_value" else value
    return out


@pytest.fixture(scope="module")
def routes():
    items = corpus(2, seed=11, drop=0.05)
    return build_routes(parse_message(c.md, c.data) for c in items)


def test_every_route_is_a_valid_trace_with_one_span_per_hop(routes):
    request = parse_otlp(otlp_json(routes))
    spans = [(rs, s) for rs in request.resource_spans for ss in rs.scope_spans
             for s in ss.spans]
    by_trace: dict[bytes, list] = {}
    for _, span in spans:
        by_trace.setdefault(span.trace_id, []).append(span)
    assert len(by_trace) == len(routes)
    for route in routes:
        mine = sorted(by_trace[bytes.fromhex(trace_id(route.correl_id))],
                      key=lambda s: (_attrs(s).get("mq.branch", ""), _attrs(s)["mq.hop"]))
        hops = _hops(route)
        assert len(mine) == len(hops), route.verdict  # one span per hop
        assert len({s.span_id for s in mine}) == len(mine)
        ids = {s.span_id for s in mine}
        roots = [s for s in mine if not s.parent_span_id]
        assert len(roots) == 1 and all(s.parent_span_id in ids for s in mine if s not in roots)
        for span, hop in zip(mine, hops, strict=True):
            a = _attrs(span)
            assert a["messaging.system"] == "ibm_mq"
            assert a["messaging.message.conversation_id"] == route.correl_id.hex()
            assert a["mq.queue_manager"] == hop.qmgr
            assert a["mq.application.name"] == hop.appl_name
            assert a["mq.operations"] == [op.name for op in hop.operations]
            assert [e.name for e in span.events] == [op.name for op in hop.operations]
            assert a["mq.route.verdict"] == route.verdict.value
            assert span.start_time_unix_nano <= span.end_time_unix_nano
            times = [operation_nanos(op) for op in hop.operations]
            if None not in times:
                assert span.start_time_unix_nano == min(times)
                assert span.end_time_unix_nano == max(times)
            if hop.operations and hop.operations[0].channel:
                assert a["mq.channel"] == hop.operations[0].channel
        trunk = [s for s in route.steps if not isinstance(s, Gap)]
        last = mine[len(trunk) - 1]
        want = STATUS_OK if route.verdict in (Verdict.DELIVERED,
                                              Verdict.DISCARDED_AT_TARGET) else STATUS_ERROR
        assert last.status.code == want
        if want == STATUS_ERROR:
            assert last.status.message.startswith(route.verdict.value)
        assert all(s.status.code == STATUS_UNSET for s in mine[:len(trunk) - 1])
    # every verdict the corpus makes is there, and the resources are the queue managers
    assert {r.verdict.value for r in routes} >= {"delivered", "discarded_at_target",
                                                 "dead_lettered", "waiting_on_xmitq",
                                                 "max_activities", "not_forwarded"}
    for rs, span in spans:
        service = {kv.key: kv.value.string_value for kv in rs.resource.attributes}
        assert service["service.name"] == _attrs(span)["mq.queue_manager"]


def test_the_chain_follows_the_route(routes):
    route = next(r for r in routes if r.verdict == Verdict.DELIVERED and not r.branches)
    request = parse_otlp(otlp_json([route]))
    spans = {s.span_id: s for rs in request.resource_spans for ss in rs.scope_spans
             for s in ss.spans}
    order, parent = [], b""
    while True:  # walk the chain from the root: it is the route's order
        nxt = [s for s in spans.values() if s.parent_span_id == parent]
        if not nxt:
            break
        assert len(nxt) == 1
        order.append(nxt[0])
        parent = nxt[0].span_id
    assert [_attrs(s)["mq.hop"] for s in order] == list(range(1, len(_hops(route)) + 1))


def test_a_gap_is_marked_on_the_hop_after_it(routes):
    gapped = [r for r in routes if any(isinstance(s, Gap) for s in r.steps[1:-1])]
    if not gapped:
        pytest.skip("this corpus seed lost no report mid-route")
    request = parse_otlp(otlp_json(gapped))
    marked = [s for rs in request.resource_spans for ss in rs.scope_spans for s in ss.spans
              if "mq.gap.missing" in _attrs(s)]
    assert len(marked) >= len(gapped)


def test_times_and_ids():
    op = Operation(type=0, date="2026-11-23", time="16.05.09")
    assert operation_nanos(op) == 1_795_449_909 * 10**9
    assert operation_nanos(Operation(type=0)) is None
    assert len(bytes.fromhex(trace_id(b"\0" * 24))) == 16
    assert trace_id(b"A" * 24) != trace_id(b"B" * 24)
    assert json.loads(otlp_json([])) == {"resourceSpans": []}
    assert parse_otlp(otlp_json([])).resource_spans == []
