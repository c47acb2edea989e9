"""The simulator writes performance, channel and configuration events as real PCF messages."""

from __future__ import annotations

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.display.amqsevt import to_json
from traceroute.events import decode_event, pair_changes
from traceroute.sim import Simulator, parse_mqsc
from traceroute.sim.events import SimEvents

QM1 = """
ALTER QMGR CHLEV(ENABLED) CONFIGEV(ENABLED)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE QREMOTE(TARG) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2host(1414)') XMITQ(QM2)
"""
QM2 = """
ALTER QMGR PERFMEV(ENABLED)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)
DEFINE QLOCAL(APP.IN) MAXDEPTH(10) QDEPTHHI(50) QDPHIEV(ENABLED) QSVCINT(1000) QSVCIEV(HIGH)
"""


def network():
    net = parse_mqsc(QM1, qmgr="QM1")
    return parse_mqsc(QM2, qmgr="QM2", network=net)


def _on_queue(sim: Simulator, qmgr: str, queue: str) -> list:
    out = []
    while (got := sim.get(qmgr, queue, appl_name="amqsevt")) is not None:
        md, data = got
        out.append(decode_event(data, md, queue=queue))
    return out


def test_performance_events_from_the_traffic_of_a_network() -> None:
    sim = Simulator(network())
    watcher = SimEvents(sim)
    for _ in range(5):
        sim.put("QM1", "TARG", MQMD(format="MQSTR"), b"hello")
    sim.run()
    assert sim.depth("QM2", "APP.IN") == 5
    events = _on_queue(sim, "QM2", "SYSTEM.ADMIN.PERFM.EVENT")
    assert [e.reason for e in events] == [mqc.MQRC_Q_DEPTH_HIGH]
    data = to_json(events[0])["eventData"]
    assert data == {"queueMgrName": "QM2", "baseObjectName": "APP.IN", "timeSinceReset": 0,
                    "highQueueDepth": 5, "msgEnqCount": 5, "msgDeqCount": 0}
    # a consumer arrives 3 s later: the first get is past the 1 s service interval
    sim.run(until=sim.now + 3)
    assert sim.get("QM2", "APP.IN", appl_name="consumer") is not None
    (high,) = _on_queue(sim, "QM2", "SYSTEM.ADMIN.PERFM.EVENT")
    assert high.reason == mqc.MQRC_Q_SERVICE_INTERVAL_HIGH and high.get(38) == 1
    # the next gets come within the interval: Service Interval OK (the switch flipped to
    # OK with the High event), data as IBM lists it for every performance event
    sim.run(until=sim.now + 0.5)
    assert sim.get("QM2", "APP.IN", appl_name="consumer") is not None
    (ok,) = _on_queue(sim, "QM2", "SYSTEM.ADMIN.PERFM.EVENT")
    assert ok.reason == mqc.MQRC_Q_SERVICE_INTERVAL_OK
    assert [p.parameter for p in ok.data] == [
        mqc.MQCA_Q_MGR_NAME, mqc.MQCA_BASE_OBJECT_NAME, mqc.MQIA_TIME_SINCE_RESET,
        mqc.MQIA_HIGH_Q_DEPTH, mqc.MQIA_MSG_ENQ_COUNT, mqc.MQIA_MSG_DEQ_COUNT]
    assert to_json(ok)["eventData"] == {
        "queueMgrName": "QM2", "baseObjectName": "APP.IN", "timeSinceReset": 0,
        "highQueueDepth": 4, "msgEnqCount": 0, "msgDeqCount": 1}
    # QM1 has PERFMEV disabled (MQ's default): its transmission queue raised nothing
    assert _on_queue(sim, "QM1", "SYSTEM.ADMIN.PERFM.EVENT") == []
    assert len(watcher.events) == 3 + 1  # + Channel Started on QM1


def test_channel_started_and_stopped_by_user() -> None:
    sim = Simulator(network())
    SimEvents(sim)
    sim.put("QM1", "TARG", MQMD(format="MQSTR"), b"x")
    sim.run()
    sim.stop_channel("QM1", "QM1.TO.QM2")
    events = _on_queue(sim, "QM1", "SYSTEM.ADMIN.CHANNEL.EVENT")
    # the instance ends (Channel Stopped, AMQ9528 user requested closure), then the
    # command's Channel Stopped By User
    assert [(e.reason, e.object_name) for e in events] == [
        (mqc.MQRC_CHANNEL_STARTED, "QM1.TO.QM2"), (mqc.MQRC_CHANNEL_STOPPED, "QM1.TO.QM2"),
        (mqc.MQRC_CHANNEL_STOPPED_BY_USER, "QM1.TO.QM2")]
    assert to_json(events[2])["eventData"]["reasonQualifier"] == "Channel Stopped Disabled"
    assert to_json(events[1])["eventData"]["errorId"] == "0x10009528"
    assert to_json(events[0])["eventData"]["xmitQueueName"] == "QM2"


def test_configuration_events_define_alter_delete_refresh() -> None:
    sim = Simulator(network())
    watcher = SimEvents(sim)
    raised = watcher.mqsc("DEFINE QLOCAL(NEW.Q) MAXDEPTH(100)\n"
                          "ALTER QLOCAL(NEW.Q) MAXDEPTH(200) QDPHIEV(ENABLED)\n"
                          "DELETE QLOCAL(NEW.Q)\n"
                          "REFRESH QMGR TYPE(CONFIGEV) OBJECT(QREMOTE)\n", "QM1")
    on_queue = _on_queue(sim, "QM1", "SYSTEM.ADMIN.CONFIG.EVENT")
    assert [e.reason for e in on_queue] == [e.reason for e in raised] == [
        mqc.MQRC_CONFIG_CREATE_OBJECT, mqc.MQRC_CONFIG_CHANGE_OBJECT,
        mqc.MQRC_CONFIG_CHANGE_OBJECT, mqc.MQRC_CONFIG_DELETE_OBJECT,
        mqc.MQRC_CONFIG_REFRESH_OBJECT]
    (pair,) = pair_changes(on_queue)
    assert pair.before.object_state == "Before Change"
    assert pair.changed == {mqc.MQIA_MAX_Q_DEPTH: (100, 200),
                            mqc.MQIA_Q_DEPTH_HIGH_EVENT: (mqc.MQEVR_DISABLED,
                                                              mqc.MQEVR_ENABLED)}
    assert pair.before.correl_id == pair.after.correl_id
    assert to_json(on_queue[0])["eventData"]["queueType"] == "Local"
    assert on_queue[-1].object_name == "TARG"
    # QM2 has CONFIGEV disabled: nothing
    assert watcher.mqsc("DEFINE QLOCAL(OTHER)\n", "QM2") == []
    # the new queue is watched by the performance engine from now on
    watcher.mqsc("ALTER QMGR PERFMEV(ENABLED)\nDEFINE QLOCAL(WATCHED) MAXDEPTH(2) "
                 "QDPHIEV(ENABLED)\n", "QM1")
    for _ in range(2):
        sim.put("QM1", "WATCHED", MQMD(format="MQSTR"), b"1")
    assert [e.reason for e in _on_queue(sim, "QM1", "SYSTEM.ADMIN.PERFM.EVENT")] == [
        mqc.MQRC_Q_DEPTH_HIGH]


def test_a_put_inhibited_event_queue_loses_the_event_but_the_state_toggles() -> None:
    net = parse_mqsc(QM2 + "ALTER QLOCAL(SYSTEM.ADMIN.PERFM.EVENT) PUT(DISABLED)\n",
                     qmgr="QM2")
    sim = Simulator(net)
    watcher = SimEvents(sim)
    for _ in range(5):
        sim.put("QM2", "APP.IN", MQMD(format="MQSTR"), b"x")
    assert [e.reason for e in watcher.lost] == [mqc.MQRC_Q_DEPTH_HIGH]
    assert sim.depth("QM2", "SYSTEM.ADMIN.PERFM.EVENT") == 0
    state = watcher.estate.engines["QM2"].snapshot("APP.IN")
    assert state.enabled == {"high": False, "low": True, "full": True}


def test_alter_sets_the_live_enabling_state_and_reset_qstats_resets() -> None:
    sim = Simulator(network())
    watcher = SimEvents(sim)
    for _ in range(5):
        sim.put("QM2", "APP.IN", MQMD(format="MQSTR"), b"x")   # Depth High: High now off
    engine = watcher.estate.engines["QM2"]
    assert engine.snapshot("APP.IN").enabled["high"] is False
    watcher.mqsc("ALTER QLOCAL(APP.IN) QDPHIEV(ENABLED)\nRESET QSTATS(APP.IN)\n", "QM2")
    state = watcher.estate.engines["QM2"].snapshot("APP.IN")
    assert state.enabled["high"] is True and state.depth == 5
    assert (state.stats.msg_enq_count, state.stats.high_q_depth) == (0, 5)
    sim.put("QM2", "APP.IN", MQMD(format="MQSTR"), b"x")
    assert watcher.events[-1].reason == mqc.MQRC_Q_DEPTH_HIGH
    assert watcher.events[-1].get(mqc.MQIA_MSG_ENQ_COUNT) == 1
