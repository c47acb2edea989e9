"""Subscriptions: what DEFINE SUB (administrative), MQSUB (API) and the queue managers
themselves (proxy subscriptions) ask for, as one value.

A subscription's full topic string is its TOPICOBJ's TOPICSTR and its own TOPICSTR joined
with `/` (either may be absent). Its identifier (SUBID) is what DEFINE SUB names, else one
made as a queue manager makes them ('AMQ ', the first 12 characters of the queue manager's
name, 8 bytes), stable for a name so that an estate keeps it between commands; publications
carry its correlation identifier (DESTCORL, else a generated 'AMQX'... value, as MQ
generates SubCorrelId).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from pcf import mqc
from traceroute.records.topics import CHAR_SCHEME, TOPIC_SCHEME, join
from traceroute.sim.network import MQObject, Network, QueueManager
from traceroute.sim.pubsub.tree import topic_object as lookup

ADMIN, API, PROXY = mqc.MQSUBTYPE_ADMIN, mqc.MQSUBTYPE_API, mqc.MQSUBTYPE_PROXY
#: The queue proxy subscriptions deliver to: the publish/subscribe engine of the queue
#: manager that asked for them reads it and publishes again.
INTER_QMGR_PUBS = "SYSTEM.INTER.QMGR.PUBS"
#: The prefix of the queues MQ makes for subscriptions with DESTCLAS(MANAGED).
MANAGED_DURABLE = "SYSTEM.MANAGED.DURABLE."
MANAGED_NDURABLE = "SYSTEM.MANAGED.NDURABLE."


@dataclass(frozen=True, slots=True)
class Subscription:
    """One subscription of one queue manager."""

    qmgr: str
    name: str
    sub_id: bytes
    topic: str                # the full topic string (wildcards allowed)
    dest: str                 # the destination queue
    dest_qmgr: str = ""       # its queue manager ('' = this one)
    correl_id: bytes = bytes(24)
    kind: int = ADMIN         # MQSUBTYPE_ADMIN / _API / _PROXY
    durable: bool = True
    level: int = 1            # SUBLEVEL
    scheme: str = TOPIC_SCHEME
    selector: str = ""
    scope: str = "ALL"        # SUBSCOPE
    psprop: str = "MSGPROP"
    pub_priority: str = "ASPUB"  # PUBPRTY: ASPUB, ASQDEF or 0-9
    pub_accounting: bytes = b""  # PUBACCT ('' = the publication's)
    pub_appl_id: str = ""        # PUBAPPID
    user: str = "mqm"            # SUBUSER
    topic_object: str = ""       # TOPICOBJ
    topic_string: str = ""       # TOPICSTR as given
    user_data: str = ""
    request_only: bool = False   # REQONLY(YES): publications on request only
    no_local: bool = False       # MQSO_NO_LOCAL: not the subscriber's own publications
    appl_name: str = ""          # API: the subscribing application
    managed: bool = False        # DESTCLAS(MANAGED)
    expiry: int = -1             # EXPIRY in tenths of a second (-1 UNLIMITED)
    #: a proxy subscription: how it was learnt ('cluster:NAME', 'hierarchy',
    #: 'topichost:NAME') and the queue manager whose engine publications go to
    via: str = ""
    origin: str = ""
    #: API: the subscribing connection's id (MQDISC ends its non-durable subscriptions;
    #: b'' for one made before this was kept: matched by ApplName)
    conn_id: bytes = b""

    @property
    def destination_qmgr(self) -> str:
        """The queue manager of the destination queue (this one when DESTQMGR is blank)."""
        return self.dest_qmgr or self.qmgr

    @property
    def proxy(self) -> bool:
        """True for a proxy subscription (one queue manager's on behalf of another's)."""
        return self.kind == PROXY


def sub_id_for(qmgr: str, name: str, kind: str = "SUB") -> bytes:
    """A subscription identifier as a queue manager makes one, the same for the same name."""
    digest = hashlib.sha256(f"{kind}\0{qmgr}\0{name}".encode()).digest()
    return b"AMQ " + qmgr.ljust(12)[:12].encode("latin-1", "replace") + digest[:8]


def generated_correl_id(sub_id: bytes) -> bytes:
    """The SubCorrelId MQ generates when none is given: 'AMQX' and a unique string."""
    return b"AMQX" + sub_id[4:]


def _hex_bytes(text: str, length: int) -> bytes | None:
    text = text.strip()
    if not text or len(text) > 2 * length or len(text) % 2:
        return None
    try:
        return bytes.fromhex(text).ljust(length, b"\0")
    except ValueError:
        return None


def _number(text: str, default: int) -> int:
    try:
        return int(text) if text else default
    except ValueError:
        return default


def managed_queue(qmgr: str, sub_id: bytes, durable: bool = True) -> str:
    """The name of the queue MQ makes for a managed subscription."""
    prefix = MANAGED_DURABLE if durable else MANAGED_NDURABLE
    return prefix + sub_id[-8:].hex().upper()


def from_definition(qm: QueueManager, obj: MQObject, network: Network | None = None
                    ) -> Subscription:
    """The subscription a DEFINE SUB made (TOPICOBJ looked up on `qm`)."""
    sub_id = _hex_bytes(obj.get("SUBID"), 24) or sub_id_for(qm.name, obj.name)
    correl = _hex_bytes(obj.get("DESTCORL"), 24) or generated_correl_id(sub_id)
    topic_object = obj.get("TOPICOBJ")
    base = ""
    if topic_object:
        found = lookup(network, qm.name, topic_object) if network is not None else \
            qm.others.get(("TOPIC", topic_object))
        base = found.get("TOPICSTR") if found is not None else ""
    managed = obj.get("DESTCLAS") == "MANAGED"
    dest = obj.get("DEST") or (managed_queue(qm.name, sub_id) if managed else "")
    expiry = obj.get("EXPIRY")
    return Subscription(
        qm.name, obj.name, sub_id, join(base, obj.get("TOPICSTR")), dest,
        obj.get("DESTQMGR"), correl, ADMIN, True, _number(obj.get("SUBLEVEL"), 1),
        CHAR_SCHEME if obj.get("WSCHEMA") == "CHAR" else TOPIC_SCHEME, obj.get("SELECTOR"),
        obj.get("SUBSCOPE") or "ALL", obj.get("PSPROP") or "MSGPROP",
        obj.get("PUBPRTY") or "ASPUB", _hex_bytes(obj.get("PUBACCT"), 32) or b"",
        obj.get("PUBAPPID"), obj.get("SUBUSER") or "mqm", topic_object, obj.get("TOPICSTR"),
        obj.get("USERDATA"), obj.get("REQONLY") == "YES", False, "", managed,
        -1 if expiry in ("", "UNLIMITED") else _number(expiry, -1))


def admin_subscriptions(network: Network, qmgr: str) -> list[Subscription]:
    """The subscriptions DEFINE SUB made on `qmgr`, in name order."""
    qm = network.qmgrs[qmgr]
    return [from_definition(qm, obj, network) for obj in sorted(
        (o for o in qm.others.values() if o.kind == "SUB"), key=lambda o: o.name)]


def attributes(sub: Subscription) -> dict[str, str]:
    """The subscription's attributes as DISPLAY SUB shows them (MQSC words)."""
    return {
        "SUBID": sub.sub_id.hex().upper(), "TOPICSTR": sub.topic,
        "TOPICOBJ": sub.topic_object,
        "DEST": sub.dest, "DESTQMGR": sub.dest_qmgr,
        "DESTCLAS": "MANAGED" if sub.managed else "PROVIDED",
        "DESTCORL": sub.correl_id.hex().upper(), "DURABLE": "YES" if sub.durable else "NO",
        "EXPIRY": "UNLIMITED" if sub.expiry < 0 else str(sub.expiry),
        "PSPROP": sub.psprop, "PUBACCT": sub.pub_accounting.hex().upper(),
        "PUBAPPID": sub.pub_appl_id, "PUBPRTY": sub.pub_priority,
        "REQONLY": "YES" if sub.request_only else "NO", "SELECTOR": sub.selector,
        "SELTYPE": "STANDARD" if sub.selector else "NONE", "SUBLEVEL": str(sub.level),
        "SUBSCOPE": sub.scope,
        "SUBTYPE": {ADMIN: "ADMIN", API: "API", PROXY: "PROXY"}.get(sub.kind, "ADMIN"),
        "SUBUSER": sub.user, "USERDATA": sub.user_data, "VARUSER": "ANY",
        "WSCHEMA": sub.scheme}
