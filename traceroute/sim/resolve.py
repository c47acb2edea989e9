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
from traceroute.sim.network import (
    MQObject,
    Network,
    QueueManager,
    cached,
    kept,
    queue_changes,
)

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
    #: A failed resolution: the other object the reason is about (the transmission queue
    #: of 2091/2092/2196-2199, the alias's base queue of 2001/2082), and its MQQT_* type.
    related: str = ""
    related_type: int = 0
    #: A failed resolution for which MQ writes no queue manager event (a model queue named
    #: on an MQPUT1: 2057 without a queue-manager alias on the way).
    quiet: bool = False
    #: MQRC_NOT_AUTHORIZED: the MQRQ_* of the authority check that failed.
    qualifier: int = 0

    @property
    def ok(self) -> bool:
        """True when the put can happen."""
        return self.reason == 0

    @property
    def local(self) -> bool:
        """True for a put to a local (non-transmission) queue."""
        return self.ok and not self.xmitq


_LOCAL: dict[tuple[str, str], Resolution] = {}


def local_resolution(qmgr: str, queue: str) -> Resolution:
    """Resolution(qmgr, queue), a put to a local queue: one value per (qmgr, queue), made
    once (a frozen dataclass of 14 fields costs a microsecond to build; it is immutable)."""
    key = (qmgr, queue)
    r = _LOCAL.get(key)
    if r is None:
        if len(_LOCAL) >= 65536:  # bounded: estates with ever new dynamic queues
            _LOCAL.clear()
        r = _LOCAL[key] = Resolution(qmgr, queue)
    return r


def _fail(qm: QueueManager, reason: int, related: str = "", related_type: int = 0,
          quiet: bool = False) -> Resolution:
    return Resolution(qm.name, reason=reason, related=related, related_type=related_type,
                      quiet=quiet)


#: MQSC object kind -> MQQT_* queue type.
QUEUE_TYPES = {"QLOCAL": mqc.MQQT_LOCAL, "QMODEL": mqc.MQQT_MODEL, "QALIAS": mqc.MQQT_ALIAS,
               "QREMOTE": mqc.MQQT_REMOTE}


def _type(obj: MQObject) -> int:
    return QUEUE_TYPES.get(obj.kind, 0)


def clusters_of(qm: QueueManager) -> frozenset[str]:
    """The clusters a queue manager belongs to (by its cluster channels)."""
    found = kept(qm, "clusters")
    if found is not None:
        return found  # type: ignore[return-value]
    return cached(qm, "clusters", lambda: frozenset(
        ch.cluster for ch in qm.channels.values()
        if ch.get("CHLTYPE") in ("CLUSRCVR", "CLUSSDR") and ch.cluster))


def _cluster_receivers(qm: QueueManager) -> list[MQObject]:
    """qm's CLUSRCVR channels with a cluster, in definition order."""
    found = kept(qm, "clusrcvr")
    if found is not None:
        return found  # type: ignore[return-value]
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
    """How `qm` sends to `remote_qmgr`: the xmitq (named, same-named, default or cluster).

    A named XMITQ that is missing, not a local queue or not USAGE(XMITQ) fails with
    MQRC_UNKNOWN_XMIT_Q (2196), MQRC_XMIT_Q_TYPE_ERROR (2091) or MQRC_XMIT_Q_USAGE_ERROR
    (2092); the default transmission queue (DEFXMITQ) likewise with MQ's own reasons for it,
    MQRC_UNKNOWN_DEF_XMIT_Q (2197), MQRC_DEF_XMIT_Q_TYPE_ERROR (2198) and
    MQRC_DEF_XMIT_Q_USAGE_ERROR (2199, also for SYSTEM.CLUSTER.TRANSMIT.QUEUE)."""
    if xmitq:
        return _xmitq(qm, xmitq, remote_qmgr, (mqc.MQRC_UNKNOWN_XMIT_Q,
                                               mqc.MQRC_XMIT_Q_TYPE_ERROR,
                                               mqc.MQRC_XMIT_Q_USAGE_ERROR))
    same = qm.queues.get(remote_qmgr)
    if same is not None and same.kind == "QLOCAL":
        if same.get("USAGE") != "XMITQ":  # MQ uses the queue of that name, and it is no xmitq
            return _fail(qm, mqc.MQRC_XMIT_Q_USAGE_ERROR, remote_qmgr, mqc.MQQT_LOCAL)
        return Resolution(qm.name, xmitq=remote_qmgr, remote_qmgr=remote_qmgr)
    receiver = cluster_receiver(network, remote_qmgr, clusters_of(qm))
    if receiver is not None and remote_qmgr != qm.name:
        return Resolution(qm.name, xmitq=CLUSTER_XMITQ, remote_qmgr=remote_qmgr,
                          channel=receiver.name)
    if qm.defxmitq:
        return _xmitq(qm, qm.defxmitq, remote_qmgr, (mqc.MQRC_UNKNOWN_DEF_XMIT_Q,
                                                     mqc.MQRC_DEF_XMIT_Q_TYPE_ERROR,
                                                     mqc.MQRC_DEF_XMIT_Q_USAGE_ERROR))
    return _fail(qm, mqc.MQRC_UNKNOWN_REMOTE_Q_MGR)


def _xmitq(qm: QueueManager, xmitq: str, remote_qmgr: str,
           reasons: tuple[int, int, int]) -> Resolution:
    """The transmission queue `xmitq` for `remote_qmgr`, or why it cannot be one."""
    unknown, type_error, usage_error = reasons
    q = qm.queues.get(xmitq)
    if q is None:
        return _fail(qm, unknown, xmitq)
    if q.kind != "QLOCAL":  # MQ: XmitQName names a queue that is not a local queue
        return _fail(qm, type_error, xmitq, _type(q))
    if q.get("USAGE") != "XMITQ" or (usage_error == mqc.MQRC_DEF_XMIT_Q_USAGE_ERROR
                                      and xmitq == CLUSTER_XMITQ):
        return _fail(qm, usage_error, xmitq, mqc.MQQT_LOCAL)
    return Resolution(qm.name, xmitq=xmitq, remote_qmgr=remote_qmgr)


def resolve(network: Network, qmgr: str, queue: str, target_qmgr: str = "", *,
            choose: Chooser | None = None) -> Resolution:
    """Resolve an open of (queue, target_qmgr) on `qmgr`, as MQ's name resolution does."""
    qm = network.qmgrs.get(qmgr)
    if qm is None:
        raise KeyError(f"no queue manager {qmgr!r} in the network")
    # kept (unless `choose` picked one of several cluster instances: it may pick another
    # next time)
    known = _resolutions(qm)
    key = (queue, target_qmgr)
    r = known.get(key)
    if r is not None:
        return r
    chose = False

    def chooser(opener: str, name: str, candidates: list[str]) -> int:
        nonlocal chose
        chose = True
        return choose(opener, name, candidates) if choose is not None else 0
    r = _resolve(network, qm, queue, target_qmgr, chooser)
    if not chose:
        known[key] = r
    return r


#: Resolutions kept per queue manager at most (then forgotten and made again).
_KEPT = 4096


def _resolutions(qm: QueueManager) -> dict[tuple[str, str | None], Resolution]:
    """qm's resolutions kept for this network generation and these queue changes (any ALTER,
    DEFINE or DELETE resolves anew): (queue, target qmgr) for output, (queue, None) input."""
    held = kept(qm, "resolutions") or cached(qm, "resolutions", lambda: [-1, {}])
    if held[0] != queue_changes():
        held[:] = [queue_changes(), {}]
    known = held[1]
    if len(known) >= _KEPT:
        known.clear()
    return known


def _resolve(network: Network, qm: QueueManager, queue: str, target_qmgr: str,
             choose: Chooser) -> Resolution:
    """`resolve`, every time."""
    target = target_qmgr or qm.name
    if target == qm.name:
        return _resolve_local(network, qm, queue, choose)
    alias = qm.queues.get(target)
    if alias is not None and alias.kind == "QREMOTE" and not alias.get("RNAME"):
        # a queue-manager alias, substituted once: RQMNAME replaces the name; its XMITQ is
        # used unless the new name is this queue manager (then the put is local)
        target = alias.get("RQMNAME") or qm.name
        if target == qm.name:
            return _resolve_local(network, qm, queue, choose, via_qmgr_alias=True)
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
                   seen: set[str] | None = None, via_qmgr_alias: bool = False) -> Resolution:
    seen = set() if seen is None else seen
    while True:  # iterative: a chain of local remote definitions is followed without recursing
        if name in seen:  # definitions leading round in a loop on this queue manager
            return _fail(qm, mqc.MQRC_UNKNOWN_REMOTE_Q_MGR)
        seen.add(name)
        obj = qm.queues.get(name)
        if obj is not None and obj.kind == "QMODEL":
            # a model queue is no destination: MQ refuses it on an MQPUT1, and through a
            # queue-manager alias naming this queue manager (the Queue Type Error event);
            # MQOPEN of a model queue would make a dynamic queue, which is not simulated
            return _fail(qm, mqc.MQRC_Q_TYPE_ERROR, quiet=not via_qmgr_alias)
        if obj is None:
            instances = _cluster_instances(network, qm, name)
            if not instances:
                return _fail(qm, mqc.MQRC_UNKNOWN_OBJECT_NAME)
            pick = 0 if len(instances) == 1 else (choose or (lambda *_: 0))(qm.name, name,
                                                                            instances)
            chosen = instances[pick]
            if chosen == qm.name:
                return local_resolution(qm.name, name)
            return _to(transmission_queue(network, qm, chosen), name, chosen)
        if obj.kind == "QLOCAL":
            return local_resolution(qm.name, name)
        if obj.kind == "QALIAS":
            base = obj.get("TARGET")
            if alias_base:  # an alias's base may not be another alias
                return _fail(qm, mqc.MQRC_ALIAS_BASE_Q_TYPE_ERROR, name, mqc.MQOT_Q)
            if obj.get("TARGTYPE", "QUEUE") != "QUEUE":  # publish/subscribe: not simulated
                return _fail(qm, mqc.MQRC_ALIAS_BASE_Q_TYPE_ERROR, base, mqc.MQOT_TOPIC)
            if not base:
                return _fail(qm, mqc.MQRC_UNKNOWN_ALIAS_BASE_Q, base, mqc.MQOT_Q)
            # one level only: a second alias on the way fails (alias_base)
            r = _resolve_local(network, qm, base, choose, alias_base=True, seen=seen)
            if r.reason == mqc.MQRC_UNKNOWN_OBJECT_NAME:
                return _fail(qm, mqc.MQRC_UNKNOWN_ALIAS_BASE_Q, base, mqc.MQOT_Q)
            return r
        # QREMOTE with RNAME: a remote queue definition
        rname, rqmname = obj.get("RNAME"), obj.get("RQMNAME")
        if not rname:  # a queue-manager alias opened as a queue: RemoteQName is blank
            return _fail(qm, mqc.MQRC_REMOTE_Q_NAME_ERROR)
        if not rqmname or rqmname == qm.name:
            if obj.get("XMITQ"):
                return _fail(qm, mqc.MQRC_XMIT_Q_USAGE_ERROR, obj.get("XMITQ"))
            name = rname
            continue
        r = transmission_queue(network, qm, rqmname, obj.get("XMITQ"))
        if not r.ok:
            return r
        resolved = _to(r, rname, rqmname)
        return Resolution(resolved.qmgr, resolved.queue, resolved.xmitq, resolved.remote_q,
                          resolved.remote_qmgr, resolved.channel, 0, True)


def resolve_input(network: Network, qmgr: str, name: str) -> Resolution:
    """Resolve an open for input (MQGET) on `qmgr`: a local queue, or an alias's base queue.

    Fails with MQRC_UNKNOWN_OBJECT_NAME (2085), MQRC_UNKNOWN_ALIAS_BASE_Q (2082),
    MQRC_ALIAS_BASE_Q_TYPE_ERROR (2001: the base is another alias), or
    MQRC_OPTION_NOT_VALID_FOR_TYPE (2045: a remote, model or cluster queue cannot be got
    from here).
    """
    qm = network.qmgrs.get(qmgr)
    if qm is None:
        raise KeyError(f"no queue manager {qmgr!r} in the network")
    known = _resolutions(qm)
    r = known.get((name, None))
    if r is None:
        r = known[name, None] = _resolve_input(network, qm, name)
    return r


def _resolve_input(network: Network, qm: QueueManager, name: str) -> Resolution:
    """`resolve_input`, every time."""
    obj = qm.queues.get(name)
    if obj is None:
        return _fail(qm, mqc.MQRC_UNKNOWN_OBJECT_NAME)
    if obj.kind == "QALIAS":
        base = obj.get("TARGET")
        target = qm.queues.get(base) if base else None
        if obj.get("TARGTYPE", "QUEUE") != "QUEUE":
            return _fail(qm, mqc.MQRC_ALIAS_BASE_Q_TYPE_ERROR, base, mqc.MQOT_TOPIC)
        if target is None:
            if base and _cluster_instances(network, qm, base):
                return _fail(qm, mqc.MQRC_OPTION_NOT_VALID_FOR_TYPE)
            return _fail(qm, mqc.MQRC_UNKNOWN_ALIAS_BASE_Q, base, mqc.MQOT_Q)
        if target.kind == "QALIAS":
            return _fail(qm, mqc.MQRC_ALIAS_BASE_Q_TYPE_ERROR, base, mqc.MQOT_Q)
        obj, name = target, base
    if obj.kind != "QLOCAL":
        return _fail(qm, mqc.MQRC_OPTION_NOT_VALID_FOR_TYPE)
    return local_resolution(qm.name, name)


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
    return xmitq_sender(qm, r.xmitq)


def xmitq_sender(qm: QueueManager, xmitq: str) -> MQObject | None:
    """The SDR/SVR channel that serves transmission queue `xmitq` of `qm` (the first by name
    where several do), or None."""
    found = kept(qm, "senders")
    return (found if found is not None else _senders(qm)).get(xmitq)  # type: ignore[union-attr]


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
