"""On 1000 simulated queue managers with planted faults, the audit finds each, nothing else."""

from __future__ import annotations

from collections import Counter

from graph.audit import ObservedSend, audit
from graph.pipeline.rows import hop_rows
from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.records.parse import parse_message
from traceroute.routes.ordering import build_routes
from traceroute.sim.netgen import generate
from traceroute.sim.network import MQObject
from traceroute.sim.simulator import ACTIVITY_QUEUE, Simulator


def _plant_unused_channel(network, a: str, b: str) -> str:
    """A correct sender/receiver pair (with its xmitq) that no traffic will use."""
    name = f"{a}.{b}.SPARE"
    qa, qb = network.qmgrs[a], network.qmgrs[b]
    qa.queues[f"{b}.SPARE"] = MQObject("QLOCAL", f"{b}.SPARE", {"USAGE": "XMITQ"})
    qa.channels[name] = MQObject("CHANNEL", name, {"CHLTYPE": "SDR", "XMITQ": f"{b}.SPARE",
                                                   "CONNAME": b.lower()})
    qb.channels[name] = MQObject("CHANNEL", name, {"CHLTYPE": "RCVR"})
    return name


def test_audit_finds_every_planted_fault_and_nothing_else():
    gen = generate("mixed", 1000, seed=5, faults={"alias_loop": 1, "remote_def_no_channel": 1,
                                                 "stopped_channel": 1,
                                                 "single_repository": 1})
    network = gen.network
    spare = _plant_unused_channel(network, "QM0005", "QM0900")
    # traffic: every queue manager sends one message to a queue in another cluster
    member_of = {q: c for c, members in gen.clusters.items() for q in members if q != "QM0000"}
    clusters = sorted(gen.clusters)
    sim = Simulator(network, seed=5)
    for qmgr, cluster in sorted(member_of.items()):
        other = gen.clusters[clusters[(clusters.index(cluster) + 1) % len(clusters)]]
        dest = next(q for q in other if q != "QM0000")
        md = MQMD(report=mqc.MQRO_ACTIVITY | mqc.MQRO_DISCARD_MSG, format="MQSTR",
                  reply_to_q=ACTIVITY_QUEUE, expiry=600)
        assert sim.put(qmgr, f"APP.Q.{dest[2:]}", md, b"x", target_qmgr=dest).ok
    sim.run()
    records = [parse_message(m, d) for q in network.qmgrs
               for m, d in sim.browse(q, ACTIVITY_QUEUE)]
    routes = build_routes(records)
    assert len(routes) == len(member_of)
    sends = Counter((h["src_queue_manager"], h["dst_queue_manager"], h["channel"])
                    for r in routes for h in hop_rows(r) if h["kind"] == "send")
    observed = [ObservedSend(s, d, c, n) for (s, d, c), n in sends.items()]

    found = {(f.kind, f.queue_manager, f.objects[0]) for f in audit(network, observed)}
    planted = {f.kind: f for f in gen.faults}
    loop, dead = planted["alias_loop"], planted["remote_def_no_channel"]
    stopped, single = planted["stopped_channel"], planted["single_repository"]
    assert found == {
        ("alias_loop", loop.qmgr, loop.objects[0]),
        ("remote_definition_without_channel", dead.qmgr, dead.objects[0]),
        ("stopped_channel", stopped.qmgr, stopped.objects[0]),
        ("unused_channel", "QM0005", spare),
        ("single_repository_cluster", single.qmgr, single.objects[0]),
    }
