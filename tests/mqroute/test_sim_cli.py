"""`mqroute sim`: init, runmqsc, put, get as a user types them, and two commands at once on
one estate never corrupting it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pcf.dmpmqmsg import read_file
from tests.support.cli import run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def estate(tmp_path):
    path = str(tmp_path / "estate")
    status, out, _ = run("sim", "init", path, "--network", "demo")
    assert status == 0 and "2 queue managers (QM1, QM2)" in out
    return path


def test_init_from_mqsc_files(tmp_path):
    mqsc = tmp_path / "qma.mqsc"
    mqsc.write_text("DEFINE QLOCAL(APP.Q) MAXDEPTH(10)\n")
    status, out, _ = run("sim", "init", str(tmp_path / "e"), str(mqsc))
    assert status == 0 and out.endswith(": 1 queue manager (QMA)\n")
    status, out, _ = run("sim", "runmqsc", str(tmp_path / "e"), "QMA",
                         stdin="DISPLAY QLOCAL(APP.Q) MAXDEPTH\n")
    assert status == 0 and "MAXDEPTH(10)" in out


def test_runmqsc_answers_each_command_and_exits_2_when_one_fails(estate):
    status, out, _ = run("sim", "runmqsc", estate, "QM1", stdin=(
        "DEFINE QLOCAL(APP.Q) DESCR('orders')\n"
        "STOP CHANNEL(QM1.TO.QM2)\n"
        "DISPLAY CHSTATUS(QM1.TO.QM2)\n"))
    assert status == 0, out
    assert "     1 : DEFINE QLOCAL(APP.Q) DESCR('orders')\nAMQ8006I: IBM MQ queue created." in out
    assert "AMQ8019I: Stop IBM MQ channel accepted." in out
    assert "STATUS(STOPPED)" in out and "CHANNEL(QM1.TO.QM2)" in out
    assert out.rstrip().endswith("3 MQSC commands read.\nNo commands have a syntax error.\n"
                                 "All valid MQSC commands were processed.")
    status, out, _ = run("sim", "runmqsc", estate, "QM1", stdin=(
        "DEFINE QLOCAL(APP.Q)\n"          # exists: AMQ8150E
        "STOP CHANNEL(QM1.TO.QM2)\n"      # already stopped
        "DISPLAY QLOCAL(APP.Q)\n"         # still answered
        "DEFINE QLOCAL(X\n"))             # syntax
    assert status == 2
    assert "AMQ8150E" in out and "AMQ9533E" in out and "DESCR(orders)" in out
    assert "One command has a syntax error." in out
    assert "2 valid MQSC commands could not be processed." in out


def test_runmqsc_echoes_each_command_as_it_was_typed(estate):
    """Quotes, lower case, doubled quotes and continuation lines, as runmqsc echoes them."""
    status, out, _ = run("sim", "runmqsc", estate, "QM1", stdin=(
        "  define qlocal('app.lower') descr('it''s: orders')  \n"
        "DEFINE QLOCAL(APP.Q2) +\n"
        "   DESCR('two  -\n"
        "lines')\n"
        "DISPLAY QLOCAL('app.lower') DESCR\n"))
    assert status == 0, out
    assert "     1 : define qlocal('app.lower') descr('it''s: orders')\nAMQ8006I" in out
    assert "     2 : DEFINE QLOCAL(APP.Q2) +\n       : DESCR('two  -\n       : lines')\n" \
           "AMQ8006I" in out
    assert "     3 : DISPLAY QLOCAL('app.lower') DESCR\n" in out


def test_runmqsc_of_an_unknown_queue_manager_is_one_line_and_status_2(estate):
    status, _, err = run("sim", "runmqsc", estate, "QM9", stdin="DISPLAY QMGR\n")
    assert status == 2 and "QM9" in err and "QM1, QM2" in err and "MQRC" in err
    assert err.count("\n") == 1


def test_delete_of_a_queue_holding_messages_needs_purge(estate):
    run("sim", "put", estate, "-m", "QM1", "-q", "ACTIV.REPLY.Q")
    status, out, _ = run("sim", "runmqsc", estate, "QM1", stdin="DELETE QLOCAL(ACTIV.REPLY.Q)\n")
    assert status == 2 and "AMQ8143E" in out
    status, out, _ = run("sim", "runmqsc", estate, "QM1",
                         stdin="DELETE QLOCAL(ACTIV.REPLY.Q) PURGE\n")
    assert status == 0 and "AMQ8007I" in out
    assert not list(Path(estate).rglob("ACTIV.REPLY.Q.dmp"))


def test_put_and_get_as_amqsput_and_amqsget(estate):
    status, out, _ = run("sim", "put", estate, "-m", "QM1", "-q", "ACTIV.REPLY.Q",
                         "--count", "3", "--size", "20", "--persistent", "--expiry", "600")
    assert status == 0 and out.count("put MsgId ") == 3
    dump = read_file(Path(estate) / "QM1" / "messages" / "ACTIV.REPLY.Q.dmp")
    md = dump.messages[0].md
    assert md.persistence == 1 and md.expiry == 6000 and md.format == "MQSTR"
    assert [m.data for m in dump.messages] == [b"message 1 of 3......", b"message 2 of 3......",
                                               b"message 3 of 3......"]
    status, out, _ = run("sim", "get", estate, "-m", "QM1", "-q", "ACTIV.REPLY.Q", "--browse",
                         "--count", "1")
    assert status == 0 and "message <message 1 of 3......>" in out and "(1 browsed)" in out
    status, out, _ = run("sim", "get", estate, "-m", "QM1", "-q", "ACTIV.REPLY.Q", "--count",
                         "1")
    assert "(1 got)" in out
    left = read_file(Path(estate) / "QM1" / "messages" / "ACTIV.REPLY.Q.dmp")
    assert [m.data[:14] for m in left.messages] == [b"message 2 of 3", b"message 3 of 3"]
    status, out, _ = run("sim", "get", estate, "-m", "QM1", "-q", "ACTIV.REPLY.Q")
    assert out.count("message <") == 2 and "(2 got)" in out
    assert not (Path(estate) / "QM1" / "messages" / "ACTIV.REPLY.Q.dmp").exists()


def test_a_stopped_channel_holds_messages_and_start_delivers_them(estate):
    run("sim", "runmqsc", estate, "QM1", stdin="STOP CHANNEL(QM1.TO.QM2)\n")
    status, out, _ = run("sim", "put", estate, "-m", "QM1", "-q", "TARG.AT.QM2", "--count", "2")
    assert status == 0 and "through transmission queue QM2" in out
    assert "(0 got)" in run("sim", "get", estate, "-m", "QM2", "-q", "TARGET.Q")[1]
    run("sim", "runmqsc", estate, "QM1", stdin="START CHANNEL(QM1.TO.QM2)\n")
    status, out, _ = run("sim", "get", estate, "-m", "QM2", "-q", "TARGET.Q")
    assert "(2 got)" in out


@pytest.mark.parametrize("words, says", [
    (("put", "-m", "QM1", "-q", "NOPE"), "MQRC_UNKNOWN_OBJECT_NAME (2085)"),
    (("get", "-m", "QM1", "-q", "TARG.AT.QM2"), "MQRC_OPTION_NOT_VALID_FOR_TYPE (2045)"),
    (("put", "-m", "QM1"), "needs -m QMGR and -q QUEUE"),
    (("put", "-m", "QM1", "-q", "Q", "--count", "0"), "--count 0"),
    (("get", "-m", "QM1", "-q", "Q", "--persistent"), "--persistent belongs to sim put"),
    (("runmqsc",), "sim runmqsc DIR QMGR"),
])
def test_bad_put_get_and_usage_say_one_line(estate, words, says):
    action, *rest = words
    status, _, err = run("sim", action, estate, *rest)
    assert status == 2 and says in err and err.count("\n") == 1


def test_commands_on_a_folder_that_is_not_an_estate(tmp_path):
    status, _, err = run("sim", "put", str(tmp_path), "-m", "QM1", "-q", "Q")
    assert status == 2 and "not an estate folder" in err
    status, _, err = run("trace", "--network", str(tmp_path), "-m", "QM1", "-q", "Q")
    assert status == 2 and "not an estate" in err


def test_trace_on_the_estate_leaves_its_message_there(estate):
    run("sim", "runmqsc", estate, "QM1", stdin="STOP CHANNEL(QM1.TO.QM2)\n")
    status, out, _ = run("trace", "--network", estate, "-m", "QM1", "-q", "TARG.AT.QM2")
    assert status == 4 and "AMQ8666: Queue 'QM2' on queue manager 'QM1'." in out
    status, out, _ = run("sim", "get", estate, "-m", "QM1", "-q", "QM2", "--browse")
    assert "(1 browsed)" in out  # the trace-route message waits with the channel


def _popen(*words: str, stdin: str | None = None) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "mqroute", *words], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


@pytest.mark.slow
def test_two_commands_at_once_on_one_estate_never_corrupt_it(estate):
    procs = [_popen("sim", "put", estate, "-m", "QM1", "-q", "ACTIV.REPLY.Q", "--count", "30"),
             _popen("sim", "put", estate, "-m", "QM1", "-q", "ACTIV.REPLY.Q", "--count", "30"),
             _popen("sim", "runmqsc", estate, "QM1")]
    outs = [p.communicate(input="DEFINE QLOCAL(MORE.Q)\n" if i == 2 else None, timeout=120)
            for i, p in enumerate(procs)]
    assert [p.returncode for p in procs] == [0, 0, 0], outs
    dump = read_file(Path(estate) / "QM1" / "messages" / "ACTIV.REPLY.Q.dmp")
    ids = [m.md.msg_id for m in dump.messages]
    assert len(ids) == 60 and len(set(ids)) == 60
    status, out, _ = run("sim", "runmqsc", estate, "QM1", stdin="DISPLAY QLOCAL(MORE.Q)\n")
    assert status == 0 and "QUEUE(MORE.Q)" in out


def test_events_and_activity_trace_are_written_back_to_the_estate(estate):
    run("sim", "runmqsc", estate, "QM1", stdin=(
        "ALTER QMGR ACTVTRC(ON) PERFMEV(ENABLED)\n"
        "ALTER QL(QM2) QDPHIEV(ENABLED) QDEPTHHI(1) MAXDEPTH(10)\n"
        "STOP CHANNEL(QM1.TO.QM2)\n"))
    run("sim", "put", estate, "-m", "QM1", "-q", "TARG.AT.QM2", "--count", "3")
    messages = Path(estate) / "QM1" / "messages"
    status, out, _ = run("events", str(messages / "SYSTEM.ADMIN.PERFM.EVENT.dmp"))
    assert status == 0 and "Queue Depth High" in out
    status, out, _ = run("follow", str(messages / "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE.dmp"),
                         "--network", estate)
    assert status == 4 and out.count("on_xmitq") == 3
    assert "Now: channel QM1.TO.QM2 is STOPPED; transmission queue QM2 holds 3 messages" in out
