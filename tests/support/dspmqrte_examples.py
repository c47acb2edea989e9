"""The four documented dspmqrte examples (QM1 -> QM2), rebuilt as the messages MQ writes.

Topology: QM1 has remote queue TARG.AT.QM2 -> TARGET.Q on QM2 over xmitq QM2 and channel
QM1.TO.QM2. The trace-route message has MsgId ...1502 and CorrelId ...1503; on the
transmission queue it has MsgId ...1505 (ordering-and-display.md §8).
"""

from __future__ import annotations

from dataclasses import replace

from pcf import mqc
from pcf.model import Group, Header, Integer, Message, String
from pcf.mqmd import MQMD
from traceroute.records.build import (
    REPORT_CCSID,
    activity_group,
    activity_report,
    encode_report,
    operation_group,
    report_descriptor,
)
from traceroute.records.tracemsg import trace_route_group

PREFIX = bytes.fromhex("414D51204C4152474551202020202020A3C91542200015")
TRACE_MSG_ID = PREFIX + b"\x02"
TRACE_CORREL_ID = PREFIX + b"\x03"
XMITQ_MSG_ID = PREFIX + b"\x05"
DSPMQRTE = "cann\\output\\bin\\dspmqrte.exe"
SENDER = "cann\\output\\bin\\runmqchl.EXE"
RECEIVER = "cann\\output\\bin\\AMQRMPPA.EXE"


def _s(pid: int, value: str, width: int = 48) -> String:
    return String(pid, value, REPORT_CCSID, width)


def trace_md(*, report: int = mqc.MQRO_ACTIVITY | mqc.MQRO_DISCARD_MSG,
             msg_type: int = mqc.MQMT_DATAGRAM, reply_q: str = "ACTIV.REPLY.Q") -> MQMD:
    """The trace-route message's descriptor as dspmqrte puts it."""
    return MQMD(report=report, msg_type=msg_type, expiry=600, format="MQADMIN",
                persistence=mqc.MQPER_NOT_PERSISTENT, msg_id=TRACE_MSG_ID,
                correl_id=TRACE_CORREL_ID, reply_to_q=reply_q, reply_to_q_mgr="QM1",
                put_appl_type=mqc.MQAT_WINDOWS_NT, put_appl_name="dspmqrte.exe")


def activities(md: MQMD, *, recorded: int = 0, accumulate: int = mqc.MQROUTE_ACCUMULATE_NONE
               ) -> list[tuple[str, Group]]:
    """(queue manager, Activity group) of the three activities, with counters 1, 2, 3."""
    on_xmitq = replace(md, msg_id=XMITQ_MSG_ID, correl_id=TRACE_MSG_ID, format="MQXMIT")

    def tr(n: int) -> Group:
        return trace_route_group(recorded_activities=recorded + n, accumulate=accumulate)

    put = activity_group(
        appl_name=DSPMQRTE, appl_type=mqc.MQAT_WINDOWS_NT, description="Display Route "
        "Application", trace_route=tr(1), operations=[operation_group(
            mqc.MQOPER_PUT, date="2026-11-22", time="10:00:00", qmgr="QM1", md=md,
            msg_length=180, details=[
                _s(mqc.MQCA_Q_NAME, "TARG.AT.QM2"), _s(mqc.MQCACF_RESOLVED_Q_NAME, "QM2"),
                _s(mqc.MQCA_REMOTE_Q_NAME, "TARGET.Q"), _s(mqc.MQCA_REMOTE_Q_MGR_NAME, "QM2")])])
    send = activity_group(
        appl_name=SENDER, appl_type=mqc.MQAT_QMGR, description="Sending Message Channel Agent",
        trace_route=tr(2), operations=[
            operation_group(mqc.MQOPER_GET, date="2026-11-22", time="10:00:01", qmgr="QM1",
                            md=on_xmitq, embedded=md, msg_length=608, details=[
                                _s(mqc.MQCA_Q_NAME, "QM2"),
                                _s(mqc.MQCACF_RESOLVED_Q_NAME, "QM2")]),
            operation_group(mqc.MQOPER_SEND, date="2026-11-22", time="10:00:01", qmgr="QM1",
                            md=md, msg_length=180, details=[
                                _s(mqc.MQCA_REMOTE_Q_MGR_NAME, "QM2"),
                                _s(mqc.MQCACH_CHANNEL_NAME, "QM1.TO.QM2", 20),
                                Integer(mqc.MQIACH_CHANNEL_TYPE, mqc.MQCHT_SENDER),
                                _s(mqc.MQCACH_XMIT_Q_NAME, "QM2")])])
    receive = activity_group(
        appl_name=RECEIVER, appl_type=mqc.MQAT_QMGR,
        description="Receiving Message Channel Agent", trace_route=tr(3), operations=[
            operation_group(mqc.MQOPER_RECEIVE, date="2026-11-22", time="09:59:58",
                            qmgr="QM2", md=None, details=[
                                _s(mqc.MQCA_REMOTE_Q_MGR_NAME, "QM1"),
                                _s(mqc.MQCACH_CHANNEL_NAME, "QM1.TO.QM2", 20),
                                Integer(mqc.MQIACH_CHANNEL_TYPE, mqc.MQCHT_RECEIVER)]),
            operation_group(mqc.MQOPER_DISCARD, date="2026-11-22", time="09:59:58",
                            qmgr="QM2", md=None, details=[
                                _s(mqc.MQCA_Q_NAME, "TARGET.Q"),
                                Integer(mqc.MQIACF_FEEDBACK, mqc.MQFB_NOT_DELIVERED)])])
    return [("QM1", put), ("QM1", send), ("QM2", receive)]


def reports(md: MQMD, which: list[int], *, encoding: int = mqc.MQENC_REVERSED,
            ccsid: int = REPORT_CCSID) -> list[tuple[MQMD, bytes]]:
    """Activity reports (MQMD, data) for the activities numbered in `which` (0-based)."""
    out = []
    acts = activities(md)
    for n in which:
        qmgr, group = acts[n]
        rmd = report_descriptor(md, qmgr=qmgr, msg_id=PREFIX + bytes([0x10 + n]),
                                put_date="20261122", put_time="10000000", encoding=encoding)
        rmd = replace(rmd, coded_char_set_id=ccsid)
        out.append((rmd, encode_report(rmd, activity_report(group))))
    return out


def reply(md: MQMD) -> tuple[MQMD, bytes]:
    """Example 2's trace-route reply from QM2: all three activities accumulated."""
    acc = mqc.MQROUTE_ACCUMULATE_AND_REPLY
    groups = [g for _, g in activities(md, accumulate=acc)]
    top = trace_route_group(recorded_activities=3, accumulate=acc)
    rmd = replace(report_descriptor(md, qmgr="QM2", msg_id=PREFIX + b"\x20",
                                    put_date="20261122", put_time="10000000"),
                  msg_type=mqc.MQMT_REPLY, feedback=mqc.MQFB_NONE, format="MQADMIN",
                  encoding=md.encoding, coded_char_set_id=REPORT_CCSID)
    msg = Message(Header(mqc.MQCFT_TRACE_ROUTE, mqc.MQCMD_TRACE_ROUTE), [top, *groups],
                  encoding=rmd.encoding, ccsid=REPORT_CCSID)
    return rmd, encode_report(rmd, msg)


SUMMARY = """\
AMQ8666: Queue 'QM2' on queue manager 'QM1'.
AMQ8666: Queue 'TARGET.Q' on queue manager 'QM2'."""

EXAMPLE3 = """\
-----
Activity:
  ApplName: 'cann\\output\\bin\\dspmqrte.exe'

  Operation:
    OperationType: Put
    Message:
      MQMD:
        MsgId: X'414D51204C4152474551202020202020A3C9154220001502'
        CorrelId: X'414D51204C4152474551202020202020A3C9154220001503'
    QMgrName: 'QM1'
    QName: 'TARG.AT.QM2'
    ResolvedQName: 'QM2'
    RemoteQName: 'TARGET.Q'
    RemoteQMgrName: 'QM2'
-----
Activity:
  ApplName: 'cann\\output\\bin\\runmqchl.EXE'

  Operation:
    OperationType: Get
    Message:
      MQMD:
        MsgId: X'414D51204C4152474551202020202020A3C9154220001505'
        CorrelId: X'414D51204C4152474551202020202020A3C9154220001502'
      EmbeddedMQMD:
        MsgId: X'414D51204C4152474551202020202020A3C9154220001502'
        CorrelId: X'414D51204C4152474551202020202020A3C9154220001503'
    QMgrName: 'QM1'
    QName: 'QM2'
    ResolvedQName: 'QM2'

  Operation:
    OperationType: Send
    Message:
      MQMD:
        MsgId: X'414D51204C4152474551202020202020A3C9154220001502'
        CorrelId: X'414D51204C4152474551202020202020A3C9154220001503'
    QMgrName: 'QM1'
    RemoteQMgrName: 'QM2'
    ChannelName: 'QM1.TO.QM2'
    ChannelType: Sender
    XmitQName: 'QM2'
-----"""

EXAMPLE3_FOLLOW_UP = """\
-----
Activity:
  Activity information unavailable.
-----
Activity:
  ApplName: 'cann\\output\\bin\\AMQRMPPA.EXE'

  Operation:
    OperationType: Receive
    QMgrName: 'QM2'
    RemoteQMgrName: 'QM1'
    ChannelName: 'QM1.TO.QM2'
    ChannelType: Receiver

  Operation:
    OperationType: Discard
    QMgrName: 'QM2'
    QName: 'TARGET.Q'
    Feedback: NotDelivered
-----"""

EXAMPLE4 = """\
-----
Activity:
  ApplName: 'cann\\output\\bin\\dspmqrte.exe'

  Operation:
    OperationType: Put
    QMgrName: 'QM1'
    QName: 'TARG.AT.QM2'
    ResolvedQName: 'QM2'
    RemoteQName: 'TARGET.Q'
    RemoteQMgrName: 'QM2'
-----"""


def write_example_dump(path, which: tuple[int, ...] = (0, 1, 2)):
    """IBM's example activity reports (`which` of them) as a dmpmqmsg dump at `path`."""
    from pcf import dmpmqmsg

    path.write_text(dmpmqmsg.write([dmpmqmsg.DumpedMessage(md, d)
                                    for md, d in reports(trace_md(), list(which))]),
                    encoding="latin-1")
    return path
