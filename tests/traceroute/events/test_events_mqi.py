"""Failed MQI calls in the simulator: the call's reason, activity trace and the queue manager
event agree (one source), and each event carries exactly the event data IBM lists for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pcf import mqc
from pcf.mqmd import MQMD
from tests.traceroute.events.sim_events import event_data, read_events
from traceroute.display.amqsevt import to_json
from traceroute.events.catalog import BY_NAME, kind_of
from traceroute.sim import Simulator, parse_mqsc
from traceroute.sim.events import SimEvents
from traceroute.sim.mqi import MQGET, MQOPEN, MQPUT, MQPUT1

SWITCHES = "ALTER QMGR LOCALEV(ENABLED) REMOTEEV(ENABLED) INHIBTEV(ENABLED) AUTHOREV(ENABLED)"
QM1 = SWITCHES + """
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE QLOCAL(NORMAL.Q)
DEFINE QLOCAL(INHIBITED.Q) PUT(DISABLED) GET(DISABLED)
DEFINE QALIAS(ALIAS.NO.BASE) TARGET(NOT.DEFINED)
DEFINE QALIAS(ALIAS.OF.ALIAS) TARGET(ALIAS.NO.BASE)
DEFINE QALIAS(ALIAS.PUT.OFF) TARGET(NORMAL.Q) PUT(DISABLED)
DEFINE QREMOTE(RMT.NO.XMITQ) RNAME(X) RQMNAME(QM2) XMITQ(NO.XMIT)
DEFINE QREMOTE(RMT.XMITQ.ALIAS) RNAME(X) RQMNAME(QM2) XMITQ(ALIAS.NO.BASE)
DEFINE QREMOTE(RMT.XMITQ.NORMAL) RNAME(X) RQMNAME(QM2) XMITQ(NORMAL.Q)
DEFINE QREMOTE(RMT.NOWHERE) RNAME(X) RQMNAME(QM9)
DEFINE QREMOTE(QMALIAS) RQMNAME(QM2)
DEFINE QREMOTE(SELF.ALIAS) RQMNAME(QM1)
DEFINE QMODEL(A.MODEL)
"""


def _sim(text: str = QM1, **qm: str) -> tuple[Simulator, SimEvents]:
    net = parse_mqsc(text, qmgr="QM1")
    for name, mqsc in qm.items():
        net = parse_mqsc(mqsc, qmgr=name, network=net)
    sim = Simulator(net, seed=1)
    return sim, SimEvents(sim)






#: (queue, target qmgr) -> the reason, the event and its data beyond QMgrName/ApplType/Name
PUTS = [
    ("NO.SUCH.Q", "", mqc.MQRC_UNKNOWN_OBJECT_NAME, "Unknown Object Name",
     {"queueName": "NO.SUCH.Q"}),
    ("ALIAS.NO.BASE", "", mqc.MQRC_UNKNOWN_ALIAS_BASE_Q, "Unknown Alias Base Queue",
     {"queueName": "ALIAS.NO.BASE", "baseObjectName": "NOT.DEFINED", "baseType": "Queue"}),
    ("ALIAS.OF.ALIAS", "", mqc.MQRC_ALIAS_BASE_Q_TYPE_ERROR, "Alias Base Queue Type Error",
     {"queueName": "ALIAS.OF.ALIAS", "baseObjectName": "ALIAS.NO.BASE", "baseType": "Queue"}),
    ("INHIBITED.Q", "", mqc.MQRC_PUT_INHIBITED, "Put Inhibited",
     {"queueName": "INHIBITED.Q"}),
    ("ALIAS.PUT.OFF", "", mqc.MQRC_PUT_INHIBITED, "Put Inhibited",
     {"queueName": "ALIAS.PUT.OFF"}),
    ("RMT.NO.XMITQ", "", mqc.MQRC_UNKNOWN_XMIT_Q, "Unknown Transmission Queue",
     {"queueName": "RMT.NO.XMITQ", "xmitQueueName": "NO.XMIT"}),
    ("RMT.XMITQ.ALIAS", "", mqc.MQRC_XMIT_Q_TYPE_ERROR, "Transmission Queue Type Error",
     {"queueName": "RMT.XMITQ.ALIAS", "xmitQueueName": "ALIAS.NO.BASE",
      "queueType": "Alias"}),
    ("RMT.XMITQ.NORMAL", "", mqc.MQRC_XMIT_Q_USAGE_ERROR, "Transmission Queue Usage Error",
     {"queueName": "RMT.XMITQ.NORMAL", "xmitQueueName": "NORMAL.Q"}),
    ("RMT.NOWHERE", "", mqc.MQRC_UNKNOWN_REMOTE_Q_MGR, "Unknown Remote Queue Manager",
     {"queueName": "RMT.NOWHERE"}),
    ("ANY.Q", "QM7", mqc.MQRC_UNKNOWN_REMOTE_Q_MGR, "Unknown Remote Queue Manager",
     {"queueName": "ANY.Q", "objectQueueMgrName": "QM7"}),
    ("QMALIAS", "", mqc.MQRC_REMOTE_Q_NAME_ERROR, "Remote Queue Name Error",
     {"queueName": "QMALIAS"}),
    ("A.MODEL", "SELF.ALIAS", mqc.MQRC_Q_TYPE_ERROR, "Queue Type Error",
     {"queueName": "A.MODEL", "objectQueueMgrName": "SELF.ALIAS"}),
]


@pytest.mark.parametrize(("queue", "target", "reason", "name", "extra"), PUTS,
                         ids=[p[0] + (f"@{p[1]}" if p[1] else "") for p in PUTS])
def test_a_failed_put_fails_with_the_reason_of_its_event(queue, target, reason, name, extra):
    sim, _ = _sim()
    calls = []
    sim.add_observer(calls.append)
    result = sim.put("QM1", queue, MQMD(), b"x", target_qmgr=target)
    assert result.reason == reason  # what the application sees
    failed = [c for c in calls if c.comp_code == mqc.MQCC_FAILED]
    assert [(c.verb, c.reason) for c in failed] == [(MQPUT1, reason)]  # activity trace's
    [event] = read_events(sim, "QM1")
    assert event.reason == reason and kind_of(event) is BY_NAME[name]
    expected = {"queueMgrName": "QM1", "applType": "Unix", "applName": "amqsput", **extra}
    assert event_data(event) == expected
    assert list(event_data(event)) == [p for p in _order(name) if p in expected]


def _order(name: str) -> list[str]:
    from traceroute.events.spelling import parameter_json_name

    return [parameter_json_name(p.id) for p in BY_NAME[name].params]


def test_the_default_transmission_queue_has_its_own_reasons() -> None:
    base = "DEFINE QLOCAL(NORMAL.Q)\nDEFINE QALIAS(AN.ALIAS) TARGET(NORMAL.Q)\n"
    for defxmitq, reason, extra in (
            ("GONE", mqc.MQRC_UNKNOWN_DEF_XMIT_Q, {}),
            ("AN.ALIAS", mqc.MQRC_DEF_XMIT_Q_TYPE_ERROR, {"queueType": "Alias"}),
            ("NORMAL.Q", mqc.MQRC_DEF_XMIT_Q_USAGE_ERROR, {}),
            ("SYSTEM.CLUSTER.TRANSMIT.QUEUE", mqc.MQRC_DEF_XMIT_Q_USAGE_ERROR, {})):
        sim, _ = _sim(f"{SWITCHES} DEFXMITQ({defxmitq})\n{base}")
        assert sim.put("QM1", "X", MQMD(), b"x", target_qmgr="QM5").reason == reason
        [event] = read_events(sim, "QM1")
        assert event.reason == reason
        assert event_data(event) == {"queueMgrName": "QM1", "queueName": "X",
                                "xmitQueueName": defxmitq, **extra, "applType": "Unix",
                                "applName": "amqsput", "objectQueueMgrName": "QM5"}


def test_mqopen_fails_once_and_its_handle_puts_raise_no_second_event() -> None:
    sim, _ = _sim()
    calls = []
    sim.add_observer(calls.append)
    handle = sim.open("QM1", "NO.SUCH.Q")
    assert handle.reason == mqc.MQRC_UNKNOWN_OBJECT_NAME
    handle.put(MQMD(), b"x")
    assert [(c.verb, c.reason) for c in calls if c.comp_code] == [
        (MQOPEN, 2085), (MQPUT, 2085)]
    assert [e.reason for e in read_events(sim, "QM1")] == [2085]


def test_put_inhibited_at_mqput_after_a_good_open() -> None:
    sim, _ = _sim()
    handle = sim.open("QM1", "INHIBITED.Q")
    assert handle.reason == 0
    assert handle.put(MQMD(), b"x").reason == mqc.MQRC_PUT_INHIBITED
    [event] = read_events(sim, "QM1")
    assert event.reason == mqc.MQRC_PUT_INHIBITED and event.get(mqc.MQCA_Q_NAME) == \
        "INHIBITED.Q"


def test_gets_fail_as_mq_says_with_their_events() -> None:
    sim, _ = _sim()
    calls = []
    sim.add_observer(calls.append)
    assert sim.mqget("QM1", "INHIBITED.Q").reason == mqc.MQRC_GET_INHIBITED
    assert sim.mqget("QM1", "NO.SUCH.Q").reason == mqc.MQRC_UNKNOWN_OBJECT_NAME
    assert sim.mqget("QM1", "ALIAS.NO.BASE").reason == mqc.MQRC_UNKNOWN_ALIAS_BASE_Q
    assert sim.mqget("QM1", "RMT.NOWHERE").reason == mqc.MQRC_OPTION_NOT_VALID_FOR_TYPE
    assert sim.mqget("QM1", "NORMAL.Q").reason == mqc.MQRC_NO_MSG_AVAILABLE
    assert [(c.verb, c.reason) for c in calls if c.comp_code] == [
        (MQGET, 2016), (MQOPEN, 2085), (MQOPEN, 2082), (MQOPEN, 2045), (MQGET, 2033)]
    events = read_events(sim, "QM1")
    assert [e.reason for e in events] == [2016, 2085, 2082]
    assert event_data(events[0]) == {"queueMgrName": "QM1", "queueName": "INHIBITED.Q",
                                "applType": "Unix", "applName": "amqsget"}


def test_a_get_through_an_alias_reads_its_base_queue() -> None:
    sim, _ = _sim(QM1 + "DEFINE QALIAS(READER) TARGET(NORMAL.Q)\n")
    assert sim.put("QM1", "NORMAL.Q", MQMD(), b"hello").ok
    got = sim.mqget("QM1", "READER")
    assert got.ok and got.data == b"hello" and sim.depth("QM1", "NORMAL.Q") == 0


def test_events_are_written_only_when_switched_on() -> None:
    sim, watcher = _sim(QM1.replace(SWITCHES, "ALTER QMGR LOCALEV(ENABLED)"))
    sim.put("QM1", "NO.SUCH.Q", MQMD(), b"x")
    sim.put("QM1", "INHIBITED.Q", MQMD(), b"x")     # INHIBTEV disabled
    sim.put("QM1", "RMT.NOWHERE", MQMD(), b"x")     # REMOTEEV disabled
    assert [e.reason for e in read_events(sim, "QM1")] == [2085]
    watcher.mqsc("ALTER QMGR LOCALEV(DISABLED) INHIBTEV(ENABLED)", "QM1")
    sim.put("QM1", "NO.SUCH.Q", MQMD(), b"x")
    sim.put("QM1", "INHIBITED.Q", MQMD(), b"x")
    assert [e.reason for e in read_events(sim, "QM1")] == [2051]


def test_a_model_queue_on_mqput1_fails_quietly() -> None:
    sim, _ = _sim()
    assert sim.put("QM1", "A.MODEL", MQMD(), b"x").reason == mqc.MQRC_Q_TYPE_ERROR
    # the Queue Type Error event is the queue-manager-alias case only
    assert read_events(sim, "QM1") == []


QM2 = """
ALTER QMGR LOCALEV(ENABLED) INHIBTEV(ENABLED)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)
DEFINE QLOCAL(SHUT.Q) PUT(DISABLED)
DEFINE QLOCAL(DLQ)
ALTER QMGR DEADQ(DLQ)
"""
SENDER = "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1414)') XMITQ(QM2)\n"


def test_the_receiving_mca_s_failed_put_writes_the_event_on_its_queue_manager() -> None:
    sim, _ = _sim(QM1 + SENDER, QM2=QM2)
    assert sim.put("QM1", "LOST.Q", MQMD(), b"x", target_qmgr="QM2").ok
    assert sim.put("QM1", "SHUT.Q", MQMD(), b"x", target_qmgr="QM2").ok
    sim.run()
    events = read_events(sim, "QM2")
    # each put the receiving MCA tries: 2085 once (not a reason for message retry), 2051
    # once and again at each of its MRRTY(10) message retries ("the MCA tries the
    # operation the number of times specified"), each a failed MQPUT1 with its event
    assert [e.reason for e in events] == [2085] + [2051] * 11
    assert event_data(events[0]) == {"queueMgrName": "QM2", "applType": "Qmgr",
                                "applName": "amqrmppa", "queueName": "LOST.Q"}
    assert sim.depth("QM2", "DLQ") == 2


def test_every_qmgr_event_of_a_failed_call_is_built_from_the_catalog() -> None:
    """Each MQI event reason the simulator can give has a catalog entry on the QMGR queue."""
    from traceroute.events.qmgr import MQI_EVENT_REASONS, event_kind

    for reason in MQI_EVENT_REASONS - {mqc.MQRC_NOT_AUTHORIZED}:
        kind = event_kind(reason)
        assert kind is not None and kind.queue == "SYSTEM.ADMIN.QMGR.EVENT"
        assert kind.switch in ("LOCALEV", "REMOTEEV", "INHIBTEV")


@pytest.mark.parametrize(("capture", "queue", "mqsc"), [
    ("2085-unknown-object-name", "A.MISSING.QUEUE", ""),
    ("2051-put-inhibited", "APP.REPLY", "DEFINE QLOCAL(APP.REPLY) PUT(DISABLED)"),
    ("2196-unknown-xmit-queue", "EVT.RMT",
     "DEFINE QREMOTE(EVT.RMT) RNAME(X) RQMNAME(QMX) XMITQ(NO.XMIT)"),
])
def test_the_real_captures_are_reproduced_parameter_for_parameter(vectors: Path, capture,
                                                                  queue, mqsc) -> None:
    text = (vectors / "amqsevt-json" / f"{capture}.json.txt").read_text()
    real = json.loads(text.split("\n", 1)[1])
    net = parse_mqsc(f"{SWITCHES}\n{mqsc}\n", qmgr="NHARAPP")
    sim = Simulator(net, seed=3)
    SimEvents(sim)
    sim.put("NHARAPP", queue, MQMD(), b"probe")
    [event] = read_events(sim, "NHARAPP")
    ours = to_json(event)
    for key in ("eventSource", "eventType", "eventReason", "eventData"):
        assert ours[key] == real[key], key
    assert list(ours["eventData"]) == list(real["eventData"])


def test_queue_full_from_refused_puts_reproduces_the_real_depth_captures(vectors: Path):
    """EVT.HI MAXDEPTH(5): the 4th put reaches 80 % (Queue Depth High), the 6th is refused
    with 2053 and the queue manager writes Queue Full, as on NHARAPP."""
    net = parse_mqsc("ALTER QMGR PERFMEV(ENABLED)\nDEFINE QLOCAL(EVT.HI) MAXDEPTH(5) "
                     "QDEPTHHI(80) QDPHIEV(ENABLED)\n", qmgr="NHARAPP")
    sim = Simulator(net, seed=3)
    SimEvents(sim)
    reasons = [sim.put("NHARAPP", "EVT.HI", MQMD(), b"m").reason for _ in range(6)]
    assert reasons == [0, 0, 0, 0, 0, mqc.MQRC_Q_FULL]
    events = read_events(sim, "NHARAPP", "SYSTEM.ADMIN.PERFM.EVENT")
    assert [e.reason for e in events] == [mqc.MQRC_Q_DEPTH_HIGH, mqc.MQRC_Q_FULL]
    for event, name in zip(events, ("2224-queue-depth-high", "2053-queue-full"), strict=True):
        text = (vectors / "amqsevt-json" / f"{name}.json.txt").read_text()
        real = json.loads(text.split("\n", 1)[1])
        ours = to_json(event)
        for key in ("eventSource", "eventType", "eventReason", "eventData"):
            assert ours[key] == real[key], (name, key)


def test_a_full_transmission_queue_refuses_the_put_with_queue_full_on_it() -> None:
    sim, _ = _sim("ALTER QMGR PERFMEV(ENABLED)\nDEFINE QLOCAL(QM2) USAGE(XMITQ) MAXDEPTH(1)\n")
    assert sim.put("QM1", "X", MQMD(), b"1", target_qmgr="QM2").ok
    assert sim.put("QM1", "X", MQMD(), b"2", target_qmgr="QM2").reason == mqc.MQRC_Q_FULL
    [event] = read_events(sim, "QM1", "SYSTEM.ADMIN.PERFM.EVENT")
    assert event.reason == mqc.MQRC_Q_FULL and event.object_name == "QM2"


def test_a_put_to_a_put_inhibited_topic_names_its_topic_string_and_a_client() -> None:
    """Put Inhibited of a put to a PUB(DISABLED) topic: QName is the MQOD's object (the
    topic object), TopicString the full topic string; a client's adds ConnName and
    ChannelName; ObjectQMgrName only for another queue manager [IBM's event data]."""
    sim, _ = _sim(SWITCHES + "\nDEFINE TOPIC(PRICES) TOPICSTR('prices') PUB(DISABLED)\n"
                  "DEFINE CHANNEL(APPS) CHLTYPE(SVRCONN)\n")
    sim.connection("QM1", "pub", client_channel="APPS", client_host="10.1.2.3")
    opened = sim.open_topic("QM1", "fruit", topic_object="PRICES", appl_name="pub")
    assert opened.put(MQMD(), b"x").reason == mqc.MQRC_PUT_INHIBITED
    (event,) = read_events(sim, "QM1")
    assert [p.parameter for p in event.data] == [
        mqc.MQCA_Q_MGR_NAME, mqc.MQCA_Q_NAME, mqc.MQIA_APPL_TYPE, mqc.MQCACF_APPL_NAME,
        mqc.MQCA_TOPIC_STRING, mqc.MQCACH_CONNECTION_NAME, mqc.MQCACH_CHANNEL_NAME]
    assert event_data(event) == {
        "queueMgrName": "QM1", "queueName": "PRICES", "applType": "Unix", "applName": "pub",
        "topicString": "prices/fruit", "connectionName": "10.1.2.3", "channelName": "APPS"}
