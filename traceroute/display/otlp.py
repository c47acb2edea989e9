"""Routes as OpenTelemetry traces: OTLP/JSON documents for Jaeger, Grafana Tempo and the like.

One trace per original message (trace id from its MsgId), one span per hop: each activity
a queue manager recorded (an MCA's send or receive, an application's put or get) is a
span, its operations are span events, and the spans are chained in route order (each
hop's parent is the hop before it; a branch hangs from the hop it forks after). Spans are
grouped by queue manager, which is the resource's `service.name`, so a trace view shows
the message passing from queue manager to queue manager.

    attributes   messaging.system = ibm_mq, messaging.operation.name (the activity's first
                 operation), messaging.destination.name (queue), messaging.message.id,
                 messaging.message.conversation_id (the original MsgId = CorrelId),
                 mq.queue_manager, mq.queue, mq.resolved_queue, mq.remote_queue_manager,
                 mq.channel, mq.channel_type, mq.xmit_queue, mq.application.name,
                 mq.application.type, mq.operations, mq.hop (1, 2, ... along the trunk
                 or branch), mq.branch ('' for the trunk, '/b0', '/b0/b1' ... for
                 branches), mq.route.verdict, mq.route.complete, mq.gap.missing (a gap
                 came before this hop; -1: how many is not known)
    times        MQ's OperationDate/OperationTime (whole seconds, read as UTC: MQ records the
                 queue manager's clock); a hop without times takes the previous hop's end
    status       the last hop (of the trunk and of each branch) carries the verdict: OK for
                 delivered or discarded at its target, ERROR with the verdict's text for
                 the others; the earlier hops are UNSET

The JSON is OTLP/JSON as the OpenTelemetry protocol specifies it (trace and span ids as
hex, 64-bit integers as strings, enums as integers). Pure: builds dicts and strings.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable
from typing import Any

from traceroute.records.model import Activity, Operation, channel_type_name
from traceroute.routes.ordering import Gap, Route
from traceroute.routes.verdict import Verdict

SCOPE = "mqroute"
SCOPE_VERSION = "0.1.0"
#: OTLP enums (opentelemetry/proto/trace/v1/trace.proto)
SPAN_KIND_INTERNAL = 1
STATUS_UNSET, STATUS_OK, STATUS_ERROR = 0, 1, 2
OK_VERDICTS = (Verdict.DELIVERED, Verdict.DISCARDED_AT_TARGET)
UNKNOWN_QMGR = "unknown"


def trace_id(correl_id: bytes) -> str:
    """The 16-byte trace id of a message (hex): a digest of its MsgId, never all zero."""
    digest = hashlib.sha256(b"mqroute-trace\0" + correl_id).digest()[:16]
    return (digest if any(digest) else b"\x01" + digest[1:]).hex()


def span_id(correl_id: bytes, path: str) -> str:
    """The 8-byte span id (hex) of the hop at `path` (branch indexes and hop number)."""
    digest = hashlib.sha256(b"mqroute-span\0" + correl_id + path.encode()).digest()[:8]
    return (digest if any(digest) else b"\x01" + digest[1:]).hex()


def operation_nanos(op: Operation) -> int | None:
    """Unix nanoseconds of an operation's date and time (as UTC), or None if not recorded."""
    if not op.date or not op.time:
        return None
    text = f"{op.date} {op.time.replace('.', ':')}"[:19]
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y%m%d %H:%M:%S"):
        try:
            when = dt.datetime.strptime(text, fmt).replace(tzinfo=dt.UTC)
        except ValueError:
            continue
        return int(when.timestamp()) * 1_000_000_000
    return None


def _value(value: Any) -> dict:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, (list, tuple)):
        return {"arrayValue": {"values": [_value(v) for v in value]}}
    return {"stringValue": str(value)}


def attributes(pairs: dict[str, Any]) -> list[dict]:
    """OTLP KeyValue list of the pairs whose value is not None or empty."""
    return [{"key": k, "value": _value(v)} for k, v in pairs.items()
            if v is not None and v != "" and v != ()]


def _first(ops: tuple[Operation, ...], name: str) -> Any:
    return next((getattr(op, name) for op in ops if getattr(op, name)), None)


def _hop_attributes(activity: Activity, hop: int, route: Route) -> dict[str, Any]:
    ops = activity.operations
    first = ops[0] if ops else None
    channel_type = _first(ops, "channel_type")
    msg_id = next((op.md.msg_id.hex() for op in ops if op.md is not None), None)
    queue = _first(ops, "queue")
    return {
        "messaging.system": "ibm_mq",
        "messaging.operation.name": first.name if first else None,
        "messaging.destination.name": queue,
        "messaging.message.id": msg_id,
        "messaging.message.conversation_id": route.correl_id.hex(),
        "mq.queue_manager": activity.qmgr or None,
        "mq.queue": queue,
        "mq.resolved_queue": _first(ops, "resolved_queue"),
        "mq.remote_queue": _first(ops, "remote_queue"),
        "mq.remote_queue_manager": _first(ops, "remote_qmgr"),
        "mq.channel": _first(ops, "channel"),
        "mq.channel_type": channel_type_name(channel_type) if channel_type else None,
        "mq.xmit_queue": _first(ops, "xmit_queue"),
        "mq.application.name": activity.appl_name or None,
        "mq.application.type": activity.appl_type,
        "mq.operations": [op.name for op in ops],
        "mq.hop": hop,
        "mq.route.verdict": route.verdict.value,
        "mq.route.complete": route.complete,
    }


def _status(route: Route) -> dict:
    if route.verdict in OK_VERDICTS:
        return {"code": STATUS_OK}
    return {"code": STATUS_ERROR, "message": f"{route.verdict.value}: {route.verdict.text}"}


def route_spans(route: Route, *, parent: str | None = None, path: str = "",
                after: int | None = None) -> list[tuple[str, dict]]:
    """(queue manager, OTLP span) for every hop of a route and its branches, in order."""
    tid = trace_id(route.correl_id)
    out: list[tuple[str, dict]] = []
    clock = after
    gap: Gap | None = None
    activities = [s for s in route.steps if not isinstance(s, Gap)]
    hop = 0
    for step in route.steps:
        if isinstance(step, Gap):
            gap = step
            continue
        hop += 1
        times = [t for t in (operation_nanos(op) for op in step.operations) if t is not None]
        start = min(times) if times else clock
        end = max(times) if times else start
        start = 0 if start is None else start
        end = start if end is None else end
        sid = span_id(route.correl_id, f"{path}/{hop}")
        attrs = _hop_attributes(step, hop, route)
        attrs["mq.branch"] = path
        if gap is not None:
            attrs["mq.gap.missing"] = gap.missing if gap.missing is not None else -1
            gap = None
        events = [{"timeUnixNano": str(operation_nanos(op) or start), "name": op.name,
                   "attributes": attributes({"mq.queue": op.queue, "mq.channel": op.channel,
                                             "mq.queue_manager": op.qmgr or None,
                                             "mq.remote_queue_manager": op.remote_qmgr,
                                             "mq.feedback": op.feedback})}
                  for op in step.operations]
        span = {
            "traceId": tid, "spanId": sid, "name": _span_name(step),
            "kind": SPAN_KIND_INTERNAL,
            "startTimeUnixNano": str(start), "endTimeUnixNano": str(end),
            "attributes": attributes(attrs), "events": events,
            "status": _status(route) if step is activities[-1] else {"code": STATUS_UNSET},
        }
        if parent is not None:
            span["parentSpanId"] = parent
        out.append((step.qmgr or UNKNOWN_QMGR, span))
        parent, clock = sid, end
    for n, branch in enumerate(route.branches):
        out += route_spans(branch, parent=parent, path=f"{path}/b{n}", after=clock)
    return out


def _span_name(activity: Activity) -> str:
    ops = " ".join(dict.fromkeys(op.name for op in activity.operations)) or "activity"
    where = _first(activity.operations, "channel") or _first(activity.operations, "queue")
    return f"{ops} {where}" if where else ops


def routes_to_otlp(routes: Iterable[Route]) -> dict:
    """An OTLP ExportTraceServiceRequest (as JSON-ready dict) of these routes' traces."""
    by_qmgr: dict[str, list[dict]] = {}
    for route in routes:
        for qmgr, span in route_spans(route):
            by_qmgr.setdefault(qmgr, []).append(span)
    return {"resourceSpans": [
        {"resource": {"attributes": attributes({"service.name": qmgr,
                                                "messaging.system": "ibm_mq",
                                                "mq.queue_manager": qmgr})},
         "scopeSpans": [{"scope": {"name": SCOPE, "version": SCOPE_VERSION},
                         "spans": spans}]}
        for qmgr, spans in sorted(by_qmgr.items())]}


def otlp_json(routes: Iterable[Route], *, indent: int | None = None) -> str:
    """The OTLP/JSON text of these routes (one ExportTraceServiceRequest)."""
    return json.dumps(routes_to_otlp(routes), indent=indent)
