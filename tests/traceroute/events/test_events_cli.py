"""`mqroute events`, `mqroute events replay` and `mqroute cfstruct`, run as a user runs them."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path

from pcf import dmpmqmsg
from pcf.mqmd import unpack
from tests.traceroute.events.events_spec import cfh, cfin, cfst, mqmd

ROOT = Path(__file__).resolve().parents[3]
CAPTURES = "amqsevt-json"


def mqroute(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqroute", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def _event(command: int, reason: int, params: list[bytes], time: str) -> dmpmqmsg.DumpedMessage:
    md = unpack(mqmd(put_date="20260726", put_time=time, reply_qmgr="QM1"))
    return dmpmqmsg.DumpedMessage(md, cfh(command, reason, len(params)) + b"".join(params))


def _dump(tmp_path: Path) -> Path:
    full = _event(45, 2053, [cfst(2015, "QM1"), cfst(2002, "APP.IN"), cfin(35, 7),
                             cfin(36, 10), cfin(37, 12), cfin(38, 2)], "10000000")
    stopped = _event(46, 2283, [cfst(2015, "QM1"), cfst(3501, "QM1.TO.QM2", 20),
                                cfst(3505, "QM2"), cfin(1020, 10)], "10000500")
    report = dmpmqmsg.DumpedMessage(  # a PCF message that is no event: skipped, counted
        unpack(mqmd(put_date="20260726", put_time="10000600", reply_qmgr="QM1")),
        struct.pack("<9i", 12, 36, 1, 69, 1, 1, 0, 0, 0))  # MQCFT_REPORT, activity report
    broken = dmpmqmsg.DumpedMessage(full.md, full.data[:50])
    path = tmp_path / "events.dmp"
    dmpmqmsg.write_file(path, [full, report, broken, stopped], qmgr="QM1",
                        queue="SYSTEM.ADMIN.PERFM.EVENT")
    return path


def test_events_from_a_dump_lines_json_reason_and_a_broken_message(tmp_path: Path) -> None:
    path = _dump(tmp_path)
    r = mqroute("events", path)
    assert r.returncode == 1, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("2026-07-26T10:00:00Z QM1 Perfm Event: Queue Full (2053) APP.IN")
    assert "highQueueDepth=10" in lines[0] and "channelName=QM1.TO.QM2" in lines[1]
    assert f"mqroute: {path}:" in r.stderr and "offset" in r.stderr  # file:line, offset
    assert "2 events; skipped 1 message that is not event data" in r.stderr
    assert "Traceback" not in r.stderr
    r = mqroute("events", path, "--json", "--reason", "MQRC_CHANNEL_STOPPED")
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["eventReason"] for o in objs] == [{"name": "Channel Stopped", "value": 2283}]
    assert objs[0]["eventData"] == {"queueMgrName": "QM1", "channelName": "QM1.TO.QM2",
                                    "xmitQueueName": "QM2",
                                    "reasonQualifier": "Channel Stopped Disabled"}
    assert objs[0]["eventCreation"] == {"timeStamp": "2026-07-26T10:00:05Z",
                                        "epoch": 1785060005}
    assert mqroute("events", path, "--reason", "NO_SUCH_REASON").returncode == 2


def test_from_json_reads_every_capture_back(vectors: Path) -> None:
    files = sorted((vectors / CAPTURES).glob("*.txt"))
    r = mqroute("events", "--json", *[a for f in files for a in ("--from-json", f)])
    assert r.returncode == 0, r.stderr
    got = [json.loads(line) for line in r.stdout.splitlines()]
    expected = []
    for f in files:
        body = f.read_text().split("\n", 1)[1]
        expected += ([json.loads(line) for line in body.splitlines() if line.strip()]
                     if f.name.endswith(".jsonl.txt") else [json.loads(body)])
    assert got == expected and len(got) == 16
    one = vectors / CAPTURES / "2224-queue-depth-high.json.txt"
    r = mqroute("events", "--from-json", one, "--json", "--pretty")
    assert r.stdout == one.read_text().split("\n", 1)[1]


MQSC = """\
ALTER QMGR PERFMEV(ENABLED)
DEFINE QLOCAL('MYQUEUE1') MAXDEPTH(1000) QDPMAXEV(DISABLED) QDEPTHHI(80) +
       QDPHIEV(ENABLED) QDEPTHLO(20) QDPLOEV(DISABLED)
DEFINE QLOCAL('SLOW.Q') QSVCINT(10000) QSVCIEV(HIGH)
"""

# The seed's queue depth example 1 as OPS.csv (counts at one time each), plus a
# service-interval High, a failed get and a restart
OPS = """\
time_ms,qmgr,queue,op,count
1000,QM1,MYQUEUE1,PUT,600
2000,QM1,MYQUEUE1,GET,357
3500,QM1,MYQUEUE1,PUT,557
4000,QM1,MYQUEUE1,PUT,100
5000,QM1,MYQUEUE1,GET,600
6000,QM1,MYQUEUE1,PUT,600
7000,QM1,MYQUEUE1,GET,600
8000,QM1,MYQUEUE1,PUT,520
9000,QM1,MYQUEUE1,GET,619
12999,QM1,MYQUEUE1,GET,1
0,QM1,SLOW.Q,PUT
20000,QM1,SLOW.Q,GET
21000,QM1,SLOW.Q,GET
22000,QM1,,RESTART
"""


def test_replay_contract(tmp_path: Path) -> None:
    (tmp_path / "QM1.mqsc").write_text(MQSC)
    (tmp_path / "ops.csv").write_text(OPS)
    r = mqroute("events", "replay", "--mqsc", tmp_path / "QM1.mqsc", "--ops",
                tmp_path / "ops.csv", "--json")
    assert r.returncode == 0, r.stderr
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(o["eventReason"]["name"], o["eventCreation"]["epoch"], o["eventData"])
            for o in objs] == [
        ("Queue Depth High", 3, {"queueMgrName": "QM1", "baseObjectName": "MYQUEUE1",
                                 "timeSinceReset": 3, "highQueueDepth": 800,
                                 "msgEnqCount": 1157, "msgDeqCount": 357}),
        ("Queue Depth Low", 12, {"queueMgrName": "QM1", "baseObjectName": "MYQUEUE1",
                                 "timeSinceReset": 9, "highQueueDepth": 900,
                                 "msgEnqCount": 1220, "msgDeqCount": 1820}),
        ("Queue Service Interval High", 20, {
            "queueMgrName": "QM1", "baseObjectName": "SLOW.Q", "timeSinceReset": 20,
            "highQueueDepth": 1, "msgEnqCount": 1, "msgDeqCount": 1}),
    ]
    assert objs[0]["eventSource"] == {"objectName": "SYSTEM.ADMIN.PERFM.EVENT",
                                      "objectType": "Queue", "queueMgr": "QM1"}
    assert objs[0]["eventType"] == {"name": "Perfm Event", "value": 45}
    assert r.stderr.count("MQRC_NO_MSG_AVAILABLE") == 1 and "ops.csv:14" in r.stderr
    text = mqroute("events", "replay", "--mqsc", tmp_path / "QM1.mqsc", "--ops",
                   tmp_path / "ops.csv")
    assert text.returncode == 0 and len(text.stdout.splitlines()) == 3
    assert "Queue Depth High" in text.stdout.splitlines()[0]


def test_replay_bad_input(tmp_path: Path) -> None:
    (tmp_path / "QM1.mqsc").write_text(MQSC)
    (tmp_path / "ops.csv").write_text("time_ms,qmgr,queue,op\n0,QM1,MYQUEUE1,PUT\nzz,QM1\n")
    r = mqroute("events", "replay", "--mqsc", tmp_path / "QM1.mqsc", "--ops",
                tmp_path / "ops.csv", "--json")
    assert r.returncode == 1 and "ops.csv:3:" in r.stderr
    (tmp_path / "bad.csv").write_text("when,who\n")
    r = mqroute("events", "replay", "--mqsc", tmp_path / "QM1.mqsc", "--ops",
                tmp_path / "bad.csv")
    assert r.returncode == 2 and "bad.csv:1: header" in r.stderr
    assert mqroute("events", "replay", "--ops", tmp_path / "ops.csv").returncode == 2
    (tmp_path / "broken.mqsc").write_text("DEFINE QLOCAL(\n")
    r = mqroute("events", "replay", "--mqsc", tmp_path / "broken.mqsc", "--ops",
                tmp_path / "ops.csv", "--strict")
    assert r.returncode == 2 and "broken.mqsc:" in r.stderr and "Traceback" not in r.stderr
    r = mqroute("events", "replay", "--mqsc", tmp_path / "broken.mqsc", "--ops",
                tmp_path / "ops.csv")  # as runmqsc: the command reported, the rest goes on
    assert "broken.mqsc:1:" in r.stderr and "Traceback" not in r.stderr
    r = mqroute("events", "replay", "--mqsc", tmp_path / "missing.mqsc", "--ops",
                tmp_path / "ops.csv")
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_cfstruct_seed_example() -> None:
    r = mqroute("cfstruct", "--size", "4G", "--backlog", "1M")
    assert r.returncode == 0, r.stderr
    assert "768 MB" in r.stdout and "18.75%" in r.stdout
    assert "OFFLD3TH(80) OFFLD3SZ(0K)" in r.stdout.splitlines()[-1]
    r = mqroute("cfstruct", "--offload", "1", "0", "32K", "--message", "40K", "--usage", "1")
    assert "offloaded" in r.stdout and "OFFLD1TH(0)" in r.stdout
    assert mqroute("cfstruct", "--offload", "4", "1", "1K").returncode == 2


def test_show_and_follow_take_events_that_explain_a_stuck_message(tmp_path: Path) -> None:
    from importlib import resources

    from traceroute.records.tracemsg import TraceOptions, build_trace_message
    from traceroute.sim import Simulator, parse_mqsc
    from traceroute.sim.events import SimEvents

    example = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
    sim = Simulator(parse_mqsc(example + "\n* Queue manager name: QM1\n"
                               "ALTER QMGR CHLEV(ENABLED)\n"))
    SimEvents(sim)
    sim.stop_channel("QM1", "QM1.TO.QM2")  # no MCA yet: no event, the channel is just down
    sim.start_channel("QM1", "QM1.TO.QM2")
    opts = TraceOptions.from_dspmqrte(q="TARG.AT.QM2", rq="ACTIV.REPLY.Q")
    md, data = build_trace_message(opts, msg_id=sim.new_msg_id("QM1"))
    sim.put("QM1", opts.target_q, md, data)
    sim.run()
    sim.stop_channel("QM1", "QM1.TO.QM2")
    md2, data2 = build_trace_message(opts, msg_id=sim.new_msg_id("QM1"))
    sim.put("QM1", opts.target_q, md2, data2)
    sim.run()
    reports = [dmpmqmsg.DumpedMessage(m, d) for m, d in sim.browse("QM1", "ACTIV.REPLY.Q")]
    events = [dmpmqmsg.DumpedMessage(m, d)
              for m, d in sim.browse("QM1", "SYSTEM.ADMIN.CHANNEL.EVENT")]
    dmpmqmsg.write_file(tmp_path / "reports.dmp", reports)
    dmpmqmsg.write_file(tmp_path / "events.dmp", events)
    r = mqroute("show", tmp_path / "reports.dmp", "--events", tmp_path / "events.dmp")
    assert r.returncode == 0, r.stderr
    lines = [x for x in r.stdout.splitlines() if x.startswith("event ")]
    assert lines == [f"event {md2.msg_id.hex().upper()}: {lines[0].split(': ', 1)[1]}"]
    assert "channel QM1.TO.QM2 stopped (Channel Stopped By User) on QM1" in lines[0]
    (tmp_path / "events.json").write_text(mqroute("events", tmp_path / "events.dmp",
                                                  "--json").stdout)
    r = mqroute("show", tmp_path / "reports.dmp", "--json", "--events",
                tmp_path / "events.json")
    assert all(line.startswith("{") for line in r.stdout.splitlines())  # JSON stays JSON
    assert "Channel Stopped By User" in r.stderr
    assert "--events" in mqroute("follow", "--help").stdout
