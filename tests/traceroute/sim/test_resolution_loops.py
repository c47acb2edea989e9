"""Issue 17, class 5: definitions that lead round in a loop never recurse.

In name resolution (and so in a trace) a loop is a failed open/put with
MQRC_UNKNOWN_REMOTE_Q_MGR (2087) — the reason MQ gives for a local definition of a remote
queue whose RemoteQMgrName is blank or the local queue manager, the first step of any
such loop. In `audit` it is a finding naming the objects of the loop.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graph.audit import audit
from mqroute.main import main
from pcf import mqc
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.resolve import local_loop, qmgr_alias_loop, resolve

LOOP = """\
* Queue manager name: QM1
DEFINE QREMOTE(X) RNAME(Y) RQMNAME(QM1)
DEFINE QREMOTE(Y) RNAME(Z) RQMNAME(' ')
DEFINE QREMOTE(Z) RNAME(X) RQMNAME(QM1)
DEFINE QREMOTE(SELF) RNAME(SELF)
DEFINE QLOCAL(REPLY)
DEFINE QLOCAL(REAL)
DEFINE QREMOTE(OK) RNAME(REAL) RQMNAME(QM1)
"""
QM_ALIASES = """\
* Queue manager name: QM1
DEFINE QREMOTE(QMA) RNAME(' ') RQMNAME(QMB)
DEFINE QREMOTE(QMB) RNAME(' ') RQMNAME(QMC)
DEFINE QREMOTE(QMC) RNAME(' ') RQMNAME(QMA)
DEFINE QREMOTE(QMX) RNAME(' ') RQMNAME(QMX) XMITQ(XQ)
DEFINE QLOCAL(XQ) USAGE(XMITQ)
"""


def test_resolution_of_a_loop_fails_with_2087():
    network = parse_mqsc(LOOP)
    for name in ("X", "Y", "Z", "SELF"):
        r = resolve(network, "QM1", name)
        assert (r.ok, r.reason) == (False, mqc.MQRC_UNKNOWN_REMOTE_Q_MGR)
    assert resolve(network, "QM1", "OK").queue == "REAL"  # no loop: as before


def test_a_long_loop_does_not_recurse():
    lines = ["* Queue manager name: QM1"]
    n = 5000  # far past Python's recursion limit if resolution recursed per definition
    lines += [f"DEFINE QREMOTE(Q{i}) RNAME(Q{(i + 1) % n}) RQMNAME(QM1)" for i in range(n)]
    network = parse_mqsc("\n".join(lines))
    r = resolve(network, "QM1", "Q0")
    assert r.reason == mqc.MQRC_UNKNOWN_REMOTE_Q_MGR


def test_loops_are_named():
    qm = parse_mqsc(LOOP).qmgrs["QM1"]
    assert local_loop(qm, "Y") == ["Y", "Z", "X"]
    assert local_loop(qm, "SELF") == ["SELF"]
    assert local_loop(qm, "OK") == []
    aliases = parse_mqsc(QM_ALIASES).qmgrs["QM1"]
    assert qmgr_alias_loop(aliases, "QMB") == ["QMB", "QMC", "QMA"]
    assert qmgr_alias_loop(aliases, "QMX") == []  # naming itself: the usual xmitq choice


def test_audit_finds_both_kinds_of_loop():
    found = {(f.kind, f.queue_manager, f.objects): f.detail
             for f in audit(parse_mqsc(LOOP + QM_ALIASES.split("\n", 1)[1]), [])}
    assert ("resolution_loop", "QM1", ("X", "Y", "Z")) in found
    assert ("resolution_loop", "QM1", ("SELF",)) in found
    assert ("qmgr_alias_loop", "QM1", ("QMA", "QMB", "QMC")) in found
    assert "2087" in found[("resolution_loop", "QM1", ("X", "Y", "Z"))]
    assert sum(k == "resolution_loop" for k, _, _ in found) == 2


def test_trace_into_a_loop_is_a_failed_put(tmp_path, capsys):
    path = tmp_path / "qm1.mqsc"
    path.write_text(LOOP)
    assert main(["trace", "--network", str(path), "-q", "X", "-rq", "REPLY"]) == 2
    err = capsys.readouterr().err
    assert "MQRC_UNKNOWN_REMOTE_Q_MGR (2087)" in err and "'X'" in err


def test_a_message_arriving_into_a_loop_is_discarded_with_2087(tmp_path, capsys):
    text = """\
* Queue manager name: QM1
DEFINE QREMOTE(IN) RNAME(X) RQMNAME(QM2) XMITQ(QM2)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE CHANNEL(QM1.QM2) CHLTYPE(SDR) CONNAME('qm2') XMITQ(QM2)
DEFINE CHANNEL(QM2.QM1) CHLTYPE(RCVR)
DEFINE QLOCAL(REPLY)
* Queue manager name: QM2
ALTER QMGR DEADQ(DLQ)
DEFINE QLOCAL(DLQ)
DEFINE QREMOTE(X) RNAME(Y) RQMNAME(QM2)
DEFINE QREMOTE(Y) RNAME(X)
DEFINE CHANNEL(QM1.QM2) CHLTYPE(RCVR)
DEFINE CHANNEL(QM2.QM1) CHLTYPE(SDR) CONNAME('qm1') XMITQ(QM1)
DEFINE QLOCAL(QM1) USAGE(XMITQ)
"""
    path = tmp_path / "net.mqsc"
    path.write_text(text)
    status = main(["trace", "--network", str(path), "-m", "QM1", "-q", "IN", "-rq", "REPLY",
                   "-d", "yes", "-v", "outline"])
    out = capsys.readouterr().out
    assert status == 6  # discarded (a trace-route message asks for MQRO_DISCARD_MSG)
    assert "OperationType: Discard" in out and "Feedback: MQRC_UNKNOWN_REMOTE_Q_MGR" in out


def test_cli_subprocess(tmp_path):
    path = tmp_path / "qm1.mqsc"
    path.write_text(LOOP + QM_ALIASES.split("\n", 1)[1])
    done = subprocess.run([sys.executable, "-m", "mqroute", "audit", "--config", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr and done.returncode == 3
    assert "resolution_loop" in done.stdout and "X,Y,Z" in done.stdout
    assert "qmgr_alias_loop" in done.stdout and "QMA,QMB,QMC" in done.stdout
    done = subprocess.run([sys.executable, "-m", "mqroute", "trace", "--network", str(path),
                           "-q", "Y", "-rq", "REPLY"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "2087" in done.stderr


_NAMES = ["A", "B", "C", "D", "QM1", "QM2"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["QREMOTE", "QALIAS", "QLOCAL"]),
                          st.sampled_from(_NAMES[:4]), st.sampled_from(_NAMES),
                          st.sampled_from(["", "QM1", "QM2", "A", "B"])), max_size=8),
       st.sampled_from(_NAMES), st.sampled_from(["", "QM1", "QM2", "A", "B"]))
def test_random_definitions_resolve_or_fail_never_recurse(defs, queue, qmgr):
    lines = ["* Queue manager name: QM1", "ALTER QMGR DEFXMITQ(' ')"]
    for kind, name, other, rqm in defs:
        if kind == "QREMOTE":
            lines.append(f"DEFINE QREMOTE({name}) RNAME('{other}') RQMNAME('{rqm or ' '}') "
                         "REPLACE")
        elif kind == "QALIAS":
            lines.append(f"DEFINE QALIAS({name}) TARGET({other}) REPLACE")
        else:
            lines.append(f"DEFINE QLOCAL({name}) REPLACE")
    try:
        network = parse_mqsc("\n".join(lines))
    except ValueError:
        return  # a definition crossing types: not what this test is about
    r = resolve(network, "QM1", queue, qmgr)
    assert r.ok or r.reason > 2000
    findings = audit(network, [])
    qm = network.qmgrs["QM1"]
    for f in findings:
        if f.kind == "resolution_loop":
            assert local_loop(qm, f.objects[0])


@pytest.mark.parametrize("text", [LOOP, QM_ALIASES])
def test_audit_exit_status_with_loops(tmp_path, capsys, text):
    path = tmp_path / "qm1.mqsc"
    path.write_text(text)
    assert main(["audit", "--config", str(path), "--json"]) == 3
