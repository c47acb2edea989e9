"""Status and configuration values <-> the parameters of the command server's responses.

The command server of a simulated queue manager writes its responses with the `*_parameters`
functions; the administration client reads any queue manager's responses with the
`*_from` functions. Parameter identifiers and shapes are those of IBM's PCF reference
(Inquire Queue Status, Inquire Channel Status, Reset Queue Statistics, Inquire Queue /
Channel / Queue Manager, Inquire Cluster Queue Manager). Dates and times travel as MQ
writes them, 'YYYY-MM-DD' and 'HH.MM.SS' in the queue manager's time zone (`tz`);
monitoring values that are not available are MQMON_NOT_AVAILABLE (-1), dates blank.
A value the typed status does not have (None: a queue manager that did not report it) is
left out of a response, and a response without it reads back as None. Channel byte and
buffer counts travel wrapped at 999,999,999, as IBM's Inquire Channel Status response says
MQ sends them; queue file sizes (CurrentQFileSize, CurrentMaxQFileSize) are megabytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, tzinfo

from pcf import mqc
from pcf.model import Integer, Integer64, IntegerList, Message, Parameter, String
from pcf.names import parameter_name
from traceroute.status.attributes import from_parameters, to_parameters, why_left_out
from traceroute.status.values import (
    ChannelStatus,
    ClusterQmgr,
    Definition,
    HandleStatus,
    Indicator,
    QmgrStatus,
    QueueStatus,
    ResetStats,
)
from traceroute.status.words import (
    CHANNEL_STATUS,
    CHANNEL_SUBSTATE,
    CHANNEL_TYPE,
    INSTANCE_TYPE,
    MONITORING,
    QUEUE_TYPE,
    reverse,
    word,
)

NOT_AVAILABLE = mqc.MQMON_NOT_AVAILABLE
#: The largest value MQ shows for MSGAGE, QTIME and the channel indicators.
DISPLAY_LIMIT = 999_999_999
#: Channel byte and buffer counts wrap past 999,999,999 (IBM's Inquire Channel Status
#: response: "if the value ... exceeds 999999999, it is wrapped").
WRAP = 1_000_000_000


class ResponseError(ValueError):
    """A response that does not say what the command's responses say (a parameter missing
    or of the wrong type): names the parameter."""


def _s(pid: int, value: str, width: int = 48) -> String:
    return String(pid, value, width=width)


def _date_time(moment: datetime | None, tz: tzinfo) -> tuple[str, str]:
    if moment is None:
        return "", ""
    local = moment.astimezone(tz)
    return local.strftime("%Y-%m-%d"), local.strftime("%H.%M.%S")


def _moment(date: str, time: str, tz: tzinfo) -> datetime | None:
    date, time = date.strip(), time.strip()
    if not date or not time:
        return None
    try:
        local = datetime.strptime(f"{date} {time.replace(':', '.')}", "%Y-%m-%d %H.%M.%S")
    except ValueError:
        return None
    return local.replace(tzinfo=tz).astimezone(UTC)


def _limited(value: int | None) -> int:
    return NOT_AVAILABLE if value is None else min(max(value, 0), DISPLAY_LIMIT)


def _indicator(value: Indicator | None) -> list[int]:
    if value is None:
        return [NOT_AVAILABLE, NOT_AVAILABLE]
    return [_limited(value[0]), _limited(value[1])]


class _Reader:
    """Typed reads of one response's top-level parameters, by identifier."""

    def __init__(self, message: Message) -> None:
        self.by_id: dict[int, Parameter] = {}
        for p in message.parameters:
            self.by_id.setdefault(p.parameter, p)

    def text(self, pid: int, default: str | None = None) -> str:
        p = self.by_id.get(pid)
        if not isinstance(p, String):
            if default is not None and p is None:
                return default
            raise ResponseError(_missing(pid, "a string (MQCFST)", p))
        value = p.value
        if isinstance(value, bytes):
            value = value.decode("latin-1")
        return value.rstrip(" \x00")

    def number(self, pid: int, default: int | None = None) -> int:
        p = self.by_id.get(pid)
        if not isinstance(p, Integer):
            if default is not None and p is None:
                return default
            raise ResponseError(_missing(pid, "an integer (MQCFIN)", p))
        return p.value

    def optional(self, pid: int) -> int | None:
        p = self.by_id.get(pid)
        if p is None:
            return None
        value = self.number(pid)
        return None if value == NOT_AVAILABLE else value

    def count(self, pid: int) -> int | None:
        """A counter (MQCFIN, or MQCFIN64 from a queue manager that sends one); None when
        absent or not available."""
        p = self.by_id.get(pid)
        if p is None:
            return None
        if not isinstance(p, (Integer, Integer64)):
            raise ResponseError(_missing(pid, "an integer (MQCFIN)", p))
        return None if p.value == NOT_AVAILABLE else p.value

    def indicator(self, pid: int) -> Indicator | None:
        p = self.by_id.get(pid)
        if p is None:
            return None
        if not isinstance(p, IntegerList) or len(p.value) != 2:
            raise ResponseError(_missing(pid, "a list of two integers (MQCFIL)", p))
        short, long = p.value
        if short == NOT_AVAILABLE or long == NOT_AVAILABLE:
            return None
        return short, long

    def moment(self, date: int, time: int, tz: tzinfo) -> datetime | None:
        return _moment(self.text(date, ""), self.text(time, ""), tz)


def _missing(pid: int, what: str, found: Parameter | None) -> str:
    from pcf.names import parameter_name

    name = parameter_name(pid) or str(pid)
    if found is None:
        return f"the response has no {name}"
    return f"the response's {name} is {found.STRUCTURE}, not {what}"


# --- queue status --------------------------------------------------------------------

def queue_status_parameters(s: QueueStatus, tz: tzinfo = UTC) -> list[Parameter]:
    """An Inquire Queue Status (StatusType MQIACF_Q_STATUS) response's parameters."""
    put_date, put_time = _date_time(s.last_put, tz)
    get_date, get_time = _date_time(s.last_get, tz)
    return [
        _s(mqc.MQCA_Q_NAME, s.name), Integer(mqc.MQIACF_Q_STATUS_TYPE, mqc.MQIACF_Q_STATUS),
        Integer(mqc.MQIA_CURRENT_Q_DEPTH, s.curdepth),
        Integer(mqc.MQIA_OPEN_INPUT_COUNT, s.ipprocs),
        Integer(mqc.MQIA_OPEN_OUTPUT_COUNT, s.opprocs),
        Integer(mqc.MQIACF_UNCOMMITTED_MSGS, s.uncom),
        Integer(mqc.MQIA_MONITORING_Q, reverse(MONITORING).get(s.monq, mqc.MQMON_OFF)),
        Integer(mqc.MQIACF_OLDEST_MSG_AGE, _limited(s.msgage)),
        IntegerList(mqc.MQIACF_Q_TIME_INDICATOR, _indicator(s.qtime)),
        _s(mqc.MQCACF_LAST_PUT_DATE, put_date, 12), _s(mqc.MQCACF_LAST_PUT_TIME, put_time, 8),
        _s(mqc.MQCACF_LAST_GET_DATE, get_date, 12), _s(mqc.MQCACF_LAST_GET_TIME, get_time, 8),
        *_counts(((mqc.MQIACF_CUR_Q_FILE_SIZE, s.curfsize),
                  (mqc.MQIACF_CUR_MAX_FILE_SIZE, s.curmaxfs))),
    ]


def _counts(values: Iterable[tuple[int, int | None]], wrap: int | None = None
            ) -> list[Parameter]:
    """MQCFIN of each value that is known (wrapped at `wrap` when given)."""
    return [Integer(pid, value % wrap if wrap else value)
            for pid, value in values if value is not None]


def queue_status_from(message: Message, qmgr: str, tz: tzinfo = UTC) -> QueueStatus:
    """A QueueStatus from an Inquire Queue Status response (ResponseError if it is not one)."""
    r = _Reader(message)
    return QueueStatus(
        qmgr, r.text(mqc.MQCA_Q_NAME), r.number(mqc.MQIA_CURRENT_Q_DEPTH, 0),
        r.number(mqc.MQIA_OPEN_INPUT_COUNT, 0), r.number(mqc.MQIA_OPEN_OUTPUT_COUNT, 0),
        r.number(mqc.MQIACF_UNCOMMITTED_MSGS, 0),
        word(MONITORING, r.number(mqc.MQIA_MONITORING_Q, mqc.MQMON_OFF)),
        r.optional(mqc.MQIACF_OLDEST_MSG_AGE), r.indicator(mqc.MQIACF_Q_TIME_INDICATOR),
        r.moment(mqc.MQCACF_LAST_PUT_DATE, mqc.MQCACF_LAST_PUT_TIME, tz),
        r.moment(mqc.MQCACF_LAST_GET_DATE, mqc.MQCACF_LAST_GET_TIME, tz),
        r.count(mqc.MQIACF_CUR_Q_FILE_SIZE), r.count(mqc.MQIACF_CUR_MAX_FILE_SIZE))


_INPUT = {"NO": mqc.MQQSO_NO, "SHARED": mqc.MQQSO_SHARED, "EXCL": mqc.MQQSO_EXCLUSIVE}


def handle_status_parameters(h: HandleStatus) -> list[Parameter]:
    """An Inquire Queue Status (StatusType MQIACF_Q_HANDLE) response's parameters."""
    yes = {True: mqc.MQQSO_YES, False: mqc.MQQSO_NO}
    return [
        _s(mqc.MQCA_Q_NAME, h.queue), Integer(mqc.MQIACF_Q_STATUS_TYPE, mqc.MQIACF_Q_HANDLE),
        _s(mqc.MQCACF_APPL_TAG, h.appl_tag, 28), Integer(mqc.MQIA_APPL_TYPE, h.appl_type),
        Integer(mqc.MQIACF_PROCESS_ID, h.pid), _s(mqc.MQCACH_CHANNEL_NAME, h.channel, 20),
        _s(mqc.MQCACH_CONNECTION_NAME, h.conname, 264),
        _s(mqc.MQCACF_USER_IDENTIFIER, h.user, 12),
        Integer(mqc.MQIACF_OPEN_INPUT_TYPE, _INPUT.get(h.input, mqc.MQQSO_NO)),
        Integer(mqc.MQIACF_OPEN_OUTPUT, yes[h.output]),
        Integer(mqc.MQIACF_OPEN_BROWSE, yes[h.browse]),
        Integer(mqc.MQIACF_OPEN_INQUIRE, yes[h.inquire]),
        Integer(mqc.MQIACF_OPEN_SET, yes[h.set]),
        Integer(mqc.MQIACF_HANDLE_STATE,
                mqc.MQHSTATE_ACTIVE if h.active else mqc.MQHSTATE_INACTIVE),
    ]


def handle_status_from(message: Message, qmgr: str) -> HandleStatus:
    """A HandleStatus from an Inquire Queue Status (handle) response."""
    r = _Reader(message)
    inputs = {v: k for k, v in _INPUT.items()}
    return HandleStatus(
        qmgr, r.text(mqc.MQCA_Q_NAME), r.text(mqc.MQCACF_APPL_TAG, ""),
        r.number(mqc.MQIA_APPL_TYPE, 0), r.number(mqc.MQIACF_PROCESS_ID, 0),
        r.text(mqc.MQCACH_CHANNEL_NAME, ""), r.text(mqc.MQCACH_CONNECTION_NAME, ""),
        r.text(mqc.MQCACF_USER_IDENTIFIER, ""),
        inputs.get(r.number(mqc.MQIACF_OPEN_INPUT_TYPE, mqc.MQQSO_NO), "NO"),
        r.number(mqc.MQIACF_OPEN_OUTPUT, 0) == mqc.MQQSO_YES,
        r.number(mqc.MQIACF_OPEN_BROWSE, 0) == mqc.MQQSO_YES,
        r.number(mqc.MQIACF_OPEN_INQUIRE, 0) == mqc.MQQSO_YES,
        r.number(mqc.MQIACF_OPEN_SET, 0) == mqc.MQQSO_YES,
        r.number(mqc.MQIACF_HANDLE_STATE, mqc.MQHSTATE_ACTIVE) == mqc.MQHSTATE_ACTIVE)


def is_handle_response(message: Message) -> bool:
    """True for an Inquire Queue Status response about a handle."""
    return message.get(mqc.MQIACF_Q_STATUS_TYPE) == mqc.MQIACF_Q_HANDLE


# --- channel status ------------------------------------------------------------------

def channel_status_parameters(c: ChannelStatus, tz: tzinfo = UTC) -> list[Parameter]:
    """An Inquire Channel Status response's parameters (fewer for a SAVED instance)."""
    out: list[Parameter] = [
        _s(mqc.MQCACH_CHANNEL_NAME, c.name, 20),
        Integer(mqc.MQIACH_CHANNEL_TYPE, reverse(CHANNEL_TYPE)[c.chltype]),
        Integer(mqc.MQIACH_CHANNEL_INSTANCE_TYPE, reverse(INSTANCE_TYPE)[c.instance]),
        _s(mqc.MQCACH_CONNECTION_NAME, c.conname, 264), _s(mqc.MQCACH_XMIT_Q_NAME, c.xmitq),
        Integer(mqc.MQIACH_CHANNEL_STATUS, reverse(CHANNEL_STATUS)[c.status]),
        Integer(mqc.MQIACH_CURRENT_SEQ_NUMBER, c.curseqno or 0),
        Integer(mqc.MQIACH_LAST_SEQ_NUMBER, c.lstseqno or 0),
        Integer(mqc.MQIACH_INDOUBT_STATUS,
                mqc.MQCHIDS_INDOUBT if c.indoubt else mqc.MQCHIDS_NOT_INDOUBT),
    ]
    if c.instance == "SAVED":
        return out
    start_date, start_time = _date_time(c.started, tz)
    msg_date, msg_time = _date_time(c.last_msg, tz)
    out += [
        Integer(mqc.MQIACH_CHANNEL_SUBSTATE,
                reverse(CHANNEL_SUBSTATE).get(c.substate or "", mqc.MQCHSSTATE_OTHER)),
        _s(mqc.MQCA_REMOTE_Q_MGR_NAME, c.rqmname),
        Integer(mqc.MQIACH_MSGS, c.msgs or 0), Integer(mqc.MQIACH_BATCHES, c.batches or 0),
        Integer(mqc.MQIACH_CURRENT_MSGS, c.curmsgs or 0),
        Integer(mqc.MQIACH_STOP_REQUESTED,
                mqc.MQCHSR_STOP_REQUESTED if c.stopreq else mqc.MQCHSR_STOP_NOT_REQUESTED),
        Integer(mqc.MQIA_MONITORING_CHANNEL, reverse(MONITORING).get(c.monchl, 0)),
        IntegerList(mqc.MQIACH_XMITQ_TIME_INDICATOR, _indicator(c.xqtime)),
        IntegerList(mqc.MQIACH_NETWORK_TIME_INDICATOR, _indicator(c.nettime)),
        IntegerList(mqc.MQIACH_EXIT_TIME_INDICATOR, _indicator(c.exittime)),
        IntegerList(mqc.MQIACH_BATCH_SIZE_INDICATOR, _indicator(c.xbatchsz)),
        IntegerList(mqc.MQIACH_COMPRESSION_TIME, _indicator(c.comptime)),
        _s(mqc.MQCACH_LAST_MSG_DATE, msg_date, 12), _s(mqc.MQCACH_LAST_MSG_TIME, msg_time, 8),
        _s(mqc.MQCACH_CHANNEL_START_DATE, start_date, 12),
        _s(mqc.MQCACH_CHANNEL_START_TIME, start_time, 8),
        *_counts(((mqc.MQIACH_BYTES_SENT, c.bytssent), (mqc.MQIACH_BYTES_RECEIVED, c.bytsrcvd),
                  (mqc.MQIACH_BUFFERS_SENT, c.bufssent),
                  (mqc.MQIACH_BUFFERS_RECEIVED, c.bufsrcvd)), WRAP),
    ]
    return out


def channel_status_from(message: Message, qmgr: str, tz: tzinfo = UTC) -> ChannelStatus:
    """A ChannelStatus from an Inquire Channel Status response."""
    r = _Reader(message)
    instance = word(INSTANCE_TYPE, r.number(mqc.MQIACH_CHANNEL_INSTANCE_TYPE,
                                            mqc.MQOT_CURRENT_CHANNEL))
    substate = r.by_id.get(mqc.MQIACH_CHANNEL_SUBSTATE)
    return ChannelStatus(
        qmgr, r.text(mqc.MQCACH_CHANNEL_NAME),
        word(CHANNEL_TYPE, r.number(mqc.MQIACH_CHANNEL_TYPE)),
        word(CHANNEL_STATUS, r.number(mqc.MQIACH_CHANNEL_STATUS, mqc.MQCHS_INACTIVE)),
        instance,
        None if substate is None else (word(CHANNEL_SUBSTATE,
                                            r.number(mqc.MQIACH_CHANNEL_SUBSTATE)) or None),
        r.text(mqc.MQCACH_CONNECTION_NAME, ""), r.text(mqc.MQCACH_XMIT_Q_NAME, ""),
        r.text(mqc.MQCA_REMOTE_Q_MGR_NAME, ""),
        r.optional(mqc.MQIACH_MSGS), r.optional(mqc.MQIACH_BATCHES),
        r.optional(mqc.MQIACH_CURRENT_MSGS), r.optional(mqc.MQIACH_CURRENT_SEQ_NUMBER),
        r.optional(mqc.MQIACH_LAST_SEQ_NUMBER),
        r.number(mqc.MQIACH_INDOUBT_STATUS, 0) == mqc.MQCHIDS_INDOUBT,
        r.number(mqc.MQIACH_STOP_REQUESTED, 0) == mqc.MQCHSR_STOP_REQUESTED,
        word(MONITORING, r.number(mqc.MQIA_MONITORING_CHANNEL, mqc.MQMON_OFF)),
        r.indicator(mqc.MQIACH_XMITQ_TIME_INDICATOR),
        r.indicator(mqc.MQIACH_NETWORK_TIME_INDICATOR),
        r.moment(mqc.MQCACH_LAST_MSG_DATE, mqc.MQCACH_LAST_MSG_TIME, tz),
        r.moment(mqc.MQCACH_CHANNEL_START_DATE, mqc.MQCACH_CHANNEL_START_TIME, tz),
        r.indicator(mqc.MQIACH_EXIT_TIME_INDICATOR), r.indicator(mqc.MQIACH_BATCH_SIZE_INDICATOR),
        r.indicator(mqc.MQIACH_COMPRESSION_TIME),
        r.count(mqc.MQIACH_BYTES_SENT), r.count(mqc.MQIACH_BYTES_RECEIVED),
        r.count(mqc.MQIACH_BUFFERS_SENT), r.count(mqc.MQIACH_BUFFERS_RECEIVED))


# --- reset statistics, cluster queue managers -------------------------------------------

def reset_stats_parameters(s: ResetStats) -> list[Parameter]:
    """A Reset Queue Statistics response's parameters."""
    return [_s(mqc.MQCA_Q_NAME, s.name), Integer(mqc.MQIA_TIME_SINCE_RESET, s.time_since_reset),
            Integer(mqc.MQIA_HIGH_Q_DEPTH, s.high_depth),
            Integer(mqc.MQIA_MSG_ENQ_COUNT, s.enqueued),
            Integer(mqc.MQIA_MSG_DEQ_COUNT, s.dequeued)]


def reset_stats_from(message: Message, qmgr: str) -> ResetStats:
    """A ResetStats from a Reset Queue Statistics response."""
    r = _Reader(message)
    return ResetStats(qmgr, r.text(mqc.MQCA_Q_NAME), r.number(mqc.MQIA_TIME_SINCE_RESET),
                      r.number(mqc.MQIA_HIGH_Q_DEPTH), r.number(mqc.MQIA_MSG_ENQ_COUNT),
                      r.number(mqc.MQIA_MSG_DEQ_COUNT))


def qmgr_status_parameters(s: QmgrStatus, tz: tzinfo = UTC) -> list[Parameter]:
    """An Inquire Queue Manager Status response's parameters (Multiplatforms; QMgrName and
    QMgrStatus always, then the status attributes, as IBM's reference lists them)."""
    date, time = _date_time(s.start, tz)
    out: list[Parameter] = [_s(mqc.MQCA_Q_MGR_NAME, s.queue_manager),
                            Integer(mqc.MQIACF_Q_MGR_STATUS, s.status)]
    for pid, value in ((mqc.MQIACF_CHINIT_STATUS, s.channel_initiator),
                       (mqc.MQIACF_CMD_SERVER_STATUS, s.command_server),
                       (mqc.MQIACF_CONNECTION_COUNT, s.connections)):
        if value is not None:
            out.append(Integer(pid, value))
    out += [_s(mqc.MQCA_INSTALLATION_DESC, s.installation_desc, 64),
            _s(mqc.MQCA_INSTALLATION_NAME, s.installation_name, 16),
            _s(mqc.MQCA_INSTALLATION_PATH, s.installation_path, 256),
            _s(mqc.MQCACF_HOST_NAME, s.host_name, 256)]
    if s.start is not None:
        out += [_s(mqc.MQCACF_Q_MGR_START_DATE, date, 12),
                _s(mqc.MQCACF_Q_MGR_START_TIME, time, 8)]
    return out


def qmgr_status_from(message: Message, qmgr: str, tz: tzinfo = UTC) -> QmgrStatus:
    """A QmgrStatus from an Inquire Queue Manager Status response (StartDate/StartTime in
    the queue manager's zone `tz`)."""
    r = _Reader(message)
    return QmgrStatus(r.text(mqc.MQCA_Q_MGR_NAME, qmgr) or qmgr,
                      r.number(mqc.MQIACF_Q_MGR_STATUS),
                      start=r.moment(mqc.MQCACF_Q_MGR_START_DATE,
                                     mqc.MQCACF_Q_MGR_START_TIME, tz),
                      connections=r.optional(mqc.MQIACF_CONNECTION_COUNT),
                      command_server=r.optional(mqc.MQIACF_CMD_SERVER_STATUS),
                      channel_initiator=r.optional(mqc.MQIACF_CHINIT_STATUS),
                      installation_name=r.text(mqc.MQCA_INSTALLATION_NAME, ""),
                      installation_path=r.text(mqc.MQCA_INSTALLATION_PATH, ""),
                      installation_desc=r.text(mqc.MQCA_INSTALLATION_DESC, ""),
                      host_name=r.text(mqc.MQCACF_HOST_NAME, ""))


_QMTYPE = {"NORMAL": mqc.MQQMT_NORMAL, "REPOS": mqc.MQQMT_REPOSITORY}
_DEFTYPE = {"CLUSSDR": mqc.MQQMDT_EXPLICIT_CLUSTER_SENDER,
            "CLUSSDRA": mqc.MQQMDT_AUTO_CLUSTER_SENDER,
            "CLUSSDRB": mqc.MQQMDT_AUTO_EXP_CLUSTER_SENDER,
            "CLUSRCVR": mqc.MQQMDT_CLUSTER_RECEIVER}


def cluster_qmgr_parameters(c: ClusterQmgr) -> list[Parameter]:
    """An Inquire Cluster Queue Manager response's parameters."""
    return [_s(mqc.MQCA_CLUSTER_Q_MGR_NAME, c.name), _s(mqc.MQCA_CLUSTER_NAME, c.cluster),
            _s(mqc.MQCACH_CHANNEL_NAME, c.channel, 20),
            _s(mqc.MQCACH_CONNECTION_NAME, c.conname, 264),
            Integer(mqc.MQIACF_Q_MGR_TYPE, _QMTYPE[c.qmtype]),
            Integer(mqc.MQIACF_Q_MGR_DEFINITION_TYPE, _DEFTYPE[c.deftype]),
            Integer(mqc.MQIACH_CHANNEL_STATUS, reverse(CHANNEL_STATUS)[c.status]),
            Integer(mqc.MQIACF_SUSPEND, mqc.MQSUS_YES if c.suspended else mqc.MQSUS_NO)]


def cluster_qmgr_from(message: Message, qmgr: str) -> ClusterQmgr:
    """A ClusterQmgr from an Inquire Cluster Queue Manager response."""
    r = _Reader(message)
    qmtypes = {v: k for k, v in _QMTYPE.items()}
    deftypes = {v: k for k, v in _DEFTYPE.items()}
    return ClusterQmgr(
        qmgr, r.text(mqc.MQCA_CLUSTER_Q_MGR_NAME), r.text(mqc.MQCA_CLUSTER_NAME, ""),
        r.text(mqc.MQCACH_CHANNEL_NAME, ""), r.text(mqc.MQCACH_CONNECTION_NAME, ""),
        qmtypes.get(r.number(mqc.MQIACF_Q_MGR_TYPE, 0), "NORMAL"),
        deftypes.get(r.number(mqc.MQIACF_Q_MGR_DEFINITION_TYPE, 2), "CLUSSDRA"),
        word(CHANNEL_STATUS, r.number(mqc.MQIACH_CHANNEL_STATUS, mqc.MQCHS_INACTIVE)),
        r.number(mqc.MQIACF_SUSPEND, 0) == mqc.MQSUS_YES)


# --- definitions -----------------------------------------------------------------------

_NAME_OF = {"QMGR": mqc.MQCA_Q_MGR_NAME, "CHANNEL": mqc.MQCACH_CHANNEL_NAME,
            "TOPIC": mqc.MQCA_TOPIC_NAME, "SUB": mqc.MQCACF_SUB_NAME,
            "TPSTATUS": mqc.MQCA_TOPIC_STRING, "TPSTATUS_SUB": mqc.MQCA_TOPIC_STRING}


#: (qmgr, kind, name, keyword) -> the line that says what was left out of an answer and why.
LeftOut = dict[tuple[str, str, str, str], str]


def definition_parameters(d: Definition, left_out: LeftOut | None = None
                          ) -> tuple[list[Parameter], list[str]]:
    """An Inquire Queue / Channel / Queue Manager response's parameters for a definition,
    and the keywords PCF has no parameter for here (left out; each with a value also noted
    in `left_out` when given, one line per object and attribute, for the user to be told:
    'QM1 QLOCAL(A): DEFPSIST(MAYBE) left out: DEFPSIST takes NO, YES')."""
    attrs, left = to_parameters(d.kind, d.attrs)
    if left_out is not None:
        for keyword in left:
            key = (d.queue_manager, d.kind, d.name, keyword)
            if d.attrs[keyword] != "" and key not in left_out:  # blank: nothing is lost
                left_out[key] = (f"{d.queue_manager} {d.kind}({d.name}): "
                                 f"{why_left_out(d.kind, keyword, d.attrs[keyword])}")
    if d.kind == "QMGR":
        return [_s(mqc.MQCA_Q_MGR_NAME, d.name), *attrs], left
    if d.kind == "CHANNEL":
        return [_s(mqc.MQCACH_CHANNEL_NAME, d.name, 20), *attrs], left
    if d.kind == "TOPIC":
        return [_s(mqc.MQCA_TOPIC_NAME, d.name), *attrs], left
    if d.kind == "SUB":
        return [String(mqc.MQCACF_SUB_NAME, d.name, width=None), *attrs], left
    if d.kind in ("TPSTATUS", "TPSTATUS_SUB"):
        return [String(mqc.MQCA_TOPIC_STRING, d.name, width=None), *attrs], left
    qtype = reverse(QUEUE_TYPE)[d.kind]
    return [_s(mqc.MQCA_Q_NAME, d.name), Integer(mqc.MQIA_Q_TYPE, qtype), *attrs], left


def definition_from(message: Message, qmgr: str, kind: str) -> Definition:
    """A Definition from an Inquire Queue ('QUEUE'), Channel ('CHANNEL'), Queue Manager
    ('QMGR'), Topic ('TOPIC') or Subscription ('SUB') response; a queue's kind comes from
    its QType."""
    r = _Reader(message)
    if kind == "QUEUE":
        name = r.text(mqc.MQCA_Q_NAME)
        kind = word(QUEUE_TYPE, r.number(mqc.MQIA_Q_TYPE))
    else:
        name = r.text(_NAME_OF[kind])
    skip = {mqc.MQCA_Q_NAME, mqc.MQIA_Q_TYPE, _NAME_OF.get(kind, 0)}
    params: Iterable[Parameter] = (p for p in message.parameters if p.parameter not in skip)
    unread: list[Parameter] = []
    attrs = from_parameters(kind, params, unread=unread)
    return Definition(qmgr, kind, name, attrs, tuple(_unread(p) for p in unread))


def _unread(p: Parameter) -> str:
    """'MQIA_XYZ (9999) = 5': a parameter read but not kept, as a user is told of it."""
    name = parameter_name(p.parameter)
    value = p.value.decode("latin-1") if isinstance(p.value, bytes) else p.value
    shown = repr(value.rstrip(" \x00")) if isinstance(value, str) else str(value)
    what = f"{name} ({p.parameter})" if name else f"parameter {p.parameter}"
    return f"{what} = {shown if len(shown) <= 40 else shown[:40] + '...'}"
