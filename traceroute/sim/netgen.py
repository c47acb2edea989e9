"""Generated queue-manager networks for scale tests and demos, deterministic for a seed.

    >>> gen = generate("hub", 50, seed=1, faults={"stopped_channel": 1})
    >>> origin, queue, destination = gen.targets[0]
    >>> files = to_mqsc_files(gen, "out/")          # one dmpmqcfg-style file per queue manager

Queue managers are ``QM0000`` ... Every one has the dead-letter queue
``SYSTEM.DEAD.LETTER.QUEUE`` (a QLOCAL, named by DEADQ) and hosts one application queue named
after its number (``QM0005`` hosts ``APP.Q.0005``). Traces start at the *origins*, which define
the reply queue ``TRACE.REPLY.Q``; every queue manager can send back to every origin.

Topologies (`generate` dispatches to `hub`, `mesh`, `cluster` and `mixed`):

hub
    Hubs ``QM0000`` ... (``hubs=1``) and spokes, each homed on one hub. A spoke has a
    transmission queue named after its hub, a sender ``SPOKE.HUB`` (the hub defines the
    receiver) and DEFXMITQ(hub) as its route back to anything it does not know. A hub has a
    transmission queue and a sender per spoke of its own, links to every other hub, and for
    the spokes of other hubs a queue-manager alias (QREMOTE, blank RNAME, XMITQ(that hub)).
    An origin reaches another spoke's queue by a remote queue definition of the same name:
    RNAME(APP.Q.nnnn) RQMNAME(that spoke) XMITQ(its hub): the hub forwards by the queue
    manager name alone.
mesh
    Each queue manager linked to about ``neighbours=4`` others (a ring lattice whose longer
    links are rewired at random with probability ``rewire=0.2``, so paths are short and the
    ring keeps it connected); a link is a sender/receiver pair each way and a transmission
    queue named after the neighbour. Multi-hop routes are queue-manager aliases computed from
    shortest paths: for every *routed* queue manager (the origins and the destinations of the
    targets) each queue manager that is not its neighbour has QREMOTE(dest) RQMNAME(dest)
    XMITQ(next hop). An origin's remote queue definition names its first hop as XMITQ.
cluster
    ``clusters=1`` clusters ``CL01`` ... of contiguous queue managers. In each, two full
    repositories (ALTER QMGR REPOS), a CLUSRCVR ``CLnn.QMnnnn`` on every member, one CLUSSDR
    to a full repository (the full repositories point at each other), every member's
    application queue shared in the cluster, and ``shared=1`` queues ``APP.CLnn.RR.01`` ...
    hosted on ``instances=3`` members each, so that round-robin workload balancing is
    exercised (`GeneratedNetwork.round_robin`). Targets stay inside one cluster.
mixed
    Clusters (default: one per 100 queue managers, at least 2) joined by the gateway
    ``QM0000``, which is a member of every cluster. Every other queue manager has a
    transmission queue ``QM0000``, a sender to the gateway and DEFXMITQ(QM0000): what is not
    in its own cluster goes to the gateway, which forwards it through the right cluster.
    Targets are inside a cluster (the cluster queue is opened directly) or across clusters
    (a remote queue definition on the origin, no XMITQ, so DEFXMITQ applies).

Faults (``faults={"alias_loop": 1, ...}`` or a list of names, each planted once), each recorded
as a `Fault` with a *probe*: a trace (origin, queue to open, queue manager where the symptom
shows) that runs into it. Faults are placed so that no fault lies on another's probe, and
`GeneratedNetwork.targets` keeps only the routes that no fault touches (forward path and the
way back of every report):

alias_loop
    Queue-manager aliases that pass a made-up queue manager name ``QMLOOPnn`` around a cycle
    of 2-3 linked queue managers (hub, mesh). In the cluster topologies, where messages are
    sent by the destination's own name, remote queue definitions ``LOOP.Q.nn`` that point at
    each other around the cycle. A trace goes round until MaxActivities (``-s``) stops it.
remote_def_no_channel
    On an origin, a transmission queue named after another queue manager (``QMnnnn``, or
    ``QMnnnn.DIRECT`` when an alias has that name) with no channel to serve it, and a remote
    queue definition ``APP.Q.nnnn.DIRECT`` that uses it: messages wait on it for ever. (Named
    after the queue manager, it also takes what else the origin sends there by name.)
stopped_channel
    The sender that makes the last hop of some route, stopped (``QueueManager.stopped``; for a
    cluster hop the cluster-sender named after the destination's CLUSRCVR).
missing_target
    A remote queue definition ``APP.Q.nnnn.OLD`` whose RNAME does not exist on the
    destination: the receiving MCA dead-letters it with MQRC_UNKNOWN_OBJECT_NAME.
single_repository
    A cluster whose second full repository is demoted (REPOS removed, CLUSSDRs repointed at
    the first). The simulator does not model repositories: no symptom in a run.
receiver_without_sender
    A receiver channel ``QMa.QMb`` on QMb that no queue manager sends on. No symptom in a run.
old_qmgr
    CMDLEVEL(530): a queue manager without trace-route support in the middle of a route. In a
    mesh a transit queue manager of some route (or, if none is free, a neighbour of an origin
    that a remote queue definition ``APP.Q.nnnn.VIA.rrrr`` sends through); elsewhere a spoke
    or member made a relay (point-to-point channels origin -> relay -> destination, and
    ``APP.Q.nnnn.VIA.rrrr`` on the origin). A trace crosses it only with ``-d yes`` or
    ``-f all`` and shows a discontinuity after it.

Routes are checked statically by `follow`, which walks name resolution and channels as the
simulator does (`traceroute.sim.resolve`), without simulating.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path

from pcf import mqc
from traceroute.sim.mqsc import to_mqsc
from traceroute.sim.network import MQObject, Network, QueueManager
from traceroute.sim.resolve import Chooser, receiving_end, resolve, sending_channel

__all__ = ["DLQ", "FAULT_KINDS", "KINDS", "REPLY_Q", "Fault", "GeneratedNetwork", "Target",
           "Walk", "app_queue", "cluster", "content", "follow", "generate", "hub", "mesh", "mixed",
           "to_mqsc_files"]

#: The reply queue traces name (-rq), defined on every origin.
REPLY_Q = "TRACE.REPLY.Q"
#: The reply queue collects every report of the traces started at its queue manager, a day's
#: worth: defined as deep as MQ allows (the default MAXDEPTH(5000) fills, and then reports
#: go to the dead-letter queue, as they would on a real queue manager).
REPLY_Q_ATTRS = {"MAXDEPTH": "999999999"}
#: Every queue manager's dead-letter queue.
DLQ = "SYSTEM.DEAD.LETTER.QUEUE"
KINDS = ("hub", "mesh", "cluster", "mixed")
FAULT_KINDS = ("alias_loop", "remote_def_no_channel", "stopped_channel", "missing_target",
               "single_repository", "receiver_without_sender", "old_qmgr")
#: CMDLEVEL of the old queue managers (WebSphere MQ 5.3: no trace-route support).
OLD_CMDLEVEL = "530"
MAX_QMGRS = 10_000

#: (origin queue manager, queue name to open there, expected destination queue manager).
Target = tuple[str, str, str]

# follow() outcomes
DELIVERED, WAITING, UNRESOLVED, LOOP = "delivered", "waiting", "unresolved", "loop"


@dataclass(frozen=True)
class Fault:
    """A planted misconfiguration: what, on which queue manager, the objects, and a probe.

    `probe` is a trace that runs into the fault: (origin, queue to open there, the queue
    manager where the symptom shows); None for faults without a symptom in a run.
    """

    kind: str
    qmgr: str
    objects: tuple[str, ...]
    detail: str
    probe: Target | None = None


@dataclass
class GeneratedNetwork:
    """A generated network and what a test or demo needs to know about it."""

    network: Network
    kind: str
    targets: list[Target]
    faults: list[Fault] = field(default_factory=list)
    seed: int = 0
    #: Queue managers where traces start (they define REPLY_Q).
    origins: list[str] = field(default_factory=list)
    #: Cluster name -> its members (cluster topologies).
    clusters: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: (origin, cluster queue, the queue managers hosting it): a put from the origin goes to
    #: one instance after the other.
    round_robin: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)

    def stats(self) -> dict[str, int]:
        """Counts: queue managers, queues, channels, targets, faults."""
        qms = self.network.qmgrs.values()
        return {"qmgrs": len(self.network.qmgrs),
                "queues": sum(len(qm.queues) for qm in qms),
                "channels": sum(len(qm.channels) for qm in qms),
                "targets": len(self.targets), "faults": len(self.faults)}


# --- following a message statically ---------------------------------------------------------


@dataclass(frozen=True)
class Walk:
    """Where a message put to (queue, target) on a queue manager goes, as `follow` sees it.

    `outcome`: DELIVERED (to `queue` on the last queue manager), WAITING (on transmission
    queue `queue` of the last one: no channel serves it, or it is stopped, or has no other
    end), UNRESOLVED (the put or the receiving MCA's put fails with `reason`) or LOOP (still
    moving after `max_hops` channel hops).
    """

    qmgrs: tuple[str, ...]
    outcome: str
    queue: str = ""
    reason: int = 0
    channels: tuple[tuple[str, str], ...] = ()

    @property
    def end(self) -> str:
        """The last queue manager reached."""
        return self.qmgrs[-1]

    def old(self, network: Network) -> list[str]:
        """The queue managers on the way without trace-route support."""
        return [q for q in self.qmgrs if not network.qmgrs[q].supports_trace_route]


def follow(network: Network, qmgr: str, queue: str, target_qmgr: str = "", *,
           choose: Chooser | None = None, max_hops: int = 32) -> Walk:
    """Walk a put of (queue, target_qmgr) on `qmgr` through resolution and channels."""
    qmgrs, channels = [qmgr], []
    here, q, target = qmgr, queue, target_qmgr
    for _ in range(max_hops):
        r = resolve(network, here, q, target, choose=choose)
        if not r.ok:
            return Walk(tuple(qmgrs), UNRESOLVED, q, r.reason, tuple(channels))
        if r.local:
            return Walk(tuple(qmgrs), DELIVERED, r.queue, 0, tuple(channels))
        qm = network.qmgrs[here]
        channel = sending_channel(network, qm, r)
        other = (receiving_end(network, channel, qm, r.remote_qmgr)
                 if channel is not None and qm.channel_running(channel.name) else None)
        if channel is None or other is None:
            return Walk(tuple(qmgrs), WAITING, r.xmitq, 0, tuple(channels))
        channels.append((here, channel.name))
        here, q, target = other.name, r.remote_q, r.remote_qmgr
        qmgrs.append(here)
    return Walk(tuple(qmgrs), LOOP, q, 0, tuple(channels))


# --- building blocks ---------------------------------------------------------------------------


def _conname(qmgr: str) -> str:
    return f"{qmgr.lower()}.example.com(1414)"


class _Builder:
    """The network being generated, with helpers that define objects as MQSC would."""

    def __init__(self, kind: str, count: int, seed: int) -> None:
        if not isinstance(count, int) or not 2 <= count <= MAX_QMGRS:
            raise ValueError(f"qmgrs must be a whole number from 2 to {MAX_QMGRS}, not {count!r}")
        self.kind = kind
        self.seed = seed
        # The seed string names the module's old path: kept so that estates stay the same.
        self.rng = random.Random(f"traceroute.netgen/{kind}/{seed}")
        self.names = [f"QM{i:04d}" for i in range(count)]
        self.network = Network()
        self.origins: list[str] = []
        self.candidates: list[Target] = []
        self.exempt: set[str] = set()  # hubs and gateways: every route crosses them
        self.clusters: dict[str, tuple[str, ...]] = {}
        self.full_repos: dict[str, list[str]] = {}
        self.round_robin: list[tuple[str, str, tuple[str, ...]]] = []
        for name in self.names:
            qm = self.network.qmgr(name)
            qm.attrs["DEADQ"] = DLQ
            self.local(qm, DLQ)
            self.local(qm, app_queue(name))

    def qm(self, name: str) -> QueueManager:
        return self.network.qmgrs[name]

    @staticmethod
    def local(qm: QueueManager, name: str, **attrs: str) -> None:
        qm.queues.setdefault(name, MQObject("QLOCAL", name, dict(attrs)))

    def xmitq(self, qm: QueueManager, name: str) -> None:
        self.local(qm, name, USAGE="XMITQ")

    @staticmethod
    def remote(qm: QueueManager, name: str, rname: str, rqmname: str, xmitq: str = "") -> None:
        attrs = {"RNAME": rname, "RQMNAME": rqmname}
        if xmitq:
            attrs["XMITQ"] = xmitq
        qm.queues[name] = MQObject("QREMOTE", name, attrs)

    @staticmethod
    def qmgr_alias(qm: QueueManager, name: str, rqmname: str, xmitq: str) -> None:
        qm.queues[name] = MQObject("QREMOTE", name, {"RQMNAME": rqmname, "XMITQ": xmitq})

    def link(self, a: str, b: str, xmitq: str | None = None) -> str:
        """a sends to b: transmission queue (named b) and sender on a, receiver on b."""
        xmitq = xmitq or b
        channel = f"{a}.{b}"
        self.xmitq(self.qm(a), xmitq)
        self.qm(a).channels.setdefault(channel, MQObject("CHANNEL", channel, {
            "CHLTYPE": "SDR", "TRPTYPE": "TCP", "CONNAME": _conname(b), "XMITQ": xmitq}))
        self.qm(b).channels.setdefault(channel, MQObject("CHANNEL", channel, {
            "CHLTYPE": "RCVR", "TRPTYPE": "TCP"}))
        return channel

    def pair(self, a: str, b: str) -> None:
        self.link(a, b)
        self.link(b, a)

    def join(self, name: str, cluster_name: str) -> None:
        """A CLUSRCVR for `name` in the cluster."""
        channel = f"{cluster_name}.{name}"
        self.qm(name).channels[channel] = MQObject("CHANNEL", channel, {
            "CHLTYPE": "CLUSRCVR", "TRPTYPE": "TCP", "CONNAME": _conname(name),
            "CLUSTER": cluster_name})

    def clussdr(self, name: str, cluster_name: str, repository: str) -> None:
        channel = f"{cluster_name}.{repository}"
        self.qm(name).channels[channel] = MQObject("CHANNEL", channel, {
            "CHLTYPE": "CLUSSDR", "TRPTYPE": "TCP", "CONNAME": _conname(repository),
            "CLUSTER": cluster_name})

    def build_cluster(self, cluster_name: str, members: list[str], *, instances: int,
                      shared: int, origins: list[str]) -> None:
        """Repositories, channels, every member's queue shared, round-robin queues."""
        self.clusters[cluster_name] = tuple(members)
        repos = members[:2]
        self.full_repos[cluster_name] = list(repos)
        for name in repos:
            self.qm(name).attrs["REPOS"] = cluster_name
        for k, name in enumerate(members):
            self.join(name, cluster_name)
            if name in repos:
                others = [r for r in repos if r != name]
                if others:
                    self.clussdr(name, cluster_name, others[0])
            else:
                self.clussdr(name, cluster_name, repos[k % len(repos)])
            self.qm(name).queues[app_queue(name)].attrs["CLUSTER"] = cluster_name
        mine = [o for o in origins if o in members]
        hosts = [m for m in members if m not in mine] or members[1:]
        for j in range(1, shared + 1):
            queue = f"APP.{cluster_name}.RR.{j:02d}"
            chosen = sorted(self.rng.sample(hosts, min(instances, len(hosts))))
            for name in chosen:
                self.local(self.qm(name), queue, CLUSTER=cluster_name)
            for origin in mine:
                if origin not in chosen and len(chosen) > 1:
                    self.round_robin.append((origin, queue, tuple(chosen)))

    def pick_origins(self, pool: list[str], count: int) -> list[str]:
        count = max(1, min(count, len(pool)))
        chosen = sorted(self.rng.sample(pool, count))
        for name in chosen:
            self.local(self.qm(name), REPLY_Q, **REPLY_Q_ATTRS)
        self.origins = chosen
        return chosen

    def spread(self, count: int, dests: Callable[[str], list[str]]) -> list[Target]:
        """`count` (origin, destination) pairs: origins in turn, each taking its next
        destination from `dests(origin)` (in the order given)."""
        out: list[Target] = []
        pools = {o: deque(dests(o)) for o in self.origins}
        while len(out) < count and any(pools.values()):
            for o in self.origins:
                if pools[o] and len(out) < count:
                    d = pools[o].popleft()
                    out.append((o, app_queue(d), d))
        return out

    def shuffled(self, names: Iterable[str]) -> list[str]:
        out = list(names)
        self.rng.shuffle(out)
        return out


def app_queue(qmgr: str) -> str:
    """The application queue a queue manager hosts: QM0005 -> APP.Q.0005."""
    return f"APP.Q.{qmgr[2:]}"


def _number(qmgr: str) -> str:
    return qmgr[2:]


def _slack(targets: int, faults: Mapping[str, int]) -> int:
    """How many candidate routes to build: the targets, plus spares for faults to use."""
    return targets + 4 * sum(faults.values()) + 8


# --- topologies --------------------------------------------------------------------------------


def hub(qmgrs: int, *, seed: int = 0, faults: object = None, targets: int = 32,
        origins: int = 4, hubs: int = 1) -> GeneratedNetwork:
    """Hub and spoke: spokes reach each other through their hub(s) (see the module doc)."""
    counts = _fault_counts(faults)
    b = _Builder("hub", qmgrs, seed)
    hubs = max(1, min(hubs, qmgrs - 1))
    hub_names, spokes = b.names[:hubs], b.names[hubs:]
    home = {s: hub_names[i % hubs] for i, s in enumerate(spokes)}
    b.exempt = set(hub_names)
    for i, h in enumerate(hub_names):
        for other in hub_names[i + 1:]:
            b.pair(h, other)
    for s in spokes:
        b.pair(s, home[s])
        b.qm(s).attrs["DEFXMITQ"] = home[s]
    for h in hub_names:
        for s in spokes:
            if home[s] != h:
                b.qmgr_alias(b.qm(h), s, s, home[s])
    b.pick_origins(spokes, origins)
    b.candidates = b.spread(_slack(targets, counts),
                            lambda o: b.shuffled(s for s in spokes if s != o))
    for o, queue, d in b.candidates:
        b.remote(b.qm(o), queue, queue, d, home[o])
    return _finish(b, counts, targets)


def _mesh_edges(n: int, k: int, rewire: float, rng: random.Random) -> list[set[int]]:
    half = max(1, k // 2)
    edges = {(min(i, (i + d) % n), max(i, (i + d) % n))
             for i in range(n) for d in range(1, half + 1) if (i + d) % n != i}
    for i, j in sorted(edges):
        if (j - i) % n in (1, n - 1) or rng.random() >= rewire:
            continue  # ring links stay: they keep the mesh connected
        free = [x for x in range(n) if x != i and (min(i, x), max(i, x)) not in edges]
        if free:
            x = rng.choice(free)
            edges.discard((i, j))
            edges.add((min(i, x), max(i, x)))
    adjacency: list[set[int]] = [set() for _ in range(n)]
    for i, j in edges:
        adjacency[i].add(j)
        adjacency[j].add(i)
    return adjacency


def _next_hops(adjacency: list[set[int]], dest: int) -> tuple[list[int], list[int]]:
    """Breadth-first from dest: each node's next hop towards it, and its distance."""
    n = len(adjacency)
    nxt, dist = [-1] * n, [-1] * n
    dist[dest] = 0
    todo = deque([dest])
    while todo:
        x = todo.popleft()
        for y in sorted(adjacency[x]):
            if dist[y] < 0:
                dist[y], nxt[y] = dist[x] + 1, x
                todo.append(y)
    return nxt, dist


def mesh(qmgrs: int, *, seed: int = 0, faults: object = None, targets: int = 32,
         origins: int = 4, neighbours: int = 4, rewire: float = 0.2) -> GeneratedNetwork:
    """A mesh: links to about `neighbours` others, multi-hop routes by queue-manager aliases."""
    counts = _fault_counts(faults)
    b = _Builder("mesh", qmgrs, seed)
    n = qmgrs
    adjacency = _mesh_edges(n, max(2, neighbours), rewire, b.rng)
    for i in range(n):
        for j in sorted(adjacency[i]):
            b.link(b.names[i], b.names[j])
    index = {name: i for i, name in enumerate(b.names)}
    b.pick_origins(b.names, origins)
    hops: dict[int, tuple[list[int], list[int]]] = {}

    def table(dest: int) -> tuple[list[int], list[int]]:
        if dest not in hops:
            hops[dest] = _next_hops(adjacency, dest)
        return hops[dest]

    def dests(o: str) -> list[str]:
        dist = table(index[o])[1]
        far = [b.names[x] for x in range(n) if dist[x] >= 2]
        return b.shuffled(far or [b.names[x] for x in range(n) if dist[x] >= 1])

    b.candidates = b.spread(_slack(targets, counts), dests)
    routed = sorted({index[o] for o in b.origins} | {index[d] for _, _, d in b.candidates})
    for dest in routed:
        nxt = table(dest)[0]
        for x in range(n):
            if x != dest and dest not in adjacency[x]:
                b.qmgr_alias(b.qm(b.names[x]), b.names[dest], b.names[dest], b.names[nxt[x]])
    for o, queue, d in b.candidates:
        b.remote(b.qm(o), queue, queue, d, b.names[table(index[d])[0][index[o]]])
    return _finish(b, counts, targets, adjacency=adjacency)


def _blocks(names: list[str], parts: int) -> list[list[str]]:
    size, extra = divmod(len(names), parts)
    out, start = [], 0
    for p in range(parts):
        end = start + size + (1 if p < extra else 0)
        out.append(names[start:end])
        start = end
    return out


def _cluster_name(k: int) -> str:
    return f"CL{k + 1:02d}"


def cluster(qmgrs: int, *, seed: int = 0, faults: object = None, targets: int = 32,
            origins: int = 4, clusters: int = 1, instances: int = 3,
            shared: int = 1) -> GeneratedNetwork:
    """Clusters of contiguous queue managers; targets stay inside a cluster."""
    counts = _fault_counts(faults)
    if not 1 <= clusters <= qmgrs // 2:
        raise ValueError(f"{clusters} clusters need at least {2 * clusters} queue managers "
                         "(two full repositories each)")
    b = _Builder("cluster", qmgrs, seed)
    blocks = _blocks(b.names, clusters)
    member_of = {m: _cluster_name(k) for k, block in enumerate(blocks) for m in block}
    pool = [name for block in blocks for name in block]
    _origins_across(b, blocks, origins)
    for k, block in enumerate(blocks):
        b.build_cluster(_cluster_name(k), block, instances=instances, shared=shared,
                        origins=b.origins)
    b.candidates = b.spread(_slack(targets, counts), lambda o: b.shuffled(
        m for m in pool if m != o and member_of[m] == member_of[o]))
    return _finish(b, counts, targets)


def _origins_across(b: _Builder, blocks: list[list[str]], count: int) -> None:
    """Origins spread over the blocks (clusters) in turn, at random inside each."""
    count = max(1, min(count, sum(len(x) for x in blocks)))
    pools = [b.rng.sample(block, len(block)) for block in blocks]
    chosen: list[str] = []
    while len(chosen) < count:
        for pool in pools:
            if pool and len(chosen) < count:
                chosen.append(pool.pop())
    for name in chosen:
        b.local(b.qm(name), REPLY_Q, **REPLY_Q_ATTRS)
    b.origins = sorted(chosen)


def mixed(qmgrs: int, *, seed: int = 0, faults: object = None, targets: int = 32,
          origins: int = 4, clusters: int | None = None, instances: int = 3,
          shared: int = 1) -> GeneratedNetwork:
    """Clusters joined by the gateway QM0000, a member of every cluster (see the module doc)."""
    counts = _fault_counts(faults)
    if clusters is None:
        clusters = max(2, round((qmgrs - 1) / 100))
    clusters = max(1, min(clusters, (qmgrs - 1) // 2))
    if qmgrs < 3:
        raise ValueError("a mixed network needs a gateway and a cluster of two: 3 or more")
    b = _Builder("mixed", qmgrs, seed)
    gateway, rest = b.names[0], b.names[1:]
    b.exempt = {gateway}
    blocks = _blocks(rest, clusters)
    member_of = {m: _cluster_name(k) for k, block in enumerate(blocks) for m in block}
    _origins_across(b, blocks, origins)
    for k, block in enumerate(blocks):
        name = _cluster_name(k)
        b.build_cluster(name, block, instances=instances, shared=shared, origins=b.origins)
        b.join(gateway, name)
        b.clussdr(gateway, name, block[0])
    for m in rest:
        b.link(m, gateway)
        b.qm(m).attrs["DEFXMITQ"] = gateway

    def dests(o: str) -> list[str]:  # inside the origin's cluster and across, in turn
        inside = b.shuffled(m for m in rest if m != o and member_of[m] == member_of[o])
        across = b.shuffled(m for m in rest if member_of[m] != member_of[o])
        return [d for pair in zip_longest(inside, across) for d in pair if d is not None]

    b.candidates = b.spread(_slack(targets, counts), dests)
    for o, queue, d in b.candidates:
        if member_of[d] != member_of[o]:
            b.remote(b.qm(o), queue, queue, d)  # no XMITQ: DEFXMITQ takes it to the gateway
    return _finish(b, counts, targets)


_TOPOLOGIES: dict[str, Callable[..., GeneratedNetwork]] = {
    "hub": hub, "mesh": mesh, "cluster": cluster, "mixed": mixed}


def generate(kind: str, qmgrs: int, *, seed: int = 0, faults: object = None,
             targets: int = 32, origins: int = 4, **options: object) -> GeneratedNetwork:
    """A network of `kind` (hub, mesh, cluster, mixed) with `qmgrs` queue managers.

    `faults`: {fault kind: count} or a list of fault kinds; `targets`: how many clean routes
    to list (fewer when the network has not that many); `origins`: how many queue managers
    traces start from. Other options go to the topology (hubs, neighbours, rewire, clusters,
    instances, shared). The same arguments give the same network.
    """
    if kind not in _TOPOLOGIES:
        raise ValueError(f"unknown topology {kind!r}: one of {', '.join(KINDS)}")
    return _TOPOLOGIES[kind](qmgrs, seed=seed, faults=faults, targets=targets,
                             origins=origins, **options)


# --- checking routes, planting faults ----------------------------------------------------------


def _fault_counts(faults: object) -> dict[str, int]:
    if faults is None:
        return {}
    if isinstance(faults, str):
        faults = [faults]
    counts: dict[str, int] = {}
    if isinstance(faults, Mapping):
        items = list(faults.items())
    elif isinstance(faults, Iterable):
        items = [(name, 1) for name in faults]
    else:
        raise TypeError("faults: a {kind: count} mapping or a list of fault kinds")
    for name, count in items:
        if name not in FAULT_KINDS:
            raise ValueError(f"unknown fault {name!r}: one of {', '.join(FAULT_KINDS)}")
        if not isinstance(count, int) or count < 0:
            raise ValueError(f"fault {name}: count {count!r} is not a whole number >= 0")
        counts[name] = counts.get(name, 0) + count
    return {name: counts[name] for name in FAULT_KINDS if counts.get(name)}


class _Checker:
    """Static route checks, with the ways back (report routes) cached."""

    def __init__(self, network: Network) -> None:
        self.network = network
        self._back: dict[tuple[str, str], Walk] = {}

    def back(self, qmgr: str, origin: str) -> Walk:
        """How a report from `qmgr` reaches REPLY_Q on `origin`."""
        key = (qmgr, origin)
        if key not in self._back:
            self._back[key] = follow(self.network, qmgr, REPLY_Q, origin)
        return self._back[key]

    def forget(self) -> None:
        self._back.clear()

    def returns_ok(self, route: Walk, origin: str) -> bool:
        """Every queue manager that records an activity on `route` can report to `origin`."""
        for q in set(route.qmgrs):
            if not self.network.qmgrs[q].supports_trace_route:
                continue
            back = self.back(q, origin)
            if back.outcome != DELIVERED or back.end != origin:
                return False
        return True

    def clean(self, target: Target, choose: Chooser | None = None) -> bool:
        """The trace reaches its destination past no fault, and every report gets back."""
        origin, queue, dest = target
        route = follow(self.network, origin, queue, choose=choose)
        return (route.outcome == DELIVERED and route.end == dest
                and not route.old(self.network) and self.returns_ok(route, origin))

    def touched(self, route: Walk, origin: str) -> set[str]:
        """The queue managers a probe depends on: its path and its reports' ways back."""
        out = set(route.qmgrs)
        for q in route.qmgrs:
            out |= set(self.back(q, origin).qmgrs)
        return out


class _Planter:
    """Plants faults one after the other so that none lies on another's probe.

    `probed`: the queue managers earlier probes depend on (path and report routes); a fault
    may not change them. `affected`: the queue managers whose routing a fault changed; a
    later probe may not depend on them. Hubs and gateways are exempt (every route crosses
    them): what is planted there only concerns one destination, which is checked instead.
    """

    def __init__(self, b: _Builder, adjacency: list[set[int]] | None) -> None:
        self.b = b
        self.network = b.network
        self.adjacency = adjacency
        self.check = _Checker(b.network)
        self.affected: set[str] = set()
        self.probed: set[str] = set()
        self.faults: list[Fault] = []
        self.expected: list[tuple[Fault, tuple[str, str, int]]] = []
        self.counter: dict[str, int] = {}

    def number(self, kind: str) -> int:
        self.counter[kind] = self.counter.get(kind, 0) + 1
        return self.counter[kind]

    def usable(self) -> list[tuple[Target, Walk]]:
        """Candidate routes that work now and cross nothing a fault changed, in random order."""
        out = []
        for target in self.b.candidates:
            route = follow(self.network, target[0], target[1])
            if route.outcome == DELIVERED and route.end == target[2] and \
                    not route.old(self.network) and \
                    not (self.check.touched(route, target[0]) - self.b.exempt) & self.affected:
                out.append((target, route))
        self.b.rng.shuffle(out)
        return out

    def may_change(self, *names: str) -> bool:
        return not (set(names) - self.b.exempt) & self.probed

    def done(self, fault: Fault, affected: Iterable[str], *,
             expect: tuple[str, str, int] | None = None, protect: Iterable[str] = ()) -> None:
        """Record the fault; check that its probe ends as expected: (outcome, where, reason).

        `protect`: more queue managers later faults must leave alone (where the probe goes
        once its fault is repaired)."""
        self.check.forget()
        self.affected |= set(affected) - self.b.exempt
        self.probed |= set(protect) - self.b.exempt
        if fault.probe is not None and expect is not None:
            route = follow(self.network, fault.probe[0], fault.probe[1])
            if (route.outcome, route.end, route.reason) != expect:
                raise AssertionError(f"{fault.kind} probe {fault.probe} ends {route}, "
                                     f"not {expect}")
            if not self.check.returns_ok(route, fault.probe[0]):
                raise AssertionError(f"the reports of {fault.kind} probe {fault.probe} "
                                     "cannot come back")
            self.probed |= self.check.touched(route, fault.probe[0]) - self.b.exempt
            self.expected.append((fault, expect))
        self.faults.append(fault)

    def verify(self) -> None:
        """Every probe still ends as planted, and its reports can come back."""
        self.check.forget()
        for fault, expect in self.expected:
            assert fault.probe is not None
            route = follow(self.network, fault.probe[0], fault.probe[1])
            if (route.outcome, route.end, route.reason) != expect or \
                    not self.check.returns_ok(route, fault.probe[0]):
                raise AssertionError(f"a later fault changed the probe of {fault}: {route}")

    def plant(self, kind: str) -> None:
        if not getattr(self, kind)():
            raise ValueError(f"cannot place another {kind} fault in this {self.b.kind} network "
                             f"of {len(self.b.names)} queue managers: too few free routes")

    # each returns True when it placed its fault

    def alias_loop(self) -> bool:
        k = self.number("alias_loop")
        for (origin, _queue, _dest), _route in self.usable():
            cycle = self._cycle(origin)
            if cycle is None:
                continue
            ring = " -> ".join([*cycle, cycle[0]])
            nexts = [*cycle[1:], cycle[0]]
            if self.b.kind in ("cluster", "mixed"):
                name = f"LOOP.Q.{k:02d}"
                for a, nxt in zip(cycle, nexts, strict=True):
                    self.b.remote(self.b.qm(a), name, name, nxt)
                objects = (name,)
                detail = f"remote queue definitions {name} pass it round {ring}"
            else:
                loop = f"QMLOOP{k:02d}"
                for a, nxt in zip(cycle, nexts, strict=True):
                    self.b.qmgr_alias(self.b.qm(a), loop, loop, nxt)
                name = f"APP.LOOP.{k:02d}"
                self.b.remote(self.b.qm(origin), name, "APP.Q.LOOP", loop, cycle[1])
                objects = (name, loop)
                detail = (f"queue-manager aliases {loop} pass it round {ring}; {name} on "
                          f"{origin} sends to {loop}")
            route = follow(self.network, origin, name)
            self.done(Fault("alias_loop", origin, objects, detail, (origin, name, origin)),
                      [], expect=(LOOP, route.end, 0))
            return True
        return False

    def _cycle(self, origin: str) -> list[str] | None:
        """2-3 queue managers that can send to each other in a ring, starting at origin."""
        b = self.b
        if b.kind == "hub":
            home = b.qm(origin).attrs.get("DEFXMITQ")
            return [origin, home] if home else None
        if b.kind == "mesh" and self.adjacency is not None:
            near = sorted(self.adjacency[b.names.index(origin)])
            for x in near:
                for y in near:
                    if x < y and y in self.adjacency[x]:
                        return [origin, b.names[x], b.names[y]]
            return [origin, b.names[near[0]]] if near else None
        members = next((m for m in b.clusters.values() if origin in m), ())
        others = [m for m in members if m != origin and m not in self.affected]
        if not others:
            return None
        return [origin, *sorted(b.rng.sample(others, min(2, len(others))))]

    def remote_def_no_channel(self) -> bool:
        for (origin, _queue, _dest), _route in self.usable():
            qm = self.b.qm(origin)
            dests = [d for d in self.b.names if d != origin and self.may_change(d)
                     and f"{app_queue(d)}.DIRECT" not in qm.queues]
            if not dests:
                continue
            # named after the destination when that name is free (a mesh has aliases there)
            free = [d for d in dests if d not in qm.queues]
            dest = self.b.rng.choice(free or dests)
            xmitq = dest if free else f"{dest}.DIRECT"
            name = f"{app_queue(dest)}.DIRECT"
            self.b.xmitq(qm, xmitq)
            self.b.remote(qm, name, app_queue(dest), dest, xmitq)
            # only what goes from origin to dest changes: dest stands for it
            self.done(Fault("remote_def_no_channel", origin, (name, xmitq),
                            f"{name} on {origin} uses transmission queue {xmitq}, which no "
                            "channel serves", (origin, name, origin)), [dest],
                      expect=(WAITING, origin, 0))
            return True
        return False

    def stopped_channel(self) -> bool:
        for (origin, queue, dest), route in self.usable():
            if not route.channels:
                continue
            sender, channel = route.channels[-1]
            # a hub's channel to a spoke carries only what goes to that spoke
            hit = dest if sender in self.b.exempt else sender
            if not self.may_change(hit):
                continue
            whole = self.check.touched(route, origin)  # where it goes once started
            self.b.qm(sender).stopped.add(channel)
            self.done(Fault("stopped_channel", sender, (channel,),
                            f"sender channel {channel} on {sender} is stopped: what goes to "
                            f"{dest} that way waits on {sender}", (origin, queue, sender)),
                      [hit], expect=(WAITING, sender, 0), protect=whole)
            return True
        return False

    def missing_target(self) -> bool:
        for (origin, queue, dest), _route in self.usable():
            qm = self.b.qm(origin)
            name = f"{app_queue(dest)}.OLD"
            if name in qm.queues:
                continue
            existing = qm.queues.get(queue)
            xmitq = existing.get("XMITQ") if existing is not None else ""
            self.b.remote(qm, name, name, dest, xmitq)
            self.done(Fault("missing_target", origin, (name,),
                            f"{name} on {origin} names queue {name} on {dest}, which does not "
                            "exist there", (origin, name, dest)), [],
                      expect=(UNRESOLVED, dest, mqc.MQRC_UNKNOWN_OBJECT_NAME))
            return True
        return False

    def single_repository(self) -> bool:
        b = self.b
        for cluster_name, repos in b.full_repos.items():
            if len(repos) < 2:
                continue
            keep, demote = repos
            to_demote = f"{cluster_name}.{demote}"
            b.qm(demote).attrs.pop("REPOS", None)
            moved = []
            for name, qm in b.network.qmgrs.items():
                channel = qm.channels.get(to_demote)
                if channel is not None and channel.get("CHLTYPE") == "CLUSSDR":
                    del qm.channels[to_demote]
                    if name != keep:
                        b.clussdr(name, cluster_name, keep)
                        moved.append(name)
            repos[:] = [keep]
            self.done(Fault("single_repository", keep, (cluster_name,),
                            f"cluster {cluster_name} has one full repository, {keep}: {demote} "
                            f"was demoted and {len(moved)} CLUSSDR channel(s) repointed"), [])
            return True
        return False

    def receiver_without_sender(self) -> bool:
        b = self.b
        for _ in range(1000):
            a, c = b.rng.sample(b.names, 2)
            channel = f"{a}.{c}"
            if any(channel in qm.channels for qm in self.network.qmgrs.values()):
                continue
            b.qm(c).channels[channel] = MQObject("CHANNEL", channel, {
                "CHLTYPE": "RCVR", "TRPTYPE": "TCP"})
            self.done(Fault("receiver_without_sender", c, (channel,),
                            f"receiver {channel} on {c}: {a} has no sender of that name"), [])
            return True
        return False

    def old_qmgr(self) -> bool:
        b = self.b
        usable = self.usable()
        if b.kind == "mesh":  # a transit queue manager of some route
            for (origin, queue, dest), route in usable:
                middle = [q for q in route.qmgrs[1:-1] if q not in b.origins]
                relay = middle[len(middle) // 2] if middle else ""
                if relay and self.may_change(relay) and relay not in self.affected:
                    b.qm(relay).attrs["CMDLEVEL"] = OLD_CMDLEVEL
                    self.done(Fault("old_qmgr", relay, (relay,), f"{relay} (CMDLEVEL "
                                    f"{OLD_CMDLEVEL}) is on the route {origin} -> {dest}",
                                    (origin, queue, dest)), [relay],
                              expect=(DELIVERED, dest, 0))
                    return True
        for (origin, _queue, dest), _route in usable:
            pool = [q for q in b.names if q not in b.exempt and q not in b.origins
                    and q not in (origin, dest) and self.may_change(q)
                    and q not in self.affected]
            name = ""
            if self.adjacency is not None:  # a neighbour relays; the mesh's aliases go on
                near = {b.names[x] for x in self.adjacency[b.names.index(origin)]}
                pool = [q for q in pool if q in near and self._onward_free(q, origin, dest)]
            if not pool:
                continue
            relay = b.rng.choice(pool)
            b.qm(relay).attrs["CMDLEVEL"] = OLD_CMDLEVEL
            name = f"{app_queue(dest)}.VIA.{_number(relay)}"
            if self.adjacency is not None:
                channels: tuple[str, ...] = ()
            else:
                channels = (b.link(origin, relay), b.link(relay, dest))
            b.remote(b.qm(origin), name, app_queue(dest), dest, relay)
            self.done(Fault("old_qmgr", relay, (relay, name, *channels),
                            f"{relay} (CMDLEVEL {OLD_CMDLEVEL}) relays {name} from {origin} "
                            f"to {dest}" + (f" over {' and '.join(channels)}" if channels
                                            else ""), (origin, name, dest)), [relay],
                      expect=(DELIVERED, dest, 0))
            return True
        return False


    def _onward_free(self, relay: str, origin: str, dest: str) -> bool:
        """relay already reaches dest, by a way that crosses nothing a fault changed."""
        onward = follow(self.network, relay, app_queue(dest), dest)
        return onward.outcome == DELIVERED and onward.end == dest and \
            not onward.old(self.network) and \
            not (self.check.touched(onward, origin) - self.b.exempt) & self.affected


def _finish(b: _Builder, counts: Mapping[str, int], targets: int, *,
            adjacency: list[set[int]] | None = None) -> GeneratedNetwork:
    """Plant the faults, keep the clean targets and round-robin queues."""
    if counts.get("single_repository") and not b.full_repos:
        raise ValueError(f"single_repository needs clusters; a {b.kind} network has none")
    planter = _Planter(b, adjacency)
    for kind, count in counts.items():
        for _ in range(count):
            planter.plant(kind)
    planter.verify()
    check = _Checker(b.network)
    clean = [t for t in b.candidates if check.clean(t)][:targets]
    round_robin = []
    for origin, queue, hosts in b.round_robin:
        if all(check.clean((origin, queue, host), lambda _q, _n, _c, i=i: i)
               for i, host in enumerate(hosts)):
            round_robin.append((origin, queue, hosts))
    return GeneratedNetwork(b.network, b.kind, clean, planter.faults, b.seed,
                            list(b.origins), dict(b.clusters), round_robin)


# --- output ------------------------------------------------------------------------------------


def to_mqsc_files(gen: GeneratedNetwork, folder: str | Path) -> list[Path]:
    """One dmpmqcfg-style MQSC file per queue manager (``qm0005.mqsc``) in `folder`."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, qm in gen.network.qmgrs.items():
        path = folder / f"{name.lower()}.mqsc"
        path.write_text(to_mqsc(Network({name: qm})), encoding="utf-8")
        out.append(path)
    return out


def content(network: Network) -> dict[str, tuple]:
    """What a network defines, comparable with ==: everything but where objects were read."""
    def objects(store: Mapping) -> dict:
        return {key: (obj.kind, dict(obj.attrs)) for key, obj in store.items()}

    return {name: (dict(qm.attrs), objects(qm.queues), objects(qm.channels),
                   objects(qm.others), sorted(qm.stopped))
            for name, qm in network.qmgrs.items()}
