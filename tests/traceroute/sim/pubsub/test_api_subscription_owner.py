"""An API subscription belongs to the connection that made it: MQDISC ends that
connection's non-durable subscriptions, not another connection's of the same ApplName; and
SubIds stay unique across runs of one estate (the MQSUB serial is in the identity)."""

from __future__ import annotations

from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator


def _sim() -> Simulator:
    return Simulator(parse_mqsc("DEFINE QLOCAL(ANY)\n", qmgr="QM1"))


def test_mqdisc_ends_only_its_own_connections_non_durable_subscriptions():
    sim = _sim()
    first = sim.subscribe("QM1", "a/b", appl_name="reader").subscription
    conn = sim.suspend_connection("QM1", "app", "reader")  # kept aside, as an estate does
    second = sim.subscribe("QM1", "a/b", appl_name="reader").subscription
    assert first.conn_id != second.conn_id and first.sub_id != second.sub_id
    sim.disconnect(sim.connection("QM1", "reader"))
    assert [s.sub_id for s in sim.pubsub] == [first.sub_id]
    assert second.dest not in sim.network.qmgrs["QM1"].queues
    sim.resume_connection("app", "reader", conn)
    sim.disconnect(conn)
    assert not list(sim.pubsub) and first.dest not in sim.network.qmgrs["QM1"].queues


def test_subscription_ids_stay_unique_across_runs():
    sim = _sim()
    made = sim.subscribe("QM1", "a/b", appl_name="reader").subscription
    again = _sim()
    again.restore_identity(sim.identity())
    later = again.subscribe("QM1", "a/b", appl_name="reader").subscription
    assert later.sub_id != made.sub_id and later.dest != made.dest
