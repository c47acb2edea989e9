"""Bad input never escapes as anything but a clear error; logger events; QSG in replay."""

from __future__ import annotations

import contextlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

import pcf
from pcf import mqc
from tests.traceroute.events.events_spec import cfh, cfst
from traceroute.display.amqsevt import from_json, iter_json, to_json
from traceroute.events import NotEventData, decode_event
from traceroute.events.engine import PerfEvent
from traceroute.events.replay import Estate, parse_ops, replay
from traceroute.sim import parse_mqsc

QUEUE_FULL = cfh(45, 2053, 2) + cfst(2015, "QM1") + cfst(2002, "APP.IN")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_raise_only_pcf_errors(data: bytes) -> None:
    with contextlib.suppress(pcf.PCFError, NotEventData):
        decode_event(data)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(QUEUE_FULL) - 1), st.integers(0, 255))
def test_mutated_event_messages(position: int, byte: int) -> None:
    data = bytearray(QUEUE_FULL)
    data[position] = byte
    try:
        event = decode_event(bytes(data))
    except (pcf.PCFError, NotEventData):
        return
    assert isinstance(json.dumps(to_json(event)), str)


def test_every_truncation_is_a_located_error() -> None:
    for n in range(len(QUEUE_FULL)):
        try:
            decode_event(QUEUE_FULL[:n])
        except pcf.PCFError as e:
            assert e.offset is not None or e.reason
        except NotEventData:
            pass


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                           lambda c: st.lists(c, max_size=3)
                           | st.dictionaries(st.text(max_size=8), c, max_size=3),
                           max_leaves=10)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_any_json_is_an_event_or_a_reported_error(value: object) -> None:
    items = list(iter_json(json.dumps(value)))
    assert all((i.event is None) == (i.error is not None) for i in items)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(["queueMgrName", "highQueueDepth", "queueName",
                                        "inhibitPut", "channelName", "unknownThing", "x"]),
                       json_values, max_size=5))
def test_json_round_trip_is_exact_for_any_event_data(data: dict) -> None:
    obj = {"eventSource": {"objectName": "Q", "objectType": "Queue", "queueMgr": "QM1"},
           "eventType": {"name": "Perfm Event", "value": 45},
           "eventReason": {"name": "Queue Full", "value": 2053}, "eventData": data}
    assert to_json(from_json(obj)) == obj


def test_logger_event() -> None:
    params = [cfst(mqc.MQCA_Q_MGR_NAME, "QM1"),
              cfst(mqc.MQCACF_CURRENT_LOG_EXTENT_NAME, "S0000012.LOG", 24),
              cfst(mqc.MQCACF_RESTART_LOG_EXTENT_NAME, "S0000010.LOG", 24),
              cfst(mqc.MQCACF_MEDIA_LOG_EXTENT_NAME, "S0000003.LOG", 24),
              cfst(mqc.MQCACF_LOG_PATH, "/var/mqm/log/QM1/active/", 1024)]
    event = decode_event(cfh(mqc.MQCMD_LOGGER_EVENT, mqc.MQRC_LOGGER_STATUS, len(params))
                         + b"".join(params))
    out = to_json(event)
    assert event.category == "logger"
    assert out["eventSource"]["objectName"] == "SYSTEM.ADMIN.LOGGER.EVENT"
    assert out["eventType"] == {"name": "Logger Event", "value": 91}
    assert out["eventReason"] == {"name": "Logger Status", "value": 2411}
    assert out["eventData"]["currentLogExtentName"] == "S0000012.LOG"
    assert out["eventData"]["logPath"] == "/var/mqm/log/QM1/active/"


def test_replay_shared_queue_across_a_queue_sharing_group() -> None:
    network = parse_mqsc("ALTER QMGR QSGNAME(QSG1) PERFMEV(ENABLED)\n"
                         "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) MAXDEPTH(10) QDPHIEV(ENABLED)\n",
                         qmgr="QMA")
    parse_mqsc("ALTER QMGR QSGNAME(QSG1) PERFMEV(ENABLED)\n"
               "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) MAXDEPTH(10) QDPHIEV(ENABLED)\n",
               qmgr="QMB", network=network)
    ops = [o for o in parse_ops(["time_ms,qmgr,queue,op,count", "1000,QMA,SQ1,PUT,5",
                                 "2000,QMB,SQ1,PUT,3"]) if not hasattr(o, "reason")]
    events = [o for _, o in replay(Estate.from_network(network), ops)
              if isinstance(o, PerfEvent)]
    # QMB's third put reaches 8 = 80 %: QMB coordinates, QMA answers under its CorrelId
    assert [(e.qmgr, e.msg_enq_count, e.high_q_depth) for e in events] == [
        ("QMB", 3, 8), ("QMA", 5, 5)]
    assert events[0].correl_id == events[1].correl_id
