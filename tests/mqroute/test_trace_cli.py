"""`mqroute trace` on simulated networks: IBM's four dspmqrte examples from the command line,
--count, --json, --save, -n then -i, exit statuses, and no report lost when the archive fails.

Each CLI run builds its own Simulator. Where a test must look at that simulator afterwards,
or share one between two runs (-n, then -i), `traceroute.sim.simulator.Simulator` is replaced by
a factory that keeps the instance (`mqroute.commands.trace` imports it when it connects).
"""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from mqroute.commands import trace as trace_cmd
from mqroute.main import main
from pcf import dmpmqmsg
from tests.support import dspmqrte_examples as ex
from tests.traceroute.sim.test_simulator import CLUSTER
from traceroute.sim import simulator as simulator_module

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_MQSC = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
EX1 = ["-m", "QM1", "-q", "TARG.AT.QM2", "-rq", "ACTIV.REPLY.Q"]

#: ordering-and-display.md §8, example 1, verbatim.
EXAMPLE1_OUTPUT = """\
AMQ8653: DSPMQRTE command started with options '-m QM1 -q TARG.AT.QM2 -rq ACTIV.REPLY.Q'.
AMQ8659: DSPMQRTE command successfully put a message on queue 'QM2', queue manager 'QM1'.
AMQ8674: DSPMQRTE command is now waiting for information to display.
AMQ8666: Queue 'QM2' on queue manager 'QM1'.
AMQ8666: Queue 'TARGET.Q' on queue manager 'QM2'.
AMQ8652: DSPMQRTE command has finished.
"""
EXAMPLE2_AMQ8666 = ["AMQ8666: Queue 'QM2' on queue manager 'QM1'.",
                    "AMQ8666: Queue 'TARGET.Q' on queue manager 'QM2'."]
#: The application names of IBM's Windows build tree -> the simulator's.
APPL_NAMES = {ex.DSPMQRTE: "dspmqrte", ex.SENDER: "runmqchl", ex.RECEIVER: "amqrmppa"}

EXAMPLE3_SETUP = "* Queue manager name: QM2\nALTER QMGR ACTIVREC(QUEUE)\n"
EXAMPLE4_SETUP = "* Queue manager name: QM1\nSTOP CHANNEL(QM1.TO.QM2)\n"
NOWHERE = ("* Queue manager name: QM1\n"
           "DEFINE QREMOTE(NOWHERE) RNAME(NO.SUCH.Q) RQMNAME(QM2) XMITQ(QM2) REPLACE\n")
LOOP = """\
* Queue manager name: QM1
DEFINE QREMOTE(LOOP.Q) RNAME(LOOP.Q) RQMNAME(QMX) XMITQ(QM2) REPLACE
DEFINE QREMOTE(QMX) RNAME(' ') RQMNAME(QMX) XMITQ(QM2) REPLACE
* Queue manager name: QM2
DEFINE QREMOTE(QMX) RNAME(' ') RQMNAME(QMX) XMITQ(QM1) REPLACE
"""
OLD_QM2 = "* Queue manager name: QM2\nALTER QMGR CMDLEVEL(530)\n"


@pytest.fixture
def network(tmp_path):
    """Writes the bundled example network plus `extra` MQSC to a file; its path."""
    def write(extra: str = "", base: str = EXAMPLE_MQSC) -> str:
        path = tmp_path / f"net{len(list(tmp_path.glob('net*.mqsc')))}.mqsc"
        path.write_text(base + "\n" + extra)
        return str(path)
    return write


def dspmqrte_only(out: str) -> str:
    """The output without the `Result: ...` line mqroute adds after each route (dspmqrte's
    own lines are compared verbatim; the Result line is tested in test_vocabulary.py)."""
    return "".join(line for line in out.splitlines(keepends=True)
                   if not line.startswith("Result: "))


@pytest.fixture
def trace(capsys):
    """Runs `mqroute trace ARGS`; (exit status, stdout without Result lines, stderr)."""
    def run(*args: str) -> tuple[int, str, str]:
        code = main(["trace", *args])
        out, err = capsys.readouterr()
        return code, dspmqrte_only(out), err
    return run


@pytest.fixture
def simulators(monkeypatch):
    """The Simulators the CLI makes: the first one made is kept and handed to later runs."""
    made: list[simulator_module.Simulator] = []
    real = simulator_module.Simulator

    def shared(network, **kw):
        if not made:
            made.append(real(network, **kw))
        return made[0]

    monkeypatch.setattr(simulator_module, "Simulator", shared)
    return made


def masked(lines) -> list[str]:
    """Leading blanks stripped, MsgId/CorrelId values masked, IBM's ApplNames as ours."""
    out = []
    for line in lines:
        line = re.sub(r"^((?:Msg|Correl)Id: X')[0-9A-F]{48}'", r"\1…'", line.strip())
        for theirs, ours in APPL_NAMES.items():
            line = line.replace(f"'{theirs}'", f"'{ours}'")
        out.append(line)
    return out


def amq_wrapped(options: str, body: str, *, put: bool = True) -> list[str]:
    lines = [f"AMQ8653: DSPMQRTE command started with options '{options}'."]
    if put:
        lines.append("AMQ8659: DSPMQRTE command successfully put a message on queue 'QM2', "
                     "queue manager 'QM1'.")
    lines.append("AMQ8674: DSPMQRTE command is now waiting for information to display.")
    return [*lines, *body.splitlines(), "AMQ8652: DSPMQRTE command has finished."]


# --- IBM's four examples ----------------------------------------------------------------


def test_example1_reproduces_dspmqrte_exactly(trace):
    code, out, err = trace("--network", "demo", *EX1)
    assert (code, out, err) == (0, EXAMPLE1_OUTPUT, "")


def test_example1_as_a_real_subprocess():
    result = subprocess.run([sys.executable, "-m", "mqroute", "trace", "--network",
                             "demo", *EX1], capture_output=True, text=True, cwd=ROOT,
                            timeout=60)
    assert (result.returncode, dspmqrte_only(result.stdout), result.stderr) == \
        (0, EXAMPLE1_OUTPUT, "")
    assert result.stdout.count("\nResult: reached its target") == 1


def test_example2_trace_route_reply(trace):
    code, out, _ = trace("--network", "demo", "-m", "QM1", "-q", "TARG.AT.QM2",
                         "-rq", "TR.REPLY.Q", "-ac", "-ar", "-ro", "discard")
    lines = out.splitlines()
    # every option typed is echoed (IBM's sample omits -ac -ar -ro discard: a seed slip)
    assert lines[0] == ("AMQ8653: DSPMQRTE command started with options "
                        "'-m QM1 -q TARG.AT.QM2 -rq TR.REPLY.Q -ac -ar -ro discard'.")
    assert lines[1:] == EXAMPLE1_OUTPUT.splitlines()[1:]
    assert [x for x in lines if x.startswith("AMQ8666")] == EXAMPLE2_AMQ8666
    assert code == 0


def test_example3_report_on_the_system_queue(trace, network):
    path = network(EXAMPLE3_SETUP)
    code, out, _ = trace("--network", path, *EX1, "-v", "outline", "identifiers")
    expected = amq_wrapped("-m QM1 -q TARG.AT.QM2 -rq ACTIV.REPLY.Q -v outline identifiers",
                           ex.EXAMPLE3)
    assert masked(out.splitlines()) == masked(expected)
    assert code == trace_cmd.EXIT_INCOMPLETE


def test_example3_also_collecting_from_qm2_completes_the_route(trace, network):
    path = network(EXAMPLE3_SETUP)
    code, out, _ = trace("--network", path, *EX1, "--also", "QM2:SYSTEM.ADMIN.ACTIVITY.QUEUE")
    assert out == EXAMPLE1_OUTPUT  # --also is ours: not echoed
    assert code == trace_cmd.EXIT_OK
    code, out, _ = trace("--network", path, *EX1, "--also", "QM2:SYSTEM.ADMIN.ACTIVITY.QUEUE",
                         "-v", "outline")
    assert [x.strip() for x in out.splitlines() if "OperationType" in x] == [
        "OperationType: Put", "OperationType: Get", "OperationType: Send",
        "OperationType: Receive", "OperationType: Discard"]


def test_example3_follow_up_display_only_on_qm2(trace, network, simulators):
    path = network(EXAMPLE3_SETUP)
    code, out, _ = trace("--network", path, *EX1, "-n")
    assert code == 0
    msg_id = out.splitlines()[-1]
    assert re.fullmatch(r"[0-9A-F]{48}", msg_id)
    options = f"-m QM2 -q SYSTEM.ADMIN.ACTIVITY.QUEUE -i {msg_id} -v outline"
    code, out, _ = trace("--network", path, *options.split())
    assert masked(out.splitlines()) == masked(amq_wrapped(options, ex.EXAMPLE3_FOLLOW_UP,
                                                          put=False))
    assert simulators[0].depth("QM2", "SYSTEM.ADMIN.ACTIVITY.QUEUE") == 0  # got and committed


def test_example4_stopped_channel_shows_only_the_put(trace, network):
    path = network(EXAMPLE4_SETUP)
    code, out, _ = trace("--network", path, *EX1, "-v", "outline")
    expected = amq_wrapped("-m QM1 -q TARG.AT.QM2 -rq ACTIV.REPLY.Q -v outline", ex.EXAMPLE4)
    assert masked(out.splitlines()) == masked(expected)
    assert code == trace_cmd.EXIT_STUCK == 4


# --- our own options --------------------------------------------------------------------


def test_count_ten_on_a_three_instance_cluster(trace, network):
    path = network(base=CLUSTER)
    code, out, _ = trace("--network", path, "-m", "GW", "-q", "ORDERS", "-rq", "REPLY.Q",
                         "-d", "yes", "--count", "10")
    lines = out.splitlines()
    assert sum(x.startswith("AMQ8659") for x in lines) == 10
    (distribution,) = [x for x in lines if x.startswith("Distribution: ")]
    counts = dict(part.split(": ") for part in distribution[len("Distribution: "):].split(", "))
    assert sorted(counts) == ["A", "B", "C"]
    assert sorted(int(n) for n in counts.values()) == [3, 3, 4]
    assert lines[-1] == "AMQ8652: DSPMQRTE command has finished." and code == 0


def test_json_gives_one_document_per_route(trace, network):
    code, out, _ = trace("--network", "demo", *EX1, "--json")
    (doc,) = [json.loads(line) for line in out.splitlines()]
    assert doc["verdict"] == "discarded_at_target" and doc["complete"] is True
    assert [a["appl_name"] for a in doc["activities"]] == ["dspmqrte", "runmqchl", "amqrmppa"]
    path = network(base=CLUSTER)
    code, out, _ = trace("--network", path, "-m", "GW", "-q", "ORDERS", "-rq", "REPLY.Q",
                         "-d", "yes", "--count", "10", "--json")
    docs = [json.loads(line) for line in out.splitlines()]  # nothing but JSON
    assert len(docs) == 10 and {d["verdict"] for d in docs} == {"delivered"}
    assert len({d["correl_id"] for d in docs}) == 10 and code == 0


def test_save_writes_a_dump_that_show_reads_back(trace, tmp_path, capsys):
    dump = tmp_path / "route.dmp"
    code, out, _ = trace("--network", "demo", *EX1, "--json", "--save", str(dump))
    (traced,) = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert len(dmpmqmsg.read_file(dump).messages) == 3
    assert main(["show", str(dump), "--json"]) == 0
    (shown,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert shown == {**traced, "summary": {**traced["summary"], "parameters": None}}
    assert main(["show", str(dump)]) == 0
    assert capsys.readouterr().out.splitlines()[1:3] == EXAMPLE2_AMQ8666


def test_no_display_then_display_only_in_one_process(trace, simulators):
    code, out, _ = trace("--network", "demo", *EX1, "-n")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3 and lines[1].startswith("AMQ8659")
    msg_id = lines[2]
    assert re.fullmatch(r"[0-9A-F]{48}", msg_id)
    sim = simulators[0]
    assert sim.depth("QM1", "ACTIV.REPLY.Q") == 1  # only the put's report yet: -n waits not
    code, out, _ = trace("--network", "demo", "-m", "QM1", "-q", "ACTIV.REPLY.Q", "-i", msg_id)
    assert out.splitlines() == [
        f"AMQ8653: DSPMQRTE command started with options "
        f"'-m QM1 -q ACTIV.REPLY.Q -i {msg_id}'.",
        "AMQ8674: DSPMQRTE command is now waiting for information to display.",
        *EXAMPLE2_AMQ8666, "AMQ8652: DSPMQRTE command has finished."]
    assert code == 0 and sim.depth("QM1", "ACTIV.REPLY.Q") == 0


def test_display_only_with_browse_leaves_the_reports(trace, simulators):
    _, out, _ = trace("--network", "demo", *EX1, "-n")
    msg_id = out.splitlines()[-1]
    for _ in range(2):
        code, out, _ = trace("--network", "demo", "-m", "QM1", "-q", "ACTIV.REPLY.Q",
                             "-i", msg_id, "-b")
        assert code == 0 and [x for x in out.splitlines() if "AMQ8666" in x] == \
            EXAMPLE2_AMQ8666
    assert simulators[0].depth("QM1", "ACTIV.REPLY.Q") == 3


# --- exit statuses ----------------------------------------------------------------------


@pytest.mark.parametrize("setup, args, status", [
    ("", [*EX1, "-d", "yes"], trace_cmd.EXIT_OK),  # delivered
    ("", EX1, trace_cmd.EXIT_OK),  # discarded at the target (Deliver=NO)
    (EXAMPLE3_SETUP, EX1, trace_cmd.EXIT_INCOMPLETE),
    (EXAMPLE4_SETUP, EX1, trace_cmd.EXIT_STUCK),
    (NOWHERE, ["-m", "QM1", "-q", "NOWHERE", "-rq", "ACTIV.REPLY.Q", "-ro", "activity",
               "-d", "yes"], trace_cmd.EXIT_DEAD_LETTER),
    (NOWHERE, ["-m", "QM1", "-q", "NOWHERE", "-rq", "ACTIV.REPLY.Q", "-d", "yes"],
     trace_cmd.EXIT_DISCARDED),  # MQRO_DISCARD_MSG: discarded, not dead-lettered
    (LOOP, ["-m", "QM1", "-q", "LOOP.Q", "-rq", "ACTIV.REPLY.Q", "-s", "6"],
     trace_cmd.EXIT_DISCARDED),  # max activities
    (OLD_QM2, EX1, trace_cmd.EXIT_DISCARDED),  # not forwarded to an old queue manager
])
def test_exit_status_by_verdict(trace, network, setup, args, status):
    code, out, err = trace("--network", network(setup), *args)
    assert code == status, out + err
    # nothing on stderr but, where the message stopped, what its queue manager says now
    assert all(line.startswith("mqroute: trace: now: ") for line in err.splitlines()), err


@pytest.mark.parametrize("args, message", [
    (["-m", "QM1", "-q", "NO.SUCH.Q", "-rq", "ACTIV.REPLY.Q"], "MQRC_UNKNOWN_OBJECT_NAME"),
    (["-m", "QM9", "-q", "TARG.AT.QM2"], "MQRC_Q_MGR_NAME_ERROR"),
    (["-m", "QM1", "-rq", "ACTIV.REPLY.Q"], "-q (or -ts) is required"),
    (["-m", "QM1", "-q", "TARG.AT.QM2", "-rq", "NO.SUCH.REPLY.Q"], "NO.SUCH.REPLY.Q"),
    (["-m", "QM1", "-q", "NO.SUCH.Q", "-i", "00" * 24], "MQRC_UNKNOWN_OBJECT_NAME"),
    (["-m", "QM1", "-q", "TARG.AT.QM2", "-rq", "ACTIV.REPLY.Q", "-l", "maybe"], "-l"),
])
def test_errors_exit_2(trace, args, message):
    code, _, err = trace("--network", "demo", *args)
    assert code == trace_cmd.EXIT_ERROR == 2
    assert err.startswith("mqroute: trace: ") and message in err


def test_default_reply_queue_is_temporary_and_deleted(trace, simulators, monkeypatch):
    from traceroute.mq.transport import SimTransport

    opened = []
    real_open = SimTransport.open_reply_queue

    def open_reply_queue(self, name):
        opened.append((name, real_open(self, name)))
        return opened[-1][1]

    monkeypatch.setattr(SimTransport, "open_reply_queue", open_reply_queue)
    code, out, _ = trace("--network", "demo", "-m", "QM1", "-q", "TARG.AT.QM2")
    assert code == 0 and out.splitlines()[3:5] == EXAMPLE2_AMQ8666
    ((model, dynamic),) = opened
    assert model == "SYSTEM.DEFAULT.MODEL.QUEUE" and dynamic.startswith("DSPMQRTE.")
    queues = simulators[0].network.qmgrs["QM1"].queues
    assert dynamic not in queues and queues[model].kind in ("QLOCAL", "QMODEL")


# --- no report is lost when the archive fails -------------------------------------------


@pytest.fixture
def torn_archive(monkeypatch):
    """--save's disk fills half way through the second message's record."""
    from traceroute.mq.archive import Archive

    real = Archive._write_all

    def write_all(self, chunk: bytes) -> None:
        self.writes = getattr(self, "writes", 0) + 1
        if self.writes == 2:
            os.write(self._fd, chunk[:len(chunk) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")
        real(self, chunk)

    monkeypatch.setattr(Archive, "_write_all", write_all)


def test_archive_failing_mid_write_loses_no_report(trace, tmp_path, simulators, torn_archive,
                                                   capsys):
    dump = tmp_path / "route.dmp"
    code, out, err = trace("--network", "demo", *EX1, "--save", str(dump))
    assert code == 2 and "No space left on device" in err
    assert "AMQ8652" not in out  # it did not finish
    sim = simulators[0]
    sim.run()  # let what was still in flight arrive
    queued = {md.msg_id: data for md, data in sim.browse("QM1", "ACTIV.REPLY.Q")}
    problems = []
    archived = [(m.md.msg_id, m.data) for m in dmpmqmsg.iter_file(dump, on_error=problems.append)
                if m.md is not None]
    # the first report was archived whole, so committed: it is no longer queued
    assert [msg_id in queued for msg_id, _ in archived] == [False]
    # the torn second one, and the third, never committed: both still on the queue; the
    # half-written record was cut off again, so the dump stays valid
    assert len(queued) == 2 and problems == []
    assert len(set(queued) | {msg_id for msg_id, _ in archived}) == 3
    assert len(dmpmqmsg.read_file(dump).messages) == 1  # strict: every line of it valid


def test_interrupted_collector_loses_no_report(tmp_path, simulators, monkeypatch):
    from traceroute.mq.archive import Archive

    real_keep = Archive.keep
    kept = []

    def keep(self, label, md, data):
        if kept:
            raise KeyboardInterrupt
        real_keep(self, label, md, data)
        kept.append(md.msg_id)

    monkeypatch.setattr(Archive, "keep", keep)
    dump = tmp_path / "route.dmp"
    assert main(["trace", "--network", "demo", *EX1, "--save", str(dump)]) == 130
    sim = simulators[0]
    sim.run()
    queued = [md.msg_id for md, _ in sim.browse("QM1", "ACTIV.REPLY.Q")]
    archived = [m.md.msg_id for m in dmpmqmsg.read_file(dump).messages]
    assert archived == kept and len(queued) == 2
    assert not set(archived) & set(queued) and len(set(archived) | set(queued)) == 3
