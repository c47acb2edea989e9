"""Example activity data: the reports of one message's trip from QM1 to QM2.

These are the embedded default the CLI shows (`mqroute decode --example`) and the input of
the decode benchmark. They are built with the same code that builds real reports.
"""

from __future__ import annotations

from pcf import mqc
from pcf.model import Group, Integer, String
from pcf.mqmd import MQMD
from traceroute.records.build import (
    REPORT_CCSID,
    activity_group,
    activity_report,
    encode_report,
    operation_group,
    report_descriptor,
)


def _msg_id(qmgr: str, n: int) -> bytes:
    """A MsgId the way a queue manager makes one: 'AMQ ' + 12-char name + a counter."""
    return b"AMQ " + qmgr.ljust(12)[:12].encode("ascii") + n.to_bytes(8, "big")


def _s(pid: int, value: str, width: int = 48) -> String:
    return String(pid, value, REPORT_CCSID, width)


ORIGINAL = MQMD(report=mqc.MQRO_ACTIVITY | mqc.MQRO_DISCARD_MSG, format="MQSTR",
                msg_id=_msg_id("QM1", 1), persistence=mqc.MQPER_NOT_PERSISTENT,
                priority=0, reply_to_q="ACTIV.REPLY.Q", reply_to_q_mgr="QM1",
                user_identifier="mqm", put_appl_type=mqc.MQAT_UNIX, put_appl_name="amqsput",
                put_date="20261122", put_time="10150000")


def example_reports() -> list[tuple[MQMD, bytes]]:
    """The four activity reports of ORIGINAL's route QM1 -> QM1.TO.QM2 -> QM2 TARGET.Q."""
    o = ORIGINAL
    on_xmitq = MQMD(**{**vars_of(o), "msg_id": _msg_id("QM1", 2), "correl_id": o.msg_id,
                       "format": "MQXMIT"})
    activities = [
        ("QM1", activity_group(
            appl_name="amqsput", appl_type=mqc.MQAT_UNIX, description="Application put",
            operations=[operation_group(
                mqc.MQOPER_PUT, date="2026-11-22", time="10:15:00", qmgr="QM1", md=o,
                msg_length=12, details=[
                    _s(mqc.MQCA_Q_NAME, "TARGET.Q.REMOTE"), _s(mqc.MQCACF_RESOLVED_Q_NAME, "QM2"),
                    _s(mqc.MQCA_REMOTE_Q_NAME, "TARGET.Q"), _s(mqc.MQCA_REMOTE_Q_MGR_NAME, "QM2"),
                ])])),
        ("QM1", activity_group(
            appl_name="runmqchl", appl_type=mqc.MQAT_QMGR,
            description="Sending Message Channel Agent",
            operations=[
                operation_group(mqc.MQOPER_GET, date="2026-11-22", time="10:15:01", qmgr="QM1",
                                md=on_xmitq, embedded=o, msg_length=440, details=[
                                    _s(mqc.MQCA_Q_NAME, "QM2"),
                                    _s(mqc.MQCACF_RESOLVED_Q_NAME, "QM2")]),
                operation_group(mqc.MQOPER_SEND, date="2026-11-22", time="10:15:01",
                                qmgr="QM1", md=o, msg_length=12, details=[
                                    _s(mqc.MQCA_REMOTE_Q_MGR_NAME, "QM2"),
                                    _s(mqc.MQCACH_CHANNEL_NAME, "QM1.TO.QM2", 20),
                                    Integer(mqc.MQIACH_CHANNEL_TYPE, mqc.MQCHT_SENDER),
                                    _s(mqc.MQCACH_XMIT_Q_NAME, "QM2")]),
            ])),
        ("QM2", activity_group(
            appl_name="amqrmppa", appl_type=mqc.MQAT_QMGR,
            description="Receiving Message Channel Agent",
            operations=[
                operation_group(mqc.MQOPER_RECEIVE, date="2026-11-22", time="10:15:02",
                                qmgr="QM2", md=o, msg_length=12, details=[
                                    _s(mqc.MQCACH_CHANNEL_NAME, "QM1.TO.QM2", 20),
                                    Integer(mqc.MQIACH_CHANNEL_TYPE, mqc.MQCHT_RECEIVER),
                                    _s(mqc.MQCA_REMOTE_Q_MGR_NAME, "QM1")]),
                operation_group(mqc.MQOPER_PUT, date="2026-11-22", time="10:15:02", qmgr="QM2",
                                md=o, msg_length=12, details=[
                                    _s(mqc.MQCA_Q_NAME, "TARGET.Q"),
                                    _s(mqc.MQCACF_RESOLVED_Q_NAME, "TARGET.Q")]),
            ])),
        ("QM2", activity_group(
            appl_name="amqsget", appl_type=mqc.MQAT_UNIX, description="Application get",
            operations=[operation_group(
                mqc.MQOPER_GET, date="2026-11-22", time="10:15:03", qmgr="QM2", md=o,
                msg_length=12, details=[_s(mqc.MQCA_Q_NAME, "TARGET.Q"),
                                        _s(mqc.MQCACF_RESOLVED_Q_NAME, "TARGET.Q")])])),
    ]
    out = []
    for n, (qmgr, activity) in enumerate(activities, start=10):
        md = report_descriptor(o, qmgr=qmgr, msg_id=_msg_id(qmgr, n), put_date="20261122",
                               put_time=f"101500{n:02d}")
        out.append((md, encode_report(md, activity_report(activity))))
    return out


def large_activity_report(operations: int = 100) -> tuple[MQMD, bytes]:
    """One activity report with many Put operations (a busy application's activity)."""
    o = ORIGINAL
    ops: list[Group] = [
        operation_group(mqc.MQOPER_PUT, date="2026-11-22", time="10:15:00", qmgr="QM1", md=o,
                        msg_length=12, details=[_s(mqc.MQCA_Q_NAME, f"APP.Q.{k}"),
                                                _s(mqc.MQCACF_RESOLVED_Q_NAME, f"APP.Q.{k}")])
        for k in range(operations)
    ]
    activity = activity_group(appl_name="fanout", appl_type=mqc.MQAT_UNIX,
                              description="Application put to many queues", operations=ops)
    md = report_descriptor(o, qmgr="QM1", msg_id=_msg_id("QM1", 99), put_date="20261122",
                           put_time="10150099")
    return md, encode_report(md, activity_report(activity))


def vars_of(md: MQMD) -> dict:
    """The MQMD's fields as a dict."""
    from dataclasses import asdict

    return asdict(md)
