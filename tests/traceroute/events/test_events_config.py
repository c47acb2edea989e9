"""Configuration and command events of the simulator: every attribute of every object kind,
before/after pairs, REFRESH QMGR, the command event of each command (CMDEV, NODISPLAY), one
CorrelId for both; the real captures 2367, 2368, 2369, 2412 and the json_compact lines
reproduced value for value."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from pcf import mqc
from tests.traceroute.events.sim_events import read_events
from traceroute.display.amqsevt import iter_json, to_json
from traceroute.events import pair_changes
from traceroute.sim import Simulator, parse_mqsc
from traceroute.sim.events import SimEvents
from traceroute.sim.mqsc import MQSCError, Session, parse_commands

CONFIG, COMMAND = "SYSTEM.ADMIN.CONFIG.EVENT", "SYSTEM.ADMIN.COMMAND.EVENT"


def _sim(qmgr: str, mqsc: str, start: datetime) -> tuple[Simulator, SimEvents]:
    net = parse_mqsc("ALTER QMGR CONFIGEV(ENABLED) CMDEV(ENABLED)\n" + mqsc, qmgr=qmgr)
    sim = Simulator(net, seed=2, start=start)
    return sim, SimEvents(sim)




def _capture(vectors: Path, name: str) -> dict:
    text = (vectors / "amqsevt-json" / name).read_text()
    return json.loads(text.split("\n", 1)[1])


def _same(ours, real: dict, *, times: bool = True) -> None:
    got = to_json(ours)
    for key in ("eventSource", "eventType", "eventReason", "objectState", "eventData"):
        assert got.get(key) == real.get(key), key
    assert list(got["eventData"]) == list(real["eventData"])
    if times:
        assert got["eventCreation"] == real["eventCreation"]
    assert ("correlationID" in got) == ("correlationID" in real)


def test_alter_reproduces_the_change_and_command_captures(vectors: Path) -> None:
    sim, watcher = _sim("NHARAPP", "DEFINE QLOCAL(APP.REPLY) DEFPSIST(YES)\n",
                        datetime(2026, 7, 26, 11, 3, 1))
    sim.run(until=917)  # 11:18:18
    raised = watcher.mqsc("ALTER QLOCAL(APP.REPLY) PUT(DISABLED)", "NHARAPP")
    before, after = read_events(sim, "NHARAPP", CONFIG)
    [command] = read_events(sim, "NHARAPP", COMMAND)
    assert [e.reason for e in raised] == [2368, 2368, 2412]
    _same(before, _capture(vectors, "2368-config-change-object.json.txt"))
    _same(command, _capture(vectors, "2412-command-mqsc.json.txt"))
    assert before.correl_id == after.correl_id == command.correl_id
    (pair,) = pair_changes([before, after])
    assert pair.changed == {mqc.MQIA_INHIBIT_PUT: (mqc.MQQA_PUT_ALLOWED,
                                                   mqc.MQQA_PUT_INHIBITED),
                            mqc.MQCA_ALTERATION_TIME: ("11.03.01", "11.18.18")}


def test_define_and_delete_reproduce_the_create_and_delete_captures(vectors: Path) -> None:
    sim, watcher = _sim("NHARAPP", "", datetime(2026, 7, 26, 11, 18, 18))
    watcher.mqsc("DEFINE QREMOTE(EVT.RMT) RNAME(X) RQMNAME(Y) XMITQ(NO.XMIT)\n"
                 "DEFINE QLOCAL(EVT.CFG) DESCR('event demo')\nDELETE QLOCAL(EVT.CFG)\n",
                 "NHARAPP")
    create, _create_q, delete = read_events(sim, "NHARAPP", CONFIG)
    _same(create, _capture(vectors, "2367-config-create-object.json.txt"))
    _same(delete, _capture(vectors, "2369-config-delete-object.json.txt"))


def test_json_compact_lines_delete_and_stop_service(vectors: Path) -> None:
    text = (vectors / "amqsevt-json" / "NHAUAPP_json_compact_raw_3lines.jsonl.txt").read_text()
    real = [item.event for item in iter_json(text)]
    sim, watcher = _sim("NHAUAPP", "DEFINE SERVICE(MQ.EVENT.MONITOR) CONTROL(MANUAL)\n"
                                   "START SERVICE(MQ.EVENT.MONITOR)\n",
                        datetime(2026, 7, 29, 23, 19, 9))
    watcher.mqsc("DEFINE QLOCAL(EVT.DRAIN.PROBE)\n", "NHAUAPP")
    read_events(sim, "NHAUAPP", CONFIG)
    read_events(sim, "NHAUAPP", COMMAND)
    watcher.mqsc("DELETE QLOCAL(EVT.DRAIN.PROBE)\n", "NHAUAPP")
    sim.run(until=5)
    watcher.mqsc("STOP SERVICE(MQ.EVENT.MONITOR)\n", "NHAUAPP")
    [delete] = read_events(sim, "NHAUAPP", CONFIG)
    commands = read_events(sim, "NHAUAPP", COMMAND)
    ours = [delete, *commands]
    for mine, theirs in zip(ours, real, strict=True):
        _same(mine, to_json(theirs))
    assert delete.correl_id == commands[0].correl_id != commands[1].correl_id


def test_every_object_kind_has_its_configuration_events() -> None:
    _, watcher = _sim("QM1", "", datetime(2026, 1, 1))
    mqsc = """
    DEFINE QLOCAL(L) DESCR('local')
    DEFINE QMODEL(M) DEFTYPE(PERMDYN)
    DEFINE QALIAS(A) TARGET(L)
    DEFINE QREMOTE(R) RNAME(X) RQMNAME(QM2)
    DEFINE CHANNEL(C) CHLTYPE(SDR) CONNAME('h(1414)') XMITQ(QM2)
    DEFINE PROCESS(P) APPLICID('/bin/true')
    DEFINE NAMELIST(N) NAMES(A, B)
    DEFINE TOPIC(T) TOPICSTR('a/b')
    DEFINE LISTENER(LS) TRPTYPE(TCP) PORT(1415)
    DEFINE SERVICE(S) STARTCMD('/bin/true')
    DEFINE AUTHINFO(AI) AUTHTYPE(IDPWOS)
    DEFINE COMMINFO(CI) GRPADDR('239.0.0.1')
    ALTER QMGR DESCR('changed')
    """
    raised = watcher.mqsc(mqsc, "QM1")
    config = [e for e in raised if e.type == mqc.MQCMD_CONFIG_EVENT]
    kinds = [to_json(e)["eventData"]["objectType"] for e in config]
    assert kinds == ["Queue"] * 4 + ["Channel", "Process", "Namelist", "Topic", "Listener",
                                     "Service", "Auth Info", "Comm Info", "Queue Mgr",
                                     "Queue Mgr"]
    names = ("queueName", "channelName", "processName", "namelistName", "topicName",
             "listenerName", "serviceName", "authInfoName", "commInfoName")
    data = {}
    for e in config:
        d = to_json(e)["eventData"]
        data[next((d[n] for n in names if n in d), e.qmgr)] = d
    assert data["L"]["queueDesc"] == "local" and data["L"]["maxQueueDepth"] == 5000
    assert data["A"]["baseObjectName"] == "L" and data["A"]["queueType"] == "Alias"
    assert data["M"]["definitionType"] == "Permanent Dynamic"
    assert data["C"]["connectionName"] == "h(1414)" and data["C"]["channelType"] == "Sender"
    assert data["N"]["names"] == ["A", "B"]
    assert data["T"]["topicString"] == "a/b"
    assert data["LS"]["port"] == 1415
    # every event is the command's too: one command event each, the same CorrelId
    commands = [e for e in raised if e.type == mqc.MQCMD_COMMAND_EVENT]
    assert len(commands) == 13
    by_correl = {e.correl_id for e in commands}
    assert {e.correl_id for e in config} <= by_correl


def test_refresh_qmgr_is_a_baseline_of_every_object() -> None:
    _, watcher = _sim("QM1", "DEFINE QLOCAL(A.Q)\nDEFINE QLOCAL(B.Q)\n"
                               "DEFINE CHANNEL(C) CHLTYPE(RCVR)\n", datetime(2026, 1, 1))
    raised = watcher.mqsc("REFRESH QMGR TYPE(CONFIGEV) OBJECT(QLOCAL) NAME(A*)", "QM1")
    refresh = [e for e in raised if e.reason == mqc.MQRC_CONFIG_REFRESH_OBJECT]
    assert [e.object_name for e in refresh] == ["A.Q"]
    assert to_json(refresh[0])["eventData"]["creationDate"] == "2026-01-01"
    assert [e.reason for e in raised].count(mqc.MQRC_COMMAND_MQSC) == 1


def test_cmdev_nodisplay_and_the_alter_qmgr_rule() -> None:
    sim, watcher = _sim("QM1", "DEFINE QLOCAL(A.Q)\n", datetime(2026, 1, 1))
    watcher.mqsc("ALTER QMGR CMDEV(NODISPLAY)", "QM1")  # an event: it was ENABLED before
    session = Session(sim.network, "QM1", reading=False)
    [display] = parse_commands("DISPLAY QLOCAL(A.Q)")
    _, events = watcher.execute(session, display)
    assert events == []  # NODISPLAY
    watcher.mqsc("ALTER QMGR CMDEV(DISABLED)", "QM1")  # an event: NODISPLAY before
    watcher.mqsc("ALTER QLOCAL(A.Q) MAXDEPTH(9)", "QM1")  # none
    commands = read_events(sim, "QM1", COMMAND)
    assert [to_json(e)["eventData"]["commandContext"]["command"] for e in commands] == [
        "Change Queue Mgr", "Change Queue Mgr"]


def test_a_failed_command_makes_no_event() -> None:
    sim, watcher = _sim("QM1", "", datetime(2026, 1, 1))
    with pytest.raises(MQSCError):
        watcher.mqsc("DELETE QLOCAL(NOT.THERE)", "QM1")
    assert read_events(sim, "QM1", COMMAND) == [] and read_events(sim, "QM1", CONFIG) == []


def test_a_pcf_command_of_the_command_server_is_a_pcf_command_event() -> None:
    import pcf

    _, watcher = _sim("QM1", "", datetime(2026, 1, 1))
    message = pcf.Message(pcf.Header(type=mqc.MQCFT_COMMAND, command=mqc.MQCMD_STOP_CHANNEL),
                          [pcf.String(mqc.MQCACH_CHANNEL_NAME, "C", width=20)])
    event = watcher.pcf_command("QM1", message, user="admin")
    assert event is not None and event.reason == mqc.MQRC_COMMAND_PCF
    assert to_json(event)["eventData"] == {
        "commandContext": {"eventUserId": "admin", "eventOrigin": "Msg",
                           "eventQueueMgr": "QM1", "command": "Stop Channel"},
        "commandData": {"channelName": "C"}}
