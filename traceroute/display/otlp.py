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

`journey_spans` does it for the journeys of real messages (`traceroute.journeys`, from
activity trace): a span per MQI call on the path. `row_spans` does it from the rows of
`mqroute analyze`'s routes and hops tables (a span per hop row, from its time to the next
hop's). The JSON is OTLP/JSON as the
OpenTelemetry protocol specifies it (trace and span ids as hex, 64-bit integers as
strings, enums as integers); a file of several documents has one per line, as the
OpenTelemetry Collector's file exporter writes and its otlpjsonfile receiver reads.
Pure: builds dicts and strings.
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
    return document(span for route in routes for span in route_spans(route))


def _row_nanos(text: str | None) -> int | None:
    if not text:
        return None
    date, _, time = text.partition(" ")
    return operation_nanos(Operation(type=0, date=date, time=time))


def row_spans(route: dict, hops: Iterable[dict]) -> list[tuple[str, dict]]:
    """(queue manager, span) per hop of one route as `mqroute analyze` tabulates it.

    `route` is a row of its routes table (correl_id, verdict, ...), `hops` the route's rows
    of the hops table (seq, kind, src, dst, src_queue_manager, dst_queue_manager, channel,
    queue, time, feedback, branch). Each hop but a gap is a span from its time to the next
    hop's (the edge latency of graph.network), chained by seq within its branch; a branch's
    first hop hangs from the trunk's last earlier hop. The last trunk hop has the verdict.
    """
    correl = bytes.fromhex(route["correl_id"])
    tid = trace_id(correl)
    rows = sorted(hops, key=lambda h: (h["branch"] or 0, h["seq"]))
    verdict = route.get("verdict")
    ok = verdict in {v.value for v in OK_VERDICTS}
    trunk = [h for h in rows if not h["branch"] and h["kind"] != "gap"]
    out: list[tuple[str, dict]] = []
    last_of: dict[int, tuple[str, int | None]] = {}  # branch -> (span id, end)
    trunk_ids: list[tuple[int, str]] = []
    for n, h in enumerate(rows):
        branch = h["branch"] or 0
        nxt = rows[n + 1] if n + 1 < len(rows) and (rows[n + 1]["branch"] or 0) == branch \
            else None
        if h["kind"] == "gap":
            continue
        start = _row_nanos(h["time"])
        end = _row_nanos(nxt["time"]) if nxt is not None and nxt["kind"] != "gap" else None
        prev = last_of.get(branch)
        if prev is None and branch:
            earlier = [sid for seq, sid in trunk_ids if seq < h["seq"]]
            parent = earlier[-1] if earlier else None
        else:
            parent = prev[0] if prev else None
        if start is None:
            start = prev[1] if prev and prev[1] is not None else 0
        end = start if end is None or end < start else end
        sid = span_id(correl, f"/{branch}/{h['seq']}")
        qmgr = h["src_queue_manager"] or h["src"] or UNKNOWN_QMGR
        attrs = {"messaging.system": "ibm_mq", "messaging.operation.name": h["kind"],
                 "messaging.destination.name": h["queue"],
                 "messaging.message.conversation_id": route["correl_id"],
                 "mq.queue_manager": qmgr, "mq.queue": h["queue"], "mq.channel": h["channel"],
                 "mq.remote_queue_manager": h["dst_queue_manager"]
                 if h["kind"] == "send" else None,
                 "mq.feedback": h["feedback"], "mq.hop": h["seq"], "mq.branch": branch,
                 "mq.route.verdict": verdict, "mq.route.complete": route.get("complete")}
        last = bool(trunk) and h is trunk[-1]
        status = {"code": STATUS_UNSET}
        if last:
            status = {"code": STATUS_OK} if ok else {
                "code": STATUS_ERROR, "message": f"{verdict}: {_verdict_text(verdict)}"}
        span = {"traceId": tid, "spanId": sid,
                "name": f"{h['kind']} {h['channel'] or h['queue'] or h['dst']}",
                "kind": SPAN_KIND_INTERNAL, "startTimeUnixNano": str(start),
                "endTimeUnixNano": str(end), "attributes": attributes(attrs), "events": [],
                "status": status}
        if parent is not None:
            span["parentSpanId"] = parent
        out.append((qmgr, span))
        last_of[branch] = (sid, end)
        if not branch:
            trunk_ids.append((h["seq"], sid))
    return out


def _verdict_text(verdict: str | None) -> str:
    try:
        return Verdict(verdict).text
    except ValueError:
        return str(verdict)


def document(spans: Iterable[tuple[str, dict]]) -> dict:
    """An OTLP ExportTraceServiceRequest of (queue manager, span) pairs: a resource per
    queue manager (service.name), mqroute as the instrumentation scope."""
    by_qmgr: dict[str, list[dict]] = {}
    for qmgr, span in spans:
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


# --- journeys (activity trace: real messages) ----------------------------------------------

#: Journey verdicts that are a normal end (the others make the last span an ERROR).
OK_JOURNEYS = ("consumed", "on_queue")


def journey_spans(journey: Any, *, _root: bytes | None = None, _parent: str | None = None,
                  _path: str = "") -> list[tuple[str, dict]]:
    """(queue manager, span) per step of a `traceroute.journeys` Journey: one trace per
    original MsgId, one span per MQI call on the message's path (the application's put, the
    sending MCA's get, the receiving MCA's put, the consumer's get ...), chained in path
    order, from the call's time to the next call's; the last step has the verdict. A
    publication's copies (its branches) are in the same trace, each chained from the last
    span of the journey it branched from."""
    root = journey.msg_id if _root is None else _root
    tid = trace_id(root)
    out: list[tuple[str, dict]] = []
    parent: str | None = _parent
    verdict = str(journey.verdict)
    times = [_nanos(s.call.time) for s in journey.steps]
    clock = 0
    for n, step in enumerate(journey.steps):
        call = step.call
        start = times[n] if times[n] is not None else clock
        later = next((t for t in times[n + 1:n + 2] if t is not None), None)
        end = later if later is not None and later >= start else start
        sid = span_id(root, f"/j{_path}/{n}")
        conn = call.conn
        attrs = {"messaging.system": "ibm_mq", "messaging.operation.name": call.op_name,
                 "messaging.destination.name": step.queue,
                 "messaging.message.id": journey.msg_id.hex(),
                 "mq.queue_manager": call.qmgr or None, "mq.queue": step.queue,
                 "mq.object_name": call.object_name or None, "mq.channel": step.channel,
                 "mq.application.name": conn.appl_name or None, "mq.role": step.role,
                 "mq.mca": conn.is_mca, "mq.comp_code": call.comp_code,
                 "mq.reason": call.reason or None, "mq.hop": n + 1,
                 "mq.journey.verdict": verdict}
        status = {"code": STATUS_UNSET}
        if n == len(journey.steps) - 1 and not journey.branches:
            status = {"code": STATUS_OK} if verdict in OK_JOURNEYS else {
                "code": STATUS_ERROR, "message": f"{verdict}: last seen at "
                f"{journey.last_location.queue_manager or '?'} "
                f"{journey.last_location.queue or journey.last_location.channel or ''}".strip()}
        span = {"traceId": tid, "spanId": sid,
                "name": f"{call.op_name} {step.queue or step.channel or ''}".strip(),
                "kind": SPAN_KIND_INTERNAL, "startTimeUnixNano": str(start),
                "endTimeUnixNano": str(end), "attributes": attributes(attrs), "events": [],
                "status": status}
        if parent is not None:
            span["parentSpanId"] = parent
        out.append((call.qmgr or UNKNOWN_QMGR, span))
        parent, clock = sid, end
    for b, branch in enumerate(getattr(journey, "branches", ()), start=1):
        out += journey_spans(branch, _root=root, _parent=parent, _path=f"{_path}.{b}")
    return out


def _nanos(when: dt.datetime | None) -> int | None:
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return int(when.timestamp() * 1_000_000) * 1000


def journeys_to_otlp(journeys: Iterable[Any]) -> dict:
    """An OTLP ExportTraceServiceRequest of these journeys' traces."""
    return document(span for j in journeys for span in journey_spans(j))
