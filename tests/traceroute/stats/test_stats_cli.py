"""`mqroute stats` end to end, as a user runs it (subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pcf.dmpmqmsg import DumpedMessage, write_file
from pcf.mqmd import MQMD
from tests.traceroute.stats.stats_pcf import CFT_ACCOUNTING, CFT_STATISTICS, Builder
from tests.traceroute.stats.test_stats_decode import queue_stats_sequence

ROOT = Path(__file__).resolve().parents[3]
B = Builder()
HEAD = [B.cfst(2015, "QM1", 48), B.cfst(2711, "2026-11-23", 12), B.cfst(2712, "10.00.00", 8),
        B.cfst(2707, "2026-11-23", 12), B.cfst(2708, "10.30.00", 8), B.cfin(31, 940)]
MQI_STATS = B.message(CFT_STATISTICS, 164, [*HEAD, B.cfin(712, 3), B.cfil(735, [5, 1])])
CHANNEL_STATS = B.message(CFT_STATISTICS, 166, [*HEAD, B.cfin(732, 1)], [
    B.cfgr(8012, [B.cfst(3501, "QM1.TO.QM2", 20), B.cfin(1511, 1), B.cfst(2017, "QM2", 48),
                  B.cfin(728, 40), B.cfin64(746, 4096)])])
IDENTITY = [B.cfbs(7006, b"AMQCQM1         " + bytes(range(8))), B.cfin(1079, 0),
            B.cfst(3024, "amqsput", 28), B.cfin(1024, 4711), B.cfin(1025, 1),
            B.cfst(3025, "app", 12)]
Q_ACCOUNTING = B.message(CFT_ACCOUNTING, 168, [*HEAD, *IDENTITY, B.cfin(732, 1)], [
    B.cfgr(8010, [B.cfst(2016, "APP.Q", 48), B.cfin(20, 1), B.cfil(735, [2, 0])])])
ADMIN = MQMD(format="MQADMIN ", encoding=546, coded_char_set_id=1208)


def mqroute(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqroute", "stats", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def dump(tmp_path):
    path = tmp_path / "stats.dmp"
    write_file(path, [DumpedMessage(ADMIN, MQI_STATS), DumpedMessage(ADMIN, CHANNEL_STATS),
                      DumpedMessage(MQMD(format="MQSTR   "), b"not statistics"),
                      DumpedMessage(ADMIN, Q_ACCOUNTING)])
    return path


def test_text_as_amqsmon(dump):
    r = mqroute(str(dump))
    assert r.returncode == 0, r.stderr
    blocks = r.stdout.split("\n\n")
    assert blocks[0].splitlines()[:2] == ["RecordType: MQIStatistics", "QueueManager: 'QM1'"]
    assert "ConnCount: 3\nPutCount: [5, 1]" in blocks[0]
    assert "ChannelStatistics: 0\n  ChannelName: 'QM1.TO.QM2'\n  ChannelType: Sender" in r.stdout
    assert "RecordType: QueueAccounting" in r.stdout and "ApplicationPid: 4711" in r.stdout
    assert "3 records; skipped 1 message that is not accounting or statistics data" in r.stderr


def test_json_and_filters(dump):
    r = mqroute(str(dump), "--json")
    assert r.returncode == 0, r.stderr
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["record_type"] for o in objs] == ["MQIStatistics", "ChannelStatistics",
                                                "QueueAccounting"]
    assert objs[0]["object"] is None and objs[0]["interval_start"] == "2026-11-23T10:00:00"
    assert objs[1]["object"] == "QM1.TO.QM2" and objs[1]["data"]["TotalBytes"] == 4096
    assert objs[2]["data"]["ApplicationName"] == "amqsput" and \
        objs[2]["data"]["ConnectionId"].startswith("414d5143514d31")
    for flags, kinds in ((["--type", "channel"], ["ChannelStatistics"]),
                         (["--type", "queue"], ["QueueAccounting"]),
                         (["--type", "mqi", "--statistics"], ["MQIStatistics"]),
                         (["--accounting"], ["QueueAccounting"])):
        r = mqroute(str(dump), "--json", *flags)
        assert [json.loads(x)["record_type"] for x in r.stdout.splitlines()] == kinds, flags


def test_real_vector_raw_file(vectors):
    r = mqroute(str(vectors / "pymqi" / "statistics_q.dat"), "--json")
    assert r.returncode == 0, r.stderr
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(objs) == 16 and objs[0]["data"]["NonQueuedMsgCount"] == 14


def test_unreadable_input_is_reported_and_the_rest_processed(dump, tmp_path, vectors):
    truncated = vectors / "partial" / "pymqi_issue204_statistics_q_TRUNCATED.bin"
    r = mqroute(str(tmp_path / "missing.dmp"), str(truncated), str(dump))
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert any(x.startswith("mqroute: ") and "missing.dmp" in x for x in lines)
    assert any(f"mqroute: {truncated}:offset 240" in x for x in lines)
    assert "RecordType: ChannelStatistics" in r.stdout


def test_incomplete_sequence_is_used_and_reported(tmp_path):
    parts = queue_stats_sequence(B, [f"Q{i}" for i in range(250)])
    path = tmp_path / "split.dmp"
    write_file(path, [DumpedMessage(ADMIN, parts[0]), DumpedMessage(ADMIN, parts[2])])
    r = mqroute(str(path), "--json")
    assert r.returncode == 0
    assert len(r.stdout.splitlines()) == 150
    assert "incomplete QueueStatistics sequence" in r.stderr and "messages 2 missing" in r.stderr


def test_usage_errors_exit_2(dump):
    assert mqroute(str(dump), "--accounting", "--statistics").returncode == 2
    assert mqroute(str(dump), "--type", "topic").returncode == 2
