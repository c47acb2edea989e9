"""Command, configuration and authority events of an estate folder: `sim runmqsc` and the
command server write them as a queue manager does (the hooks of traceroute.sim.events)."""

from __future__ import annotations

from datetime import UTC, datetime
from importlib import resources

import pcf
from pcf import mqc
from pcf.encoder import encode
from pcf.mqmd import MQMD
from tests.traceroute.events.sim_events import event_data, read_events
from traceroute.sim.estate import Estate
from traceroute.sim.estate.runmqsc import run_mqsc
from traceroute.sim.mqsc import parse_mqsc

T0 = datetime(2026, 11, 28, 12, 0, 0, tzinfo=UTC)


def _estate(tmp_path):
    net = parse_mqsc(resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc")
                     .read_text())
    path = tmp_path / "estate"
    Estate.create(path, net, now=T0)
    return path


def test_runmqsc_writes_command_and_configuration_events(tmp_path) -> None:
    path = _estate(tmp_path)
    with Estate.open(path, now=T0) as e:
        result = run_mqsc(e, "QM1", "ALTER QMGR CMDEV(ENABLED) CONFIGEV(ENABLED)\n"
                                     "DEFINE QLOCAL(NEW.Q)\nDISPLAY QLOCAL(NEW.Q)\n"
                                     "STOP CHANNEL(QM1.TO.QM2)\n")
        assert result.ok, result.lines
        commands = read_events(e.sim, "QM1", "SYSTEM.ADMIN.COMMAND.EVENT")
        config = read_events(e.sim, "QM1", "SYSTEM.ADMIN.CONFIG.EVENT")
    names = [event_data(c)["commandContext"]["command"] for c in commands]
    assert names == ["Change Queue Mgr", "Create Queue", "Inquire Queue", "Stop Channel"]
    assert all(c.reason == mqc.MQRC_COMMAND_MQSC for c in commands)
    assert [c.reason for c in config] == [2368, 2368, 2367]  # QMGR before/after, NEW.Q
    assert config[2].correl_id == commands[1].correl_id


def test_the_command_server_checks_authority_and_writes_pcf_command_events(tmp_path):
    path = _estate(tmp_path)
    with Estate.open(path, now=T0) as e:
        run_mqsc(e, "QM1", "ALTER QMGR CMDEV(ENABLED) AUTHOREV(ENABLED)\n")
        read_events(e.sim, "QM1", "SYSTEM.ADMIN.COMMAND.EVENT")
        request = pcf.Message(pcf.Header(type=mqc.MQCFT_COMMAND,
                                         command=mqc.MQCMD_INQUIRE_Q_MGR), [])
        for user in ("mqm", "eve"):
            md = MQMD(format="MQADMIN", reply_to_q="REPLY", user_identifier=user,
                      msg_type=mqc.MQMT_REQUEST)
            e.sim.put("QM1", "SYSTEM.ADMIN.COMMAND.QUEUE", md, encode(request),
                      appl_name="admin.tool")
            e.sim.run(until=e.sim.now + 1)
        commands = read_events(e.sim, "QM1", "SYSTEM.ADMIN.COMMAND.EVENT")
        refused = read_events(e.sim, "QM1")
    [command] = commands  # eve's was refused
    assert command.reason == mqc.MQRC_COMMAND_PCF
    ctx = event_data(command)["commandContext"]
    assert ctx["eventOrigin"] == "Msg" and ctx["eventUserId"] == "mqm"
    assert ctx["eventApplName"] == "admin.tool" and ctx["command"] == "Inquire Queue Mgr"
    [event] = refused
    assert event_data(event) == {"queueMgrName": "QM1", "reasonQualifier": "Cmd Not Authorized",
                                 "command": "Inquire Queue Mgr", "userIdentifier": "eve"}


def test_a_failed_sim_put_is_in_follow_with_its_reason_and_its_event(tmp_path) -> None:
    """ACTVTRC(ON): `mqroute sim put` to a put-inhibited queue fails with 2051; follow on
    the estate's activity-trace queue shows the failed put and the Put Inhibited event."""
    import subprocess
    import sys

    def mqroute(*args) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "mqroute", *map(str, args)],
                              capture_output=True, text=True, timeout=120)

    mqsc = tmp_path / "qm1.mqsc"
    mqsc.write_text("* Queue manager name: QM1\nALTER QMGR ACTVTRC(ON) INHIBTEV(ENABLED)\n"
                    "DEFINE QLOCAL(APP.IN) PUT(DISABLED)\n")
    est = tmp_path / "est"
    assert mqroute("sim", "init", est, mqsc).returncode == 0
    put = mqroute("sim", "put", est, "-m", "QM1", "-q", "APP.IN")
    assert put.returncode != 0 and "MQRC_PUT_INHIBITED (2051)" in put.stderr
    messages = est / "QM1" / "messages"
    r = mqroute("follow", messages / "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE.dmp", "--events",
                messages / "SYSTEM.ADMIN.QMGR.EVENT.dmp")
    assert r.returncode == 6, r.stderr  # follow's "a put failed"
    assert "put_failed" in r.stdout and "Reason 2051 MQRC_PUT_INHIBITED" in r.stdout
    assert "Put Inhibited for APP.IN on QM1: puts to it fail" in r.stdout


def test_trace_on_a_simulated_network_says_which_event_explains_the_wait(tmp_path) -> None:
    import subprocess
    import sys

    mqsc = tmp_path / "two.mqsc"
    mqsc.write_text("* Queue manager name: QM1\nALTER QMGR CHLEV(ENABLED)\n"
                    "DEFINE QLOCAL(QM3) USAGE(XMITQ)\n"
                    "DEFINE QREMOTE(TO.QM3) RNAME(X) RQMNAME(QM3) XMITQ(QM3)\n"
                    "DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) CONNAME('nowhere(1414)') "
                    "XMITQ(QM3)\n")
    r = subprocess.run([sys.executable, "-m", "mqroute", "trace", "--network", str(mqsc),
                        "-m", "QM1", "-q", "TO.QM3", "--seed", "1", "-w", "5"],
                       capture_output=True, text=True, timeout=120)
    assert "Result: waiting on a transmission queue" in r.stdout
    assert ("mqroute: trace: event: channel QM1.TO.QM3 stopped (Channel Stopped: channel "
            "stopped retry, AMQ9202E) on QM1: messages wait on its transmission queue"
            in r.stderr)


def test_event_switches_are_spelled_as_amqsevt_spells_them(tmp_path) -> None:
    """A PCF Change Queue Manager of every event switch: its Command event and the queue
    manager's Config Change pair show the switches as amqsevt does (MQEVR_STR: 'Enabled',
    'Exception', 'No Display'), through `events --json`, `--text` and `--text --constants`,
    and the JSON reads back to the same numbers."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from pcf import dmpmqmsg

    switches = {mqc.MQIA_AUTHORITY_EVENT: ("authorityEvent", mqc.MQEVR_ENABLED, "Enabled"),
                mqc.MQIA_CHANNEL_EVENT: ("channelEvent", mqc.MQEVR_EXCEPTION, "Exception"),
                mqc.MQIA_COMMAND_EVENT: ("commandEvent", mqc.MQEVR_NO_DISPLAY, "No Display"),
                mqc.MQIA_SSL_EVENT: ("sslEvent", mqc.MQEVR_ENABLED, "Enabled"),
                mqc.MQIA_INHIBIT_EVENT: ("inhibitEvent", mqc.MQEVR_ENABLED, "Enabled"),
                mqc.MQIA_LOCAL_EVENT: ("localEvent", mqc.MQEVR_ENABLED, "Enabled"),
                mqc.MQIA_REMOTE_EVENT: ("remoteEvent", mqc.MQEVR_ENABLED, "Enabled"),
                mqc.MQIA_START_STOP_EVENT: ("startStopEvent", mqc.MQEVR_DISABLED, "Disabled"),
                mqc.MQIA_LOGGER_EVENT: ("loggerEvent", mqc.MQEVR_ENABLED, "Enabled")}
    path = _estate(tmp_path)
    with Estate.open(path, now=T0) as e:
        run_mqsc(e, "QM1", "ALTER QMGR CMDEV(ENABLED) CONFIGEV(ENABLED)\n")
        for queue in ("SYSTEM.ADMIN.COMMAND.EVENT", "SYSTEM.ADMIN.CONFIG.EVENT"):
            read_events(e.sim, "QM1", queue)
        request = pcf.Message(pcf.Header(type=mqc.MQCFT_COMMAND,
                                         command=mqc.MQCMD_CHANGE_Q_MGR),
                              [pcf.Integer(p, v) for p, (_, v, _) in switches.items()])
        md = MQMD(format="MQADMIN", reply_to_q="REPLY", user_identifier="mqm",
                  msg_type=mqc.MQMT_REQUEST)
        e.sim.put("QM1", "SYSTEM.ADMIN.COMMAND.QUEUE", md, encode(request),
                  appl_name="admin.tool")
        e.sim.run(until=e.sim.now + 1)
        dumps = {}
        for queue in ("SYSTEM.ADMIN.COMMAND.EVENT", "SYSTEM.ADMIN.CONFIG.EVENT"):
            got = []
            while (m := e.sim.get("QM1", queue, appl_name="amqsevt")) is not None:
                got.append(dmpmqmsg.DumpedMessage(*m))
            dumps[queue] = tmp_path / f"{queue}.dmp"
            dmpmqmsg.write_file(dumps[queue], got, qmgr="QM1", queue=queue)

    def events(*args) -> str:
        r = subprocess.run([sys.executable, "-m", "mqroute", "events", *map(str, args)],
                           cwd=Path(__file__).resolve().parents[3], capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        return r.stdout

    [command] = [json.loads(x) for x in events(dumps["SYSTEM.ADMIN.COMMAND.EVENT"],
                                               "--json").splitlines()]
    assert command["eventReason"]["value"] == mqc.MQRC_COMMAND_PCF
    assert command["eventData"]["commandContext"]["command"] == "Change Queue Mgr"
    config = [json.loads(x) for x in events(dumps["SYSTEM.ADMIN.CONFIG.EVENT"],
                                            "--json").splitlines()]
    assert [c["eventReason"]["value"] for c in config] == [mqc.MQRC_CONFIG_CHANGE_OBJECT] * 2
    before, after = (c["eventData"] for c in config)
    assert before["objectType"] == after["objectType"] == "Queue Mgr"
    for name, _, shown in switches.values():
        assert command["eventData"]["commandData"][name] == shown, name
        assert after[name] == shown, name
    assert before["commandEvent"] == "Enabled" and before["channelEvent"] == "Disabled"
    assert before["configurationEvent"] == after["configurationEvent"] == "Enabled"
    text = events(dumps["SYSTEM.ADMIN.CONFIG.EVENT"], "--text")
    assert "No Display" in text and "Exception" in text
    constants = events(dumps["SYSTEM.ADMIN.CONFIG.EVENT"], "--text", "--constants")
    assert "MQEVR_NO_DISPLAY" in constants and "MQEVR_EXCEPTION" in constants
    # the spelled JSON reads back to the numbers
    back = tmp_path / "config.json"
    back.write_text(events(dumps["SYSTEM.ADMIN.CONFIG.EVENT"], "--json"))
    again = [json.loads(x) for x in events("--from-json", back, "--json").splitlines()]
    assert again == config
