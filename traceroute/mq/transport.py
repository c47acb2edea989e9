"""What tracing needs from a queue manager, as one small protocol, and its simulated form.

Two implementations: `SimTransport` here (a queue manager of a `Simulator`) and
`traceroute.mq.client.MQTransport` (a real queue manager through pymqi, the `mq` extra).
Everything above this module — generating, collecting, ordering, displaying — is written
against `Transport` alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.sim.network import MQObject
from traceroute.sim.simulator import Simulator

MODEL_QUEUE = "SYSTEM.DEFAULT.MODEL.QUEUE"


class TransportError(RuntimeError):
    """An MQ call failed: says which call, on which object, and the MQRC_* reason."""

    def __init__(self, call: str, reason: int, what: str = "") -> None:
        from pcf.names import name_of

        self.call = call
        self.reason = reason
        name = name_of(reason, "MQRC") or str(reason)
        super().__init__(f"{call}{' ' + what if what else ''} failed: {name} ({reason})")


@dataclass(frozen=True, slots=True)
class Connection:
    """How to reach a queue manager: local bindings, or a client channel."""

    qmgr: str = ""
    client: bool = False
    channel: str = ""
    conname: str = ""
    ccdt_url: str = ""
    user: str = ""
    password: str = field(default="", repr=False)
    cipher_spec: str = ""
    key_repository: str = ""
    cert_label: str = ""


class Transport(Protocol):
    """One connection to one queue manager, with syncpoint control."""

    qmgr_name: str

    def clock(self) -> float:
        """Seconds on the clock waits are measured by (virtual time in a simulation)."""

    def open_output(self, queue: str, *, target_qmgr: str = "", topic: str = "",
                    bind_not_fixed: bool = False) -> object:
        """Open a queue (or topic) for output (the handle has .resolved_queue)."""

    def put(self, handle: object, md: MQMD, data: bytes) -> MQMD:
        """Put a message; returns its MQMD as put (MsgId filled in)."""

    def open_reply_queue(self, name: str, prefix: str = "DSPMQRTE") -> str:
        """Open (creating, for a model queue, a temporary dynamic queue named PREFIX.*) the
        queue replies come to; its real name."""

    def get(self, queue: str, *, correl_id: bytes | None, wait: float, browse: bool = False,
            syncpoint: bool = True) -> tuple[MQMD, bytes] | None:
        """The next message with this CorrelId, waiting up to `wait` seconds; None if none."""

    def commit(self) -> None:
        """Make the destructive gets under syncpoint final."""

    def backout(self) -> None:
        """Put back everything got under syncpoint since the last commit."""

    def inquire(self) -> dict[str, str]:
        """The queue manager attributes tracing cares about: ACTIVREC, ROUTEREC, DEADQ."""

    def close(self) -> None:
        """Back out what is uncommitted, delete a temporary reply queue, disconnect."""


@dataclass
class SimTransport:
    """A connection to one queue manager of a Simulator; waiting advances virtual time
    (with `quiet_ends_wait`, a wait ends as soon as nothing is in flight: an estate folder,
    whose clock is the wall clock, is not moved on by waiting for what cannot come)."""

    sim: Simulator
    qmgr_name: str
    quiet_ends_wait: bool = False  # nothing in flight: nothing more can come (an estate)
    #: the connection's ApplName (PutApplName, activity trace, mqat.ini's rules)
    appl_name: str = "dspmqrte"
    _idle: float = 0.0
    _uncommitted: list[tuple[str, MQMD, bytes]] = field(default_factory=list)
    _browsed: dict[str, set[bytes]] = field(default_factory=dict)
    _temporary: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.qmgr_name not in self.sim.network.qmgrs:
            raise TransportError("MQCONN", mqc.MQRC_Q_MGR_NAME_ERROR, self.qmgr_name)

    def clock(self) -> float:
        """The simulation's virtual time (and, with quiet_ends_wait, the waits that ended
        at once because nothing was in flight)."""
        return self.sim.now + self._idle

    def open_output(self, queue: str, *, target_qmgr: str = "", topic: str = "",
                    bind_not_fixed: bool = False) -> object:
        """Open for output in the simulator."""
        if topic:
            handle = self.sim.open_topic(self.qmgr_name, topic, appl_name=self.appl_name,
                                         appl_type=mqc.MQAT_UNIX)
            if handle.reason:
                raise TransportError("MQOPEN", handle.reason, f"topic '{topic}'")
            return handle
        handle = self.sim.open(self.qmgr_name, queue, target_qmgr=target_qmgr,
                               bind_not_fixed=bind_not_fixed, appl_name=self.appl_name,
                               appl_type=mqc.MQAT_UNIX)
        if handle.reason:
            raise TransportError("MQOPEN", handle.reason, f"'{queue}'")
        return handle

    def put(self, handle: object, md: MQMD, data: bytes) -> MQMD:
        """Put through a handle from open_output."""
        result = handle.put(md, data)  # type: ignore[attr-defined]
        if not result.ok:
            raise TransportError("MQPUT", result.reason)
        from dataclasses import replace

        return replace(md, msg_id=result.msg_id)

    def open_reply_queue(self, name: str, prefix: str = "DSPMQRTE") -> str:
        """A named queue as it is; a model queue makes a temporary dynamic queue."""
        qm = self.sim.network.qmgrs[self.qmgr_name]
        obj = qm.queues.get(name)
        if obj is None:
            raise TransportError("MQOPEN", mqc.MQRC_UNKNOWN_OBJECT_NAME, f"'{name}'")
        if obj.kind != "QMODEL":
            return name
        n = len(self._temporary) + 1
        dynamic = f"{prefix}.{n:04d}.TEMP"
        while dynamic in qm.queues:  # another connection's
            n += 1
            dynamic = f"{prefix}.{n:04d}.TEMP"
        qm.queues[dynamic] = MQObject("QLOCAL", dynamic, {"DEFTYPE": "TEMPDYN"})
        self._temporary.append(dynamic)
        return dynamic

    def get(self, queue: str, *, correl_id: bytes | None, wait: float, browse: bool = False,
            syncpoint: bool = True) -> tuple[MQMD, bytes] | None:
        """Get or browse; while nothing matches, let the simulation run up to `wait` seconds."""
        if queue not in self.sim.network.qmgrs[self.qmgr_name].queues:  # as MQOPEN would
            raise TransportError("MQOPEN", mqc.MQRC_UNKNOWN_OBJECT_NAME, f"'{queue}'")
        deadline = self.sim.now + wait
        while True:
            found = self._take(queue, correl_id, browse)
            if found is not None:
                if syncpoint and not browse:
                    self._uncommitted.append((queue, *found))
                return found
            upcoming = self.sim.next_event_time()
            if upcoming is None and self.quiet_ends_wait:
                self._idle += max(0.0, deadline - self.sim.now)  # waited, in vain
                return None
            if upcoming is None or upcoming > deadline:
                if self.sim.now >= deadline:
                    return None
                self.sim.run(until=deadline)
            else:
                self.sim.run(until=upcoming)

    def _take(self, queue: str, correl_id: bytes | None,
              browse: bool) -> tuple[MQMD, bytes] | None:
        if not browse:
            return self.sim.get(self.qmgr_name, queue, correl_id=correl_id,
                                appl_name=self.appl_name)
        seen = self._browsed.setdefault(queue, set())
        for md, data in self.sim.browse(self.qmgr_name, queue):
            if (correl_id is None or md.correl_id == correl_id) and md.msg_id not in seen:
                seen.add(md.msg_id)
                return md, data
        return None

    def commit(self) -> None:
        """Forget the gets: they are final."""
        self._uncommitted.clear()

    def backout(self) -> None:
        """Put every uncommitted get back on its queue, in its old order."""
        for queue, md, data in reversed(self._uncommitted):
            self.sim.restore(self.qmgr_name, queue, md, data)
        self._uncommitted.clear()

    def inquire(self) -> dict[str, str]:
        """ACTIVREC, ROUTEREC and DEADQ as MQSC would show them."""
        qm = self.sim.network.qmgrs[self.qmgr_name]
        names = {0: "DISABLED", 1: "QUEUE", 2: "MSG"}
        return {"ACTIVREC": names[qm.activrec], "ROUTEREC": names[qm.routerec],
                "DEADQ": qm.deadq}

    def close(self) -> None:
        """Back out, delete temporary dynamic queues (and what is on them)."""
        self.backout()
        qm = self.sim.network.qmgrs[self.qmgr_name]
        for name in self._temporary:
            qm.queues.pop(name, None)
            self.sim.queues.pop((self.qmgr_name, name), None)
        self._temporary.clear()


#: Opens a transport to a named queue manager (for --also and display-only runs).
Connector = Callable[[str], Transport]
