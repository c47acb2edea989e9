"""Live status facts -> ibmmq_queue_*, ibmmq_channel_*, ibmmq_qmgr_* as mq-metric-samples
computes them: status and the squashed status for every MQCHS_* value, per-collection deltas
(0 first, the new value after a reset, forgotten when the channel goes), times since."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graph.metrics.status import (
    ChannelFacts,
    Deltas,
    EstateFacts,
    QMgrFacts,
    QueueFacts,
    squash,
    status_snapshot,
)
from pcf import mqc

NOW = datetime(2026, 11, 22, 10, 0, 0, tzinfo=UTC)

#: mqmetric's ChannelNormalise, value by value: MQCHS_* -> 0 stopped, 1 transition, 2 running.
SQUASHED = {
    mqc.MQCHS_INACTIVE: 0, mqc.MQCHS_BINDING: 1, mqc.MQCHS_STARTING: 1, mqc.MQCHS_RUNNING: 2,
    mqc.MQCHS_STOPPING: 1, mqc.MQCHS_RETRYING: 1, mqc.MQCHS_STOPPED: 0,
    mqc.MQCHS_REQUESTING: 1, mqc.MQCHS_PAUSED: 0, mqc.MQCHS_DISCONNECTED: 0,
    mqc.MQCHS_INITIALIZING: 1, mqc.MQCHS_SWITCHING: 1, 99: 0}


@pytest.mark.parametrize(("status", "want"), sorted(SQUASHED.items()))
def test_squash(status, want):
    assert squash(status) == want


def queue(**kw) -> QueueFacts:
    return QueueFacts("QM1", "APP.Q", **kw)


def test_queue_status():
    facts = EstateFacts(queues=[
        queue(depth=5, max_depth=5000, usage=0, oldest_message_age=42, qtime=(1500, 900),
              last_put=NOW - timedelta(seconds=30), last_get=None, uncommitted=1,
              input_handles=2, output_handles=3, platform="UNIX", cluster="CL1"),
        QueueFacts("QM1", "QM2", depth=7, usage=mqc.MQUS_TRANSMISSION)])
    snap = status_snapshot(facts, now=NOW)
    q = {"qmgr": "QM1", "queue": "APP.Q", "platform": "UNIX", "usage": "NORMAL",
         "cluster": "CL1"}
    assert snap.get("ibmmq_queue_depth", **q) == 5
    assert snap.get("ibmmq_queue_attribute_max_depth", **q) == 5000
    assert snap.get("ibmmq_queue_oldest_message_age", **q) == 42
    assert snap.get("ibmmq_queue_qtime_short", **q) == 1500
    assert snap.get("ibmmq_queue_qtime_long", **q) == 900
    assert snap.get("ibmmq_queue_time_since_put", **q) == 30
    assert snap.get("ibmmq_queue_time_since_get", **q) is None   # never got: not exported
    assert snap.get("ibmmq_queue_uncommitted_messages", **q) == 1
    assert snap.get("ibmmq_queue_input_handles", **q) == 2
    assert snap.get("ibmmq_queue_output_handles", **q) == 3
    assert snap.get("ibmmq_queue_depth", qmgr="QM1", queue="QM2", usage="XMITQ") == 7
    assert snap.get("ibmmq_queue_attribute_usage", qmgr="QM1", queue="QM2",
                    usage="XMITQ") == 1


def channel(**kw) -> ChannelFacts:
    base = {"type": mqc.MQCHT_SENDER, "status": mqc.MQCHS_RUNNING, "rqmname": "QM2",
            "connname": "host(1414)", "jobname": "0000ABCD"}
    return ChannelFacts("QM1", "QM1.TO.QM2", **{**base, **kw})


LABELS = {"qmgr": "QM1", "channel": "QM1.TO.QM2", "type": "SENDER", "rqmname": "QM2",
          "connname": "host(1414)", "jobname": "0000ABCD"}


def test_channel_status_and_deltas_across_collections():
    deltas = Deltas()
    first = status_snapshot(EstateFacts(channels=[channel(messages=100, bytes_sent=5000,
                                                          batches=10)]),
                            now=NOW, deltas=deltas)
    assert first.get("ibmmq_channel_status", **LABELS) == mqc.MQCHS_RUNNING
    assert first.get("ibmmq_channel_status_squash", **LABELS) == 2
    assert first.get("ibmmq_channel_type", **LABELS) == mqc.MQCHT_SENDER
    assert first.get("ibmmq_channel_messages", **LABELS) == 0      # first collection
    second = status_snapshot(EstateFacts(channels=[channel(messages=130, bytes_sent=8000,
                                                           batches=12)]),
                             now=NOW, deltas=deltas)
    assert second.get("ibmmq_channel_messages", **LABELS) == 30
    assert second.get("ibmmq_channel_bytes_sent", **LABELS) == 3000
    assert second.get("ibmmq_channel_batches", **LABELS) == 2
    restarted = status_snapshot(EstateFacts(channels=[channel(messages=4)]), now=NOW,
                                deltas=deltas)
    assert restarted.get("ibmmq_channel_messages", **LABELS) == 4  # counter went back
    gone = status_snapshot(EstateFacts(), now=NOW, deltas=deltas)
    assert "ibmmq_channel_status" not in gone.series and not deltas.previous
    back = status_snapshot(EstateFacts(channels=[channel(messages=500)]), now=NOW,
                           deltas=deltas)
    assert back.get("ibmmq_channel_messages", **LABELS) == 0       # forgotten, so first


def test_stopped_channel_instances_and_times():
    facts = EstateFacts(channels=[
        channel(status=mqc.MQCHS_STOPPED, last_message=NOW - timedelta(minutes=5),
                nettime=(800, 1200), xqtime=(30, 40), batchsz=(5, 7),
                start=datetime(2026, 11, 22, 9, 0, tzinfo=UTC), max_inst=999),
        channel(jobname="0000EEEE", status=mqc.MQCHS_RETRYING)])
    snap = status_snapshot(facts, now=NOW)
    assert snap.get("ibmmq_channel_status", **LABELS) == mqc.MQCHS_STOPPED
    assert snap.get("ibmmq_channel_status_squash", **LABELS) == 0
    assert snap.get("ibmmq_channel_time_since_msg", **LABELS) == 300
    assert snap.get("ibmmq_channel_nettime_short", **LABELS) == 800
    assert snap.get("ibmmq_channel_nettime_long", **LABELS) == 1200
    assert snap.get("ibmmq_channel_xmitq_time_long", **LABELS) == 40
    assert snap.get("ibmmq_channel_batchsz_short", **LABELS) == 5
    assert snap.get("ibmmq_channel_cur_inst", **LABELS) == 2     # instances of the name
    assert snap.get("ibmmq_channel_attribute_max_inst", **LABELS) == 999
    assert snap.get("ibmmq_channel_start_epoch", **LABELS) == NOW.timestamp() - 3600
    other = {**LABELS, "jobname": "0000EEEE"}
    assert snap.get("ibmmq_channel_status_squash", **other) == 1


def test_queue_manager_status():
    snap = status_snapshot(EstateFacts(qmgrs=[
        QMgrFacts("QM1", status=mqc.MQQMSTA_RUNNING, connection_count=23,
                  command_server_status=2,  # MQSVC_STATUS_RUNNING
                  start=NOW - timedelta(hours=2)),
        QMgrFacts("QM9", status=0)]), now=NOW)
    assert snap.get("ibmmq_qmgr_status", qmgr="QM1") == mqc.MQQMSTA_RUNNING
    assert snap.get("ibmmq_qmgr_connection_count", qmgr="QM1") == 23
    assert snap.get("ibmmq_qmgr_uptime", qmgr="QM1") == 7200
    assert snap.get("ibmmq_qmgr_status", qmgr="QM9") == 0        # cannot be reached
