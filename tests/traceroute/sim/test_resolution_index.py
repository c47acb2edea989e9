"""The resolution indexes (traceroute.sim.network.cached) always answer what a scan of the
network answers now: after any sequence of definitions, alterations and deletions, made
through the network's dicts directly, through MQSC on a running simulator, after copying."""

from __future__ import annotations

import copy
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from traceroute.sim import network as net
from traceroute.sim.events import SimEvents
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.network import MQObject, Network, QueueManager
from traceroute.sim.resolve import (
    Resolution,
    cluster_receiver,
    clusters_of,
    receiving_end,
    resolve,
    sending_channel,
)
from traceroute.sim.simulator import Simulator

QMS = ["QA", "QB", "QC", "QD"]
CHANNELS = ["C1", "C2", "C3"]
CLUSTERS = ["K1", "K2", ""]
QUEUES = ["Q1", "Q2", "QB"]


# --- the scans the indexes replaced (the reference) -------------------------------------------

def scan_clusters(qm: QueueManager) -> set[str]:
    return {ch.cluster for ch in qm.channels.values()
            if ch.get("CHLTYPE") in ("CLUSRCVR", "CLUSSDR") and ch.cluster}


def scan_cluster_receiver(network: Network, qmgr: str, clusters: set[str]) -> MQObject | None:
    target = network.qmgrs.get(qmgr)
    if target is None:
        return None
    return next((ch for ch in target.channels.values()
                 if ch.get("CHLTYPE") == "CLUSRCVR" and ch.cluster in clusters), None)


def scan_sending_channel(qm: QueueManager, xmitq: str) -> MQObject | None:
    return next((ch for ch in sorted(qm.channels.values(), key=lambda c: c.name)
                 if ch.get("CHLTYPE") in ("SDR", "SVR") and ch.get("XMITQ") == xmitq), None)


def scan_receiving_end(network: Network, channel: MQObject, sender: QueueManager,
                       remote: str) -> QueueManager | None:
    ends = [qm for qm in network.qmgrs.values() if qm is not sender
            and (ch := qm.channels.get(channel.name)) is not None
            and ch.get("CHLTYPE") in ("RCVR", "RQSTR")]
    if len(ends) > 1:
        named = [qm for qm in ends if qm.name == remote]
        return named[0] if named else ends[0]
    return ends[0] if ends else None


def scan_cluster_queues(network: Network, name: str) -> list[tuple[str, str]]:
    return [(qm.name, q.name) for qm in network.qmgrs.values()
            if (q := qm.queues.get(name)) is not None and q.cluster]


def check(network: Network) -> None:
    """Every indexed lookup agrees with its scan, for every name."""
    for qm in network.qmgrs.values():
        assert clusters_of(qm) == scan_clusters(qm)
        for xmitq in ["X1", "X2", ""]:
            assert sending_channel(network, qm, Resolution(qm.name, xmitq, xmitq)) is \
                scan_sending_channel(qm, xmitq)
        for other in QMS:
            for clusters in ({"K1"}, {"K2"}, {"K1", "K2"}):
                assert cluster_receiver(network, other, clusters) is \
                    scan_cluster_receiver(network, other, clusters)
        for name in CHANNELS:
            ch = MQObject("CHANNEL", name, {"CHLTYPE": "SDR"})
            for remote in QMS:
                assert receiving_end(network, ch, qm, remote) is \
                    scan_receiving_end(network, ch, qm, remote)
    for name in QUEUES:
        assert [(qm.name, q.name) for qm, q in network.cluster_queues("", name)] == \
            scan_cluster_queues(network, name)
        for qm in network.qmgrs.values():  # resolution itself: same answer as a fresh copy
            fresh = pickle.loads(pickle.dumps(network))
            assert resolve(network, qm.name, name) == resolve(fresh, qm.name, name)


edits = st.lists(st.tuples(
    st.sampled_from(["channel", "queue", "alter_channel", "alter_queue", "delete_channel",
                     "delete_queue", "qmgr", "xmitq"]),
    st.sampled_from(QMS), st.sampled_from(CHANNELS + QUEUES), st.sampled_from(CLUSTERS),
    st.sampled_from(["SDR", "SVR", "RCVR", "RQSTR", "CLUSRCVR", "CLUSSDR"]),
    st.sampled_from(["X1", "X2"])), max_size=25)


def apply(network: Network, edit: tuple) -> None:
    verb, qmgr, name, cluster, chltype, xmitq = edit
    qm = network.qmgr(qmgr)
    if verb == "channel":
        attrs = {"CHLTYPE": chltype, "XMITQ": xmitq}
        if cluster:
            attrs["CLUSTER"] = cluster
        qm.channels[name] = MQObject("CHANNEL", name, attrs)
    elif verb == "queue":
        qm.queues.setdefault(name, MQObject("QLOCAL", name, {"CLUSTER": cluster}
                                            if cluster else {}))
    elif verb == "alter_channel" and qm.channels:
        next(iter(qm.channels.values())).attrs.update(CLUSTER=cluster, XMITQ=xmitq)
    elif verb == "alter_queue" and name in qm.queues:
        qm.queues[name].attrs["CLUSTER"] = cluster
    elif verb == "delete_channel":
        qm.channels.pop(name, None)
    elif verb == "delete_queue":
        qm.queues.pop(name, None)
    elif verb == "qmgr":
        network.qmgrs[qmgr] = QueueManager(qmgr, channels={
            name: MQObject("CHANNEL", name, {"CHLTYPE": chltype})})
    elif verb == "xmitq":
        qm.queues = {**qm.queues, xmitq: MQObject("QLOCAL", xmitq, {"USAGE": "XMITQ"})}


@settings(max_examples=150, deadline=None)
@given(edits, edits)
def test_indexes_follow_every_change(first, then):
    network = Network()
    for edit in first:
        apply(network, edit)
    check(network)
    copied = copy.deepcopy(network)
    check(copied)
    for edit in then:
        apply(network, edit)
        check(network)
    check(copied)


def test_a_queue_outside_clusters_changes_no_index():
    qm = QueueManager("QA")
    before = net.generation()
    qm.queues["LOCAL"] = MQObject("QLOCAL", "LOCAL")
    qm.queues.setdefault("SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE", MQObject("QLOCAL", "X"))
    assert net.generation() == before
    qm.queues["SHARED"] = MQObject("QLOCAL", "SHARED", {"CLUSTER": "K1"})
    assert net.generation() != before


def test_mqsc_on_a_running_simulator_moves_the_route():
    network = parse_mqsc("""
        DEFINE QLOCAL(X1) USAGE(XMITQ)
        DEFINE QLOCAL(X2) USAGE(XMITQ)
        DEFINE CHANNEL(QA.TO.QB) CHLTYPE(SDR) XMITQ(X1) CONNAME('qb')
        DEFINE QREMOTE(TO.QB) RNAME(Q1) RQMNAME(QB) XMITQ(X1)
    """, qmgr="QA", source="qa.mqsc")
    network.qmgrs.update(parse_mqsc("""
        DEFINE QLOCAL(Q1)
        DEFINE CHANNEL(QA.TO.QB) CHLTYPE(RCVR)
    """, qmgr="QB", source="qb.mqsc").qmgrs)
    sim = Simulator(network)
    events = SimEvents(sim)
    qa = sim.network.qmgrs["QA"]
    assert sending_channel(sim.network, qa, Resolution("QA", "X1", "X1")).name == "QA.TO.QB"
    events.mqsc("ALTER CHANNEL(QA.TO.QB) CHLTYPE(SDR) XMITQ(X2)", "QA")
    assert sending_channel(sim.network, qa, Resolution("QA", "X1", "X1")) is None
    assert sending_channel(sim.network, qa, Resolution("QA", "X2", "X2")).name == "QA.TO.QB"
    check(sim.network)
