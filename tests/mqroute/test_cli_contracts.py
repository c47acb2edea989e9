"""The command line as one product: the CLI contracts of issues 15, 16, 17 and 19 checked
word by word through subprocesses, and the one error scheme (`mqroute: FILE:LINE|FILE:offset
N|FILE: reason`, exit 0/1/2, the per-input cap) held by every command that reads inputs."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from pcf import dmpmqmsg, mqc
from pcf.mqmd import MQMD, unpack
from tests.conftest import ROOT
from tests.traceroute.journeys.scenarios import M, app_put, qm1_to_qm2
from traceroute.records import example_reports

M2 = b"AMQ QM1         \x11\x22\x33\x44\x00\x00\x00\x02"
READERS = ("decode", "show", "stats", "events", "follow")


def mqroute(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "mqroute", *args], capture_output=True,
                       input=stdin, cwd=ROOT, timeout=120, text=False)
    r.out, r.err = r.stdout.decode(), r.stderr.decode()  # type: ignore[attr-defined]
    assert "Traceback" not in r.err and "internal error" not in r.err, r.err
    return r


def one_line_errors(err: str) -> list[str]:
    """Every stderr line starts with `mqroute` (no traceback, no bare exception)."""
    lines = err.splitlines()
    assert all(x.startswith(("mqroute", "usage:", " ")) for x in lines), err
    return lines


@pytest.fixture(scope="module")
def traces(tmp_path_factory) -> list[str]:
    """QM1's and QM2's activity-trace queues (spec-built): M consumed, M2 on QM1's xmitq."""
    d = tmp_path_factory.mktemp("trace")
    qm1, qm2 = qm1_to_qm2()[:2], qm1_to_qm2()[2:]
    stuck = app_put("QM1", "TARG.AT.QM2", M2, target_qmgr="QM2", xmitq="QM2", n=9, t=50)
    out = []
    for name, msgs in (("qm1.dmp", [*qm1, stuck]), ("qm2.dmp", qm2)):
        dmpmqmsg.write_file(d / name, [dmpmqmsg.DumpedMessage(unpack(md), x) for md, x in msgs])
        out.append(str(d / name))
    return out


# --- issue 15: follow ------------------------------------------------------------------

def test_follow_json_contract(traces: list[str]) -> None:
    r = mqroute("follow", "--json", *traces)
    rows = {row["msg_id"]: row for row in map(json.loads, r.out.splitlines())}
    assert r.returncode == 4  # one waiting on a transmission queue, nothing worse
    assert set(rows) == {M.hex().upper(), M2.hex().upper()}
    for row in rows.values():
        assert list(row) == ["msg_id", "verdict", "path", "last_location", "reply_to", "notes"]
        assert re.fullmatch(r"[0-9A-F]{48}", row["msg_id"])
        assert list(row["last_location"]) == ["queue_manager", "queue", "channel"]
        for step in row["path"]:
            assert list(step) == ["queue_manager", "operation", "queue", "object_name",
                                  "channel", "appl_name", "conn_id", "time", "comp_code",
                                  "reason"]
            assert step["operation"] in ("MQPUT", "MQPUT1", "MQGET", "MQCALLBACK")
            assert step["time"] is None or re.fullmatch(
                r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", step["time"])
    done, stuck = rows[M.hex().upper()], rows[M2.hex().upper()]
    assert done["verdict"] == "consumed" and done["reply_to"] is None
    assert done["path"][1]["channel"] == "QM1.TO.QM2" and done["path"][0]["channel"] is None
    assert stuck["verdict"] == "on_xmitq" and stuck["path"][0]["queue"] == "QM2"
    assert stuck["last_location"] == {"queue_manager": "QM1", "queue": "QM2", "channel": None}


def test_follow_msg_id_either_case_and_bad_hex(traces: list[str]) -> None:
    lower = mqroute("follow", "--json", "--msg-id", M.hex().lower(), *traces)
    assert lower.returncode == 0 and [json.loads(x)["verdict"] for x in
                                      lower.out.splitlines()] == ["consumed"]
    bad = mqroute("follow", "--msg-id", "12345", *traces)
    assert bad.returncode == 2 and bad.out == ""
    assert one_line_errors(bad.err) == ["mqroute: --msg-id: '12345' is not hex (an even "
                                        "number of 0-9, A-F)"]


def test_follow_unreadable_input_wins_over_verdicts(traces: list[str], tmp_path) -> None:
    r = mqroute("follow", str(tmp_path / "missing.dmp"), *traces)
    assert r.returncode == 1 and "consumed" in r.out
    assert f"mqroute: {tmp_path / 'missing.dmp'}: No such file or directory" in r.err


# --- issue 16: events replay -------------------------------------------------------------

@pytest.fixture
def replay_files(tmp_path: Path) -> tuple[str, str]:
    mqsc = tmp_path / "QM1.mqsc"
    mqsc.write_text("ALTER QMGR PERFMEV(ENABLED)\nDEFINE QLOCAL(Q1) MAXDEPTH(3) "
                    "QDPHIEV(ENABLED) QDEPTHHI(60) QDPMAXEV(ENABLED)\n")
    ops = tmp_path / "ops.csv"
    ops.write_text("time_ms,qmgr,queue,op,count\n1500,QM1,Q1,PUT,4\n2500,QM1,Q1,GET,5\n")
    return str(mqsc), str(ops)


def test_replay_json_contract(replay_files: tuple[str, str]) -> None:
    mqsc, ops = replay_files
    r = mqroute("events", "replay", "--mqsc", mqsc, "--ops", ops, "--json")
    assert r.returncode == 0
    events = [json.loads(x) for x in r.out.splitlines()]
    # 4 puts at 1.5 s on MAXDEPTH(3): high at depth 2 (60 %), full at 3, the 4th put fails;
    # the high event enabled the low one, raised by the gets at 2.5 s
    assert [e["eventReason"]["name"] for e in events] == ["Queue Depth High", "Queue Full",
                                                          "Queue Depth Low"]
    assert [e["eventCreation"]["epoch"] for e in events] == [1500 // 1000, 1500 // 1000,
                                                             2500 // 1000]
    for e in events:
        assert list(e) == ["eventSource", "eventType", "eventReason", "eventCreation",
                           "eventData"]
        assert list(e["eventData"]) == ["queueMgrName", "baseObjectName", "timeSinceReset",
                                        "highQueueDepth", "msgEnqCount", "msgDeqCount"]
        assert e["eventData"]["queueMgrName"] == "QM1"
        assert e["eventData"]["baseObjectName"] == "Q1"
    assert events[0]["eventData"]["timeSinceReset"] == 1  # seconds since time_ms 0
    assert events[0]["eventData"]["highQueueDepth"] == 2
    # a put to the full queue and two gets from the empty one: failed, reported on stderr,
    # a repeated failure once with its count
    errors = one_line_errors(r.err)
    assert sum("failed: MQRC_Q_FULL" in x for x in errors) == 1
    assert [x for x in errors if "failed: MQRC_NO_MSG_AVAILABLE" in x] == [
        f"mqroute: {ops}:3: GET QM1 Q1 at 2500 ms failed: MQRC_NO_MSG_AVAILABLE (2 times)"]
    assert all(x.startswith(f"mqroute: {ops}:") for x in errors[:-1])


def test_replay_ops_from_stdin_and_bad_ops(replay_files: tuple[str, str], tmp_path) -> None:
    mqsc, ops = replay_files
    piped = mqroute("events", "replay", "--mqsc", mqsc, "--ops", "-", "--json",
                    stdin=Path(ops).read_bytes())
    assert piped.returncode == 0 and len(piped.out.splitlines()) == 3
    assert "mqroute: <stdin>:2: PUT QM1 Q1" in piped.err
    zero = mqroute("events", "replay", "--mqsc", mqsc, "--ops", "/dev/zero")
    assert zero.returncode == 2
    assert one_line_errors(zero.err)[0].startswith("mqroute: /dev/zero:offset ")
    binary = tmp_path / "ops.bin"
    binary.write_bytes(b"\xe4\x00\xff")
    r = mqroute("events", "replay", "--mqsc", mqsc, "--ops", str(binary))
    assert r.returncode == 2 and r.err == f"mqroute: {binary}:offset 0: not UTF-8 OPS.csv " \
                                          "(byte 0xe4)\n"


def test_replay_unknown_queue_manager_is_named(replay_files: tuple[str, str],
                                               tmp_path: Path) -> None:
    mqsc, ops = replay_files
    other = tmp_path / "PERF.mqsc"
    other.write_text(Path(mqsc).read_text())
    r = mqroute("events", "replay", "--mqsc", str(other), "--ops", ops)
    assert r.returncode == 1 and r.out == ""
    assert f"mqroute: {ops}:2: queue manager QM1 is not in the MQSC (it has PERF;" in r.err


def test_events_from_json_round_trip_and_bounds(vectors: Path, tmp_path: Path) -> None:
    capture = vectors / "amqsevt-json" / "2224-queue-depth-high.json.txt"
    r = mqroute("events", "--from-json", str(capture), "--json", "--pretty")
    text = "".join(x for x in capture.read_text().splitlines(True) if not x.startswith("#"))
    assert r.returncode == 0 and r.out.strip() == text.strip()
    piped = mqroute("events", "--from-json", "-", "--json", stdin=capture.read_bytes())
    assert piped.returncode == 0 and json.loads(piped.out)["eventReason"]["value"] == 2224
    two = mqroute("events", "--from-json", str(capture),
                  str(vectors / "amqsevt-json" / "2053-queue-full.json.txt"), "--json",
                  "--reason", "MQRC_Q_FULL")  # FILE... after the option, filtered by reason
    assert two.returncode == 0 and [json.loads(x)["eventReason"]["value"]
                                    for x in two.out.splitlines()] == [2053]
    as_file = mqroute("events", "--json", str(capture))  # amqsevt JSON given as FILE
    assert as_file.returncode == 0 and json.loads(as_file.out)["eventReason"]["value"] == 2224
    zero = mqroute("events", "--from-json", "/dev/zero")
    assert zero.returncode == 1 and zero.err.startswith("mqroute: /dev/zero:offset ")


# --- issue 19: stats ---------------------------------------------------------------------

def test_stats_json_contract(vectors: Path, tmp_path: Path) -> None:
    r = mqroute("stats", "--json", str(vectors / "pymqi" / "statistics_q.dat"))
    rows = [json.loads(x) for x in r.out.splitlines()]
    assert r.returncode == 0 and len(rows) == 16
    for row in rows:
        assert list(row) == ["record_type", "queue_manager", "interval_start", "interval_end",
                             "object", "data"]
        assert row["record_type"] == "QueueStatistics" and row["queue_manager"] == "mq_mgr1"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", row["interval_start"])
        assert row["object"] == row["data"]["QueueName"]
        assert isinstance(row["data"]["PutCount"], list) and len(row["data"]["PutCount"]) == 2
        assert row["data"]["QueueType"] == mqc.MQQT_LOCAL  # MQ constants as numbers
    assert r.err == "mqroute: 16 records\n"
    # other messages are skipped and counted, exit 0; --type keeps one kind
    other = tmp_path / "report.bin"  # a raw activity report: another kind of message
    other.write_bytes(example_reports()[0][1])
    r = mqroute("stats", "--type", "channel", str(vectors / "pymqi" / "statistics_q.dat"),
                str(other))
    assert r.returncode == 0 and r.out == ""
    assert r.err == ("mqroute: 0 records; skipped 1 message that is not accounting or "
                     "statistics data\n")


# --- issue 16: cfstruct sizing examples -------------------------------------------------

def test_cfstruct_seed_sizing() -> None:
    r = mqroute("cfstruct", "--size", "4G", "--backlog", "1M")
    assert r.returncode == 0
    assert "backlog 1048576 messages: 768 MB of CF storage (0.75 KB each)" in r.out
    assert "OFFLD3TH(80)" in r.out.splitlines()[-1]


# --- one error scheme ----------------------------------------------------------------------

def _short(command: str) -> bytes:
    """An MQCFH (spec: 9 MQLONGs, StrucLength 36) of the kind the command reads, announcing
    one parameter that is not there: the decoder stops at byte offset 36."""
    kind = ((mqc.MQCFT_STATISTICS, mqc.MQCMD_STATISTICS_Q) if command == "stats"
            else (mqc.MQCFT_EVENT, mqc.MQCMD_PERFM_EVENT))
    return struct.pack("<9i", kind[0], 36, 1, kind[1], 1, 1, 0, 0, 1)


def _bad_raw(tmp_path: Path, command: str) -> Path:
    path = tmp_path / "short.bin"
    path.write_bytes(_short(command))
    return path


@pytest.mark.parametrize("command", READERS)
def test_bad_raw_message_is_file_offset(command: str, tmp_path: Path) -> None:
    bad = _bad_raw(tmp_path, command)
    r = mqroute(command, str(bad))
    assert r.returncode == 1
    assert re.search(rf"^mqroute: {re.escape(str(bad))}:offset \d+: ", r.err, re.M), r.err
    one_line_errors(r.err)


@pytest.mark.parametrize("command", READERS)
def test_problems_capped_per_input(command: str, tmp_path: Path) -> None:
    md = MQMD(format=mqc.MQFMT_ADMIN.strip())
    junk = [dmpmqmsg.DumpedMessage(md, _short(command)) for _ in range(25)]
    dump = tmp_path / "junk.dmp"
    dmpmqmsg.write_file(dump, junk)
    r = mqroute(command, str(dump))
    assert r.returncode == 1
    shown = [x for x in r.err.splitlines() if x.startswith(f"mqroute: {dump}:")
             and "more problems not shown" not in x]
    assert len(shown) == 20, r.err
    assert f"mqroute: {dump}: 5 more problems not shown (25 in all)" in r.err


@pytest.mark.parametrize("command", [*READERS, "audit --config", "events replay --ops x "
                                     "--mqsc", "report", "cfstruct --mqsc"])
def test_missing_file_is_one_line(command: str, tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    r = mqroute(*command.split(), str(missing))
    assert r.returncode in (1, 2) and r.out == ""
    lines = one_line_errors(r.err)
    assert any(x.startswith(f"mqroute: {missing}") for x in lines), r.err


def test_unknown_option_shows_the_subcommands_usage() -> None:
    r = mqroute("stats", "x.dmp", "--bogus")
    assert r.returncode == 2
    assert r.err.startswith("usage: mqroute stats ")
    assert r.err.rstrip().endswith("mqroute stats: error: unrecognized arguments: --bogus")


def test_no_arguments_is_usage_for_every_command() -> None:
    from mqroute.main import COMMANDS

    for name in COMMANDS:
        if name in ("trace", "cfstruct"):  # trace asks for -q; cfstruct prints its table
            continue
        r = mqroute(name)
        assert r.returncode == 2 and r.out == "", name
        assert r.err.strip().splitlines()[-1].startswith("mqroute"), (name, r.err)
    assert mqroute("trace").returncode == 2
    assert mqroute("cfstruct").returncode == 0




@pytest.mark.parametrize("command", ["audit --config", "cfstruct --mqsc",
                                     "events replay --ops OPS --mqsc", "trace -q Q1 --network",
                                     "report DIR --config"])
def test_bad_mqsc_is_file_line_column(command: str, tmp_path: Path) -> None:
    """Issue 17 (4): every command reading MQSC names FILE:LINE:COL, exit 2."""
    bad = tmp_path / "QM1.mqsc"
    bad.write_text("DEFINE QLOCAL('Q1)\n")
    (tmp_path / "ops.csv").write_text("time_ms,qmgr,queue,op\n")
    (tmp_path / "out" / "routes").mkdir(parents=True)
    words = [w.replace("OPS", str(tmp_path / "ops.csv")).replace("DIR", str(tmp_path / "out"))
             for w in command.split()]
    r = mqroute(*words, str(bad), "--strict")
    assert r.returncode == 2 and r.out == ""
    assert r.err.splitlines() == [
        f"mqroute: {bad}:1:15: AMQ8405I: Syntax error detected at or near end of command "
        "segment below:- (quoted string is never closed)",
        f"mqroute: {bad}: One MQSC command read. One command has a syntax error. All valid "
        "MQSC commands were processed.",
        "mqroute: 1 MQSC command failed: not going on (--strict)"]
