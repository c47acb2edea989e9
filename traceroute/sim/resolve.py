"""Queue name resolution as a queue manager does it: pure functions over a Network.

Given the queue and queue-manager names an application (or an MCA) opens, say where a put
goes: a local queue, or a transmission queue with the destination in its header, or why
the open fails (the MQRC_* reason MQ gives).

Loops: a remote queue definition whose RQMNAME is blank or this queue manager is followed
here to its RNAME on this queue manager (MQ itself refuses such a definition at once with
MQRC_UNKNOWN_REMOTE_Q_MGR, 2087: "ObjectName is the name of a local definition of a remote
queue (or an alias to one), for which RemoteQMgrName is either blank or the name of the
local queue manager" — the Unknown Remote Queue Manager event). When such definitions lead
back to a name already on the path (X -> Y -> X), resolution stops there with that same
reason, 2087, instead of recursing: MQ would have given it at the first step of the loop.
`local_loop` names the definitions of such a loop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pcf import mqc
from traceroute.sim.network import MQObject, Network, QueueManager, cached

CLUSTER_XMITQ = "SYSTEM.CLUSTER.TRANSMIT.QUEUE"

#: Chooses one of several cluster instances: (opening qmgr, queue name, candidates) -> index.
Chooser = Callable[[str, str, list[str]], int]


@dataclass(frozen=True, slots=True)
class Resolution:
    """Where a put goes. `xmitq` set: to that transmission queue, for remote_q at remote_qmgr.

    `reason` non-zero: the open fails with that MQRC_* code (nothing else is meaningful).
    """

    qmgr: str
    queue: str = ""
    xmitq: str = ""
    remote_q: str = ""
    remote_qmgr: str = ""
    channel: str = ""
    reason: int = 0
    via_remote_definition: bool = False

    @property
    def ok(self) -> bool:
        """True when the put can happen."""
        return self.reason == 0

    @property
    def local(self) -> bool:
        """True for a put to a local (non-transmission) queue."""
        return self.ok and not self.xmitq


def _fail(qm: QueueManager, reason: int) -> Resolution:
    return Resolution(qm.name, reason=reason)


def clusters_of(qm: QueueManager) -> frozenset[str]:
    """The clusters a queue manager belongs to (by its cluster channels)."""
    return cached(qm, "clusters", lambda: frozenset(
        ch.cluster for ch in qm.channels.values()
        if ch.get("CHLTYPE") in ("CLUSRCVR", "CLUSSDR") and ch.cluster))


def _cluster_receivers(qm: QueueManager) -> list[MQObject]:
    """qm's CLUSRCVR channels with a cluster, in definition order."""
    return cached(qm, "clusrcvr", lambda: [
        ch for ch in qm.channels.values() if ch.get("CHLTYPE") == "CLUSRCVR" and ch.cluster])


def cluster_receiver(network: Network, qmgr: str, clusters: set[str] | frozenset[str]
                     ) -> MQObject | None:
    """The CLUSRCVR channel by which `qmgr` is reached in one of `clusters`."""
    target = network.qmgrs.get(qmgr)
    if target is None:
        return None
    return next((ch for ch in _cluster_receivers(target) if ch.cluster in clusters), None)


def _cluster_instances(network: Network, qm: QueueManager, name: str) -> list[str]:
    """Queue managers hosting cluster queue `name` in a cluster `qm` belongs to."""
    mine = clusters_of(qm)
    return sorted(other.name for other, q in network.shared_queues(name)
                  if q.cluster in mine
                  and (other is qm or cluster_receiver(network, other.name, mine)))


def transmission_queue(network: Network, qm: QueueManager, remote_qmgr: str,
                       xmitq: str = "") -> Resolution:
    """How `qm` sends to `remote_qmgr`: the xmitq (named, same-named, default or cluster)."""
    if xmitq:
        q = qm.queues.get(xmitq)
        if q is None:
            return _fail(qm, mqc.MQRC_UNKNOWN_XMIT_Q)
        if q.kind != "QLOCAL":  # MQ: XmitQName names a queue that is not a local queue
            return _fail(qm, mqc.MQRC_XMIT_Q_TYPE_ERROR)
        if q.get("USAGE") != "XMITQ":
            return _fail(qm, mqc.MQRC_XMIT_Q_USAGE_ERROR)
        return Resolution(qm.name, xmitq=xmitq, remote_qmgr=remote_qmgr)
    same = qm.queues.get(remote_qmgr)
    if same is not None and same.kind == "QLOCAL":
        if same.get("USAGE") != "XMITQ":  # MQ uses the queue of that name, and it is no xmitq
            return _fail(qm, mqc.MQRC_XMIT_Q_USAGE_ERROR)
        return Resolution(qm.name, xmitq=remote_qmgr, remote_qmgr=remote_qmgr)
    receiver = cluster_receiver(network, remote_qmgr, clusters_of(qm))
    if receiver is not None and remote_qmgr != qm.name:
        return Resolution(qm.name, xmitq=CLUSTER_XMITQ, remote_qmgr=remote_qmgr,
                          channel=receiver.name)
    if qm.defxmitq:
        return transmission_queue(network, qm, remote_qmgr, qm.defxmitq)
    return _fail(qm, mqc.MQRC_UNKNOWN_REMOTE_Q_MGR)


def resolve(network: Network, qmgr: str, queue: str, target_qmgr: str = "", *,
            choose: Chooser | None = None) -> Resolution:
    """Resolve an open of (queue, target_qmgr) on `qmgr`, as MQ's name resolution does."""
    qm = network.qmgrs.get(qmgr)
    if qm is None:
        raise KeyError(f"no queue manager {qmgr!r} in the network")
    target = target_qmgr or qm.name
    if target == qm.name:
        return _resolve_local(network, qm, queue, choose)
    alias = qm.queues.get(target)
    if alias is not None and alias.kind == "QREMOTE" and not alias.get("RNAME"):
        # a queue-manager alias, substituted once: RQMNAME replaces the name; its XMITQ is
        # used unless the new name is this queue manager (then the put is local)
        target = alias.get("RQMNAME") or qm.name
        if target == qm.name:
            return _resolve_local(network, qm, queue, choose)
        if alias.get("XMITQ"):
            return _to(transmission_queue(network, qm, target, alias.get("XMITQ")), queue,
                       target)
    return _to(transmission_queue(network, qm, target), queue, target)


def _to(r: Resolution, queue: str, qmgr: str) -> Resolution:
    if not r.ok:
        return r
    return Resolution(r.qmgr, r.xmitq, r.xmitq, queue, qmgr, r.channel)


def _resolve_local(network: Network, qm: QueueManager, name: str,
                   choose: Chooser | None, *, alias_base: bool = False,
                   seen: set[str] | None = None) -> Resolution:
    seen = set() if seen is None else seen
    while True:  # iterative: a chain of local remote definitions is followed without recursing
        if name in seen:  # definitions leading round in a loop on this queue manager
            return _fail(qm, mqc.MQRC_UNKNOWN_REMOTE_Q_MGR)
        seen.add(name)
        obj = qm.queues.get(name)
        if obj is None or obj.kind == "QMODEL":
            instances = _cluster_instances(network, qm, name)
            if not instances:
                return _fail(qm, mqc.MQRC_UNKNOWN_OBJECT_NAME)
            pick = 0 if len(instances) == 1 else (choose or (lambda *_: 0))(qm.name, name,
                                                                            instances)
            chosen = instances[pick]
            if chosen == qm.name:
                return Resolution(qm.name, name)
            return _to(transmission_queue(network, qm, chosen), name, chosen)
        if obj.kind == "QLOCAL":
            return Resolution(qm.name, name)
        if obj.kind == "QALIAS":
            if alias_base:
                return _fail(qm, mqc.MQRC_ALIAS_BASE_Q_TYPE_ERROR)
            if obj.get("TARGTYPE", "QUEUE") != "QUEUE":
                return _fail(qm, mqc.MQRC_ALIAS_BASE_Q_TYPE_ERROR)
            base = obj.get("TARGET")
            if not base:
                return _fail(qm, mqc.MQRC_UNKNOWN_ALIAS_BASE_Q)
            # one level only: a second alias on the way fails (alias_base)
            r = _resolve_local(network, qm, base, choose, alias_base=True, seen=seen)
            if r.reason == mqc.MQRC_UNKNOWN_OBJECT_NAME:
                return _fail(qm, mqc.MQRC_UNKNOWN_ALIAS_BASE_Q)
            return r
        # QREMOTE with RNAME: a remote queue definition
        rname, rqmname = obj.get("RNAME"), obj.get("RQMNAME")
        if not rname:
            return _fail(qm, mqc.MQRC_UNKNOWN_OBJECT_NAME)  # a queue-manager alias
        if not rqmname or rqmname == qm.name:
            if obj.get("XMITQ"):
                return _fail(qm, mqc.MQRC_XMIT_Q_USAGE_ERROR)
            name = rname
            continue
        r = transmission_queue(network, qm, rqmname, obj.get("XMITQ"))
        if not r.ok:
            return r
        resolved = _to(r, rname, rqmname)
        return Resolution(resolved.qmgr, resolved.queue, resolved.xmitq, resolved.remote_q,
                          resolved.remote_qmgr, resolved.channel, 0, True)


def local_loop(qm: QueueManager, name: str) -> list[str]:
    """The definitions an open of `name` on `qm` goes round, in order, if it loops; else []."""
    path: list[str] = []
    while name not in path:
        obj = qm.queues.get(name)
        if obj is None:
            return []
        path.append(name)
        if obj.kind == "QALIAS":
            name = obj.get("TARGET")
        elif obj.kind == "QREMOTE" and obj.get("RNAME") and obj.get("RQMNAME") in ("", qm.name):
            name = obj.get("RNAME")
        else:
            return []
    return path[path.index(name):]


def qmgr_alias_loop(qm: QueueManager, name: str) -> list[str]:
    """The queue-manager aliases on `qm` that name each other round from `name`; else [].

    QMA with RQMNAME(QMB) and QMB with RQMNAME(QMA): neither leads anywhere (MQ takes the
    RQMNAME of one alias as a queue manager or transmission queue name, not as another
    alias). An alias naming itself (QREMOTE(QMX) RQMNAME(QMX) XMITQ(...)) is no loop.
    """
    path: list[str] = []
    while name not in path:
        obj = qm.queues.get(name)
        if obj is None or obj.kind != "QREMOTE" or obj.get("RNAME"):
            return []
        path.append(name)
        target = obj.get("RQMNAME")
        if not target or target == name or target == qm.name:
            return []
        name = target
    return path[path.index(name):]


def sending_channel(network: Network, qm: QueueManager, r: Resolution) -> MQObject | None:
    """The channel that serves r's transmission queue on `qm` (SDR/SVR, or the CLUSSDR)."""
    if r.xmitq == CLUSTER_XMITQ:
        receiver = cluster_receiver(network, r.remote_qmgr, clusters_of(qm))
        return receiver
    return _senders(qm).get(r.xmitq)


def _senders(qm: QueueManager) -> dict[str, MQObject]:
    """qm's SDR/SVR channels by transmission queue (the first by name where several serve)."""
    def index() -> dict[str, MQObject]:
        out: dict[str, MQObject] = {}
        for ch in sorted(qm.channels.values(), key=lambda c: c.name):
            if ch.get("CHLTYPE") in ("SDR", "SVR"):
                out.setdefault(ch.get("XMITQ"), ch)
        return out
    return cached(qm, "senders", index)


def receiving_end(network: Network, channel: MQObject, sender: QueueManager,
                  remote_qmgr: str) -> QueueManager | None:
    """The queue manager at the other end of a sending channel (its RCVR/RQSTR/CLUSRCVR)."""
    if channel.get("CHLTYPE") == "CLUSRCVR":
        return network.qmgrs.get(remote_qmgr)
    ends = [qm for qm in network.receivers(channel.name) if qm is not sender]
    if len(ends) > 1:
        named = [qm for qm in ends if qm.name == remote_qmgr]
        return named[0] if named else ends[0]
    return ends[0] if ends else None
