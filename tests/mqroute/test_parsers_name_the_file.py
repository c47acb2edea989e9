"""Every parser names the file (and line) and goes on: never 'internal error'.

amqsevt JSON nested a hundred thousand deep, holding a 5,000-digit number, an infinite or
NaN number; sizes of 400 digits in cfstruct's options and in MQSC; OPS.csv numbers of 400
digits: each is one line naming where and why, the good documents, lines and files around
it are still read, and the exit status is the documented one.
"""

from __future__ import annotations

import json

import pytest

from mqroute.main import main

GOOD = {"eventSource": {"objectName": "SYSTEM.ADMIN.PERFM.EVENT", "objectType": "Queue",
                        "queueMgr": "QM1"},
        "eventType": {"name": "Perfm Event", "value": 45},
        "eventReason": {"name": "Queue Depth High", "value": 2224},
        "eventCreation": {"timeStamp": "2026-11-22T10:00:00Z", "epoch": 1795341600},
        "eventData": {"queueMgrName": "QM1", "baseObjectName": "Q1", "timeSinceReset": 5,
                      "highQueueDepth": 8, "msgEnqCount": 8, "msgDeqCount": 0}}
BIG = "9" * 5000


def bad_documents() -> list[tuple[str, str]]:
    deep = "[" * 100_000 + "]" * 100_000
    return [("deep", json.dumps({**GOOD, "eventData": "X"}).replace('"X"', deep)),
            ("5,000 digits", json.dumps({**GOOD, "eventData": {"highQueueDepth": 1}})
             .replace(": 1}", f": {BIG}}}")),
            ("range", json.dumps({**GOOD, "eventData": {"highQueueDepth": 1}})
             .replace(": 1}", ": 1e999}")),
            ("NaN", json.dumps({**GOOD, "eventData": {"highQueueDepth": 1}})
             .replace(": 1}", ": NaN}"))]


@pytest.mark.parametrize("case", range(4))
def test_amqsevt_json_bad_document_among_good_ones(case, tmp_path, capsys):
    what, bad = bad_documents()[case]
    mixed = tmp_path / "mixed.json"
    mixed.write_text("\n".join([json.dumps(GOOD), bad, json.dumps(GOOD)]) + "\n")
    other = tmp_path / "other.json"
    other.write_text(json.dumps(GOOD) + "\n")
    assert main(["events", "--from-json", str(mixed), str(other)]) == 1
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 3, (what, out)            # every good event
    problems = [line for line in err.splitlines() if "mixed.json:2:" in line]
    assert len(problems) == 1 and "internal error" not in err, (what, err)


def test_sizes_of_400_digits(tmp_path, capsys):
    huge = "9" * 400
    assert main(["cfstruct", "--offload", "1", "50", huge]) == 2
    assert main(["cfstruct", "--size", huge + "G", "--backlog", "1M"]) == 2
    mqsc = tmp_path / "QM1.mqsc"
    mqsc.write_text(f"DEFINE CFSTRUCT(APP1) CFLEVEL(5) OFFLD1SZ({huge}K) OFFLD1TH(50)\n")
    assert main(["cfstruct", "--mqsc", str(mqsc), "--name", "APP1"]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err
    assert all(line.startswith("mqroute: ") and len(line) < 300 for line in err.splitlines())
    assert err.count("too large") == 3


def test_ops_numbers_of_400_digits(tmp_path, capsys):
    mqsc = tmp_path / "QM1.mqsc"
    mqsc.write_text("DEFINE QLOCAL(Q)\n")
    ops = tmp_path / "ops.csv"
    ops.write_text("time_ms,qmgr,queue,op,count\n" f"{'9' * 400},QM1,Q,PUT,1\n"
                   f"1,QM1,Q,PUT,{'9' * 400}\n2,QM1,Q,PUT,1\n")
    assert main(["events", "replay", "--mqsc", str(mqsc), "--ops", str(ops)]) == 1
    err = capsys.readouterr().err
    assert f"{ops}:2:" in err and f"{ops}:3:" in err and "from 1 operations" in err
    assert "internal error" not in err and all(len(line) < 400 for line in err.splitlines())
