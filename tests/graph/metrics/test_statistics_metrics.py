"""Statistics and accounting messages -> ibmmq_queue_* / ibmmq_qmgr_* / mqroute_* values.

Messages are built byte by byte from the spec (tests/traceroute/stats/stats_pcf.py, not our
encoder); the expected numbers are written out here; the real statistics vector and
`mqroute stats --json` (another path through the same messages) give the cross-check.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graph.metrics.catalog import STAT_COUNTS_QMGR, count_name
from graph.metrics.snapshot import Snapshot
from graph.metrics.statistics import by_index, statistics_snapshot
from pcf import mqc
from tests.traceroute.stats.stats_pcf import CFT_ACCOUNTING, CFT_STATISTICS, Builder
from traceroute.stats import decode_stats, join_sequences

ROOT = Path(__file__).resolve().parents[3]
B = Builder()


def head(qmgr: str = "QM1", start: str = "10.00.00", end: str = "10.30.00") -> list[bytes]:
    return [B.cfst(mqc.MQCA_Q_MGR_NAME, qmgr, 48),
            B.cfst(mqc.MQCAMO_START_DATE, "2026-11-23", 12),
            B.cfst(mqc.MQCAMO_START_TIME, start, 8),
            B.cfst(mqc.MQCAMO_END_DATE, "2026-11-23", 12),
            B.cfst(mqc.MQCAMO_END_TIME, end, 8), B.cfin(mqc.MQIA_COMMAND_LEVEL, 940)]


def queue_group(name: str, *, puts=(3, 4), put1=(1, 0), gets=(2, 5), min_depth=0,
                max_depth=9, avg=(1000, 3000), expired=0, put_bytes=(30, 400)) -> bytes:
    return B.cfgr(mqc.MQGACF_Q_STATISTICS_DATA, [
        B.cfst(mqc.MQCA_Q_NAME, name, 48), B.cfin(mqc.MQIA_Q_TYPE, 1),
        B.cfin(mqc.MQIAMO_Q_MIN_DEPTH, min_depth), B.cfin(mqc.MQIAMO_Q_MAX_DEPTH, max_depth),
        B.cfil64(mqc.MQIAMO64_AVG_Q_TIME, list(avg)), B.cfil(mqc.MQIAMO_PUTS, list(puts)),
        B.cfin(mqc.MQIAMO_PUTS_FAILED, 2), B.cfil(mqc.MQIAMO_PUT1S, list(put1)),
        B.cfil64(mqc.MQIAMO64_PUT_BYTES, list(put_bytes)), B.cfil(mqc.MQIAMO_GETS, list(gets)),
        B.cfin(mqc.MQIAMO_GETS_FAILED, 7), B.cfin(mqc.MQIAMO_MSGS_EXPIRED, expired),
        B.cfin(mqc.MQIAMO_MSGS_NOT_QUEUED, 1)])


def queue_statistics(groups: list[bytes], **kw) -> bytes:
    return B.message(CFT_STATISTICS, mqc.MQCMD_STATISTICS_Q,
                     [*head(**kw), B.cfin(mqc.MQIAMO_OBJECT_COUNT, len(groups))], groups)


def mqi_statistics(**kw) -> bytes:
    opens = list(range(1, 14))  # index = MQOT_* value: unknown, queue, namelist ...
    return B.message(CFT_STATISTICS, mqc.MQCMD_STATISTICS_MQI, [
        *head(**kw), B.cfin(mqc.MQIAMO_CONNS, 6), B.cfin(mqc.MQIAMO_CONNS_MAX, 4),
        B.cfil(mqc.MQIAMO_DISCS, [2, 1, 0]), B.cfil(mqc.MQIAMO_OPENS, opens),
        B.cfil(mqc.MQIAMO_PUTS, [10, 20]), B.cfin(mqc.MQIAMO_COMMITS, 5),
        B.cfil(mqc.MQIAMO_SUB_DUR_HIGHWATER, [7, 3, 2, 1]),
        B.cfil(mqc.MQIAMO_SUB_DUR_LOWWATER, [4, 1, 1, 0])])


def records(*messages: bytes) -> list:
    out = []
    for joined in join_sequences(decode_stats(None, m) for m in messages):
        out += joined.records()
    return out


def value(snap: Snapshot, name: str, **labels) -> float | None:
    return snap.get(name, **labels)


def test_queue_statistics_names_and_numbers():
    snap = statistics_snapshot(records(queue_statistics([queue_group("APP.Q")])))
    q = {"qmgr": "QM1", "queue": "APP.Q"}
    assert value(snap, "ibmmq_queue_mqput_non_persistent_message_count", **q) == 3
    assert value(snap, "ibmmq_queue_mqput_persistent_message_count", **q) == 4
    assert value(snap, "ibmmq_queue_mqput_message_count", **q) == 7
    assert value(snap, "ibmmq_queue_mqput1_message_count", **q) == 1
    assert value(snap, "ibmmq_queue_failed_mqput_count", **q) == 2
    assert value(snap, "ibmmq_queue_put_message_bytes_count", **q) == 430
    assert value(snap, "ibmmq_queue_put_persistent_message_bytes_count", **q) == 400
    assert value(snap, "ibmmq_queue_destructive_mqget_message_count", **q) == 7
    assert value(snap, "ibmmq_queue_failed_destructive_mqget_count", **q) == 7
    assert value(snap, "ibmmq_queue_queue_avoided_put_count", **q) == 1
    assert value(snap, "ibmmq_queue_expired_message_count", **q) == 0
    assert value(snap, "ibmmq_queue_min_depth", **q) == 0
    assert value(snap, "ibmmq_queue_max_depth", **q) == 9
    # AvgTimeOnQ [1000, 3000] us weighted by gets [2, 5]: (2000 + 15000) / 7 us
    assert value(snap, "ibmmq_queue_average_queue_time_seconds", **q) == \
        pytest.approx(17000 / 7 / 1e6)
    # nothing the message did not carry
    assert value(snap, "ibmmq_queue_purged_message_count", **q) is None


def test_intervals_add_up_and_depths_keep_their_extremes():
    first = queue_statistics([queue_group("APP.Q", min_depth=2, max_depth=9, avg=(100, 0),
                                          gets=(1, 0))])
    second = queue_statistics([queue_group("APP.Q", min_depth=0, max_depth=5, avg=(400, 0),
                                           gets=(3, 0))], start="10.30.00", end="11.00.00")
    snap = statistics_snapshot(records(first, second))
    q = {"qmgr": "QM1", "queue": "APP.Q"}
    assert value(snap, "ibmmq_queue_mqput_message_count", **q) == 14
    assert value(snap, "ibmmq_queue_min_depth", **q) == 0
    assert value(snap, "ibmmq_queue_max_depth", **q) == 9
    assert value(snap, "ibmmq_queue_average_queue_time_seconds", **q) == \
        pytest.approx((100 * 1 + 400 * 3) / 4 / 1e6)


def test_a_message_read_twice_counts_once():
    """Overlapping dumps of the statistics queue hold the same message twice: the same
    queue manager, interval and object is one record."""
    message = queue_statistics([queue_group("APP.Q")])
    snap = statistics_snapshot(records(message, message))
    assert snap.get("ibmmq_queue_mqput_message_count", qmgr="QM1", queue="APP.Q") == 7


def test_mqi_statistics_by_object_type_with_totals_and_water_marks():
    snap = statistics_snapshot(records(mqi_statistics(), mqi_statistics(start="10.30.00")))
    m = {"qmgr": "QM1"}
    assert value(snap, "ibmmq_qmgr_mqconn_mqconnx_count", **m) == 12
    assert value(snap, "ibmmq_qmgr_concurrent_connections_high_water_mark", **m) == 4
    assert value(snap, "ibmmq_qmgr_mqdisc_normal_count", **m) == 4
    assert value(snap, "ibmmq_qmgr_mqdisc_implicit_count", **m) == 2
    assert value(snap, "ibmmq_qmgr_mqdisc_count", **m) == 6
    assert value(snap, "ibmmq_qmgr_mqopen_queue_count", **m) == 2 * 2      # MQOT_Q = 1
    assert value(snap, "ibmmq_qmgr_mqopen_topic_count", **m) == 2 * 9      # MQOT_TOPIC = 8
    assert value(snap, "ibmmq_qmgr_mqopen_service_count", **m) == 2 * 13   # MQOT_SERVICE = 12
    assert value(snap, "ibmmq_qmgr_mqopen_count", **m) == 2 * sum(range(1, 14))
    assert value(snap, "ibmmq_qmgr_mqput_message_count", **m) == 60
    assert value(snap, "ibmmq_qmgr_mqcmit_count", **m) == 10
    assert value(snap, "ibmmq_qmgr_mqsub_durable_highwater_all", **m) == 7
    assert value(snap, "ibmmq_qmgr_mqsub_durable_lowwater_api", **m) == 1


def test_channel_statistics_and_queue_accounting():
    chl = B.message(CFT_STATISTICS, mqc.MQCMD_STATISTICS_CHANNEL, [
        *head(), B.cfin(mqc.MQIAMO_OBJECT_COUNT, 1)], [B.cfgr(mqc.MQGACF_CHL_STATISTICS_DATA, [
            B.cfst(mqc.MQCACH_CHANNEL_NAME, "QM1.TO.QM2", 20),
            B.cfin(mqc.MQIACH_CHANNEL_TYPE, mqc.MQCHT_SENDER),
            B.cfst(mqc.MQCA_REMOTE_Q_MGR_NAME, "QM2", 48), B.cfin(mqc.MQIAMO_MSGS, 40),
            B.cfin64(mqc.MQIAMO64_BYTES, 4096), B.cfin(mqc.MQIAMO_FULL_BATCHES, 3),
            B.cfin(mqc.MQIAMO_INCOMPLETE_BATCHES, 2), B.cfin(mqc.MQIAMO_PUT_RETRIES, 1)])])
    acct = B.message(CFT_ACCOUNTING, mqc.MQCMD_ACCOUNTING_Q, [
        *head(), B.cfbs(mqc.MQBACF_CONNECTION_ID, b"A" * 24),
        B.cfst(mqc.MQCACF_APPL_NAME, "amqsput", 28), B.cfin(mqc.MQIAMO_OBJECT_COUNT, 1)],
        [B.cfgr(mqc.MQGACF_Q_ACCOUNTING_DATA, [
            B.cfst(mqc.MQCA_Q_NAME, "APP.Q", 48), B.cfil(mqc.MQIAMO_PUTS, [2, 1]),
            B.cfil(mqc.MQIAMO_PUT1S, [1, 0]), B.cfil(mqc.MQIAMO_GETS, [0, 0])])])
    snap = statistics_snapshot(records(chl, acct))
    c = {"qmgr": "QM1", "channel": "QM1.TO.QM2", "type": "SENDER", "rqmname": "QM2"}
    assert value(snap, "mqroute_channel_statistics_messages", **c) == 40
    assert value(snap, "mqroute_channel_statistics_bytes", **c) == 4096
    assert value(snap, "mqroute_channel_statistics_batches", **c) == 5
    assert value(snap, "mqroute_channel_statistics_put_retries", **c) == 1
    a = {"qmgr": "QM1", "queue": "APP.Q", "application": "amqsput"}
    assert value(snap, "mqroute_queue_application_puts", **a) == 4
    assert value(snap, "mqroute_queue_application_gets", **a) == 0


def test_counts_are_claims():
    """Negative counts read as 0 (as mq-metric-samples reads them); a scalar where a list
    belongs gives only the total; a list longer than the names still totals all of it."""
    assert by_index(-5, ("failed_mqput",)) == [("failed_mqput", 0.0)]
    assert by_index(9, ("a", "b", "total")) == [("total", 9.0)]
    assert by_index([1, 2, 3], ("a", "b", "total")) == [("a", 1.0), ("b", 2.0),
                                                         ("total", 6.0)]
    assert by_index([1], ("a", "b", "total")) == [("a", 1.0), ("total", 1.0)]
    assert by_index([5, 6], ("x", "y"), total=False) == [("x", 5.0), ("y", 6.0)]
    assert by_index(None, ("a",)) == []
    huge = statistics_snapshot(records(queue_statistics([queue_group(
        "Q", puts=(2**31 - 1, 2**31 - 1), put_bytes=(2**62, 2**62))])))
    assert huge.get("ibmmq_queue_put_message_bytes_count", qmgr="QM1", queue="Q") == 2.0**63


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["A", "B", "C.D"]),
                          st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1,
                max_size=8))
def test_sums_over_any_intervals(intervals):
    messages = [queue_statistics([queue_group(q, puts=(np, p))], start=f"{i:02d}.00.00")
                for i, (q, np, p) in enumerate(intervals)]
    snap = statistics_snapshot(records(*messages))
    for q in {q for q, _, _ in intervals}:
        want = sum(np + p for name, np, p in intervals if name == q)
        assert snap.get("ibmmq_queue_mqput_message_count", qmgr="QM1", queue=q) == want


def test_every_mqi_count_has_a_record_attribute():
    from traceroute.stats import MQIStatistics

    for attr, names in STAT_COUNTS_QMGR:
        assert hasattr(MQIStatistics(), attr), attr
        assert all(count_name("qmgr", n).startswith("ibmmq_qmgr_") for n in names)


def _stats_json(path: Path) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "mqroute", "stats", str(path), "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_real_statistics_vector_gives_the_counts_mqroute_stats_gives(vectors):
    """16 queues of a real queue manager: every put, put1, get and byte count per queue is
    what `mqroute stats --json` shows for it."""
    path = vectors / "pymqi" / "statistics_q.dat"
    snap = statistics_snapshot(records(path.read_bytes()))
    objects = _stats_json(path)
    assert len(objects) == 16
    for o in objects:
        q = {"qmgr": o["queue_manager"], "queue": o["object"]}
        d = o["data"]
        assert snap.get("ibmmq_queue_mqput_message_count", **q) == sum(d["PutCount"])
        assert snap.get("ibmmq_queue_mqput1_message_count", **q) == sum(d["Put1Count"])
        assert snap.get("ibmmq_queue_destructive_mqget_message_count", **q) == \
            sum(d["GetCount"])
        assert snap.get("ibmmq_queue_put_message_bytes_count", **q) == sum(d["PutBytes"])
        assert snap.get("ibmmq_queue_failed_destructive_mqget_count", **q) == \
            d["GetFailCount"]
        assert snap.get("ibmmq_queue_max_depth", **q) == d["QMaxDepth"]


def test_statistics_take_the_labels_of_the_status_collected_with_them():
    """A dashboard filtering on usage/platform finds a queue's statistics when live status is
    read in the same refresh (mq_prometheus labels its statistics from the attributes it
    inquired); statistics alone keep them blank."""
    from graph.metrics.refresh import Refresher, Source

    def status():
        s = Snapshot()
        s.put("ibmmq_queue_depth", {"qmgr": "QM1", "queue": "QM2", "platform": "UNIX",
                                    "usage": "XMITQ", "description": "to QM2"}, 4)
        s.put("ibmmq_qmgr_status", {"qmgr": "QM1", "platform": "UNIX"}, 2)
        return s, 0

    def stats():
        s = Snapshot()
        s.put("ibmmq_queue_mqput_message_count", {"qmgr": "QM1", "queue": "QM2"}, 5)
        s.put("ibmmq_queue_mqput_message_count", {"qmgr": "QM1", "queue": "GONE"}, 2)
        s.put("ibmmq_qmgr_mqput_message_count", {"qmgr": "QM1"}, 9)
        s.put("ibmmq_qmgr_mqput_message_count", {"qmgr": "QM9"}, 1)
        return s, 0

    both = Refresher([Source("status", status), Source("stats", stats)]).refresh()
    assert both.get("ibmmq_queue_mqput_message_count", qmgr="QM1", queue="QM2",
                    platform="UNIX", usage="XMITQ", description="to QM2") == 5
    assert both.get("ibmmq_queue_mqput_message_count", qmgr="QM1", queue="GONE") == 2
    assert both.get("ibmmq_qmgr_mqput_message_count", qmgr="QM1", platform="UNIX") == 9
    assert both.get("ibmmq_qmgr_mqput_message_count", qmgr="QM9") == 1
    alone = Refresher([Source("stats", stats)]).refresh()
    assert alone.get("ibmmq_queue_mqput_message_count", qmgr="QM1", queue="QM2") == 5
