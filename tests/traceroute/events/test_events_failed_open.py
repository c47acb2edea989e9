"""A put that fails at its MQOPEN (2085 unknown queue, 2087 unknown remote queue manager,
2082 unknown alias base, 2197 unknown default transmission queue, 2035 not authorized at
open) is a put-failed journey as a failed MQPUT is: `follow --events` on an estate with
ACTVTRC(ON) shows it with its reason, queue, queue manager, application and the event that
explains it, exits 6; analyze's journeys/ rows (the calls/ rows keyed and reconstructed as
Spark does) hold it. (A failed open for input is no put:
tests/traceroute/journeys/test_journeys_failed_open.py.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pcf import mqc
from pcf.dmpmqmsg import iter_file
from pcf.names import name_of
from traceroute.journeys.parse import parse_activity_trace
from traceroute.journeys.rows import call_rows, journeys_of_rows
from traceroute.sim.estate import Estate

ON = "* Queue manager name: QM1\nALTER QMGR ACTVTRC(ON) REMOTEEV(ENABLED) LOCALEV(ENABLED) " \
     "AUTHOREV(ENABLED)\n"

#: reason -> (MQSC beside ACTVTRC(ON), queue put to, the event's words in follow)
CASES = {
    2085: ("", "NO.SUCH.Q", "Unknown Object Name for NO.SUCH.Q on QM1"),
    2087: ("DEFINE QREMOTE(TO.NOWHERE) RNAME(X) RQMNAME(QMZZZ)\n", "TO.NOWHERE",
           "Unknown Remote Queue Mgr for TO.NOWHERE on QM1"),
    2082: ("DEFINE QALIAS(ALIAS.NO.BASE) TARGET(NOT.DEFINED)\n", "ALIAS.NO.BASE",
           "Unknown Alias Base Queue: base queue NOT.DEFINED for ALIAS.NO.BASE on QM1"),
    2197: ("ALTER QMGR DEFXMITQ(NO.XMITQ)\nDEFINE QREMOTE(TO.QMZZZ) RNAME(X) RQMNAME(QMZZZ)\n",
           "TO.QMZZZ", "for TO.QMZZZ on QM1"),
}

AUTH = ("DEFINE QLOCAL(APP.SECRET)\n"
        "SET AUTHREC OBJTYPE(QMGR) GROUP('apps') AUTHADD(CONNECT,INQ)\n"
        "SET AUTHREC PROFILE('APP.SECRET') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(BROWSE)\n")


def _mqroute(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqroute", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


def _estate(tmp_path: Path, mqsc: str) -> Path:
    (tmp_path / "qm1.mqsc").write_text(ON + mqsc)
    est = tmp_path / "est"
    r = _mqroute("sim", "init", est, tmp_path / "qm1.mqsc")
    assert r.returncode == 0, r.stderr
    return est


def _follow(est: Path) -> subprocess.CompletedProcess:
    messages = est / "QM1" / "messages"
    return _mqroute("follow", messages / "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE.dmp", "--events",
                    messages / "SYSTEM.ADMIN.QMGR.EVENT.dmp")


def _journey_rows(est: Path) -> list[dict]:
    """journeys/ rows as analyze makes them: calls/ rows, those with a journey key only."""
    rows = []
    path = est / "QM1" / "messages" / "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE.dmp"
    for n, m in enumerate(iter_file(path)):
        rows += call_rows(parse_activity_trace(m.md, m.data), source=str(path), position=n)
    return journeys_of_rows(r for r in rows if r["journey_key"] is not None)


def _assert_failed_open(est: Path, reason: int, queue: str, words: str, appl: str) -> None:
    r = _follow(est)
    assert r.returncode == 6, (r.stdout, r.stderr)  # follow's "a put failed"
    assert f"put_failed - last seen on QM1 {queue}" in r.stdout, r.stdout
    assert f"MQOPEN     put FAILED    {queue}  by {appl}  CompCode 2 Reason {reason} " \
           f"{name_of(reason, 'MQRC')}" in r.stdout, r.stdout
    assert words in r.stdout and "puts to it fail" in r.stdout, r.stdout
    assert "1 explain where messages stopped" in r.stderr, r.stderr
    [row] = _journey_rows(est)
    assert (row["verdict"], row["last_queue_manager"], row["last_queue"], row["applications"],
            row["steps"]) == ("put_failed", "QM1", queue, appl, 1)


@pytest.mark.parametrize("reason", sorted(CASES))
def test_a_put_failed_at_its_open_is_a_put_failed_journey_with_its_event(tmp_path, reason):
    mqsc, queue, words = CASES[reason]
    est = _estate(tmp_path, mqsc)
    put = _mqroute("sim", "put", est, "-m", "QM1", "-q", queue)
    assert put.returncode == 2 and f"MQOPEN of {queue} on QM1 failed" in put.stderr
    assert f"({reason})" in put.stderr, put.stderr
    _assert_failed_open(est, reason, queue, words, "amqsput")


def test_a_put_not_authorized_at_its_open_is_a_put_failed_journey(tmp_path) -> None:
    est = _estate(tmp_path, AUTH)
    with Estate.open(est) as e:  # an application running as a user of group apps
        e.sim.users["payroll"] = "alice"
        e.sim.groups["alice"] = {"apps"}
        handle = e.sim.open("QM1", "APP.SECRET", appl_name="payroll")
        assert handle.reason == mqc.MQRC_NOT_AUTHORIZED
    _assert_failed_open(est, mqc.MQRC_NOT_AUTHORIZED, "APP.SECRET",
                        "for APP.SECRET on QM1", "payroll")
