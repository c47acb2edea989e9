"""traceroute.mq.estate: a reader on an estate folder that visits instead of holding it.

A get under syncpoint takes the message off its queue (another reader does not see it) into
the reader's unit of work; commit makes it final, backout and close put it back in order,
and a reader that dies leaves its unit to the next command, which backs it out.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

import pytest

from pcf import mqc
from pcf.mqmd import MQMD
from tests.support.cli import run
from traceroute.mq.estate import EstateTransport, queue_managers
from traceroute.mq.transport import TransportError
from traceroute.sim.estate import Estate, EstateError

Q = "SYSTEM.ADMIN.QMGR.EVENT"


@pytest.fixture
def estate(tmp_path):
    path = str(tmp_path / "estate")
    assert run("sim", "init", path, "--network", "demo")[0] == 0
    return path


def put(path: str, queue: str, *datas: bytes, qmgr: str = "QM1") -> None:
    with Estate.open(path) as e:
        for data in datas:
            assert e.sim.put(qmgr, queue, MQMD(format="MQSTR"), data).ok


def on_queue(path: str, queue: str, qmgr: str = "QM1") -> list[bytes]:
    with Estate.open(path) as e:
        return [data for _, data in e.sim.browse(qmgr, queue)]


def test_get_takes_off_the_queue_commit_makes_it_final(estate):
    put(estate, Q, b"one", b"two", b"three")
    t = EstateTransport(estate, "QM1")
    assert t.get(Q, wait=0)[1] == b"one"
    assert t.get(Q, wait=0)[1] == b"two"
    assert on_queue(estate, Q) == []           # all three taken (a batch), none visible
    other = EstateTransport(estate, "QM1")
    assert other.get(Q, wait=0) is None        # under another reader's syncpoint
    other.close()
    t.commit()                                 # one and two final, three still held
    t.close()                                  # three goes back
    assert on_queue(estate, Q) == [b"three"]


def test_backout_puts_back_at_the_head_in_order(estate):
    put(estate, Q, b"a", b"b", b"c")
    t = EstateTransport(estate, "QM1")
    assert [t.get(Q, wait=0)[1] for _ in range(2)] == [b"a", b"b"]
    put(estate, Q, b"d")
    t.backout()
    assert on_queue(estate, Q) == [b"a", b"b", b"c", b"d"]
    assert t.get(Q, wait=0)[1] == b"a"         # and it can be got again
    t.close()
    assert on_queue(estate, Q) == [b"a", b"b", b"c", b"d"]


def test_browse_leaves_the_queue(estate):
    put(estate, Q, b"x", b"y")
    t = EstateTransport(estate, "QM1")
    assert [t.get(Q, wait=0, browse=True)[1] for _ in range(2)] == [b"x", b"y"]
    assert t.get(Q, wait=0, browse=True) is None
    assert t.depth(Q, True) == 2
    t.close()
    assert on_queue(estate, Q) == [b"x", b"y"]


def test_a_reader_that_died_is_backed_out_by_the_next_command(estate):
    put(estate, Q, b"p", b"q")
    t = EstateTransport(estate, "QM1")
    assert t.get(Q, wait=0)[1] == b"p"
    os.close(t._unit._fd)   # the process is gone: its lock is let go, nothing else done
    assert on_queue(estate, Q) == [b"p", b"q"]  # the next command backed the unit out
    assert os.listdir(os.path.join(estate, "QM1", "uow")) == []


def test_the_readers_connection_lasts_across_visits(estate):
    run("sim", "runmqsc", estate, "QM1", stdin="ALTER QMGR ACCTMQI(ON) ACCTQ(ON)\n")
    put(estate, Q, b"1")
    t = EstateTransport(estate, "QM1", poll=0.01)
    assert t.get(Q, wait=0)[1] == b"1"
    t.commit()
    assert t.get(Q, wait=0.05) is None and t.visits >= 2
    t.close()
    _status, out, _ = run("stats", "-m", "QM1", "--network", estate, "--appl", "mqroute",
                         "--accounting", "--json")
    import json

    mqi = [json.loads(x)["data"] for x in out.splitlines() if '"MQIAccounting"' in x]
    assert len(mqi) == 1  # one connection from the first visit to close, one record
    assert mqi[0]["OpenCount"][mqc.MQOT_Q] == 1  # the queue opened once, not per visit
    assert mqi[0]["GetCount"] == [1, 0]


def test_mq_reasons(estate):
    with pytest.raises(TransportError) as e:
        EstateTransport(estate, "QM9")
    assert e.value.reason == mqc.MQRC_Q_MGR_NAME_ERROR and "QM1, QM2" in str(e.value)
    t = EstateTransport(estate, "QM1")
    with pytest.raises(TransportError) as e:
        t.get("NO.SUCH.QUEUE", wait=0)
    assert e.value.call == "MQOPEN" and e.value.reason == mqc.MQRC_UNKNOWN_OBJECT_NAME
    run("sim", "runmqsc", estate, "QM1", stdin=f"ALTER QLOCAL({Q}) GET(DISABLED)\n")
    with pytest.raises(TransportError) as e:
        t.get(Q, wait=0)
    assert e.value.call == "MQGET" and e.value.reason == mqc.MQRC_GET_INHIBITED
    t.close()
    assert queue_managers(estate) == ["QM1", "QM2"]


def test_waiting_visits_every_poll_and_sees_what_another_command_puts(estate):
    import threading

    t = EstateTransport(estate, "QM2", poll=0.05)
    threading.Timer(0.3, lambda: put(estate, Q, b"late", qmgr="QM2")).start()
    got = t.get(Q, wait=10)
    assert got is not None and got[1] == b"late"
    t.commit()
    t.close()
    assert on_queue(estate, Q, "QM2") == []


def test_a_damaged_unit_of_work_is_left_for_a_person_and_named_nowhere_else(estate):
    uow = os.path.join(estate, "QM1", "uow")
    os.makedirs(uow, exist_ok=True)
    with open(os.path.join(uow, "123-dead.json"), "w") as f:
        f.write("{not json")
    put(estate, Q, b"ok")                      # the estate still opens
    assert on_queue(estate, Q) == [b"ok"]
    assert os.path.exists(os.path.join(uow, "123-dead.json"))


def test_statistics_by_the_clock_reach_a_waiting_reader(tmp_path):
    """The clock ends a statistics interval between commands: the next visit writes it."""
    from importlib import resources

    from traceroute.sim.mqsc import parse_mqsc

    t0 = datetime(2026, 11, 28, 12, 0, 0, tzinfo=UTC)
    path = tmp_path / "e"
    text = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
    Estate.create(path, parse_mqsc(text), now=t0)
    with Estate.open(path, now=t0 + timedelta(seconds=1)) as e:
        e.sim.network.qmgrs["QM1"].attrs.update({"STATMQI": "ON", "STATQ": "ON",
                                                 "STATINT": "10"})
        e.sim.put("QM1", "ACTIV.REPLY.Q", MQMD(), b"x")
    with Estate.open(path, now=t0 + timedelta(seconds=5)) as e:
        assert e.sim.depth("QM1", "SYSTEM.ADMIN.STATISTICS.QUEUE") == 0
    with Estate.open(path, now=t0 + timedelta(seconds=12)) as e:
        assert e.sim.depth("QM1", "SYSTEM.ADMIN.STATISTICS.QUEUE") == 2  # MQI and queue


def test_a_locked_estate_is_waited_for_then_one_line(estate):
    from traceroute.sim.estate.folder import Folder

    with Folder(estate).locked(), pytest.raises(EstateError) as e:
        EstateTransport(estate, "QM1", lock_wait=0.2)
    assert "another command" in str(e.value)


@pytest.mark.parametrize("browse", [False, True])
def test_a_visit_that_stopped_at_a_full_batch_is_not_an_empty_queue(estate, browse):
    # a reader drains a queue of 7 in batches of 3, faster than its poll interval: each
    # empty buffer after a full batch is a reason to look again, not "empty a moment ago"
    # (a once-through `events -m` read only its first 200 events of a queue of 366)
    put(estate, Q, *(b"m%d" % i for i in range(7)))
    t = EstateTransport(estate, "QM1", batch=3, poll=3600.0)
    got = []
    while (message := t.get(Q, wait=0, browse=browse)) is not None:
        got.append(message[1])
    assert got == [b"m%d" % i for i in range(7)] and t.visits == 3
    t.commit()
    t.close()
    assert on_queue(estate, Q) == ([b"m%d" % i for i in range(7)] if browse else [])
