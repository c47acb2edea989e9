"""A simulated queue-manager network that handles messages as IBM documents it.

Messages are real bytes (MQMD + data; MQXQH on transmission queues, MQDLH on dead-letter
queues); reports and replies are PCF messages our codec writes, and travel back through the
network like any message. Time is virtual: each channel hop takes `latency` seconds, and a
run's message and connection identifiers are unique (a time part and a counter, as a queue
manager makes them) unless a `seed` is given: then they, and so the whole run, are the same
every time. Follows trace-route.md §5 (MCA algorithm), §9
(destinations) and activity-report.md.

Observers: `sim.add_observer(fn)` calls `fn(call)` with a `traceroute.sim.mqi.SimCall` for
every MQI call the network makes (virtual time, connection with appl name/type, MCA flag
and channel, verb MQCONN/MQOPEN/MQPUT/MQPUT1/MQGET/MQCLOSE/MQDISC, object name, resolved
queue and queue manager, the local queue really used, MQMD, data length, CompCode/Reason,
options, and for a sending MCA's get the MQXQH's original MsgId and destination).
Applications connect on first use (one connection per queue manager and application
name; `connection()`), channel agents when their channel first moves a message; `disconnect`
/ `disconnect_all()` end them (MQDISC), and STOP CHANNEL ends the sending MCA's connection.
The receiving MCA puts with MQPUT1 (each try that failed, message retries included, then
the put to the dead-letter queue).
Reports and replies the queue manager itself writes are not MQI calls of a connection.

Limits and dead letters as MQ has them (docs/simulator.md names IBM's pages): a put fails
with MQRC_PUT_INHIBITED (2051), MQRC_MSG_TOO_BIG_FOR_Q (2030, the queue's MAXMSGL, or the
transmission queue's with the MQXQH), else MQRC_MSG_TOO_BIG_FOR_Q_MGR (2031, the queue
manager's) or MQRC_Q_FULL (2053, MAXDEPTH); an application sees the reason, and a message
too big for the channel's negotiated MAXMSGL (the smaller of the two ends') is
MQRC_MSG_TOO_BIG_FOR_CHANNEL (2218) at the sending end. A receiving MCA that cannot put
retries (MRRTY times, MRTMR ms apart, for 2053 and 2051), then puts the message to the
dead-letter queue with an MQDLH carrying the reason; with no usable dead-letter queue (none
named, not a local queue, full, put inhibited, or the channel's USEDLQ(NO)) a nonpersistent
message on an NPMSPEED(FAST) channel is discarded, and any other message is backed out onto
the sending transmission queue, where it waits while the channel retries (SHORTRTY times
SHORTTMR seconds, then LONGTMR): "If you do not [define a dead-letter queue], and the MCA
is unable to put a message, it is left on the transmission queue and the channel is
stopped" (IBM MQ, "Dead-letter queues"). `channel_status` says RETRYING meanwhile (STOPPED
when the retries are used up; START CHANNEL resets them); what is behind the message on the
transmission queue waits too. The same rules hold at the sending end for 2218. `run()`
without `until` stops when only the long retries are left.

Publish/subscribe (`traceroute.sim.pubsub` holds the rules): `open_topic`/`publish` put to a
topic (a topic object, a topic string, or an alias queue with TARGTYPE(TOPIC)); the queue
manager's publish/subscribe engine publishes to every subscription the publication is
considered for (DEFINE SUB, `subscribe` = MQSUB, and proxy subscriptions of other queue
managers in a cluster or hierarchy), in one activity: the Put to the topic (TopicString),
then per subscription a Publish, Discarded Publish (Feedback: why it was not put) or
Excluded Publish (Feedback: why it was left out; no Message group), each with SubId and
SubLevel, as seed 002 documents them. Each copy has a MsgId of its own and the
subscription's CorrelId (the eight fields a subscription may change are its own). A copy
that cannot be put goes to the dead-letter queue when the topic's USEDLQ allows, else it is
lost, unless the topic's PMSGDLV/NPMSGDLV (ALL, or ALLDUR and a durable subscription) make
the whole put fail with MQRC_PUBLICATION_FAILURE (2502): then nothing is published. A copy
for another queue manager's engine (a proxy subscription) goes to its SYSTEM.INTER.QMGR.PUBS
through the channels; that engine gets it there and publishes it again ("amqfqpub": Get,
Put to the topic, Publish ...). A trace-route message with Deliver=NO is not put to a local
subscriber's queue (Discarded Publish, MQFB_NOT_DELIVERED), but is passed on to another
engine.

Deliberate simplifications: each message is its own batch (a backed-out message does not
hold back those sent before it, and a message sent before it that arrives later says
nothing of the retries); a channel's other end is the queue manager that defines a
receiver of the same name; retained publications, message properties (PSPROP) and the
queued publish/subscribe interface are not simulated.

Watchers: `sim.add_watcher(w)` tells a `Watcher` (no-op methods to override) what happens
to queues and channels beyond MQI calls: a message stored on a queue (whoever put it: an
application, an MCA, the queue manager's own reports), a message taken from one (a
destructive get, an MCA's get, an expired message removed), a channel moving a batch, a
channel that cannot reach its partner, STOP/START CHANNEL. Real-time monitoring and the
command server (`traceroute.sim.cmdserver`) are watchers.
"""

from __future__ import annotations

import copy
import heapq
import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timedelta
from operator import attrgetter
from time import time_ns

from pcf import mqc
from pcf.fastencode import pack_xqh
from pcf.headers import DLH_LENGTH, MQDLH, MQXQH, XQH_LENGTH, pack_dlh, unpack_xqh
from pcf.model import ByteString, Group, Header, Integer, Message, Parameter, String
from pcf.mqmd import MQMD
from traceroute.records.build import (
    activity_group,
    activity_report,
    encode_report,
    operation_group,
    report_descriptor,
)
from traceroute.records.topics import (
    SYSTEM_BRANCH,
    in_system_branch,
    matches,
    system_wildcard_misplaced,
)
from traceroute.sim import qfile
from traceroute.sim import tracestate as ts
from traceroute.sim.authority import authorized
from traceroute.sim.channels import (
    Attempt,
    ChannelError,
    attempt,
    blocked_by,
    channel_error,
    listeners,
)
from traceroute.sim.crtmqm import QMGR_DEFAULTS
from traceroute.sim.mqi import (
    MQCLOSE,
    MQCONN,
    MQDISC,
    MQGET,
    MQOPEN,
    MQPUT,
    MQPUT1,
    MQSUB,
    SimCall,
    SimConnection,
)
from traceroute.sim.network import (
    MQObject,
    Network,
    QueueManager,
    cached,
    generation,
    kept,
    queue_changes,
)
from traceroute.sim.pubsub import (
    API,
    INTER_QMGR_PUBS,
    Inflight,
    Origin,
    PubSub,
    SelectorError,
    Subscription,
    compile_selector,
    consider,
    fixed_prefix,
    managed_queue,
    publishable,
    resolve_topic,
    sub_id_for,
    view,
)
from traceroute.sim.qmini import MAX_VALUE
from traceroute.sim.resolve import (
    Resolution,
    cluster_receiver,
    clusters_of,
    local_resolution,
    resolve,
    resolve_input,
    xmitq_sender,
)

ACTIVITY_QUEUE = "SYSTEM.ADMIN.ACTIVITY.QUEUE"
TRACE_ROUTE_QUEUE = "SYSTEM.ADMIN.TRACE.ROUTE.QUEUE"
COMMAND_QUEUE = "SYSTEM.ADMIN.COMMAND.QUEUE"
#: The system queues every queue manager has: name -> (kind, attributes).
SYSTEM_QUEUES = {
    ACTIVITY_QUEUE: ("QLOCAL", {}), TRACE_ROUTE_QUEUE: ("QLOCAL", {}),
    "SYSTEM.DEFAULT.MODEL.QUEUE": ("QMODEL", {}),
    "SYSTEM.CLUSTER.TRANSMIT.QUEUE": ("QLOCAL", {"USAGE": "XMITQ"}),
}
SENDING_MCA, RECEIVING_MCA = "runmqchl", "amqrmppa"
#: The publish/subscribe engine: the process that publishes what other queue managers send
#: (ActivityApplName of its activities), and the description of a publishing activity.
PUBSUB_ENGINE, PUBLISH_ACTIVITY = "amqfqpub", "Publish/Subscribe Engine"
_CCSID = 819
#: Two simulated times closer than this are the same moment (float sums of delays).
_TIME_MARGIN = 1e-6


@dataclass
class Stored:
    """A message on a queue: its bytes, when it was put, and its full original descriptor."""

    md: MQMD
    data: bytes
    put_at: float
    original: MQMD | None = None  # on an xmitq: the MQMD v2 the MQXQH carries as v1
    xqh: MQXQH | None = None  # on an xmitq: the MQXQH that `data` begins with, unpacked


class Watcher:
    """What a watcher of a Simulator is told (override what you need; `sim.now` is the time).

    `stored`: a message was put on a local queue. `taken`: a message left one: got
    destructively by an application or an MCA (`expired` False), or removed because it
    expired. `batch`: the sending channel `channel` of `qmgr` moved `messages` (as they were
    on the transmission queue) to `partner` in one go. `blocked`: the channel could not
    start: its partner is not defined or its receiving end is stopped; the messages wait.
    `stopped`/`started`: STOP CHANNEL / START CHANNEL on `qmgr`.
    """

    def stored(self, qmgr: str, queue: str, message: Stored) -> None:
        """A message was stored on a queue."""

    def taken(self, qmgr: str, queue: str, message: Stored, *, expired: bool) -> None:
        """A message was taken off a queue (a destructive get, or removed as expired)."""

    def batch(self, qmgr: str, channel: MQObject, partner: str,
              messages: list[Stored]) -> None:
        """A sending channel moved `messages` to `partner`."""

    def blocked(self, qmgr: str, channel: MQObject) -> None:
        """A sending channel cannot reach its partner: its messages wait."""

    def stopped(self, qmgr: str, channel: str) -> None:
        """STOP CHANNEL."""

    def started(self, qmgr: str, channel: str) -> None:
        """START CHANNEL."""

    def channel_started(self, qmgr: str, channel: MQObject, attempt: Attempt) -> None:
        """An instance of sending channel `channel` of `qmgr` started: it reached
        `attempt.partner` (its receiving end starts with it)."""

    def channel_ended(self, qmgr: str, channel: MQObject, partner: str, qualifier: int,
                      error: ChannelError | None, *, by_user: bool = False) -> None:
        """A running instance of a sending channel ended (`qualifier`: MQRQ_CHANNEL_STOPPED_
        OK, _RETRY or _DISABLED; `error`: the AMQ message it ended with; `by_user`: STOP
        CHANNEL); its receiving end at `partner` ends with it."""

    def channel_failed(self, qmgr: str, channel: MQObject, attempt: Attempt,
                       qualifier: int) -> None:
        """A sending channel could not start (`attempt.error` says why); it retries
        (MQRQ_CHANNEL_STOPPED_RETRY) or, its retries used up, is STOPPED (_DISABLED)."""

    def channel_waiting(self, qmgr: str, channel: MQObject, xmitq: str) -> None:
        """A sending channel must wait in STARTING for an active slot (MaxActiveChannels
        of qm.ini reached)."""

    def channel_activated(self, qmgr: str, channel: MQObject, xmitq: str) -> None:
        """A channel that waited for an active slot got one (another channel ended)."""

    def qmgr_changed(self, qmgr: str, active: bool, qualifier: int) -> None:
        """The queue manager started (strmqm) or was asked to end (endmqm)."""

    def channel_conversion_error(self, qmgr: str, channel: MQObject, partner: str,
                                 md: MQMD, reason: int) -> None:
        """A sending channel with CONVERT(YES) could not convert a message for its partner
        (`reason`, e.g. MQRC_FORMAT_ERROR): it was sent as it was."""

    def client_refused(self, qmgr: str, conn: SimConnection, reason: int, qualifier: int,
                       limit: int = 0) -> None:
        """A client's server-connection channel refused it: blocked by a CHLAUTH record
        (MQRC_NOT_AUTHORIZED, MQRQ_CHANNEL_BLOCKED_*) or at its MAXINST/MAXINSTC `limit`
        (MQRC_CHANNEL_NOT_AVAILABLE, MQRQ_SVRCONN_INST_LIMIT / _CLIENT_INST_LIMIT)."""

    def published(self, qmgr: str, subscription: Subscription, md: MQMD,
                  length: int) -> None:
        """The engine of `qmgr` put a copy of a publication (`md`, `length` bytes) for a
        subscription (a proxy subscription's towards another engine)."""

    def unsubscribed(self, qmgr: str, subscription: Subscription) -> None:
        """An API subscription of `qmgr` was closed and removed (MQCLOSE with
        MQCO_REMOVE_SUB, or a non-durable one with its connection)."""


@dataclass
class MessageRetry:
    """A receiving MCA waiting to retry a put (MRRTY/MRTMR): the sending queue manager,
    the attempt it waits to make, when (simulation time), and the message with the
    transmission queue it came from (its batch is not committed meanwhile)."""

    sender: str
    attempt: int
    due: float
    back: tuple  # (the message, its transmission queue, ...): what a back-out needs


@dataclass
class PutResult:
    """What an application's put did: the resolution, or the MQRC_* reason it failed."""

    reason: int
    msg_id: bytes = b""
    resolution: Resolution | None = None

    @property
    def ok(self) -> bool:
        """True when the put succeeded."""
        return self.reason == 0


@dataclass
class GetResult:
    """What an application's get did: the message got (or browsed), or the MQRC_* reason."""

    reason: int
    md: MQMD | None = None
    data: bytes = b""
    resolution: Resolution | None = None

    @property
    def ok(self) -> bool:
        """True when a message was got."""
        return self.reason == 0


@dataclass
class Opened:
    """An open queue: puts go where the open resolved to (or re-resolve: BIND_NOT_FIXED)."""

    sim: Simulator
    qmgr: str
    queue: str
    target_qmgr: str
    resolution: Resolution
    bind_not_fixed: bool
    appl_name: str
    appl_type: int
    hobj: int = 0
    put1: bool = False  # opened by Simulator.put: one MQPUT1, no MQOPEN/MQCLOSE
    refused: int = 0    # the application could not connect: the MQCONN's reason
    topic: str = ""     # a topic opened (MQOT_TOPIC): its full topic string
    topic_object: str = ""  # ... and the topic object named (or the alias's TARGET)

    @property
    def reason(self) -> int:
        """The MQRC_* of the open (0 = opened)."""
        return self.resolution.reason

    @property
    def resolved_queue(self) -> str:
        """The queue the open resolved to (a transmission queue for a remote target)."""
        return self.resolution.queue

    def put(self, md: MQMD, data: bytes) -> PutResult:
        """MQPUT: the message goes where this handle is bound (or is re-resolved); to a
        topic, it is published."""
        if self.refused:
            return PutResult(self.refused, resolution=self.resolution)
        if self.topic or self.topic_object:
            return self.sim._app_publish(self, md, data)
        r = self.resolution
        if self.bind_not_fixed and r.ok:
            r = resolve(self.sim.network, self.qmgr, self.queue, self.target_qmgr,
                        choose=self.sim._choose)
        return self.sim._app_put(self, md, data, r)

    def close(self, options: int = 0) -> int:
        """MQCLOSE; with MQCO_DELETE / MQCO_DELETE_PURGE a dynamic queue goes: its reason
        (MQRC_NOT_AUTHORIZED: a permanent dynamic queue this handle did not make, and the
        user has no +dlt on it; MQRC_Q_NOT_EMPTY: MQCO_DELETE of a queue with messages)."""
        if self.put1 or self.refused:
            return 0
        return self.sim._close(self, options)


#: An Operation group, or how to make it: only activities that are recorded need theirs.
_Op = Group | Callable[[], Group]


def _made(op: _Op) -> Group:
    return op if isinstance(op, Group) else op()


@dataclass(slots=True)
class _Action:
    """What an activity does with the message: its operation (and any more after it: a
    publication's), and doing it (given the data)."""

    operation: _Op
    run: Callable[[bytes], None]
    local: bool = False
    rejected: bool = False
    more: Sequence[_Op] = ()


@dataclass
class Subscribed:
    """What an application's MQSUB did: the subscription made, or the MQRC_* reason."""

    reason: int
    subscription: Subscription | None = None
    hsub: int = 0

    @property
    def ok(self) -> bool:
        """True when the subscription was made."""
        return self.reason == 0

    @property
    def queue(self) -> str:
        """The queue its publications go to (a managed queue when none was named)."""
        return self.subscription.dest if self.subscription is not None else ""


@dataclass
class _Copy:
    """One subscription a publication was considered for, and what becomes of its copy."""

    sub: Subscription
    excluded: int = 0               # MQFB_* of an Excluded Publish
    md: MQMD | None = None          # the copy's descriptor
    r: Resolution | None = None     # where it is put
    failure: int = 0                # why it is not put (MQRC_*, or MQFB_NOT_DELIVERED)
    dlq: str = ""                   # the dead-letter queue it goes to instead


@dataclass(slots=True)
class _Activity:
    """An activity being performed: who, where, and its operations so far."""

    qm: QueueManager
    appl_name: str
    appl_type: int
    description: str
    level: int
    operations: list[_Op] = field(default_factory=list)


class Simulator:
    """Runs messages through a Network in virtual time."""

    def __init__(self, network: Network, *, seed: int | None = None, latency: float = 0.05,
                 start: datetime | None = None, clock_skew: dict[str, float] | None = None,
                 sending_mca: str = SENDING_MCA, receiving_mca: str = RECEIVING_MCA) -> None:
        self.network = copy.deepcopy(network)  # channel states change as the run goes on
        self.sending_mca = sending_mca
        self.receiving_mca = receiving_mca
        self.latency = latency
        self.start = start or datetime(2026, 11, 22, 10, 0, 0)
        self.clock_skew = clock_skew or {}
        # the identifiers' time part: from the clock (unique across runs, as MQ's are), or
        # from the seed (the same identifiers every run: tests, notebooks, benchmarks)
        self._stamp = (_clock_stamp() if seed is None
                       else random.Random(seed).getrandbits(32).to_bytes(4, "big"))
        self.now = 0.0
        self.queues: dict[tuple[str, str], deque[Stored]] = {}
        self._events: list[tuple[float, int, Callable[[], None]]] = []
        self._seq = 0
        self._counters: dict[str, int] = {}
        self._round_robin: dict[tuple[str, str], int] = {}
        self._observers: list[Callable[[SimCall], None]] = []
        self.watchers: list[Watcher] = []
        self._conns: dict[tuple[str, str, str], SimConnection] = {}
        self._conn_serial = 0
        self._hobj = 0
        self._input_handles: dict[tuple[bytes, str], int] = {}
        #: (qmgr, queue) -> (network stamp, input resolution, GET(DISABLED) reason or 0)
        self._input_plans: dict[tuple[str, str], tuple[tuple[int, int], Resolution, int]] = {}
        self._actor: _Actor | None = None  # whose put the next _deliver/_reject is
        self._stamp_cache: dict[tuple[datetime, float], tuple[str, str, str, str]] = {}
        self._foreground = 0  # pending events that are not long channel retries
        #: (qmgr, channel) -> [retries so far, waiting for the retry timer]
        self._retrying: dict[tuple[str, str], list] = {}
        #: (receiving qmgr, channel) -> the puts its MCA waits to retry (message retry)
        self._message_retries: dict[tuple[str, str], list[MessageRetry]] = {}
        #: (qmgr, sending channel) -> the queue manager its running instance reached
        self._instances: dict[tuple[str, str], str] = {}
        #: (qmgr, sending channel) -> when it last moved a message (for DISCINT)
        self._active_at: dict[tuple[str, str], float] = {}
        self._discint_checks: set[tuple[str, str]] = set()  # a DISCINT check is waiting
        #: qmgr -> its channels active now (qm.ini MaxActiveChannels): running sending
        #: instances, receiving ends, clients' SVRCONN instances, slots handed to a channel
        #: that waited for one
        self._active: dict[str, int] = {}
        #: qmgr -> sending channels waiting in STARTING for an active slot (first first),
        #: with the transmission queue each serves
        self._starting: dict[str, list[tuple[MQObject, str]]] = {}
        #: (qmgr, channel) handed a slot that is about to start (the slot counts as active)
        self._slotted: set[tuple[str, str]] = set()
        #: queue manager -> virtual seconds of its strmqm after an endmqm (none: it runs
        #: since `start`)
        self.started_at: dict[str, float] = {}
        #: queue managers ended (end_qmgr) and not started again
        self.ended: set[str] = set()
        #: application name -> the user it runs as ('mqm' when not named here)
        self.users: dict[str, str] = {}
        #: user -> the groups it is in (for authority records of GROUP)
        self.groups: dict[str, set[str]] = {}
        #: application name -> (user id, password) it supplies in the MQCSP of its MQCONNX
        #: (connection authentication: the queue manager's CONNAUTH); none: no MQCSP
        self.credentials: dict[str, tuple[str, str]] = {}
        #: user -> its password on the queue managers' systems (CONNAUTH AUTHTYPE(IDPWOS),
        #: and IDPWLDAP, whose directory is not simulated: the same table)
        self.passwords: dict[str, str] = {}
        #: (qmgr, 'app', appl) -> (reason, MQRQ_*) of a connection refused
        self._refused: dict[tuple[str, str, str], tuple[int, int]] = {}
        #: (qmgr, dynamic queue) -> (the handle that made it, its user)
        self._dynamic: dict[tuple[str, str], tuple[int, str]] = {}
        self._dynamic_serial = 0
        #: (qmgr, appl) -> (SVRCONN channel, host, user) of an application that is a client
        self._clients: dict[tuple[str, str], tuple[str, str, str]] = {}
        for qm in self.network.qmgrs.values():  # listeners that start with the qmgr
            for listener in listeners(qm):
                if listener.get("CONTROL") in ("QMGR", "STARTONLY"):
                    qm.running.add(("LISTENER", listener.name))
        #: publish/subscribe beyond the definitions: MQSUB subscriptions, publications in
        #: flight between queue managers' engines (`traceroute.sim.pubsub.PubSub`)
        self.pubsub = PubSub()
        self._sub_serial = 0

    # --- MQI calls and connections, for observers (traceroute.sim.mqi) ----------------

    def add_observer(self, fn: Callable[[SimCall], None]) -> None:
        """Call `fn(call)` with a SimCall for every MQI call from now on."""
        self._observers.append(fn)

    def remove_observer(self, fn: Callable[[SimCall], None]) -> None:
        """Stop calling `fn`."""
        self._observers.remove(fn)

    def add_watcher(self, watcher: Watcher) -> None:
        """Tell `watcher` about queues and channels from now on (see `Watcher`)."""
        self.watchers.append(watcher)

    def _notify(self, conn: SimConnection, verb: str, **fields: object) -> None:
        if self._observers:
            call = SimCall(self.now, conn, verb, **fields)  # type: ignore[arg-type]
            for fn in list(self._observers):
                fn(call)

    def connection(self, qmgr: str, appl_name: str, appl_type: int = mqc.MQAT_UNIX, *,
                   options: int = 0, client_channel: str = "", client_host: str = "",
                   user: str | None = None) -> SimConnection:
        """The application's connection to `qmgr` (MQCONN on first use; `options` are the
        MQCNO options of that MQCONNX, e.g. MQCNO_ACTIVITY_TRACE_ENABLED). With
        `client_channel` the application is an MQ client connected through that
        server-connection channel (from `client_host`): its later calls by the same name
        are made on this connection. `user`: whom it runs as (default `users[appl_name]`,
        else 'mqm'); a client's channel with MCAUSER runs it as that user. An MQCONN that
        fails (the queue manager ended, no authority to connect, the channel refused it)
        gives a connection its calls cannot use: `refusal` says why."""
        user = user or self.users.get(appl_name, "mqm")
        if client_channel:
            self._clients[(qmgr, appl_name)] = (client_channel, client_host, user)
            svrconn = self.network.qmgrs[qmgr].channels.get(client_channel)
            mcauser = svrconn.get("MCAUSER") if svrconn is not None else ""
            return self._connect(qmgr, "app", appl_name, appl_name, appl_type,
                                 options=options, channel=client_channel,
                                 channel_type=mqc.MQCHT_SVRCONN,
                                 partner=client_host or f"{appl_name.lower()}.client",
                                 user=mcauser or user, client_user=user)
        return self._connect(qmgr, "app", appl_name, appl_name, appl_type, options=options,
                             user=user)

    def refusal(self, qmgr: str, appl_name: str) -> int:
        """The MQRC_* the application's last MQCONN to `qmgr` failed with (0: connected)."""
        refused = self._refused.get((qmgr, "app", appl_name))
        return refused[0] if refused else 0

    def _app(self, qmgr: str, appl_name: str, appl_type: int) -> tuple[SimConnection, int]:
        """The application's connection and the reason it could not connect (0: it did)."""
        key = (qmgr, "app", appl_name)
        conn = self._conns.get(key)
        if conn is not None:
            return conn, 0
        client = self._clients.get((qmgr, appl_name))
        if client is not None:  # a client connects again through its channel
            conn = self.connection(qmgr, appl_name, appl_type, client_channel=client[0],
                                   client_host=client[1], user=client[2])
        else:
            conn = self.connection(qmgr, appl_name, appl_type)
        return conn, self.refusal(qmgr, appl_name)

    def _refuse(self, conn: SimConnection, client_user: str) -> tuple[int, int, int]:
        """(MQRC_*, MQRQ_*, limit) of an application's MQCONN that fails, else zeros."""
        qm = self.network.qmgrs[conn.qmgr]
        if not self._up(conn.qmgr):
            return mqc.MQRC_Q_MGR_NOT_AVAILABLE, 0, 0
        if conn.client:
            svrconn = qm.channels.get(conn.channel)
            if svrconn is None or svrconn.get("CHLTYPE") != "SVRCONN" \
                    or not qm.channel_running(conn.channel):
                return mqc.MQRC_Q_MGR_NOT_AVAILABLE, 0, 0  # AMQ9520/AMQ9558 at the client
            blocked = blocked_by(qm, conn.channel, user=conn.user, client_user=client_user,
                                 address=conn.partner)
            if blocked:
                return mqc.MQRC_NOT_AUTHORIZED, blocked, 0
            refused, limit = self._inbound_refusal(qm)
            if refused:  # its SVRCONN instance cannot become current / active (AMQ9513E)
                return mqc.MQRC_CHANNEL_NOT_AVAILABLE, refused, limit
            clients = [c for c in self._conns.values()
                       if c.qmgr == conn.qmgr and c.client and c.channel == conn.channel]
            maxinst = _number(svrconn.get("MAXINST"), 999999999)
            if len(clients) >= maxinst:
                return mqc.MQRC_CHANNEL_NOT_AVAILABLE, mqc.MQRQ_SVRCONN_INST_LIMIT, maxinst
            maxinstc = _number(svrconn.get("MAXINSTC"), 999999999)
            if sum(1 for c in clients if c.partner == conn.partner) >= maxinstc:
                return mqc.MQRC_CHANNEL_NOT_AVAILABLE, mqc.MQRQ_CLIENT_INST_LIMIT, maxinstc
        if self._authentication(qm, conn) is False:
            return mqc.MQRC_NOT_AUTHORIZED, mqc.MQRQ_CSP_NOT_AUTHORIZED, 0
        user = self._adopted(qm, conn)
        if not authorized(qm, "QMGR", qm.name, user, self.groups.get(user, ()),
                          ("CONNECT",)):
            return mqc.MQRC_NOT_AUTHORIZED, mqc.MQRQ_CONN_NOT_AUTHORIZED, 0
        return 0, 0, 0

    def _connauth(self, qm: QueueManager) -> MQObject | None:
        """The AUTHINFO the queue manager's CONNAUTH names (None: no connection
        authentication, or a type that checks no user id and password)."""
        name = qm.attrs.get("CONNAUTH", QMGR_DEFAULTS["CONNAUTH"])
        info = qm.others.get(("AUTHINFO", name)) if name else None
        if info is None or info.get("AUTHTYPE").upper() not in ("IDPWOS", "IDPWLDAP"):
            return None
        return info

    def _authentication(self, qm: QueueManager, conn: SimConnection) -> bool | None:
        """Connection authentication of an MQCONN (CONNAUTH's CHCKCLNT for a client,
        CHCKLOCL for a local application): True when the MQCSP user id and password it
        supplied (`credentials`) are right, False when the check fails (wrong password, an
        unknown user, none supplied where REQUIRED, or for a privileged user where
        REQDADM), None when nothing is checked."""
        info = self._connauth(qm)
        if info is None:
            return None
        check = info.get("CHCKCLNT" if conn.client else "CHCKLOCL").upper() or "NONE"
        if check == "NONE":
            return None
        supplied = self.credentials.get(conn.appl_name)
        if supplied is not None:
            user, password = supplied
            return user in self.passwords and self.passwords[user] == password
        privileged = conn.user == "mqm" or "mqm" in self.groups.get(conn.user, ())
        if check == "REQUIRED" or (check == "REQDADM" and privileged):
            return False
        return None

    def _adopted(self, qm: QueueManager, conn: SimConnection) -> str:
        """The user a connection runs as: the MQCSP user id once authenticated where the
        AUTHINFO says ADOPTCTX(YES), else its own."""
        info = self._connauth(qm)
        supplied = self.credentials.get(conn.appl_name)
        if info is not None and supplied is not None and \
                info.get("ADOPTCTX").upper() == "YES" and self._authentication(qm, conn):
            return supplied[0]
        return conn.user

    def _authority(self, qm: QueueManager, user: str, queue: str,
                   target_qmgr: str, r: Resolution | None, needed: tuple[str, ...]
                   ) -> Resolution | None:
        """The failed Resolution (MQRC_NOT_AUTHORIZED, MQRQ_OPEN_NOT_AUTHORIZED) when `user`
        may not open `queue` at `target_qmgr` for `needed`: checked on the queue named, on
        SYSTEM.CLUSTER.TRANSMIT.QUEUE for a cluster queue, on the queue-manager alias or
        else the transmission queue for another queue manager."""
        groups = self.groups.get(user, ())
        if user == "mqm" or "mqm" in groups:
            return None
        if target_qmgr and target_qmgr != qm.name:
            alias = qm.queues.get(target_qmgr)
            checked = target_qmgr if alias is not None and alias.kind == "QREMOTE" else (
                r.xmitq if r is not None and r.ok else "")
            if not checked:
                return None  # the resolution's own failure comes first
        elif queue not in qm.queues and r is not None and r.ok and r.xmitq:
            checked = r.xmitq  # a cluster queue elsewhere: its transmission queue
        else:
            checked = queue
        if authorized(qm, "QUEUE", checked, user, groups, needed):
            return None
        return Resolution(qm.name, reason=mqc.MQRC_NOT_AUTHORIZED, related=checked,
                          qualifier=mqc.MQRQ_OPEN_NOT_AUTHORIZED)

    def _connect(self, qmgr: str, kind: str, name: str, appl_name: str, appl_type: int,
                 **mca: object) -> SimConnection:
        key = (qmgr, kind, name)
        conn = self._conns.get(key)
        if conn is None:
            self._conn_serial += 1
            n = self._conn_serial
            conn_id = (b"AMQC" + qmgr.ljust(12)[:12].encode("latin-1") + self._stamp
                       + n.to_bytes(4, "big"))
            client_user = str(mca.pop("client_user", "") or mca.get("user", ""))
            conn = SimConnection(qmgr, appl_name, appl_type, conn_id, 1000 + n,
                                 **mca)  # type: ignore[arg-type]
            if kind == "app":
                reason, qualifier, limit = self._refuse(conn, client_user)
                if reason:
                    self._refused[key] = (reason, qualifier)
                    csp = self.credentials.get(appl_name, ("",))[0] \
                        if qualifier == mqc.MQRQ_CSP_NOT_AUTHORIZED else ""
                    self._notify(conn, MQCONN, object_qmgr=qmgr, comp_code=mqc.MQCC_FAILED,
                                 reason=reason, qualifier=qualifier, csp_user=csp)
                    if conn.client and qualifier not in (0, mqc.MQRQ_CONN_NOT_AUTHORIZED):
                        for w in self.watchers:
                            w.client_refused(qmgr, conn, reason, qualifier, limit)
                    return conn
                self._refused.pop(key, None)
                adopted = self._adopted(self.network.qmgrs[qmgr], conn)
                if adopted != conn.user:  # ADOPTCTX(YES): it runs as its MQCSP user
                    conn = replace(conn, user=adopted)
                if conn.client:  # its SVRCONN channel instance is active
                    self._active[qmgr] = self._active.get(qmgr, 0) + 1
            self._conns[key] = conn
            self._notify(conn, MQCONN, object_qmgr=qmgr)
        return conn

    def disconnect(self, conn: SimConnection) -> None:
        """MQDISC: the connection ends (its next call connects anew)."""
        for key, c in list(self._conns.items()):
            if c is conn:
                del self._conns[key]
                self._input_handles = {k: v for k, v in self._input_handles.items()
                                       if k[0] != conn.conn_id}
                if conn.client:  # its SVRCONN instance ends: a slot is free
                    self._active[conn.qmgr] -= 1
                    self._slot_freed(conn.qmgr)
                if not conn.mca:  # its non-durable subscriptions end with it
                    for sub in list(self.pubsub):
                        if sub.qmgr == conn.qmgr and not sub.durable and (
                                sub.conn_id == conn.conn_id if sub.conn_id
                                else sub.appl_name == conn.appl_name):
                            self._end_subscription(sub)
                self._notify(conn, MQDISC)

    def disconnect_all(self) -> None:
        """Every connection ends: applications and channel agents (the end of a run)."""
        for conn in list(self._conns.values()):
            self.disconnect(conn)

    def connections(self) -> list[SimConnection]:
        """The connections open now."""
        return list(self._conns.values())

    def connection_table(self) -> list[tuple[str, str, SimConnection]]:
        """(kind, name, connection) of every open connection: kind 'app' (name: the
        application's), 'sender' or 'receiver' (name: the channel's)."""
        return [(kind, name, conn) for (_, kind, name), conn in self._conns.items()]

    def resume_connection(self, kind: str, name: str, conn: SimConnection) -> None:
        """A connection that was open before this run (an estate's channel agents): it goes
        on, without a new MQCONN (a client's SVRCONN instance holds its active slot)."""
        key = (conn.qmgr, kind, name)
        if conn.client and key not in self._conns:
            self._active[conn.qmgr] = self._active.get(conn.qmgr, 0) + 1
        self._conns[key] = conn

    def suspend_connection(self, qmgr: str, kind: str, name: str) -> SimConnection | None:
        """Take a connection out of this run without MQDISC (it goes on later, elsewhere:
        `resume_connection`); None when there is none."""
        conn = self._conns.pop((qmgr, kind, name), None)
        if conn is not None and conn.client:  # its slot goes with it
            self._active[qmgr] -= 1
        return conn

    def open_handles(self, conn: SimConnection) -> dict[str, int]:
        """The input handles a connection has open: queue -> Hobj (see `reopen_handles`)."""
        return {queue: hobj for (cid, queue), hobj in self._input_handles.items()
                if cid == conn.conn_id}

    def reopen_handles(self, conn: SimConnection, handles: dict[str, int]) -> None:
        """Handles a resumed connection had open (no new MQOPEN)."""
        for queue, hobj in handles.items():
            self._input_handles[(conn.conn_id, queue)] = hobj

    def input_handles(self, qmgr: str, queue: str) -> list[SimConnection]:
        """The applications' connections that have `queue` of `qmgr` open for input."""
        return [c for c in self._conns.values() if c.qmgr == qmgr
                and (c.conn_id, queue) in self._input_handles]

    def identity(self) -> dict:
        """What makes new MsgIds and connection ids unique (see `restore_identity`)."""
        state = {"stamp": self._stamp.hex(), "msg_ids": dict(self._counters),
                 "connections": self._conn_serial, "handles": self._hobj}
        if self._sub_serial:
            state["subscriptions"] = self._sub_serial  # MQSUB labels (SubIds) stay unique
        pubsub = self.pubsub.state()
        if pubsub["subscriptions"] or pubsub["inflight"]:
            state["pubsub"] = pubsub  # durable MQSUB subscriptions, publications in flight
        return state

    def restore_identity(self, state: dict) -> None:
        """Go on from an `identity()` of an earlier run: no MsgId is made twice."""
        self._stamp = bytes.fromhex(state.get("stamp", self._stamp.hex()))
        self._counters.update({str(k): int(v) for k, v in state.get("msg_ids", {}).items()})
        self._conn_serial = max(self._conn_serial, int(state.get("connections", 0)))
        self._hobj = max(self._hobj, int(state.get("handles", 0)))
        self._sub_serial = max(self._sub_serial, int(state.get("subscriptions", 0)))
        if isinstance(state.get("pubsub"), dict):
            self.pubsub.restore(state["pubsub"])

    def _next_hobj(self) -> int:
        self._hobj += 1
        return self._hobj

    def _put_call(self, actor: _Actor, qm: QueueManager, md: MQMD, data: bytes, *,
                  r: Resolution | None = None, queue: str = "", reason: int = 0,
                  qualifier: int = 0) -> None:
        """Tell observers about the put `actor` made (to `r`, or to `queue`); a failed
        resolution `r` is the put's failure and reason."""
        fields: dict[str, object] = {}
        failure = None
        if r is not None and not r.ok:
            failure, reason = r, reason or r.reason
            qualifier = qualifier or r.qualifier
        elif r is not None:
            fields = {"resolved_queue": r.remote_q if r.xmitq else r.queue,
                      "resolved_qmgr": r.remote_qmgr if r.xmitq else qm.name,
                      "local_queue": r.xmitq or r.queue}
        elif queue:
            fields = {"resolved_queue": queue, "resolved_qmgr": qm.name, "local_queue": queue}
        elif actor.failure is not None and reason == actor.failure.reason:
            failure = actor.failure
            qualifier = qualifier or failure.qualifier
        self._notify(actor.conn, actor.verb, object_name=queue or actor.object_name,
                     object_qmgr="" if queue else actor.object_qmgr, md=md,
                     data_length=len(data), data=data, hobj=actor.hobj,
                     comp_code=mqc.MQCC_FAILED if reason else mqc.MQCC_OK, reason=reason,
                     failure=failure, qualifier=qualifier, **fields)

    # --- time and identity -------------------------------------------------------------

    def _at(self, delay: float, action: Callable[[], None], background: bool = False) -> None:
        self._seq += 1
        if not background:
            self._foreground += 1
        heapq.heappush(self._events, (self.now + delay, self._seq, action, background))

    def later(self, delay: float, action: Callable[[], None]) -> None:
        """Run `action` `delay` simulated seconds from now (a queue manager's own work)."""
        self._at(delay, action)

    def encoding(self, qmgr: str) -> tuple[int, int]:
        """(Encoding, CCSID) of what queue manager `qmgr` writes."""
        return self._encoding(self.network.qmgrs[qmgr])

    def next_event_time(self) -> float | None:
        """The virtual time of the next pending event, or None when all is quiet."""
        return self._events[0][0] if self._events else None

    def run(self, until: float | None = None, max_events: int = 1_000_000) -> int:
        """Process events (up to virtual time `until`); returns how many ran."""
        done = 0
        while self._events and done < max_events:
            when = self._events[0][0]
            if until is not None and when > until:
                break
            if until is None and not self._foreground:
                break  # only channels' long retries are left: quiet
            _, _, action, background = heapq.heappop(self._events)
            if not background:
                self._foreground -= 1
            self.now = max(self.now, when)
            action()
            done += 1
        if until is not None:
            self.now = max(self.now, until)
        return done

    def _clock(self, qm: QueueManager) -> datetime:
        return self.start + timedelta(seconds=self.now + self.clock_skew.get(qm.name, 0.0))

    def _stamps(self, qm: QueueManager) -> tuple[str, str, str, str]:
        """The moment on qm's clock as an Operation shows it (date, time) and as an MQMD
        does (PutDate, PutTime); formatted once per moment."""
        key = (self.start, self.now + self.clock_skew.get(qm.name, 0.0))
        stamps = self._stamp_cache.get(key)
        if stamps is None:
            if len(self._stamp_cache) > 4096:
                self._stamp_cache.clear()
            stamps = self._stamp_cache[key] = moment_strings(self._clock(qm))
        return stamps

    def _date_time(self, qm: QueueManager) -> tuple[str, str]:
        return self._stamps(qm)[:2]

    def _put_stamp(self, qm: QueueManager) -> tuple[str, str]:
        return self._stamps(qm)[2:]

    def new_msg_id(self, qmgr: str) -> bytes:
        """A MsgId as a queue manager makes one: 'AMQ ', 12 characters of name, a counter."""
        n = self._counters.get(qmgr, 0) + 1
        self._counters[qmgr] = n
        head = _ID_HEADS.get(qmgr)
        if head is None:
            if len(_ID_HEADS) >= 65536:
                _ID_HEADS.clear()
            head = _ID_HEADS[qmgr] = b"AMQ " + qmgr.ljust(12)[:12].encode("latin-1")
        return head + self._stamp + n.to_bytes(4, "big")

    def _encoding(self, qm: QueueManager) -> tuple[int, int]:
        """(Encoding, CCSID) of what the queue manager writes: z/OS style when CCSID is EBCDIC."""
        found = kept(qm, "encoding")
        return found if found is not None else cached(qm, "encoding", lambda: _encoding_of(qm))

    # --- queues ------------------------------------------------------------------------

    def _queue(self, qmgr: str, name: str) -> deque[Stored]:
        q = self.queues.get((qmgr, name))
        if q is None:  # (setdefault would make a deque every time)
            q = self.queues[qmgr, name] = deque()
        return q

    def depth(self, qmgr: str, queue: str) -> int:
        """How many messages are on a queue."""
        return len(self.queues.get((qmgr, queue), ()))

    def browse(self, qmgr: str, queue: str) -> list[tuple[MQMD, bytes]]:
        """The messages on a queue, oldest first, left in place."""
        return [(s.md, s.data) for s in self.queues.get((qmgr, queue), ())]

    def expired(self, s: Stored) -> bool:
        """True when the message's expiry has passed (it goes at the next get)."""
        return self._expired(s)

    def _expired(self, s: Stored) -> bool:
        return s.md.expiry > 0 and self.now - s.put_at > s.md.expiry / 10

    def get(self, qmgr: str, queue: str, *, correl_id: bytes | None = None,
            msg_id: bytes | None = None, browse: bool = False,
            appl_name: str = "amqsget") -> tuple[MQMD, bytes] | None:
        """Get (or browse) the first message matching the ids; expired ones are removed.
        None when none matches or the get fails (`mqget` says why)."""
        result = self.mqget(qmgr, queue, correl_id=correl_id, msg_id=msg_id, browse=browse,
                            appl_name=appl_name)
        return (result.md, result.data) if result.md is not None else None

    def mqget(self, qmgr: str, queue: str, *, correl_id: bytes | None = None,
              msg_id: bytes | None = None, browse: bool = False,
              appl_name: str = "amqsget") -> GetResult:
        """An application's MQGET (its MQOPEN for input on first use): the queue as named, an
        alias read through to its base queue. Fails as MQ does: the open with
        `resolve_input`'s reasons, the get with MQRC_GET_INHIBITED (2016: GET(DISABLED) on
        the alias or the queue) or MQRC_NO_MSG_AVAILABLE (2033)."""
        qm = self.network.qmgrs[qmgr]
        conn, refused = self._app(qmgr, appl_name, mqc.MQAT_UNIX)
        if refused:
            return GetResult(refused)
        r, reason = self._input_plan(qm, queue)
        r = self._authority(qm, conn.user, queue, "", None,
                            ("BROWSE",) if browse else ("GET",)) or r
        hobj = self._input_handle(qmgr, queue, appl_name, browse, r) \
            if self._observers else 0
        options = (mqc.MQGMO_BROWSE_NEXT if browse else 0) | mqc.MQGMO_NO_WAIT
        if not r.ok:
            return GetResult(r.reason, resolution=r)
        base = r.queue
        q = self._queue(qmgr, base)
        for s in [] if reason else list(q):
            if self._expired(s):
                q.remove(s)
                for w in self.watchers:
                    w.taken(qmgr, queue, s, expired=True)
                self._expire(qm, s)
                continue
            if (correl_id is None or s.md.correl_id == correl_id) and \
                    (msg_id is None or s.md.msg_id == msg_id):
                if not browse:
                    _take(q, s)
                    for w in self.watchers:
                        w.taken(qmgr, queue, s, expired=False)
                    if s.md.report & mqc.MQRO_COD == mqc.MQRO_COD:
                        self._report(qm, s.md, s.data, mqc.MQFB_COD, mqc.MQRO_COD)
                if self._observers:
                    self._notify(self.connection(qmgr, appl_name), MQGET, object_name=queue,
                                 resolved_queue=base, resolved_qmgr=qmgr, local_queue=base,
                                 md=s.md, data_length=len(s.data), data=s.data,
                                 options=options, hobj=hobj)
                return GetResult(0, s.md, s.data, r)
        reason = reason or mqc.MQRC_NO_MSG_AVAILABLE
        if self._observers:
            self._notify(self.connection(qmgr, appl_name), MQGET, object_name=queue,
                         resolved_queue=base, resolved_qmgr=qmgr, local_queue=base,
                         options=options, hobj=hobj, comp_code=mqc.MQCC_FAILED,
                         reason=reason)
        return GetResult(reason, resolution=r)

    def _input_plan(self, qm: QueueManager, queue: str) -> tuple[Resolution, int]:
        """Where a get of `queue` reads (`_input_resolution`) and MQRC_GET_INHIBITED when
        GET(DISABLED) on the queue named or its base (else 0); kept per queue between
        changes of the network (generation and queue changes) for a defined queue."""
        key = (qm.name, queue)
        stamp = (generation(), queue_changes())
        plan = self._input_plans.get(key)
        if plan is not None and plan[0] == stamp:
            return plan[1], plan[2]
        r = self._input_resolution(qm, queue)
        reason = 0
        named = qm.queues.get(queue)
        if named is not None and named.get("GET") == "DISABLED":
            reason = mqc.MQRC_GET_INHIBITED
        elif r.ok and r.queue != queue:
            based = qm.queues.get(r.queue)
            if based is not None and based.get("GET") == "DISABLED":
                reason = mqc.MQRC_GET_INHIBITED
        if named is not None:  # (an undefined queue holding messages: read where it is)
            if len(self._input_plans) >= 4096:
                self._input_plans.clear()
            self._input_plans[key] = (stamp, r, reason)
        return r, reason

    def _input_resolution(self, qm: QueueManager, queue: str) -> Resolution:
        """Where an open for input of `queue` goes (a queue holding messages is local,
        defined or not: the simulator's own writes need no definition)."""
        if qm.queues.get(queue) is None and self.queues.get((qm.name, queue)):
            return local_resolution(qm.name, queue)
        return resolve_input(self.network, qm.name, queue)

    def _input_handle(self, qmgr: str, queue: str, appl_name: str, browse: bool,
                      r: Resolution | None = None) -> int:
        """The application's input handle on `queue` (MQOPEN on first use; a failed open
        is told to observers and gives no handle)."""
        conn = self.connection(qmgr, appl_name)
        key = (conn.conn_id, queue)
        hobj = self._input_handles.get(key)
        if hobj is None:
            ok = r is None or r.ok
            hobj = self._next_hobj()
            if ok:
                self._input_handles[key] = hobj
            base = r.queue if r is not None and r.ok else queue
            fields = {"resolved_queue": base, "resolved_qmgr": qmgr,
                      "local_queue": base} if ok else {}
            self._notify(conn, MQOPEN, object_name=queue, hobj=hobj,
                         options=mqc.MQOO_INPUT_AS_Q_DEF | mqc.MQOO_BROWSE,
                         reason=0 if ok else r.reason,
                         comp_code=mqc.MQCC_OK if ok else mqc.MQCC_FAILED,
                         failure=None if ok else r, qualifier=0 if ok else r.qualifier,
                         **fields)
        return hobj

    def restore(self, qmgr: str, queue: str, md: MQMD, data: bytes) -> None:
        """Put a message got under syncpoint back at the head of its queue (backout)."""
        self._queue(qmgr, queue).appendleft(Stored(md, data, self.now))

    def _store(self, qm: QueueManager, queue: str, md: MQMD, data: bytes,
               original: MQMD | None = None, put_at: float | None = None,
               xqh: MQXQH | None = None) -> None:
        s = Stored(md, data, self.now if put_at is None else put_at, original, xqh)
        self._queue(qm.name, queue).append(s)
        for w in self.watchers:
            w.stored(qm.name, queue, s)
        if queue == INTER_QMGR_PUBS:  # for the publish/subscribe engine, a moment later
            self._at(self.latency, lambda: self._republish(qm.name))

    # --- limits and the dead-letter queue ---------------------------------------------

    def put_limit(self, qm: QueueManager, r: Resolution, length: int,
                  opened: str = "") -> int:
        """The MQRC_* a put of `length` bytes to where `r` resolved fails with, 0 if it fits:
        PUT(DISABLED) 2051 (of the queue, or of the alias or remote queue definition
        `opened` by name), the queue's MAXMSGL (the transmission queue's, with the MQXQH)
        2030, else the queue manager's MAXMSGL 2031 ("RC2030 if the message is too big for
        the queue; RC2031 if the message is too big for the queue manager, but not too big
        for the queue": IBM MQ, MaxMsgLength queue attribute), MAXDEPTH 2053, MAXFSIZE
        2056 (the queue file full: traceroute.sim.qfile)."""
        definition = qm.queues.get(opened) if opened else None
        if definition is not None and definition.kind in ("QALIAS", "QREMOTE") \
                and definition.get("PUT") == "DISABLED":
            return mqc.MQRC_PUT_INHIBITED
        local = r.local
        name = r.queue if local else r.xmitq
        q = qm.queues.get(name) if name else None
        if q is None or q.kind != "QLOCAL":
            return 0
        return self._local_limit(qm, name, q, length if local else length + XQH_LENGTH)

    def _local_limit(self, qm: QueueManager, name: str, q: MQObject, length: int) -> int:
        """`put_limit` of `length` bytes (an MQXQH included) on qm's local queue `q`."""
        put_disabled, maxmsgl, maxdepth, maxfsize = _put_limits(q)
        if put_disabled:
            return mqc.MQRC_PUT_INHIBITED
        if length > maxmsgl:
            return mqc.MQRC_MSG_TOO_BIG_FOR_Q
        if length > _put_limits(qm)[1]:
            return mqc.MQRC_MSG_TOO_BIG_FOR_Q_MGR
        if len(self.queues.get((qm.name, name), ())) >= maxdepth:
            return mqc.MQRC_Q_FULL
        if maxfsize and qfile.too_big(
                (len(s.data) for s in self.queues.get((qm.name, name), ())), length, maxfsize):
            return mqc.MQRC_Q_SPACE_NOT_AVAILABLE  # the queue file is at its MAXFSIZE
        return 0

    def dead_letter_queue(self, qm: QueueManager, data: bytes,
                          channel: MQObject | None = None) -> str:
        """The dead-letter queue a message of `data` (plus its MQDLH) can go to now: DEADQ
        naming a local queue that takes it, and the channel's USEDLQ(YES); '' if none."""
        if not qm.deadq or (channel is not None and channel.get("USEDLQ") == "NO"):
            return ""
        deadq = qm.deadq
        q = qm.queues.get(deadq)
        if q is None or q.kind != "QLOCAL" \
                or self._local_limit(qm, deadq, q, len(data) + DLH_LENGTH):
            return ""
        return deadq

    def channel_status(self, qmgr: str, channel: str) -> str:
        """STOPPED (STOP CHANNEL), STARTING (waiting for an active slot: qm.ini
        MaxActiveChannels), RETRYING (a message it could not deliver and no dead-letter
        queue for it: it waits on the transmission queue), else RUNNING."""
        if not self.network.qmgrs[qmgr].channel_running(channel):
            return "STOPPED"
        if any(ch.name == channel for ch, _x in self._starting.get(qmgr, ())):
            return "STARTING"
        return "RETRYING" if (qmgr, channel) in self._retrying else "RUNNING"

    def _waiting(self, qm: QueueManager, channel: str) -> bool:
        state = self._retrying.get((qm.name, channel))
        return state is not None and state[1]

    def _holding(self, qm: QueueManager, channel: str) -> bool:
        """The channel did not try to start: it waits for an active slot, or it could not
        become current (MaxChannels); it is not retrying."""
        key = (qm.name, channel)
        if key in self._instances or key in self._slotted:
            return False
        if any(ch.name == channel for ch, _x in self._starting.get(qm.name, ())):
            return True
        return key not in self._retrying and self._at_max_channels(qm)

    def _back_out(self, qm: QueueManager, channel: MQObject, s: Stored, xmitq: str) -> None:
        """The unit of work that moved `s` is backed out: `s` is first on its transmission
        queue again, the channel ends and retries (SHORTRTY x SHORTTMR s, then LONGTMR)."""
        self._queue(qm.name, xmitq).appendleft(s)
        for w in self.watchers:  # the message is back on its transmission queue
            w.stored(qm.name, xmitq, s)
        qualifier = self._retry_later(qm, channel, xmitq)
        self._end_instance(qm, channel, qualifier, channel_error(9999, channel))

    def _retry_later(self, qm: QueueManager, channel: MQObject, xmitq: str) -> int:
        """Count one more retry of the channel and schedule it: MQRQ_CHANNEL_STOPPED_RETRY,
        or _DISABLED when its retries are used up (it is STOPPED then)."""
        key = (qm.name, channel.name)
        state = self._retrying.setdefault(key, [0, False])
        state[0] += 1
        state[1] = True
        short = state[0] <= _number(channel.get("SHORTRTY"), 10)
        if not short and state[0] > _number(channel.get("SHORTRTY"), 10) \
                + _number(channel.get("LONGRTY"), 999999999):
            self.network.qmgrs[qm.name].stopped.add(channel.name)  # retries used up
            return mqc.MQRQ_CHANNEL_STOPPED_DISABLED
        delay = _number(channel.get("SHORTTMR" if short else "LONGTMR"), 60 if short else 1200)

        def retry() -> None:
            current = self._retrying.get(key)
            if current is state:
                state[1] = False
                self._drain(qm, xmitq)
        self._at(max(delay, self.latency), retry, background=not short)
        return mqc.MQRQ_CHANNEL_STOPPED_RETRY

    # --- channel slots: qm.ini MaxChannels / MaxActiveChannels --------------------------

    def active_channels(self, qmgr: str) -> int:
        """How many channels are active on `qmgr` now: running sending instances, the
        receiving ends of other queue managers' instances, clients' SVRCONN instances (one
        per client connection), and slots just handed to a channel that waited."""
        return self._active.get(qmgr, 0)

    def starting(self, qmgr: str) -> list[str]:
        """The sending channels of `qmgr` waiting in STARTING for an active slot, in the
        order they will get one."""
        return [ch.name for ch, _x in self._starting.get(qmgr, ())]

    def current_channels(self, qmgr: str) -> int:
        """How many channels are current on `qmgr` (have a status): the active ones, those
        waiting for a slot, the retrying ones and the stopped ones."""
        qm = self.network.qmgrs[qmgr]
        waiting = {ch.name for ch, _x in self._starting.get(qmgr, ())}
        retrying = sum(1 for (owner, name) in self._retrying if owner == qmgr
                       and (owner, name) not in self._instances and name not in waiting
                       and name not in qm.stopped)
        stopped = sum(1 for name in qm.stopped if name in qm.channels)
        return self.active_channels(qmgr) + len(waiting) + retrying + stopped

    def _at_max_channels(self, qm: QueueManager) -> bool:
        """Whether qm has as many current channels as its qm.ini's MaxChannels allows (never
        when it sets no limit: nothing to count)."""
        limit = qm.ini.max_channels
        return limit < MAX_VALUE and self.current_channels(qm.name) >= limit

    def _inbound_refusal(self, qm: QueueManager) -> tuple[int, int]:
        """(MQRQ_MAX_CHANNELS or MQRQ_MAX_ACTIVE_CHANNELS, the limit) when qm cannot take
        one more inbound channel (a receiving end, a client's SVRCONN), else (0, 0)."""
        ini = qm.ini
        if self._at_max_channels(qm):
            return mqc.MQRQ_MAX_CHANNELS, ini.max_channels
        if self.active_channels(qm.name) >= ini.max_active_channels:
            return mqc.MQRQ_MAX_ACTIVE_CHANNELS, ini.max_active_channels
        return 0, 0

    def _activate(self, qm: QueueManager, channel: MQObject, xmitq: str) -> bool:
        """Whether a sending channel that is not running may try to start now. It must be
        current (else it does not start: AMQ9513E, and waits for the next trigger) and
        active: with every active slot taken it waits in STARTING (Channel Not Activated)
        for the first one another channel releases. A slot handed to it is its own."""
        key = (qm.name, channel.name)
        if key in self._slotted:  # the slot it waited for becomes its instance's
            self._slotted.discard(key)
            self._active[qm.name] -= 1
            return True
        waiting = self._starting.get(qm.name, [])
        if any(ch.name == channel.name for ch, _x in waiting):
            return False
        ini = qm.ini
        if key not in self._retrying and self._at_max_channels(qm):
            return False
        if self.active_channels(qm.name) >= ini.max_active_channels or waiting:
            self._starting.setdefault(qm.name, []).append((channel, xmitq))
            for w in self.watchers:
                w.channel_waiting(qm.name, channel, xmitq)
            return False
        return True

    def _slot_freed(self, qmgr: str) -> None:
        """An active slot of qmgr may be free: hand it to the first channel waiting for one
        (Channel Activated); it starts with its next batch."""
        waiting = self._starting.get(qmgr)
        qm = self.network.qmgrs.get(qmgr)
        while waiting and qm is not None \
                and self.active_channels(qmgr) < qm.ini.max_active_channels:
            channel, xmitq = waiting.pop(0)
            if (channel.name not in qm.channels and channel.get("CHLTYPE") != "CLUSRCVR") \
                    or not qm.channel_running(channel.name):
                continue  # deleted or stopped while it waited
            key = (qmgr, channel.name)
            self._slotted.add(key)
            self._active[qmgr] = self._active.get(qmgr, 0) + 1
            for w in self.watchers:
                w.channel_activated(qmgr, channel, xmitq)

            def start(key: tuple[str, str] = key, xmitq: str = xmitq) -> None:
                self._drain(qm, xmitq)
                if key in self._slotted:  # nothing for it to send after all: slot back
                    self._unslot(key)
            self._at(self.latency, start)
        if not waiting:
            self._starting.pop(qmgr, None)

    def _unslot(self, key: tuple[str, str]) -> None:
        """A slot handed to a channel that does not start goes to the next one waiting."""
        if key in self._slotted:
            self._slotted.discard(key)
            self._active[key[0]] -= 1
            self._slot_freed(key[0])

    def _unwait(self, qmgr: str, channel: str) -> None:
        """The channel no longer waits for a slot (stopped, its queue manager ended)."""
        waiting = self._starting.get(qmgr)
        if waiting:
            waiting[:] = [(ch, x) for ch, x in waiting if ch.name != channel]
        self._unslot((qmgr, channel))

    # --- channel instances --------------------------------------------------------------

    def _up(self, qmgr: str) -> bool:
        return qmgr not in self.ended

    def _partner(self, qm: QueueManager, channel: MQObject, remote_qmgr: str,
                 xmitq: str) -> QueueManager | None:
        """The queue manager the running instance of `channel` reaches, starting it when it
        is not running (`traceroute.sim.channels.attempt`); None when it cannot start now:
        it retries then."""
        key = (qm.name, channel.name)
        running = self._instances.get(key)
        if running is not None:
            other = self.network.qmgrs.get(running)
            if other is not None and self._up(running) \
                    and other.channel_running(channel.name):
                return other
            self._end_instance(qm, channel, mqc.MQRQ_CHANNEL_STOPPED_RETRY,
                               channel_error(9999, channel))
        if not self._activate(qm, channel, xmitq):
            return None
        a = attempt(self.network, qm, channel, remote_qmgr, up=self._up,
                    inbound=self._inbound_refusal)
        if not a.started:
            qualifier = self._retry_later(qm, channel, xmitq)
            for w in self.watchers:
                w.channel_failed(qm.name, channel, a, qualifier)
            self._slot_freed(qm.name)  # a slot it was handed: the next one waiting
            return None
        assert a.partner is not None
        if a.autodefined is not None:  # CHAD: the receiving end defines the channel
            a.partner.channels[channel.name] = a.autodefined
        self._instances[key] = a.partner.name
        for end in (qm.name, a.partner.name):  # active at both ends
            self._active[end] = self._active.get(end, 0) + 1
        for w in self.watchers:
            w.channel_started(qm.name, channel, a)
        return a.partner

    def _end_instance(self, qm: QueueManager, channel: MQObject, qualifier: int,
                      error: ChannelError | None, *, by_user: bool = False) -> None:
        """The running instance of a sending channel ends (its MCA disconnects)."""
        partner = self._instances.pop((qm.name, channel.name), None)
        mca = self._conns.get((qm.name, "sender", channel.name))
        if mca is not None:
            self.disconnect(mca)  # the channel ends: observers see the MCA go
        if partner is not None:
            for w in self.watchers:
                w.channel_ended(qm.name, channel, partner, qualifier, error, by_user=by_user)
            for end in (qm.name, partner):  # both ends release their active slots
                self._active[end] -= 1
            for end in (qm.name, partner):
                self._slot_freed(end)

    def _moved(self, qm: QueueManager, channel: MQObject, xmitq: str) -> None:
        """The channel moved a message now: with DISCINT set, it ends normally after that
        many seconds without one (AMQ9545I disconnect interval expired)."""
        self._idle_from(qm, channel, xmitq, self.now)

    def _idle_from(self, qm: QueueManager, channel: MQObject, xmitq: str, at: float) -> None:
        """The channel last moved a message at `at`: after DISCINT seconds without one it
        ends. One check waits per channel at a time (it looks again later when the channel
        was busy since)."""
        key = (qm.name, channel.name)
        self._active_at[key] = at
        if key in self._discint_checks:
            return
        discint = _number(channel.get("DISCINT"), 6000)
        if discint <= 0:
            return

        def check() -> None:
            self._discint_checks.discard(key)
            if key not in self._instances:
                return
            # due: when it has been idle DISCINT seconds; compared with a margin, as
            # now + (due - now) may round to just below due (a check at the same instant
            # again and again, for ever)
            due = self._active_at.get(key, self.now) + discint
            busy = self.now < due - _TIME_MARGIN
            if busy or self.depth(qm.name, xmitq):
                self._discint_checks.add(key)  # busy since: look again when it may be idle
                self._at(due - self.now if busy else discint, check, background=True)
                return
            self._end_instance(qm, channel, mqc.MQRQ_CHANNEL_STOPPED_OK,
                               channel_error(9545, channel, severity="I"))
        self._discint_checks.add(key)
        self._at(max(0.0, at + discint - self.now), check, background=True)

    def channel_instances(self) -> list[tuple[str, str, str, float | None]]:
        """(queue manager, channel, partner, when it last moved a message) of every
        running instance of a sending channel (see `resume_instance`)."""
        return [(q, c, partner, self._active_at.get((q, c)))
                for (q, c), partner in self._instances.items()]

    def resume_instance(self, qmgr: str, channel: str, partner: str,
                        active_at: float | None = None) -> None:
        """A channel instance running before this run (an estate's, between commands): it
        goes on, without a new Channel Started; DISCINT counts from `active_at`."""
        qm = self.network.qmgrs.get(qmgr)
        obj = qm.channels.get(channel) if qm is not None else None
        if obj is None or partner not in self.network.qmgrs:
            return  # deleted since, or its partner is gone: it ended
        if (qmgr, channel) not in self._instances:  # active at both ends
            for end in (qmgr, partner):
                self._active[end] = self._active.get(end, 0) + 1
        self._instances[(qmgr, channel)] = partner
        if active_at is not None:
            xmitq = obj.get("XMITQ") or "SYSTEM.CLUSTER.TRANSMIT.QUEUE"
            self._idle_from(qm, obj, xmitq, active_at)

    def resume_waiting(self, qmgr: str, channels: list[str]) -> None:
        """Sender or server channels of `qmgr` that were waiting in STARTING for an active
        slot wait again, in this order (a simulation loaded again); a slot free now goes to
        the first of them."""
        qm = self.network.qmgrs[qmgr]
        waiting = self._starting.setdefault(qmgr, [])
        for name in channels:
            obj = qm.channels.get(name)
            if obj is not None and obj.get("CHLTYPE") in ("SDR", "SVR") \
                    and qm.channel_running(name) and name not in self.starting(qmgr):
                waiting.append((obj, obj.get("XMITQ")))
        self._slot_freed(qmgr)

    def channel_running(self, qmgr: str, channel: str) -> str:
        """The queue manager a sending channel's running instance reaches, '' if none."""
        return self._instances.get((qmgr, channel), "")

    def message_retries(self, qmgr: str, channel: str) -> list[MessageRetry]:
        """The puts the receiving MCA of `channel` on `qmgr` waits to retry (MRRTY/MRTMR):
        between two attempts the channel is PAUSED; [] when none."""
        return list(self._message_retries.get((qmgr, channel), ()))

    def retrying_towards(self, qmgr: str, channel: str) -> list[MessageRetry]:
        """The messages `qmgr`'s sending channel has sent and whose put its partner's MCA
        waits to retry (the batch is in doubt until then)."""
        return [r for (owner, name), waiting in self._message_retries.items()
                if name == channel for r in waiting if r.sender == qmgr]

    def back_out_message_retries(self) -> int:
        """Every pending message retry ends as its channel would end: the batch is backed
        out, the message first on its transmission queue again (nothing lost); how many."""
        count = 0
        for waiting in self._message_retries.values():
            for r in reversed(waiting):
                s, xmitq = r.back[0], r.back[1]
                self._queue(r.sender, xmitq).appendleft(s)
                for w in self.watchers:  # the message is back on its transmission queue
                    w.stored(r.sender, xmitq, s)
                count += 1
        self._message_retries.clear()
        return count

    # --- queue managers -----------------------------------------------------------------

    def end_qmgr(self, qmgr: str, *, quiesce: bool = True) -> None:
        """endmqm (-c: quiesce, -i: immediately): the queue manager stops. Its channels
        end, its connections are broken; until `start_qmgr`, applications cannot connect
        (MQRC_Q_MGR_NOT_AVAILABLE) and channels to it find nobody listening."""
        if qmgr in self.ended:
            return
        for w in self.watchers:
            w.qmgr_changed(qmgr, False, mqc.MQRQ_Q_MGR_QUIESCING if quiesce
                           else mqc.MQRQ_Q_MGR_STOPPING)
        self.ended.add(qmgr)
        qm = self.network.qmgrs[qmgr]
        self._starting.pop(qmgr, None)  # its channels waiting for a slot end with it
        for key in [k for k in self._slotted if k[0] == qmgr]:
            self._slotted.discard(key)
            self._active[qmgr] -= 1
        for (owner, name), partner in list(self._instances.items()):
            ch = self.network.qmgrs[owner].channels.get(name) if owner in \
                self.network.qmgrs else None
            if ch is None:
                continue
            if owner == qmgr:
                self._end_instance(qm, ch, mqc.MQRQ_CHANNEL_STOPPED_OK,
                                   channel_error(9528, ch, severity="I"))
            elif partner == qmgr:
                xmitq = ch.get("XMITQ") or "SYSTEM.CLUSTER.TRANSMIT.QUEUE"
                self._end_instance(self.network.qmgrs[owner], ch,
                                   self._retry_later(self.network.qmgrs[owner], ch, xmitq),
                                   channel_error(9999, ch))
        for conn in [c for c in self._conns.values() if c.qmgr == qmgr]:
            self.disconnect(conn)

    def start_qmgr(self, qmgr: str) -> None:
        """strmqm: an ended queue manager runs again (Queue Manager Active); its senders
        with messages waiting start, and channels retrying toward it try again."""
        if qmgr in self.ended:
            self.started_at[qmgr] = self.now
        self.ended.discard(qmgr)
        for w in self.watchers:
            w.qmgr_changed(qmgr, True, mqc.MQRQ_FAILOVER_NOT_PERMITTED)
        for name in self.network.qmgrs:
            self.retry(name)

    def qmgr_started(self, qmgr: str) -> datetime:
        """When the queue manager started, on its clock (naive UTC): the simulation's start,
        or its last strmqm after an endmqm."""
        qm = self.network.qmgrs[qmgr]
        return self.start + timedelta(seconds=self.started_at.get(qmgr, 0.0)
                                      + self.clock_skew.get(qm.name, 0.0))

    def active(self, qmgr: str) -> bool:
        """Whether the queue manager runs (not ended)."""
        return qmgr not in self.ended

    def _delivered(self, qm: QueueManager, channel: str, since: list | None) -> None:
        """A message sent while the channel was retrying (`since`: its retry state then) got
        through: the retry counts start again. One sent before a later message failed says
        nothing about that failure."""
        if since is not None and self._retrying.get((qm.name, channel)) is since:
            del self._retrying[(qm.name, channel)]

    # --- channels ----------------------------------------------------------------------

    def stop_channel(self, qmgr: str, channel: str) -> None:
        """STOP CHANNEL: messages for it wait on its transmission queue (its MCA ends)."""
        qm = self.network.qmgrs[qmgr]
        qm.stopped.add(channel)
        self._retrying.pop((qmgr, channel), None)
        self._unwait(qmgr, channel)  # a channel waiting for a slot is STOPPED now
        obj = qm.channels.get(channel)
        if obj is not None and (qmgr, channel) in self._instances:
            self._end_instance(qm, obj, mqc.MQRQ_CHANNEL_STOPPED_DISABLED,
                               channel_error(9528, obj, severity="I"), by_user=True)
        mca = self._conns.get((qmgr, "sender", channel))
        if mca is not None:
            self.disconnect(mca)
        for w in self.watchers:
            w.stopped(qmgr, channel)

    def start_channel(self, qmgr: str, channel: str) -> None:
        """START CHANNEL: what waits on its transmission queue moves on."""
        qm = self.network.qmgrs[qmgr]
        qm.stopped.discard(channel)
        self._retrying.pop((qmgr, channel), None)  # it starts now, its retry counts anew
        for w in self.watchers:
            w.started(qmgr, channel)
        xmitq = qm.channels[channel].get("XMITQ") if channel in qm.channels else ""
        self._drain_soon(qm, lambda name: name in (xmitq, "SYSTEM.CLUSTER.TRANSMIT.QUEUE"))
        ch = qm.channels.get(channel)
        if ch is not None and ch.get("CHLTYPE") in ("RCVR", "RQSTR", "CLUSRCVR"):
            for other in self.network.qmgrs.values():  # a receiving end started: its senders
                if other is not qm:                      # may reach it now
                    self.retry(other.name)

    def retry(self, qmgr: str) -> None:
        """Let every sending channel of `qmgr` try its transmission queues again (as a
        retrying channel does when its retry interval has passed)."""
        qm = self.network.qmgrs[qmgr]
        for (owner, _name), state in self._retrying.items():
            if owner == qmgr:
                state[1] = False  # its retry interval has passed
        xmitqs = {ch.get("XMITQ") for ch in qm.channels.values()
                  if ch.get("CHLTYPE") in ("SDR", "SVR")}
        self._drain_soon(qm, lambda name: name in xmitqs
                         or name == "SYSTEM.CLUSTER.TRANSMIT.QUEUE")

    def _drain_soon(self, qm: QueueManager, which: Callable[[str], bool]) -> None:
        for (owner, name), q in list(self.queues.items()):
            if owner == qm.name and q and which(name):
                self._at(self.latency, lambda n=name: self._drain(qm, n))

    def _drain(self, qm: QueueManager, xmitq: str) -> None:
        """The sending MCAs of one xmitq move every message whose channel is running."""
        q = self._queue(qm.name, xmitq)
        if not q or not self._up(qm.name):
            return
        served = xmitq != "SYSTEM.CLUSTER.TRANSMIT.QUEUE"
        if served:
            # one channel serves every message here: none moves while it is stopped (a
            # stopped channel's messages are not looked at again each time one more arrives)
            channel = xmitq_sender(qm, xmitq)
            if channel is None or not qm.channel_running(channel.name) \
                    or self._waiting(qm, channel.name) or self._holding(qm, channel.name):
                return
        moved: dict[str, tuple[MQObject, str, list[Stored]]] = {}
        blocked: dict[str, MQObject] = {}
        for s in list(q):
            xqh = s.xqh or unpack_xqh(s.data)
            # sending_channel's answer: the CLUSRCVR of the message's queue manager in a
            # cluster of qm's (the cluster-sender made from it), else the xmitq's SDR/SVR
            channel = cluster_receiver(self.network, xqh.remote_q_mgr_name, clusters_of(qm)) \
                if not served else xmitq_sender(qm, xmitq)
            if channel is None or not qm.channel_running(channel.name) \
                    or self._waiting(qm, channel.name):
                continue
            other = self._partner(qm, channel, xqh.remote_q_mgr_name, xmitq)
            if other is None:
                if not self._holding(qm, channel.name):
                    blocked[channel.name] = channel
                continue  # the channel cannot start (or its receiver is stopped): it waits
            _take(q, s)
            self._moved(qm, channel, xmitq)
            if self.watchers:
                for w in self.watchers:
                    w.taken(qm.name, xmitq, s, expired=False)
                moved.setdefault(channel.name, (channel, other.name, []))[2].append(s)
            if self._observers:
                self._mca_get(qm, other, channel, s, xqh, xmitq)
            if self._expired(s):
                self._discard_expired(qm, s, xqh, xmitq)
                continue
            self._send(qm, other, channel, s, xqh, xmitq)
        for w in self.watchers:
            for channel, partner, messages in moved.values():
                w.batch(qm.name, channel, partner, messages)
            for name, channel in blocked.items():
                if name not in moved:
                    w.blocked(qm.name, channel)

    def _mca_get(self, qm: QueueManager, other: QueueManager, channel: MQObject, s: Stored,
                 xqh: MQXQH, xmitq: str) -> None:
        """The sending MCA's MQGET of `s` from the transmission queue, for observers."""
        conn = self._connect(qm.name, "sender", channel.name, self.sending_mca, mqc.MQAT_QMGR,
                             mca=True, channel=channel.name,
                             channel_type=_sender_type(channel), partner=other.name)
        original = s.original or xqh.msg_desc
        self._notify(conn, MQGET, object_name=xmitq, resolved_queue=xmitq,
                     resolved_qmgr=qm.name, local_queue=xmitq, md=s.md,
                     data_length=len(s.data), data=s.data[XQH_LENGTH:],
                     options=mqc.MQGMO_SYNCPOINT, xmit_msg_id=original.msg_id,
                     xmit_correl_id=original.correl_id, xmit_remote_q=xqh.remote_q_name,
                     xmit_remote_qmgr=xqh.remote_q_mgr_name)

    # --- applications ------------------------------------------------------------------

    def open(self, qmgr: str, queue: str, *, target_qmgr: str = "",
             bind_not_fixed: bool | None = None, appl_name: str = "amqsput",
             appl_type: int = mqc.MQAT_UNIX) -> Opened:
        """MQOPEN for output. A cluster queue is bound to one instance at open unless
        `bind_not_fixed` (MQOO_BIND_NOT_FIXED; None = the queue's DEFBIND)."""
        handle = self._open(qmgr, queue, target_qmgr, bind_not_fixed, appl_name, appl_type)
        if self._observers and not handle.refused:
            r = handle.resolution
            fields = {"resolved_queue": r.remote_q if r.xmitq else r.queue,
                      "resolved_qmgr": r.remote_qmgr if r.xmitq else qmgr,
                      "local_queue": r.xmitq or r.queue} if r.ok else {}
            if handle.topic_object or handle.topic:  # an alias queue of a topic
                fields = {"topic": handle.topic}
            self._notify(self.connection(qmgr, appl_name, appl_type), MQOPEN,
                         object_name=queue, object_qmgr=target_qmgr, hobj=handle.hobj,
                         options=mqc.MQOO_OUTPUT, reason=r.reason,
                         comp_code=mqc.MQCC_FAILED if r.reason else mqc.MQCC_OK,
                         failure=None if r.ok else r, qualifier=r.qualifier, **fields)
        return handle

    def _open(self, qmgr: str, queue: str, target_qmgr: str, bind_not_fixed: bool | None,
              appl_name: str, appl_type: int, put1: bool = False) -> Opened:
        alias = self._topic_alias(qmgr, queue) if target_qmgr in ("", qmgr) else None
        if alias is not None:  # QALIAS TARGTYPE(TOPIC): the open is of its topic
            return self._open_topic(qmgr, "", alias.get("TARGET"), appl_name, appl_type,
                                    put1=put1, queue=queue)
        if bind_not_fixed is None:
            bind_not_fixed = self._defbind_not_fixed(qmgr, queue)
        conn, refused = self._app(qmgr, appl_name, appl_type)
        if refused:  # the MQCONN failed: nothing more is tried
            return Opened(self, qmgr, queue, target_qmgr,
                          Resolution(qmgr, reason=refused, quiet=True), bind_not_fixed,
                          appl_name, appl_type, 0, put1, refused)
        r = resolve(self.network, qmgr, queue, target_qmgr, choose=self._choose)
        r = self._authority(self.network.qmgrs[qmgr], conn.user, queue, target_qmgr, r,
                            ("PUT",)) or r
        return Opened(self, qmgr, queue, target_qmgr, r, bind_not_fixed, appl_name,
                      appl_type, 0 if put1 else self._next_hobj(), put1)

    def put(self, qmgr: str, queue: str, md: MQMD, data: bytes, *, target_qmgr: str = "",
            appl_name: str = "amqsput", appl_type: int = mqc.MQAT_UNIX) -> PutResult:
        """MQPUT1: open, put (md, data) once, close."""
        return self._open(qmgr, queue, target_qmgr, None, appl_name, appl_type,
                          put1=True).put(md, data)

    def open_model(self, qmgr: str, model: str, *, dynamic_name: str = "AMQ.*",
                   appl_name: str = "amqsput", appl_type: int = mqc.MQAT_UNIX) -> Opened:
        """MQOPEN of a model queue: the queue manager makes a dynamic queue from it
        (DEFTYPE(PERMDYN) or TEMPDYN, named by `dynamic_name`, a trailing '*' made unique);
        the handle's `queue` is its name, its `resolution` where puts go. A temporary one
        goes when this handle closes; a permanent one stays until an MQCLOSE deletes it."""
        conn, refused = self._app(qmgr, appl_name, appl_type)
        qm = self.network.qmgrs[qmgr]
        obj = qm.queues.get(model)
        reason = refused
        if not reason and (obj is None or obj.kind != "QMODEL"):
            reason = mqc.MQRC_UNKNOWN_OBJECT_NAME if obj is None else mqc.MQRC_Q_TYPE_ERROR
        denied = None if reason else self._authority(qm, conn.user, model, "", None, ("GET",))
        if reason or denied:
            r = denied or Resolution(qmgr, reason=reason, quiet=reason != 2085)
            handle = Opened(self, qmgr, model, "", r, False, appl_name, appl_type,
                            0 if refused else self._next_hobj(), refused=refused)
            if not refused:
                self._notify(conn, MQOPEN, object_name=model, hobj=handle.hobj,
                             options=mqc.MQOO_INPUT_AS_Q_DEF, reason=r.reason,
                             comp_code=mqc.MQCC_FAILED, failure=r, qualifier=r.qualifier)
            return handle
        name = dynamic_name
        if name.endswith("*"):
            self._dynamic_serial += 1
            name = (name[:-1] + f"{self._stamp.hex().upper()}{self._dynamic_serial:08X}")[:48]
        attrs = {k: v for k, v in obj.effective().items() if k != "DEFTYPE"}
        attrs["DEFTYPE"] = "PERMDYN" if obj.get("DEFTYPE") == "PERMDYN" else "TEMPDYN"
        qm.queues[name] = MQObject("QLOCAL", name, attrs, source="dynamic")
        hobj = self._next_hobj()
        self._dynamic[(qmgr, name)] = (hobj, conn.user)
        handle = Opened(self, qmgr, name, "", Resolution(qmgr, name), False, appl_name,
                        appl_type, hobj)
        self._notify(conn, MQOPEN, object_name=model, resolved_queue=name,
                     resolved_qmgr=qmgr, local_queue=name, hobj=hobj,
                     options=mqc.MQOO_INPUT_AS_Q_DEF)
        return handle

    def _close(self, handle: Opened, options: int) -> int:
        """MQCLOSE of an application's handle (see Opened.close)."""
        conn = self.connection(handle.qmgr, handle.appl_name, handle.appl_type)
        qm = self.network.qmgrs[handle.qmgr]
        key = (handle.qmgr, handle.queue)
        made = self._dynamic.get(key)
        obj = qm.queues.get(handle.queue)
        reason = qualifier = 0
        delete = made is not None and obj is not None and (
            options & (mqc.MQCO_DELETE | mqc.MQCO_DELETE_PURGE)
            or (made[0] == handle.hobj and obj.get("DEFTYPE") == "TEMPDYN"))
        if delete:
            assert obj is not None and made is not None
            if made[0] != handle.hobj and obj.get("DEFTYPE") == "PERMDYN" and not authorized(
                    qm, "QUEUE", handle.queue, conn.user, self.groups.get(conn.user, ()),
                    ("DLT",)):
                reason, qualifier = mqc.MQRC_NOT_AUTHORIZED, mqc.MQRQ_CLOSE_NOT_AUTHORIZED
            elif self.depth(handle.qmgr, handle.queue) and \
                    not options & mqc.MQCO_DELETE_PURGE and obj.get("DEFTYPE") == "PERMDYN":
                reason = mqc.MQRC_Q_NOT_EMPTY
            else:
                qm.queues.pop(handle.queue, None)
                self.queues.pop(key, None)
                del self._dynamic[key]
        self._notify(conn, MQCLOSE, object_name=handle.queue, hobj=handle.hobj,
                     options=options, reason=reason,
                     comp_code=mqc.MQCC_FAILED if reason else mqc.MQCC_OK,
                     qualifier=qualifier)
        return reason

    def _defbind_not_fixed(self, qmgr: str, queue: str) -> bool:
        """DEFBIND of the queue as the opening queue manager sees it (default OPEN)."""
        local = self.network.qmgrs[qmgr].queues.get(queue)
        if local is not None:
            return local.get("DEFBIND") == "NOTFIXED"
        instances = self.network.cluster_queues("", queue)
        return bool(instances) and instances[0][1].get("DEFBIND") == "NOTFIXED"

    def _app_put(self, handle: Opened, md: MQMD, data: bytes, r: Resolution) -> PutResult:
        """An application's put through an open handle (trace-route enabled, detail LOW)."""
        qm = self.network.qmgrs[handle.qmgr]
        actor = None
        if self._observers:
            actor = _Actor(self.connection(qm.name, handle.appl_name, handle.appl_type),
                           MQPUT1 if handle.put1 else MQPUT, handle.queue,
                           handle.target_qmgr, None if handle.put1 else handle.hobj)
        if not r.ok:
            if actor is not None:
                self._put_call(actor, qm, md, data, r=r)
            return PutResult(r.reason, resolution=r)
        limit = self.put_limit(qm, r, len(data), opened=handle.queue)
        if limit:  # the put fails: the application sees the reason, nothing is put
            if actor is not None:
                self._put_call(actor, qm, md, data, r=r, reason=limit)
            return PutResult(limit, resolution=r)
        date, time = self._put_stamp(qm)
        changes: dict[str, object] = {}  # one copy of the descriptor with all the changes
        if md.persistence == mqc.MQPER_PERSISTENCE_AS_Q_DEF:
            opened = qm.queues.get(handle.queue) or qm.queues.get(r.queue)
            changes["persistence"] = mqc.MQPER_PERSISTENT \
                if opened is not None and opened.get("DEFPSIST") == "YES" \
                else mqc.MQPER_NOT_PERSISTENT
        if not any(md.msg_id):
            changes["msg_id"] = self.new_msg_id(qm.name)
        md = _md_with(md, **changes, put_date=date, put_time=time,
                      put_appl_name=handle.appl_name[-28:], put_appl_type=handle.appl_type,
                      reply_to_q_mgr=md.reply_to_q_mgr or (qm.name if md.reply_to_q else ""))
        act = _Activity(qm, handle.appl_name, handle.appl_type, "Application put", ts.LOW)
        trace = ts.TraceMessage.recognise(md, data) if qm.supports_trace_route else None
        self._actor = actor
        try:
            self._perform(act, md, data, trace,
                          lambda: self._put_action(act, md, data, r, trace, handle.queue,
                                                   checked=len(data)))
        finally:
            self._actor = None
        return PutResult(0, md.msg_id, r)

    # --- publish/subscribe (the rules: traceroute.sim.pubsub) -----------------------------

    def open_topic(self, qmgr: str, topic: str = "", *, topic_object: str = "",
                   appl_name: str = "amqspub", appl_type: int = mqc.MQAT_UNIX) -> Opened:
        """MQOPEN of a topic for output (MQOT_TOPIC): a topic object, a topic string (added
        below the object's TOPICSTR), or both. Fails as MQ does: MQRC_PUBSUB_INHIBITED
        (PSMODE(DISABLED)), MQRC_UNKNOWN_OBJECT_NAME (no such topic object),
        MQRC_TOPIC_STRING_ERROR (a `#` or `+` level: publishers may not use wildcards),
        MQRC_ADMIN_TOPIC_STRING_ERROR (a topic in the queue manager's own `$SYS/MQ` branch)."""
        handle = self._open_topic(qmgr, topic, topic_object, appl_name, appl_type)
        if self._observers:
            r = handle.resolution
            self._notify(self.connection(qmgr, appl_name, appl_type), MQOPEN,
                         object_name=topic_object, hobj=handle.hobj,
                         options=mqc.MQOO_OUTPUT, reason=r.reason,
                         comp_code=mqc.MQCC_FAILED if r.reason else mqc.MQCC_OK,
                         failure=None if r.ok else r, topic=handle.topic)
        return handle

    def publish(self, qmgr: str, topic: str, md: MQMD, data: bytes, *,
                topic_object: str = "", appl_name: str = "amqspub",
                appl_type: int = mqc.MQAT_UNIX) -> PutResult:
        """MQPUT1 to a topic: publish (md, data) once."""
        return self._open_topic(qmgr, topic, topic_object, appl_name, appl_type,
                                put1=True).put(md, data)

    def _topic_alias(self, qmgr: str, queue: str) -> MQObject | None:
        """The alias queue `queue` of `qmgr` when it names a topic (TARGTYPE(TOPIC))."""
        obj = self.network.qmgrs[qmgr].queues.get(queue)
        if obj is not None and obj.kind == "QALIAS" and obj.get("TARGTYPE") == "TOPIC":
            return obj
        return None

    def _open_topic(self, qmgr: str, topic: str, topic_obj: str, appl_name: str,
                    appl_type: int, *, put1: bool = False, queue: str = "") -> Opened:
        _conn, refused = self._app(qmgr, appl_name, appl_type)
        reason, full = resolve_topic(self.network, qmgr, topic, topic_obj)
        if not reason and not (topic or topic_obj or queue):
            reason = mqc.MQRC_UNKNOWN_OBJECT_NAME  # neither an object nor a string
        if not reason and not publishable(full):
            reason = mqc.MQRC_TOPIC_STRING_ERROR
        if not reason and in_system_branch(full):  # the queue manager's own: not for apps
            reason = mqc.MQRC_ADMIN_TOPIC_STRING_ERROR
        return Opened(self, qmgr, queue or topic_obj, "",
                      Resolution(qmgr, reason=refused or reason, quiet=bool(refused)),
                      False, appl_name, appl_type, 0 if put1 else self._next_hobj(), put1,
                      refused, topic=full, topic_object=topic_obj or "-")

    def _app_publish(self, handle: Opened, md: MQMD, data: bytes) -> PutResult:
        """An application's put to a topic: the publish/subscribe engine publishes it in
        one activity of detail MEDIUM (dspmqrte -t: "publish activities")."""
        qm = self.network.qmgrs[handle.qmgr]
        verb = MQPUT1 if handle.put1 else MQPUT
        reason = handle.reason
        opened = qm.queues.get(handle.queue) if handle.queue else None
        v = view(self.network, qm.name, handle.topic) if not reason else None
        if v is not None and (v.pub == "DISABLED" or (opened is not None
                                                        and opened.get("PUT") == "DISABLED")):
            reason = mqc.MQRC_PUT_INHIBITED
        if not reason:
            if md.persistence == mqc.MQPER_PERSISTENCE_AS_TOPIC_DEF:
                md = _md_with(md, persistence=mqc.MQPER_PERSISTENT if v.defpsist == "YES"
                              else mqc.MQPER_NOT_PERSISTENT)
            if md.priority == mqc.MQPRI_PRIORITY_AS_TOPIC_DEF:
                md = _md_with(md, priority=_number(v.defprty, 0))
            if not any(md.msg_id):
                md = _md_with(md, msg_id=self.new_msg_id(qm.name))
            date, time = self._put_stamp(qm)
            md = _md_with(md, put_date=date, put_time=time,
                          put_appl_name=handle.appl_name[-28:], put_appl_type=handle.appl_type,
                          reply_to_q_mgr=md.reply_to_q_mgr or (qm.name if md.reply_to_q
                                                               else ""))
            trace = ts.TraceMessage.recognise(md, data) if qm.supports_trace_route else None
            reason, action = self._publication(qm, md, data, handle.topic, trace, Origin(),
                                               publisher=handle.appl_name)
        if self._observers:
            conn = self.connection(qm.name, handle.appl_name, handle.appl_type)
            self._notify(conn, verb, object_name=handle.queue if handle.queue != "-" else "",
                         md=md, data_length=len(data), data=data,
                         hobj=None if handle.put1 else handle.hobj, topic=handle.topic,
                         comp_code=mqc.MQCC_FAILED if reason else mqc.MQCC_OK, reason=reason)
        if reason:
            return PutResult(reason, resolution=handle.resolution)
        act = _Activity(qm, handle.appl_name, handle.appl_type, PUBLISH_ACTIVITY, ts.MEDIUM)
        self._perform(act, md, data, trace, lambda: action)
        return PutResult(0, md.msg_id, handle.resolution)

    def _publication(self, qm: QueueManager, md: MQMD, data: bytes, topic: str,
                     trace: ts.TraceMessage | None, origin: Origin, *,
                     publisher: str = "") -> tuple[int, _Action]:
        """What publishing (md, data) on `topic` at `qm` does: (MQRC_PUBLICATION_FAILURE
        when a copy that cannot be put fails the whole put, else 0; the action: the Put to
        the topic, an operation per subscription considered, and putting the copies)."""
        v = view(self.network, qm.name, topic)
        considered = consider(self.network, qm.name, topic, md,
                              self.pubsub.of(self.network, qm.name), origin,
                              publisher=publisher)
        persistent = md.persistence == mqc.MQPER_PERSISTENT
        rule = v.pmsgdlv if persistent else v.npmsgdlv
        copies: list[_Copy] = []
        for c in considered:
            if c.excluded:
                copies.append(_Copy(c.sub, c.excluded))
                continue
            copy = self._copy(qm, md, data, c.sub, trace)
            if copy.failure and copy.failure != mqc.MQFB_NOT_DELIVERED:
                # the dead-letter queue, if the topic lets it be used and the message does
                # not ask to be discarded (MQRO_DISCARD_MSG: dspmqrte's default)
                copy.dlq = self.dead_letter_queue(qm, data) \
                    if v.usedlq != "NO" and not md.report & mqc.MQRO_DISCARD_MSG else ""
                if not copy.dlq and (rule == "ALL" or (rule == "ALLDUR" and c.sub.durable)):
                    return mqc.MQRC_PUBLICATION_FAILURE, self._rejection(
                        qm, md, data, mqc.MQRC_PUBLICATION_FAILURE)
            copies.append(copy)

        def put_op() -> Group:
            return operation_group(mqc.MQOPER_PUT, **self._now(qm), qmgr=qm.name, md=md,
                                   msg_length=len(data),
                                   details=[String(mqc.MQCA_TOPIC_STRING, topic, _CCSID)])

        def run(d: bytes) -> None:
            for copy in copies:
                self._publish_copy(qm, copy, d, topic, trace)

        ops: list[_Op] = []
        for copy in copies:
            ops.extend(self._publish_ops(qm, copy, len(data)))
        return 0, _Action(put_op, run, local=not any(not c.excluded for c in copies),
                          more=ops)

    def _copy(self, qm: QueueManager, md: MQMD, data: bytes, sub: Subscription,
              trace: ts.TraceMessage | None) -> _Copy:
        """The copy of a publication for one subscription, and where it goes."""
        if sub.managed and sub.dest not in qm.queues and not sub.dest_qmgr:
            self._managed_queue(qm, sub.dest, sub.durable)
        target = sub.dest_qmgr if sub.dest_qmgr != qm.name else ""
        r = resolve(self.network, qm.name, sub.dest, target, choose=self._choose)
        if sub.proxy:  # the engines pass the publication on (its CorrelId too)
            copy_md = _md_with(md, msg_id=self.new_msg_id(qm.name))
        else:
            priority = md.priority
            if sub.pub_priority == "ASQDEF":
                q = qm.queues.get(r.queue) if r.local else None
                priority = _number(q.get("DEFPRTY") if q is not None else "", 0)
            elif sub.pub_priority.isdigit():
                priority = int(sub.pub_priority)
            # SubCorrelId MQCI_NONE (MQSO_SET_CORREL_ID): the publisher's CorrelId stays
            correl = sub.correl_id if any(sub.correl_id) else md.correl_id
            copy_md = _md_with(md, msg_id=self.new_msg_id(qm.name), correl_id=correl,
                               priority=priority, user_identifier=sub.user[:12],
                               accounting_token=sub.pub_accounting or md.accounting_token,
                               appl_identity_data=sub.pub_appl_id)
        if not r.ok:
            failure = r.reason
        elif r.local and trace is not None and not ts.delivers(trace.state) \
                and r.queue != INTER_QMGR_PUBS:
            failure = mqc.MQFB_NOT_DELIVERED  # a trace-route message is not delivered
        else:
            failure = self.put_limit(qm, r, len(data), opened=sub.dest)
        return _Copy(sub, 0, copy_md, r, failure)

    def _managed_queue(self, qm: QueueManager, name: str, durable: bool) -> None:
        """The queue MQ makes for a managed subscription (from MDURMDL/MNDURMDL's model)."""
        model = qm.queues.get("SYSTEM.DURABLE.MODEL.QUEUE" if durable
                              else "SYSTEM.NDURABLE.MODEL.QUEUE")
        attrs = {k: v for k, v in (model.effective() if model is not None else {}).items()
                 if k != "DEFTYPE"}
        qm.queues[name] = MQObject("QLOCAL", name, attrs, "managed subscription")

    def _publish_ops(self, qm: QueueManager, copy: _Copy, length: int) -> list[_Op]:
        """The operations of one subscription considered: Publish, Discarded Publish (and
        the Put to the dead-letter queue), or Excluded Publish (seed 002's parameters)."""
        sub = copy.sub
        ids = [ByteString(mqc.MQBACF_SUB_ID, sub.sub_id),
               Integer(mqc.MQIACF_SUB_LEVEL, sub.level)]
        if copy.excluded:
            def excluded() -> Group:
                return operation_group(mqc.MQOPER_EXCLUDED_PUBLISH, **self._now(qm),
                                       qmgr=qm.name, md=None, details=[
                                           *ids, Integer(mqc.MQIACF_FEEDBACK, copy.excluded)])
            return [excluded]
        if not copy.failure:
            def published() -> Group:
                return operation_group(mqc.MQOPER_PUBLISH, **self._now(qm), qmgr=qm.name,
                                       md=copy.md, msg_length=length, details=ids)
            return [published]

        def discarded() -> Group:
            return operation_group(mqc.MQOPER_DISCARDED_PUBLISH, **self._now(qm),
                                   qmgr=qm.name, md=copy.md, msg_length=length, details=[
                                       *ids, Integer(mqc.MQIACF_FEEDBACK, copy.failure)])
        if not copy.dlq:
            return [discarded]

        def dead_letter() -> Group:
            return operation_group(mqc.MQOPER_PUT, **self._now(qm), qmgr=qm.name,
                                   md=copy.md, msg_length=length, details=[
                                       _s(mqc.MQCA_Q_NAME, copy.dlq),
                                       _s(mqc.MQCACF_RESOLVED_Q_NAME, copy.dlq),
                                       Integer(mqc.MQIACF_FEEDBACK, copy.failure)])
        return [discarded, dead_letter]

    def _publish_copy(self, qm: QueueManager, copy: _Copy, data: bytes, topic: str,
                      trace: ts.TraceMessage | None) -> None:
        """Put one copy where its subscription says (or dead-letter or lose it)."""
        if copy.excluded or copy.md is None:
            return
        sub, md, r = copy.sub, copy.md, copy.r
        if copy.failure == mqc.MQFB_NOT_DELIVERED:
            if trace is not None and ts.replies(trace.state, qm.routerec):
                self._reply(qm, md, trace)  # its route ends here
            return
        if copy.failure:
            remote = r.remote_qmgr if r is not None and r.xmitq else ""
            self._reject(qm, md, data, copy.failure, sub.dest, remote or sub.dest_qmgr,
                         copy.dlq)
            return
        assert r is not None
        if sub.proxy:
            self.pubsub.sent(md.msg_id, Inflight(topic, qm.name, sub.via))
        for w in self.watchers:
            w.published(qm.name, sub, md, len(data))
        self._deliver(qm, md, data, r)
        if r.local and r.queue != INTER_QMGR_PUBS and trace is not None \
                and ts.replies(trace.state, qm.routerec):
            self._reply(qm, md, trace)  # this copy's route ends here

    def system_subscribers(self, qmgr: str, topics: Sequence[str]) -> list[Subscription]:
        """`qmgr`'s own subscriptions that select any of these `$SYS/MQ` topic strings
        (each once, in subscription order)."""
        return [s for s in self.pubsub.system(self.network, qmgr)
                if any(matches(s.topic, t, s.scheme) for t in topics)]

    def system_publish(self, qmgr: str, topic: str, subscriptions: Sequence[Subscription],
                       md: MQMD, data: bytes) -> int:
        """The queue manager publishes (md, data) on its own `$SYS/MQ` topic to these
        subscriptions (a copy each, with its MsgId and the subscription's CorrelId, put as
        any publication's: a copy that cannot be put goes to the dead-letter queue or is
        lost); the number of copies put."""
        qm = self.network.qmgrs[qmgr]
        made = 0
        for sub in subscriptions:
            copy = self._copy(qm, md, data, sub, None)
            if copy.failure:
                copy.dlq = self.dead_letter_queue(qm, data)
            else:
                made += 1
            self._publish_copy(qm, copy, data, topic, None)
        return made

    def _republish(self, qmgr: str) -> None:
        """The engine of `qmgr` gets the publications other queue managers sent it (on
        SYSTEM.INTER.QMGR.PUBS) and publishes each to its own subscriptions (and on)."""
        qm = self.network.qmgrs[qmgr]
        if qm.attrs.get("PSMODE") == "DISABLED":
            return
        q = self.queues.get((qmgr, INTER_QMGR_PUBS))
        for s in list(q or ()):
            flight = self.pubsub.inflight.pop(s.md.msg_id, None)
            if flight is None:
                continue  # not a publication an engine sent: it stays
            _take(q, s)
            for w in self.watchers:
                w.taken(qmgr, INTER_QMGR_PUBS, s, expired=False)
            md, data = s.md, s.data

            def get(md: MQMD = md, data: bytes = data) -> Group:
                return operation_group(mqc.MQOPER_GET, **self._now(qm), qmgr=qmgr, md=md,
                                       msg_length=len(data), details=[
                                           _s(mqc.MQCA_Q_NAME, INTER_QMGR_PUBS),
                                           _s(mqc.MQCACF_RESOLVED_Q_NAME, INTER_QMGR_PUBS)])
            act = _Activity(qm, PUBSUB_ENGINE, mqc.MQAT_QMGR, PUBLISH_ACTIVITY, ts.MEDIUM,
                            [get])
            trace = ts.TraceMessage.recognise(md, data) if qm.supports_trace_route else None
            reason, action = self._publication(qm, md, data, flight.topic, trace,
                                               Origin(flight.sender, flight.via))
            if reason:
                action = self._rejection(qm, md, data, reason, queue=INTER_QMGR_PUBS)
            self._perform(act, md, data, trace, lambda action=action: action)

    def subscribe(self, qmgr: str, topic: str = "", *, topic_object: str = "",
                  name: str = "", destination: str = "", destination_qmgr: str = "",
                  durable: bool = False, selector: str = "", correl_id: bytes | None = None,
                  level: int = 1, scheme: str = "TOPIC", scope: str = "ALL",
                  no_local: bool = False, appl_name: str = "amqssub",
                  appl_type: int = mqc.MQAT_UNIX) -> Subscribed:
        """MQSUB (MQSO_CREATE): a subscription to a topic object and/or topic string; its
        publications go to `destination` at `destination_qmgr`, or to a managed queue MQ
        makes. Fails as MQ does: MQRC_PUBSUB_INHIBITED, MQRC_UNKNOWN_OBJECT_NAME (the topic
        object or the destination), MQRC_NOT_AUTHORIZED (the user needs +sub on a topic
        object at or above the topic, SYSTEM.BASE.TOPIC at the top: MQRQ_SUB_NOT_AUTHORIZED;
        and +put on a destination of its own: MQRQ_SUB_DEST_NOT_AUTHORIZED),
        MQRC_SUB_INHIBITED (SUB(DISABLED)), MQRC_DURABILITY_NOT_ALLOWED (DURSUB(NO)),
        MQRC_SUB_NAME_ERROR (a durable one needs a name), MQRC_SUB_ALREADY_EXISTS,
        MQRC_SELECTION_STRING_ERROR, MQRC_ADMIN_TOPIC_STRING_ERROR (a wildcard in the fixed
        levels of `$SYS/MQ/INFO/QMGR/<qmgr>/ActivityTrace`). `correl_id` (MQSO_SET_CORREL_ID):
        the CorrelId of the copies; MQCI_NONE (24 zero bytes) keeps each publication's own
        (an activity-trace message's is its ConnectionId: what `follow` keys records by)."""
        conn, refused = self._app(qmgr, appl_name, appl_type)
        if refused:
            return Subscribed(refused)
        qm = self.network.qmgrs[qmgr]
        reason, full = resolve_topic(self.network, qmgr, topic, topic_object)
        qualifier = 0
        if not reason and system_wildcard_misplaced(full, scheme):
            reason = mqc.MQRC_ADMIN_TOPIC_STRING_ERROR  # a wildcard in $SYS/MQ's fixed levels
        v = view(self.network, qmgr, fixed_prefix(full, scheme)) if not reason else None
        groups = self.groups.get(conn.user, ())
        if v is not None:
            if not any(authorized(qm, "TOPIC", t, conn.user, groups, ("SUB",))
                       for t in _topic_objects(qm, full)):
                reason, qualifier = mqc.MQRC_NOT_AUTHORIZED, mqc.MQRQ_SUB_NOT_AUTHORIZED
            elif destination and self._authority(
                    qm, conn.user, destination, destination_qmgr,
                    resolve(self.network, qmgr, destination, destination_qmgr,
                            choose=self._choose) if destination_qmgr else None, ("PUT",)):
                # (on another queue manager: +put on its transmission queue or alias)
                reason, qualifier = mqc.MQRC_NOT_AUTHORIZED, mqc.MQRQ_SUB_DEST_NOT_AUTHORIZED
            elif v.sub == "DISABLED":
                reason = mqc.MQRC_SUB_INHIBITED
            elif durable and v.durable == "NO":
                reason = mqc.MQRC_DURABILITY_NOT_ALLOWED
            elif durable and not name:
                reason = mqc.MQRC_SUB_NAME_ERROR
            elif name and (self.pubsub.api_named(qmgr, name) is not None
                           or ("SUB", name) in qm.others):
                reason = mqc.MQRC_SUB_ALREADY_EXISTS
            elif selector:
                try:
                    compile_selector(selector)
                except SelectorError:
                    reason = mqc.MQRC_SELECTION_STRING_ERROR
        sub: Subscription | None = None
        if not reason:
            self._sub_serial += 1
            label = name or f"{appl_name}:{self._sub_serial}"
            sub_id = sub_id_for(qmgr, label, "API")
            queue = destination or managed_queue(qmgr, sub_id, durable)
            if destination:
                reason = resolve(self.network, qmgr, destination,
                                 destination_qmgr if destination_qmgr != qmgr else "").reason
            if not reason:
                if not destination:
                    self._managed_queue(qm, queue, durable)
                sub = Subscription(qmgr, label, sub_id, full, queue, destination_qmgr,
                                   correl_id or (b"AMQX" + sub_id[4:]), API, durable, level,
                                   "CHAR" if scheme == "CHAR" else "TOPIC", selector, scope,
                                   appl_name=appl_name, no_local=no_local,
                                   managed=not destination, topic_object=topic_object,
                                   topic_string=topic, user=conn.user,
                                   conn_id=conn.conn_id)
                self.pubsub.add(sub)
        hsub = self._next_hobj() if not reason else 0
        if self._observers:
            options = mqc.MQSO_CREATE | (mqc.MQSO_DURABLE if durable else 0) | \
                (0 if destination else mqc.MQSO_MANAGED) | \
                (mqc.MQSO_WILDCARD_CHAR if scheme == "CHAR" else 0) | \
                (mqc.MQSO_SET_CORREL_ID if correl_id is not None else 0)
            queue_name = sub.dest if sub is not None else destination
            self._notify(conn, MQSUB, object_name=topic_object, object_qmgr=destination_qmgr,
                         hobj=hsub, options=options, resolved_queue=queue_name,
                         resolved_qmgr=qmgr, local_queue=queue_name, topic=full,
                         subscription=sub, qualifier=qualifier, reason=reason,
                         comp_code=mqc.MQCC_FAILED if reason else mqc.MQCC_OK)
        return Subscribed(reason, sub, hsub)

    def unsubscribe(self, qmgr: str, sub_id: bytes) -> bool:
        """MQCLOSE with MQCO_REMOVE_SUB: the API subscription ends (its managed queue goes,
        with what is on it). False when there is no such subscription."""
        sub = self.pubsub.api.get((qmgr, sub_id))
        if sub is None:
            return False
        self._end_subscription(sub)
        return True

    def _end_subscription(self, sub: Subscription) -> None:
        self.pubsub.remove(sub.qmgr, sub.sub_id)
        for w in self.watchers:
            w.unsubscribed(sub.qmgr, sub)
        if sub.managed:
            qm = self.network.qmgrs.get(sub.qmgr)
            if qm is not None and sub.dest in qm.queues and not qm.queues[sub.dest].system:
                del qm.queues[sub.dest]
            self.queues.pop((sub.qmgr, sub.dest), None)

    def _choose(self, qmgr: str, queue: str, candidates: list[str]) -> int:
        """Cluster workload balancing: a local instance first, else round-robin."""
        if qmgr in candidates:
            return candidates.index(qmgr)
        key = (qmgr, queue)
        n = self._round_robin.get(key, 0)
        self._round_robin[key] = n + 1
        return n % len(candidates)

    # --- the heart: one activity on one message (trace-route.md §5.1) -------------------

    def _perform(self, act: _Activity, md: MQMD, data: bytes,
                 trace: ts.TraceMessage | None, choose: Callable[[], _Action]) -> None:
        """Count (step 2), check the loop (3), act, accumulate (4), reply (6), report (7)."""
        qm = act.qm
        if trace is not None:
            recorded = ts.records(trace.state, act.level, md.report, qm.activrec, qm.routerec)
            trace.count(recorded)
        else:
            recorded = bool(md.report & mqc.MQRO_ACTIVITY) and qm.activrec in ts.ENABLED \
                and qm.supports_trace_route
        if trace is not None and ts.too_many(trace.state):
            action = self._rejection(qm, md, data, mqc.MQFB_MAX_ACTIVITIES)
        else:
            action = choose()
        act.operations.append(action.operation)
        act.operations.extend(action.more)
        group = None
        if recorded:
            group = activity_group(appl_name=act.appl_name, appl_type=act.appl_type,
                                   description=act.description,
                                   operations=[_made(op) for op in act.operations],
                                   trace_route=trace.snapshot() if trace else None)
            if trace is not None and ts.accumulates(trace.state, qm.routerec):
                trace.append(group)
        if trace is not None:
            data = trace.encode(md)
        action.run(data)
        if trace is not None and (action.rejected or action.local) and \
                ts.replies(trace.state, qm.routerec):
            self._reply(qm, md, trace)
        if group is not None and md.report & mqc.MQRO_ACTIVITY:
            self._activity_report(qm, md, group)

    def _now(self, qm: QueueManager) -> dict[str, str]:
        date, time = self._date_time(qm)
        return {"date": date, "time": time}

    def _put_action(self, act: _Activity, md: MQMD, data: bytes, r: Resolution,
                    trace: ts.TraceMessage | None, opened: str,
                    original: MQMD | None = None, failure: int = 0,
                    dlq: str | None = None, checked: int = -1) -> _Action:
        """Put where `r` says (or reject with `failure`, to `dlq`); at the target, a
        trace-route message needs Deliver=YES. `checked`: see `_deliver`."""
        qm = act.qm
        if not r.ok or failure:
            return self._rejection(qm, md, data, failure or r.reason, queue=opened, dlq=dlq)
        if r.local and trace is not None and not ts.delivers(trace.state) \
                and r.queue != INTER_QMGR_PUBS:  # an engine's queue is no target
            return self._rejection(qm, md, data, mqc.MQFB_NOT_DELIVERED, queue=opened)

        def op() -> Group:
            details: list[Parameter] = [_s(mqc.MQCA_Q_NAME, opened),
                                        _s(mqc.MQCACF_RESOLVED_Q_NAME, r.queue)]
            if r.xmitq:
                details += [_s(mqc.MQCA_REMOTE_Q_NAME, r.remote_q),
                            _s(mqc.MQCA_REMOTE_Q_MGR_NAME, r.remote_qmgr)]
            return operation_group(mqc.MQOPER_PUT, **self._now(qm), qmgr=qm.name, md=md,
                                   msg_length=len(data), details=details)
        return _Action(op, lambda d: self._deliver(qm, md, d, r, original, checked),
                       local=r.local and r.queue != INTER_QMGR_PUBS)

    def _rejection(self, qm: QueueManager, md: MQMD, data: bytes, feedback: int, *,
                   queue: str = "", remote_qmgr: str = "", dlq: str | None = None) -> _Action:
        """Reject with feedback: a Discard (MQRO_DISCARD_MSG, or no usable DLQ) or a Put to
        the DLQ (`dlq`, by default the queue manager's usable one)."""
        if dlq is None:  # discarded either way with MQRO_DISCARD_MSG: no queue to look for
            dlq = "" if md.report & mqc.MQRO_DISCARD_MSG else self.dead_letter_queue(qm, data)

        def op() -> Group:
            when = self._now(qm)
            if md.report & mqc.MQRO_DISCARD_MSG or not dlq:
                details: list[Parameter] = [Integer(mqc.MQIACF_FEEDBACK, feedback)]
                if queue:
                    details.insert(0, _s(mqc.MQCA_Q_NAME, queue))
                if remote_qmgr:
                    details.append(_s(mqc.MQCA_REMOTE_Q_MGR_NAME, remote_qmgr))
                return operation_group(mqc.MQOPER_DISCARD, **when, qmgr=qm.name, md=md,
                                       msg_length=len(data), details=details)
            return operation_group(mqc.MQOPER_PUT, **when, qmgr=qm.name, md=md,
                                   msg_length=len(data), details=[
                                       _s(mqc.MQCA_Q_NAME, dlq),
                                       _s(mqc.MQCACF_RESOLVED_Q_NAME, dlq),
                                       Integer(mqc.MQIACF_FEEDBACK, feedback)])
        return _Action(op, lambda d: self._reject(qm, md, d, feedback, queue, remote_qmgr,
                                                  dlq), rejected=True)

    def _deliver(self, qm: QueueManager, md: MQMD, data: bytes, r: Resolution,
                 original: MQMD | None = None, checked: int = -1) -> None:
        """Put on the resolved queue: a local queue, or an xmitq (then the channel moves it).
        `checked`: the length `put_limit` passed at this put's open, nothing put since (a
        trace-route message may have grown: then it is checked again)."""
        actor, self._actor = self._actor, None
        reason = 0 if len(data) == checked else self.put_limit(qm, r, len(data))
        if reason:
            self._actor = actor
            self._reject(qm, md, data, reason, r.queue if r.local else r.remote_q,
                         r.remote_qmgr if r.xmitq else "")
            return
        if actor is not None:
            self._put_call(actor, qm, md, data, r=r)
        if r.local:
            self._store(qm, r.queue, md, data)
            if md.report & mqc.MQRO_COA == mqc.MQRO_COA and md.msg_type != mqc.MQMT_REPORT:
                self._report(qm, md, data, mqc.MQFB_COA, mqc.MQRO_COA)
            return
        enc, ccsid = self._encoding(qm)
        xqh = MQXQH(r.remote_q, r.remote_qmgr, _md_with(md, version=1))
        xmit_md = _md_with(md, msg_id=self.new_msg_id(qm.name), correl_id=md.msg_id,
                          format="MQXMIT", encoding=enc, coded_char_set_id=ccsid)
        packed = pack_xqh(xqh, encoding=enc, ccsid=ccsid)
        # the names as read back from the header (padding and width as MQ's 48 characters)
        kept = MQXQH(_as_packed(r.remote_q), _as_packed(r.remote_qmgr), xqh.msg_desc) \
            if (r.remote_q + r.remote_qmgr).isascii() else None
        self._store(qm, r.xmitq, xmit_md, packed + data, original or md, xqh=kept)
        self._at(self.latency, lambda: self._drain(qm, r.xmitq))

    def _reject(self, qm: QueueManager, md: MQMD, data: bytes, reason: int,
                queue: str = "", dest_qmgr: str = "", dlq: str | None = None) -> None:
        """Discard (MQRO_DISCARD_MSG, or no usable DLQ) or dead-letter a message (to `dlq`,
        by default the queue manager's usable one); exception report."""
        actor, self._actor = self._actor, None
        if actor is not None and reason > 2000:  # an MQRC_*, not an MQFB_*
            self._put_call(actor, qm, md, data, reason=reason)  # the put that failed
        if actor is not None and not actor.conn.mca:
            actor = None  # an application's failed put is all it sees
        if md.report & mqc.MQRO_EXCEPTION == mqc.MQRO_EXCEPTION:
            self._report(qm, md, data, reason, mqc.MQRO_EXCEPTION)
        if dlq is None:
            dlq = self.dead_letter_queue(qm, data)
        if md.report & mqc.MQRO_DISCARD_MSG or not dlq:
            return
        enc, ccsid = self._encoding(qm)
        date, time = self._put_stamp(qm)
        dlh = MQDLH(reason, queue, dest_qmgr or qm.name, md.encoding, md.coded_char_set_id,
                    md.format, mqc.MQAT_QMGR, qm.name, date, time)
        dead_md = _md_with(md, format="MQDEAD", encoding=enc, coded_char_set_id=ccsid)
        if actor is not None:
            self._put_call(actor, qm, dead_md, data, queue=dlq)
        self._store(qm, dlq, dead_md, pack_dlh(dlh, encoding=enc, ccsid=ccsid) + data)

    def _sending_mca(self, qm: QueueManager, s: Stored, md: MQMD, data: bytes,
                     xmitq: str) -> tuple[_Activity, ts.TraceMessage | None]:
        """The sending MCA's activity, begun with its Get of `s` from the xmitq."""
        def get() -> Group:
            return operation_group(mqc.MQOPER_GET, **self._now(qm), qmgr=qm.name, md=s.md,
                                   embedded=md, msg_length=len(s.data), details=[
                                       _s(mqc.MQCA_Q_NAME, xmitq),
                                       _s(mqc.MQCACF_RESOLVED_Q_NAME, xmitq)])
        act = _Activity(qm, self.sending_mca, mqc.MQAT_QMGR, "Sending Message Channel Agent",
                        ts.MEDIUM, [get])
        trace = ts.TraceMessage.recognise(md, data) if qm.supports_trace_route else None
        return act, trace

    def _discard_expired(self, qm: QueueManager, s: Stored, xqh: MQXQH, xmitq: str) -> None:
        """The sending MCA finds the message expired: Get, then Discard (MQFB_EXPIRATION)."""
        md = s.original or xqh.msg_desc
        data = s.data[XQH_LENGTH:]
        act, trace = self._sending_mca(qm, s, md, data, xmitq)
        def discard() -> Group:
            return operation_group(mqc.MQOPER_DISCARD, **self._now(qm), qmgr=qm.name, md=md,
                                   msg_length=len(data), details=[
                                       _s(mqc.MQCA_Q_NAME, xmitq),
                                       Integer(mqc.MQIACF_FEEDBACK, mqc.MQFB_EXPIRATION)])
        self._perform(act, md, data, trace, lambda: _Action(
            discard, lambda _d: self._expire(qm, s), rejected=True))

    def _expire(self, qm: QueueManager, s: Stored) -> None:
        md = s.original or s.md
        if md.report & mqc.MQRO_EXPIRATION == mqc.MQRO_EXPIRATION:
            data = s.data[XQH_LENGTH:] if s.original is not None else s.data  # no MQXQH
            self._report(qm, md, data, mqc.MQFB_EXPIRATION, mqc.MQRO_EXPIRATION)

    # --- channels: the sending and the receiving MCA ----------------------------------

    def _send(self, qm: QueueManager, other: QueueManager, channel: MQObject, s: Stored,
              xqh: MQXQH, xmitq: str) -> None:
        """The sending MCA's activity: Get from the xmitq, then Send (or a rejection)."""
        md = s.original or xqh.msg_desc
        remaining = self._remaining(s)
        if remaining != md.expiry:  # else the same values: the descriptor as it was put
            md = _md_with(md, expiry=remaining)
        data = s.data[XQH_LENGTH:]
        if self.watchers and channel.get("CONVERT") == "YES":
            failed = _conversion_failure(md, *self._encoding(other))
            if failed:  # the MCA's MQGET with MQGMO_CONVERT: the message goes unconverted
                for w in self.watchers:
                    w.channel_conversion_error(qm.name, channel, other.name, md, failed)
        too_big = len(s.data) > self._channel_maxmsgl(qm, other, channel)
        dlq = self.dead_letter_queue(qm, data, channel) if too_big else ""
        if too_big and not dlq and not _may_discard(md, channel, other):
            self._back_out(qm, channel, s, xmitq)  # MQRC_MSG_TOO_BIG_FOR_CHANNEL: it waits
            return
        retrying = self._retrying.get((qm.name, channel.name))  # sent while retrying?
        act, trace = self._sending_mca(qm, s, md, data, xmitq)

        def choose() -> _Action:
            if too_big:
                return self._rejection(qm, md, data, mqc.MQRC_MSG_TOO_BIG_FOR_CHANNEL,
                                       queue=xqh.remote_q_name,
                                       remote_qmgr=xqh.remote_q_mgr_name, dlq=dlq)
            if trace is not None:
                feedback = ts.forwarding_feedback(trace.state, other.supports_trace_route)
                if feedback is not None:
                    return self._rejection(qm, md, data, feedback,
                                           remote_qmgr=xqh.remote_q_mgr_name)
            def op() -> Group:
                return operation_group(
                    mqc.MQOPER_SEND, **self._now(qm), qmgr=qm.name, md=md,
                    msg_length=len(data), details=[
                        _s(mqc.MQCA_REMOTE_Q_MGR_NAME, other.name),
                        _s(mqc.MQCACH_CHANNEL_NAME, channel.name, 20),
                        Integer(mqc.MQIACH_CHANNEL_TYPE, _sender_type(channel)),
                        _s(mqc.MQCACH_XMIT_Q_NAME, xmitq)])
            # the receiving MCA takes the trace-route message as this MCA wrote it: `trace`
            # is what decoding `d` again gives (it is not used here after the send)
            return _Action(op, lambda d: self._at(
                self.latency, lambda: self._receive(other, qm, channel, md, d, xqh,
                                                    (s, xmitq, retrying), sent=trace)))

        self._perform(act, md, data, trace, choose)

    def _remaining(self, s: Stored) -> int:
        md = s.original or s.md
        if md.expiry <= 0:
            return md.expiry
        return max(1, md.expiry - int((self.now - s.put_at) * 10))

    def _channel_maxmsgl(self, qm: QueueManager, other: QueueManager,
                         channel: MQObject) -> int:
        """The channel's MAXMSGL as its two ends negotiate it: the smaller (0: the queue
        manager's)."""
        key = ("maxmsgl", qm.name, other.name)
        found = kept(channel, key)
        if found is not None:
            return found

        def end(owner: QueueManager, ch: MQObject | None) -> int:
            qmgr_max = _number(owner.attrs.get("MAXMSGL"), _MAXMSGL)
            value = _number(ch.get("MAXMSGL"), _MAXMSGL) if ch is not None else qmgr_max
            return value or qmgr_max
        # read once per pair and network generation (an ALTER or DEFINE reads it again)
        return cached(channel, key, lambda: min(
            end(qm, channel), end(other, other.channels.get(channel.name))))

    def _receive(self, qm: QueueManager, sender: QueueManager, channel: MQObject, md: MQMD,
                 data: bytes, xqh: MQXQH, back: tuple[Stored, str, list | None] | None = None,
                 attempt: int = 0, sent: ts.TraceMessage | None = None) -> None:
        """The receiving MCA's activity: Receive, then the put onwards (or a rejection).
        A put that fails is retried (MRRTY/MRTMR), then dead-lettered, discarded (a
        nonpersistent message on a FAST channel) or backed out (`back`: the message and
        its transmission queue on the sender) as MQ documents. `sent`: the trace-route
        message `data` holds, decoded (the sending MCA's), taken instead of decoding."""
        def receive() -> Group:
            return operation_group(mqc.MQOPER_RECEIVE, **self._now(qm), qmgr=qm.name, md=md,
                                   msg_length=len(data), details=[
                                       _s(mqc.MQCA_REMOTE_Q_MGR_NAME, sender.name),
                                       _s(mqc.MQCACH_CHANNEL_NAME, channel.name, 20),
                                       Integer(mqc.MQIACH_CHANNEL_TYPE,
                                               _receiver_type(channel))])
        act = _Activity(qm, self.receiving_mca, mqc.MQAT_QMGR, "Receiving Message Channel Agent",
                        ts.MEDIUM, [receive])
        trace = None if not qm.supports_trace_route else sent if sent is not None \
            else ts.TraceMessage.recognise(md, data)
        if trace is not None and not sender.supports_trace_route:
            trace.discontinuity()
        r = resolve(self.network, qm.name, xqh.remote_q_name, xqh.remote_q_mgr_name,
                    choose=self._choose)
        mine = qm.channels.get(channel.name)  # this end's definition (RCVR, CLUSRCVR ...)
        user = _mca_user(mine, md) if any(k[0] == "AUTHREC" for k in qm.records) \
            else "mqm"  # no grants: nothing to check
        r = self._authority(qm, user, xqh.remote_q_name, xqh.remote_q_mgr_name, r,
                            ("PUT",)) or r
        held = trace is not None and r.local and not ts.delivers(trace.state) \
            and r.queue != INTER_QMGR_PUBS  # not put
        failure = r.reason if not r.ok else 0 if held else \
            self.put_limit(qm, r, len(data), opened=xqh.remote_q_name)
        dlq = None
        actor = self._receiver_actor(qm, sender, channel, xqh, r, user) \
            if self._observers else None
        if failure:
            if failure in (mqc.MQRC_Q_FULL, mqc.MQRC_PUT_INHIBITED) and \
                    attempt < _number(mine.get("MRRTY") if mine else "", 10):
                if actor is not None:  # observers see each MQPUT1 that failed
                    self._put_call(actor, qm, md, data, reason=failure)
                wait = max(_number(mine.get("MRTMR") if mine else "", 1000) / 1000, 1e-6)
                key = (qm.name, channel.name)
                pending = MessageRetry(sender.name, attempt + 1, self.now + wait, back)
                self._message_retries.setdefault(key, []).append(pending)

                def again() -> None:
                    waiting = self._message_retries.get(key, [])
                    if pending not in waiting:
                        return  # backed out meanwhile (back_out_message_retries)
                    waiting.remove(pending)
                    if not waiting:
                        del self._message_retries[key]
                    self._receive(qm, sender, channel, md, data, xqh, back, attempt + 1)
                self._at(wait, again)
                return  # message retry: the put is tried again later (channel PAUSED)
            dlq = self.dead_letter_queue(qm, data, mine)
            if not dlq and back is not None and not md.report & mqc.MQRO_DISCARD_MSG \
                    and not _may_discard(md, channel, qm):
                if actor is not None:
                    self._put_call(actor, qm, md, data, reason=failure)
                self._back_out(sender, channel, back[0], back[1])
                return
        if back is not None:
            self._delivered(sender, channel.name, back[2])
        self._actor = actor
        try:
            if not qm.supports_trace_route and r.ok:
                self._deliver(qm, md, data, r)  # no trace-route support: Deliver not honoured
                return
            checked = len(data) if r.ok and not held and not failure else -1
            self._perform(act, md, data, trace, lambda: self._put_action(
                act, md, data, r, trace, xqh.remote_q_name, failure=failure, dlq=dlq,
                checked=checked))
        finally:
            self._actor = None

    def _receiver_actor(self, qm: QueueManager, sender: QueueManager, channel: MQObject,
                        xqh: MQXQH, r: Resolution, user: str) -> _Actor:
        """The receiving MCA (connected on first use, as `user`) as the maker of its MQPUT1s
        (to where `r` resolved, or failed to)."""
        return _Actor(self._connect(qm.name, "receiver", channel.name, self.receiving_mca,
                                    mqc.MQAT_QMGR, mca=True, channel=channel.name,
                                    channel_type=_receiver_type(channel),
                                    partner=sender.name, user=user),
                      MQPUT1, xqh.remote_q_name, xqh.remote_q_mgr_name, None,
                      None if r.ok else r)

    # --- what the queue manager sends back ---------------------------------------------

    def _send_back(self, qm: QueueManager, md: MQMD, data: bytes, queue: str,
                   target_qmgr: str) -> None:
        """Put a report or reply; if it cannot go, dead-letter it (unless it may be discarded)."""
        r = resolve(self.network, qm.name, queue, target_qmgr, choose=self._choose)
        if not r.ok:
            self._reject(qm, md, data, r.reason, queue)
            return
        self._deliver(qm, md, data, r)

    def _respond_md(self, qm: QueueManager, original: MQMD) -> MQMD:
        enc, ccsid = self._encoding(qm)
        date, time = self._put_stamp(qm)
        return report_descriptor(original, qmgr=qm.name, msg_id=self.new_msg_id(qm.name),
                                 put_date=date, put_time=time, encoding=enc, ccsid=ccsid)

    def _activity_report(self, qm: QueueManager, original: MQMD, activity: Group) -> None:
        md = self._respond_md(qm, original)
        data = encode_report(md, activity_report(activity))
        if qm.activrec == mqc.MQRECORDING_Q:
            self._send_back(qm, md, data, ACTIVITY_QUEUE, "")
        else:
            self._send_back(qm, md, data, original.reply_to_q, original.reply_to_q_mgr)

    def _reply(self, qm: QueueManager, original: MQMD, trace: ts.TraceMessage) -> None:
        """A trace-route reply: the accumulated data, MQADMIN, MsgType REPLY."""
        md = _md_with(self._respond_md(qm, original), msg_type=mqc.MQMT_REPLY,
                     feedback=mqc.MQFB_NONE, format="MQADMIN", encoding=original.encoding,
                     coded_char_set_id=original.coded_char_set_id)
        msg = Message(Header(mqc.MQCFT_TRACE_ROUTE, mqc.MQCMD_TRACE_ROUTE),
                      list(trace.message.parameters))
        data = encode_report(md, msg)
        if qm.routerec == mqc.MQRECORDING_Q:
            self._send_back(qm, md, data, TRACE_ROUTE_QUEUE, "")
        else:
            self._send_back(qm, md, data, original.reply_to_q, original.reply_to_q_mgr)

    def _report(self, qm: QueueManager, original: MQMD, data: bytes, feedback: int,
                option: int) -> None:
        """A COA/COD/exception/expiration report, with as much data as was asked for.

        Its Format, Encoding and CodedCharSetId describe the data it carries (IBM's rule for
        report messages): the original's when it carries the original's data, else Format
        MQFMT_NONE in the reporting queue manager's encoding and CCSID."""
        if not original.reply_to_q:
            return
        asked = original.report & (option * 7)
        md = _md_with(self._respond_md(qm, original), feedback=feedback)
        if asked in (option * 7, option * 3):
            body = data if asked == option * 7 else data[:100]
            md = _md_with(md, format=original.format, encoding=original.encoding,
                          coded_char_set_id=original.coded_char_set_id)
        else:
            body, md = b"", _md_with(md, format="")
        self._send_back(qm, md, body, original.reply_to_q, original.reply_to_q_mgr)


@dataclass(frozen=True, slots=True)
class _Actor:
    """Who makes the put that `_deliver` or `_reject` is about to do (for observers)."""

    conn: SimConnection
    verb: str
    object_name: str
    object_qmgr: str
    hobj: int | None
    failure: Resolution | None = None  # the failed resolution of the put, if it failed


_last_stamp = [0]
#: queue manager -> the MsgIds' first 16 bytes ('AMQ ' and 12 characters of its name)
_ID_HEADS: dict[str, bytes] = {}


def _clock_stamp() -> bytes:
    """Four bytes of wall-clock time in milliseconds, a new value for every Simulator of
    this process (the identifiers' time part; a counter follows it, as in MQ's)."""
    stamp = max(time_ns() // 1_000_000, _last_stamp[0] + 1)
    _last_stamp[0] = stamp
    return (stamp & 0xFFFFFFFF).to_bytes(4, "big")


def moment_strings(t: datetime) -> tuple[str, str, str, str]:
    """A moment as an Operation shows it (YYYY-MM-DD, HH:MM:SS) and as an MQMD does
    (PutDate YYYYMMDD, PutTime HHMMSSTH): strftime's strings, formatted 3x quicker."""
    if t.year < 1000:  # strftime's %Y is not zero-padded there
        return (t.strftime("%Y-%m-%d"), t.strftime("%H:%M:%S"), t.strftime("%Y%m%d"),
                t.strftime("%H%M%S") + f"{t.microsecond // 10000:02d}")
    y, mo, d, h, mi, s = second = t.year, t.month, t.day, t.hour, t.minute, t.second
    texts = _SECONDS.get(second)  # the strings of that second, made once
    if texts is None:
        if len(_SECONDS) >= 4096:
            _SECONDS.clear()
        texts = _SECONDS[second] = (f"{y}-{mo:02d}-{d:02d}", f"{h:02d}:{mi:02d}:{s:02d}",
                                    f"{y}{mo:02d}{d:02d}", f"{h:02d}{mi:02d}{s:02d}")
    return texts[0], texts[1], texts[2], texts[3] + _HUNDREDTHS[t.microsecond // 10000]


#: (year, month, day, hour, minute, second) -> moment_strings' texts of that second
_SECONDS: dict[tuple[int, ...], tuple[str, str, str, str]] = {}
_HUNDREDTHS = tuple(f"{n:02d}" for n in range(100))


def _s(pid: int, value: str, width: int = 48) -> String:
    return String(pid, value, _CCSID, width)


_MD_VALUES = attrgetter(*(f.name for f in fields(MQMD)))  # in __init__'s order


def _md_with(md: MQMD, **changes: object) -> MQMD:
    """dataclasses.replace for an MQMD at about half its cost (the fields are known)."""
    new = MQMD(*_MD_VALUES(md))
    for name, value in changes.items():
        setattr(new, name, value)  # a slot: an unknown name raises AttributeError
    return new


_MAXMSGL = 4194304


def _put_limits(obj: MQObject | QueueManager) -> tuple[bool, int, int, str | None]:
    """What a put to a local queue is checked against, read once per network generation
    (`cached`: any ALTER/DEFINE reads them again): PUT(DISABLED), MAXMSGL, MAXDEPTH and
    MAXFSIZE as given (its default DEFAULT never limits); of a queue manager, its MAXMSGL."""
    cache = obj.__dict__.get("_cache")  # cached()'s fast path, inlined: a put checks twice
    if cache is not None and cache[0] == generation():
        found = cache[1].get("put_limits")
        if found is not None:
            return found
    if isinstance(obj, QueueManager):
        return cached(obj, "put_limits", lambda: (
            False, _number(obj.attrs.get("MAXMSGL"), _MAXMSGL), 0, None))
    return cached(obj, "put_limits", lambda: (
        obj.get("PUT") == "DISABLED", _number(obj.get("MAXMSGL"), _MAXMSGL),
        _number(obj.get("MAXDEPTH"), 5000), obj.attrs.get("MAXFSIZE")))


def _number(value: str | None, default: int) -> int:
    """An attribute's number (its default when blank or not a number)."""
    try:
        return int(value) if value else default
    except ValueError:
        return default


def _may_discard(md: MQMD, channel: MQObject, other: QueueManager) -> bool:
    """A nonpersistent message on a channel whose both ends say NPMSPEED(FAST): with no
    dead-letter queue the MCA discards it (a persistent one is never lost)."""
    if md.persistence == mqc.MQPER_PERSISTENT:
        return False
    theirs = other.channels.get(channel.name)
    return channel.get("NPMSPEED", "FAST") != "NORMAL" and \
        (theirs is None or theirs.get("NPMSPEED", "FAST") != "NORMAL")


def _take(q: deque[Stored], s: Stored) -> None:
    """Remove `s` from its queue (mostly the first message: no search then)."""
    if q[0] is s:
        q.popleft()
    else:
        q.remove(s)


def _encoding_of(qm: QueueManager) -> tuple[int, int]:
    from pcf.codepages import is_ebcdic

    try:
        ccsid = int(qm.attrs.get("CCSID", "819"))
    except ValueError:
        ccsid = _CCSID
    return (mqc.MQENC_S390 if is_ebcdic(ccsid) else mqc.MQENC_REVERSED), ccsid


def _as_packed(name: str) -> str:
    """A name as an MQXQH holds it: at most 48 characters, trailing blanks gone."""
    return name[:48].rstrip(" \x00")


def _topic_objects(qm: QueueManager, topic: str) -> list[str]:
    """The topic objects whose TOPICSTR is `topic` or above it, the closest first
    (SYSTEM.BASE.TOPIC, the root, last)."""
    found = []
    for (kind, name), obj in qm.others.items():
        if kind != "TOPIC":
            continue
        string = obj.get("TOPICSTR")
        if string and (topic == string or topic.startswith(string.rstrip("/") + "/")):
            found.append((len(string), name))
    if in_system_branch(topic):  # authority above $SYS/MQ does not reach into it
        inside = [name for n, name in sorted(found, reverse=True) if n >= len(SYSTEM_BRANCH)]
        return [*inside, "SYSTEM.ADMIN.TOPIC"] if "SYSTEM.ADMIN.TOPIC" not in inside \
            else inside
    return [name for _n, name in sorted(found, reverse=True)] + ["SYSTEM.BASE.TOPIC"]


#: Formats the queue manager converts itself (the others need a data-conversion exit).
_CONVERTIBLE = frozenset({"MQSTR", "MQADMIN", "MQEVENT", "MQPCF", "MQHRF2", "MQDEAD",
                          "MQXMIT", "MQTRIG", "MQCICS", "MQIMS", "MQIMSVS", "MQHRF",
                          "MQHSAP", "MQHWIH", "MQHMDE", "MQHDIST", "MQHREF"})


def _conversion_failure(md: MQMD, encoding: int, ccsid: int) -> int:
    """The MQRC_* a conversion of the message to (encoding, ccsid) fails with, 0 if none is
    needed or it converts: MQRC_FORMAT_ERROR for a format the queue manager cannot
    convert (blank, or its own with no exit)."""
    if md.coded_char_set_id in (ccsid, 0) and md.encoding == encoding:
        return 0
    return 0 if md.format.strip() in _CONVERTIBLE else mqc.MQRC_FORMAT_ERROR


def _mca_user(channel: MQObject | None, md: MQMD) -> str:
    """Whom a receiving MCA puts as: PUTAUT(CTX) the message's UserIdentifier, else the
    channel's MCAUSER, else the queue manager's own user (mqm)."""
    if channel is None:
        return "mqm"
    if channel.get("PUTAUT") in ("CTX", "ALTMCA"):
        return md.user_identifier.strip() or "mqm"
    return channel.get("MCAUSER") or "mqm"


def _sender_type(channel: MQObject) -> int:
    kind = channel.get("CHLTYPE")
    return {"SVR": mqc.MQCHT_SERVER, "CLUSRCVR": mqc.MQCHT_CLUSSDR}.get(kind,
                                                                       mqc.MQCHT_SENDER)


def _receiver_type(channel: MQObject) -> int:
    kind = channel.get("CHLTYPE")
    return {"CLUSRCVR": mqc.MQCHT_CLUSRCVR, "SVR": mqc.MQCHT_REQUESTER,
            "RQSTR": mqc.MQCHT_REQUESTER}.get(kind, mqc.MQCHT_RECEIVER)
