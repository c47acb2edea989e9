"""Issue 35: MQSC as real configurations carry it, read as a queue manager does, by a user.

The configurations are written here in the shapes people use (a developer container's
setup with a template line left unfilled, a cluster with full and partial repositories
whose cluster senders are auto-defined, scripts that alter SYSTEM objects, failing lines in
the middle); each is run through `python -m mqroute` in a subprocess as typed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from traceroute.sim.mqsc import read_mqsc, to_mqsc

ROOT = Path(__file__).resolve().parents[3]

DEV_CONTAINER = """\
* Developer set-up run at container start (a Go template fills the {{ }} fields)
STOP LISTENER('SYSTEM.DEFAULT.LISTENER.TCP') IGNSTATE(YES)
DEFINE QLOCAL('DEV.QUEUE.1') REPLACE
DEFINE QLOCAL('DEV.QUEUE.2') REPLACE
DEFINE QLOCAL('DEV.DEAD.LETTER.QUEUE') REPLACE
ALTER QMGR DEADQ('DEV.DEAD.LETTER.QUEUE')
DEFINE TOPIC('DEV.BASE.TOPIC') TOPICSTR('dev/') REPLACE
DEFINE AUTHINFO('DEV.AUTHINFO') AUTHTYPE(IDPWOS) CHCKCLNT(REQDADM) +
       CHCKLOCL(OPTIONAL) ADOPTCTX(YES) REPLACE
ALTER QMGR CONNAUTH('DEV.AUTHINFO')
REFRESH SECURITY(*) TYPE(CONNAUTH)
DEFINE CHANNEL('DEV.ADMIN.SVRCONN') CHLTYPE(SVRCONN) REPLACE
DEFINE CHANNEL('DEV.APP.SVRCONN') CHLTYPE(SVRCONN) MCAUSER('app') REPLACE
SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) +
    DESCR('Back-stop rule') ACTION(REPLACE)
SET CHLAUTH('DEV.APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) +
    CHCKCLNT(REQUIRED) ACTION(REPLACE)
SET AUTHREC PRINCIPAL('app') OBJTYPE(QMGR) AUTHADD(CONNECT,INQ)
SET AUTHREC PROFILE('DEV.**') PRINCIPAL('app') OBJTYPE(QUEUE) AUTHADD(BROWSE,GET,INQ,PUT)
ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKCLNT({{ .ChckClnt }})
STOP SERVICE(SYSTEM.AMQP.SERVICE)
ALTER CHANNEL(SYSTEM.DEF.AMQP) CHLTYPE(AMQP) MCAUSER('app')
DISPLAY QLOCAL(DEV.*) CURDEPTH
START LISTENER('SYSTEM.DEFAULT.LISTENER.TCP') IGNSTATE(YES)
"""

#: Full repositories FR1 and FR2, partial repositories PR1 and PR2 with one manual
#: cluster sender each (the rest auto-defined), APP.Q hosted on FR2 and PR2.
CLUSTER = {
    "fr1": """\
ALTER QMGR REPOS(SHOP) DEADQ(SYSTEM.DEAD.LETTER.QUEUE)
DEFINE CHANNEL(SHOP.FR1) CHLTYPE(CLUSRCVR) CONNAME('fr1(1414)') CLUSTER(SHOP)
DEFINE CHANNEL(SHOP.FR2) CHLTYPE(CLUSSDR) CONNAME('fr2(1414)') CLUSTER(SHOP)
DEFINE QLOCAL(REPLY.Q)
""",
    "fr2": """\
ALTER QMGR REPOS(SHOP) DEADQ(SYSTEM.DEAD.LETTER.QUEUE)
DEFINE CHANNEL(SHOP.FR2) CHLTYPE(CLUSRCVR) CONNAME('fr2(1414)') CLUSTER(SHOP)
DEFINE CHANNEL(SHOP.FR1) CHLTYPE(CLUSSDR) CONNAME('fr1(1414)') CLUSTER(SHOP)
DEFINE QLOCAL(APP.Q) CLUSTER(SHOP) DEFBIND(NOTFIXED)
""",
    "pr1": """\
ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)
DEFINE CHANNEL(SHOP.PR1) CHLTYPE(CLUSRCVR) CONNAME('pr1(1414)') CLUSTER(SHOP)
DEFINE CHANNEL(SHOP.FR1) CHLTYPE(CLUSSDR) CONNAME('fr1(1414)') CLUSTER(SHOP)
DEFINE QLOCAL(REPLY.Q)
""",
    "pr2": """\
ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)
DEFINE CHANNEL(SHOP.PR2) CHLTYPE(CLUSRCVR) CONNAME('pr2(1414)') CLUSTER(SHOP)
DEFINE CHANNEL(SHOP.FR2) CHLTYPE(CLUSSDR) CONNAME('fr2(1414)') CLUSTER(SHOP)
DEFINE QLOCAL(APP.Q) CLUSTER(SHOP) DEFBIND(NOTFIXED)
""",
}

#: A script that changes the defaults before defining: the dead-letter queue first, then
#: every later queue gets MAXDEPTH(0) from SYSTEM.DEFAULT.LOCAL.QUEUE as it is then.
ALTERED_DEFAULTS = {
    "qm1": """\
ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE QREMOTE(ORDERS) RNAME(ORDERS.IN) RQMNAME(QM2) XMITQ(QM2)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1414)') XMITQ(QM2)
DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(RCVR)
DEFINE QLOCAL(REPLY.Q)
""",
    "qm2": """\
ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)
ALTER QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) MAXDEPTH(0)
DEFINE QLOCAL(ORDERS.IN)
DEFINE QLOCAL(QM1) USAGE(XMITQ) MAXDEPTH(5000)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)
DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(SDR) CONNAME('qm1(1414)') XMITQ(QM1)
ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) MRRTY(2) MRTMR(100)
""",
}


def _mqroute(*words: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqroute", *map(str, words)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


def _files(tmp_path: Path, files: dict[str, str]) -> list[Path]:
    out = []
    for name, text in files.items():
        path = tmp_path / f"{name}.mqsc"
        path.write_text(text, encoding="utf-8")
        out.append(path)
    return out


def test_developer_container_config(tmp_path):
    path = tmp_path / "qm1.mqsc"
    path.write_bytes(b"\xef\xbb\xbf" + DEV_CONTAINER.replace("\n", "\r\n").encode())
    done = _mqroute("audit", "--mqsc", path)
    assert done.returncode == 0, done.stderr  # it did its job: no findings
    lines = done.stderr.splitlines()[:2]
    assert lines == [
        f"mqroute: {path}:20:74: AMQ8405I: Syntax error detected at or near end of command "
        "segment below:- (an unfilled template placeholder (the template was not filled in "
        "before the file was used))",
        f"mqroute: {path}: 20 MQSC commands read. One command has a syntax error. All valid "
        "MQSC commands were processed."]
    assert "SYSTEM." not in done.stdout
    strict = _mqroute("audit", "--mqsc", path, "--strict")
    assert strict.returncode == 2 and strict.stdout == ""
    assert strict.stderr.splitlines()[:2] == lines
    assert strict.stderr.splitlines()[-1] == "mqroute: 1 MQSC command failed: not going on " \
                                             "(--strict)"
    network = read_mqsc([path], on_error=lambda outcome: None)
    qm = network.qmgrs["QM1"]
    assert qm.deadq == "DEV.DEAD.LETTER.QUEUE"
    assert qm.others["AUTHINFO", "DEV.AUTHINFO"].get("CHCKCLNT") == "REQDADM"
    assert qm.channels["SYSTEM.DEF.AMQP"].get("MCAUSER") == "app"  # altered: now its own
    assert qm.running == {("LISTENER", "SYSTEM.DEFAULT.LISTENER.TCP")}
    assert len(qm.records) == 7  # crtmqm's three CHLAUTH records, two more, two AUTHRECs
    written = to_mqsc(network)
    assert "SYSTEM.DEF.AMQP" in written and "SYSTEM.DEFAULT.LOCAL.QUEUE" not in written


def test_cluster_with_full_and_partial_repositories(tmp_path):
    files = _files(tmp_path, CLUSTER)
    done = _mqroute("trace", "--network", *files, "-m", "PR1", "-q", "APP.Q", "-rq", "REPLY.Q",
                    "-d", "yes", "--count", "4")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    # round robin over the two instances, through auto-defined cluster senders
    assert "FR2" in done.stdout and "PR2" in done.stdout
    audit = _mqroute("audit", "--mqsc", *files)
    assert "AMQ" not in audit.stderr and "no_dead_letter_queue" not in audit.stdout
    assert "SYSTEM." not in audit.stdout


def test_altered_defaults_send_messages_to_the_dead_letter_queue(tmp_path):
    files = _files(tmp_path, ALTERED_DEFAULTS)
    done = _mqroute("trace", "--network", *files, "-m", "QM1", "-q", "ORDERS", "-rq",
                    "REPLY.Q", "-d", "yes", "-ro", "activity")
    assert done.returncode == 5, (done.stdout, done.stderr)  # dead-lettered
    assert "AMQ8666: Queue 'SYSTEM.DEAD.LETTER.QUEUE' on queue manager 'QM2'." in done.stdout
    assert "Result: on the dead-letter queue of QM2, reason MQRC_Q_FULL (2053)" in done.stdout
    network = read_mqsc(files)
    qm2 = network.qmgrs["QM2"]
    assert qm2.queues["ORDERS.IN"].get("MAXDEPTH") == "0"
    assert qm2.queues["QM1"].get("MAXDEPTH") == "5000"
    assert network.qmgrs["QM2"].queues["SYSTEM.DEAD.LETTER.QUEUE"].get("MAXDEPTH") == "5000"


def test_no_dead_letter_queue_findings(tmp_path):
    files = _files(tmp_path, {
        "qm1": "DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(RCVR)\n",
        "qm2": "ALTER QMGR DEADQ(MISSING.DLQ)\nDEFINE QLOCAL(QM1) USAGE(XMITQ)\n"
               "DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(SDR) CONNAME('qm1') XMITQ(QM1)\n"})
    done = _mqroute("audit", "--mqsc", *files)
    assert done.returncode == 3
    assert "no_dead_letter_queue QM1" in done.stdout.replace(":", "") or \
        "no_dead_letter_queue" in done.stdout
    assert "dead_letter_queue_missing" in done.stdout and "MISSING.DLQ" in done.stdout


def test_show_names_the_dead_letter_queue_and_the_reason(tmp_path):
    """`show` over the activity reports and trace-route reply of a dead-lettered message,
    dumped as dmpmqmsg writes them, says where it is and why, as `trace` does."""
    from pcf import dmpmqmsg
    from tests.traceroute.sim.test_limits import _watched

    sim, _tracer, _tracked, _traced = _watched("dead")
    dump = tmp_path / "replies.dmp"
    dmpmqmsg.write_file(dump, [dmpmqmsg.DumpedMessage(md, data)
                               for md, data in sim.browse("QM1", "REPLY.Q")], queue="REPLY.Q")
    done = _mqroute("show", dump)
    assert done.returncode == 0, done.stderr
    headings = [line for line in done.stdout.splitlines() if line.startswith("Route of")]
    assert len(headings) == 2
    for line in headings:
        assert ": on the dead-letter queue of QM2, reason MQRC_Q_FULL (2053); last known " \
               "location: queue manager 'QM2', queue 'DLQ' [3 activities, complete]" in line
