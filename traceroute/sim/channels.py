"""Starting a message channel as MQ's channel agents do: pure functions over a Network.

A sending channel (SDR, SVR, or a cluster-sender made from a CLUSRCVR) starts when its
CONNAME reaches a queue manager that is running and listening there, which has (or, with
CHAD(ENABLED), defines from SYSTEM.AUTO.RECEIVER) a receiving channel of the same name that
is not stopped, whose SSLCIPH is the sender's, and whose channel authentication records let
the sender in. Otherwise it does not start: the sending end logs an AMQ message (its
Channel Stopped event carries it as ErrorIdentifier, with the message's inserts as
AuxErrorData) and the channel retries; some failures are events at the receiving end too
(Channel SSL Error, Channel Blocked, Channel Auto-definition OK/Error).

Where a CONNAME leads: a queue manager whose LISTENER has the CONNAME's port (and its
IPADDR, when set, is the host) is at that address, listening while the listener runs
(START LISTENER, or CONTROL(QMGR)/STARTONLY), and only there. For queue managers that
define no listener the simulator's older rule holds: the other end is the queue manager
that defines a receiver of the channel's name; when none does, nobody listens.

The AMQ messages [mq]: AMQ9202E remote host not available (nobody listens), AMQ9520E
channel not defined remotely, AMQ9558E remote channel not currently available (it is
stopped, or its queue manager cannot take one more channel: MaxChannels/MaxActiveChannels
of its qm.ini reached), AMQ9641E remote CipherSpec error, AMQ9643E remote SSL peer name
error, AMQ9777E channel was blocked, AMQ9528I user requested closure of the channel,
AMQ9545I disconnect interval expired, AMQ9999E channel ended abnormally. ErrorIdentifier
is the message number as MQ writes it: the severity in the top nibble (I 1, E 2, as the
real capture's 0x10009528 shows) and the four digits as hexadecimal digits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fnmatch import fnmatchcase

from pcf import mqc
from traceroute.sim.network import MQObject, Network, QueueManager, cached
from traceroute.sim.resolve import receiving_end

SENDING_TYPES = ("SDR", "SVR", "CLUSRCVR", "CLUSSDR")
RECEIVING_TYPES = ("RCVR", "RQSTR")
_SEVERITY = {"I": 0x10000000, "E": 0x20000000, "W": 0x30000000}
_CONNAME = re.compile(r"^\s*([^()\s]+)\s*(?:\(\s*(\d+)\s*\))?\s*$")


@dataclass(frozen=True, slots=True)
class ChannelError:
    """An AMQ message a channel agent logged: its number, severity and inserts."""

    amq: int
    severity: str = "E"
    int1: int = 0
    int2: int = 0
    str1: str = ""
    str2: str = ""
    str3: str = ""

    @property
    def identifier(self) -> int:
        """ErrorIdentifier as MQ writes it (AMQ9528I -> 0x10009528)."""
        return _SEVERITY.get(self.severity, 0x20000000) | int(f"{self.amq:04d}", 16)

    @property
    def name(self) -> str:
        """'AMQ9202E' ..."""
        return f"AMQ{self.amq:04d}{self.severity}"


@dataclass(frozen=True, slots=True)
class Attempt:
    """What a sending channel's attempt to start found."""

    partner: QueueManager | None        # the queue manager reached (None: nobody listens)
    receiver: MQObject | None = None     # its receiving channel, defined or auto-defined
    error: ChannelError | None = None    # the sending end's error: None when it started
    remote: str = ""                     # at the partner: ssl, blocked, autodef,
    #                                      autodef_error, not_available
    qualifier: int = 0                   # the partner's MQRQ_* for ssl / blocked / not_available
    autodefined: MQObject | None = None  # the receiver CHAD made (to be added by the caller)
    limit: int = 0                       # not_available: the partner's limit reached

    @property
    def started(self) -> bool:
        """True when the channel runs."""
        return self.error is None


def addresses(conname: str) -> list[tuple[str, int]]:
    """The (host, port) pairs of a CONNAME ('host(1414)', 'a(1414),b(1415)'; port 1414)."""
    out = []
    for part in conname.split(","):
        m = _CONNAME.match(part)
        if m:
            out.append((m.group(1), int(m.group(2) or 1414)))
    return out


def host_form(conname: str) -> str:
    """A CONNAME as a channel's error inserts show the host: 'qm2 (qm2)(1414)'."""
    addrs = addresses(conname)
    if not addrs:
        return conname
    host, port = addrs[0]
    return f"{host} ({host})({port})"


def address_of(qm: QueueManager) -> str:
    """The address a queue manager's channels come from, as its partners see it: its
    first listener's IPADDR, else its name in lower case (the simulator's host names)."""
    for listener in listeners(qm):
        if listener.get("IPADDR"):
            return listener.get("IPADDR")
    return qm.name.lower()


def listeners(qm: QueueManager) -> Iterator[MQObject]:
    """The TCP listeners qm defines (with a port)."""
    for (kind, _name), obj in qm.others.items():
        if kind == "LISTENER" and obj.get("TRPTYPE", "TCP") == "TCP" \
                and obj.get("PORT", "0") not in ("", "0"):
            yield obj


def listening(qm: QueueManager, listener: MQObject) -> bool:
    """Whether a listener runs: started, or started with its queue manager."""
    return ("LISTENER", listener.name) in qm.running


def at_address(network: Network, host: str, port: int
               ) -> tuple[QueueManager, MQObject] | None:
    """The queue manager (and its listener) defined at host(port), if any: the first, in
    network order, whose listener has that PORT and no IPADDR or that one."""
    host = host.lower()
    for qm, listener, ip in cached(network, "listeners", lambda: _listener_index(network)
                                   ).get(str(port), ()):
        if not ip or ip == host:
            return qm, listener
    return None


def _listener_index(network: Network
                    ) -> dict[str, list[tuple[QueueManager, MQObject, str]]]:
    """PORT -> (queue manager, listener, IPADDR in lower case) of every TCP listener, in
    network order (kept until a network changes: `traceroute.sim.network.cached`)."""
    index: dict[str, list[tuple[QueueManager, MQObject, str]]] = {}
    for qm in network.qmgrs.values():
        for listener in listeners(qm):
            index.setdefault(listener.get("PORT"), []).append(
                (qm, listener, listener.get("IPADDR").lower()))
    return index


def attempt(network: Network, qm: QueueManager, channel: MQObject, remote_qmgr: str, *,
            up: Callable[[str], bool] = lambda _q: True,
            inbound: Callable[[QueueManager], tuple[int, int]] = lambda _q: (0, 0)
            ) -> Attempt:
    """What starting sending channel `channel` of qm toward `remote_qmgr` finds now
    (`up(name)`: whether that queue manager is running; `inbound(partner)`: the MQRQ_* and
    the limit when the partner cannot take one more channel, MaxChannels or
    MaxActiveChannels of its qm.ini reached, else (0, 0): the sending end logs AMQ9558E,
    the remote channel not available [mq: 'the remote system does not have sufficient
    resources to run a further channel'], the partner writes Channel Not Available)."""
    name = channel.name
    cluster = channel.get("CHLTYPE") in ("CLUSRCVR", "CLUSSDR")

    def error(amq: int, *, rc: int = 0) -> ChannelError:
        return channel_error(amq, channel, rc=rc)

    partner: QueueManager | None = None
    if cluster:
        partner = receiving_end(network, channel, qm, remote_qmgr)
    else:
        found = False
        for host, port in addresses(channel.get("CONNAME")):
            hit = at_address(network, host, port)
            if hit is None:
                continue
            found = True
            there, listener = hit
            if up(there.name) and listening(there, listener):
                partner = there
                break
        if not found:  # a queue manager that defines listeners is only at their addresses
            partner = receiving_end(network, channel, qm, remote_qmgr)
            if partner is not None and any(True for _ in listeners(partner)):
                partner = None
    if partner is None or not up(partner.name):
        return Attempt(None, error=error(9202, rc=111))  # ECONNREFUSED
    refused, limit = inbound(partner)
    if refused:  # its responder MCA cannot become current / active there
        return Attempt(partner, partner.channels.get(name), error(9558), "not_available",
                       refused, limit=limit)
    if cluster:
        return Attempt(partner, partner.channels.get(name) or channel)
    receiver = partner.channels.get(name)
    autodefined = None
    if receiver is None or receiver.get("CHLTYPE") not in RECEIVING_TYPES:
        if receiver is None and partner.attrs.get("CHAD", "DISABLED").upper() == "ENABLED":
            template = partner.channels.get("SYSTEM.AUTO.RECEIVER")
            if template is None:
                return Attempt(partner, error=error(9520), remote="autodef_error")
            autodefined = MQObject("CHANNEL", name, {**template.attrs, "CHLTYPE": "RCVR"},
                                   source="CHAD")
            receiver = autodefined
        else:
            return Attempt(partner, error=error(9520))
    if not partner.channel_running(name):
        return Attempt(partner, receiver, error(9558))
    if _cipher(channel) != _cipher(receiver):
        return Attempt(partner, receiver, error(9641), "ssl",
                       mqc.MQRQ_SSL_CIPHER_SPEC_ERROR)
    blocked = blocked_by(partner, name, qm.name)
    if blocked:
        return Attempt(partner, receiver, error(9777), "blocked", blocked)
    remote = "autodef" if autodefined is not None else ""
    return Attempt(partner, receiver, None, remote, autodefined=autodefined)


def channel_error(amq: int, channel: MQObject, *, severity: str = "E",
                  rc: int = 0) -> ChannelError:
    """The AMQ message `amq` a channel agent of `channel` logs, with its inserts: for
    AMQ9202 the return code, the host, the protocol and the channel; else the channel and
    the host."""
    host = host_form(channel.get("CONNAME"))
    if amq == 9202:
        return ChannelError(amq, severity, rc, 0, host, "TCP/IP", channel.name)
    return ChannelError(amq, severity, rc, 0, channel.name, host, "")


def _cipher(channel: MQObject) -> str:
    return channel.get("SSLCIPH").strip().upper()


def blocked_by(qm: QueueManager, channel: str, remote_qmgr: str = "", *, user: str = "",
               client_user: str = "", address: str = "") -> int:
    """The MQRQ_CHANNEL_BLOCKED_* that qm's SET CHLAUTH records give an inbound channel
    (the partner's queue manager name; a client's address, the user it asserts and the
    user the channel would run it as), else 0. In MQ's order: BLOCKADDR (at the listener,
    for every channel), then a mapping record with USERSRC(NOACCESS), then BLOCKUSER."""
    records = [(r.name or "*", r.attrs) for key, r in qm.records.items()
               if key[0] == "CHLAUTH" and r.attrs.get("WARN", "NO") != "YES"]
    for _name, attrs in records:
        if attrs.get("TYPE") == "BLOCKADDR" and address and any(
                fnmatchcase(address, a.strip()) for a in attrs.get("ADDRLIST", "").split(",")):
            return mqc.MQRQ_CHANNEL_BLOCKED_ADDRESS
    mine = [(name, attrs) for name, attrs in records if fnmatchcase(channel, name)]
    for _name, attrs in mine:
        kind = attrs.get("TYPE", "")
        if attrs.get("USERSRC", "") != "NOACCESS":
            continue
        if (kind == "QMGRMAP" and remote_qmgr
                and fnmatchcase(remote_qmgr, attrs.get("QMNAME", "*"))) or \
                (kind == "ADDRESSMAP" and address
                 and fnmatchcase(address, attrs.get("ADDRESS", "*"))) or \
                (kind == "USERMAP" and client_user
                 and fnmatchcase(client_user, attrs.get("CLNTUSER", "*"))):
            return mqc.MQRQ_CHANNEL_BLOCKED_NOACCESS
    for _name, attrs in mine:
        if attrs.get("TYPE") == "BLOCKUSER" and user and any(
                fnmatchcase(user, u.strip()) for u in attrs.get("USERLIST", "").split(",")):
            return mqc.MQRQ_CHANNEL_BLOCKED_USERID
    return 0
