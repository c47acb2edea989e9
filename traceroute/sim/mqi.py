"""The MQI calls the simulator makes, as values its observers receive (`Simulator.add_observer`).

One `SimCall` per MQI call of every connection: applications' MQCONN / MQOPEN / MQPUT /
MQPUT1 / MQGET / MQCLOSE / MQDISC / MQSUB and the channel agents' calls (the sending MCA's MQGET
from its transmission queue, the receiving MCA's MQPUT1 on the next queue manager, to the
dead-letter queue when the message cannot be put). Engines that watch a network (activity
trace, events, accounting and statistics) are driven from these notifications.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pcf.mqmd import MQMD

if TYPE_CHECKING:
    from traceroute.sim.pubsub.subscriptions import Subscription
    from traceroute.sim.resolve import Resolution

MQCONN, MQDISC, MQOPEN, MQCLOSE = "MQCONN", "MQDISC", "MQOPEN", "MQCLOSE"
MQPUT, MQPUT1, MQGET = "MQPUT", "MQPUT1", "MQGET"
MQSUB = "MQSUB"


@dataclass(frozen=True, slots=True)
class SimConnection:
    """A connection to a simulated queue manager: an application, or a channel's MCA."""

    qmgr: str
    appl_name: str
    appl_type: int
    conn_id: bytes            # 24 bytes: EXTCONN (16) + CONN (8), as DISPLAY CONN shows
    pid: int
    mca: bool = False         # a message channel agent (Environment MQXE_MCA)
    channel: str = ""         # MCAs, client applications: the channel name
    channel_type: int | None = None   # MCAs: MQCHT_*; client applications: MQCHT_SVRCONN
    partner: str = ""         # MCAs: the queue manager at the other end; clients: the host

    @property
    def client(self) -> bool:
        """An application connected as an MQ client (Environment MQXE_MCA_SVRCONN)."""
        return not self.mca and bool(self.channel)
    options: int = 0          # MQCNO options of the MQCONNX (MQCNO_ACTIVITY_TRACE_* ...)
    user: str = "mqm"         # the user identifier its authority is checked for


@dataclass(frozen=True, slots=True)
class SimCall:
    """One MQI call: when, by whom, on what, with which message, and how it ended.

    `object_name`/`object_qmgr` are the names used on the call; `resolved_queue` /
    `resolved_qmgr` the result of name resolution (for a remote queue the destination);
    `local_queue` the local queue really put to or got from (the transmission queue of a
    remote put, the dead-letter queue). `md` is the descriptor of the message put or got
    (on a sending MCA's get: the transmission-queue message, Format MQXMIT); `xmit_*` carry
    the MQXQH of such a message: the original MsgId and the destination.
    """

    time: float                      # virtual seconds since the simulator's start
    conn: SimConnection
    verb: str                        # MQCONN, MQOPEN, MQPUT, MQPUT1, MQGET, MQCLOSE, MQDISC,
    #                                  MQSUB (object_name: the topic string)
    object_name: str = ""
    object_qmgr: str = ""
    resolved_queue: str = ""
    resolved_qmgr: str = ""
    local_queue: str = ""
    md: MQMD | None = None
    data_length: int = 0
    comp_code: int = 0
    reason: int = 0
    options: int = 0                 # MQOO_* / MQPMO_* / MQGMO_* as the verb implies
    hobj: int | None = None
    xmit_msg_id: bytes | None = None
    xmit_correl_id: bytes | None = None
    xmit_remote_q: str = ""
    xmit_remote_qmgr: str = ""
    data: bytes = b""                # the message data (without MQXQH/MQDLH), for tracing
    #: A failed MQOPEN/MQPUT1/MQPUT: the name resolution that failed (its reason and the
    #: object it is about: `Resolution.related`); the call's Reason is this one's.
    failure: Resolution | None = None
    #: MQRQ_* of a failed call's authority check (MQRC_NOT_AUTHORIZED), else 0.
    qualifier: int = 0
    #: A call on a topic (MQOPEN/MQPUT/MQPUT1 of a topic, MQSUB): its full topic string
    #: (`object_name` is then the topic object or alias queue named, if any).
    topic: str = ""
    #: MQSUB: the subscription made (None when the call failed).
    subscription: Subscription | None = None
    #: A failed MQCONN's connection authentication: the MQCSP user id it supplied.
    csp_user: str = ""

    @property
    def qmgr(self) -> str:
        """The queue manager of the call."""
        return self.conn.qmgr
