"""Live status -> metrics: the administration client asks a simulated estate's command server
(PCF over its queues, read back with traceroute.status) DISPLAY QSTATUS, QUEUE, CHSTATUS,
CHANNEL and QMGR, and the metrics say what the simulator holds: a stopped channel, messages
waiting on its transmission queue, monitoring values when MONQ/MONCHL are on, a queue
manager that does not answer; over IBM's ibmmq (a fake of its API on the same simulator) the
metrics are the same."""

from __future__ import annotations

from datetime import UTC, datetime
from importlib import resources

import pytest

from graph.metrics.live import channel_facts, collect, queue_facts
from graph.metrics.status import Deltas, status_snapshot
from pcf import mqc
from pcf.mqmd import MQMD
from tests.support.fake_ibmmq import make_fake_ibmmq
from tests.support.fake_pymqi import make_fake_pymqi
from traceroute.mq.admin import Admin, PCFOverQueues
from traceroute.mq.client import MQTransport
from traceroute.mq.transport import Connection, SimTransport
from traceroute.sim.cmdserver import attach
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator
from traceroute.status import ChannelStatus, Definition, QueueStatus

DEMO = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()


def estate(monitoring: bool = True):
    extra = "ALTER QMGR MONQ(MEDIUM) MONCHL(MEDIUM)\n" if monitoring else ""
    net = parse_mqsc(DEMO)
    for qm in ("QM1", "QM2"):
        parse_mqsc(extra, qmgr=qm, network=net)
    sim = Simulator(net)
    attach(sim)
    return sim


def admins(sim: Simulator, over: str = "sim"):
    """Admin of each queue manager asked, through the simulated transport, ibmmq's or
    pymqi's API or MQ's REST API (runCommandJSON answered in-process from the command
    server)."""
    made: dict[str, Admin] = {}

    def admin(qmgr: str) -> Admin:
        if qmgr not in made:
            if over == "rest":
                made[qmgr] = rest_admin(sim, qmgr)
                return made[qmgr]
            transport = SimTransport(sim, qmgr) if over == "sim" else \
                MQTransport.connect(Connection(qmgr), pymqi=make_fake_pymqi(sim)) \
                if over == "pymqi" else \
                MQTransport.connect(Connection(qmgr), pymqi=make_fake_ibmmq(sim))
            made[qmgr] = Admin(PCFOverQueues(transport))
        return made[qmgr]
    return admin


def rest_admin(sim: Simulator, qmgr: str) -> Admin:
    """An Admin over the REST client, its requests answered as `mqroute sim rest` does."""
    import json

    import httpx

    from traceroute.mq.rest import RestCommands
    from traceroute.rest import command_of, response_body

    server = attach(sim)

    def handler(request: httpx.Request) -> httpx.Response:
        command, names_only = command_of(json.loads(request.content))
        body = response_body(command, server.execute(qmgr, command), qmgr=qmgr, tz=server.tz,
                             names_only=names_only)
        return httpx.Response(200, json=body)

    client = httpx.Client(transport=httpx.MockTransport(handler))
    return Admin(RestCommands("https://mqweb.example:9443", qmgr, user="u", password="p",
                              client=client))


def test_stopped_channel_and_messages_waiting():
    sim = estate()
    sim.stop_channel("QM1", "QM1.TO.QM2")
    for _ in range(4):
        assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"x").ok
    sim.run(until=sim.now + 30)
    facts = collect(admins(sim), ["QM1", "QM2"])
    snap = status_snapshot(facts, now=datetime.now(UTC))
    xmitq = {"qmgr": "QM1", "queue": "QM2", "usage": "XMITQ", "platform": "UNIX"}
    assert snap.get("ibmmq_queue_depth", **xmitq) == sim.depth("QM1", "QM2") == 4
    assert snap.get("ibmmq_queue_attribute_max_depth", **xmitq) == 5000
    assert snap.get("ibmmq_queue_oldest_message_age", **xmitq) is not None  # MONQ(MEDIUM)
    assert snap.get("ibmmq_queue_depth", qmgr="QM2", queue="TARGET.Q", usage="NORMAL",
                    platform="UNIX") == 0
    (key, status), = snap.series["ibmmq_channel_status"].items()
    assert key[:2] == ("QM1", "QM1.TO.QM2") and status == mqc.MQCHS_STOPPED
    assert snap.series["ibmmq_channel_status_squash"][key] == 0
    assert snap.series["ibmmq_channel_type"][key] == mqc.MQCHT_SENDER
    assert {k[0]: v for k, v in snap.series["ibmmq_qmgr_status"].items()} == {
        "QM1": mqc.MQQMSTA_RUNNING, "QM2": mqc.MQQMSTA_RUNNING}


def test_running_channel_counts_messages_between_collections():
    sim = estate()
    deltas = Deltas()
    ask = admins(sim)

    def snapshot():
        facts = collect(ask, ["QM1"])
        return status_snapshot(facts, now=datetime.now(UTC), deltas=deltas)

    assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"x").ok
    sim.run(until=sim.now + 30)
    first = snapshot()
    running = [k for k, v in first.series["ibmmq_channel_status"].items() if v == 3]
    assert running, first.series["ibmmq_channel_status"]
    assert first.series["ibmmq_channel_messages"][running[0]] == 0  # first collection
    for _ in range(5):
        assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"x").ok
    sim.run(until=sim.now + 30)
    second = snapshot()
    assert second.series["ibmmq_channel_messages"][running[0]] == 5
    assert sim.depth("QM2", "TARGET.Q") == 6


def test_a_queue_manager_that_does_not_answer():
    from traceroute.mq.admin import AdminError

    sim = estate()
    ask = admins(sim)

    class Silent:
        qmgr = "QM2"

        def queues(self, *args, **kwargs):
            raise AdminError("QM2: no response from the command server in 30 s")

    said = []
    facts = collect(lambda q: Silent() if q == "QM2" else ask(q), ["QM1", "QM2"],
                    on_error=lambda q, why: said.append((q, why)))
    snap = status_snapshot(facts, now=datetime.now(UTC))
    assert snap.get("ibmmq_qmgr_status", qmgr="QM2") == 0  # no answer: no platform
    assert snap.get("ibmmq_qmgr_status", qmgr="QM1", platform="UNIX") == mqc.MQQMSTA_RUNNING
    assert said == [("QM2", "QM2: no response from the command server in 30 s")]
    assert not any(k[0] == "QM2" for k in snap.series["ibmmq_queue_depth"])


def test_the_same_metrics_over_ibmmq():
    """A real queue manager's path (IBM's ibmmq API, here a fake of it on the simulator)
    gives the metrics the simulated transport gives."""
    def snapshot(over: str):
        sim = estate()
        sim.stop_channel("QM1", "QM1.TO.QM2")
        assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"x").ok
        sim.run(until=sim.now + 30)
        snap = status_snapshot(collect(admins(sim, over), ["QM1"]),
                               now=datetime(2026, 11, 22, tzinfo=UTC))
        return {name: values for name, values in snap.series.items()
                if not name.startswith("ibmmq_queue_time_since")}

    via_ibmmq = snapshot("ibmmq")
    assert via_ibmmq == snapshot("sim")
    assert via_ibmmq["ibmmq_queue_depth"][("QM1", "QM2", "UNIX", "XMITQ", "", "")] == 1


def test_typed_values_map_onto_facts():
    when = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
    q = queue_facts(QueueStatus("QM1", "APP.Q", 7, ipprocs=1, opprocs=2, uncom=3, msgage=40,
                                qtime=(100, 200), last_put=when),
                    Definition("QM1", "QLOCAL", "APP.Q", {"MAXDEPTH": "900", "USAGE": "NORMAL",
                                                          "DESCR": "orders", "CLUSTER": "C1"}))
    assert (q.depth, q.max_depth, q.usage, q.description, q.cluster) == (
        7, 900, mqc.MQUS_NORMAL, "orders", "C1")
    assert (q.input_handles, q.output_handles, q.uncommitted, q.qtime, q.last_put) == (
        1, 2, 3, (100, 200), when)
    c = channel_facts(ChannelStatus("QM1", "TO.QM2", "SDR", "RETRYING", substate="MQGET",
                                    conname="h(1414)", rqmname="QM2", msgs=9, batches=2,
                                    nettime=(5, 6), xbatchsz=(3, 4)),
                      Definition("QM1", "CHANNEL", "TO.QM2", {"MAXINST": "999",
                                                              "DESCR": "to QM2"}))
    assert (c.type, c.status, c.substate) == (mqc.MQCHT_SENDER, mqc.MQCHS_RETRYING,
                                              mqc.MQCHSSTATE_IN_MQGET)
    assert (c.messages, c.batches, c.nettime, c.batchsz, c.max_inst, c.description) == (
        9, 2, (5, 6), (3, 4), 999, "to QM2")
    assert c.instance_type == mqc.MQOT_CURRENT_CHANNEL


@pytest.mark.parametrize("monitoring", [False, True])
def test_monitoring_values_only_when_measured(monitoring):
    sim = estate(monitoring)
    sim.stop_channel("QM1", "QM1.TO.QM2")
    assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"x").ok
    sim.run(until=sim.now + 5)
    snap = status_snapshot(collect(admins(sim), ["QM1"]), now=datetime.now(UTC))
    assert snap.get("ibmmq_queue_depth", qmgr="QM1", queue="QM2", usage="XMITQ",
                    platform="UNIX") == 1  # the series' labels are right
    measured = snap.get("ibmmq_queue_oldest_message_age", qmgr="QM1", queue="QM2",
                        usage="XMITQ", platform="UNIX")
    assert (measured is not None) == monitoring  # MONQ(OFF): absent, never a made-up 0


def test_bytes_buffers_and_queue_files_the_same_over_every_path():
    """IBM's Channel Status and Queue Status dashboards' bytes, buffers and queue file
    panels: a running channel's BYTSSENT ... BUFSRCVD changes between two collections and
    the queue file of messages waiting, the same over the simulated transport, IBM's ibmmq
    API, pymqi and the REST API, and as the simulator's documented model says (per message: the
    MQXQH 428 bytes + data + a 28-byte segment header, one buffer; one 28-byte confirmation
    per batch)."""
    def series(over: str) -> dict:
        sim = estate()
        deltas, ask = Deltas(), admins(sim, over)
        for n in (1, 4):
            for _ in range(n):
                assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"x" * 1000).ok
            sim.run(until=sim.now + 30)
            snap = status_snapshot(collect(ask, ["QM1", "QM2"]),
                                   now=datetime(2026, 11, 28, tzinfo=UTC), deltas=deltas)
        return {name: values for name, values in snap.series.items()
                if name.startswith(("ibmmq_channel_b", "ibmmq_queue_qfile"))}

    over_sim = series("sim")
    for over in ("ibmmq", "pymqi", "rest"):
        assert series(over) == over_sim, over

    def one(name: str, qmgr: str, what: str):
        (value,) = [v for k, v in over_sim[name].items() if k[:2] == (qmgr, what)]
        return value

    batches = one("ibmmq_channel_batches", "QM1", "QM1.TO.QM2")
    assert 1 <= batches <= 4
    assert one("ibmmq_channel_bytes_sent", "QM1", "QM1.TO.QM2") == 4 * (428 + 1000 + 28)
    assert one("ibmmq_channel_buffers_sent", "QM1", "QM1.TO.QM2") == 4
    assert one("ibmmq_channel_bytes_rcvd", "QM2", "QM1.TO.QM2") == 4 * (428 + 1000 + 28)
    assert one("ibmmq_channel_buffers_rcvd", "QM1", "QM1.TO.QM2") == batches
    assert one("ibmmq_channel_buffers_sent", "QM2", "QM1.TO.QM2") == batches
    assert one("ibmmq_channel_bytes_sent", "QM2", "QM1.TO.QM2") == 28 * batches
    assert one("ibmmq_queue_qfile_current_size", "QM2", "TARGET.Q") == 1  # 5 messages
    assert one("ibmmq_queue_qfile_max_size", "QM2", "TARGET.Q") == 2_088_960
    assert one("ibmmq_queue_qfile_current_size", "QM1", "QM2") == 0  # all sent


@pytest.mark.parametrize("over", ["sim", "ibmmq", "pymqi", "rest"])
def test_queue_manager_status_metrics_from_display_qmstatus(over):
    """ibmmq_qmgr_* from Inquire Queue Manager Status: running, uptime since its start (the
    simulation's), its connections when it answered, command server and channel initiator
    running; the same over every path."""
    sim = estate()
    assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"x").ok
    sim.run(until=sim.now + 30)
    ask = admins(sim, over)
    asked_at = {}

    def answers(qmgr):
        asked_at[qmgr] = {c.appl_name for c in sim.connections() if c.qmgr == qmgr}
        return ask(qmgr)

    now = datetime(2026, 11, 22, 12, 30, tzinfo=UTC)  # 2.5 h after the estate's start
    snap = status_snapshot(collect(answers, ["QM1", "QM2"]), now=now)
    for qmgr in ("QM1", "QM2"):
        labels = {"qmgr": qmgr, "platform": "UNIX"}
        assert snap.get("ibmmq_qmgr_status", **labels) == mqc.MQQMSTA_RUNNING
        assert snap.get("ibmmq_qmgr_uptime", **labels) == 9000
        assert snap.get("ibmmq_qmgr_command_server_status", **labels) == \
            mqc.MQSVC_STATUS_RUNNING
        assert snap.get("ibmmq_qmgr_channel_initiator_status", **labels) == \
            mqc.MQSVC_STATUS_RUNNING
        conns = snap.get("ibmmq_qmgr_connection_count", **labels)
        # those open when it was asked, and the asker's own (the REST handler here calls the
        # command server in-process: no MQ connection of its own)
        asker = 0 if over == "rest" else 1
        assert conns is not None and conns >= max(asker, len(asked_at[qmgr]))


def test_qmgr_series_equal_over_sim_and_ibmmq():
    def series(over):
        sim = estate()
        snap = status_snapshot(collect(admins(sim, over), ["QM1"]),
                               now=datetime(2026, 11, 22, 11, tzinfo=UTC))
        return {n: v for n, v in snap.series.items() if n.startswith("ibmmq_qmgr_")}

    via_sim = series("sim")
    assert via_sim == series("ibmmq")
    assert {n for n, v in via_sim.items() if v} >= {
        "ibmmq_qmgr_status", "ibmmq_qmgr_uptime", "ibmmq_qmgr_connection_count",
        "ibmmq_qmgr_command_server_status", "ibmmq_qmgr_channel_initiator_status"}


@pytest.mark.parametrize("over", ["sim", "ibmmq", "rest"])
def test_active_listeners_count_running_listeners(over):
    net = parse_mqsc(DEMO)
    parse_mqsc("DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)\n"
               "DEFINE LISTENER(L2) TRPTYPE(TCP) PORT(1415) CONTROL(QMGR)\n"
               "DEFINE LISTENER(L3) TRPTYPE(TCP) PORT(1416) CONTROL(MANUAL)\n",
               qmgr="QM1", network=net)
    sim = Simulator(net)
    attach(sim)
    snap = status_snapshot(collect(admins(sim, over), ["QM1", "QM2"]),
                           now=datetime(2026, 11, 22, 11, tzinfo=UTC))
    assert snap.get("ibmmq_qmgr_active_listeners", qmgr="QM1", platform="UNIX") == 2
    assert snap.get("ibmmq_qmgr_active_listeners", qmgr="QM2", platform="UNIX") == 0
