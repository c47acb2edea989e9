"""Shared queues in a queue-sharing group; performance events as real PCF; what-if replay."""

from __future__ import annotations

from pcf import mqc
from pcf.mqmd import MQMD
from tests.traceroute.events.events_spec import cfh, cfin, cfst
from traceroute.display.amqsevt import to_json
from traceroute.events import decode_event
from traceroute.events.build import event_message, perf_event
from traceroute.events.engine import Failure, PerfEvent, QueueAttrs, QueueManagerEngine
from traceroute.events.qsg import SharedQueue
from traceroute.events.replay import Estate, Op, OpError, parse_ops, replay
from traceroute.sim.mqsc import parse_mqsc

DHIGH, DLOW = mqc.MQRC_Q_DEPTH_HIGH, mqc.MQRC_Q_DEPTH_LOW


def test_seed_sq1_lq1_depth_events_toggle_on_shared_queues_without_perfmev() -> None:
    """QM1 PERFMEV(DISABLED); SQ1 shared, LQ1 not; both QDPHIEV(ENABLED) QDPLOEV(DISABLED)
    QDPMAXEV(DISABLED). At QDEPTHHI SQ1 switches (High off, Low and Full on), LQ1 stays."""
    attrs = {"depth_high_event": True, "depth_low_event": False, "depth_max_event": False,
             "max_depth": 100}
    sq1 = SharedQueue(QueueAttrs("SQ1", shared=True, **attrs), {"QM1": False})
    qm1 = QueueManagerEngine("QM1", [QueueAttrs("LQ1", **attrs)], perfmev=False)
    assert sq1.put(1000, "QM1", 80) == [] and qm1.put(1000, "LQ1", 80) == []
    assert sq1.enabled == {"high": False, "low": True, "full": True}
    assert qm1.snapshot("LQ1").enabled == {"high": True, "low": False, "full": False}
    qm1.perfmev = True   # until PERFMEV is ENABLED, then LQ1 acts on its own next put
    assert [e.reason for e in qm1.put(2000, "LQ1") if isinstance(e, PerfEvent)] == [DHIGH]


def test_coordinator_and_broadcast_one_message_per_active_perfmev_member() -> None:
    sq = SharedQueue(QueueAttrs("SQ1", max_depth=100, depth_high_event=True,
                                depth_low_event=True, shared=True),
                     {"QM1": True, "QM2": True, "QM3": False, "QM4": True})
    sq.set_active("QM4", False)
    sq.put(1000, "QM2", 30)
    sq.get(2000, "QM2", 5)
    events = [e for e in sq.put(5000, "QM1", 55) if isinstance(e, PerfEvent)]
    # QM1 detected it (coordinator, first); QM2 answers; QM3 PERFMEV off; QM4 inactive
    assert [(e.qmgr, e.reason, e.high_q_depth, e.msg_enq_count, e.msg_deq_count)
            for e in events] == [("QM1", DHIGH, 80, 55, 0), ("QM2", DHIGH, 30, 30, 5)]
    assert len({e.correl_id for e in events}) == 1 and events[0].correl_id.startswith(b"AMQ QM1")
    # the next set: QM2 idle since -> a "null" message, under the new coordinator's CorrelId
    later = [e for e in sq.get(9000, "QM1", 60) if isinstance(e, PerfEvent)]
    assert [(e.qmgr, e.reason, e.msg_enq_count, e.msg_deq_count, e.high_q_depth)
            for e in later] == [("QM1", DLOW, 0, 60, 0), ("QM2", DLOW, 0, 0, 0)]
    assert later[0].correl_id != events[0].correl_id
    assert later[1].time_since_reset == 4


def test_perf_event_message_is_real_pcf_and_matches_a_struct_built_one() -> None:
    ev = PerfEvent(1_785_064_699_000, "NHARAPP", "EVT.HI", mqc.MQRC_Q_FULL, 0, 5, 1, 0)
    md, data = event_message(perf_event(ev))
    assert isinstance(md, MQMD) and md.format == "MQEVENT" and md.reply_to_q_mgr == "NHARAPP"
    params = [cfst(mqc.MQCA_Q_MGR_NAME, "NHARAPP"), cfst(mqc.MQCA_BASE_OBJECT_NAME, "EVT.HI"),
              cfin(35, 0), cfin(36, 5), cfin(37, 1), cfin(38, 0)]
    assert data == cfh(45, 2053, 6) + b"".join(params)
    back = decode_event(data, md)
    assert to_json(back)["eventData"] == {"queueMgrName": "NHARAPP", "baseObjectName": "EVT.HI",
                                          "timeSinceReset": 0, "highQueueDepth": 5,
                                          "msgEnqCount": 1, "msgDeqCount": 0}
    assert to_json(back)["eventCreation"] == {"timeStamp": "2026-07-26T11:18:19Z",
                                              "epoch": 1785064699}


MQSC = """
ALTER QMGR PERFMEV(ENABLED)
DEFINE QLOCAL(APP.IN) MAXDEPTH(10) QDEPTHHI(50) QDPHIEV(ENABLED) QDEPTHLO(10) QDPLOEV(ENABLED)
DEFINE QLOCAL(APP.SLOW) QSVCINT(2000) QSVCIEV(HIGH)
"""


def test_parse_ops_reports_bad_lines() -> None:
    text = ["time_ms,qmgr,queue,op,count", "0,QM1,APP.IN,PUT,3", "x,QM1,A,PUT",
            "5,QM1,,GET", "6,QM1,,RESTART", "7,QM1,A,JUMP", ""]
    out = list(parse_ops(text))
    assert out[0] == Op(0, "QM1", "APP.IN", "PUT", 3, 2)
    assert [(o.line, type(o).__name__) for o in out] == [
        (2, "Op"), (3, "OpError"), (4, "OpError"), (5, "Op"), (6, "OpError")]
    assert isinstance(next(iter(parse_ops(["a,b"]))), OpError)


def test_replay_from_mqsc() -> None:
    estate = Estate.from_network(parse_mqsc(MQSC, qmgr="QM1"))
    ops = [o for o in parse_ops([
        "time_ms,qmgr,queue,op,count",
        "1000,QM1,APP.IN,PUT,5", "2000,QM1,APP.IN,PUT,6", "3000,QM1,APP.IN,GET,10",
        "3500,QM1,APP.IN,GET", "0,QM1,APP.SLOW,PUT", "4000,QM1,APP.SLOW,GET",
        "5000,QM1,,RESTART"]) if isinstance(o, Op)]
    pairs = list(replay(estate, ops))
    out = [o for _, o in pairs]
    assert [op.line for op, o in pairs if isinstance(o, Failure)] == [3, 5]
    events = [(o.time_ms, o.queue, o.reason, o.time_since_reset, o.high_q_depth,
               o.msg_enq_count, o.msg_deq_count) for o in out if isinstance(o, PerfEvent)]
    assert events == [
        (1000, "APP.IN", DHIGH, 1, 5, 5, 0),
        (2000, "APP.IN", mqc.MQRC_Q_FULL, 1, 10, 5, 0),  # QDPMAXEV defaults to ENABLED
        (3000, "APP.IN", DLOW, 1, 10, 0, 9),   # depth 1 = 10 % after the 9th get
        (4000, "APP.SLOW", mqc.MQRC_Q_SERVICE_INTERVAL_HIGH, 4, 1, 1, 1),
    ]
    failures = [(o.time_ms, o.reason) for o in out if isinstance(o, Failure)]
    assert failures == [(2000, mqc.MQRC_Q_FULL), (3500, mqc.MQRC_NO_MSG_AVAILABLE)]
