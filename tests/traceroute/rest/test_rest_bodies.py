"""traceroute.rest: PCF commands as runCommandJSON bodies and their answers, both ways, held
to the PCF path: every command the Admin client builds makes a body that reads back to
the same command, and every answer of a simulated command server, sent as JSON and read
back, gives the typed values its PCF responses give."""

from __future__ import annotations

import json
from datetime import timedelta, timezone

import pytest

from pcf import mqc
from pcf.encoder import encode
from pcf.model import IntegerFilter, StringFilter
from traceroute.rest import RestBodyError, command_of, request_body, response_body, responses_of
from traceroute.status import commands as cmd
from traceroute.status import responses as resp

COMMANDS = [
    cmd.inquire_qmgr(), cmd.inquire_queue("APP.*"), cmd.inquire_queue("X", mqc.MQQT_LOCAL),
    cmd.inquire_queue("*", mqc.MQQT_REMOTE), cmd.inquire_queue_names("SYSTEM.*"),
    cmd.inquire_queue_status("*"), cmd.inquire_queue_status("Q1", handles=True),
    cmd.inquire_channel("*"), cmd.inquire_channel("TO.*", mqc.MQCHT_SENDER),
    cmd.inquire_channel_names("*"), cmd.inquire_channel_status("*"),
    cmd.inquire_channel_status("C1", saved=True), cmd.inquire_cluster_qmgr("*", "CL1"),
    cmd.reset_queue_stats("Q1"), cmd.start_channel("C1"), cmd.stop_channel("C1"),
    cmd.stop_channel("C1", inactive=True), cmd.reset_qmgr_statistics(),
    cmd.inquire_queue_status("*", where=IntegerFilter(mqc.MQIA_CURRENT_Q_DEPTH,
                                                      mqc.MQCFOP_GREATER, 0)),
    cmd.inquire_channel("*", where=StringFilter(mqc.MQCACH_XMIT_Q_NAME, mqc.MQCFOP_EQUAL,
                                                "QM2")),
    cmd.inquire_channel_status("*", where=IntegerFilter(mqc.MQIACH_CHANNEL_STATUS,
                                                        mqc.MQCFOP_EQUAL, mqc.MQCHS_STOPPED)),
]


def same(a, b) -> bool:
    return encode(a, encoding=mqc.MQENC_NATIVE, ccsid=1208) == \
        encode(b, encoding=mqc.MQENC_NATIVE, ccsid=1208)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: str(c.header.command))
def test_each_command_makes_a_body_that_reads_back_to_it(command):
    body = request_body(command)
    assert body["type"] == "runCommandJSON" and body["command"] in ("display", "reset",
                                                                    "start", "stop")
    back, _ = command_of(json.loads(json.dumps(body)))
    assert same(back, command), (body, back)


def test_the_bodies_are_ibms_shape():
    assert request_body(cmd.inquire_channel("TO.*", mqc.MQCHT_SENDER)) == {
        "type": "runCommandJSON", "command": "display", "qualifier": "channel",
        "name": "TO.*", "parameters": {"chltype": "sdr"}, "responseParameters": ["all"]}
    assert request_body(COMMANDS[-3])["parameters"] == {"type": "queue",
                                                        "where": "CURDEPTH GT 0"}
    assert request_body(COMMANDS[-2])["parameters"] == {"where": "XMITQ EQ 'QM2'"}
    assert request_body(COMMANDS[-1])["parameters"] == {"where": "STATUS EQ STOPPED"}
    assert request_body(cmd.stop_channel("C1")) == {
        "type": "runCommandJSON", "command": "stop", "qualifier": "channel", "name": "C1"}


@pytest.mark.parametrize("body, said", [
    ([], "not a JSON object"), ({"type": "runCommand"}, "only runCommandJSON"),
    ({"type": "runCommandJSON", "command": "define", "qualifier": "qlocal"}, "not offered"),
    ({"type": "runCommandJSON", "command": "display", "qualifier": "qlocal",
      "parameters": {"descr": "x"}}, "parameter descr"),
    ({"type": "runCommandJSON", "command": "display", "qualifier": "qstatus",
      "parameters": {"where": "CURDEPTH ZZ 1"}}, "where"),
    ({"type": "runCommandJSON", "command": 7, "qualifier": "qmgr"}, "command is not text"),
])
def test_a_body_the_server_cannot_run_says_why(body, said):
    with pytest.raises(RestBodyError) as e:
        command_of(body)
    assert said in str(e.value)


@pytest.mark.parametrize("answer, said", [
    ("[]", "not a JSON object"), ('{"commandResponse": {}}', "not a list"),
    ('{"commandResponse": [3]}', "item 1 is not a JSON object"),
    ('{"commandResponse": [{"parameters": {"queue": "Q", "curdepth": "many"}}]}',
     "curdepth: 'many' is not a number"),
    ('{"commandResponse": [{"parameters": {"curdepth": 1}}]}', "no queue"),
    ('{"commandResponse": [{"parameters": {"queue": "Q", "lputdate": "2026-13-45", '
     '"lputtime": "10.00.00"}}]}', "not a date and time"),
    ('{"commandResponse": [], "overallCompletionCode": "0"}', "is not a number"),
])
def test_an_answer_that_is_not_runcommandjsons_says_where(answer, said):
    with pytest.raises(RestBodyError) as e:
        responses_of(cmd.inquire_queue_status("*"), json.loads(answer), qmgr="QM1")
    assert said in str(e.value)


def _estate(kind: str, seed: int):
    from pcf.mqmd import MQMD
    from traceroute.sim.cmdserver import attach
    from traceroute.sim.netgen import generate
    from traceroute.sim.simulator import Simulator

    network = generate(kind, 5, seed=seed, faults={"stopped_channel": 1}).network
    for qm in network.qmgrs.values():
        qm.attrs.update({"MONQ": "HIGH", "MONCHL": "HIGH", "PERFMEV": "ENABLED"})
    sim = Simulator(network, seed=seed)
    server = attach(sim)
    for qm in sim.network.qmgrs.values():  # traffic: every remote and local queue
        for name, q in list(qm.queues.items()):
            if q.kind in ("QLOCAL", "QREMOTE") and not name.startswith("SYSTEM.") \
                    and q.get("USAGE") != "XMITQ":
                sim.put(qm.name, name, MQMD(format="MQSTR"), b"x" * 10)
    sim.run(until=sim.now + 5)
    for qm in sim.network.qmgrs.values():
        for name, q in list(qm.queues.items()):
            if q.kind == "QLOCAL" and q.get("USAGE") != "XMITQ" and sim.depth(qm.name, name):
                sim.get(qm.name, name)
    sim.run(until=sim.now + 5)
    return sim, server


READERS = {
    mqc.MQCMD_INQUIRE_Q_MGR: lambda m, q: resp.definition_from(m, q, "QMGR"),
    mqc.MQCMD_INQUIRE_Q: lambda m, q: resp.definition_from(m, q, "QUEUE"),
    mqc.MQCMD_INQUIRE_CHANNEL: lambda m, q: resp.definition_from(m, q, "CHANNEL"),
    mqc.MQCMD_INQUIRE_Q_STATUS: lambda m, q: (resp.handle_status_from(m, q)
                                              if resp.is_handle_response(m)
                                              else resp.queue_status_from(m, q, TZ)),
    mqc.MQCMD_INQUIRE_CHANNEL_STATUS: lambda m, q: resp.channel_status_from(m, q, TZ),
    mqc.MQCMD_INQUIRE_CLUSTER_Q_MGR: lambda m, q: resp.cluster_qmgr_from(m, q),
    mqc.MQCMD_INQUIRE_Q_NAMES: lambda m, q: (m.get(mqc.MQCACF_Q_NAMES),
                                             m.get(mqc.MQIACF_Q_TYPES)),
    mqc.MQCMD_INQUIRE_CHANNEL_NAMES: lambda m, q: m.get(mqc.MQCACH_CHANNEL_NAMES),
}
TZ = timezone(timedelta(hours=2))  # a queue manager's local time, not UTC


@pytest.mark.parametrize("kind, seed", [("hub", 1), ("mesh", 2), ("cluster", 3)])
def test_answers_over_json_give_what_the_pcf_responses_give(kind, seed):
    sim, server = _estate(kind, seed)
    asked = [c for c in COMMANDS if c.header.command in READERS]
    compared = 0
    for qmgr in sim.network.qmgrs:
        for command in asked:
            pcf = server.execute(qmgr, command)
            names_only = command.header.command in (mqc.MQCMD_INQUIRE_Q_NAMES,
                                                    mqc.MQCMD_INQUIRE_CHANNEL_NAMES)
            body = json.loads(json.dumps(response_body(command, pcf, qmgr=qmgr, tz=TZ,
                                                       names_only=names_only)))
            back = responses_of(command, body, qmgr=qmgr, tz=TZ)
            read = READERS[command.header.command]
            h_pcf, h_back = pcf[-1].header, back[-1].header
            assert (h_pcf.comp_code, h_pcf.reason) == (h_back.comp_code, h_back.reason)
            if h_pcf.comp_code:
                continue
            mine = [read(m, qmgr) for m in pcf if m.parameters]
            theirs = [read(m, qmgr) for m in back if m.parameters]
            assert mine == theirs, (qmgr, command.header.command)
            compared += len(mine)
    assert compared > 50
