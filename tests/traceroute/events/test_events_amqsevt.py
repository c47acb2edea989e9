"""amqsevt JSON both ways on every real capture; spec-built binary events give the same JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pcf
from pcf import mqc
from pcf.mqmd import unpack
from tests.traceroute.events.events_spec import cfgr, cfh, cfin, cfst, mqmd
from traceroute.display.amqsevt import dumps, from_json, iter_json, reason_from_name, to_json
from traceroute.events import Event, NotEventData, Unnamed, decode_event, pair_changes

CAPTURES = "amqsevt-json"


def _captures(vectors: Path) -> list[Path]:
    files = sorted((vectors / CAPTURES).glob("*.txt"))
    if not files:
        pytest.skip("no amqsevt captures")
    return files


def _body(path: Path) -> str:
    text = path.read_text()
    assert text.startswith("# SOURCE")
    return text.split("\n", 1)[1]


def _unnamed(parameters: list[pcf.Parameter]) -> list[str]:
    out = []
    for p in parameters:
        if isinstance(p, Unnamed):
            out.append(p.json_name)
        elif isinstance(p, pcf.Group):
            out += _unnamed(p.parameters)
    return out


def test_every_capture_round_trips_exactly(vectors: Path) -> None:
    seen = 0
    for path in _captures(vectors):
        body = _body(path)
        items = list(iter_json(path.read_text(), source=path.name))
        assert all(i.error is None for i in items), path
        if path.name.endswith(".jsonl.txt"):
            lines = [line for line in body.split("\n") if line.strip()]
            assert len(items) == len(lines) == 3
            for item, line in zip(items, lines, strict=True):
                assert dumps(item.event, compact=True) == line
                seen += 1
        else:
            assert len(items) == 1
            assert dumps(items[0].event) + "\n" == body
            seen += 1
    assert seen == 16


def test_every_capture_parameter_is_a_real_pcf_parameter(vectors: Path) -> None:
    """Every eventData name maps to an MQ constant: the JSON becomes a real event message."""
    for path in _captures(vectors):
        for item in iter_json(path.read_text(), source=path.name):
            event = item.event
            assert _unnamed(event.data) == [], path.name
            assert event.extra == {}
            message = pcf.Message(pcf.Header(type=mqc.MQCFT_EVENT, command=event.type,
                                             reason=event.reason,
                                             msg_seq_number=event.msg_seq_number,
                                             control=event.control), list(event.data))
            md = pcf.MQMD(format="MQEVENT", correl_id=event.correl_id or bytes(24),
                          reply_to_q_mgr=event.source.queue_mgr,
                          put_date=event.time.strftime("%Y%m%d"),
                          put_time=event.time.strftime("%H%M%S00"))
            back = decode_event(pcf.encode(message), md, queue=event.source.object_name)
            assert to_json(back) == to_json(event), path.name


def test_typed_values_from_json(vectors: Path) -> None:
    full = next(iter_json((vectors / CAPTURES / "2053-queue-full.json.txt").read_text())).event
    assert full.type == mqc.MQCMD_PERFM_EVENT and full.reason == mqc.MQRC_Q_FULL
    assert full.category == "performance"
    assert full.get(mqc.MQIA_HIGH_Q_DEPTH) == 5 and full.get(mqc.MQIA_MSG_ENQ_COUNT) == 1
    assert full.object_name == "EVT.HI" and full.qmgr == "NHARAPP"
    assert full.epoch == 1785064699
    stopped = next(iter_json((vectors / CAPTURES / "2283-channel-stopped.json.txt")
                             .read_text())).event
    assert stopped.get(mqc.MQIACF_REASON_QUALIFIER) == mqc.MQRQ_CHANNEL_STOPPED_DISABLED
    assert stopped.get(mqc.MQIACF_ERROR_ID) == 0x10009528
    assert stopped.get(mqc.MQCACH_XMIT_Q_NAME) == "SVCQM"  # the channel-event xmitq id
    assert stopped.object_name == "NHARAPP.SVCQM"
    command = next(iter_json((vectors / CAPTURES / "2412-command-mqsc.json.txt")
                             .read_text())).event
    ctx = command.group(mqc.MQGACF_COMMAND_CONTEXT)
    assert ctx is not None and ctx.get(mqc.MQIACF_COMMAND) == mqc.MQCMD_CHANGE_Q
    assert command.object_name == "APP.REPLY"
    change = next(iter_json((vectors / CAPTURES / "2368-config-change-object.json.txt")
                            .read_text())).event
    assert change.object_state == "Before Change" and change.msg_seq_number == 1
    assert change.control == mqc.MQCFC_NOT_LAST
    assert change.get(mqc.MQIA_MAX_Q_DEPTH) == 5000
    assert change.get(mqc.MQIA_INHIBIT_PUT) == mqc.MQQA_PUT_ALLOWED


def _queue_full_binary(o: str) -> bytes:
    params = [cfst(mqc.MQCA_Q_MGR_NAME, "NHARAPP", o=o),
              cfst(mqc.MQCA_BASE_OBJECT_NAME, "EVT.HI", o=o),
              cfin(mqc.MQIA_TIME_SINCE_RESET, 0, o), cfin(mqc.MQIA_HIGH_Q_DEPTH, 5, o),
              cfin(mqc.MQIA_MSG_ENQ_COUNT, 1, o), cfin(mqc.MQIA_MSG_DEQ_COUNT, 0, o)]
    return cfh(45, 2053, len(params), o) + b"".join(params)


@pytest.mark.parametrize("order,encoding", [("<", 546), (">", 273)])
def test_spec_built_queue_full_event_gives_the_capture(vectors: Path, order: str,
                                                         encoding: int) -> None:
    raw_md = mqmd(put_date="20260726", put_time="11181900", reply_qmgr="NHARAPP", o=order,
                  encoding=encoding)
    md = unpack(raw_md)
    event = decode_event(_queue_full_binary(order), md)
    expected = json.loads(_body(vectors / CAPTURES / "2053-queue-full.json.txt"))
    assert to_json(event) == expected
    assert dumps(event) + "\n" == _body(vectors / CAPTURES / "2053-queue-full.json.txt")


def test_spec_built_channel_stopped_event_gives_the_capture(vectors: Path) -> None:
    params = [cfst(mqc.MQCA_Q_MGR_NAME, "NHARAPP"),
              cfst(mqc.MQCACH_CHANNEL_NAME, "NHARAPP.SVCQM", 20),
              cfst(mqc.MQCACH_XMIT_Q_NAME, "SVCQM"),
              cfst(mqc.MQCACH_CONNECTION_NAME, "10.60.0.50(1414)", 264),
              cfin(mqc.MQIACF_REASON_QUALIFIER, 10), cfin(mqc.MQIACF_ERROR_ID, 0x10009528),
              cfin(mqc.MQIACF_AUX_ERROR_DATA_INT_1, 0), cfin(mqc.MQIACF_AUX_ERROR_DATA_INT_2, 0),
              cfst(mqc.MQCACF_AUX_ERROR_DATA_STR_1, "NHARAPP.SVCQM", 32),
              cfst(mqc.MQCACF_AUX_ERROR_DATA_STR_2, "svc-sim-ext (10.60.0.50)(1414)", 32),
              cfst(mqc.MQCACF_AUX_ERROR_DATA_STR_3, "", 32)]
    data = cfh(46, 2283, len(params)) + b"".join(params)
    md = unpack(mqmd(put_date="20260726", put_time="11181912", reply_qmgr="NHARAPP"))
    event = decode_event(data, md)
    assert dumps(event) + "\n" == _body(vectors / CAPTURES / "2283-channel-stopped.json.txt")


def test_spec_built_command_event_with_groups(vectors: Path) -> None:
    ctx = [cfst(mqc.MQCACF_EVENT_USER_ID, "mqm", 12), cfin(mqc.MQIACF_EVENT_ORIGIN, 1),
           cfst(mqc.MQCACF_EVENT_Q_MGR, "NHARAPP"), cfin(mqc.MQIACF_COMMAND, 8)]
    cmd = [cfst(mqc.MQCA_Q_NAME, "APP.REPLY"), cfin(mqc.MQIA_Q_TYPE, 1),
           cfin(mqc.MQIA_INHIBIT_PUT, 1)]
    data = cfh(99, 2412, 2) + cfgr(8001, ctx) + cfgr(8002, cmd)
    correl = bytes.fromhex("414D51204E48415241505020202020202CEA656A05F40040")
    md = unpack(mqmd(put_date="20260726", put_time="11181800", reply_qmgr="NHARAPP",
                     correl=correl))
    event = decode_event(data, md)
    assert dumps(event) + "\n" == _body(vectors / CAPTURES / "2412-command-mqsc.json.txt")


def test_real_binary_command_event_with_filter(vectors: Path) -> None:
    data = (vectors / "pymqi" / "pcf_with_cfif.dat").read_bytes()
    event = decode_event(data)
    assert event.type == mqc.MQCMD_COMMAND_EVENT and event.reason == mqc.MQRC_COMMAND_MQSC
    out = to_json(event)
    assert out["eventSource"]["objectName"] == "SYSTEM.ADMIN.COMMAND.EVENT"
    assert out["eventReason"]["name"] == "Command MQSC"
    assert out["eventData"]["commandContext"]["eventQueueMgr"] == "MQTEST"
    assert out["eventData"]["commandData"]["filter"]["operator"] in ("Equal", "Greater",
                                                                     "Less", "Not Equal",
                                                                     "Not Less", "Not Greater")


def test_change_events_pair_by_correl_id() -> None:
    def half(state: str, depth: int, correl: str) -> Event:
        return from_json({
            "eventSource": {"objectName": "SYSTEM.ADMIN.CONFIG.EVENT", "objectType": "Queue",
                            "queueMgr": "QM1"},
            "eventType": {"name": "Config Event", "value": 43},
            "eventReason": {"name": "Config Change Object", "value": 2368},
            "eventCreation": {"timeStamp": "2026-07-26T11:18:18Z", "epoch": 1785064698},
            "objectState": state, "correlationID": correl,
            "eventData": {"queueName": "Q1", "maxQueueDepth": depth}})
    a, b = "AA" * 24, "BB" * 24
    events = [half("Before Change", 10, a), half("Before Change", 1, b),
              half("After Change", 20, a)]
    pairs = list(pair_changes(events))
    assert len(pairs) == 2
    assert pairs[0].before is events[0] and pairs[0].after is events[2]
    assert pairs[0].changed == {mqc.MQIA_MAX_Q_DEPTH: (10, 20)}
    assert pairs[1].after is None


def test_unknown_names_are_kept_and_written_back() -> None:
    obj = {"eventSource": {"objectName": "X", "objectType": "Queue", "queueMgr": "QM"},
           "eventType": {"name": "Perfm Event", "value": 45},
           "eventReason": {"name": "Queue Full", "value": 2053},
           "somethingNew": [1, 2],
           "eventData": {"queueMgrName": "QM", "brandNewField": {"x": True},
                         "highQueueDepth": 3}}
    event = from_json(obj)
    assert to_json(event) == obj
    assert [p.json_name for p in event.data if isinstance(p, Unnamed)] == ["brandNewField"]


def test_bad_json_is_reported_with_its_line_and_the_rest_read() -> None:
    good = ('{"eventSource": {"objectName": "Q", "objectType": "Queue", "queueMgr": "QM"},'
            ' "eventType": {"name": "Perfm Event", "value": 45},'
            ' "eventReason": {"name": "Queue Full", "value": 2053}, "eventData": {}}')
    text = "# comment\n{not json\n" + good + "\n[1]\n" + good + "\n"
    items = list(iter_json(text, source="f.json"))
    assert [(i.line, i.error is None) for i in items] == [(2, False), (3, True), (4, False),
                                                          (5, True)]


def test_not_an_event() -> None:
    message = pcf.Message(pcf.Header(type=mqc.MQCFT_REPORT, command=mqc.MQCMD_ACTIVITY_MSG))
    with pytest.raises(NotEventData):
        decode_event(pcf.encode(message))


def test_reason_names() -> None:
    assert reason_from_name("MQRC_Q_FULL") == 2053
    assert reason_from_name("2224") == 2224
    assert reason_from_name("Queue Depth High") == 2224
    assert reason_from_name("q_full") is None or reason_from_name("q_full") == 2053
