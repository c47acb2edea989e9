"""Generated networks: deterministic, their targets deliver, every planted fault shows."""

from __future__ import annotations

from collections import Counter

import pytest

from pcf import mqc
from pcf.headers import unpack_dlh
from traceroute.records.parse import TRACE, parse_message
from traceroute.records.tracemsg import TraceOptions, build_trace_message
from traceroute.routes.ordering import Route, build_routes
from traceroute.routes.verdict import Verdict
from traceroute.sim import netgen
from traceroute.sim.mqsc import read_mqsc, to_mqsc
from traceroute.sim.simulator import Simulator

#: Every fault a topology can have (single_repository needs clusters).
FAULTS = {kind: [f for f in netgen.FAULT_KINDS
                 if kind in ("cluster", "mixed") or f != "single_repository"]
          for kind in netgen.KINDS}


def trace(sim: Simulator, origin: str, queue: str, **options) -> tuple[Route, list]:
    """dspmqrte -q queue -rq TRACE.REPLY.Q (options) on origin: its route and records."""
    opts = TraceOptions.from_dspmqrte(q=queue, rq=netgen.REPLY_Q, **options)
    md, data = build_trace_message(opts, msg_id=bytes(24))
    result = sim.put(origin, queue, md, data, appl_name="dspmqrte")
    assert result.ok, result.reason
    sim.run(max_events=50_000)
    records = []
    while (message := sim.get(origin, netgen.REPLY_Q)) is not None:
        records.append(parse_message(*message))
    routes = [r for r in build_routes(records) if r.correl_id == result.msg_id]
    assert len(routes) == 1, f"no reports came back for {queue} from {origin}"
    return routes[0], records


def faulty(kind: str) -> netgen.GeneratedNetwork:
    """A network of 30 with every fault the topology can have (a new one: the simulator
    adds its SYSTEM queues to the network it runs, and channels get started)."""
    return netgen.generate(kind, 30, seed=7, faults=FAULTS[kind])


def fault(gen: netgen.GeneratedNetwork, kind: str) -> netgen.Fault:
    (found,) = [f for f in gen.faults if f.kind == kind]
    return found


# --- shape -----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", netgen.KINDS)
def test_same_seed_same_network(kind):
    a = netgen.generate(kind, 25, seed=3, faults=FAULTS[kind])
    b = netgen.generate(kind, 25, seed=3, faults=FAULTS[kind])
    assert netgen.content(a.network) == netgen.content(b.network)
    assert to_mqsc(a.network) == to_mqsc(b.network)
    assert (a.targets, a.faults, a.round_robin) == (b.targets, b.faults, b.round_robin)
    c = netgen.generate(kind, 25, seed=4, faults=FAULTS[kind])
    assert (netgen.content(c.network), c.targets) != (netgen.content(a.network), a.targets)


@pytest.mark.parametrize("kind", netgen.KINDS)
def test_every_queue_manager_is_complete(kind):
    gen = netgen.generate(kind, 40, seed=1, targets=20)
    assert list(gen.network.qmgrs) == [f"QM{i:04d}" for i in range(40)]
    assert len(gen.targets) == 20 and gen.kind == kind
    for qm in gen.network.qmgrs.values():
        assert qm.deadq == netgen.DLQ and qm.queues[netgen.DLQ].kind == "QLOCAL"
        assert qm.queues[netgen.app_queue(qm.name)].kind == "QLOCAL"
        assert all(len(name) <= 20 for name in qm.channels)
    for origin in gen.origins:
        assert gen.network.qmgrs[origin].queues[netgen.REPLY_Q].kind == "QLOCAL"
    for qm in gen.network.qmgrs.values():  # every queue manager can answer every origin
        for origin in gen.origins:
            walk = netgen.follow(gen.network, qm.name, netgen.REPLY_Q, origin)
            assert (walk.outcome, walk.end) == (netgen.DELIVERED, origin)


def test_hub_spokes_use_remote_definitions_through_the_hub():
    gen = netgen.hub(12, seed=2, targets=6, hubs=2)
    net = gen.network
    origin, queue, dest = gen.targets[0]
    definition = net.qmgrs[origin].queues[queue]
    home = net.qmgrs[origin].defxmitq
    assert home in ("QM0000", "QM0001")
    assert (definition.kind, definition.get("RNAME"), definition.get("RQMNAME"),
            definition.get("XMITQ")) == ("QREMOTE", queue, dest, home)
    assert net.qmgrs[origin].channels[f"{origin}.{home}"].get("CHLTYPE") == "SDR"
    assert net.qmgrs[home].channels[f"{origin}.{home}"].get("CHLTYPE") == "RCVR"
    walk = netgen.follow(net, origin, queue)
    assert walk.qmgrs[0] == origin and walk.qmgrs[1] == home and walk.end == dest


def test_mesh_routes_by_queue_manager_aliases():
    gen = netgen.mesh(30, seed=5, targets=10)
    net = gen.network
    multi = [t for t in gen.targets if len(netgen.follow(net, t[0], t[1]).qmgrs) > 2]
    assert multi, "a mesh of 30 with 4 neighbours has multi-hop targets"
    origin, queue, dest = multi[0]
    walk = netgen.follow(net, origin, queue)
    for hop, after in zip(walk.qmgrs[:-1], walk.qmgrs[1:], strict=True):
        route = net.qmgrs[hop].queues[dest]  # an alias, or the neighbour's own xmitq
        if after == dest:
            assert (route.kind, route.get("USAGE")) == ("QLOCAL", "XMITQ")
        elif hop != origin:
            assert (route.kind, route.get("RNAME"), route.get("RQMNAME"),
                    route.get("XMITQ")) == ("QREMOTE", "", dest, after)


def test_clusters_have_two_full_repositories():
    gen = netgen.cluster(40, seed=1, clusters=2)
    assert set(gen.clusters) == {"CL01", "CL02"}
    for name, members in gen.clusters.items():
        repos = [m for m in members if gen.network.qmgrs[m].attrs.get("REPOS") == name]
        assert len(repos) == 2
        for m in members:
            kinds = Counter(ch.get("CHLTYPE") for ch in gen.network.qmgrs[m].channels.values()
                            if ch.cluster == name)
            assert kinds == {"CLUSRCVR": 1, "CLUSSDR": 1}


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown topology"):
        netgen.generate("star", 10)
    with pytest.raises(ValueError, match="unknown fault"):
        netgen.generate("hub", 10, faults=["typo"])
    with pytest.raises(ValueError, match="needs clusters"):
        netgen.generate("mesh", 10, faults=["single_repository"])
    with pytest.raises(ValueError, match="from 2"):
        netgen.generate("hub", 1)


# --- traces through the simulator ------------------------------------------------------------


@pytest.mark.parametrize("kind", netgen.KINDS)
def test_every_target_delivers(kind):
    gen = netgen.generate(kind, 20, seed=11, targets=16)
    sim = Simulator(gen.network)
    for origin, queue, dest in gen.targets:
        route, _ = trace(sim, origin, queue, d="yes")
        assert route.verdict is Verdict.DELIVERED, (origin, queue, route.outcome)
        assert route.location.queue_manager == dest and route.complete
        assert sim.depth(dest, netgen.app_queue(dest)) >= 1
    origin, queue, dest = gen.targets[0]
    route, _ = trace(sim, origin, queue)  # dspmqrte's default: Deliver=NO
    assert route.verdict is Verdict.DISCARDED_AT_TARGET
    assert route.location.queue_manager == dest


@pytest.mark.parametrize("kind", netgen.KINDS)
def test_targets_avoid_the_faults(kind):
    gen = faulty(kind)
    assert len(gen.targets) >= 10
    sim = Simulator(gen.network)
    for origin, queue, dest in gen.targets:
        route, _ = trace(sim, origin, queue, d="yes")
        assert (route.verdict, route.location.queue_manager) == (Verdict.DELIVERED, dest)


@pytest.mark.parametrize("kind", netgen.KINDS)
def test_alias_loop_stops_at_max_activities(kind):
    gen = faulty(kind)
    f = fault(gen, "alias_loop")
    route, _ = trace(Simulator(gen.network), f.probe[0], f.probe[1], s=20, d="yes")
    assert route.verdict is Verdict.MAX_ACTIVITIES
    assert route.outcome.feedback == mqc.MQFB_MAX_ACTIVITIES
    assert len(route.activities) == 21  # 20 allowed, the 21st discards it
    assert len({a.qmgr for a in route.activities}) in (2, 3)


@pytest.mark.parametrize("kind", netgen.KINDS)
def test_remote_definition_without_channel_waits(kind):
    gen = faulty(kind)
    f = fault(gen, "remote_def_no_channel")
    origin, queue, where = f.probe
    sim = Simulator(gen.network)
    route, _ = trace(sim, origin, queue, d="yes")
    xmitq = gen.network.qmgrs[origin].queues[queue].get("XMITQ")
    assert route.verdict is Verdict.WAITING_ON_XMITQ
    assert (route.location.queue_manager, route.location.queue) == (where, xmitq)
    assert sim.depth(origin, xmitq) == 1


@pytest.mark.parametrize("kind", netgen.KINDS)
def test_stopped_channel_waits_until_started(kind):
    gen = faulty(kind)
    f = fault(gen, "stopped_channel")
    origin, queue, where = f.probe
    assert f.objects[0] in gen.network.qmgrs[where].stopped
    sim = Simulator(gen.network)
    route, records = trace(sim, origin, queue, d="yes")
    assert (route.verdict, route.location.queue_manager) == (Verdict.WAITING_ON_XMITQ, where)
    sim.start_channel(f.qmgr, f.objects[0])
    sim.run()
    records += [parse_message(*m) for m in sim.browse(origin, netgen.REPLY_Q)]
    (after,) = build_routes(records)
    assert after.verdict is Verdict.DELIVERED and after.complete


@pytest.mark.parametrize("kind", netgen.KINDS)
def test_missing_target_is_dead_lettered(kind):
    gen = faulty(kind)
    f = fault(gen, "missing_target")
    origin, queue, dest = f.probe
    sim = Simulator(gen.network)
    route, _ = trace(sim, origin, queue, d="yes", ro="activity")  # no discard: to the DLQ
    assert (route.verdict, route.location.queue_manager) == (Verdict.DEAD_LETTERED, dest)
    assert route.outcome.feedback == mqc.MQRC_UNKNOWN_OBJECT_NAME == 2085
    (dead,) = sim.browse(dest, netgen.DLQ)
    dlh = unpack_dlh(dead[1])
    assert dlh.reason == mqc.MQRC_UNKNOWN_OBJECT_NAME and dlh.dest_q_name == queue
    record = parse_message(*dead)
    assert record.kind == TRACE and record.key == route.correl_id


@pytest.mark.parametrize("kind", netgen.KINDS)
def test_old_queue_manager_leaves_a_discontinuity(kind):
    gen = faulty(kind)
    f = fault(gen, "old_qmgr")
    origin, queue, dest = f.probe
    assert not gen.network.qmgrs[f.qmgr].supports_trace_route
    sim = Simulator(gen.network)
    route, _ = trace(sim, origin, queue, d="yes")
    assert (route.verdict, route.location.queue_manager) == (Verdict.DELIVERED, dest)
    assert f.qmgr not in {a.qmgr for a in route.activities}
    assert [g.discontinuities for g in route.gaps] == [1]
    walk = netgen.follow(gen.network, origin, queue)
    before = walk.qmgrs[walk.qmgrs.index(f.qmgr) - 1]
    route, _ = trace(sim, origin, queue)  # -d no -f supported: not forwarded to it
    assert (route.verdict, route.location.queue_manager) == (Verdict.NOT_FORWARDED, before)


@pytest.mark.parametrize("kind", ["cluster", "mixed"])
def test_single_repository(kind):
    gen = faulty(kind)
    f = fault(gen, "single_repository")
    (name,) = f.objects
    members = gen.clusters[name]
    repos = [m for m in members if gen.network.qmgrs[m].attrs.get("REPOS") == name]
    assert repos == [f.qmgr]
    for qm in gen.network.qmgrs.values():
        for ch in qm.channels.values():
            if ch.get("CHLTYPE") == "CLUSSDR" and ch.cluster == name:
                assert ch.name == f"{name}.{f.qmgr}"


def test_receiver_without_sender():
    for gen in map(faulty, netgen.KINDS):
        f = fault(gen, "receiver_without_sender")
        (channel,) = f.objects
        assert gen.network.qmgrs[f.qmgr].channels[channel].get("CHLTYPE") == "RCVR"
        senders = [qm.name for qm in gen.network.qmgrs.values()
                   if qm.channels.get(channel) is not None
                   and qm.channels[channel].get("CHLTYPE") == "SDR"]
        assert senders == [] and f.probe is None


@pytest.mark.parametrize("kind", ["cluster", "mixed"])
def test_cluster_round_robin(kind):
    gen = netgen.generate(kind, 20, seed=2)
    origin, queue, hosts = gen.round_robin[0]
    assert len(hosts) == 3 and origin not in hosts
    sim = Simulator(gen.network)
    landed = Counter()
    for _ in range(10):  # MQPUT1 each time: BIND_ON_OPEN picks the next instance
        route, _ = trace(sim, origin, queue, d="yes")
        assert route.verdict is Verdict.DELIVERED
        landed[route.location.queue_manager] += 1
    assert set(landed) == set(hosts) and sorted(landed.values()) == [3, 3, 4]
    assert [sim.depth(h, queue) for h in hosts] == [landed[h] for h in hosts]


def test_several_faults_of_a_kind():
    gen = netgen.generate("hub", 40, seed=1, faults={"stopped_channel": 2, "missing_target": 2,
                                                     "alias_loop": 2})
    assert Counter(f.kind for f in gen.faults) == {"alias_loop": 2, "stopped_channel": 2,
                                                   "missing_target": 2}
    sim = Simulator(gen.network)
    for f in gen.faults:
        route, _ = trace(sim, f.probe[0], f.probe[1], s=20, ro="activity")
        assert route.verdict is Verdict.DEAD_LETTERED if f.kind != "stopped_channel" else \
            Verdict.WAITING_ON_XMITQ  # without "discard" a rejection goes to the DLQ too
        assert route.outcome.feedback == {"alias_loop": mqc.MQFB_MAX_ACTIVITIES,
                                          "stopped_channel": None,
                                          "missing_target": mqc.MQRC_UNKNOWN_OBJECT_NAME}[f.kind]


# --- MQSC --------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", netgen.KINDS)
def test_mqsc_files_round_trip(tmp_path, kind):
    gen = faulty(kind)
    files = netgen.to_mqsc_files(gen, tmp_path / "mqsc")
    assert [p.name for p in files] == [f"{name.lower()}.mqsc" for name in gen.network.qmgrs]
    text = files[0].read_text()
    assert text.count("* Queue manager name:") == 1 and "* Queue manager name: QM0000" in text
    back = read_mqsc(files)
    assert netgen.content(back) == netgen.content(gen.network)
    assert any(qm.stopped for qm in back.qmgrs.values())
    sim = Simulator(back)  # the network read back behaves the same
    origin, queue, dest = gen.targets[0]
    route, _ = trace(sim, origin, queue, d="yes")
    assert (route.verdict, route.location.queue_manager) == (Verdict.DELIVERED, dest)
