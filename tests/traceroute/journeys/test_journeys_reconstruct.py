"""Journeys from spec-built activity trace: every verdict, multi-hop, clusters, gaps."""

from __future__ import annotations

import random

import pytest

from pcf.mqmd import unpack
from tests.traceroute.journeys.scenarios import (
    M,
    app_get,
    app_put,
    mca_get,
    mca_put,
    qm1_to_qm2,
)
from tests.traceroute.journeys.spec_build import BE, LE
from traceroute.journeys import parse_activity_trace
from traceroute.journeys.reconstruct import reconstruct
from traceroute.journeys.verdict import JourneyVerdict as V
from traceroute.journeys.verdict import Location, exit_status


def follow(messages):
    traces = [parse_activity_trace(unpack(md), data, source="t") for md, data in messages]
    return reconstruct(traces)


def one(messages):
    result = follow(messages)
    assert len(result.journeys) == 1, [j.to_dict() for j in result.journeys]
    return result.journeys[0]


@pytest.mark.parametrize(("order2", "ebcdic2"), [(LE, False), (BE, False), (BE, True)])
def test_consumed_across_two_queue_managers(order2: str, ebcdic2: bool) -> None:
    j = one(qm1_to_qm2(order2=order2, ebcdic2=ebcdic2))
    assert j.verdict == V.CONSUMED and j.msg_id == M
    assert [(s.call.qmgr, s.role, s.queue, s.channel) for s in j.steps] == [
        ("QM1", "put", "QM2", None), ("QM1", "mca_get", "QM2", "QM1.TO.QM2"),
        ("QM2", "mca_put", "TARGET.Q", "QM1.TO.QM2"), ("QM2", "get", "TARGET.Q", None)]
    assert j.last_location == Location("QM2", "TARGET.Q")
    assert j.hops == 1 and j.applications == ["amqsput", "amqsget"]
    d = j.to_dict()
    assert d["msg_id"] == M.hex().upper() and len(d["msg_id"]) == 48
    assert [p["operation"] for p in d["path"]] == ["MQPUT", "MQGET", "MQPUT1", "MQGET"]
    assert d["path"][0]["object_name"] == "TARG.AT.QM2"
    assert d["path"][0]["time"] == "2026-11-18T11:06:40Z"
    assert d["path"][1]["time"] == "2026-11-18T11:06:40.001000Z"
    assert set(d["path"][0]) == {"queue_manager", "operation", "queue", "object_name",
                                 "channel", "appl_name", "conn_id", "time", "comp_code",
                                 "reason"}
    assert d["last_location"] == {"queue_manager": "QM2", "queue": "TARGET.Q", "channel": None}
    assert d["reply_to"] is None and d["notes"] == []


def test_input_order_does_not_matter() -> None:
    messages = qm1_to_qm2()
    expected = one(messages).to_dict()
    for seed in range(5):
        shuffled = list(messages)
        random.Random(seed).shuffle(shuffled)
        assert one(shuffled).to_dict() == expected


def test_on_queue_and_browse_is_not_consumption() -> None:
    j = one([app_put("QM1", "LQ"), *app_get("QM1", "LQ", browse=True, t=5)])
    assert j.verdict == V.ON_QUEUE and j.last_location == Location("QM1", "LQ")
    assert [s.role for s in j.steps] == ["put", "browse"]


def test_on_xmitq_when_no_mca_get() -> None:
    j = one([app_put("QM1", "TARG.AT.QM2", target_qmgr="QM2", xmitq="QM2")])
    assert j.verdict == V.ON_XMITQ and j.last_location == Location("QM1", "QM2")
    assert exit_status([j.verdict]) == 4


def test_in_transit_when_no_put_on_the_next_qmgr() -> None:
    j = one(qm1_to_qm2()[:2])
    assert j.verdict == V.IN_TRANSIT
    assert j.last_location == Location("QM1", "QM2", "QM1.TO.QM2")
    assert j.to_dict()["last_location"]["channel"] == "QM1.TO.QM2"


def test_dead_lettered_by_the_receiving_mca() -> None:
    msgs = [*qm1_to_qm2(consumed=False)[:2],
            mca_put("QM2", "SYSTEM.DEAD.LETTER.QUEUE", "QM1.TO.QM2", dead=True, t=2000)]
    j = one(msgs)
    assert j.verdict == V.DEAD_LETTERED
    assert j.last_location == Location("QM2", "SYSTEM.DEAD.LETTER.QUEUE")
    assert exit_status([j.verdict, V.ON_XMITQ]) == 5


def test_failed_mca_put_then_dead_letter() -> None:
    msgs = [*qm1_to_qm2(consumed=False)[:2],
            mca_put("QM2", "TARGET.Q", "QM1.TO.QM2", cc=2, reason=2053, t=2000, n=61),
            mca_put("QM2", "SYSTEM.DEAD.LETTER.QUEUE", "QM1.TO.QM2", dead=True, t=2100, n=62)]
    j = one(msgs)
    assert j.verdict == V.DEAD_LETTERED
    assert [s.role for s in j.steps][-2:] == ["failed_put", "dlq_put"]
    assert j.steps[-2].call.reason == 2053


def test_put_failed_reason_is_the_answer() -> None:
    result = follow([app_put("QM1", "NO.SUCH.Q", cc=2, reason=2085)])
    (j,) = result.journeys
    assert j.verdict == V.PUT_FAILED and j.steps[0].call.reason == 2085
    assert j.last_location == Location("QM1", "NO.SUCH.Q")
    assert j.to_dict()["path"][0]["comp_code"] == 2
    assert exit_status([j.verdict, V.DEAD_LETTERED, V.CONSUMED]) == 6


def test_incomplete_when_records_missing_in_between() -> None:
    # QM1's sending MCA was not traced: the put on QM2 is seen, nothing consumes it.
    msgs = [qm1_to_qm2()[0], qm1_to_qm2()[2]]
    j = one(msgs)
    assert j.verdict == V.INCOMPLETE
    assert j.last_location == Location("QM2", "TARGET.Q")
    assert any("records missing" in n for n in j.notes)
    assert exit_status([j.verdict]) == 3


def test_gap_but_consumed_stays_consumed_with_a_note() -> None:
    msgs = [qm1_to_qm2()[0], *qm1_to_qm2()[3:]]
    j = one(msgs)
    assert j.verdict == V.CONSUMED and any("records missing" in n for n in j.notes)


def test_multi_hop_through_an_intermediate_queue_manager() -> None:
    msgs = [app_put("QM1", "TO.QM3", target_qmgr="QM3", xmitq="QM2"),
            mca_get("QM1", "QM2", "QM1.TO.QM2", "QM3", "FINAL.Q", t=10),
            mca_put("QM2", "FINAL.Q", "QM1.TO.QM2", target_qmgr="QM3", xmitq="QM3", t=20),
            mca_get("QM2", "QM3", "QM2.TO.QM3", "QM3", "FINAL.Q", t=30, n=51),
            mca_put("QM3", "FINAL.Q", "QM2.TO.QM3", t=40, n=61),
            *app_get("QM3", "FINAL.Q", t=50)]
    j = one(msgs)
    assert j.verdict == V.CONSUMED and j.hops == 2
    assert [s.call.qmgr for s in j.steps] == ["QM1", "QM1", "QM2", "QM2", "QM3", "QM3"]
    assert j.last_location == Location("QM3", "FINAL.Q")
    stuck = one(msgs[:3])
    assert stuck.verdict == V.ON_XMITQ and stuck.last_location == Location("QM2", "QM3")


def test_cluster_queue_via_the_cluster_transmission_queue() -> None:
    xq = "SYSTEM.CLUSTER.TRANSMIT.QUEUE"
    msgs = [app_put("QM1", "CQ", target_qmgr="QM3", xmitq=xq),
            mca_get("QM1", xq, "TO.QM3", "QM3", "CQ", t=10),
            mca_put("QM3", "CQ", "TO.QM3", t=20), *app_get("QM3", "CQ", t=30)]
    j = one(msgs)
    assert j.verdict == V.CONSUMED and j.steps[1].channel == "TO.QM3"


@pytest.mark.parametrize(("msg_type", "conn", "seq"), [(2, 3, 0), (8, 2, 1)])
def test_reply_is_linked_to_its_request(msg_type: int, conn: int, seq: int) -> None:
    # MsgType REPLY from anyone, or any message from the connection that consumed M
    reply_id = b"AMQ QM2         \x99\x99\x99\x99\x00\x00\x00\x07"
    msgs = [app_put("QM1", "LQ", t=0), *app_get("QM1", "LQ", t=10, appl="server"),
            app_put("QM1", "REPLY.Q", reply_id, correl_id=M, msg_type=msg_type, n=conn,
                    seq=seq, t=20)]
    result = follow(msgs)
    by_id = {j.msg_id: j for j in result.journeys}
    assert by_id[reply_id].reply_to == M and by_id[M].reply_to is None
    assert by_id[reply_id].to_dict()["reply_to"] == M.hex().upper()


def test_records_of_one_connection_split_across_messages() -> None:
    msgs = [app_put("QM1", "LQ"), *app_get("QM1", "LQ", split=True, t=5)]
    j = one(msgs)
    assert j.verdict == V.CONSUMED and j.steps[-1].queue == "LQ"  # from the MQOPEN's handle


def test_duplicates_and_seqnumber_holes() -> None:
    put = app_put("QM1", "LQ")
    late = app_put("QM1", "LQ", b"AMQ QM1         \x00\x00\x00\x00\x00\x00\x00\x02", seq=3,
                   t=99)
    result = follow([put, put, late])
    assert result.duplicates == 1
    key = ("QM1", next(iter(result.holes))[1])
    assert result.holes[key] == [(1, 2)]
    assert any("SeqNumber 1-2" in n for n in result.notes())
    assert all(any("SeqNumber 1-2" in n for n in j.notes) for j in result.journeys)


def test_original_put_not_traced() -> None:
    j = one(qm1_to_qm2()[2:])
    assert j.verdict == V.CONSUMED and any("not traced" in n for n in j.notes)
    j = one(qm1_to_qm2()[2:3])
    assert j.verdict == V.INCOMPLETE and j.last_location == Location("QM2", "TARGET.Q")


def test_clock_skew_is_noted_not_trusted() -> None:
    j = one(qm1_to_qm2(skew=-5_000_000))
    assert j.verdict == V.CONSUMED
    assert any("clock skew" in n and "QM2" in n for n in j.notes)


def test_mqput1_by_an_application() -> None:
    j = one([app_put("QM1", "LQ", put1=True), *app_get("QM1", "LQ", t=3)])
    assert j.verdict == V.CONSUMED and j.to_dict()["path"][0]["operation"] == "MQPUT1"


def test_exit_status_order() -> None:
    assert exit_status([]) == 0
    assert exit_status([V.CONSUMED, V.ON_QUEUE]) == 0
    assert exit_status([V.IN_TRANSIT]) == 3
    assert exit_status([V.PUT_FAILED], unreadable=True) == 1


def test_unrelated_datagram_with_the_same_correl_id_is_not_a_reply() -> None:
    other = b"AMQ QM1         \x55\x55\x55\x55\x00\x00\x00\x09"
    msgs = [app_put("QM1", "LQ", t=0), *app_get("QM1", "LQ", t=10),
            app_put("QM1", "LQ2", other, correl_id=M, msg_type=8, n=4, t=20)]
    assert all(j.reply_to is None for j in follow(msgs).journeys)


def test_distribution_list_put_is_one_journey_per_queue() -> None:
    from tests.traceroute.journeys.spec_build import OPEN, PUT, op, trace_message

    m2 = b"AMQ QM1         \x11\x22\x33\x44\x00\x00\x00\x05"
    dl_open = [(8014, "g", [(3046, "s", "LQ"), (3023, "s", "")]),
               (8014, "g", [(3046, "s", "TARGET.Q"), (3023, "s", "QM2")]),
               (8014, "g", [(3046, "s", "NOPE"), (3023, "s", "")])]
    dl_put = [(8014, "g", [(7013, "b", M)]), (8014, "g", [(7013, "b", m2)]),
              (8014, "g", [(1242, "i", 2), (1254, "i", 2085)])]
    put = trace_message("QM1", "amqsdl", [
        op(OPEN, hobj=4, extra=dl_open),
        op(PUT, hobj=4, cc=1, reason=2136, put_options=0, extra=dl_put)])
    msgs = [put, *app_get("QM1", "LQ"),
            mca_get("QM1", "QM2", "QM1.TO.QM2", "QM2", "TARGET.Q", m2, t=10),
            mca_put("QM2", "TARGET.Q", "QM1.TO.QM2", m2, t=20),
            *app_get("QM2", "TARGET.Q", m2, t=30, n=3)]
    result = follow(msgs)
    verdicts = sorted((j.msg_id, str(j.verdict), j.last_location) for j in result.journeys)
    assert verdicts == sorted([(M, "consumed", Location("QM1", "LQ")),
                               (m2, "consumed", Location("QM2", "TARGET.Q")),
                               (bytes(24), "put_failed", Location("QM1", "NOPE"))])
