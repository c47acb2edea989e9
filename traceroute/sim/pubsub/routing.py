"""Publications between queue managers: proxy subscriptions, and which subscriptions a
publication goes to. Pure functions over the network and the subscriptions.

Proxy subscriptions are what one queue manager registers with another on behalf of its
own subscriptions, so that publications come to it: each is a subscription to the same
topic string whose destination is SYSTEM.INTER.QMGR.PUBS of the subscribing queue manager,
whose publish/subscribe engine publishes again to its own subscriptions. One proxy is made
per (queue manager, topic string, destination queue manager, route), whatever the number
of subscriptions behind it. They are made (`proxies`):

* in a hierarchy (ALTER QMGR PARENT): on the parent and the children, and on from there
  across the whole hierarchy;
* in a cluster, for a topic at or below a clustered topic object: with CLROUTE(DIRECT) on
  every other member of the cluster; with CLROUTE(TOPICHOST) on each topic host (the queue
  managers that define the clustered topic object), and every other member then has one
  proxy per host that has subscribers, so that it sends its publications to a host
  (`TOPICHOST` proxies: a publisher uses one host, the first by name);
* not for a subscription of SUBSCOPE(QMGR), under a topic of SUBSCOPE(QMGR), on a queue
  manager with PSMODE(DISABLED), or into a cluster with PSCLUS(DISABLED);
* for a topic object with PROXYSUB(FORCE) as if a subscription to its topic string and
  `/#` existed on its queue manager.

A publication handled by a queue manager's engine (`consider`) goes to every subscription
whose topic string matches it, except: proxies back to the queue manager it came from, or
into the cluster it arrived through; all but one proxy per destination queue manager; and
subscriptions of lower SUBLEVEL than the highest one matching at or below the
publication's level (interception). A subscription matched but left out for a reason of
its own is an Excluded Publish with MQ's feedback: MQFB_MSG_SCOPE_MISMATCH (a PUBSCOPE or
MQPMO_SCOPE_QMGR publication and a proxy; a SUBSCOPE(QMGR) subscription and a publication
from another queue manager), MQFB_SELECTOR_MISMATCH, MQFB_PUBLICATIONS_ON_REQUEST
(REQONLY(YES)), MQFB_SUBSCRIBER_IS_PUBLISHER (MQSO_NO_LOCAL).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.records.topics import fixed_prefix, in_system_branch, join, matches
from traceroute.sim.network import Network
from traceroute.sim.pubsub.selector import SelectorError, selects
from traceroute.sim.pubsub.subscriptions import (
    INTER_QMGR_PUBS,
    PROXY,
    Subscription,
    generated_correl_id,
    sub_id_for,
)
from traceroute.sim.pubsub.tree import (
    hierarchy_neighbours,
    nodes,
    pubsub_mode,
    topic_hosts,
    view,
)
from traceroute.sim.resolve import clusters_of

HIERARCHY = "hierarchy"
#: The highest publication level (MQPMO PubLevel's initial value).
MAX_PUB_LEVEL = 9


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a publication a queue manager's engine handles came from."""

    qmgr: str = ""     # the queue manager that sent it ('' = published here)
    via: str = ""      # the route of the proxy subscription that brought it


@dataclass(frozen=True, slots=True)
class Considered:
    """A subscription a publication was considered for: published to it, or excluded."""

    sub: Subscription
    excluded: int = 0  # MQFB_* of an Excluded Publish; 0 = publish to it


def _members(network: Network, cluster: str) -> list[str]:
    return sorted(qm.name for qm in network.qmgrs.values()
                  if cluster in clusters_of(qm) and pubsub_mode(qm) != "DISABLED"
                  and qm.attrs.get("PSCLUS") != "DISABLED")


def _proxy(on: str, topic: str, to: str, via: str, scheme: str) -> Subscription:
    route = via.split(":", 1)[1] if ":" in via else via.upper()
    name = f"SYSTEM.PROXY.{to} {route} {topic}"
    sub_id = sub_id_for(on, name, "PROXY")
    return Subscription(on, name, sub_id, topic, INTER_QMGR_PUBS, to,
                        generated_correl_id(sub_id), PROXY, False, 1, scheme, via=via,
                        origin=to)


def _forced(network: Network) -> list[Subscription]:
    """PROXYSUB(FORCE) topic objects as the wildcard subscriptions they stand for."""
    out = []
    for qm in network.qmgrs.values():
        for obj in qm.others.values():
            if obj.kind == "TOPIC" and obj.get("PROXYSUB") == "FORCE":
                topic = join(obj.get("TOPICSTR"), "#")
                out.append(Subscription(qm.name, f"PROXYSUB(FORCE) {obj.name}", bytes(24),
                                        topic, "", kind=PROXY, origin=qm.name))
    return out


def proxies(network: Network, subscriptions: Mapping[str, Sequence[Subscription]]
            ) -> dict[str, list[Subscription]]:
    """The proxy subscriptions each queue manager holds, by queue manager, for the
    subscriptions given (each queue manager's own: administrative and API)."""
    made: dict[tuple[str, str, str, str], Subscription] = {}
    bases = [s for subs in subscriptions.values() for s in subs if not s.proxy]
    for base in [*bases, *_forced(network)]:
        if base.qmgr not in network.qmgrs or base.scope == "QMGR" \
                or in_system_branch(base.topic):  # $SYS/MQ: this queue manager's only
            continue
        home = network.qmgrs[base.qmgr]
        prefix = fixed_prefix(base.topic, base.scheme)
        if pubsub_mode(home) == "DISABLED" or view(network, base.qmgr, prefix).subscope == "QMGR":
            continue
        hosts_with_interest: dict[str, set[str]] = {}

        def add(on: str, to: str, via: str, base: Subscription = base) -> None:
            made.setdefault((on, base.topic, to, via),
                            _proxy(on, base.topic, to, via, base.scheme))

        visited = {base.qmgr}
        frontier: list[tuple[str, str]] = [(base.qmgr, "")]
        while frontier:
            here, came = frontier.pop(0)
            for n in hierarchy_neighbours(network, here):
                if n not in visited:
                    visited.add(n)
                    add(n, here, HIERARCHY)
                    frontier.append((n, HIERARCHY))
            v = view(network, here, prefix)
            cluster = v.cluster
            if not cluster or came.endswith(":" + cluster):
                continue
            if v.clroute == "TOPICHOST":
                assert v.cluster_node is not None
                hosts = topic_hosts(network, cluster, v.cluster_node.topic)
                if here in hosts:
                    hosts_with_interest.setdefault(cluster, set()).add(here)
                for h in hosts:
                    if h != here and h not in visited:
                        visited.add(h)
                        add(h, here, f"cluster:{cluster}")
                        hosts_with_interest.setdefault(cluster, set()).add(h)
                        frontier.append((h, f"cluster:{cluster}"))
                continue
            for m in _members(network, cluster):
                if m != here and m not in visited:
                    visited.add(m)
                    add(m, here, f"cluster:{cluster}")
                    frontier.append((m, f"cluster:{cluster}"))
        for cluster, hosts in hosts_with_interest.items():
            node = view(network, next(iter(hosts)), prefix).cluster_node
            every_host = set(topic_hosts(network, cluster, node.topic)) if node else hosts
            for m in _members(network, cluster):
                if m in every_host:
                    continue
                for h in sorted(hosts):
                    add(m, h, f"topichost:{cluster}")
    out: dict[str, list[Subscription]] = {}
    for sub in sorted(made.values(), key=lambda s: s.name):
        out.setdefault(sub.qmgr, []).append(sub)
    return out


def _scope_qmgr(network: Network, sub: Subscription) -> bool:
    """SUBSCOPE(QMGR) of the subscription, or of the topic it is under."""
    if sub.scope == "QMGR":
        return True
    return view(network, sub.qmgr, fixed_prefix(sub.topic, sub.scheme)).subscope == "QMGR"


def consider(network: Network, qmgr: str, topic: str, md: MQMD,
             subscriptions: Iterable[Subscription], origin: Origin = Origin(), *,
             pub_level: int = MAX_PUB_LEVEL, scope_qmgr: bool = False,
             publisher: str = "") -> list[Considered]:
    """The subscriptions of `qmgr` (its own and its proxies) a publication on `topic` is
    considered for, in order (its own by name, then the proxies by name): each published
    to or excluded (see the module doc). `publisher` is the publishing application's name
    (MQSO_NO_LOCAL), `scope_qmgr` MQPMO_SCOPE_QMGR."""
    v = view(network, qmgr, topic)
    local_only = scope_qmgr or (not origin.qmgr and v.pubscope == "QMGR")
    own: list[Subscription] = []
    remote: list[Subscription] = []
    for sub in subscriptions:
        if sub.qmgr != qmgr or not matches(sub.topic, topic, sub.scheme):
            continue
        (remote if sub.proxy else own).append(sub)
    levels = [s.level for s in own if s.level <= pub_level]
    top = max(levels) if levels else 0
    out: list[Considered] = []
    for sub in sorted(own, key=lambda s: s.name):
        if sub.level > pub_level or sub.level < top:
            continue  # intercepted: a subscription of a higher level takes it
        excluded = 0
        if origin.qmgr and _scope_qmgr(network, sub):
            excluded = mqc.MQFB_MSG_SCOPE_MISMATCH
        elif sub.request_only:
            excluded = mqc.MQFB_PUBLICATIONS_ON_REQUEST
        elif sub.no_local and not origin.qmgr and publisher and publisher == sub.appl_name:
            excluded = mqc.MQFB_SUBSCRIBER_IS_PUBLISHER
        elif sub.selector:
            try:
                if not selects(sub.selector, md):
                    excluded = mqc.MQFB_SELECTOR_MISMATCH
            except SelectorError:
                excluded = mqc.MQFB_SELECTOR_MISMATCH
        out.append(Considered(sub, excluded))
    arrived = origin.via.split(":", 1)[1] if ":" in origin.via else ""
    sent_to: set[str] = set()
    host_chosen = False
    for sub in sorted(remote, key=lambda s: s.name):
        if sub.origin == origin.qmgr or sub.origin == qmgr or sub.origin in sent_to:
            continue  # not back where it came from; one copy per queue manager
        route, _, cluster = sub.via.partition(":")
        if arrived and cluster == arrived and not (route == "cluster"
                                                   and origin.via.startswith("topichost:")):
            continue  # a cluster's publications are not passed round it again
        if route == "topichost":
            if host_chosen or (origin.qmgr and origin.via.startswith("topichost:")):
                continue
            host_chosen = True
        if local_only:
            out.append(Considered(sub, mqc.MQFB_MSG_SCOPE_MISMATCH))
            continue
        sent_to.add(sub.origin)
        out.append(Considered(sub))
    return out


def known_topics(network: Network, qmgr: str) -> list[str]:
    """The topic strings of the administrative topic objects `qmgr` knows, sorted."""
    return sorted(t for t in nodes(network, qmgr) if t)
