"""`mqroute follow`: the CLI contract of issue 15 on spec-built activity trace."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mqroute.main import main
from pcf.dmpmqmsg import DumpedMessage, write_file
from pcf.mqmd import MQMD, unpack
from tests.traceroute.journeys.scenarios import (
    M,
    app_get,
    app_put,
    mca_get,
    mca_put,
    qm1_to_qm2,
)
from tests.traceroute.journeys.spec_build import LE, cfh, cfin

ROOT = Path(__file__).resolve().parents[3]
M2 = b"AMQ QM1         \x11\x22\x33\x44\x00\x00\x00\x02"


def dump(path: Path, messages: list[tuple[bytes, bytes]]) -> Path:
    write_file(path, [DumpedMessage(unpack(md), data) for md, data in messages])
    return path


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["follow", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def two_files(tmp_path: Path) -> list[str]:
    """QM1's and QM2's trace queues dumped separately; a second message stuck on QM1."""
    qm1, qm2 = qm1_to_qm2()[:2], qm1_to_qm2()[2:]
    stuck = app_put("QM1", "TARG.AT.QM2", M2, target_qmgr="QM2", xmitq="QM2", n=9, t=50)
    return [str(dump(tmp_path / "qm2.dmp", qm2)),
            str(dump(tmp_path / "qm1.dmp", [*qm1, stuck]))]


def test_json_lines_contract(capsys, two_files: list[str]) -> None:
    code, out, err = run(capsys, "--json", *two_files)
    rows = [json.loads(line) for line in out.splitlines()]
    by_id = {r["msg_id"]: r for r in rows}
    assert set(by_id) == {M.hex().upper(), M2.hex().upper()}
    done = by_id[M.hex().upper()]
    assert list(done) == ["msg_id", "verdict", "path", "last_location", "reply_to", "notes"]
    assert done["verdict"] == "consumed" and len(done["path"]) == 4
    assert [p["queue_manager"] for p in done["path"]] == ["QM1", "QM1", "QM2", "QM2"]
    assert done["path"][1]["channel"] == "QM1.TO.QM2" and done["path"][0]["channel"] is None
    assert done["path"][0]["conn_id"] and len(done["path"][0]["conn_id"]) == 48
    stuck = by_id[M2.hex().upper()]
    assert stuck["verdict"] == "on_xmitq"
    assert stuck["last_location"] == {"queue_manager": "QM1", "queue": "QM2", "channel": None}
    assert code == 4
    assert "2 journeys from" in err


@pytest.mark.parametrize("case", [M.hex().upper(), M.hex().lower(), M.hex()[:20].upper()
                                  + M.hex()[20:].lower()])
def test_msg_id_either_case(capsys, two_files: list[str], case: str) -> None:
    code, out, _ = run(capsys, "--json", "--msg-id", case, *two_files)
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["msg_id"] for r in rows] == [M.hex().upper()] and code == 0


def test_unknown_msg_id_said_and_bad_hex_is_usage(capsys, two_files: list[str]) -> None:
    code, out, err = run(capsys, "--msg-id", "00" * 24, *two_files)
    assert out == "" and "no MQI call of MsgId" in err and code == 0
    code, _, err = run(capsys, "--msg-id", "XYZ", *two_files)
    assert code == 2 and "--msg-id" in err


def test_text_output(capsys, two_files: list[str]) -> None:
    _code, out, _ = run(capsys, *two_files)
    assert f"Message {M.hex().upper()}: consumed - last seen on QM2 TARGET.Q" in out
    assert f"Message {M2.hex().upper()}: on_xmitq - last seen on QM1 QM2" in out
    _code_v, out_v, _ = run(capsys, "-v", *two_files)
    assert "Operation Id: MQXF_GET" in out_v and len(out_v) > len(out)


@pytest.mark.parametrize(("messages", "status"), [
    (qm1_to_qm2(), 0),
    ([app_put("QM1", "LQ")], 0),
    (qm1_to_qm2()[:2], 3),
    ([qm1_to_qm2()[0], qm1_to_qm2()[2]], 3),
    ([app_put("QM1", "TARG.AT.QM2", target_qmgr="QM2", xmitq="QM2")], 4),
    ([*qm1_to_qm2()[:2], mca_put("QM2", "DLQ", "QM1.TO.QM2", dead=True)], 5),
    ([app_put("QM1", "X", cc=2, reason=2085), *qm1_to_qm2()], 6),
])
def test_exit_status_per_verdict(capsys, tmp_path: Path, messages, status: int) -> None:
    code, _, _ = run(capsys, str(dump(tmp_path / "t.dmp", messages)))
    assert code == status


def test_other_messages_skipped_and_counted(capsys, tmp_path: Path) -> None:
    command = (MQMD(format="MQADMIN").pack(), cfh(LE, 1, type_=1, command=13) + cfin(LE, 1, 1))
    text = (MQMD(format="MQSTR").pack(), b"hello world")
    path = dump(tmp_path / "mixed.dmp", [command, *qm1_to_qm2(), text])
    code, out, err = run(capsys, "--json", str(path))
    assert code == 0 and len(out.splitlines()) == 1
    assert "skipped 2 messages that are not activity trace data" in err


def test_unreadable_input_named_rest_processed(capsys, tmp_path: Path) -> None:
    md, data = qm1_to_qm2()[0]
    broken = (md, data[:-10])
    path = dump(tmp_path / "broken.dmp", [broken, *qm1_to_qm2()[1:]])
    missing = tmp_path / "nope.dmp"
    code, out, err = run(capsys, "--json", str(path), str(missing))
    assert code == 1
    lines = [x for x in err.splitlines() if x.startswith("mqroute: ") and "offset" in x]
    assert lines and lines[0].startswith(f"mqroute: {path}:") and "offset" in lines[0]
    assert f"mqroute: {missing}:" in err
    assert json.loads(out.splitlines()[0])["verdict"] == "consumed"  # put missing: a note
    assert "Traceback" not in err


def test_activity_report_joined_by_msg_id(capsys, tmp_path: Path) -> None:
    from traceroute.records.samples import example_reports

    reports = example_reports()
    md = reports[0][0]
    path = dump(tmp_path / "t.dmp", [
        app_put("QM1", "LQ", md.correl_id), *app_get("QM1", "LQ", md.correl_id)])
    rpath = tmp_path / "r.dmp"
    write_file(rpath, [DumpedMessage(m, d) for m, d in reports])
    _code, out, _ = run(capsys, "--json", str(path), str(rpath))
    notes = json.loads(out.splitlines()[0])["notes"]
    assert len(notes) == 4 and notes[2].startswith("report (")
    assert notes[2].endswith("QM2 amqrmppa Receive, Put")


def test_subprocess_and_raw_files(tmp_path: Path) -> None:
    raw = []
    for i, (_md, data) in enumerate(qm1_to_qm2()):
        p = tmp_path / f"m{i}.bin"
        p.write_bytes(data)
        raw.append(str(p))
    done = subprocess.run([sys.executable, "-m", "mqroute", "follow", "--json", *raw],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout)
    assert row["verdict"] == "consumed" and row["path"][0]["conn_id"] is None
    stuck = subprocess.run([sys.executable, "-m", "mqroute", "follow", *raw[:1]],
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert stuck.returncode == 4 and "on_xmitq" in stuck.stdout
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"\x1a\x00\x00\x00garbage" + bytes(40))
    broken = subprocess.run([sys.executable, "-m", "mqroute", "follow", str(bad), *raw],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert broken.returncode == 1 and "Traceback" not in broken.stderr
    assert broken.stderr.startswith(f"mqroute: {bad}")
    assert '"consumed"' not in broken.stdout and "consumed" in broken.stdout


def test_mca_get_alone_is_in_transit(capsys, tmp_path: Path) -> None:
    path = dump(tmp_path / "t.dmp", [mca_get("QM1", "QM2", "QM1.TO.QM2", "QM2", "TARGET.Q")])
    code, out, _ = run(capsys, "--json", str(path))
    assert code == 3 and json.loads(out)["verdict"] in ("in_transit", "incomplete")
