"""Real-time monitoring as IBM MQ's "Monitoring and performance" (seed 002) defines it, value
by value: which level is in force (MONQ/MONCHL/MONACLS, QMGR inheritance, NONE), what is
blank while monitoring is off, what QTIME/XQTIME/NETTIME/MSGAGE measure, and the short- and
long-term indicators (more recent measurements weigh more in the first)."""

from __future__ import annotations

import pytest

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.sim.cmdserver import attach, channel_level, queue_level
from traceroute.sim.cmdserver.monitor import LONG_WEIGHT, SHORT_WEIGHT
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator
from traceroute.status import commands as cmd
from traceroute.status import responses as resp

NET = """\
* Queue manager name: QM1
DEFINE QLOCAL(Q1)
DEFINE QLOCAL(Q2)
DEFINE QREMOTE(TO.QM2) RNAME(TARGET) RQMNAME(QM2) XMITQ(QM2)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2') XMITQ(QM2)
DEFINE QLOCAL(QMX) USAGE(XMITQ)
DEFINE CHANNEL(OTHER) CHLTYPE(SDR) CONNAME('x') XMITQ(QMX)
* Queue manager name: QM2
DEFINE QLOCAL(TARGET)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)
"""
OFF, LOW, MEDIUM, HIGH = mqc.MQMON_OFF, mqc.MQMON_LOW, mqc.MQMON_MEDIUM, mqc.MQMON_HIGH


def estate(extra: str = "", latency: float = 0.05):
    sim = Simulator(parse_mqsc(NET + "* Queue manager name: QM1\n" + extra), seed=1,
                    latency=latency)
    return sim, attach(sim)


def levels(sim) -> tuple[int, int, int, int]:
    qm = sim.network.qmgrs["QM1"]
    return (queue_level(qm, qm.queues["Q1"]), queue_level(qm, qm.queues["Q2"]),
            channel_level(qm, "QM1.TO.QM2"), channel_level(qm, "OTHER"))


@pytest.mark.parametrize("mqsc, expected", [
    # example 1: the queue manager's MEDIUM, taken by the objects set to QMGR
    ("ALTER QMGR MONQ(MEDIUM) MONCHL(MEDIUM)\nALTER QL(Q1) MONQ(QMGR)\n"
     "ALTER CHL(QM1.TO.QM2) CHLTYPE(SDR) MONCHL(QMGR)", (MEDIUM, MEDIUM, MEDIUM, MEDIUM)),
    # example 2: all but Q1 and QM1.TO.QM2
    ("ALTER QMGR MONQ(MEDIUM) MONCHL(MEDIUM)\nALTER QL(Q1) MONQ(OFF)\n"
     "ALTER CHL(QM1.TO.QM2) CHLTYPE(SDR) MONCHL(OFF)", (OFF, MEDIUM, OFF, MEDIUM)),
    # example 3: none but Q1 and QM1.TO.QM2 (their own level wins over the qmgr's OFF)
    ("ALTER QMGR MONQ(OFF) MONCHL(OFF)\nALTER QL(Q1) MONQ(MEDIUM)\n"
     "ALTER CHL(QM1.TO.QM2) CHLTYPE(SDR) MONCHL(MEDIUM)", (MEDIUM, OFF, MEDIUM, OFF)),
    # example 4: NONE switches everything off whatever the objects say
    ("ALTER QMGR MONQ(NONE) MONCHL(NONE)\nALTER QL(Q1) MONQ(HIGH)\n"
     "ALTER CHL(QM1.TO.QM2) CHLTYPE(SDR) MONCHL(HIGH)", (OFF, OFF, OFF, OFF)),
    # the defaults: objects QMGR, queue manager OFF
    ("", (OFF, OFF, OFF, OFF)),
    ("ALTER QMGR MONQ(HIGH) MONCHL(LOW)", (HIGH, HIGH, LOW, LOW)),
])
def test_the_level_in_force_follows_the_seeds_examples(mqsc, expected):
    sim, _ = estate(mqsc)
    assert levels(sim) == expected


@pytest.mark.parametrize("mqsc, expected", [
    ("ALTER QMGR MONACLS(MEDIUM)", MEDIUM),                   # example 5
    ("ALTER QMGR MONACLS(QMGR) MONCHL(HIGH)", HIGH),           # example 6
    ("ALTER QMGR MONCHL(HIGH)", HIGH),                         # MONACLS defaults to QMGR
    ("ALTER QMGR MONACLS(OFF) MONCHL(HIGH)", OFF),
    ("ALTER QMGR MONACLS(QMGR) MONCHL(NONE)", OFF),
])
def test_automatically_defined_cluster_senders_follow_monacls(mqsc, expected):
    sim, _ = estate(mqsc)
    qm = sim.network.qmgrs["QM1"]
    assert channel_level(qm, "TO.SOMEWHERE.AUTO") == expected  # not defined here: auto


def status(server, qmgr, queue):
    [m] = server.execute(qmgr, cmd.inquire_queue_status(queue))
    return m, resp.queue_status_from(m, qmgr)


def test_while_monitoring_is_off_the_monitoring_fields_are_blank():
    sim, server = estate()
    sim.put("QM1", "Q1", MQMD(), b"x")
    sim.now += 5
    sim.get("QM1", "Q1")
    m, s = status(server, "QM1", "Q1")
    assert s.monq == "OFF" and s.msgage is None and s.qtime is None
    assert s.last_put is None and s.last_get is None
    assert m.get(mqc.MQIACF_OLDEST_MSG_AGE) == mqc.MQMON_NOT_AVAILABLE
    assert m.get(mqc.MQIACF_Q_TIME_INDICATOR) == [mqc.MQMON_NOT_AVAILABLE] * 2
    assert m.get(mqc.MQCACF_LAST_PUT_DATE).strip() == ""
    assert s.curdepth == 0  # not a monitoring field: always there


def test_qtime_is_put_to_destructive_get_and_the_indicators_weigh_recent_more():
    sim, server = estate("ALTER QL(Q1) MONQ(HIGH)")
    waits = [2.0, 2.0, 2.0, 10.0, 10.0]
    for w in waits:
        sim.put("QM1", "Q1", MQMD(), b"x")
        sim.now += w
        sim.get("QM1", "Q1")
    # the seed's rule computed independently: the first measurement is both; then the
    # short-term indicator moves by SHORT_WEIGHT of the change, the long-term by LONG_WEIGHT
    short = long = waits[0] * 1e6
    for w in waits[1:]:
        short += (w * 1e6 - short) * SHORT_WEIGHT
        long += (w * 1e6 - long) * LONG_WEIGHT
    _, s = status(server, "QM1", "Q1")
    assert s.qtime == (round(short), round(long))
    assert s.qtime[0] > s.qtime[1]  # the recent, longer waits weigh more in the short term
    assert SHORT_WEIGHT > LONG_WEIGHT


def test_constant_measurements_give_equal_indicators():
    sim, server = estate("ALTER QMGR MONQ(LOW)")
    for _ in range(20):
        sim.put("QM1", "Q1", MQMD(), b"x")
        sim.now += 3
        sim.get("QM1", "Q1")
    _, s = status(server, "QM1", "Q1")
    assert s.qtime == (3_000_000, 3_000_000) and s.monq == "LOW"


def test_msgage_last_put_and_get_as_the_seeds_example_shows_them():
    sim, server = estate("ALTER QMGR MONQ(MEDIUM)")
    sim.put("QM1", "Q1", MQMD(), b"old")
    sim.now += 30
    sim.put("QM1", "Q1", MQMD(), b"new")
    sim.now += 7
    _, s = status(server, "QM1", "Q1")
    assert s.monq == "MEDIUM" and s.msgage == 37 and s.curdepth == 2
    assert s.last_put is not None and s.last_get is None and s.qtime is None
    sim.get("QM1", "Q1")
    sim.get("QM1", "Q1")
    _, s = status(server, "QM1", "Q1")
    assert s.msgage == 0  # empty: 0, not blank
    assert s.last_get is not None and s.last_get > s.last_put
    # the two waits, 37 s then 7 s: the first sets both indicators, the second moves them
    assert s.qtime == (round(37e6 + (7e6 - 37e6) * SHORT_WEIGHT),
                       round(37e6 + (7e6 - 37e6) * LONG_WEIGHT))


def test_switching_monitoring_off_forgets_what_it_measured():
    sim, server = estate("ALTER QMGR MONQ(HIGH)")
    sim.put("QM1", "Q1", MQMD(), b"x")
    sim.now += 4
    sim.get("QM1", "Q1")
    assert status(server, "QM1", "Q1")[1].qtime == (4_000_000, 4_000_000)
    sim.network.qmgrs["QM1"].attrs["MONQ"] = "OFF"
    server.monitor.refresh()
    sim.network.qmgrs["QM1"].attrs["MONQ"] = "HIGH"
    _, s = status(server, "QM1", "Q1")
    assert s.qtime is None and s.last_get is None  # "since monitoring was enabled"


def channel(server, qmgr, name):
    found = server.execute(qmgr, cmd.inquire_channel_status(name))
    return resp.channel_status_from(found[0], qmgr), found[0]


def test_xqtime_nettime_and_the_sampling_of_each_level():
    def run(level: str, messages: int):
        sim, server = estate(f"ALTER QMGR MONCHL({level})", latency=0.25)
        sim.stop_channel("QM1", "QM1.TO.QM2")
        for _ in range(messages):
            sim.put("QM1", "TO.QM2", MQMD(), b"x")
            sim.now += 1
        sim.start_channel("QM1", "QM1.TO.QM2")
        sim.run()
        return sim, server

    _, server = run("HIGH", 3)
    c, m = channel(server, "QM1", "QM1.TO.QM2")
    assert c.status == "RUNNING" and c.monchl == "HIGH" and c.msgs == 3 and c.batches == 1
    # every message measured: waited 3, 2, 1 s on the transmission queue (the channel got
    # them all when started, at t=3: the drains pending since the puts run then)
    short = long = 3e6
    for w in (2e6, 1e6):
        short += (w - short) * SHORT_WEIGHT
        long += (w - long) * LONG_WEIGHT
    assert c.xqtime == (round(short), round(long))
    assert c.nettime == (500_000, 500_000)  # two hops of 0.25 s: the end-of-batch round trip
    assert c.xbatchsz == (3, 3) and c.exittime == (0, 0)
    assert m.get(mqc.MQIACH_XMITQ_TIME_INDICATOR) == list(c.xqtime)
    # MEDIUM: one message in ten, the first of them
    _, server = run("MEDIUM", 3)
    assert channel(server, "QM1", "QM1.TO.QM2")[0].xqtime == (3_000_000, 3_000_000)
    # OFF: blank, though the channel runs and counts
    _sim, server = run("OFF", 3)
    c, m = channel(server, "QM1", "QM1.TO.QM2")
    assert c.msgs == 3 and c.xqtime is None and c.nettime is None and c.monchl == "OFF"
    assert m.get(mqc.MQIACH_NETWORK_TIME_INDICATOR) == [mqc.MQMON_NOT_AVAILABLE] * 2


def test_the_receiving_end_has_no_transmission_queue_indicators():
    sim, server = estate("ALTER QMGR MONCHL(HIGH)")
    sim.network.qmgrs["QM2"].attrs["MONCHL"] = "HIGH"
    sim.put("QM1", "TO.QM2", MQMD(), b"x")
    sim.run()
    c, _ = channel(server, "QM2", "QM1.TO.QM2")
    assert c.chltype == "RCVR" and c.status == "RUNNING" and c.substate == "RECEIVE"
    assert c.msgs == 1 and c.xqtime is None and c.nettime is None


def test_channel_status_through_its_life():
    sim, server = estate()
    assert server.execute("QM1", cmd.inquire_channel_status("QM1.TO.QM2"))[0].header.reason \
        == mqc.MQRCCF_CHL_STATUS_NOT_FOUND  # never ran: no status
    sim.put("QM1", "TO.QM2", MQMD(), b"x")
    sim.run()
    c, _ = channel(server, "QM1", "QM1.TO.QM2")
    assert (c.status, c.substate, c.rqmname) == ("RUNNING", "MQGET", "QM2")
    sim.stop_channel("QM1", "QM1.TO.QM2")
    assert channel(server, "QM1", "QM1.TO.QM2")[0].status == "STOPPED"
    # the receiving end ended with its sender
    assert server.execute("QM2", cmd.inquire_channel_status("*"))[0].header.reason == \
        mqc.MQRCCF_CHL_STATUS_NOT_FOUND
    sim.start_channel("QM1", "QM1.TO.QM2")
    assert channel(server, "QM1", "QM1.TO.QM2")[0].status == "RUNNING"
    sim.now += 6001  # DISCINT(6000): the channel ends normally
    assert server.execute("QM1", cmd.inquire_channel_status("QM1.TO.QM2"))[0].header.reason \
        == mqc.MQRCCF_CHL_STATUS_NOT_FOUND
    saved = resp.channel_status_from(server.execute(
        "QM1", cmd.inquire_channel_status("QM1.TO.QM2", saved=True))[0], "QM1")
    assert saved.instance == "SAVED" and saved.lstseqno == 1


def test_a_channel_whose_partner_is_stopped_retries_and_holds_its_messages():
    sim, server = estate()
    sim.stop_channel("QM2", "QM1.TO.QM2")  # the receiving end
    sim.put("QM1", "TO.QM2", MQMD(), b"x")
    sim.run()
    assert channel(server, "QM1", "QM1.TO.QM2")[0].status == "RETRYING"
    assert sim.depth("QM1", "QM2") == 1
    sim.start_channel("QM2", "QM1.TO.QM2")
    sim.run()
    assert sim.depth("QM1", "QM2") == 0 and sim.depth("QM2", "TARGET") == 1
    assert channel(server, "QM1", "QM1.TO.QM2")[0].status == "RUNNING"


def test_the_running_channel_has_its_transmission_queue_open_for_input():
    sim, server = estate()
    sim.put("QM1", "TO.QM2", MQMD(), b"x")
    sim.run()
    _, s = status(server, "QM1", "QM2")
    assert s.ipprocs == 1
    handles = [resp.handle_status_from(m, "QM1") for m in
               server.execute("QM1", cmd.inquire_queue_status("QM2", handles=True))]
    assert [(h.appl_tag, h.channel, h.input) for h in handles] == [
        ("runmqchl", "QM1.TO.QM2", "EXCL")]
    sim.stop_channel("QM1", "QM1.TO.QM2")
    assert status(server, "QM1", "QM2")[1].ipprocs == 0


def test_a_message_backed_out_for_want_of_a_dead_letter_queue_makes_its_channel_retry():
    sim, server = estate()
    sim.network.qmgrs["QM2"].queues["TARGET"].attrs["PUT"] = "DISABLED"  # QM2 has no DLQ
    sim.put("QM1", "TO.QM2", MQMD(persistence=mqc.MQPER_PERSISTENT), b"x")
    sim.run(until=sim.now + 30)  # past the MCA's message retries (MRRTY 10 x MRTMR 1 s)
    c, _ = channel(server, "QM1", "QM1.TO.QM2")
    assert c.status == "RETRYING" and sim.depth("QM1", "QM2") == 1


def test_cluster_queue_managers_as_display_clusqmgr_shows_them():
    from traceroute.sim.netgen import generate

    sim = Simulator(generate("cluster", 4, seed=2).network, seed=2)
    server = attach(sim)
    found = [resp.cluster_qmgr_from(m, "QM0001") for m in
             server.execute("QM0001", cmd.inquire_cluster_qmgr("*"))]
    assert {c.name for c in found} == {"QM0000", "QM0001", "QM0002", "QM0003"}
    own = [c for c in found if c.name == "QM0001"]
    assert own[0].deftype == "CLUSRCVR"
    assert {c.qmtype for c in found} == {"REPOS", "NORMAL"}
    assert all(c.cluster == "CL01" for c in found)
