"""The `mqroute decode` command on dumps, raw files and the bundled example."""

from __future__ import annotations

import json
import subprocess
import sys

import pcf
from mqroute.main import main
from pcf import dmpmqmsg
from traceroute.records.samples import example_reports


def _headings(out: str) -> int:
    return sum(1 for line in out.splitlines() if line.startswith("Message "))


def test_example_prints_named_trees(capsys):
    assert main(["decode", "--example"]) == 0
    out = capsys.readouterr().out
    assert _headings(out) == 4
    assert "MQCACF_APPL_NAME: 'runmqchl'" in out
    assert "MQIACF_OPERATION_TYPE: 8 (MQOPER_SEND)" in out
    assert "MQCACH_CHANNEL_NAME: 'QM1.TO.QM2'" in out


def test_dump_file_as_json(tmp_path, capsys):
    reports = example_reports()
    path = tmp_path / "activity.dmp"
    path.write_text(dmpmqmsg.write([dmpmqmsg.DumpedMessage(md, data) for md, data in reports],
                                   qmgr="QM1", queue="SYSTEM.ADMIN.ACTIVITY.QUEUE"))
    assert main(["decode", str(path), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 4
    assert records[0]["md"]["format"] == "MQHEPCF"
    assert records[0]["md"]["correl_id"] == reports[0][0].correl_id.hex()
    activity = records[1]["pcf"]["parameters"][0]
    assert activity["label"] == "Activity" and activity["parameters"][0]["value"] == "runmqchl"


def test_raw_pcf_file(tmp_path, vectors, capsys):
    raw = tmp_path / "stats.bin"
    raw.write_bytes((vectors / "pymqi/statistics_q.dat").read_bytes())
    assert main(["decode", str(raw)]) == 0
    out = capsys.readouterr().out
    assert "MQCA_Q_MGR_NAME: 'mq_mgr1'" in out and out.count("QStatisticsData") == 16


def test_corrupt_message_reported_and_rest_printed(tmp_path, capsys):
    reports = example_reports()
    md, data = reports[1]
    broken = data[:200]
    messages = [dmpmqmsg.DumpedMessage(*reports[0]), dmpmqmsg.DumpedMessage(md, broken),
                dmpmqmsg.DumpedMessage(*reports[2])]
    path = tmp_path / "mixed.dmp"
    path.write_text(dmpmqmsg.write(messages))
    assert main(["decode", str(path)]) == 1
    captured = capsys.readouterr()
    assert _headings(captured.out) == 2
    assert "message 2" in captured.err and str(path) in captured.err
    assert "offset" in captured.err


def test_non_pcf_message_kept(tmp_path, capsys):
    md = pcf.MQMD(format="MQSTR")
    path = tmp_path / "text.dmp"
    path.write_text(dmpmqmsg.write([dmpmqmsg.DumpedMessage(md, b"hello")]))
    assert main(["decode", str(path)]) == 0
    assert "not PCF (format 'MQSTR')" in capsys.readouterr().out


def test_missing_file_is_a_clear_error(capsys):
    assert main(["decode", "/nonexistent/file.dmp"]) == 1  # an unreadable input
    assert "mqroute: /nonexistent/file.dmp: No such file" in capsys.readouterr().err


def test_console_script_runs():
    result = subprocess.run([sys.executable, "-m", "mqroute", "decode", "--example"],
                            capture_output=True, text=True, check=True)
    assert "MQGACF_ACTIVITY" in result.stdout
