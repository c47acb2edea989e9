"""Routes as dspmqrte shows them (-v summary / outline [options] / all / none), and as JSON."""

from __future__ import annotations

from collections.abc import Iterable

from pcf import mqc
from pcf.model import Group, Parameter
from pcf.mqmd import MQMD
from pcf.names import describe_value
from pcf.render import value_text
from pcf.text import printable
from traceroute.records.descriptor import FIELDS
from traceroute.records.model import Activity, Extra, Operation, channel_type_name, feedback_name
from traceroute.routes.ordering import Gap, Route, Step
from traceroute.routes.verdict import Location, Verdict

SEPARATOR = "-----"
UNAVAILABLE = "Activity information unavailable."
OUTLINE_OPTIONS = frozenset({"activity", "identifiers", "message", "msgdelta", "operation",
                             "traceroute"})

#: MQMD field -> the name dspmqrte (and the MQ documentation) gives it.
MD_NAMES = {
    "struc_id": "StrucId", "version": "Version", "report": "Report", "msg_type": "MsgType",
    "expiry": "Expiry", "feedback": "Feedback", "encoding": "Encoding",
    "coded_char_set_id": "CodedCharSetId", "format": "Format", "priority": "Priority",
    "persistence": "Persistence", "msg_id": "MsgId", "correl_id": "CorrelId",
    "backout_count": "BackoutCount", "reply_to_q": "ReplyToQ", "reply_to_q_mgr": "ReplyToQMgr",
    "user_identifier": "UserIdentifier", "accounting_token": "AccountingToken",
    "appl_identity_data": "ApplIdentityData", "put_appl_type": "PutApplType",
    "put_appl_name": "PutApplName", "put_date": "PutDate", "put_time": "PutTime",
    "appl_origin_data": "ApplOriginData", "group_id": "GroupId",
    "msg_seq_number": "MsgSeqNumber", "offset": "Offset", "msg_flags": "MsgFlags",
    "original_length": "OriginalLength",
}

TRACE_ROUTE_NAMES = (
    ("detail", "Detail", mqc.MQIACF_ROUTE_DETAIL),
    ("recorded_activities", "RecordedActivities", mqc.MQIACF_RECORDED_ACTIVITIES),
    ("unrecorded_activities", "UnrecordedActivities", mqc.MQIACF_UNRECORDED_ACTIVITIES),
    ("discontinuity_count", "DiscontinuityCount", mqc.MQIACF_DISCONTINUITY_COUNT),
    ("max_activities", "MaxActivities", mqc.MQIACF_MAX_ACTIVITIES),
    ("accumulate", "Accumulate", mqc.MQIACF_ROUTE_ACCUMULATION),
    ("forward", "Forward", mqc.MQIACF_ROUTE_FORWARDING),
    ("deliver", "Deliver", mqc.MQIACF_ROUTE_DELIVERY),
)


def _q(value: str) -> str:
    return f"'{value}'"


def _x(value: bytes) -> str:
    return f"X'{value.hex().upper()}'"


def _md_value(name: str, value: object) -> str:
    if isinstance(value, bytes):
        return _x(value)
    if isinstance(value, str):
        return _q(value)
    pid = next((f[1] for f in FIELDS if f[0] == name), None)
    symbol = describe_value(pid, value) if pid is not None and isinstance(value, int) else None
    return f"{symbol} ({value})" if symbol and name != "msg_type" else (symbol or str(value))


def operation_fields(op: Operation) -> list[tuple[str, str]]:
    """The operation-specific parameters in dspmqrte's order, rendered."""
    out = [("QMgrName", _q(op.qmgr))]
    for label, value in (("QSGName", op.qsg), ("QName", op.queue),
                         ("ResolvedQName", op.resolved_queue), ("RemoteQName", op.remote_queue),
                         ("RemoteQMgrName", op.remote_qmgr), ("TopicString", op.topic),
                         ("ChannelName", op.channel)):
        if value is not None:
            out.append((label, _q(value)))
    if op.channel_type is not None:
        out.append(("ChannelType", channel_type_name(op.channel_type)))
    if op.xmit_queue is not None:
        out.append(("XmitQName", _q(op.xmit_queue)))
    if op.sub_id is not None:
        out.append(("SubId", _x(op.sub_id)))
    if op.sub_level is not None:
        out.append(("SubLevel", str(op.sub_level)))
    if op.feedback is not None:
        out.append(("Feedback", feedback_name(op.feedback)))
    return out


def _extra_line(extra: Extra) -> str:
    p: Parameter = extra.parameter
    if isinstance(p, Group):
        return f"{extra.name}: ({len(p.parameters)} parameters)"
    return f"{extra.name}: {value_text(p)}"


def _md_lines(md: MQMD, fields: Iterable[str]) -> list[str]:
    return [f"{MD_NAMES[f]}: {_md_value(f, getattr(md, f))}" for f in fields]


class _Outline:
    """Renders activities as dspmqrte's outline, with its display options."""

    def __init__(self, options: frozenset[str]) -> None:
        self.o = options
        self.previous_md: MQMD | None = None

    def message(self, op: Operation) -> list[str]:
        names = list(MD_NAMES)[1:]  # StrucId is not shown
        if "identifiers" in self.o:
            fields = ["msg_id", "correl_id"]
        elif "message" in self.o:
            fields = names
        elif "msgdelta" in self.o:
            prev = self.previous_md
            fields = [f for f in names if prev is None or op.md is None
                      or getattr(prev, f) != getattr(op.md, f)]
        else:
            return []
        lines = ["Message:"]
        if "message" in self.o and op.msg_length is not None:
            lines.append(f"  MsgLength: {op.msg_length}")
        for title, md in (("MQMD", op.md), ("EmbeddedMQMD", op.embedded_md)):
            if md is not None:
                body = _md_lines(md, fields)
                if body:
                    lines += [f"  {title}:"] + [f"    {b}" for b in body]
        self.previous_md = op.md or self.previous_md
        return lines if len(lines) > 1 else []

    def operation(self, op: Operation) -> list[str]:
        lines = ["Operation:", f"  OperationType: {op.name}"]
        if "operation" in self.o:
            lines += [f"  OperationDate: {_q(op.date)}", f"  OperationTime: {_q(op.time)}"]
        lines += [f"  {m}" for m in self.message(op)]
        lines += [f"  {k}: {v}" for k, v in operation_fields(op)]
        lines += [f"  {_extra_line(e)}" for e in op.extra]
        return lines

    def activity(self, a: Activity) -> list[str]:
        lines = ["Activity:", f"  ApplName: {_q(a.appl_name)}"]
        if "activity" in self.o:
            if a.appl_type is not None:
                lines.append(f"  ApplType: {describe_value(mqc.MQIA_APPL_TYPE, a.appl_type)}")
            lines.append(f"  ActivityDesc: {_q(a.description)}")
        lines += [f"  {_extra_line(e)}" for e in a.extra]
        for op in a.operations:
            lines.append("")
            lines += [f"  {line}" for line in self.operation(op)]
        if "traceroute" in self.o and a.trace_route is not None:
            lines += ["", "  TraceRoute:"]
            for attr, label, pid in TRACE_ROUTE_NAMES:
                value = getattr(a.trace_route, attr)
                if value is not None:
                    symbol = describe_value(pid, value)
                    lines.append(f"    {label}: {symbol or value}")
        return lines


def _steps(steps: Iterable[Step], outline: _Outline) -> list[str]:
    lines: list[str] = []
    for step in steps:
        lines.append(SEPARATOR)
        if isinstance(step, Gap):
            lines += ["Activity:", f"  {UNAVAILABLE}"]
        else:
            lines += outline.activity(step)
    return lines


def summary_lines(route: Route) -> list[str]:
    """AMQ8666 lines: each queue the message was put to (a NotDelivered discard counts),
    and each subscriber's queue a publication's copy reached (when its subscription's
    destination is known); a put to a topic is no queue."""
    lines = []
    stack = [route]
    while stack:
        r = stack.pop()
        stack.extend(reversed(r.branches))
        if r.via is not None and not r.steps and r.location.queue and r.verdict in (
                Verdict.DELIVERED, Verdict.DISCARDED_AT_TARGET):
            lines.append(f"AMQ8666: Queue '{r.location.queue}' on queue manager "
                         f"'{r.location.queue_manager}'.")
        for step in r.steps:
            if isinstance(step, Gap):
                continue
            for op in step.operations:
                if (op.is_put and op.topic is None) or (
                        op.type == mqc.MQOPER_DISCARD and op.feedback == mqc.MQFB_NOT_DELIVERED
                        and op.queue):
                    queue = op.resolved_queue or op.queue or ""
                    lines.append(f"AMQ8666: Queue '{queue}' on queue manager '{op.qmgr}'.")
    return lines


def render_route(route: Route, verbosity: str = "summary",
                 options: Iterable[str] = ()) -> list[str]:
    """A route's display lines as dspmqrte prints them between its AMQ8674 and AMQ8652."""
    if verbosity == "none":
        return []
    if verbosity == "summary":
        return [printable(line) for line in summary_lines(route)]
    opts = frozenset(options)
    if verbosity == "all":
        opts = frozenset({"activity", "message", "operation", "traceroute"})
    unknown = opts - OUTLINE_OPTIONS
    if unknown:
        raise ValueError(f"unknown display options: {', '.join(sorted(unknown))}")
    lines = [printable(line) for line in _branch_lines(route, _Outline(opts))]
    return [*lines, SEPARATOR] if lines else lines


def _branch_lines(route: Route, outline: _Outline) -> list[str]:
    lines = _steps(route.steps, outline)
    for n, branch in enumerate(route.branches, start=1):
        lines += [SEPARATOR, f"Branch {n} of {len(route.branches)}:{_publication(branch)}"]
        lines += _branch_lines(branch, outline)
    return lines


def _publication(branch: Route) -> str:
    """' Publish to SubId X'...' on QM1' for a publication's branch ('' for others)."""
    op = branch.via
    if op is None:
        return ""
    sub = f" SubId X'{op.sub_id.hex().upper()}'" if op.sub_id else ""
    return f" {op.name} to{sub} on '{op.qmgr}'"


def branch_results(route: Route) -> list[str]:
    """One line per end of a fan-out (nothing for a route without branches): its number
    ('2.1' is the first branch of the second), how it began (a publication's subscription),
    its verdict and last known location."""
    lines: list[str] = []
    stack = [(b, str(n)) for n, b in reversed(list(enumerate(route.branches, start=1)))]
    while stack:
        branch, number = stack.pop()
        if branch.branches:
            stack.extend((b, f"{number}.{n}")
                         for n, b in reversed(list(enumerate(branch.branches, start=1))))
            continue
        lines.append(printable(f"Branch {number}:{_publication(branch)}: "
                               f"{branch.outcome.text}; last known location: "
                               f"{describe_location(branch.location)}"))
    return lines


def describe_location(loc: Location) -> str:
    """'queue manager 'QM1', queue 'QM2' (next: QM2)' for people (one line: control
    characters in names shown as `\\uXXXX`)."""
    parts = []
    if loc.queue_manager:
        parts.append(f"queue manager '{loc.queue_manager}'")
    if loc.queue:
        parts.append(f"queue '{loc.queue}'")
    if loc.channel:
        parts.append(f"channel '{loc.channel}'")
    if loc.remote_queue_manager:
        parts.append(f"bound for queue manager '{loc.remote_queue_manager}'")
    return printable(", ".join(parts)) or "unknown"


def route_heading(route: Route) -> str:
    """One line naming the message, its verdict and where it was last seen."""
    gaps = len(route.gaps)
    state = "complete" if route.complete else f"{gaps} gap(s)" if gaps else "partial"
    return printable(f"Route of message X'{route.correl_id.hex().upper()}': "
                     f"{route.outcome.text}; last known location: "
                     f"{describe_location(route.location)} "
                     f"[{len(route.activities)} activities, {state}]")
