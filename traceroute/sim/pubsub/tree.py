"""The topic tree of a queue manager: which administrative topic object governs a topic
string, and the attributes that hold there.

A topic string takes its attributes from the topic object whose TOPICSTR is the nearest
level-wise ancestor of it (or itself); an attribute that says ASPARENT is taken from the
next such object above, up to SYSTEM.BASE.TOPIC (TOPICSTR ''), which has real values.
Topic objects defined with CLUSTER(name) on any member of a cluster are known to every
member of it (a local definition of the same topic string wins); a topic below a
clustered object is clustered with it (its CLROUTE too). PROXYSUB, CLROUTE and CLUSTER
are the node's own (no ASPARENT).
"""

from __future__ import annotations

from dataclasses import dataclass

from pcf import mqc
from traceroute.records.topics import SEPARATOR, join
from traceroute.sim.network import MQObject, Network, QueueManager, all_objects, cached
from traceroute.sim.resolve import clusters_of

BASE_TOPIC = "SYSTEM.BASE.TOPIC"
#: Values used when even SYSTEM.BASE.TOPIC says ASPARENT (or was deleted): crtmqm's.
_BASE_VALUES = {"PUB": "ENABLED", "SUB": "ENABLED", "DEFPSIST": "NO", "DEFPRTY": "0",
                "PMSGDLV": "ALLDUR", "NPMSGDLV": "ALLAVAIL", "USEDLQ": "YES",
                "PUBSCOPE": "ALL", "SUBSCOPE": "ALL", "DURSUB": "YES",
                "MDURMDL": "SYSTEM.DURABLE.MODEL.QUEUE",
                "MNDURMDL": "SYSTEM.NDURABLE.MODEL.QUEUE", "DEFPRESP": "SYNC",
                "CAPEXPRY": "NOLIMIT", "MCAST": "DISABLED"}


@dataclass(frozen=True, slots=True)
class TopicNode:
    """An administrative topic object as a queue manager sees it: where it is defined."""

    obj: MQObject
    qmgr: str          # the queue manager that defines it
    topic: str         # its TOPICSTR
    cluster: str = ""  # the cluster it was learnt from ('' = defined locally)


@dataclass(frozen=True, slots=True)
class TopicView:
    """The attributes that hold for one topic string on one queue manager."""

    topic: str
    node: TopicNode               # the nearest administrative topic object
    pub: str
    sub: str
    defpsist: str
    defprty: str
    pmsgdlv: str
    npmsgdlv: str
    usedlq: str
    pubscope: str
    subscope: str
    durable: str
    cluster: str = ""            # the cluster the topic is shared in ('' = not clustered)
    clroute: str = "DIRECT"      # that clustered node's CLROUTE
    cluster_node: TopicNode | None = None

    @property
    def object_name(self) -> str:
        """The administrative topic object's name (TOPIC(...))."""
        return self.node.obj.name


def _nodes(network: Network, qm: QueueManager) -> dict[str, TopicNode]:
    """TOPICSTR -> the topic object qm goes by for it (its own, else a cluster's)."""
    def compute() -> dict[str, TopicNode]:
        out: dict[str, TopicNode] = {}
        mine = clusters_of(qm)
        for other in network.qmgrs.values():
            if other is qm or not mine:
                continue
            for obj in other.others.values():
                if obj.kind != "TOPIC":
                    continue
                cluster = obj.get("CLUSTER")
                if cluster and cluster in mine:
                    out.setdefault(obj.get("TOPICSTR"), TopicNode(obj, other.name,
                                                                  obj.get("TOPICSTR"), cluster))
        for obj in all_objects(qm):
            if obj.kind != "TOPIC":
                continue
            topic = obj.get("TOPICSTR")
            if topic or obj.name == BASE_TOPIC:
                out[topic] = TopicNode(obj, qm.name, topic)
        return out
    return cached(qm, "topic-nodes", compute)


def nodes(network: Network, qmgr: str) -> dict[str, TopicNode]:
    """Every administrative topic object `qmgr` knows, by TOPICSTR."""
    return _nodes(network, network.qmgrs[qmgr])


def ancestors(network: Network, qmgr: str, topic: str) -> list[TopicNode]:
    """The topic objects governing `topic` on `qmgr`, nearest first, up to the root."""
    known = nodes(network, qmgr)
    out: list[TopicNode] = []
    parts = topic.split(SEPARATOR)
    for n in range(len(parts), 0, -1):
        node = known.get(SEPARATOR.join(parts[:n]))
        if node is not None and node.topic:
            out.append(node)
    root = known.get("")
    if root is not None:
        out.append(root)
    return out


def topic_object(network: Network, qmgr: str, name: str) -> MQObject | None:
    """The topic object `name` on `qmgr` (its own definition, else a clustered one)."""
    qm = network.qmgrs[qmgr]
    obj = qm.others.get(("TOPIC", name))
    if obj is not None:
        return obj
    for node in nodes(network, qmgr).values():
        if node.obj.name == name:
            return node.obj
    return None


def view(network: Network, qmgr: str, topic: str) -> TopicView:
    """The attributes of `topic` on `qmgr` (ASPARENT resolved up the tree)."""
    chain = ancestors(network, qmgr, topic)
    if not chain:  # SYSTEM.BASE.TOPIC deleted: crtmqm's values
        base = MQObject("TOPIC", BASE_TOPIC, {"TOPICSTR": ""})
        chain = [TopicNode(base, qmgr, "")]

    def value(keyword: str) -> str:
        for node in chain:
            v = node.obj.get(keyword)
            if v and v != "ASPARENT":
                return v
        return _BASE_VALUES.get(keyword, "")

    clustered = next((n for n in chain if n.obj.get("CLUSTER")), None)
    qm = network.qmgrs[qmgr]
    cluster = clustered.obj.get("CLUSTER") if clustered is not None else ""
    if cluster and (cluster not in clusters_of(qm) or qm.attrs.get("PSCLUS") == "DISABLED"):
        cluster = ""
    return TopicView(topic, chain[0], value("PUB"), value("SUB"), value("DEFPSIST"),
                     value("DEFPRTY"), value("PMSGDLV"), value("NPMSGDLV"), value("USEDLQ"),
                     value("PUBSCOPE"), value("SUBSCOPE"), value("DURSUB"), cluster,
                     (clustered.obj.get("CLROUTE") or "DIRECT") if clustered else "DIRECT",
                     clustered if cluster else None)


def topic_hosts(network: Network, cluster: str, topic: str) -> list[str]:
    """The queue managers that define a topic object with CLUSTER(cluster) and TOPICSTR
    `topic` (the topic hosts of topic host routing), in name order."""
    return sorted(qm.name for qm in network.qmgrs.values()
                  for obj in qm.others.values()
                  if obj.kind == "TOPIC" and obj.get("CLUSTER") == cluster
                  and obj.get("TOPICSTR") == topic)


def pubsub_mode(qm: QueueManager) -> str:
    """PSMODE: ENABLED (default), COMPAT or DISABLED."""
    return qm.attrs.get("PSMODE", "ENABLED") or "ENABLED"


def hierarchy_neighbours(network: Network, qmgr: str) -> list[str]:
    """The queue managers next to `qmgr` in a publish/subscribe hierarchy: its PARENT and
    the queue managers that name it as theirs (both ends must exist and have
    publish/subscribe enabled)."""
    def compute() -> dict[str, list[str]]:
        out: dict[str, set[str]] = {}
        for qm in network.qmgrs.values():
            parent = qm.attrs.get("PARENT", "")
            other = network.qmgrs.get(parent) if parent else None
            if other is None or other is qm or "DISABLED" in (pubsub_mode(qm),
                                                              pubsub_mode(other)):
                continue
            out.setdefault(qm.name, set()).add(parent)
            out.setdefault(parent, set()).add(qm.name)
        return {k: sorted(v) for k, v in out.items()}
    return cached(network, "hierarchy", compute).get(qmgr, [])


def resolve_topic(network: Network, qmgr: str, topic: str = "", topic_obj: str = ""
                  ) -> tuple[int, str]:
    """An MQOPEN's or MQSUB's topic on `qmgr`: (MQRC_* it fails with or 0, the full topic
    string: the topic object's TOPICSTR and `topic` joined). Fails with
    MQRC_PUBSUB_INHIBITED (PSMODE(DISABLED)) or MQRC_UNKNOWN_OBJECT_NAME (no such topic
    object)."""
    if pubsub_mode(network.qmgrs[qmgr]) == "DISABLED":
        return mqc.MQRC_PUBSUB_INHIBITED, topic
    base = ""
    if topic_obj:
        obj = topic_object(network, qmgr, topic_obj)
        if obj is None:
            return mqc.MQRC_UNKNOWN_OBJECT_NAME, topic
        base = obj.get("TOPICSTR")
    return 0, join(base, topic)
