"""amqsput and amqsget on a simulated queue manager.

`put_messages` opens a queue for output once (name resolution as MQOPEN does it: a local,
alias, remote or cluster queue, or a queue manager alias) and puts `count` messages, each
"message N of COUNT" as text (Format MQSTR, CCSID 1208), padded with '.' or cut to `size`
bytes when a size is given; persistent or not, with an expiry in seconds if asked.
`get_messages` gets (or browses) up to `count` messages from a local queue (an alias: its
target), oldest first; expired messages are removed on the way, as MQ does. Both return
what happened and the MQRC_* reason of a failure, as the samples print it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.sim.resolve import Resolution
from traceroute.sim.simulator import Simulator

PUT_APPL, GET_APPL = "amqsput", "amqsget"


@dataclass
class PutOutcome:
    """What a put run did: the MsgIds put, where the open resolved to, or the reason."""

    reason: int = 0
    msg_ids: list[bytes] = field(default_factory=list)
    resolution: Resolution | None = None
    call: str = ""

    @property
    def ok(self) -> bool:
        """True when every message was put."""
        return self.reason == 0


def message_data(n: int, count: int, size: int | None) -> bytes:
    """The data of message n of count: text, padded with '.' or cut to `size` bytes."""
    text = f"message {n} of {count}".encode("ascii")
    if size is None:
        return text
    return (text + b"." * max(0, size - len(text)))[:size]


def put_messages(sim: Simulator, qmgr: str, queue: str, *, count: int = 1,
                 size: int | None = None, persistent: bool = False,
                 expiry: float | None = None) -> PutOutcome:
    """Open `queue` on `qmgr` for output and put `count` messages (amqsput)."""
    handle = sim.open(qmgr, queue, appl_name=PUT_APPL)
    if handle.reason:
        return PutOutcome(handle.reason, call="MQOPEN")
    outcome = PutOutcome(resolution=handle.resolution)
    md = MQMD(format="MQSTR", coded_char_set_id=1208, priority=0,
              persistence=mqc.MQPER_PERSISTENT if persistent else mqc.MQPER_NOT_PERSISTENT,
              expiry=mqc.MQEI_UNLIMITED if expiry is None else max(1, round(expiry * 10)))
    try:
        for n in range(1, count + 1):
            result = handle.put(md, message_data(n, count, size))
            if not result.ok:
                outcome.reason, outcome.call = result.reason, "MQPUT"
                break
            outcome.msg_ids.append(result.msg_id)
    finally:
        handle.close()
    return outcome


@dataclass
class GetOutcome:
    """What a get run did: the messages (descriptor and data), or the reason."""

    reason: int = 0
    messages: list[tuple[MQMD, bytes]] = field(default_factory=list)
    queue: str = ""

    @property
    def ok(self) -> bool:
        """True when the queue could be opened."""
        return self.reason == 0


def get_messages(sim: Simulator, qmgr: str, queue: str, *, count: int | None = None,
                 browse: bool = False) -> GetOutcome:
    """Get (or browse) up to `count` messages (all when None) from `queue` (amqsget)."""
    qm = sim.network.qmgrs[qmgr]
    obj = qm.queues.get(queue)
    if obj is not None and obj.kind == "QALIAS":
        obj = qm.queues.get(obj.get("TARGET") or obj.get("TARGQ"))
        if obj is None:
            return GetOutcome(mqc.MQRC_UNKNOWN_ALIAS_BASE_Q)
    if obj is None:
        return GetOutcome(mqc.MQRC_UNKNOWN_OBJECT_NAME)
    if obj.kind != "QLOCAL":
        return GetOutcome(mqc.MQRC_OPTION_NOT_VALID_FOR_TYPE)
    if (obj.get("GET") or "ENABLED").upper() == "DISABLED":
        return GetOutcome(mqc.MQRC_GET_INHIBITED)
    outcome = GetOutcome(queue=obj.name)
    if browse:
        for s in list(sim.queues.get((qmgr, obj.name), ())):
            if not sim.expired(s):
                outcome.messages.append((s.md, s.data))
        outcome.messages = outcome.messages[:count]
        return outcome
    while count is None or len(outcome.messages) < count:
        got = sim.get(qmgr, obj.name, appl_name=GET_APPL)
        if got is None:
            break
        outcome.messages.append(got)
    return outcome
