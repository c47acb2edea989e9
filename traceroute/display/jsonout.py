"""Routes as JSON documents (a superset of what IBM's dspmqrtj prints).

Where dspmqrtj (IBM's mq-metric-samples) has a name for a value, the document uses it too:
the route's `summary` (`parameters`, `success` or `failure`, `totalTimeMilliSec`,
`channelCount`, `finalQueueManager`) and each operation's `epochMilliSec`. The rest keeps
mqroute's own names (snake_case), covering everything dspmqrte displays.
"""

from __future__ import annotations

from dataclasses import asdict

from pcf import mqc
from pcf.render import parameter_to_dict
from traceroute.display.otlp import operation_nanos
from traceroute.records.model import Activity, Extra, Operation, channel_type_name, feedback_name
from traceroute.routes.ordering import Gap, Route, Step
from traceroute.routes.verdict import Verdict


def _extra(extras: tuple[Extra, ...]) -> dict:
    """Unknown parameters by name; a name that repeats maps to the list of all of them."""
    out: dict = {}
    repeated: set[str] = set()
    for e in extras:
        value = parameter_to_dict(e.parameter)
        if e.name not in out:
            out[e.name] = value
        elif e.name in repeated:
            out[e.name].append(value)
        else:
            out[e.name] = [out[e.name], value]
            repeated.add(e.name)
    return out


def epoch_millis(op: Operation) -> int | None:
    """The operation's OperationDate/OperationTime as Unix milliseconds (read as UTC; MQ
    records whole seconds), or None when not recorded."""
    nanos = operation_nanos(op)
    return None if nanos is None else nanos // 1_000_000


#: dspmqrtj's summary sentences.
SUCCESS = "Message successfully reached a destination"
FAILURE = "Message not reported at a final destination"


def route_summary(route: Route, parameters: str | None = None) -> dict:
    """dspmqrtj's `summary` of a route: the options typed (trace), `success` (delivered, or
    discarded at its target as a trace-route message asks) or `failure` (the verdict),
    the time from the first to the last recorded operation in milliseconds, the channels
    crossed (Send operations) and the queue manager where the message was last seen."""
    ops = [op for s in route.steps if not isinstance(s, Gap) for op in s.operations]
    times = [t for t in (epoch_millis(op) for op in ops) if t is not None]
    out: dict = {"parameters": parameters}
    if route.verdict in (Verdict.DELIVERED, Verdict.DISCARDED_AT_TARGET):
        out["success"] = SUCCESS
    else:
        out["failure"] = f"{FAILURE}: {route.verdict.text}"
    out["totalTimeMilliSec"] = max(times) - min(times) if times else None
    out["channelCount"] = sum(op.type == mqc.MQOPER_SEND for op in ops)
    out["finalQueueManager"] = route.location.queue_manager
    return out


def operation_to_dict(op: Operation) -> dict:
    """One operation: its type by name and every field MQ recorded (absent ones null)."""
    return {
        "operation": op.name, "operation_type": op.type, "date": op.date, "time": op.time,
        "epochMilliSec": epoch_millis(op),
        "queue_manager": op.qmgr, "qsg": op.qsg, "queue": op.queue,
        "resolved_queue": op.resolved_queue, "remote_queue": op.remote_queue,
        "remote_queue_manager": op.remote_qmgr, "topic": op.topic, "channel": op.channel,
        "channel_type": channel_type_name(op.channel_type)
        if op.channel_type is not None else None,
        "xmit_queue": op.xmit_queue,
        "feedback": feedback_name(op.feedback) if op.feedback is not None else None,
        "feedback_code": op.feedback,
        "sub_id": op.sub_id.hex() if op.sub_id is not None else None,
        "sub_level": op.sub_level, "msg_length": op.msg_length,
        "msg_id": op.md.msg_id.hex() if op.md else None,
        "correl_id": op.md.correl_id.hex() if op.md else None,
        "embedded_msg_id": op.embedded_md.msg_id.hex() if op.embedded_md else None,
        "extra": _extra(op.extra),
    }


def step_to_dict(step: Step) -> dict:
    """An activity, or a gap as {"unavailable": true, "missing": N}."""
    if isinstance(step, Gap):
        return {"unavailable": True, "missing": step.missing, "unrecorded": step.unrecorded,
                "discontinuities": step.discontinuities}
    a: Activity = step
    tr = a.trace_route
    return {
        "appl_name": a.appl_name, "appl_type": a.appl_type, "description": a.description,
        "queue_manager": a.qmgr,
        "operations": [operation_to_dict(op) for op in a.operations],
        "trace_route": {k: v for k, v in asdict(tr).items() if k != "extra"} if tr else None,
        "extra": _extra(a.extra),
    }


def route_to_dict(route: Route, *, parameters: str | None = None) -> dict:
    """One route: correl_id, dspmqrtj's summary, verdict, last known location, activities and
    gaps, branches (`parameters`: the options typed, for the summary); a publication's
    branch says by `via` the Publish or Discarded Publish operation it began with (its
    correl_id is that copy's MsgId)."""
    loc = route.location
    return {
        "correl_id": route.correl_id.hex(),
        "summary": route_summary(route, parameters),
        "verdict": route.verdict.value,
        "verdict_text": route.verdict.text,
        "complete": route.complete,
        "feedback": feedback_name(route.outcome.feedback)
        if route.outcome.feedback is not None else None,
        "last_known_location": {"queue_manager": loc.queue_manager, "queue": loc.queue,
                                "channel": loc.channel,
                                "remote_queue_manager": loc.remote_queue_manager},
        "activities": [step_to_dict(s) for s in route.steps],
        "branches": [route_to_dict(b) for b in route.branches],
        "via": operation_to_dict(route.via) if route.via is not None else None,
        "notes": list(route.notes),
        "records": route.records,
    }
