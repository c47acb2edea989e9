"""What a queue manager says about its queues and channels now, as typed values.

`QueueStatus` is one line of DISPLAY QSTATUS TYPE(QUEUE), `HandleStatus` one of TYPE(HANDLE),
`ChannelStatus` one of DISPLAY CHSTATUS (CURRENT or SAVED), `ResetStats` what RESET QSTATS
returns, `QmgrStatus` what DISPLAY QMSTATUS says, `Definition` one object's configuration
(MQSC keywords and values, as DISPLAY QUEUE/CHANNEL/QMGR shows them) and `ClusterQmgr` one
DISPLAY CLUSQMGR entry. Counters MQ wraps at 999,999,999 (BYTSSENT ...) are kept as the
queue manager gave them. Times are aware datetimes in UTC; monitoring values the queue
manager does not provide (MONQ/MONCHL OFF, nothing measured yet) are None. `to_json` gives
the `mqroute status --json` objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

#: A short- and a long-term indicator (QTIME, XQTIME, NETTIME), microseconds.
Indicator = tuple[int, int]


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with a Z (None stays None)."""
    if moment is None:
        return None
    text = moment.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def _pair(value: Indicator | None) -> list[int] | None:
    return None if value is None else [value[0], value[1]]


@dataclass(frozen=True)
class QueueStatus:
    """A local queue's status: depth, handles, and what real-time monitoring measured."""

    queue_manager: str
    name: str
    curdepth: int
    ipprocs: int = 0
    opprocs: int = 0
    uncom: int = 0
    monq: str = "OFF"                    # the level in force (QMGR resolved)
    msgage: int | None = None            # seconds, the oldest message
    qtime: Indicator | None = None       # microseconds between put and destructive get
    last_put: datetime | None = None
    last_get: datetime | None = None
    curfsize: int | None = None          # MB, the queue file now (CURFSIZE)
    curmaxfs: int | None = None          # MB, what the file can grow to now (CURMAXFS)

    def to_json(self) -> dict:
        """The `mqroute status --json` object of a queue (issue 28's exact keys: the queue
        file sizes are not among them)."""
        return {"queue_manager": self.queue_manager, "object_type": "queue",
                "name": self.name, "curdepth": self.curdepth, "ipprocs": self.ipprocs,
                "opprocs": self.opprocs, "uncom": self.uncom, "msgage": self.msgage,
                "qtime": _pair(self.qtime), "last_put": iso(self.last_put),
                "last_get": iso(self.last_get)}


@dataclass(frozen=True)
class HandleStatus:
    """One handle open on a queue (DISPLAY QSTATUS TYPE(HANDLE))."""

    queue_manager: str
    queue: str
    appl_tag: str
    appl_type: int
    pid: int = 0
    channel: str = ""
    conname: str = ""
    user: str = ""
    input: str = "NO"          # SHARED, EXCL or NO
    output: bool = False
    browse: bool = False
    inquire: bool = False
    set: bool = False
    active: bool = True

    def to_json(self) -> dict:
        """The handle as JSON."""
        return {"queue_manager": self.queue_manager, "object_type": "handle",
                "queue": self.queue, "appltag": self.appl_tag, "appltype": self.appl_type,
                "pid": self.pid, "channel": self.channel, "conname": self.conname,
                "userid": self.user, "input": self.input, "output": self.output,
                "browse": self.browse, "inquire": self.inquire, "set": self.set,
                "hstate": "ACTIVE" if self.active else "INACTIVE"}


@dataclass(frozen=True)
class ChannelStatus:
    """A channel's status (INACTIVE when it has none: never ran, or ended normally)."""

    queue_manager: str
    name: str
    chltype: str
    status: str = "INACTIVE"
    instance: str = "CURRENT"            # CURRENT or SAVED
    substate: str | None = None
    conname: str = ""
    xmitq: str = ""
    rqmname: str = ""
    msgs: int | None = None
    batches: int | None = None
    curmsgs: int | None = None
    curseqno: int | None = None
    lstseqno: int | None = None
    indoubt: bool = False
    stopreq: bool = False
    monchl: str = "OFF"                  # the level in force
    xqtime: Indicator | None = None
    nettime: Indicator | None = None
    last_msg: datetime | None = None
    started: datetime | None = None
    exittime: Indicator | None = None        # microseconds in exits per message
    xbatchsz: Indicator | None = None        # messages per batch
    comptime: Indicator | None = None        # microseconds compressing per message
    bytssent: int | None = None              # bytes sent since the instance started
    bytsrcvd: int | None = None              # bytes received since it started
    bufssent: int | None = None              # transmission buffers sent
    bufsrcvd: int | None = None              # transmission buffers received

    @property
    def has_status(self) -> bool:
        """False for a channel with no status (INACTIVE)."""
        return self.status != "INACTIVE"

    def to_json(self) -> dict:
        """The `mqroute status --json` object of a channel (issue 28's exact keys: bytes
        and buffers are not among them)."""
        return {"queue_manager": self.queue_manager, "object_type": "channel",
                "name": self.name, "chltype": self.chltype, "status": self.status,
                "substate": self.substate or None, "conname": self.conname or None,
                "xmitq": self.xmitq or None, "msgs": self.msgs, "batches": self.batches,
                "xqtime": _pair(self.xqtime), "nettime": _pair(self.nettime),
                "last_msg": iso(self.last_msg)}


@dataclass(frozen=True)
class ResetStats:
    """RESET QSTATS: the queue's statistics since the last reset (then set to zero)."""

    queue_manager: str
    name: str
    time_since_reset: int
    high_depth: int
    enqueued: int
    dequeued: int


@dataclass(frozen=True)
class QmgrStatus:
    """DISPLAY QMSTATUS (Inquire Queue Manager Status): MQQMSTA_* status, the moment it
    started, its connections and its command server's and channel initiator's MQSVC_STATUS_*
    (None: not returned)."""

    queue_manager: str
    status: int
    start: datetime | None = None
    connections: int | None = None
    command_server: int | None = None
    channel_initiator: int | None = None
    installation_name: str = ""
    installation_path: str = ""
    installation_desc: str = ""
    host_name: str = ""


@dataclass(frozen=True)
class Definition:
    """One object's definition: its MQSC kind (QLOCAL ..., CHANNEL, QMGR), name, attributes."""

    queue_manager: str
    kind: str
    name: str
    attrs: dict[str, str] = field(default_factory=dict)
    #: The PCF parameters of the answer it was read from that have no MQSC keyword here
    #: ('MQIA_XYZ (9999) = 5'): left out of `attrs`, to be said, never dropped unsaid.
    unread: tuple[str, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class ClusterQmgr:
    """A queue manager a cluster queue manager knows (DISPLAY CLUSQMGR)."""

    queue_manager: str
    name: str
    cluster: str
    channel: str
    conname: str = ""
    qmtype: str = "NORMAL"               # NORMAL or REPOS
    deftype: str = "CLUSSDRA"            # CLUSRCVR, CLUSSDR, CLUSSDRA, CLUSSDRB
    status: str = "INACTIVE"
    suspended: bool = False
