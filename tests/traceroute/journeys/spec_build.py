"""Activity-trace messages built byte by byte from spec/activity-trace.md with `struct`.

Independent of the project's encoder: every structure is laid out here from the spec
(pcf-format.md for MQCFH/MQCFIN/MQCFST/MQCFBS/MQCFIN64/MQCFGR, activity-trace.md §3 for
what goes where), so a decoder bug cannot hide behind a matching encoder bug.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

# identifiers (activity-trace.md §3.3, §3.4, §5)
Q_MGR_NAME, APPL_NAME, APPL_TYPE, PROCESS_ID, SEQ_NUMBER = 2015, 3024, 1, 1024, 1079
API_CALLER_TYPE, ENVIRONMENT, CHANNEL_NAME, CONNECTION_NAME = 1357, 1358, 3501, 3506
CHANNEL_TYPE, DETAIL, COMMAND_LEVEL, START_DATE, START_TIME = 1511, 1359, 31, 2711, 2712
ACTIVITY_TRACE, APP_DIST_LIST = 8013, 8014
OPERATION_ID, THREAD_ID, OPERATION_DATE, OPERATION_TIME = 1356, 1025, 3132, 3133
COMP_CODE, REASON, HOBJ, OBJECT_NAME, OBJECT_QMGR, OBJECT_TYPE = 1242, 1254, 1360, 3046, 3023, 1016
RESOLVED_Q_NAME, RESOLVED_Q_MGR = 3141, 3197
RESOLVED_LOCAL_Q_NAME, RESOLVED_LOCAL_Q_MGR = 3195, 3194
MSG_ID, CORREL_ID, FORMAT, MSG_TYPE, PUT_OPTIONS, GET_OPTIONS = 7013, 7011, 3533, 1249, 1373, 1367
MSG_LENGTH, HIGHRES_TIME, CONNECTION_ID, OPEN_OPTIONS = 1248, 838, 7006, 1022
XQH_MSG_ID, XQH_CORREL_ID, XQH_REMOTE_Q_NAME, XQH_REMOTE_Q_MGR = 7035, 7034, 3201, 3202
MQMD_STRUCT, GMO_STRUCT, PMO_STRUCT, CALL_TYPE = 7028, 7027, 7029, 1361
# MQXF_*
CONN, DISC, OPEN, CLOSE, PUT1, PUT, GET, CALLBACK = 3, 5, 6, 7, 8, 9, 10, 21
MQXE_OTHER, MQXE_MCA, MQXE_MCA_SVRCONN = 0, 1, 2  # MQXE_* (cmqxc.h)
MQCHT_SENDER, MQCHT_SVRCONN = 1, 7
LE, BE = "<", ">"
ENC = {LE: 546, BE: 785}  # MQENC_NATIVE (x86) / z/OS


def _pad(b: bytes) -> bytes:
    return b + b"\x00" * (-len(b) % 4)


def cfin(o: str, pid: int, value: int) -> bytes:
    """MQCFIN: Type 3, StrucLength 16, Parameter, Value."""
    return struct.pack(o + "4i", 3, 16, pid, value)


def cfin64(o: str, pid: int, value: int) -> bytes:
    """MQCFIN64: Type 23, StrucLength 24, Parameter, Reserved, Value (64-bit)."""
    return struct.pack(o + "4iq", 23, 24, pid, 0, value)


def cfst(o: str, pid: int, text: str, ccsid: int = 0, codec: str = "latin-1",
         width: int | None = None) -> bytes:
    """MQCFST: Type 4, StrucLength, Parameter, CCSID, StringLength, blank-padded string."""
    raw = text.ljust(width or len(text)).encode(codec)
    return struct.pack(o + "5i", 4, 20 + len(_pad(raw)), pid, ccsid, len(raw)) + _pad(raw)


def cfbs(o: str, pid: int, raw: bytes) -> bytes:
    """MQCFBS: Type 9, StrucLength, Parameter, StringLength, bytes."""
    return struct.pack(o + "4i", 9, 16 + len(_pad(raw)), pid, len(raw)) + _pad(raw)


def cfgr(o: str, pid: int, members: list[bytes]) -> bytes:
    """MQCFGR: Type 20, StrucLength 16, Parameter, ParameterCount, then the members."""
    return struct.pack(o + "4i", 20, 16, pid, len(members)) + b"".join(members)


def cfh(o: str, count: int, type_: int = 26, command: int = 209) -> bytes:
    """MQCFH for an activity trace: Type 26, 36, Version 3, Command 209, seq 1, LAST."""
    return struct.pack(o + "9i", type_, 36, 3, command, 1, 1, 0, 0, count)


def mqmd(o: str, *, correl_id: bytes, ccsid: int = 819, fmt: str = "MQADMIN",
         msg_id: bytes = b"", codec: str = "latin-1", put_appl: str = "") -> bytes:
    """A version-2 MQMD (364 bytes) laid out field by field (pcf-format.md §MQMD)."""
    c = lambda s, n: s.ljust(n).encode(codec)  # noqa: E731
    return (c("MD", 4) + struct.pack(o + "7i", 2, 0, 8, -1, 0, ENC[o], ccsid) + c(fmt, 8)
            + struct.pack(o + "2i", 0, 0) + msg_id.ljust(24, b"\x00")
            + correl_id.ljust(24, b"\x00") + struct.pack(o + "i", 0) + c("", 48) + c("", 48)
            + c("mqm", 12) + bytes(32) + c("", 32) + struct.pack(o + "i", 7)
            + c(put_appl, 28) + c("20261123", 8) + c("10000000", 8) + c("", 4)
            + bytes(24) + struct.pack(o + "4i", 1, 0, 0, -1))


@dataclass
class Op:
    """One MQI call to lay out: its MQXF id and (id, kind, value) members."""

    operation: int
    members: list[tuple[int, str, object]] = field(default_factory=list)


def op(operation: int, *, cc: int = 0, reason: int = 0, time_us: int | None = None,
       date: str = "2026-11-23", time: str = "10:00:00", **fields: object) -> Op:
    """An MQI call; keyword fields name the parameters below (level MEDIUM)."""
    names = {
        "hobj": (HOBJ, "i"), "object_name": (OBJECT_NAME, "s"), "object_qmgr": (OBJECT_QMGR, "s"),
        "resolved_q": (RESOLVED_Q_NAME, "s"), "resolved_qmgr": (RESOLVED_Q_MGR, "s"),
        "resolved_local_q": (RESOLVED_LOCAL_Q_NAME, "s"),
        "resolved_local_qmgr": (RESOLVED_LOCAL_Q_MGR, "s"),
        "msg_id": (MSG_ID, "b"), "correl_id": (CORREL_ID, "b"), "format": (FORMAT, "s8"),
        "msg_type": (MSG_TYPE, "i"), "put_options": (PUT_OPTIONS, "i"),
        "get_options": (GET_OPTIONS, "i"), "msg_length": (MSG_LENGTH, "i"),
        "xmitq_msg_id": (XQH_MSG_ID, "b"), "xmitq_correl_id": (XQH_CORREL_ID, "b"),
        "xmitq_remote_q": (XQH_REMOTE_Q_NAME, "s"), "xmitq_remote_qmgr": (XQH_REMOTE_Q_MGR, "s"),
        "connection_id": (CONNECTION_ID, "b"), "qmgr_name": (Q_MGR_NAME, "s"),
        "open_options": (OPEN_OPTIONS, "i"), "mqmd_struct": (MQMD_STRUCT, "b"),
        "gmo_struct": (GMO_STRUCT, "b"), "pmo_struct": (PMO_STRUCT, "b"),
        "call_type": (CALL_TYPE, "i"), "object_type": (OBJECT_TYPE, "i"),
    }
    members: list[tuple[int, str, object]] = [
        (OPERATION_ID, "i", operation), (THREAD_ID, "i", 1), (OPERATION_DATE, "s", date),
        (OPERATION_TIME, "s", time), (COMP_CODE, "i", cc), (REASON, "i", reason)]
    if time_us is not None:
        members.append((HIGHRES_TIME, "q", time_us))
    for key, value in fields.items():
        if key == "extra":
            members.extend(value)  # type: ignore[arg-type]
            continue
        pid, kind = names[key]
        members.append((pid, kind, value))
    return Op(operation, members)


def _member(o: str, pid: int, kind: str, value: object, codec: str) -> bytes:
    if kind == "i":
        return cfin(o, pid, value)  # type: ignore[arg-type]
    if kind == "q":
        return cfin64(o, pid, value)  # type: ignore[arg-type]
    if kind == "b":
        return cfbs(o, pid, value)  # type: ignore[arg-type]
    if kind == "s8":
        return cfst(o, pid, value, codec=codec, width=8)  # type: ignore[arg-type]
    if kind == "s":
        return cfst(o, pid, value, codec=codec, width=48)  # type: ignore[arg-type]
    if kind == "g":
        members = [_member(o, *m, codec=codec) for m in value]  # type: ignore[attr-defined]
        return cfgr(o, pid, members)
    raise ValueError(kind)


def conn_id(qmgr: str, n: int) -> bytes:
    """A 24-byte ConnectionId: EXTCONN 'AMQC' + 12 chars of name, CONN 8 bytes."""
    return b"AMQC" + qmgr.ljust(12).encode("latin-1")[:12] + n.to_bytes(8, "big")


def trace_message(qmgr: str, appl: str, ops: list[Op], *, order: str = LE,
                  conn: bytes | None = None, seq: int = 0, mca: bool = False,
                  channel: str = "", ebcdic: bool = False, reverse_top: bool = False,
                  reverse_members: bool = False, pid: int = 4242,
                  extra_top: list[tuple[int, str, object]] | None = None, client: str = ""
                  ) -> tuple[bytes, bytes]:
    """(MQMD bytes, message data) of one activity-trace message for one connection;
    `client` names the SVRCONN channel of a client application (Environment
    MQXE_MCA_SVRCONN, ChannelType MQCHT_SVRCONN, as the connection-level table says)."""
    codec, ccsid = ("cp500", 500) if ebcdic else ("latin-1", 819)
    top: list[tuple[int, str, object]] = [
        (Q_MGR_NAME, "s", qmgr), (START_DATE, "s", "2026-11-23"), (START_TIME, "s", "10.00.00"),
        (COMMAND_LEVEL, "i", 940), (SEQ_NUMBER, "i", seq), (APPL_NAME, "s", appl),
        (APPL_TYPE, "i", 7 if mca else 6), (PROCESS_ID, "i", pid), (API_CALLER_TYPE, "i", 1),
        (ENVIRONMENT, "i", MQXE_MCA if mca else MQXE_MCA_SVRCONN if client else MQXE_OTHER),
        (DETAIL, "i", 2)]
    if mca:
        top += [(CHANNEL_NAME, "s", channel), (CHANNEL_TYPE, "i", MQCHT_SENDER),
                (CONNECTION_NAME, "s", "127.0.0.1(1414)")]
    elif client:
        top += [(CHANNEL_NAME, "s", client), (CHANNEL_TYPE, "i", MQCHT_SVRCONN),
                (CONNECTION_NAME, "s", "10.1.2.3")]
    top += extra_top or []
    if reverse_top:
        top.reverse()
    parts = [_member(order, *m, codec=codec) for m in top]
    for one in ops:
        members = list(reversed(one.members)) if reverse_members else one.members
        parts.append(cfgr(order, ACTIVITY_TRACE,
                          [_member(order, *m, codec=codec) for m in members]))
    data = cfh(order, len(parts)) + b"".join(parts)
    cid = conn if conn is not None else conn_id(qmgr, hash(appl) & 0xFFFF)
    return mqmd(order, correl_id=cid, ccsid=ccsid, codec=codec, put_appl=qmgr), data


def mqmd_struct(o: str, *, msg_id: bytes, fmt: str = "MQSTR") -> bytes:
    """An MQMD structure dump as a HIGH-level record carries it."""
    return mqmd(o, correl_id=b"", msg_id=msg_id, fmt=fmt)


def gmo_struct(o: str, options: int, queue: str = "") -> bytes:
    """An MQGMO v4 dump: StrucId, Version, Options, WaitInterval, Signal1, Signal2,
    ResolvedQName(48), MatchOptions, GroupStatus, SegmentStatus, Segmentation, Reserved1,
    MsgToken(16), ReturnedLength, Reserved2, MsgHandle(8)."""
    return (b"GMO " + struct.pack(o + "5i", 4, options, 0, 0, 0) + queue.ljust(48).encode()
            + struct.pack(o + "i", 3) + b"    " + b"\x00" * 16 + struct.pack(o + "2i", -1, 0)
            + bytes(8))


def pmo_struct(o: str, options: int, queue: str = "", qmgr: str = "") -> bytes:
    """An MQPMO v1 dump: StrucId, Version, Options, Timeout, Context, Known/Unknown/Invalid
    dest counts, ResolvedQName(48), ResolvedQMgrName(48)."""
    return (b"PMO " + struct.pack(o + "7i", 1, options, -1, 0, 1, 0, 0)
            + queue.ljust(48).encode() + qmgr.ljust(48).encode())
