"""Issue 17, class 14: remote definitions and queue-manager aliases whose transmission queue
is missing or is not a local queue with USAGE(XMITQ) are findings naming the objects."""

from __future__ import annotations

import json
import subprocess
import sys

from graph.audit import audit
from mqroute.main import main
from traceroute.sim.mqsc import parse_mqsc

CONFIG = """\
* Queue manager name: QM1
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE CHANNEL(QM1.QM2) CHLTYPE(SDR) CONNAME('qm2') XMITQ(QM2)
DEFINE QLOCAL(NORMAL.Q)
DEFINE QALIAS(AN.ALIAS) TARGET(NORMAL.Q)
* fine: explicit xmitq, and the xmitq named after RQMNAME
DEFINE QREMOTE(GOOD.1) RNAME(T) RQMNAME(QM2) XMITQ(QM2)
DEFINE QREMOTE(GOOD.2) RNAME(T) RQMNAME(QM2)
DEFINE QREMOTE(QM2.ALIAS) RNAME(' ') RQMNAME(QM2)
* faults
DEFINE QREMOTE(NO.SUCH.XMITQ) RNAME(T) RQMNAME(QM2) XMITQ(MISSING.XQ)
DEFINE QREMOTE(XMITQ.IS.NORMAL) RNAME(T) RQMNAME(QM2) XMITQ(NORMAL.Q)
DEFINE QREMOTE(XMITQ.IS.ALIAS) RNAME(T) RQMNAME(QM2) XMITQ(AN.ALIAS)
DEFINE QREMOTE(NO.ROUTE) RNAME(T) RQMNAME(QM7)
DEFINE QREMOTE(QM8) RNAME(' ') RQMNAME(QM8) XMITQ(GONE)
DEFINE QREMOTE(TO.QM9) RNAME(T) RQMNAME(NORMAL.Q)
* Queue manager name: QM2
DEFINE CHANNEL(QM1.QM2) CHLTYPE(RCVR)
DEFINE QLOCAL(T)
ALTER QMGR DEFXMITQ(DEF.XQ)
DEFINE QREMOTE(VIA.DEFAULT) RNAME(T) RQMNAME(QM5)
"""

EXPECTED = {
    ("transmission_queue_missing", "QM1", ("NO.SUCH.XMITQ", "MISSING.XQ")),
    ("transmission_queue_not_xmitq", "QM1", ("XMITQ.IS.NORMAL", "NORMAL.Q")),
    ("transmission_queue_not_xmitq", "QM1", ("XMITQ.IS.ALIAS", "AN.ALIAS")),
    ("transmission_queue_missing", "QM1", ("NO.ROUTE", "QM7")),
    ("transmission_queue_missing", "QM1", ("QM8", "GONE")),
    ("transmission_queue_not_xmitq", "QM1", ("TO.QM9", "NORMAL.Q")),
    ("transmission_queue_missing", "QM2", ("VIA.DEFAULT", "DEF.XQ")),
}


def _xmitq_findings(network):
    return {(f.kind, f.queue_manager, f.objects): f.detail for f in audit(network, [])
            if f.kind.startswith("transmission_queue")}


def test_every_planted_xmitq_fault_and_nothing_else():
    found = _xmitq_findings(parse_mqsc(CONFIG, source="c.mqsc"))
    assert set(found) == EXPECTED
    detail = found[("transmission_queue_not_xmitq", "QM1", ("XMITQ.IS.NORMAL", "NORMAL.Q"))]
    assert "QLOCAL with USAGE(NORMAL)" in detail and "XMITQ.IS.NORMAL" in detail
    assert "MQRC_XMIT_Q_USAGE_ERROR" in detail
    detail = found[("transmission_queue_missing", "QM2", ("VIA.DEFAULT", "DEF.XQ"))]
    assert "DEFXMITQ" in detail
    assert "queue-manager alias QM8" in found[("transmission_queue_missing", "QM1",
                                                ("QM8", "GONE"))]


#: What MQ's name resolution gives for each planted fault (and the simulator with it).
#: A DEFXMITQ that is not defined is MQ's own reason, MQRC_UNKNOWN_DEF_XMIT_Q (2197).
REASONS = {"NO.SUCH.XMITQ": 2196, "XMITQ.IS.NORMAL": 2092, "XMITQ.IS.ALIAS": 2091,
           "NO.ROUTE": 2087, "QM8": 2196, "TO.QM9": 2092, "VIA.DEFAULT": 2197}


def test_the_simulator_agrees_that_these_definitions_fail():
    from traceroute.sim.resolve import resolve

    network = parse_mqsc(CONFIG)
    found = _xmitq_findings(network)
    for kind, qmgr, (name, xmitq) in EXPECTED:
        r = resolve(network, qmgr, "ANY", name) if name == "QM8" else resolve(network, qmgr, name)
        assert r.reason == REASONS[name], (name, r)
        assert f"({REASONS[name]})" in found[(kind, qmgr, (name, xmitq))]
    for name in ("GOOD.1", "GOOD.2"):
        assert resolve(network, "QM1", name).xmitq == "QM2"


def test_clean_example_network_has_no_xmitq_findings():
    from importlib import resources

    text = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
    assert _xmitq_findings(parse_mqsc(text)) == {}


def test_cluster_and_self_naming_aliases_are_not_findings():
    text = """\
* Queue manager name: QM1
DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CLUSTER(C) CONNAME('a')
DEFINE QREMOTE(TO.QM2.Q) RNAME(T) RQMNAME(QM2)
DEFINE QREMOTE(QMC) RNAME(' ') RQMNAME(QMC)
* Queue manager name: QM2
DEFINE CHANNEL(TO.QM2) CHLTYPE(CLUSRCVR) CLUSTER(C) CONNAME('b')
"""
    assert _xmitq_findings(parse_mqsc(text)) == {}


def test_audit_command(tmp_path, capsys):
    path = tmp_path / "estate.mqsc"
    path.write_text(CONFIG)
    assert main(["audit", "--mqsc", str(path), "--json"]) == 3
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    got = {(r["kind"], r["queue_manager"], tuple(r["objects"])) for r in rows
           if r["kind"].startswith("transmission_queue")}
    assert got == EXPECTED


def test_audit_command_subprocess(tmp_path):
    path = tmp_path / "estate.mqsc"
    path.write_text(CONFIG)
    done = subprocess.run([sys.executable, "-m", "mqroute", "audit", "--mqsc", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 3 and "Traceback" not in done.stderr
    assert "transmission_queue_missing" in done.stdout
    assert "NO.SUCH.XMITQ,MISSING.XQ" in done.stdout


def test_observed_folder_that_is_not_an_analyze_output_is_refused(tmp_path):
    path = tmp_path / "estate.mqsc"
    path.write_text(CONFIG)
    for folder in (tmp_path / "absent", tmp_path):
        done = subprocess.run([sys.executable, "-m", "mqroute", "audit", "--mqsc",
                               str(path), "--observed", str(folder)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert "not an output folder of mqroute analyze" in done.stderr
        assert str(folder) in done.stderr and done.stdout == ""
