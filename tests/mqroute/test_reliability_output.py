"""Issue 17, class 10: output in proportion to input. An MQCFSL with a huge Count of tiny
strings (and a long MQCFIL) inside an activity report, through every renderer: decode's
tree and JSON, show's dspmqrte text and JSON. Summarised, saying so; never ~10x."""

from __future__ import annotations

import json
import subprocess
import sys

import pcf
from pcf import dmpmqmsg, mqc
from tests.support.pcfbytes import cfgr, cfil, cfin, cfsl, cfst, message

N = 200_000


def hostile_report() -> bytes:
    return message([cfgr(mqc.MQGACF_ACTIVITY, [
        cfst(mqc.MQCACF_APPL_NAME, b"app"),
        cfsl(3999, [b"\x01"] * N, 1),  # unknown: kept as an extra of the activity
        cfgr(mqc.MQGACF_OPERATION, [
            cfin(mqc.MQIACF_OPERATION_TYPE, mqc.MQOPER_PUT),
            cfst(mqc.MQCA_Q_MGR_NAME, b"QM1"), cfst(mqc.MQCA_Q_NAME, b"Q"),
            cfsl(3998, [b""] * 10, 0), cfil(1998, [-1] * N)])])])


def run(*args: str) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "mqroute", *args], capture_output=True,
                       text=True, timeout=120)
    assert "Traceback" not in r.stderr
    return r


def test_every_renderer_stays_in_proportion(tmp_path):
    data = hostile_report()
    md = pcf.MQMD(format="MQADMIN", msg_type=mqc.MQMT_REPORT, feedback=mqc.MQFB_ACTIVITY,
                  correl_id=b"\x01" * 24, encoding=mqc.MQENC_REVERSED, coded_char_set_id=1208)
    path = tmp_path / "big.dmp"
    dmpmqmsg.write_file(path, [dmpmqmsg.DumpedMessage(md, data)])
    for args in (["decode"], ["decode", "--json"], ["show", "--json"]):
        r = run(*args, str(path))
        assert r.returncode == 0, (args, r.stderr)
        assert len(r.stdout) <= 3 * len(data), (args, len(r.stdout), len(data))
        assert "not shown" in r.stdout, args
    r = run("show", str(path), "-v", "all")
    assert r.returncode == 0 and "not shown" in r.stdout and len(r.stdout) <= 3 * len(data)
    doc = json.loads(run("show", "--json", str(path)).stdout)
    extra = doc["activities"][0]["extra"]["3999"]
    assert extra["count"] == N and extra["not_shown"] + len(extra["value"]) == N
