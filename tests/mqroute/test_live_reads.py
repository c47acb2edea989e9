"""`events`, `stats` and `follow` reading the system queues of a queue manager as they fill
(-m QMGR), as amqsevt, amqsmon and amqsact do: on an estate folder while other processes act
on it, and on a real queue manager's API (a fake ibmmq over the simulator).

Every waiting reader here is a real process; so are the commands that change the estate
meanwhile, the SIGINT and the SIGKILL.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pcf import dmpmqmsg, mqc
from pcf.mqmd import MQMD
from tests.support.cli import begun, run
from traceroute.sim.estate import Estate

ROOT = Path(__file__).resolve().parents[2]
EVENT = "SYSTEM.ADMIN.QMGR.EVENT"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "MQROUTE_DEBUG": ""}


def mqroute(*words: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqroute", *words], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=120)


def start(*words: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mqroute", *words], cwd=ROOT, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture
def estate(tmp_path):
    path = str(tmp_path / "estate")
    assert run("sim", "init", path, "--network", "demo")[0] == 0
    return path


def runmqsc(estate: str, qmgr: str, text: str) -> None:
    status, out, err = run("sim", "runmqsc", estate, qmgr, stdin=text)
    assert status == 0, out + err


def local_events(estate: str, n: int, prefix: str = "NO.SUCH") -> None:
    """n Unknown Object Name events on QM1 (LOCALEV on): puts to queues that are not."""
    with Estate.open(estate) as e:
        e.sim.network.qmgrs["QM1"].attrs["LOCALEV"] = "ENABLED"
        for i in range(n):
            assert e.sim.put("QM1", f"{prefix}.{i}", MQMD(), b"x").reason == \
                mqc.MQRC_UNKNOWN_OBJECT_NAME


def on_queue(estate: str, queue: str, qmgr: str = "QM1") -> list[bytes]:
    with Estate.open(estate) as e:
        return [md.msg_id for md, _ in e.sim.browse(qmgr, queue)]


def ids_in(dump: Path) -> list[bytes]:
    if not dump.exists():
        return []
    return [m.md.msg_id for m in dmpmqmsg.iter_file(dump, on_error=lambda e: None)
            if m.md is not None]


# --- a reader that waits sees what other processes make happen ----------------------------

def test_events_arrive_while_another_process_stops_channels_and_puts(estate):
    runmqsc(estate, "QM1", "ALTER QMGR CHLEV(ENABLED) LOCALEV(ENABLED)\n")
    reader = start("events", "-m", "QM1", "--network", estate, "--wait", "6", "--json")
    time.sleep(1.0)
    assert mqroute("sim", "put", estate, "-m", "QM1", "-q", "TARG.AT.QM2").returncode == 0
    runmqsc(estate, "QM1", "STOP CHANNEL(QM1.TO.QM2)\n")
    assert mqroute("sim", "put", estate, "-m", "QM1", "-q", "NO.SUCH.Q").returncode == 2
    out, err = reader.communicate(timeout=60)
    assert reader.returncode == 0, err
    reasons = [json.loads(line)["eventReason"]["name"] for line in out.splitlines()]
    # each queue's events in their order; across the two queues, as the reader's visits fell
    assert [r for r in reasons if r.startswith("Channel")] == [
        "Channel Started", "Channel Stopped", "Channel Stopped By User"]
    assert sorted(reasons) == sorted(["Channel Started", "Channel Stopped",
                                      "Channel Stopped By User", "Unknown Object Name"])
    assert "mqroute: 4 events; read live from QM1 (7 queues)" in err
    assert on_queue(estate, EVENT) == [] and on_queue(estate, "SYSTEM.ADMIN.CHANNEL.EVENT") == []


def test_statistics_arrive_by_the_clock_while_a_reader_waits(estate):
    runmqsc(estate, "QM1", "ALTER QMGR STATINT(1)\nALTER QLOCAL(ACTIV.REPLY.Q) STATQ(ON)\n")
    reader = start("stats", "-m", "QM1", "--network", estate, "--wait", "6", "--json")
    time.sleep(0.8)
    assert mqroute("sim", "put", estate, "-m", "QM1", "-q", "ACTIV.REPLY.Q", "--count",
                   "4").returncode == 0
    out, err = reader.communicate(timeout=60)
    assert reader.returncode == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    queues = [g for r in records if r["record_type"] == "QueueStatistics"
              for g in [r["data"]]]
    assert queues and sum(q["PutCount"][0] for q in queues) == 4
    assert all(q["QueueName"] == "ACTIV.REPLY.Q" for q in queues)


def test_follow_stitches_journeys_across_queue_managers_as_they_are_written(estate):
    for qmgr in ("QM1", "QM2"):
        runmqsc(estate, qmgr, "ALTER QMGR ACTVTRC(ON)\n")
    reader = start("follow", "-m", "QM1", "-m", "QM2", "--network", estate, "--wait", "6",
                   "--json")
    time.sleep(0.8)
    assert mqroute("sim", "put", estate, "-m", "QM1", "-q", "TARG.AT.QM2", "--count",
                   "2").returncode == 0
    time.sleep(1.2)  # the channels' agents' trace is written by the clock (interval 1 s)
    assert mqroute("sim", "get", estate, "-m", "QM2", "-q", "TARGET.Q").returncode == 0
    out, err = reader.communicate(timeout=60)
    assert reader.returncode == 0, err
    journeys = [json.loads(line) for line in out.splitlines()]
    assert len(journeys) == 2 and all(j["verdict"] == "consumed" for j in journeys), out
    assert {s["queue_manager"] for j in journeys for s in j["path"]} == {"QM1", "QM2"}


# --- output equals what the command prints from the dump it saved -------------------------

@pytest.mark.parametrize("command, setup", [
    ("events", "ALTER QMGR LOCALEV(ENABLED)\n"),
    ("stats", "ALTER QMGR STATMQI(ON) STATQ(ON) ACCTMQI(ON) ACCTQ(ON)\n"),
    ("follow", "ALTER QMGR ACTVTRC(ON)\n"),
])
def test_live_output_is_what_the_same_command_prints_from_files(estate, tmp_path, command,
                                                                 setup):
    runmqsc(estate, "QM1", setup)
    local_events(estate, 3)
    assert mqroute("sim", "put", estate, "-m", "QM1", "-q", "ACTIV.REPLY.Q",
                   "--count", "2").returncode == 0
    runmqsc(estate, "QM1", "RESET QMGR TYPE(STATISTICS)\n")
    dump = tmp_path / "saved.dmp"
    live = mqroute(command, "-m", "QM1", "--network", estate, "--save", str(dump))
    assert live.returncode in (0, 6), live.stderr  # follow: the failed puts' journeys, 6
    assert live.stdout.strip()
    # the same command: follow with -m and --network explains where messages wait now
    same = ("-m", "QM1", "--network", estate) if command == "follow" else ()
    files = mqroute(command, str(dump), *same)
    assert files.returncode == live.returncode and files.stdout == live.stdout


# --- browse, once through, wait 0 ---------------------------------------------------------

def test_browse_leaves_the_queues_as_they_were(estate):
    local_events(estate, 4)
    before = on_queue(estate, EVENT)
    r = mqroute("events", "-m", "QM1", "--network", estate, "--browse")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 4
    assert "; browsed" in r.stderr and on_queue(estate, EVENT) == before


# --- SIGINT: a clean stop, nothing lost ---------------------------------------------------

def test_sigint_stops_cleanly_and_loses_nothing(estate, tmp_path):
    local_events(estate, 600)
    every = on_queue(estate, EVENT)
    dump = tmp_path / "saved.dmp"
    reader = start("events", "-m", "QM1", "--network", estate, "--wait", "30", "--save",
                   str(dump))
    first = begun(reader.stdout)  # printing has begun
    assert "Unknown Object Name" in first
    reader.send_signal(signal.SIGINT)
    rest, err = reader.communicate(timeout=60)
    assert reader.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    printed = len((first + rest).splitlines())
    saved, left = ids_in(dump), on_queue(estate, EVENT)
    assert len(saved) == printed and set(saved) | set(left) == set(every)
    assert not set(saved) & set(left) and len(saved) + len(left) == len(every)
    assert printed < len(every)  # it did stop


# --- SIGKILL at a random moment: every message on its queue or in the dump ---------------

@pytest.mark.parametrize("seed", range(3))
def test_sigkill_at_a_random_moment_loses_nothing(estate, tmp_path, seed):
    rng = random.Random(seed)
    local_events(estate, rng.randint(150, 400))
    every = set(on_queue(estate, EVENT))
    dump = tmp_path / "saved.dmp"
    reader = start("events", "-m", "QM1", "--network", estate, "--wait", "30", "--save",
                   str(dump))
    reader.stdout.readline()
    time.sleep(rng.uniform(0.0, 0.4))
    reader.send_signal(signal.SIGKILL)
    reader.communicate(timeout=60)
    # the next command backs out the dead reader's unit of work
    assert set(ids_in(dump)) | set(on_queue(estate, EVENT)) == every
    again = mqroute("events", "-m", "QM1", "--network", estate, "--save", str(dump))
    assert again.returncode == 0, again.stderr
    assert on_queue(estate, EVENT) == [] and set(ids_in(dump)) == every, again.stderr
    assert os.listdir(os.path.join(estate, "QM1", "uow")) == []


# --- problems: one line each --------------------------------------------------------------

def test_an_unknown_queue_is_one_line_with_mqs_reason_and_exit_1(estate):
    local_events(estate, 1)
    r = mqroute("events", "-m", "QM1", "--network", estate, "--queue", "NO.SUCH.QUEUE",
                "--queue", EVENT)
    assert r.returncode == 1
    # the event there was, and the reader's own failed MQOPEN's (LOCALEV is on)
    assert [x.split(") ")[1].split()[0] for x in r.stdout.splitlines()] == [
        "NO.SUCH.0", "NO.SUCH.QUEUE"]
    assert "applName=mqroute" in r.stdout.splitlines()[1]
    lines = [x for x in r.stderr.splitlines() if "NO.SUCH.QUEUE" in x]
    assert lines == ["mqroute: events: QM1:NO.SUCH.QUEUE: MQOPEN 'NO.SUCH.QUEUE' failed: "
                     "MQRC_UNKNOWN_OBJECT_NAME (2085)"]


@pytest.mark.parametrize("words, said", [
    (("events", "-m", "QM9"), "MQRC_Q_MGR_NAME_ERROR (2058)"),
    (("stats", "-m", "QM9"), "MQRC_Q_MGR_NAME_ERROR (2058)"),
    (("follow", "-m", "QM1", "-m", "QM9"), "MQRC_Q_MGR_NAME_ERROR (2058)"),
])
def test_an_unknown_queue_manager_is_exit_2(estate, words, said):
    r = mqroute(*words, "--network", estate)
    assert r.returncode == 2 and said in r.stderr and len(r.stderr.splitlines()) == 1


def test_usage_and_connection_problems_are_exit_2(estate, tmp_path):
    r = mqroute("events", "-m", "QM1", "--network", "demo")
    assert r.returncode == 2 and "needs an estate folder" in r.stderr
    r = mqroute("events", "--wait", "3")
    assert r.returncode == 2 and "give -m QMGR" in r.stderr
    r = mqroute("stats", "-m", "QM1", "--network", estate, "--wait", "-1")
    assert r.returncode == 2 and "--wait -1" in r.stderr
    r = mqroute("events", "-m", "QM1", "--network", estate, "-c")
    assert r.returncode == 2 and "no meaning with --network" in r.stderr
    notadump = tmp_path / "notes.txt"
    notadump.write_text("my notes\n")
    r = mqroute("events", "-m", "QM1", "--network", estate, "--save", str(notadump))
    assert r.returncode == 2 and "not a dmpmqmsg dump" in r.stderr
    assert notadump.read_text() == "my notes\n"
    env = {**ENV, "MQROUTE_MQ_CLIENT": "pymqi"}  # no MQ client library here
    r = subprocess.run([sys.executable, "-m", "mqroute", "events", "-m", "QM1"], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "pymqi" in r.stderr and "Traceback" not in r.stderr


# --- a real queue manager: the same reading through IBM's ibmmq API -----------------------

def test_events_from_a_real_queue_manager_through_ibmmq(monkeypatch, tmp_path):
    """-m without --network: IBM's ibmmq (a fake of its API over a simulated queue
    manager): gets under syncpoint, committed once printed; --browse leaves them."""
    from importlib import resources

    from tests.support.fake_ibmmq import make_fake_ibmmq
    from traceroute.sim.events import SimEvents
    from traceroute.sim.mqsc import parse_mqsc
    from traceroute.sim.simulator import Simulator

    sim = Simulator(parse_mqsc(resources.files("traceroute").joinpath(
        "examples/qm1_qm2.mqsc").read_text()))
    SimEvents(sim)
    sim.network.qmgrs["QM1"].attrs["LOCALEV"] = "ENABLED"
    for i in range(3):
        sim.put("QM1", f"NO.SUCH.{i}", MQMD(), b"x")
    assert sim.depth("QM1", EVENT) == 3
    monkeypatch.setitem(sys.modules, "ibmmq", make_fake_ibmmq(sim))
    status, out, err = run("events", "-m", "QM1", "--browse")
    assert status == 0, err
    assert len(out.splitlines()) == 3 and sim.depth("QM1", EVENT) == 3
    dump = tmp_path / "ev.dmp"
    status, out2, err = run("events", "-m", "QM1", "--save", str(dump))
    assert status == 0, err
    assert out2 == out and sim.depth("QM1", EVENT) == 0 and len(ids_in(dump)) == 3
    status, _, err = run("events", "-m", "QM1", "--queue", "NO.SUCH.QUEUE")
    assert status == 1 and "MQRC_UNKNOWN_OBJECT_NAME (2085)" in err


# --- metrics: statistics browsed from the queues at every refresh --------------------------

def test_metrics_stats_live_browses_the_statistics_queue(estate, tmp_path):
    runmqsc(estate, "QM1", "ALTER QMGR STATMQI(ON) STATINT(3600)\n"
                           "ALTER QLOCAL(ACTIV.REPLY.Q) STATQ(ON)\n")
    assert run("sim", "put", estate, "-m", "QM1", "-q", "ACTIV.REPLY.Q", "--count", "4")[0] == 0
    runmqsc(estate, "QM1", "RESET QMGR TYPE(STATISTICS)\n")
    before = on_queue(estate, "SYSTEM.ADMIN.STATISTICS.QUEUE")
    out = tmp_path / "m.prom"
    status, _, err = run("metrics", "--stats-live", "--network", estate, "-m", "QM1",
                         "--textfile", str(out))
    assert status == 0, err
    puts = [line for line in out.read_text().splitlines()
            if line.startswith("ibmmq_queue_mqput_non_persistent_message_count{")
            and 'queue="ACTIV.REPLY.Q"' in line]
    assert len(puts) == 1 and puts[0].endswith(" 4.0")
    assert on_queue(estate, "SYSTEM.ADMIN.STATISTICS.QUEUE") == before  # only browsed
    status, _, err = run("metrics", "--stats-live", "--textfile", str(out))
    assert status == 2 and "give -m QMGR" in err


def test_stats_and_follow_from_real_queue_managers_through_ibmmq(monkeypatch):
    """stats -m and follow -m -m over IBM's ibmmq API (a fake of it over one simulator):
    the statistics sequence and two queue managers' activity trace, read and committed."""
    from importlib import resources

    from tests.support.fake_ibmmq import make_fake_ibmmq
    from traceroute.sim.activity_trace import ActivityTracer
    from traceroute.sim.mqsc import parse_mqsc
    from traceroute.sim.simulator import Simulator
    from traceroute.sim.statistics import StatisticsCollector

    sim = Simulator(parse_mqsc(resources.files("traceroute").joinpath(
        "examples/qm1_qm2.mqsc").read_text()))
    for qm in sim.network.qmgrs.values():
        qm.attrs.update({"ACTVTRC": "ON", "STATMQI": "ON", "STATQ": "ON"})
    collector = StatisticsCollector(sim)
    tracer = ActivityTracer(sim)
    from traceroute.sim.cmdserver import attach

    attach(sim)  # follow -m explains where messages wait by asking the command server
    for _ in range(3):
        assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"hello").ok
    sim.run(until=sim.now + 5)
    assert sim.get("QM2", "TARGET.Q") is not None
    sim.disconnect_all()
    collector.finish()
    tracer.close()
    monkeypatch.setitem(sys.modules, "ibmmq", make_fake_ibmmq(sim))
    status, out, err = run("stats", "-m", "QM1", "--statistics", "--json")
    assert status == 0, err
    assert {json.loads(x)["record_type"] for x in out.splitlines()} == {"MQIStatistics",
                                                                       "QueueStatistics"}
    assert sim.depth("QM1", "SYSTEM.ADMIN.STATISTICS.QUEUE") == 0
    status, out, err = run("follow", "-m", "QM1", "-m", "QM2", "--json")
    journeys = [json.loads(x) for x in out.splitlines()]
    assert status == 0, err
    assert len(journeys) == 3 and sum(j["verdict"] == "consumed" for j in journeys) == 1
    assert [j["live_status"][0]["curdepth"] for j in journeys if j["verdict"] == "on_queue"] \
        == [2, 2]  # and, asked now, where the other two wait
    assert sim.depth("QM1", "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE") == 0


# --- follow --subscribe: the $SYS ActivityTrace topics (amqsact -t) ------------------------

TOPIC = "$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ApplName/"


def _traced_sim():
    from importlib import resources

    from traceroute.sim.activity_trace import ActivityTracer
    from traceroute.sim.cmdserver import attach
    from traceroute.sim.mqsc import parse_mqsc
    from traceroute.sim.simulator import Simulator

    sim = Simulator(parse_mqsc(resources.files("traceroute").joinpath(
        "examples/qm1_qm2.mqsc").read_text()))  # ACTVTRC(OFF): the subscription switches it on
    tracer = ActivityTracer(sim)
    attach(sim)
    return sim, tracer


def test_follow_subscribe_through_ibmmq_mqsub(monkeypatch):
    """follow -m QM1 --subscribe --appl NAME over ibmmq's Subscription API (MQSUB with a
    managed non-durable queue, its topic exactly amqsact -t -a's), publications read
    under syncpoint, the subscription and its queue gone at the end."""
    from tests.support.fake_ibmmq import make_fake_ibmmq

    sim, _tracer = _traced_sim()

    def work() -> None:  # while the reader waits: traced (subscribed), written at MQDISC
        for _ in range(2):
            assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"hello").ok
        sim.disconnect(sim.connection("QM1", "amqsput"))
    sim.later(2.0, work)
    fake = make_fake_ibmmq(sim)
    monkeypatch.setitem(sys.modules, "ibmmq", fake)
    status, out, err = run("follow", "-m", "QM1", "--subscribe", "--appl", "/opt/bin/amqsput",
                           "--wait", "5", "--json")
    assert status == 4, err  # amqsput's calls only: the journeys end on the xmitq (4)
    journeys = [json.loads(x) for x in out.splitlines()]
    assert len(journeys) == 2 and all(j["path"][0]["appl_name"] == "amqsput" for j in journeys)
    assert {j["verdict"] for j in journeys} == {"on_xmitq"}
    # the publications kept the trace messages' CorrelId: the connection is amqsput's (AMQC)
    assert {j["path"][0]["conn_id"][:8] for j in journeys} == {"414D5143"}
    assert "read live from QM1 (1 subscription)" in err
    subs = [c for c in fake.world.calls if c[0] == "MQSUB"]
    assert [c[2] for c in subs] == [TOPIC + "amqsput"]
    managed = subs[0][3]
    assert managed.startswith("SYSTEM.MANAGED.NDURABLE.")
    assert not sim.browse("QM1", "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE")  # ACTVTRC(OFF)
    assert managed not in sim.network.qmgrs["QM1"].queues and not list(sim.pubsub)
    assert ("MQCLOSE", "QM1", TOPIC + "amqsput", "subscription") in fake.world.calls
    # a character wildcard subscribes in MQ's character scheme; MQ's refusal is one line
    seen = []
    real_subscribe = sim.subscribe
    monkeypatch.setattr(sim, "subscribe", lambda *a, **k: seen.append(k["scheme"])
                        or real_subscribe(*a, **k))
    status, _, err = run("follow", "-m", "QM1", "--subscribe", "--appl", "amqs*", "--wait", "1")
    assert status == 0 and seen == ["CHAR"], err
    sim.network.qmgrs["QM1"].attrs["PSMODE"] = "DISABLED"
    status, _, err = run("follow", "-m", "QM1", "--subscribe", "--channel", "#", "--wait", "1")
    assert status == 1 and len(err.splitlines()) == 2, err
    assert f"QM1:{TOPIC[:-9]}ChannelName/#: MQSUB" in err and "MQRC_PUBSUB_INHIBITED" in err


def test_a_subscription_close_mq_refuses_is_one_line_and_mqdisc_still_happens(monkeypatch):
    from tests.support.fake_ibmmq import make_fake_ibmmq

    sim, _tracer = _traced_sim()
    fake = make_fake_ibmmq(sim)
    monkeypatch.setitem(sys.modules, "ibmmq", fake)

    def broken(self, *args, **kwargs):
        raise fake.MQMIError(mqc.MQCC_FAILED, mqc.MQRC_CONNECTION_BROKEN)
    monkeypatch.setattr(fake.Subscription, "close", broken)
    status, _, err = run("follow", "-m", "QM1", "--subscribe", "--appl", "x", "--wait", "1")
    assert status == 0 and "Traceback" not in err, err
    assert "closing QM1: MQCLOSE failed: MQRC_CONNECTION_BROKEN (2009)" in err
    assert fake.world.calls[-1] == ("MQDISC", "QM1")


@pytest.mark.parametrize("words, said", [
    (("--subscribe", "--appl", "x", "--wait", "1"), "give -m QMGR"),
    (("-m", "QM1", "--subscribe", "--appl", "x"), "give --wait SECONDS"),
    (("-m", "QM1", "--subscribe", "--appl", "x", "--wait", "1", "--browse"), "--browse"),
    (("-m", "QM1", "--subscribe", "--wait", "1"), "give one of --appl"),
    (("-m", "QM1", "--subscribe", "--appl", "a", "--channel", "c", "--wait", "1"), "one of"),
    (("-m", "QM1", "--subscribe", "--conn-id", "414D51", "--wait", "1"), "48 hex"),
    (("-m", "QM1", "--subscribe", "--appl", "x" * 29, "--wait", "1"), "28 characters"),
    (("x.dmp", "--subscribe"), "without files"),
])
def test_follow_subscribe_usage(words, said):
    status, _, err = run("follow", *words)
    assert status == 2 and said in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.slow
def test_follow_subscribe_on_an_estate_folder_lasts_between_visits(estate):
    """A reader process subscribes in the estate folder; the commands run meanwhile are
    traced and their trace published to it by the queue manager (the estate keeps the
    reader's non-durable subscription with its connection; ACTVTRC stays OFF: the
    subscription switches trace on); at the end the subscription and its managed queue are
    gone. A reader that is killed
    leaves them to the next command, which ends them with its connection."""
    def publish(n: int) -> None:  # a command whose trace the queue manager publishes
        assert mqroute("sim", "put", estate, "-m", "QM1", "-q", "ACTIV.REPLY.Q",
                       "--count", str(n)).returncode == 0

    def subscriptions() -> list:
        with Estate.open(estate) as e:
            return [(s.topic, s.dest in e.sim.network.qmgrs["QM1"].queues)
                    for s in e.sim.pubsub if s.kind == mqc.MQSUBTYPE_API]

    reader = start("follow", "-m", "QM1", "--network", estate, "--subscribe", "--appl",
                   "amqsput", "--wait", "4", "--json")
    for _ in range(100):
        if subscriptions():
            break
        time.sleep(0.1)
    assert subscriptions() == [(TOPIC + "amqsput", True)]
    publish(2)
    time.sleep(1.0)
    publish(1)
    out, err = reader.communicate(timeout=120)
    assert reader.returncode == 0, err
    assert len(out.splitlines()) == 3 and "(1 subscription)" in err, out + err
    conns = {json.loads(x)["path"][0]["conn_id"] for x in out.splitlines()}
    assert len(conns) == 2 and all(c.startswith("414D5143") for c in conns)  # two `sim put`s
    assert on_queue(estate, "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE") == []
    assert subscriptions() == []
    killed = start("follow", "-m", "QM1", "--network", estate, "--subscribe", "--appl",
                   "amqsput", "--wait", "30")
    for _ in range(100):
        if subscriptions():
            break
        time.sleep(0.1)
    killed.kill()
    killed.communicate(timeout=60)
    assert subscriptions() == []  # ended with the dead reader's connection


@pytest.mark.slow
def test_two_subscribing_readers_at_once_each_keep_their_own(estate, tmp_path):
    """Two `follow --subscribe` readers on one estate folder at once: each its own
    subscription and managed queue (SubIds unique across commands), each sees what it
    subscribed to, and the first to end leaves the other's subscription alone; Ctrl-C ends
    a reader with exit 130, what it read printed and saved."""
    def subscriptions() -> list:
        with Estate.open(estate) as e:
            return sorted(s.topic for s in e.sim.pubsub if s.kind == mqc.MQSUBTYPE_API)

    dump = tmp_path / "appl.dmp"
    appl = start("follow", "-m", "QM1", "--network", estate, "--subscribe", "--appl",
                 "amqsput", "--wait", "60", "--save", str(dump), "--json")
    chl = start("follow", "-m", "QM1", "--network", estate, "--subscribe", "--channel", "#",
                "--wait", "10", "--json")
    for _ in range(200):
        if len(subscriptions()) == 2:
            break
        time.sleep(0.1)
    assert subscriptions() == [TOPIC[:-9] + "ApplName/amqsput", TOPIC[:-9] + "ChannelName/#"]
    assert mqroute("sim", "put", estate, "-m", "QM1", "-q", "TARG.AT.QM2",
                   "--count", "2").returncode == 0
    out, err = chl.communicate(timeout=120)  # ends 10 s after the channel's trace
    assert chl.returncode == 3, err  # the channel's calls alone: incomplete journeys
    assert len(out.splitlines()) == 2 and "(1 subscription)" in err
    assert subscriptions() == [TOPIC[:-9] + "ApplName/amqsput"]  # the other one lives on
    assert mqroute("sim", "put", estate, "-m", "QM1", "-q", "TARG.AT.QM2").returncode == 0
    for _ in range(200):
        if len(ids_in(dump)) >= 2:
            break
        time.sleep(0.1)
    time.sleep(1.0)
    appl.send_signal(signal.SIGINT)
    out, err = appl.communicate(timeout=120)
    assert appl.returncode == 130 and "interrupted" in err, err
    journeys = [json.loads(x) for x in out.splitlines()]
    assert len(journeys) == 3 and {j["path"][0]["appl_name"] for j in journeys} == {"amqsput"}
    assert len(ids_in(dump)) == 2  # one trace message per `sim put` command
    assert subscriptions() == []


def test_metrics_stats_live_passes_on_a_signal_that_came_during_the_read(monkeypatch):
    """The live read holds SIGTERM/SIGINT while it reads (to stop at a message boundary);
    one that came meanwhile is raised again afterwards, so metrics' loop still stops."""
    import argparse

    import mqroute.live
    from mqroute.commands.metrics import _live_stats_reader
    from mqroute.live import LiveOutcome
    from mqroute.options import Filters

    def read_queues(*_args, **_kw):
        return LiveOutcome(signum=signal.SIGTERM)
    monkeypatch.setattr(mqroute.live, "read_queues", read_queues)
    seen = []
    previous = signal.signal(signal.SIGTERM, lambda signum, _frame: seen.append(signum))
    try:
        _snapshot, failures = _live_stats_reader(argparse.Namespace(qmgr="QM1"), Filters())()
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert seen == [signal.SIGTERM] and failures == 0
