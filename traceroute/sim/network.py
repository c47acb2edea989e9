"""A queue-manager network as MQSC defines it: queue managers, queues, channels, clusters.

Plain values; `traceroute.sim.mqsc` reads them from MQSC text and `traceroute.sim.simulator` runs
messages through them. Attribute values are kept as MQSC wrote them (upper-cased where MQSC
folds unquoted text), under the full keyword name; typed properties read the ones the
simulator needs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

#: Object kinds, by their full MQSC keyword.
QUEUE_KINDS = ("QLOCAL", "QREMOTE", "QALIAS", "QMODEL")
RECORDING = {"DISABLED": 0, "QUEUE": 1, "MSG": 2}


@dataclass
class MQObject:
    """One defined object: its kind (QLOCAL, CHANNEL ...), name, attributes and origin."""

    kind: str
    name: str
    attrs: dict[str, str] = field(default_factory=dict)
    source: str = ""
    line: int = 0

    def get(self, keyword: str, default: str = "") -> str:
        """An attribute's value (full keyword, upper case), or `default`."""
        return self.attrs.get(keyword, default)

    @property
    def cluster(self) -> str:
        """The cluster the object is shared in ('' if none)."""
        return self.get("CLUSTER")


@dataclass
class QueueManager:
    """A queue manager: its own attributes and the objects defined on it."""

    name: str
    attrs: dict[str, str] = field(default_factory=dict)
    queues: dict[str, MQObject] = field(default_factory=dict)
    channels: dict[str, MQObject] = field(default_factory=dict)
    others: dict[tuple[str, str], MQObject] = field(default_factory=dict)
    stopped: set[str] = field(default_factory=set)

    def _recording(self, keyword: str) -> int:
        return RECORDING.get(self.attrs.get(keyword, "MSG"), 2)

    @property
    def activrec(self) -> int:
        """ACTIVREC as an MQRECORDING_* value (default MSG)."""
        return self._recording("ACTIVREC")

    @property
    def routerec(self) -> int:
        """ROUTEREC as an MQRECORDING_* value (default MSG)."""
        return self._recording("ROUTEREC")

    @property
    def deadq(self) -> str:
        """The dead-letter queue's name ('' if none)."""
        return self.attrs.get("DEADQ", "")

    @property
    def defxmitq(self) -> str:
        """The default transmission queue ('' if none)."""
        return self.attrs.get("DEFXMITQ", "")

    @property
    def command_level(self) -> int:
        """CMDLEVEL (default 940); below 600 a queue manager has no trace-route support."""
        try:
            return int(self.attrs.get("CMDLEVEL", "940"))
        except ValueError:
            return 940

    @property
    def supports_trace_route(self) -> bool:
        """True from WebSphere MQ 6.0 (command level 600) on."""
        return self.command_level >= 600

    def channel_running(self, name: str) -> bool:
        """True unless the channel was stopped (STOP CHANNEL) and not started since."""
        return name not in self.stopped


@dataclass
class Network:
    """Queue managers by name."""

    qmgrs: dict[str, QueueManager] = field(default_factory=dict)

    def qmgr(self, name: str) -> QueueManager:
        """The queue manager of that name, created empty when first named."""
        if name not in self.qmgrs:
            self.qmgrs[name] = QueueManager(name)
        return self.qmgrs[name]

    def objects(self) -> Iterator[tuple[QueueManager, MQObject]]:
        """Every queue and channel of every queue manager."""
        for qm in self.qmgrs.values():
            for obj in (*qm.queues.values(), *qm.channels.values()):
                yield qm, obj

    def cluster_queues(self, cluster: str, name: str) -> list[tuple[QueueManager, MQObject]]:
        """The instances of a cluster queue: every queue manager that shares it."""
        return [(qm, q) for qm in self.qmgrs.values()
                if (q := qm.queues.get(name)) is not None and cluster_names(q)
                and (not cluster or cluster in cluster_names(q))]

    def clusters(self) -> dict[str, set[str]]:
        """Cluster name -> the queue managers with a CLUSRCVR channel in it."""
        out: dict[str, set[str]] = {}
        for qm in self.qmgrs.values():
            for ch in qm.channels.values():
                if ch.get("CHLTYPE") == "CLUSRCVR" and ch.cluster:
                    out.setdefault(ch.cluster, set()).add(qm.name)
        return out


def cluster_names(obj: MQObject) -> set[str]:
    """The clusters an object is shared in (CLUSTER; CLUSNL is named by the caller)."""
    return {c for c in (obj.cluster,) if c}
