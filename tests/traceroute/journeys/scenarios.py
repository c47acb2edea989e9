"""Spec-built activity-trace scenarios for the journeys tests (QM1 -> QM2 -> QM3).

Each helper returns (MQMD bytes, data) pairs laid out by `spec_build` (struct only), the
records a real estate would write for the MQI calls named.
"""

from __future__ import annotations

from tests.traceroute.journeys.spec_build import (
    BE,
    GET,
    LE,
    OPEN,
    PUT,
    PUT1,
    conn_id,
    op,
    trace_message,
)

M = b"AMQ QM1         \x11\x22\x33\x44\x00\x00\x00\x01"
T0 = 1_795_000_000_000_000  # µs since the epoch (2026-11-18)
MQXMIT, MQDEAD = "MQXMIT", "MQDEAD"


def app_put(qmgr: str, queue: str, msg_id: bytes = M, *, target_qmgr: str | None = None,
            xmitq: str | None = None, t: int = 0, order: str = LE, n: int = 1,
            cc: int = 0, reason: int = 0, correl_id: bytes = bytes(24), msg_type: int = 8,
            ebcdic: bool = False, put1: bool = False, seq: int = 0,
            client: str = "") -> tuple[bytes, bytes]:
    """An application's MQOPEN + MQPUT (or MQPUT1) of one message (`client`: connected
    through that SVRCONN channel)."""
    resolved = {"resolved_q": queue, "resolved_qmgr": target_qmgr or qmgr}
    if xmitq:
        resolved.update(resolved_local_q=xmitq, resolved_local_qmgr=qmgr)
    put_fields = dict(object_name=queue, format="MQSTR", msg_type=msg_type,
                      correl_id=correl_id, msg_length=10, **resolved)
    if cc != 2:
        put_fields["msg_id"] = msg_id
    ops = [] if put1 else [op(OPEN, hobj=1, object_name=queue, cc=cc, reason=reason,
                              **(resolved if cc != 2 else {}))]
    ops.append(op(PUT1 if put1 else PUT, hobj=None if put1 else 1, cc=cc, reason=reason,
                  time_us=T0 + t, **({k: v for k, v in put_fields.items()} if cc != 2 else
                                     {"object_name": queue})))
    for o in ops:
        o.members = [m for m in o.members if m[2] is not None]
    return trace_message(qmgr, "amqsputc" if client else "amqsput", ops, order=order,
                         conn=conn_id(qmgr, n), ebcdic=ebcdic, seq=seq, client=client)


def mca_get(qmgr: str, xmitq: str, channel: str, dest_qmgr: str, dest_q: str,
            msg_id: bytes = M, *, t: int = 0, order: str = LE, n: int = 50,
            ebcdic: bool = False) -> tuple[bytes, bytes]:
    """The sending MCA's MQGET from the transmission queue (Xmitq* fields)."""
    xmit_id = b"AMQ " + qmgr.ljust(12).encode() + b"XMIT" + msg_id[-4:]
    return trace_message(qmgr, "runmqchl", [
        op(GET, hobj=3, msg_id=xmit_id, correl_id=msg_id, format=MQXMIT, get_options=0x4002,
           object_name=xmitq, resolved_q=xmitq, xmitq_msg_id=msg_id,
           xmitq_correl_id=bytes(24), xmitq_remote_q=dest_q, xmitq_remote_qmgr=dest_qmgr,
           time_us=T0 + t)], mca=True, channel=channel, order=order, conn=conn_id(qmgr, n),
        ebcdic=ebcdic)


def mca_put(qmgr: str, queue: str, channel: str, msg_id: bytes = M, *, t: int = 0,
            order: str = LE, n: int = 60, xmitq: str | None = None,
            target_qmgr: str | None = None, dead: bool = False, cc: int = 0, reason: int = 0,
            ebcdic: bool = False) -> tuple[bytes, bytes]:
    """The receiving MCA's MQPUT1 on the next queue manager (to the DLQ when `dead`)."""
    fields: dict[str, object] = dict(object_name=queue, resolved_q=queue,
                                     resolved_qmgr=target_qmgr or qmgr, msg_id=msg_id,
                                     format=MQDEAD if dead else "MQSTR", msg_length=10)
    if xmitq:
        fields.update(resolved_local_q=xmitq, resolved_local_qmgr=qmgr)
    return trace_message(qmgr, "amqrmppa", [op(PUT1, cc=cc, reason=reason, time_us=T0 + t,
                                                **fields)],
                         mca=True, channel=channel, order=order, conn=conn_id(qmgr, n),
                         ebcdic=ebcdic)


def app_get(qmgr: str, queue: str, msg_id: bytes = M, *, t: int = 0, order: str = LE,
            n: int = 2, browse: bool = False, split: bool = False, ebcdic: bool = False,
            appl: str = "amqsget", client: str = "") -> list[tuple[bytes, bytes]]:
    """A consumer's MQOPEN + MQGET; `split` writes them in two trace messages (seq 0, 1)
    and leaves the queue name off the get (it comes from the MQOPEN's handle); `client`:
    connected through that SVRCONN channel."""
    opened = op(OPEN, hobj=7, object_name=queue, resolved_q=queue, resolved_qmgr=qmgr)
    got = op(GET, hobj=7, msg_id=msg_id, format="MQSTR", msg_length=10, time_us=T0 + t,
             get_options=0x10 if browse else 0x4004,
             **({} if split else {"object_name": queue, "resolved_q": queue}))
    cid = conn_id(qmgr, n)
    if split:
        return [trace_message(qmgr, appl, [opened], order=order, conn=cid, seq=0,
                              ebcdic=ebcdic, client=client),
                trace_message(qmgr, appl, [got], order=order, conn=cid, seq=1,
                              ebcdic=ebcdic, client=client)]
    return [trace_message(qmgr, appl, [opened, got], order=order, conn=cid, ebcdic=ebcdic,
                          client=client)]


def qm1_to_qm2(*, consumed: bool = True, order2: str = BE, ebcdic2: bool = False,
               skew: int = 0) -> list[tuple[bytes, bytes]]:
    """IBM's QM1 -> QM2 layout: TARG.AT.QM2 -> xmitq QM2 -> QM1.TO.QM2 -> TARGET.Q."""
    out = [app_put("QM1", "TARG.AT.QM2", target_qmgr="QM2", xmitq="QM2", t=0),
           mca_get("QM1", "QM2", "QM1.TO.QM2", "QM2", "TARGET.Q", t=1000),
           mca_put("QM2", "TARGET.Q", "QM1.TO.QM2", t=2000 + skew, order=order2,
                   ebcdic=ebcdic2)]
    if consumed:
        out += app_get("QM2", "TARGET.Q", t=3000 + skew, order=order2, ebcdic=ebcdic2)
    return out
