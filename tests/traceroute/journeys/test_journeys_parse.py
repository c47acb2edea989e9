"""Activity-trace messages built from the spec decode into typed connections and calls."""

from __future__ import annotations

import struct

import pytest

from pcf import mqc
from pcf.errors import PCFError
from pcf.mqmd import unpack
from tests.traceroute.journeys.spec_build import (
    BE,
    GET,
    LE,
    OPEN,
    PUT,
    cfbs,
    cfgr,
    cfh,
    cfin,
    cfst,
    conn_id,
    gmo_struct,
    mqmd_struct,
    op,
    pmo_struct,
    trace_message,
)
from traceroute.journeys import NotActivityTrace, parse_activity_trace

M1 = b"AMQ QM1         " + bytes(range(8))


def _parse(md: bytes, data: bytes):
    return parse_activity_trace(unpack(md), data, source="t")


@pytest.mark.parametrize("order", [LE, BE])
@pytest.mark.parametrize("ebcdic", [False, True])
@pytest.mark.parametrize("shuffled", [False, True])
def test_connection_and_calls(order: str, ebcdic: bool, shuffled: bool) -> None:
    cid = conn_id("QM1", 7)
    md, data = trace_message("QM1", "amqsput", [
        op(OPEN, hobj=101, object_name="TARG.AT.QM2", resolved_q="TARGET.Q",
           resolved_qmgr="QM2", resolved_local_q="QM2", resolved_local_qmgr="QM1"),
        op(PUT, hobj=101, msg_id=M1, correl_id=bytes(24), format="MQSTR", msg_type=8,
           put_options=0x2004, msg_length=12, object_name="TARG.AT.QM2",
           resolved_q="TARGET.Q", resolved_qmgr="QM2", resolved_local_q="QM2",
           resolved_local_qmgr="QM1", time_us=1_795_000_000_123_456),
    ], order=order, ebcdic=ebcdic, conn=cid, seq=3, reverse_top=shuffled,
        reverse_members=shuffled)
    trace = _parse(md, data)
    c = trace.conn
    assert (c.qmgr, c.appl_name, c.pid, c.seq_number, c.environment, c.detail) == \
        ("QM1", "amqsput", 4242, 3, 0, 2)
    assert c.conn_id == cid and not c.is_mca
    assert c.key == ("QM1", cid.hex().upper())
    assert [x.operation for x in trace.calls] == [mqc.MQXF_OPEN, mqc.MQXF_PUT]
    put = trace.calls[1]
    assert put.op_name == "MQPUT" and put.is_put and not put.failed
    assert (put.hobj, put.msg_id, put.format, put.msg_type, put.put_options, put.msg_length) == \
        (101, M1, "MQSTR", 8, 0x2004, 12)
    assert (put.resolved_q_name, put.resolved_q_mgr, put.resolved_local_q_name) == \
        ("TARGET.Q", "QM2", "QM2")
    assert put.local_queue == "QM2"
    assert put.high_res_time == 1_795_000_000_123_456
    assert put.time is not None and put.time.year == 2026 and put.time.microsecond == 123456
    assert put.operation_date == "2026-11-23" and put.thread_id == 1
    assert put.unknown == [] and trace.conn.unknown == []


def test_mca_connection_and_xmitq_fields() -> None:
    md, data = trace_message("QM1", "runmqchl", [
        op(GET, hobj=5, msg_id=b"X" * 24, correl_id=M1, format="MQXMIT", get_options=0x4002,
           xmitq_msg_id=M1, xmitq_correl_id=bytes(24), xmitq_remote_q="TARGET.Q",
           xmitq_remote_qmgr="QM2", object_name="QM2", resolved_q="QM2"),
    ], mca=True, channel="QM1.TO.QM2", order=BE)
    trace = _parse(md, data)
    assert trace.conn.is_mca and trace.conn.channel_name == "QM1.TO.QM2"
    assert trace.conn.channel_type == 1 and trace.conn.connection_name == "127.0.0.1(1414)"
    g = trace.calls[0]
    assert g.is_get and g.is_xmit and not g.is_browse
    assert (g.xmitq_msg_id, g.xmitq_remote_q_name, g.xmitq_remote_q_mgr) == \
        (M1, "TARGET.Q", "QM2")


def test_high_level_structures_decoded() -> None:
    o = LE
    md, data = trace_message("QM2", "amqsget", [
        op(GET, hobj=1, msg_id=M1, get_options=0x10, mqmd_struct=mqmd_struct(o, msg_id=M1),
           gmo_struct=gmo_struct(o, 0x10, "TARGET.Q")),
        op(PUT, hobj=2, msg_id=M1, pmo_struct=pmo_struct(o, 0x44, "R.Q", "QM2")),
    ], order=o)
    get, put = _parse(md, data).calls
    assert get.mqmd is not None and get.mqmd.msg_id == M1 and get.mqmd.format == "MQSTR"
    assert get.gmo is not None and get.gmo.options == 0x10 and get.gmo.version == 4
    assert get.gmo.resolved_q_name == "TARGET.Q"
    assert get.is_browse  # MQGMO_BROWSE_FIRST
    assert put.pmo is not None and (put.pmo.options, put.pmo.resolved_q_name,
                                    put.pmo.resolved_q_mgr) == (0x44, "R.Q", "QM2")
    assert mqc.MQBACF_MQMD_STRUCT in get.structures


def test_unknown_parameters_and_dist_list_kept() -> None:
    dist = [(3046, "s", "A.Q"), (3023, "s", "QM1"), (7013, "b", b"D" * 24), (9999, "i", 5)]
    md, data = trace_message("QM1", "app", [
        op(PUT, hobj=1, msg_id=M1, extra=[(4711, "i", 99), (8014, "g", dist),
                                          (8014, "g", dist[:2])]),
    ], extra_top=[(4712, "s", "future")])
    trace = _parse(md, data)
    put = trace.calls[0]
    assert [p.parameter for p in put.unknown] == [4711]
    assert len(put.dist_list) == 2 and put.dist_list[0].object_name == "A.Q"
    assert put.dist_list[0].msg_id == b"D" * 24
    assert [p.parameter for p in put.dist_list[0].unknown] == [9999]
    assert [p.parameter for p in trace.conn.unknown] == [4712]


def test_repeated_identifier_first_wins_rest_kept() -> None:
    # MQPUT lists MQCACF_RESOLVED_LOCAL_Q_NAME twice in the seed: tolerate both.
    md, data = trace_message("QM1", "app", [
        op(PUT, msg_id=M1, resolved_local_q="XQ", extra=[(3195, "s", "OTHER")])])
    put = _parse(md, data).calls[0]
    assert put.resolved_local_q_name == "XQ"
    assert [p.value for p in put.unknown] == ["OTHER"]


def test_failed_call_and_callback() -> None:
    md, data = trace_message("QM1", "app", [
        op(PUT, cc=2, reason=2085, object_name="NO.SUCH.Q"),
        op(21, hobj=3, msg_id=M1, call_type=7),
    ])
    bad, cb = _parse(md, data).calls
    assert bad.failed and bad.reason == 2085 and bad.msg_id is None
    assert cb.op_name == "MQCALLBACK" and cb.is_get and cb.is_browse


def test_other_pcf_is_not_activity_trace() -> None:
    body = cfin(LE, 1, 1)
    data = cfh(LE, 1, type_=1, command=13) + body  # a command, not a trace
    with pytest.raises(NotActivityTrace):
        parse_activity_trace(None, data)


def test_no_mqmd_raw_file_still_parses() -> None:
    _, data = trace_message("QM9", "app", [op(PUT, msg_id=M1)], order=BE)
    trace = parse_activity_trace(None, data)
    assert trace.conn.qmgr == "QM9" and trace.conn.conn_id == b""
    assert trace.conn.key == ("QM9", "app/4242/")


@pytest.mark.parametrize("cut", [1, 7, 36, 40, 60, 100])
def test_truncation_is_a_pcf_error_with_offset(cut: int) -> None:
    md, data = trace_message("QM1", "app", [op(PUT, msg_id=M1, object_name="Q")])
    with pytest.raises(PCFError) as e:
        _parse(md, data[:-cut])
    assert e.value.offset is not None


def test_hand_written_bytes_minimal() -> None:
    """The smallest trace message, written out structure by structure."""
    o = BE
    group = cfgr(o, 8013, [cfin(o, 1356, 9), cfin(o, 1242, 0), cfin(o, 1254, 0),
                           cfbs(o, 7013, M1), cfst(o, 3046, "Q1", width=48)])
    data = cfh(o, 2) + cfst(o, 2015, "QMZ", width=48) + group
    assert struct.unpack_from(">i", data, 0)[0] == 26
    trace = parse_activity_trace(None, data)
    assert trace.conn.qmgr == "QMZ"
    assert trace.calls[0].msg_id == M1 and trace.calls[0].object_name == "Q1"
