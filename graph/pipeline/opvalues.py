"""Operation rows straight from a collected message: classify's path for activity reports.

`rows.operation_values(parse_message(...))` builds the Record tree (Activity, Operation and
TraceRoute values, lazy MQMDs) and then flattens it; the analyze job wants only the flat
rows, so `operation_tuples` walks the decoded PCF once and gives the same tuples, in
OPERATION_COLUMNS order, from the same decoding and the same field rules (parse.py's tables;
of repeated members the last counts, of TraceRoute counters the first; members of the
wrong structure type are ignored). Errors are parse_message's, raised by the same code.
Tested equal to that path on the corpus and on hypothesis-made messages.
"""

from __future__ import annotations

import pcf
from graph.pipeline.rows import OPERATION_NAMES
from pcf import mqc
from pcf.model import ByteString, Group
from pcf.mqmd import MQMD
from traceroute.records.model import operation_name
from traceroute.records.parse import (
    OPERATION_INT,
    OPERATION_TEXT,
    TRACE,
    activity_parts,
    decode_activity,
    message_parts,
    record_kind,
    text_of,
)

#: The operation columns an Operation group fills, from `operation_type` to `feedback`.
_OP_NAMES = OPERATION_NAMES[OPERATION_NAMES.index("operation_type"):
                            OPERATION_NAMES.index("feedback") + 1]
_FIELD = {"operation_type": "type", "operation": None, "date": "date", "time": "time",
          "queue_manager": "qmgr", "queue": "queue", "resolved_queue": "resolved_queue",
          "remote_queue": "remote_queue", "remote_queue_manager": "remote_qmgr",
          "topic": "topic", "channel": "channel", "channel_type": "channel_type",
          "xmit_queue": "xmit_queue", "feedback": "feedback"}
_SLOT = {_FIELD[name]: i for i, name in enumerate(_OP_NAMES) if _FIELD[name]}
#: Operation's defaults: type MQOPER_UNKNOWN, date/time/qmgr "", the rest None.
_DEFAULT = [mqc.MQOPER_UNKNOWN if n == "operation_type" else
            "" if n in ("date", "time", "queue_manager") else None for n in _OP_NAMES]
#: Operation group member id -> (slot, the structure it must be: MQCFST or MQCFIN).
_MEMBER = {**{pid: (_SLOT[f], pcf.String) for pid, f in OPERATION_TEXT.items() if f in _SLOT},
           **{pid: (_SLOT[f], pcf.Integer) for pid, f in OPERATION_INT.items() if f in _SLOT}}
_TYPE, _NAME = _SLOT["type"], _OP_NAMES.index("operation")
_NO_MSG_ID = MQMD().msg_id
_COUNTER_IDS = frozenset((mqc.MQIACF_RECORDED_ACTIVITIES, mqc.MQIACF_UNRECORDED_ACTIVITIES,
                          mqc.MQIACF_DISCONTINUITY_COUNT))
_NONE3 = (None, None, None)


def _msg_id(group: Group) -> bytes:
    """MsgId as md_from_group reads it: the last MQBACF_MSG_ID member, if an MQCFBS."""
    found = None
    for p in group.parameters:
        if p.parameter == mqc.MQBACF_MSG_ID:
            found = p
    return found.value if isinstance(found, ByteString) else _NO_MSG_ID


def _operation(group: Group) -> tuple[list, bytes | None, bytes | None, bool, tuple]:
    """(operation columns, MsgId of its MQMD, of its embedded MQMD, has an embedded MQMD,
    (SubId hex, SubLevel) of a publish operation)."""
    values = _DEFAULT.copy()
    md = emb = None
    sub_id = sub_level = None
    member = _MEMBER.get
    for p in group.parameters:
        pid = p.parameter
        known = member(pid)
        if known is not None:
            slot, cls = known
            if isinstance(p, cls):
                value = p.value
                values[slot] = value if value.__class__ is not bytes else text_of(p)
        elif pid == mqc.MQBACF_SUB_ID and isinstance(p, ByteString):
            sub_id = bytes(p.value).hex()
        elif pid == mqc.MQIACF_SUB_LEVEL and isinstance(p, pcf.Integer):
            sub_level = p.value
        elif pid == mqc.MQGACF_MESSAGE and isinstance(p, Group):
            md = p.find(mqc.MQGACF_MQMD)
            emb = p.find(mqc.MQGACF_EMBEDDED_MQMD)
            md = md if isinstance(md, Group) else None
            emb = emb if isinstance(emb, Group) else None
    values[_NAME] = operation_name(values[_TYPE])
    return (values, None if md is None else _msg_id(md), None if emb is None else _msg_id(emb),
            emb is not None, (sub_id, sub_level))


def _counters(group: Group) -> tuple:
    """(Recorded, Unrecorded, Discontinuity) of a TraceRoute group as TraceRoute.counters."""
    got: dict[int, int] = {}
    for p in group.parameters:
        pid = p.parameter
        if pid in _COUNTER_IDS and pid not in got and isinstance(p, pcf.Integer | pcf.Integer64):
            got[pid] = p.value
    recorded = got.get(mqc.MQIACF_RECORDED_ACTIVITIES)
    if recorded is None:
        return _NONE3
    return (recorded, got.get(mqc.MQIACF_UNRECORDED_ACTIVITIES) or 0,
            got.get(mqc.MQIACF_DISCONTINUITY_COUNT) or 0)



def _activity(group: Group) -> tuple:
    """(ApplName, ApplType, ActivityDesc, operations, counters) of an Activity group."""
    appl_name, appl_type, description, operations, counters = activity_parts(
        group, _operation, _counters)
    return appl_name, appl_type, description, operations, counters or _NONE3


def _fallback_key(activities: list[tuple]) -> bytes:
    """Without an MQMD: the first operation's (embedded, else own) non-zero MsgId."""
    for _name, _type, _description, operations, _route in activities:
        for _values, md_id, emb_id, has_emb, _sub in operations:
            msg_id = emb_id if has_emb else md_id
            if msg_id is not None and any(msg_id):
                return msg_id
    return b""


def operation_tuples(md: MQMD | None, data: bytes, *, source: str | None,
                     position: int | None) -> list[tuple]:
    """operation_values(parse_message(md, data, ...), position=position) without the Record
    tree: one tuple per operation, in OPERATION_COLUMNS order."""
    message, _dead_letter = decode_activity(md, data)
    kind = record_kind(message, md)
    activities, final = message_parts(message, _activity, _counters)
    final = final or _NONE3
    if md is None:
        key, report_id = _fallback_key(activities).hex(), None
    else:
        key = (md.msg_id if kind == TRACE else md.correl_id).hex()
        report_id = md.msg_id.hex()
    head = (key, kind, report_id, source, position)
    out = []
    for a_index, (appl_name, appl_type, description, operations, counters) in enumerate(
            activities):
        activity = (*head, a_index, *counters, appl_name, appl_type, description)
        for o_index, (values, md_id, emb_id, has_emb, sub) in enumerate(operations):
            out.append((*activity, o_index, *values,
                        None if md_id is None else md_id.hex(),
                        None if emb_id is None else emb_id.hex(), has_emb, *final, *sub))
    return out
