"""amqsact-like text: activity-trace records as IBM's sample prints them, and journeys."""

from __future__ import annotations

from pcf import mqc
from pcf.names import name_of
from pcf.text import printable
from traceroute.journeys.calls import ActivityTrace, Connection, MQICall, iso
from traceroute.journeys.reconstruct import Journey

_ROLE = {"put": "put", "mca_get": "sent", "mca_put": "received", "dlq_put": "dead-lettered",
         "get": "got", "browse": "browsed", "failed_put": "put FAILED",
         "subscribed": "subscribed"}


def hex_dump(data: bytes) -> list[str]:
    """amqsact's dump: offset, 16 bytes in groups of two, and the printable characters."""
    out = []
    for at in range(0, len(data), 16):
        chunk = data[at:at + 16]
        words = " ".join(chunk[i:i + 2].hex().upper() for i in range(0, len(chunk), 2))
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        out.append(f"{at:08X}: {words:<39} '{text:<16}'")
    return out


def _named(value: int | None, family: str) -> str:
    if value is None:
        return ""
    return name_of(value, family) or str(value)


def render_connection(conn: Connection) -> list[str]:
    """The header of one trace message, labelled as amqsact labels it."""
    return _printable(_connection_lines(conn))


def _printable(lines: list[str]) -> list[str]:
    """Each line one line whatever the data held (`pcf.text.printable`)."""
    return [printable(line) for line in lines]


def _connection_lines(conn: Connection) -> list[str]:
    lines = ["MonitoringType: MQI Activity Trace"]
    if conn.conn_id:
        lines += ["Correl_id:", *hex_dump(conn.conn_id)]
    lines.append(f"QueueManager: '{conn.qmgr}'")
    if conn.host_name:
        lines.append(f"Host Name: '{conn.host_name}'")
    for label, value in (("IntervalStartDate", conn.start_date),
                         ("IntervalStartTime", conn.start_time),
                         ("IntervalEndDate", conn.end_date),
                         ("IntervalEndTime", conn.end_time)):
        if value:
            lines.append(f"{label}: '{value}'")
    if conn.command_level is not None:
        lines.append(f"CommandLevel: {conn.command_level}")
    lines += [f"SeqNumber: {conn.seq_number}", f"ApplicationName: '{conn.appl_name}'"]
    if conn.appl_type is not None:
        lines.append(f"Application Type: {_named(conn.appl_type, 'MQAT')}")
    if conn.pid is not None:
        lines.append(f"ApplicationPid: {conn.pid}")
    if conn.user_id:
        lines.append(f"UserId: '{conn.user_id}'")
    if conn.api_caller_type is not None:
        lines.append(f"API Caller Type: {_named(conn.api_caller_type, 'MQXACT')}")
    if conn.environment is not None:
        lines.append(f"API Environment: {_named(conn.environment, 'MQXE')}")
    if conn.channel_name:
        lines.append(f"Channel Name: '{conn.channel_name}'")
    if conn.connection_name:
        lines.append(f"ConnName: '{conn.connection_name}'")
    if conn.channel_type is not None:
        lines.append(f"Channel Type: {_named(conn.channel_type, 'MQCHT')}")
    if conn.function_name or conn.function_type is not None:
        lines.append(f"Application Function: '{conn.function_name}'")
        lines.append(f"Appl Function Type: {_named(conn.function_type, 'MQFUN_TYPE')}")
    if conn.detail is not None:
        lines.append(f"Trace Detail Level: {conn.detail}")
    if conn.trace_data_length is not None:
        lines.append(f"Trace Data Length: {conn.trace_data_length}")
    if conn.pointer_size is not None:
        lines.append(f"Pointer size: {conn.pointer_size}")
    if conn.platform is not None:
        lines.append(f"Platform: {_named(conn.platform, 'MQPL')}")
    return lines


_CALL_LINES: tuple[tuple[str, str, str | None], ...] = (
    ("hobj", "Hobj", None), ("object_type", "Object_type", "MQOT"),
    ("object_name", "Object_name", None), ("object_qmgr", "Object_Q_mgr_name", None),
    ("resolved_q_name", "Resolved_Q_Name", None), ("resolved_q_mgr", "Resolved_Q_mgr", None),
    ("resolved_local_q_name", "Resolved_Local_Q_Name", None),
    ("resolved_local_q_mgr", "Resolved_Local_Q_mgr", None),
    ("resolved_type", "Resolved_Type", "MQOT"), ("open_options", "Open_options", None),
    ("put_options", "Put Options", None), ("get_options", "Get Options", None),
    ("close_options", "Close_options", None), ("call_type", "Call Type", "MQCBCT"),
    ("msg_length", "Msg_length", None), ("buffer_length", "Buffer_length", None),
    ("high_res_time", "High Res Time", None), ("report", "Report Options", None),
    ("msg_type", "Msg_type", "MQMT"), ("expiry", "Expiry", None),
    ("format", "Format_name", None), ("priority", "Priority", None),
    ("persistence", "Persistence", "MQPER"), ("msg_id", "Msg_id", None),
    ("correl_id", "Correl_id", None), ("reply_to_q", "Reply_to_Q", None),
    ("reply_to_q_mgr", "Reply_to_Q_Mgr", None), ("ccsid", "Coded_char_set_id", None),
    ("encoding", "Encoding", None), ("put_date", "Put_date", None),
    ("put_time", "Put_time", None), ("xmitq_msg_id", "Xmitq Msg_id", None),
    ("xmitq_correl_id", "Xmitq Correl_id", None),
    ("xmitq_remote_q_name", "Xmitq Remote_Q_Name", None),
    ("xmitq_remote_q_mgr", "Xmitq Remote_Q_Mgr", None),
    ("connection_id", "ConnectionId", None), ("qmgr_name", "QueueManager", None),
    ("qmgr_op_duration", "QMgr Operation Duration", None),
)


def render_call(call: MQICall) -> list[str]:
    """One MQI call as amqsact -v prints it (only the fields present)."""
    return _printable(_call_lines(call))


def _call_lines(call: MQICall) -> list[str]:
    lines = [f"MQI Operation: {call.index}",
             f"Operation Id: {_named(call.operation, 'MQXF')}"]
    if call.thread_id is not None:
        lines.append(f"ApplicationTid: {call.thread_id}")
    if call.operation_date:
        lines.append(f"OperationDate: '{call.operation_date}'")
    if call.operation_time:
        lines.append(f"OperationTime: '{call.operation_time}'")
    for attr, label, family in _CALL_LINES:
        value = getattr(call, attr)
        if value is None or value == "":
            continue
        if isinstance(value, bytes):
            lines += [f"{label}:", *hex_dump(value)]
        elif family and isinstance(value, int):
            lines.append(f"{label}: {_named(value, family)}")
        elif isinstance(value, str):
            lines.append(f"{label}: '{value}'")
        else:
            lines.append(f"{label}: {value}")
    lines.append(f"Completion Code: {_named(call.comp_code, 'MQCC')}")
    lines.append(f"Reason Code: {call.reason}")
    for p in call.unknown:
        lines.append(f"{p.name}: {getattr(p, 'value', '')!r}")
    return lines


def render_trace(trace: ActivityTrace) -> list[str]:
    """A whole trace message: header, then each call, blank lines between, as amqsact."""
    lines = render_connection(trace.conn)
    for call in trace.calls:
        lines += ["", *render_call(call)]
    return lines


def _reason(reason: int) -> str:
    name = name_of(reason, "MQRC") if reason else None
    return f"{reason} {name}" if name else str(reason)


def render_journey(journey: Journey, *, verbose: bool = False) -> list[str]:
    """One journey: the verdict and last location, one line per call, notes; -v adds each
    call's record as amqsact prints it."""
    loc = journey.last_location
    where = " ".join(x for x in (loc.queue_manager, loc.queue) if x)
    if loc.channel:
        where += f" (channel {loc.channel})"
    lines = [f"Message {journey.msg_id_hex}: {journey.verdict} - last seen on {where or '?'}"]
    if journey.reply_to:
        lines.append(f"  reply to {journey.reply_to.hex().upper()}")
    for n, step in enumerate(journey.steps, 1):
        c = step.call
        who = c.conn.appl_name or "?"
        if step.channel:
            who += f" [{step.channel}]"
        target = step.queue or c.object_name or (
            f"topic {c.res_object_string}" if c.res_object_string else "?")
        if c.object_name and c.object_name != target:
            target = f"{c.object_name} -> {target}"
        status = "" if c.comp_code == mqc.MQCC_OK else \
            f"  CompCode {c.comp_code} Reason {_reason(c.reason)}"
        lines.append(f"  {n:>2}. {iso(c.time) or '-':<27} {c.qmgr:<12} "
                     f"{c.op_name:<10} {_ROLE.get(step.role, step.role):<13} {target}"
                     f"  by {who}{status}")
        if verbose:
            lines += ["      " + line for line in render_call(c)]
    for note in journey.notes:
        lines.append(f"  note: {note}")
    for n, branch in enumerate(journey.branches, 1):  # a publication's copies
        sub = render_journey(branch, verbose=verbose)
        lines.append(f"  branch {n} of {len(journey.branches)}: {sub[0]}")
        lines += ["    " + line for line in sub[1:]]
    return _printable(lines)
