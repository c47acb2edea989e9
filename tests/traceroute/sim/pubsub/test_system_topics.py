"""Application activity trace published on the `$SYS/MQ/INFO/QMGR/<qmgr>/ActivityTrace/...`
system topics (activity-trace.md §2.3, seed 002 "Subscriptions to application activity
trace" and "System topics for monitoring and activity trace"): what a subscription selects
(ApplName, ChannelName, ConnectionId; topic and character wildcards), that it switches
tracing on whenever it is made and stops it when it goes, that an explicit Trace=OFF
blocks it, the `$SYS/MQ` branch's isolation (wildcards above it select nothing in it, no
wildcard in its fixed levels: MQRC_ADMIN_TOPIC_STRING_ERROR, never proxied to other queue
managers) and that `follow` stitches journeys from the subscriptions' queues.
"""

from __future__ import annotations

import pytest

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.journeys import JourneyVerdict, parse_activity_trace, reconstruct
from traceroute.sim.activity_trace import TRACE_QUEUE, ActivityTracer, resource_topics
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

TWO = """\
* Queue manager name: QM1
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE QREMOTE(TO.QM2) RNAME(IN) RQMNAME(QM2) XMITQ(QM2)
DEFINE CHANNEL(QM1.QM2) CHLTYPE(SDR) XMITQ(QM2) CONNAME('qm2(1414)')
DEFINE QLOCAL(LOCAL.Q)
DEFINE QLOCAL(TRACE.COPY)
DEFINE QLOCAL(CHANNELS.COPY)
* Queue manager name: QM2
DEFINE CHANNEL(QM1.QM2) CHLTYPE(RCVR)
DEFINE QLOCAL(IN)
DEFINE QLOCAL(TRACE.COPY)
"""
AT = "$SYS/MQ/INFO/QMGR/{}/ActivityTrace"


def _sim(text: str = TWO, **kw) -> tuple[Simulator, ActivityTracer]:
    sim = Simulator(parse_mqsc(text), seed=7)
    return sim, ActivityTracer(sim, **kw)


def _sub(sim: Simulator, qmgr: str, topic: str, dest: str = "TRACE.COPY", **kw):
    kw.setdefault("correl_id", bytes(24))  # MQCI_NONE: each message keeps its ConnectionId
    done = sim.subscribe(qmgr, topic, destination=dest, durable=True,
                         name=kw.pop("name", f"W.{len(sim.pubsub.api)}"), appl_name="watcher",
                         **kw)
    assert done.ok, done.reason
    return done


def _traces(sim: Simulator, qmgr: str, queue: str = "TRACE.COPY"):
    return [parse_activity_trace(md, data) for md, data in sim.browse(qmgr, queue)]


def _appls(sim: Simulator, qmgr: str, queue: str = "TRACE.COPY") -> list[str]:
    return [t.calls[0].conn.appl_name.strip() for t in _traces(sim, qmgr, queue)]


def _conn_ids(sim: Simulator, qmgr: str, queue: str = "TRACE.COPY") -> set[bytes]:
    return {md.correl_id for md, _ in sim.browse(qmgr, queue)}


def test_resource_topics_are_as_the_seed_writes_them():
    sim, _ = _sim()
    conn = sim.connection("QM1", "C:\\apps\\amqsput.exe")
    topics = resource_topics(conn)
    assert topics[0] == "$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ApplName/amqsput.exe"
    assert topics[-1] == f"$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ConnectionId/" \
                         f"{conn.conn_id.hex().upper()}"
    assert len(topics[-1].rsplit("/", 1)[1]) == 48


def test_an_appl_name_subscription_gets_that_applications_trace_only():
    sim, tracer = _sim()
    done = _sub(sim, "QM1", AT.format("QM1") + "/ApplName/amqsput", correl_id=None)
    sim.put("QM1", "LOCAL.Q", MQMD(), b"one", appl_name="amqsput")
    sim.put("QM1", "LOCAL.Q", MQMD(), b"two", appl_name="other")
    sim.disconnect_all()
    sim.run()
    assert _appls(sim, "QM1") == ["amqsput"]
    assert sim.browse("QM1", TRACE_QUEUE) == []  # ACTVTRC(OFF): the queue stays empty
    md, data = sim.browse("QM1", "TRACE.COPY")[0]
    # the subscription's generated CorrelId (no MQSO_SET_CORREL_ID)
    assert md.correl_id == done.subscription.correl_id and md.format == "MQADMIN"
    assert [c.op_name for c in parse_activity_trace(md, data).calls] == \
        ["MQCONN", "MQPUT1", "MQDISC"]
    assert tracer.published[0][3] == 1


def test_character_wildcards_and_topic_wildcards_select_many():
    sim, _ = _sim()
    _sub(sim, "QM1", AT.format("QM1") + "/ApplName/amqs*", scheme="CHAR")
    _sub(sim, "QM1", AT.format("QM1") + "/ApplName/#", dest="CHANNELS.COPY")
    for appl in ("amqsput", "amqsget", "payroll"):
        sim.put("QM1", "LOCAL.Q", MQMD(), b"x", appl_name=appl)
    sim.disconnect_all()
    sim.run()
    assert sorted(_appls(sim, "QM1")) == ["amqsget", "amqsput"]
    # ApplName/# is every application: the subscriber's own MQSUB/MQDISC too
    assert sorted(_appls(sim, "QM1", "CHANNELS.COPY")) == ["amqsget", "amqsput", "payroll",
                                                          "watcher"]


def test_a_channel_subscription_traces_the_mca_and_a_connection_id_one_connection():
    sim, _ = _sim()
    _sub(sim, "QM1", AT.format("QM1") + "/ChannelName/#", dest="CHANNELS.COPY")
    _sub(sim, "QM2", AT.format("QM2") + "/ChannelName/QM1.QM2")
    sim.put("QM1", "TO.QM2", MQMD(), b"over", appl_name="sender")
    sim.run()
    sim.disconnect_all()
    sim.run()
    sending = _traces(sim, "QM1", "CHANNELS.COPY")
    receiving = _traces(sim, "QM2")
    assert sending and all(t.calls[0].conn.is_mca for t in sending)
    assert receiving and all(t.calls[0].conn.is_mca for t in receiving)
    # one connection by its identifier
    sim2, _ = _sim()
    conn = sim2.connection("QM1", "payroll")
    _sub(sim2, "QM1", AT.format("QM1") + f"/ConnectionId/{conn.conn_id.hex().upper()}")
    sim2.put("QM1", "LOCAL.Q", MQMD(), b"a", appl_name="payroll")
    sim2.put("QM1", "LOCAL.Q", MQMD(), b"b", appl_name="other")
    sim2.disconnect_all()
    sim2.run()
    assert _conn_ids(sim2, "QM1") == {conn.conn_id}  # MQCI_NONE: its ConnectionId


def test_follow_stitches_the_journey_from_the_subscriptions_queues():
    sim, _ = _sim()
    _sub(sim, "QM1", AT.format("QM1") + "/ApplName/#")
    _sub(sim, "QM1", AT.format("QM1") + "/ChannelName/#", dest="CHANNELS.COPY")
    _sub(sim, "QM2", AT.format("QM2") + "/ChannelName/#")
    _sub(sim, "QM2", AT.format("QM2") + "/ApplName/reader", name="R")
    put = sim.put("QM1", "TO.QM2", MQMD(), b"over", appl_name="sender")
    sim.run()
    assert sim.get("QM2", "IN", appl_name="reader") is not None
    sim.disconnect_all()
    sim.run()
    traces = [*_traces(sim, "QM1"), *_traces(sim, "QM1", "CHANNELS.COPY"), *_traces(sim, "QM2")]
    journeys = {j.msg_id: j for j in reconstruct(traces).journeys}
    j = journeys[put.msg_id]
    assert j.verdict is JourneyVerdict.CONSUMED
    assert [s.role for s in j.steps] == ["put", "mca_get", "mca_put", "get"]


def test_a_subscription_switches_tracing_on_when_made_and_off_when_gone():
    sim, _ = _sim()
    conn = sim.connection("QM1", "longrunner")  # connected before anyone subscribed
    sim.put("QM1", "LOCAL.Q", MQMD(), b"before", appl_name="longrunner")
    done = _sub(sim, "QM1", AT.format("QM1") + "/ApplName/longrunner")
    sim.put("QM1", "LOCAL.Q", MQMD(), b"during", appl_name="longrunner")
    sim.run(until=sim.now + 2)
    sim.put("QM1", "LOCAL.Q", MQMD(), b"written", appl_name="longrunner")  # interval: write
    assert len(sim.browse("QM1", "TRACE.COPY")) == 1
    assert sim.unsubscribe("QM1", done.subscription.sub_id)
    sim.put("QM1", "LOCAL.Q", MQMD(), b"after", appl_name="longrunner")
    sim.disconnect_all()
    sim.run()
    assert len(sim.browse("QM1", "TRACE.COPY")) == 1  # nothing once the subscription went
    puts = [c for c in _traces(sim, "QM1")[0].calls if c.is_put]
    assert puts and conn.conn_id == puts[0].conn.conn_id


def test_explicit_trace_off_blocks_the_subscription_and_actvtrc_on_writes_both():
    ini = "ApplicationTrace:\n  ApplName=secret*\n  Trace=OFF\n"
    sim, _ = _sim(TWO.replace("* Queue manager name: QM1\n",
                              "* Queue manager name: QM1\nALTER QMGR ACTVTRC(ON)\n"),
                  mqat={"QM1": ini})
    _sub(sim, "QM1", AT.format("QM1") + "/ApplName/#")
    sim.put("QM1", "LOCAL.Q", MQMD(), b"x", appl_name="secretapp")
    sim.put("QM1", "LOCAL.Q", MQMD(), b"y", appl_name="open")
    sim.disconnect_all()
    sim.run()
    assert sorted(_appls(sim, "QM1")) == ["open", "watcher"]
    queued = [parse_activity_trace(md, d).calls[0].conn.appl_name.strip()
              for md, d in sim.browse("QM1", TRACE_QUEUE)]
    assert "open" in queued and "secretapp" not in queued


@pytest.mark.parametrize("topic, scheme", [
    ("$SYS/MQ/#", "TOPIC"),
    ("$SYS/MQ/INFO/QMGR/+/ActivityTrace/ApplName/amqsput", "TOPIC"),
    ("$SYS/MQ/INFO/QMGR/QM1/#", "TOPIC"),
    ("$SYS/MQ/INFO/QMGR/QM*", "CHAR"),
    ("$SYS/MQ/INFO/QMGR/QM1/Activity*", "CHAR"),
])
def test_wildcards_in_the_fixed_levels_are_refused(topic, scheme):
    sim, _ = _sim()
    done = sim.subscribe("QM1", topic, destination="TRACE.COPY", scheme=scheme)
    assert done.reason == mqc.MQRC_ADMIN_TOPIC_STRING_ERROR


def test_wildcards_above_the_system_branch_get_nothing_and_it_is_never_proxied():
    text = TWO + """\
* Queue manager name: QM2
ALTER QMGR PARENT(QM1)
"""
    sim, _ = _sim(text)
    _sub(sim, "QM1", "#", dest="CHANNELS.COPY")          # everything but $SYS/MQ
    _sub(sim, "QM1", "*", dest="CHANNELS.COPY", scheme="CHAR")
    _sub(sim, "QM2", "$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ApplName/#")
    sim.put("QM1", "LOCAL.Q", MQMD(), b"x", appl_name="app")
    sim.disconnect_all()
    sim.run()
    assert sim.browse("QM1", "CHANNELS.COPY") == []
    assert sim.browse("QM2", "TRACE.COPY") == []  # QM2's subscription stays on QM2
    assert not any(s.proxy and s.topic.startswith("$SYS")
                   for q in ("QM1", "QM2") for s in sim.pubsub.of(sim.network, q))


def test_an_estate_folder_keeps_the_subscription_and_publishes_each_commands_trace(tmp_path):
    """What `follow --subscribe` builds on: a durable subscription made in one command
    gets the trace of the applications of the next (the estate's own tracer, its default
    mqat.ini leaving mqroute itself untraced)."""
    from traceroute.sim.estate import Estate

    folder = tmp_path / "estate"
    Estate.create(folder, parse_mqsc(TWO))
    with Estate.open(folder) as e:
        done = e.sim.subscribe("QM1", AT.format("QM1") + "/ApplName/#", durable=True,
                               name="FOLLOW", destination="TRACE.COPY", correl_id=bytes(24),
                               appl_name="mqroute")
        assert done.ok
    with Estate.open(folder) as e:
        e.sim.put("QM1", "LOCAL.Q", MQMD(), b"x", appl_name="payroll")
    with Estate.open(folder) as e:
        assert _appls(e.sim, "QM1") == ["payroll"]
        assert e.sim.unsubscribe("QM1", done.subscription.sub_id)
    with Estate.open(folder) as e:
        e.sim.put("QM1", "LOCAL.Q", MQMD(), b"y", appl_name="payroll")
    with Estate.open(folder) as e:
        assert len(e.sim.browse("QM1", "TRACE.COPY")) == 1


@pytest.mark.parametrize("topic", ["$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ApplName/fake",
                                   "$SYS/MQ"])
def test_applications_cannot_publish_on_the_system_branch(topic):
    """IBM, MQRC_ADMIN_TOPIC_STRING_ERROR: "Publishing to an IBM MQ administrative topic
    string, starting $SYS/MQ/ is not permitted" (MQOPEN / MQPUT1)."""
    sim, _ = _sim()
    _sub(sim, "QM1", AT.format("QM1") + "/ApplName/#")
    assert sim.publish("QM1", topic, MQMD(), b"x").reason == mqc.MQRC_ADMIN_TOPIC_STRING_ERROR
    assert sim.open_topic("QM1", topic).reason == mqc.MQRC_ADMIN_TOPIC_STRING_ERROR
    assert sim.publish("QM1", "$SYSTEM/other", MQMD(), b"x").ok  # only $SYS/MQ is kept
