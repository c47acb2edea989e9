"""Issue 17, class 1: parameters the code has no field for (an unknown MQCFIN id, twice; an
unknown nested group) inside Operation and Activity groups are kept, displayed, and never
break ordering or identity. Reports are built with struct from the spec."""

from __future__ import annotations

import json
import subprocess
import sys

import pcf
from pcf import dmpmqmsg, mqc
from tests.support.pcfbytes import cfgr, cfin, cfst, message
from traceroute.readers import load_records
from traceroute.routes import Verdict, build_routes

KEY = bytes(range(24))
UNKNOWN_INT, UNKNOWN_GROUP = 1999, 8999


def operation(op_type: int, time: bytes, queue: bytes) -> bytes:
    return cfgr(mqc.MQGACF_OPERATION, [
        cfin(mqc.MQIACF_OPERATION_TYPE, op_type),
        cfst(mqc.MQCACF_OPERATION_DATE, b"2026-11-22"),
        cfst(mqc.MQCACF_OPERATION_TIME, time),
        cfst(mqc.MQCA_Q_MGR_NAME, b"QM1"),
        cfst(mqc.MQCA_Q_NAME, queue), cfst(mqc.MQCACF_RESOLVED_Q_NAME, queue),
        cfin(UNKNOWN_INT, 5), cfin(UNKNOWN_INT, 6),  # twice the same unknown id
        cfgr(UNKNOWN_GROUP, [cfin(1, 2), cfgr(UNKNOWN_GROUP + 1, [cfst(3001, b"deep")])]),
    ])


def report(appl: bytes, op: bytes) -> bytes:
    return message([cfgr(mqc.MQGACF_ACTIVITY, [
        cfst(mqc.MQCACF_APPL_NAME, appl), cfin(mqc.MQIA_APPL_TYPE, 11),
        cfin(UNKNOWN_INT, 1),  # unknown at the activity level too
        op])])


def dump(tmp_path, reports: list[bytes], name: str = "act.dmp"):
    md = pcf.MQMD(format="MQADMIN", msg_type=mqc.MQMT_REPORT, feedback=mqc.MQFB_ACTIVITY,
                  correl_id=KEY, encoding=mqc.MQENC_REVERSED, coded_char_set_id=1208)
    path = tmp_path / name
    dmpmqmsg.write_file(path, [dmpmqmsg.DumpedMessage(md, r) for r in reports])
    return path


REPORTS = [report(b"putter", operation(mqc.MQOPER_PUT, b"10.00.00", b"Q1")),
           report(b"getter", operation(mqc.MQOPER_GET, b"10.00.01", b"Q1"))]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqroute", *args], capture_output=True,
                          text=True, timeout=120)


def test_api_routes_keep_every_unknown_parameter(tmp_path):
    path = dump(tmp_path, REPORTS[::-1])  # arrival order reversed: chaining must order
    problems: list = []
    records = list(load_records([path], lambda *p: problems.append(p)))
    (route,) = build_routes(records + records)  # duplicates count once: identity works
    assert problems == [] and route.verdict is Verdict.DELIVERED
    assert [a.appl_name for a in route.activities] == ["putter", "getter"]
    op = route.activities[0].operations[0]
    assert [e.parameter.parameter for e in op.extra] == [UNKNOWN_INT, UNKNOWN_INT,
                                                         UNKNOWN_GROUP]
    assert [e.parameter.value for e in op.extra[:2]] == [5, 6]
    assert len({route.activities[0], route.activities[1]}) == 2  # hashable, distinct


def test_show_displays_them(tmp_path):
    path = dump(tmp_path, REPORTS)
    result = run("show", str(path), "-v", "all")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert result.stdout.count(f"{UNKNOWN_INT}: 5") == 2  # both activities' Operation
    assert result.stdout.count(f"{UNKNOWN_INT}: 6") == 2
    assert f"{UNKNOWN_GROUP}: (2 parameters)" in result.stdout


def test_show_json_keeps_repeated_ids_and_nested_groups(tmp_path):
    path = dump(tmp_path, REPORTS)
    result = run("show", str(path), "--json")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    (doc,) = [json.loads(line) for line in result.stdout.splitlines()]
    extra = doc["activities"][0]["operations"][0]["extra"]
    assert [v["value"] for v in extra[str(UNKNOWN_INT)]] == [5, 6]
    nested = extra[str(UNKNOWN_GROUP)]["parameters"][1]["parameters"][0]
    assert nested["value"] == "deep"
    assert doc["activities"][0]["extra"][str(UNKNOWN_INT)]["value"] == 1


def test_decode_prints_them(tmp_path):
    path = dump(tmp_path, REPORTS)
    result = run("decode", str(path))
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert result.stdout.count(f"{UNKNOWN_INT}: 5") == 2 and "'deep'" in result.stdout
