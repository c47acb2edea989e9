"""Activity-trace messages (MQCFT_APP_ACTIVITY / MQCMD_ACTIVITY_TRACE) -> typed values."""

from __future__ import annotations

import struct

from pcf import mqc
from pcf.codepages import decode_text
from pcf.decoder import decode
from pcf.errors import PCFError
from pcf.model import Group, Message, Parameter
from pcf.mqmd import MQMD
from pcf.mqmd import unpack as unpack_mqmd
from traceroute.journeys.calls import GMO, PMO, ActivityTrace, Connection, DistListEntry, MQICall


class NotActivityTrace(ValueError):
    """The message is well-formed but not an activity-trace message."""


# parameter id -> Connection attribute
_CONN: dict[int, str] = {
    mqc.MQCA_Q_MGR_NAME: "qmgr", mqc.MQCA_QSG_NAME: "qsg_name",
    mqc.MQCACF_HOST_NAME: "host_name", mqc.MQCAMO_START_DATE: "start_date",
    mqc.MQCAMO_START_TIME: "start_time", mqc.MQCAMO_END_DATE: "end_date",
    mqc.MQCAMO_END_TIME: "end_time", mqc.MQIA_COMMAND_LEVEL: "command_level",
    mqc.MQIACF_SEQUENCE_NUMBER: "seq_number", mqc.MQCACF_APPL_NAME: "appl_name",
    mqc.MQIA_APPL_TYPE: "appl_type", mqc.MQIACF_PROCESS_ID: "pid",
    mqc.MQCACF_USER_IDENTIFIER: "user_id", mqc.MQIACF_API_CALLER_TYPE: "api_caller_type",
    mqc.MQIACF_API_ENVIRONMENT: "environment", mqc.MQCACH_CHANNEL_NAME: "channel_name",
    mqc.MQCACH_CONNECTION_NAME: "connection_name", mqc.MQIACH_CHANNEL_TYPE: "channel_type",
    mqc.MQCACH_REMOTE_PRODUCT: "remote_product", mqc.MQCACH_REMOTE_VERSION: "remote_version",
    mqc.MQCACF_APPL_FUNCTION: "function_name",
    mqc.MQIACF_APPL_FUNCTION_TYPE: "function_type", mqc.MQIACF_TRACE_DETAIL: "detail",
    mqc.MQIACF_TRACE_DATA_LENGTH: "trace_data_length",
    mqc.MQIACF_POINTER_SIZE: "pointer_size", mqc.MQIA_PLATFORM: "platform",
}

# parameter id -> MQICall attribute (the first occurrence wins; repeats go to `unknown`)
_CALL: dict[int, str] = {
    mqc.MQIACF_OPERATION_ID: "operation", mqc.MQIACF_THREAD_ID: "thread_id",
    mqc.MQCACF_OPERATION_DATE: "operation_date", mqc.MQCACF_OPERATION_TIME: "operation_time",
    mqc.MQIACF_COMP_CODE: "comp_code", mqc.MQIACF_REASON_CODE: "reason",
    mqc.MQIACF_HOBJ: "hobj", mqc.MQIACF_OBJECT_TYPE: "object_type",
    mqc.MQCACF_OBJECT_NAME: "object_name", mqc.MQCACF_OBJECT_Q_MGR_NAME: "object_qmgr",
    mqc.MQCACF_RESOLVED_Q_NAME: "resolved_q_name", mqc.MQCACF_RESOLVED_Q_MGR: "resolved_q_mgr",
    mqc.MQCACF_RESOLVED_LOCAL_Q_NAME: "resolved_local_q_name",
    mqc.MQCACF_RESOLVED_LOCAL_Q_MGR: "resolved_local_q_mgr",
    mqc.MQIACF_RESOLVED_TYPE: "resolved_type", mqc.MQCACF_OBJECT_STRING: "object_string",
    mqc.MQCACF_RESOLVED_OBJECT_STRING: "res_object_string",
    mqc.MQCACF_DYNAMIC_Q_NAME: "dynamic_q_name",
    mqc.MQBACF_MSG_ID: "msg_id", mqc.MQBACF_CORREL_ID: "correl_id",
    mqc.MQCACH_FORMAT_NAME: "format", mqc.MQIACF_MSG_TYPE: "msg_type",
    mqc.MQIACF_REPORT: "report", mqc.MQIACF_EXPIRY: "expiry",
    mqc.MQIACF_PRIORITY: "priority", mqc.MQIACF_PERSISTENCE: "persistence",
    mqc.MQCACF_REPLY_TO_Q: "reply_to_q", mqc.MQCACF_REPLY_TO_Q_MGR: "reply_to_q_mgr",
    mqc.MQIA_CODED_CHAR_SET_ID: "ccsid", mqc.MQIACF_ENCODING: "encoding",
    mqc.MQCACF_PUT_DATE: "put_date", mqc.MQCACF_PUT_TIME: "put_time",
    mqc.MQCA_POLICY_NAME: "policy_name", mqc.MQIAMO64_HIGHRES_TIME: "high_res_time",
    mqc.MQIAMO64_QMGR_OP_DURATION: "qmgr_op_duration", mqc.MQIACF_MSG_LENGTH: "msg_length",
    mqc.MQIACF_BUFFER_LENGTH: "buffer_length", mqc.MQBACF_MESSAGE_DATA: "msg_data",
    mqc.MQIACF_GET_OPTIONS: "get_options", mqc.MQIACF_PUT_OPTIONS: "put_options",
    mqc.MQIACF_OPEN_OPTIONS: "open_options", mqc.MQIACF_CLOSE_OPTIONS: "close_options",
    mqc.MQIACF_CONNECT_OPTIONS: "connect_options", mqc.MQIACF_CALL_TYPE: "call_type",
    mqc.MQBACF_CONNECTION_ID: "connection_id", mqc.MQCA_Q_MGR_NAME: "qmgr_name",
    mqc.MQCACF_ALTERNATE_USERID: "alternate_user_id",
    mqc.MQIACF_RECS_PRESENT: "recs_present", mqc.MQIACF_KNOWN_DEST_COUNT: "known_dest_count",
    mqc.MQIACF_UNKNOWN_DEST_COUNT: "unknown_dest_count",
    mqc.MQIACF_INVALID_DEST_COUNT: "invalid_dest_count",
    mqc.MQBACF_XQH_MSG_ID: "xmitq_msg_id", mqc.MQBACF_XQH_CORREL_ID: "xmitq_correl_id",
    mqc.MQCACF_XQH_PUT_DATE: "xmitq_put_date", mqc.MQCACF_XQH_PUT_TIME: "xmitq_put_time",
    mqc.MQCACF_XQH_REMOTE_Q_NAME: "xmitq_remote_q_name",
    mqc.MQCACF_XQH_REMOTE_Q_MGR: "xmitq_remote_q_mgr",
}

_DIST: dict[int, str] = {
    mqc.MQCACF_OBJECT_NAME: "object_name", mqc.MQCACF_OBJECT_Q_MGR_NAME: "object_qmgr",
    mqc.MQIACF_COMP_CODE: "comp_code", mqc.MQIACF_REASON_CODE: "reason",
    mqc.MQBACF_MSG_ID: "msg_id", mqc.MQBACF_CORREL_ID: "correl_id",
    mqc.MQBACF_GROUP_ID: "group_id", mqc.MQIACF_FEEDBACK: "feedback",
    mqc.MQBACF_ACCOUNTING_TOKEN: "accounting_token",
}

_STRUCTS = frozenset({
    mqc.MQBACF_MQMD_STRUCT, mqc.MQBACF_MQPMO_STRUCT, mqc.MQBACF_MQGMO_STRUCT,
    mqc.MQBACF_MQCBC_STRUCT, mqc.MQBACF_MQCBD_STRUCT, mqc.MQBACF_MQCNO_STRUCT,
    mqc.MQBACF_MQCD_STRUCT, mqc.MQBACF_MQBO_STRUCT, mqc.MQBACF_MQSD_STRUCT,
    mqc.MQBACF_MQSTS_STRUCT,
})


def _value(p: Parameter, attr: str, template: object) -> object:
    """The parameter's value as the attribute wants it: text stripped, bytes kept."""
    v = p.value  # type: ignore[attr-defined]
    if isinstance(template, str):
        if isinstance(v, bytes):
            v = v.decode("latin-1")
        return v.rstrip(" \x00") if isinstance(v, str) else str(v)
    return v


_CONN_DEFAULTS = Connection()
_CALL_DEFAULTS = {name: getattr(MQICall(_CONN_DEFAULTS, 0), name) for name in _CALL.values()}
_DIST_DEFAULTS = DistListEntry()


def connection_of(message: Message, md: MQMD | None) -> Connection:
    """The connection a trace message describes (its top-level parameters + MQMD CorrelId)."""
    conn = Connection(conn_id=bytes(md.correl_id) if md is not None else b"")
    seen: set[str] = set()
    for p in message.parameters:
        attr = _CONN.get(p.parameter)
        if attr is None or attr in seen or isinstance(p, Group):
            if not (isinstance(p, Group) and p.parameter == mqc.MQGACF_ACTIVITY_TRACE):
                conn.unknown.append(p)
            continue
        seen.add(attr)
        setattr(conn, attr, _value(p, attr, getattr(_CONN_DEFAULTS, attr)))
    return conn


def _gmo(raw: bytes) -> GMO | None:
    if len(raw) < 72 or raw[:4] not in (b"GMO ", b"\xc7\xd4\xd6\x40"):
        return None
    order = "<" if struct.unpack_from("<i", raw, 4)[0] in range(1, 5) else ">"
    version, options, wait = struct.unpack_from(order + "3i", raw, 4)
    name = decode_text(raw[24:72], 500 if raw[0] == 0xC7 else 819) or ""
    return GMO(version, options, wait, name.rstrip(" \x00"))


def _pmo(raw: bytes) -> PMO | None:
    if len(raw) < 128 or raw[:4] not in (b"PMO ", b"\xd7\xd4\xd6\x40"):
        return None
    order = "<" if struct.unpack_from("<i", raw, 4)[0] in range(1, 4) else ">"
    version, options, timeout, _ctx, known, unknown, invalid = struct.unpack_from(
        order + "7i", raw, 4)
    ccsid = 500 if raw[0] == 0xD7 else 819
    q = (decode_text(raw[32:80], ccsid) or "").rstrip(" \x00")
    qm = (decode_text(raw[80:128], ccsid) or "").rstrip(" \x00")
    return PMO(version, options, timeout, known, unknown, invalid, q, qm)


def _dist_entry(group: Group) -> DistListEntry:
    entry = DistListEntry()
    seen: set[str] = set()
    for p in group.parameters:
        attr = _DIST.get(p.parameter)
        if attr is None or attr in seen or isinstance(p, Group):
            entry.unknown.append(p)
            continue
        seen.add(attr)
        setattr(entry, attr, _value(p, attr, getattr(_DIST_DEFAULTS, attr)))
    return entry


def call_of(group: Group, conn: Connection, index: int) -> MQICall:
    """One MQGACF_ACTIVITY_TRACE group as a typed call (any member order; unknowns kept)."""
    values: dict[str, object] = {}
    call = MQICall(conn, index)
    for p in group.parameters:
        pid = p.parameter
        attr = _CALL.get(pid)
        if attr is not None and attr not in values and not isinstance(p, Group):
            values[attr] = _value(p, attr, _CALL_DEFAULTS[attr])
        elif pid in _STRUCTS and not isinstance(p, Group) and pid not in call.structures:
            raw = bytes(p.value)  # type: ignore[attr-defined]
            call.structures[pid] = raw
            if pid == mqc.MQBACF_MQMD_STRUCT:
                try:
                    call.mqmd = unpack_mqmd(raw)
                except PCFError:
                    call.mqmd = None
            elif pid == mqc.MQBACF_MQGMO_STRUCT:
                call.gmo = _gmo(raw)
            elif pid == mqc.MQBACF_MQPMO_STRUCT:
                call.pmo = _pmo(raw)
        elif isinstance(p, Group) and pid == mqc.MQGACF_APP_DIST_LIST:
            call.dist_list.append(_dist_entry(p))
        else:
            call.unknown.append(p)
    for attr, v in values.items():
        setattr(call, attr, v)
    return call


def is_activity_trace(message: Message) -> bool:
    """True for MQCFT_APP_ACTIVITY / MQCMD_ACTIVITY_TRACE."""
    h = message.header
    return h.type == mqc.MQCFT_APP_ACTIVITY and h.command == mqc.MQCMD_ACTIVITY_TRACE


def parse_trace_message(message: Message, md: MQMD | None, *, source: str = "",
                        line: int | None = None) -> ActivityTrace:
    """A decoded PCF message as an ActivityTrace; NotActivityTrace for anything else."""
    if not is_activity_trace(message):
        raise NotActivityTrace(f"MQCFH Type {message.header.type} Command "
                               f"{message.header.command} is not an activity trace")
    conn = connection_of(message, md)
    calls = [call_of(g, conn, i) for i, g in enumerate(
        p for p in message.parameters
        if isinstance(p, Group) and p.parameter == mqc.MQGACF_ACTIVITY_TRACE)]
    return ActivityTrace(conn, calls, source, line)


def parse_activity_trace(md: MQMD | None, data: bytes, *, source: str = "",
                         line: int | None = None) -> ActivityTrace:
    """Decode an activity-trace message (MQMD + data); PCFError or NotActivityTrace if not."""
    if md is not None:
        fmt = md.format.strip()
        if fmt and fmt not in ("MQADMIN", "MQEVENT", "MQPCF"):
            raise NotActivityTrace(f"Format {fmt!r} is not PCF")
        message = decode(data, encoding=md.encoding, ccsid=md.coded_char_set_id,
                         fmt=md.format)
    else:
        message = decode(data)
    return parse_trace_message(message, md, source=source, line=line)
