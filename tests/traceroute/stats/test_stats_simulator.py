"""The simulator's accounting and statistics agree with its own routes."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from itertools import pairwise

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.records.parse import parse_message
from traceroute.routes.ordering import build_routes
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import ACTIVITY_QUEUE, Simulator
from traceroute.sim.statistics import (
    ACCOUNTING_QUEUE,
    STATISTICS_QUEUE,
    StatisticsCollector,
    channel_level,
    effective,
)
from traceroute.stats import decode_stats, join_sequences

EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
SETTINGS = """
* Queue manager name: QM1
ALTER QMGR ACTIVREC(QUEUE) STATQ(ON) STATCHL(MEDIUM) STATMQI(ON) ACCTMQI(ON) ACCTQ(ON) +
      STATINT(60) ACCTINT(100000)
DEFINE QLOCAL('LOCAL.Q') REPLACE
DEFINE QALIAS('ALIAS.Q') TARGET('LOCAL.Q') REPLACE
DEFINE QLOCAL('NOSTAT.Q') STATQ(OFF) ACCTQ(OFF) REPLACE
* Queue manager name: QM2
ALTER QMGR ACTIVREC(QUEUE) STATQ(ON) STATCHL(OFF) ACCTQ(ON) STATINT(60)
ALTER CHANNEL('QM1.TO.QM2') CHLTYPE(RCVR) STATCHL(HIGH)
"""


def records_of(written):
    joined = list(join_sequences(decode_stats(w.md, w.data, source=w.qmgr) for w in written))
    assert all(j.complete for j in joined)
    return [r for j in joined for r in j.records()]


def run_day():
    sim = Simulator(parse_mqsc(EXAMPLE + SETTINGS))
    collector = StatisticsCollector(sim)
    for i in range(10):
        md = MQMD(format="MQSTR", report=mqc.MQRO_ACTIVITY, persistence=i % 2)
        assert sim.put("QM1", "TARG.AT.QM2", md, b"x" * (100 + i)).ok
        sim.run(until=sim.now + 25)
    handle = sim.open("QM1", "ALIAS.Q", appl_name="producer")
    for _ in range(5):
        assert handle.put(MQMD(format="MQSTR", report=mqc.MQRO_ACTIVITY), b"y" * 50).ok
    for _ in range(3):
        assert sim.put("QM1", "NOSTAT.Q", MQMD(format="MQSTR", report=mqc.MQRO_ACTIVITY),
                       b"z").ok
    sim.run()
    for _ in range(7):
        assert sim.get("QM2", "TARGET.Q", appl_name="consumer") is not None
    for _ in range(5):
        assert sim.get("QM1", "LOCAL.Q", appl_name="consumer") is not None
    assert sim.get("QM1", "LOCAL.Q", appl_name="consumer") is None   # a failed get
    sim.run(until=sim.now + 10)
    return sim, collector.finish()


def route_counts(sim):
    puts, gets, sends, receives = Counter(), Counter(), Counter(), Counter()
    data = [m for qm in ("QM1", "QM2") for m in sim.browse(qm, ACTIVITY_QUEUE)]
    for route in build_routes(parse_message(md, d) for md, d in data):
        for activity in route.activities:
            for op in activity.operations:
                if op.type == mqc.MQOPER_PUT:
                    puts[(op.qmgr, op.resolved_queue)] += 1
                elif op.type == mqc.MQOPER_GET:
                    gets[(op.qmgr, op.queue)] += 1
                elif op.type == mqc.MQOPER_SEND:
                    sends[(op.qmgr, op.channel)] += 1
                elif op.type == mqc.MQOPER_RECEIVE:
                    receives[(op.qmgr, op.channel)] += 1
    return puts, gets, sends, receives


def test_statistics_agree_with_the_routes():
    sim, written = run_day()
    recs = records_of(written)
    puts, gets, sends, receives = route_counts(sim)
    assert sum(puts.values()) == 10 + 10 + 5 + 3    # app puts, MCA puts at QM2, alias, nostat
    q_puts, q_gets, msgs = Counter(), Counter(), Counter()
    for r in recs:
        if r.kind.value == "QueueStatistics":
            q_puts[(r.queue_manager, r.q_name)] += sum(r.put_count) + sum(r.put1_count)
            q_gets[(r.queue_manager, r.q_name)] += sum(r.get_count)
        elif r.kind.value == "ChannelStatistics":
            msgs[(r.queue_manager, r.channel_name, r.channel_type)] += r.msg_count
    for key, n in puts.items():
        if key != ("QM1", "NOSTAT.Q"):
            assert q_puts[key] == n, key
    assert ("QM1", "NOSTAT.Q") not in q_puts           # STATQ(OFF) on the queue
    assert ("QM1", "ALIAS.Q") not in q_puts and q_puts[("QM1", "LOCAL.Q")] == 5  # base queue
    for key, n in gets.items():                         # the sending MCA's gets from xmitqs
        assert q_gets[key] == n, key
    assert q_gets[("QM2", "TARGET.Q")] == 7 and q_gets[("QM1", "LOCAL.Q")] == 5
    assert msgs == {("QM1", "QM1.TO.QM2", mqc.MQCHT_SENDER): sends[("QM1", "QM1.TO.QM2")],
                    ("QM2", "QM1.TO.QM2", mqc.MQCHT_RECEIVER):
                        receives[("QM2", "QM1.TO.QM2")]}
    assert sends[("QM1", "QM1.TO.QM2")] == 10


def test_intervals_follow_statint_and_mqi_and_accounting():
    sim, written = run_day()
    recs = records_of(written)
    assert {w.queue for w in written} == {STATISTICS_QUEUE, ACCOUNTING_QUEUE}
    mqi = [r for r in recs if r.kind.value == "MQIStatistics"]
    assert {r.queue_manager for r in mqi} == {"QM1"}           # STATMQI only on QM1
    starts = [(r.interval_start, r.interval_end) for r in mqi]
    assert all(a[1] == b[0] for a, b in pairwise(starts))  # contiguous intervals
    assert sum(r.get_fail_count for r in mqi) == 1
    acct = [r for r in recs if r.kind.value == "MQIAccounting"]
    by_app = {r.application_name: r for r in acct}
    assert sum(by_app["amqsput"].put1_count) == 13 and sum(by_app["producer"].put_count) == 5
    assert by_app["consumer"].disc_type == mqc.MQDISCONNECT_NORMAL
    qacct = [r for r in recs if r.kind.value == "QueueAccounting"]
    consumer = {r.q_name: r for r in qacct if r.application_name == "consumer"}
    assert sum(consumer["TARGET.Q"].get_count) == 7             # QM2: ACCTQ(ON)
    assert "NOSTAT.Q" not in {r.q_name for r in qacct}
    assert all(len(r.connection_id) == 24 for r in qacct)
    assert sim.depth("QM1", STATISTICS_QUEUE) == sum(
        1 for w in written if w.qmgr == "QM1" and w.queue == STATISTICS_QUEUE)


def test_more_than_100_queues_split_into_a_sequence():
    names = [f"Q.{i:03d}" for i in range(150)]
    mqsc = "ALTER QMGR STATQ(ON)\n" + "".join(f"DEFINE QLOCAL('{q}')\n" for q in names)
    sim = Simulator(parse_mqsc(mqsc, qmgr="QM9"))
    collector = StatisticsCollector(sim)
    for q in names:
        assert sim.put("QM9", q, MQMD(format="MQSTR"), b"m").ok
    written = collector.finish()
    heads = [decode_stats(w.md, w.data).header for w in written]
    assert [(h.msg_seq_number, h.control) for h in heads] == [(1, 0), (2, 1)]
    recs = records_of(written)
    assert [r.q_name for r in recs] == names
    assert [r.object_count for r in recs][::100] == [100, 50]


def test_setting_precedence():
    assert effective("ON", "QMGR") == "ON" and effective("OFF", "ON") == "ON"
    assert effective("NONE", "ON") == "OFF" and effective("ON", "OFF") == "OFF"
    assert effective("", "") == "OFF"
    net = parse_mqsc("ALTER QMGR STATCHL(LOW) STATACLS(HIGH)\n"
                     "DEFINE CHANNEL(A) CHLTYPE(SDR) CONNAME('x') XMITQ(X) STATCHL(QMGR)\n"
                     "DEFINE CHANNEL(B) CHLTYPE(SDR) CONNAME('x') XMITQ(X) STATCHL(OFF)\n",
                     qmgr="QM")
    qm = net.qmgrs["QM"]
    assert channel_level(qm, "A") == "LOW" and channel_level(qm, "B") == "OFF"
    assert channel_level(qm, "AUTO", auto_cluster_sender=True) == "HIGH"
    qm.attrs["STATACLS"] = "QMGR"
    assert channel_level(qm, "AUTO", auto_cluster_sender=True) == "LOW"
    qm.attrs["STATCHL"] = "NONE"
    assert channel_level(qm, "AUTO", auto_cluster_sender=True) == "OFF"
    assert channel_level(qm, "A") == "OFF"


def test_accounting_at_disconnect_and_intermediate_records_after_acctint():
    sim = Simulator(parse_mqsc("ALTER QMGR ACCTMQI(ON) ACCTQ(ON) ACCTINT(100)\n"
                               "DEFINE QLOCAL('Q1')\n", qmgr="QM9"))
    collector = StatisticsCollector(sim)
    for t in (0, 50, 150, 160):         # the call at 150 s finds ACCTINT passed
        sim.run(until=t)
        assert sim.put("QM9", "Q1", MQMD(format="MQSTR"), b"abc", appl_name="app").ok
    assert [r.seq_number for r in records_of(collector.written)] == [0, 0]  # MQI + queue
    sim.disconnect(sim.connection("QM9", "app"))                   # MQDISC: the final ones
    recs = records_of(collector.written)
    mqi = [r for r in recs if r.kind.value == "MQIAccounting"]
    assert [(r.seq_number, sum(r.put1_count)) for r in mqi] == [(0, 2), (1, 2)]
    assert mqi[0].disc_type is None and mqi[1].disc_type == mqc.MQDISCONNECT_NORMAL
    assert (mqi[1].interval_start, mqi[1].interval_end) == \
        ("2026-11-22T10:02:30", "2026-11-22T10:02:40")
    assert mqi[1].conn_time == "10.00.00"
    queue = [r for r in recs if r.kind.value == "QueueAccounting"]
    assert [(r.q_name, sum(r.put1_count), r.put_min_bytes) for r in queue] == \
        [("Q1", 2, [3, 0]), ("Q1", 2, [3, 0])]
    n = len(collector.written)
    collector.finish()                                              # nothing more to say
    assert len(collector.written) == n


def test_channel_batches_and_time_on_the_transmission_queue():
    sim = Simulator(parse_mqsc(EXAMPLE + SETTINGS.replace("STATINT(60)", "STATINT(9999)")))
    collector = StatisticsCollector(sim)
    sim.stop_channel("QM1", "QM1.TO.QM2")
    for _ in range(120):
        assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"m" * 10).ok
    sim.run(until=30)
    sim.start_channel("QM1", "QM1.TO.QM2")                          # 120 waited 30 s
    sim.run()
    recs = records_of(collector.finish())
    [ch] = [r for r in recs if r.kind.value == "ChannelStatistics" and r.queue_manager == "QM1"]
    assert (ch.msg_count, ch.full_batch_count, ch.incmpl_batch_count, ch.average_batch_size) \
        == (120, 2, 1, 40)
    [xq] = [r for r in recs if r.kind.value == "QueueStatistics" and r.q_name == "QM2"]
    assert (xq.q_max_depth, xq.q_min_depth) == (120, 0)
    assert 30_000_000 <= xq.avg_time_on_q[0] <= 30_100_000


def test_cluster_senders_follow_statacls():
    from traceroute.sim.netgen import generate

    gen = generate("cluster", 8, seed=2)
    for qm in gen.network.qmgrs.values():
        qm.attrs.update(STATCHL="OFF", STATACLS="HIGH", STATQ="ON")
    sim = Simulator(gen.network)
    collector = StatisticsCollector(sim)
    for origin, queue, _ in gen.targets:
        assert sim.put(origin, queue, MQMD(format="MQSTR"), b"c").ok
    sim.run()
    recs = records_of(collector.finish())
    channels = [r for r in recs if r.kind.value == "ChannelStatistics"]
    assert channels and {r.channel_type for r in channels} == {mqc.MQCHT_CLUSSDR}
    nets = gen.network.qmgrs
    for r in channels:                    # no manually defined CLUSSDR: STATCHL(OFF) wins
        manual = nets[r.queue_manager].channels.get(r.channel_name)
        assert manual is None or manual.get("CHLTYPE") != "CLUSSDR"
    auto = [t for t in gen.targets
            if f"CL01.{t[2]}" not in nets[t[0]].channels and t[0] != t[2]]
    assert sum(r.msg_count for r in channels) == len(auto) == 24
