"""Typed values of application activity trace: a traced connection and its MQI calls."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import MISSING, dataclass, field, fields
from datetime import UTC, datetime, timedelta

from pcf import mqc
from pcf.model import Parameter
from pcf.mqmd import MQMD

#: MQXF_* operation ids of the calls that move messages.
PUT_OPS = frozenset({mqc.MQXF_PUT, mqc.MQXF_PUT1})
GET_OPS = frozenset({mqc.MQXF_GET, mqc.MQXF_CALLBACK})
#: MQCHT_* of message channels: their agents (MCAs) move messages between queue managers.
MESSAGE_CHANNEL_TYPES = frozenset({mqc.MQCHT_SENDER, mqc.MQCHT_SERVER, mqc.MQCHT_RECEIVER,
                                   mqc.MQCHT_REQUESTER, mqc.MQCHT_CLUSSDR, mqc.MQCHT_CLUSRCVR})
_BROWSE = (mqc.MQGMO_BROWSE_FIRST | mqc.MQGMO_BROWSE_NEXT
           | mqc.MQGMO_BROWSE_MSG_UNDER_CURSOR)
_OP_NAMES = {mqc.MQXF_PUT: "MQPUT", mqc.MQXF_PUT1: "MQPUT1", mqc.MQXF_GET: "MQGET",
             mqc.MQXF_CALLBACK: "MQCALLBACK", mqc.MQXF_CONN: "MQCONN",
             mqc.MQXF_CONNX: "MQCONNX", mqc.MQXF_DISC: "MQDISC", mqc.MQXF_OPEN: "MQOPEN",
             mqc.MQXF_CLOSE: "MQCLOSE"}


@dataclass(slots=True)
class Connection:
    """The top-level data of a trace message: who was traced, where, and which interval."""

    qmgr: str = ""
    conn_id: bytes = b""            # the MQMD CorrelId (24 bytes), b"" when not known
    seq_number: int = 0
    appl_name: str = ""
    appl_type: int | None = None
    pid: int | None = None
    user_id: str = ""
    api_caller_type: int | None = None
    environment: int | None = None
    channel_name: str = ""
    connection_name: str = ""
    channel_type: int | None = None
    remote_product: str = ""
    remote_version: str = ""
    host_name: str = ""
    qsg_name: str = ""
    command_level: int | None = None
    function_name: str = ""
    function_type: int | None = None
    detail: int | None = None       # MQACTV_DETAIL_LOW/MEDIUM/HIGH = 1/2/3
    trace_data_length: int | None = None
    pointer_size: int | None = None
    platform: int | None = None
    start_date: str = ""
    start_time: str = ""
    end_date: str = ""
    end_time: str = ""
    unknown: list[Parameter] = field(default_factory=list)
    _key: tuple[str, str] | None = field(default=None, repr=False, compare=False)

    @property
    def is_mca(self) -> bool:
        """True for a message channel agent: what the record says the connection is,
        Environment MQXE_MCA and a message-channel ChannelType (either alone when the other
        is not recorded). A client application (MQXE_MCA_SVRCONN, MQCHT_SVRCONN) is an
        application, though it has a ChannelName."""
        return is_mca(self.environment, self.channel_type)

    @property
    def key(self) -> tuple[str, str]:
        """(queue manager, connection identity): ConnectionId hex, else appl/pid/channel."""
        key = self._key
        if key is None:
            if self.conn_id.strip(b"\x00"):
                key = self.qmgr, self.conn_id.hex().upper()
            else:
                key = self.qmgr, f"{self.appl_name}/{self.pid}/{self.channel_name}"
            self._key = key
        return key


@dataclass(slots=True)
class GMO:
    """The fields of an MQGMO structure dump that say how a get was made."""

    version: int
    options: int
    wait_interval: int
    resolved_q_name: str = ""


@dataclass(slots=True)
class PMO:
    """The fields of an MQPMO structure dump that say how a put was made."""

    version: int
    options: int
    timeout: int
    known_dest_count: int = 0
    unknown_dest_count: int = 0
    invalid_dest_count: int = 0
    resolved_q_name: str = ""
    resolved_q_mgr: str = ""


@dataclass(slots=True)
class DistListEntry:
    """One queue of a distribution-list open or put (an MQGACF_APP_DIST_LIST group)."""

    object_name: str = ""
    object_qmgr: str = ""
    comp_code: int | None = None
    reason: int | None = None
    msg_id: bytes | None = None
    correl_id: bytes | None = None
    group_id: bytes | None = None
    feedback: int | None = None
    accounting_token: bytes | None = None
    unknown: list[Parameter] = field(default_factory=list)


@dataclass(slots=True, eq=False)
class MQICall:
    """One traced MQI call (an MQGACF_ACTIVITY_TRACE group) with its connection."""

    conn: Connection
    index: int                       # position in its trace message
    operation: int = 0               # MQXF_*
    thread_id: int | None = None
    operation_date: str = ""
    operation_time: str = ""
    comp_code: int = 0
    reason: int = 0
    hobj: int | None = None
    object_type: int | None = None
    object_name: str = ""
    object_qmgr: str = ""
    resolved_q_name: str = ""
    resolved_q_mgr: str = ""
    resolved_local_q_name: str = ""
    resolved_local_q_mgr: str = ""
    resolved_type: int | None = None
    object_string: str = ""
    res_object_string: str = ""
    dynamic_q_name: str = ""
    msg_id: bytes | None = None
    correl_id: bytes | None = None
    format: str | None = None
    msg_type: int | None = None
    report: int | None = None
    expiry: int | None = None
    priority: int | None = None
    persistence: int | None = None
    reply_to_q: str = ""
    reply_to_q_mgr: str = ""
    ccsid: int | None = None
    encoding: int | None = None
    put_date: str = ""
    put_time: str = ""
    policy_name: str = ""
    high_res_time: int | None = None   # microseconds since 1970-01-01 00:00 UTC
    qmgr_op_duration: int | None = None
    msg_length: int | None = None
    buffer_length: int | None = None
    msg_data: bytes | None = None
    get_options: int | None = None
    put_options: int | None = None
    open_options: int | None = None
    close_options: int | None = None
    connect_options: int | None = None
    call_type: int | None = None
    connection_id: bytes | None = None  # on MQCONN/MQCONNX
    qmgr_name: str = ""                 # on MQCONN/MQCONNX: the name used on the call
    alternate_user_id: str = ""
    recs_present: int | None = None
    known_dest_count: int | None = None
    unknown_dest_count: int | None = None
    invalid_dest_count: int | None = None
    xmitq_msg_id: bytes | None = None
    xmitq_correl_id: bytes | None = None
    xmitq_put_date: str = ""
    xmitq_put_time: str = ""
    xmitq_remote_q_name: str = ""
    xmitq_remote_q_mgr: str = ""
    mqmd: MQMD | None = None            # MsgDescStructure (HIGH), decoded
    gmo: GMO | None = None              # GetMsgOptsStructure (HIGH), decoded
    pmo: PMO | None = None              # PutMsgOptsStructure (HIGH), decoded
    structures: dict[int, bytes] = field(default_factory=dict)  # every MQBACF_*_STRUCT, raw
    dist_list: list[DistListEntry] = field(default_factory=list)
    unknown: list[Parameter] = field(default_factory=list)

    @property
    def qmgr(self) -> str:
        """The queue manager the call was made on."""
        return self.conn.qmgr

    @property
    def op_name(self) -> str:
        """MQPUT, MQGET ... (the MQXF_* name without its prefix for other calls)."""
        name = _OP_NAMES.get(self.operation)
        if name is None:
            from pcf.names import name_of

            full = name_of(self.operation, "MQXF")
            name = "MQ" + full[5:] if full else f"MQXF_{self.operation}"
        return name

    @property
    def failed(self) -> bool:
        """True when the call failed (CompCode MQCC_FAILED)."""
        return self.comp_code == mqc.MQCC_FAILED

    @property
    def is_put(self) -> bool:
        """MQPUT or MQPUT1."""
        return self.operation in PUT_OPS

    @property
    def is_get(self) -> bool:
        """MQGET or MQCALLBACK (a delivered message)."""
        return self.operation in GET_OPS

    @property
    def is_browse(self) -> bool:
        """A get that leaves the message on the queue (browse options, or callback not removed)."""
        if self.operation == mqc.MQXF_CALLBACK:
            return self.call_type == mqc.MQCBCT_MSG_NOT_REMOVED
        options = self.get_options if self.get_options is not None else (
            self.gmo.options if self.gmo else 0)
        return bool(options & _BROWSE)

    @property
    def is_dead_letter(self) -> bool:
        """A put of a message with an MQDLH in front (Format MQDEAD)."""
        return (self.format or "").strip() == "MQDEAD"

    @property
    def is_xmit(self) -> bool:
        """The message carries an MQXQH (a get from or put to a transmission queue)."""
        return (self.format or "").strip() == "MQXMIT" or self.xmitq_msg_id is not None

    @property
    def time(self) -> datetime | None:
        """When the call ran: HighResTime, else OperationDate/Time (taken as UTC), or None."""
        if self.high_res_time:
            when = from_micros(self.high_res_time)
            if when is not None:
                return when
        return parse_date_time(self.operation_date, self.operation_time)

    @property
    def local_queue(self) -> str:
        """The local queue the message was put to / got from (the xmitq of a remote put)."""
        if self.resolved_local_q_name:
            return self.resolved_local_q_name
        if self.resolved_q_name and self.resolved_q_mgr and self.resolved_q_mgr != self.qmgr:
            return ""  # resolved to another queue manager; the xmitq is not recorded
        return self.resolved_q_name or self.object_name


@contextmanager
def paused_collector() -> Iterator[None]:
    """The cycle collector off for a while: millions of small acyclic objects (calls, rows)
    are made, and each pass of it would scan every live one (the input's columns too)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def is_mca(environment: int | None, channel_type: int | None) -> bool:
    """The rule of Connection.is_mca on the two values (for table rows)."""
    if channel_type is None:
        return environment == mqc.MQXE_MCA
    return channel_type in MESSAGE_CHANNEL_TYPES and environment in (mqc.MQXE_MCA, None)


def call_maker(*names: str) -> Callable[..., MQICall]:
    """A constructor of MQICall taking `conn`, `index` and `names` positionally, every other
    field its default; the same object as MQICall(conn, index, **named), about twice as fast
    (no keyword parsing): for the millions of calls made from table rows."""
    every = fields(MQICall)
    known = {f.name for f in every}
    taken = ("conn", "index", *names)
    unknown = [n for n in taken if n not in known]
    if unknown or len(set(taken)) != len(taken):
        raise ValueError(f"not MQICall fields, or repeated: {unknown or taken}")
    scope: dict[str, object] = {"_new": object.__new__, "_MQICall": MQICall}
    body = ["    o = _new(_MQICall)"]
    for f in every:
        if f.name in taken:
            body.append(f"    o.{f.name} = {f.name}")
        elif f.default_factory is not MISSING:
            scope[f"_F_{f.name}"] = f.default_factory
            body.append(f"    o.{f.name} = _F_{f.name}()")
        else:
            scope[f"_D_{f.name}"] = f.default
            body.append(f"    o.{f.name} = _D_{f.name}")
    source = f"def make({', '.join(taken)}):\n" + "\n".join(body) + "\n    return o\n"
    exec(compile(source, f"<call_maker {len(names)} fields>", "exec"), scope)
    return scope["make"]  # type: ignore[return-value]


#: The microseconds since 1970 of 0001-01-01 and of 9999-12-31T23:59:59.999999, the times
#: a datetime holds: a HighResTime outside them is a claim no clock made (no time at all).
MIN_MICROS, MAX_MICROS = -62_135_596_800_000_000, 253_402_300_799_999_999


def from_micros(micros: int) -> datetime | None:
    """A HighResTime (microseconds since 1970, UTC) as a datetime; None past what one holds."""
    if not MIN_MICROS <= micros <= MAX_MICROS:
        return None
    return _EPOCH + timedelta(microseconds=micros)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NAIVE_EPOCH = datetime(1970, 1, 1)


def iso_micros(micros: int) -> str | None:
    """`iso` of a HighResTime, in integer arithmetic (it is UTC already): equal to
    iso(from_micros(micros)) while a double holds the microseconds exactly (until the year
    2242); None past what a datetime holds (a claim, not a time)."""
    if not MIN_MICROS <= micros <= MAX_MICROS:
        return None
    seconds, fraction = divmod(micros, 1_000_000)
    text = _SECONDS.get(seconds)
    if text is None:  # calls come in bursts: most share their second with another
        if len(_SECONDS) >= 100_000:
            _SECONDS.clear()
        text = _SECONDS[seconds] = (_NAIVE_EPOCH + timedelta(0, seconds)).isoformat()
    return f"{text}.{fraction:06d}Z" if fraction else text + "Z"


_SECONDS: dict[int, str] = {}  # seconds since 1970 -> their ISO text (bounded)


def parse_date_time(date: str, time: str) -> datetime | None:
    """'2014-03-15' + '12:08:10' (or '12.08.10') as a UTC datetime, or None."""
    if not date or not time:
        return None
    try:
        return datetime.strptime(f"{date.strip()} {time.strip().replace('.', ':')[:8]}",
                                 "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def iso(t: datetime | None) -> str | None:
    """ISO 8601 UTC with a Z, microseconds only when there are any."""
    if t is None:
        return None
    text = t.astimezone(UTC).replace(tzinfo=None).isoformat()
    return text + "Z"


@dataclass(slots=True)
class ActivityTrace:
    """One activity-trace message: its connection, its calls in order, and where it was read."""

    conn: Connection
    calls: list[MQICall]
    source: str = ""
    line: int | None = None
