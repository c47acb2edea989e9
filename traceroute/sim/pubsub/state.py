"""What a simulated network's publish/subscribe engines hold beyond the definitions:
subscriptions made by MQSUB, and the topic of each publication on its way between queue
managers (MQ carries it in the message's properties; the simulator's messages have none, so
it is kept here by MsgId until the receiving engine publishes it again).

`state()`/`restore()` give and take a JSON-ready form (an estate keeps it between commands).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields

from traceroute.sim.network import Network, generation
from traceroute.sim.pubsub.routing import proxies
from traceroute.sim.pubsub.subscriptions import Subscription, admin_subscriptions

#: At most this many publications are remembered in flight (the oldest are forgotten).
MAX_INFLIGHT = 100_000


@dataclass(frozen=True, slots=True)
class Inflight:
    """A publication travelling to another queue manager's engine: its topic string, the
    queue manager that sent it and the route of the proxy subscription it was sent for."""

    topic: str
    sender: str
    via: str = ""


_BYTES = {"sub_id", "correl_id", "pub_accounting", "conn_id"}


def _sub_state(sub: Subscription) -> dict:
    return {k: v.hex() if k in _BYTES else v for k, v in asdict(sub).items()}


def _sub_of(data: dict) -> Subscription:
    names = {f.name for f in fields(Subscription)}
    values = {k: bytes.fromhex(v) if k in _BYTES else v for k, v in data.items() if k in names}
    return Subscription(**values)


class PubSub:
    """API subscriptions and publications in flight, for a network's engines."""

    def __init__(self) -> None:
        self.api: dict[tuple[str, bytes], Subscription] = {}
        self.inflight: dict[bytes, Inflight] = {}
        self._version = 0
        self._cache: tuple[tuple[int, int], dict[str, list[Subscription]]] | None = None
        self._system: tuple[object, dict[str, list[Subscription]]] | None = None

    # --- subscriptions ------------------------------------------------------------------

    def add(self, sub: Subscription) -> None:
        """An API subscription made (MQSUB)."""
        self.api[(sub.qmgr, sub.sub_id)] = sub
        self._version += 1

    def remove(self, qmgr: str, sub_id: bytes) -> Subscription | None:
        """An API subscription ended (MQCLOSE with MQCO_REMOVE_SUB, or its connection's end
        for a non-durable one)."""
        sub = self.api.pop((qmgr, sub_id), None)
        if sub is not None:
            self._version += 1
        return sub

    def api_named(self, qmgr: str, name: str) -> Subscription | None:
        """The API subscription of that name on `qmgr`."""
        return next((s for (q, _), s in self.api.items() if q == qmgr and s.name == name),
                    None)

    def own(self, network: Network, qmgr: str) -> list[Subscription]:
        """`qmgr`'s own subscriptions: administrative ones, then API ones."""
        api = sorted((s for (q, _), s in self.api.items() if q == qmgr), key=lambda s: s.name)
        return [*admin_subscriptions(network, qmgr), *api]

    def everything(self, network: Network) -> dict[str, list[Subscription]]:
        """Every queue manager's subscriptions: its own, then its proxy subscriptions."""
        key = (generation(), self._version)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        own = {q: self.own(network, q) for q in network.qmgrs}
        made = proxies(network, own)
        out = {q: [*own[q], *made.get(q, [])] for q in network.qmgrs}
        self._cache = (key, out)
        return out

    def system(self, network: Network, qmgr: str) -> list[Subscription]:
        """`qmgr`'s subscriptions to its own `$SYS/...` topics (cached as `everything`)."""
        self.everything(network)
        if self._system is None or self._system[0] is not self._cache:
            self._system = (self._cache, {})
        found = self._system[1]
        if qmgr not in found:
            found[qmgr] = [s for s in self.of(network, qmgr)
                           if not s.proxy and s.topic.startswith("$SYS")]
        return found[qmgr]

    def of(self, network: Network, qmgr: str) -> list[Subscription]:
        """`qmgr`'s subscriptions, its proxy subscriptions included."""
        return self.everything(network).get(qmgr, [])

    def find(self, network: Network, qmgr: str, sub_id: bytes) -> Subscription | None:
        """A subscription of `qmgr` by its identifier (proxies included)."""
        return next((s for s in self.of(network, qmgr) if s.sub_id == sub_id), None)

    def __iter__(self) -> Iterator[Subscription]:
        return iter(self.api.values())

    # --- publications in flight ---------------------------------------------------------

    def sent(self, msg_id: bytes, flight: Inflight) -> None:
        """A publication was sent towards another queue manager's engine."""
        if len(self.inflight) >= MAX_INFLIGHT:
            self.inflight.pop(next(iter(self.inflight)))
        self.inflight[msg_id] = flight

    # --- between commands ---------------------------------------------------------------

    def state(self) -> dict:
        """A JSON-ready form: the durable API subscriptions and the publications in flight
        (non-durable subscriptions end with their connection, which ends with a command)."""
        return {"subscriptions": [_sub_state(s) for s in self.api.values() if s.durable],
                "inflight": {k.hex(): [v.topic, v.sender, v.via]
                             for k, v in self.inflight.items()}}

    def restore(self, state: dict) -> None:
        """Take back what `state()` gave (entries that cannot be read are left out)."""
        for data in state.get("subscriptions") or ():
            try:
                self.add(_sub_of(data))
            except (TypeError, ValueError):
                continue
        for key, value in (state.get("inflight") or {}).items():
            try:
                topic, sender, via = value
                self.inflight[bytes.fromhex(key)] = Inflight(str(topic), str(sender), str(via))
            except (TypeError, ValueError):
                continue
