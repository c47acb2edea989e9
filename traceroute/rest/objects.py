"""One object of a DISPLAY answer as runCommandJSON gives it, and back to a typed value.

A `commandResponse` item's `parameters` are the object's MQSC keywords in lower case with
the values runmqsc shows inside KEYWORD(...): whole numbers as JSON numbers, lists as JSON
arrays, everything else as text ('' for a blank value; dates 'YYYY-MM-DD' and times
'HH.MM.SS' in the queue manager's time zone; a pair of indicators 'short,long'). A keyword
runmqsc shows alone (CURRENT, SAVED of DISPLAY CHSTATUS) is there with the value ''.

Each `*_json` function gives those parameters for a `traceroute.status` value, and the
matching `*_of` reads them back (RestBodyError naming the keyword when a value is not one
MQ gives), so that a server built on the PCF command server and a client that turns the
answers back into PCF responses agree with the PCF path value for value.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, tzinfo

from pcf import mqc
from pcf.model import Integer, Message, Parameter, String
from traceroute.status.attributes import INT, LIST, WORDS, table_for
from traceroute.status.values import (
    ChannelStatus,
    ClusterQmgr,
    Definition,
    HandleStatus,
    QmgrStatus,
    QueueStatus,
    ResetStats,
)

__all__ = ["RestBodyError", "channel_status_json", "channel_status_of", "cluster_qmgr_json",
           "cluster_qmgr_of", "definition_json", "definition_of", "handle_json",
           "handle_of", "listener_status_json", "listener_status_parameters",
           "qmgr_status_json", "qmgr_status_of", "queue_status_json",
           "queue_status_of", "reset_stats_json",
           "reset_stats_of"]


class RestBodyError(ValueError):
    """A REST API body that is not what the API gives or takes: says where and why."""


# --- values both ways ----------------------------------------------------------------------

def _date_time(moment: datetime | None, tz: tzinfo) -> tuple[str, str]:
    if moment is None:
        return "", ""
    local = moment.astimezone(tz)
    return local.strftime("%Y-%m-%d"), local.strftime("%H.%M.%S")


def _moment(date: object, time: object, tz: tzinfo, where: str) -> datetime | None:
    date, time = _text(date, where).strip(), _text(time, where).strip()
    if not date or not time:
        return None
    try:
        local = datetime.strptime(f"{date} {time.replace(':', '.')}", "%Y-%m-%d %H.%M.%S")
    except ValueError:
        raise RestBodyError(f"{where}: {date} {time} is not a date and time") from None
    return local.replace(tzinfo=tz).astimezone(UTC)


def _pair(value: tuple[int, int] | None) -> str:
    return "" if value is None else f"{value[0]},{value[1]}"


def _pair_of(value: object, where: str) -> tuple[int, int] | None:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return value[0], value[1]
    text = _text(value, where).replace(" ", "")
    if text in ("", ","):
        return None
    short, _, long = text.partition(",")
    try:
        return int(short), int(long)
    except ValueError:
        raise RestBodyError(f"{where}: {value!r} is not a pair of numbers") from None


def _text(value: object, where: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise RestBodyError(f"{where}: {value!r} is not text")
    return str(value)


def _number(value: object, where: str, *, blank: int | None = None) -> int | None:
    if isinstance(value, bool):
        raise RestBodyError(f"{where}: {value!r} is not a number")
    if isinstance(value, int):
        return value
    text = _text(value, where).strip()
    if not text:
        return blank
    try:
        return int(text)
    except ValueError:
        raise RestBodyError(f"{where}: {value!r} is not a number") from None


def _optional(value: int | None) -> int | str:
    return "" if value is None else value


def _yes(value: bool) -> str:
    return "YES" if value else "NO"


def _is_yes(value: object, where: str) -> bool:
    text = _text(value, where).strip().upper()
    if text not in ("YES", "NO", ""):
        raise RestBodyError(f"{where}: {value!r} is not YES or NO")
    return text == "YES"


class _Object:
    """One `parameters` object: its values by keyword, read with the place named."""

    def __init__(self, data: object, what: str) -> None:
        if not isinstance(data, Mapping):
            raise RestBodyError(f"{what}: parameters is not a JSON object")
        self.data = {str(k).lower(): v for k, v in data.items()}
        self.what = what

    def where(self, key: str) -> str:
        return f"{self.what}: {key}"

    def get(self, key: str, default: object = "") -> object:
        return self.data.get(key, default)

    def text(self, key: str, required: bool = False) -> str:
        if required and key not in self.data:
            raise RestBodyError(f"{self.what}: no {key}")
        return _text(self.data.get(key), self.where(key)).rstrip()

    def number(self, key: str, default: int | None = 0) -> int | None:
        return _number(self.data.get(key), self.where(key), blank=default)

    def pair(self, key: str) -> tuple[int, int] | None:
        return _pair_of(self.data.get(key), self.where(key))

    def moment(self, date: str, time: str, tz: tzinfo) -> datetime | None:
        return _moment(self.data.get(date), self.data.get(time), tz, self.where(date))

    def yes(self, key: str) -> bool:
        return _is_yes(self.data.get(key), self.where(key))


# --- DISPLAY QSTATUS -------------------------------------------------------------------------

def queue_status_json(s: QueueStatus, tz: tzinfo = UTC) -> dict:
    """DISPLAY QSTATUS TYPE(QUEUE) ALL of one queue."""
    put_date, put_time = _date_time(s.last_put, tz)
    get_date, get_time = _date_time(s.last_get, tz)
    return {"queue": s.name, "type": "QUEUE", "curdepth": s.curdepth, "ipprocs": s.ipprocs,
            "opprocs": s.opprocs, "uncom": s.uncom if s.uncom else "NO", "monq": s.monq,
            "qtime": _pair(s.qtime), "msgage": _optional(s.msgage), "lputdate": put_date,
            "lputtime": put_time, "lgetdate": get_date, "lgettime": get_time, "medialog": "",
            **_known(curfsize=s.curfsize, curmaxfs=s.curmaxfs)}


def _known(**values: int | None) -> dict:
    """The values a queue manager reported (an older one, or z/OS, leaves them out)."""
    return {k: v for k, v in values.items() if v is not None}


def queue_status_of(data: object, qmgr: str, tz: tzinfo = UTC,
                    what: str = "qstatus") -> QueueStatus:
    """A QueueStatus from DISPLAY QSTATUS TYPE(QUEUE)'s parameters."""
    o = _Object(data, what)
    uncom = o.text("uncom").upper()
    return QueueStatus(
        qmgr, o.text("queue", required=True), o.number("curdepth") or 0,
        o.number("ipprocs") or 0, o.number("opprocs") or 0,
        0 if uncom in ("", "NO") else 1 if uncom == "YES" else o.number("uncom") or 0,
        o.text("monq") or "OFF", o.number("msgage", None), o.pair("qtime"),
        o.moment("lputdate", "lputtime", tz), o.moment("lgetdate", "lgettime", tz),
        o.number("curfsize", None), o.number("curmaxfs", None))


_APPLTYPE = {7: "SYSTEM"}
_APPLTYPE_OF = {"SYSTEM": 7, "USER": 6}


def handle_json(h: HandleStatus) -> dict:
    """DISPLAY QSTATUS TYPE(HANDLE) ALL of one handle."""
    return {"queue": h.queue, "type": "HANDLE", "appltag": h.appl_tag,
            "appltype": _APPLTYPE.get(h.appl_type, "USER"), "channel": h.channel,
            "conname": h.conname, "pid": h.pid, "userid": h.user, "input": h.input,
            "output": _yes(h.output), "browse": _yes(h.browse), "inquire": _yes(h.inquire),
            "set": _yes(h.set), "hstate": "ACTIVE" if h.active else "INACTIVE"}


def handle_of(data: object, qmgr: str, what: str = "qstatus") -> HandleStatus:
    """A HandleStatus from DISPLAY QSTATUS TYPE(HANDLE)'s parameters."""
    o = _Object(data, what)
    return HandleStatus(
        qmgr, o.text("queue", required=True), o.text("appltag"),
        _APPLTYPE_OF.get(o.text("appltype").upper(), 6), o.number("pid") or 0,
        o.text("channel"), o.text("conname"), o.text("userid"),
        o.text("input").upper() or "NO", o.yes("output"), o.yes("browse"), o.yes("inquire"),
        o.yes("set"), o.text("hstate").upper() != "INACTIVE")


# --- DISPLAY CHSTATUS ------------------------------------------------------------------------

_SAVED_KEYS = ("channel", "chltype", "conname", "status", "xmitq", "curseqno", "lstseqno",
               "indoubt")


def channel_status_json(c: ChannelStatus, tz: tzinfo = UTC) -> dict:
    """DISPLAY CHSTATUS ALL of one instance (SAVED: what a saved status has)."""
    start_date, start_time = _date_time(c.started, tz)
    msg_date, msg_time = _date_time(c.last_msg, tz)
    out = {"channel": c.name, "chltype": c.chltype, c.instance.lower(): "",
           "conname": c.conname, "rqmname": c.rqmname, "status": c.status,
           "substate": c.substate or "", "xmitq": c.xmitq, "batches": _optional(c.batches),
           "chstada": start_date, "chstati": start_time, "curmsgs": _optional(c.curmsgs),
           "curseqno": _optional(c.curseqno), "indoubt": _yes(c.indoubt),
           "lstmsgda": msg_date, "lstmsgti": msg_time, "lstseqno": _optional(c.lstseqno),
           "msgs": _optional(c.msgs), "stopreq": _yes(c.stopreq), "monchl": c.monchl,
           "xqtime": _pair(c.xqtime), "nettime": _pair(c.nettime),
           "exittime": _pair(c.exittime), "xbatchsz": _pair(c.xbatchsz),
           "comptime": _pair(c.comptime),
           **_known(bufsrcvd=c.bufsrcvd, bufssent=c.bufssent, bytsrcvd=c.bytsrcvd,
                    bytssent=c.bytssent)}
    if c.instance == "SAVED":
        out = {k: v for k, v in out.items() if k in _SAVED_KEYS or k == "saved"}
    return out


def channel_status_of(data: object, qmgr: str, tz: tzinfo = UTC,
                      what: str = "chstatus") -> ChannelStatus:
    """A ChannelStatus from DISPLAY CHSTATUS's parameters."""
    o = _Object(data, what)
    instance = next((k.upper() for k in ("saved", "short", "current") if k in o.data),
                    "CURRENT")
    substate = o.data.get("substate")
    return ChannelStatus(
        qmgr, o.text("channel", required=True), o.text("chltype").upper(),
        o.text("status").upper() or "INACTIVE", instance,
        None if substate is None else (o.text("substate").upper() or None),
        o.text("conname"), o.text("xmitq"), o.text("rqmname"), o.number("msgs", None),
        o.number("batches", None), o.number("curmsgs", None), o.number("curseqno", None),
        o.number("lstseqno", None), o.yes("indoubt"), o.yes("stopreq"),
        o.text("monchl").upper() or "OFF", o.pair("xqtime"), o.pair("nettime"),
        o.moment("lstmsgda", "lstmsgti", tz), o.moment("chstada", "chstati", tz),
        o.pair("exittime"), o.pair("xbatchsz"), o.pair("comptime"),
        o.number("bytssent", None), o.number("bytsrcvd", None), o.number("bufssent", None),
        o.number("bufsrcvd", None))


# --- RESET QSTATS, DISPLAY CLUSQMGR -----------------------------------------------------------

def reset_stats_json(r: ResetStats) -> dict:
    """RESET QSTATS of one queue."""
    return {"qstats": r.name, "resetint": r.time_since_reset, "hiqdepth": r.high_depth,
            "msgsin": r.enqueued, "msgsout": r.dequeued}


def reset_stats_of(data: object, qmgr: str, what: str = "qstats") -> ResetStats:
    """A ResetStats from RESET QSTATS's parameters."""
    o = _Object(data, what)
    return ResetStats(qmgr, o.text("qstats", required=True), o.number("resetint") or 0,
                      o.number("hiqdepth") or 0, o.number("msgsin") or 0,
                      o.number("msgsout") or 0)


def cluster_qmgr_json(c: ClusterQmgr) -> dict:
    """DISPLAY CLUSQMGR ALL of one entry."""
    return {"clusqmgr": c.name, "channel": c.channel, "cluster": c.cluster,
            "conname": c.conname, "deftype": c.deftype, "qmtype": c.qmtype,
            "status": c.status, "suspend": _yes(c.suspended)}


def cluster_qmgr_of(data: object, qmgr: str, what: str = "clusqmgr") -> ClusterQmgr:
    """A ClusterQmgr from DISPLAY CLUSQMGR's parameters."""
    o = _Object(data, what)
    return ClusterQmgr(qmgr, o.text("clusqmgr", required=True), o.text("cluster"),
                       o.text("channel"), o.text("conname"),
                       o.text("qmtype").upper() or "NORMAL",
                       o.text("deftype").upper() or "CLUSSDRA",
                       o.text("status").upper() or "INACTIVE", o.yes("suspend"))


# --- DISPLAY QMSTATUS --------------------------------------------------------------------------

_QMSTA = {mqc.MQQMSTA_STARTING: "STARTING", mqc.MQQMSTA_RUNNING: "RUNNING",
          mqc.MQQMSTA_QUIESCING: "QUIESCING"}
_SVC = {mqc.MQSVC_STATUS_STOPPED: "STOPPED", mqc.MQSVC_STATUS_STARTING: "STARTING",
        mqc.MQSVC_STATUS_RUNNING: "RUNNING", mqc.MQSVC_STATUS_STOPPING: "STOPPING"}


def qmgr_status_json(s: QmgrStatus, tz: tzinfo = UTC) -> dict:
    """DISPLAY QMSTATUS ALL."""
    date, time = _date_time(s.start, tz)
    out: dict = {"qmname": s.queue_manager, "status": _QMSTA.get(s.status, str(s.status))}
    if s.channel_initiator is not None:
        out["chinit"] = _SVC.get(s.channel_initiator, str(s.channel_initiator))
    if s.command_server is not None:
        out["cmdserv"] = _SVC.get(s.command_server, str(s.command_server))
    out.update(_known(conns=s.connections))
    return {**out, "hostname": s.host_name, "instdesc": s.installation_desc,
            "instname": s.installation_name, "instpath": s.installation_path,
            "startda": date, "startti": time}


def _word(o: _Object, key: str, words: dict[int, str]) -> int | None:
    text = o.text(key).upper()
    if not text:
        return None
    found = {w: n for n, w in words.items()}.get(text)
    if found is None:
        raise RestBodyError(f"{o.where(key)}: {text!r} is not one of {sorted(words.values())}")
    return found


def qmgr_status_of(data: object, qmgr: str, tz: tzinfo = UTC,
                   what: str = "qmstatus") -> QmgrStatus:
    """A QmgrStatus from DISPLAY QMSTATUS's parameters."""
    o = _Object(data, what)
    status = _word(o, "status", _QMSTA)
    if status is None:
        raise RestBodyError(f"{what}: no status")
    return QmgrStatus(o.text("qmname") or qmgr, status, o.moment("startda", "startti", tz),
                      o.number("conns", None), _word(o, "cmdserv", _SVC),
                      _word(o, "chinit", _SVC), o.text("instname"), o.text("instpath"),
                      o.text("instdesc"), o.text("hostname"))


# --- DISPLAY LSSTATUS ---------------------------------------------------------------------------

_CONTROL = {mqc.MQSVC_CONTROL_Q_MGR: "QMGR", mqc.MQSVC_CONTROL_Q_MGR_START: "STARTONLY",
            mqc.MQSVC_CONTROL_MANUAL: "MANUAL"}


def listener_status_json(m: Message) -> dict:
    """DISPLAY LSSTATUS ALL of one listener, from its Inquire Channel Listener Status
    response."""
    def text(pid: int) -> str:
        value = m.get(pid, "")
        return (value.decode("latin-1") if isinstance(value, bytes) else str(value)).rstrip()

    status = m.get(mqc.MQIACH_LISTENER_STATUS)
    out: dict = {"listener": text(mqc.MQCACH_LISTENER_NAME),
                 "status": _SVC.get(status, str(status)) if isinstance(status, int) else ""}
    for key, pid in (("port", mqc.MQIACH_PORT), ("backlog", mqc.MQIACH_BACKLOG)):
        if isinstance(m.get(pid), int):
            out[key] = m.get(pid)
    control = m.get(mqc.MQIACH_LISTENER_CONTROL)
    if isinstance(control, int):
        out["control"] = _CONTROL.get(control, str(control))
    return {**out, "descr": text(mqc.MQCACH_LISTENER_DESC),
            "startda": text(mqc.MQCACH_LISTENER_START_DATE),
            "startti": text(mqc.MQCACH_LISTENER_START_TIME), "trptype": "TCP"}


def listener_status_parameters(data: object, what: str = "lsstatus") -> list[Parameter]:
    """An Inquire Channel Listener Status response's parameters from DISPLAY LSSTATUS's."""
    o = _Object(data, what)
    status = _word(o, "status", _SVC)
    out: list[Parameter] = [String(mqc.MQCACH_LISTENER_NAME, o.text("listener", required=True),
                                   width=48),
                            Integer(mqc.MQIACH_LISTENER_STATUS,
                                    mqc.MQSVC_STATUS_RUNNING if status is None else status)]
    for key, pid in (("port", mqc.MQIACH_PORT), ("backlog", mqc.MQIACH_BACKLOG)):
        value = o.number(key, None)
        if value is not None:
            out.append(Integer(pid, value))
    control = _word(o, "control", _CONTROL)
    if control is not None:
        out.append(Integer(mqc.MQIACH_LISTENER_CONTROL, control))
    return [*out, String(mqc.MQCACH_LISTENER_DESC, o.text("descr"), width=64),
            String(mqc.MQCACH_LISTENER_START_DATE, o.text("startda"), width=12),
            String(mqc.MQCACH_LISTENER_START_TIME, o.text("startti"), width=8)]


# --- DISPLAY QMGR / QUEUE / CHANNEL -----------------------------------------------------------

_HEAD = {"QMGR": ("qmname",), "CHANNEL": ("channel",)}


def definition_json(d: Definition) -> dict:
    """DISPLAY QMGR / QUEUE / CHANNEL ALL of one object: its name, type and attributes."""
    table = table_for(d.kind)
    if d.kind == "QMGR":
        out: dict = {"qmname": d.name}
    elif d.kind == "CHANNEL":
        out = {"channel": d.name}
    else:
        out = {"queue": d.name, "type": d.kind}
    for keyword, value in d.attrs.items():
        a = table.get(keyword)
        kind = a.kind if a is not None else ""
        if kind == INT and value.lstrip("-").isdigit():
            out[keyword.lower()] = int(value)
        elif kind in (LIST, WORDS):
            out[keyword.lower()] = [v for v in value.split(",") if v]
        else:
            out[keyword.lower()] = value
    return out


def definition_of(data: object, qmgr: str, kind: str, what: str = "object") -> Definition:
    """A Definition of kind 'QMGR', 'CHANNEL' or 'QUEUE' (its TYPE gives QLOCAL ...) from
    DISPLAY's parameters: MQSC keywords and values as the MQSC layer keeps them."""
    o = _Object(data, what)
    if kind == "QMGR":
        name, skip = o.text("qmname", required=True), {"qmname"}
    elif kind == "CHANNEL":
        name, skip = o.text("channel", required=True), {"channel"}
    else:
        name, skip = o.text("queue", required=True), {"queue", "type"}
        kind = o.text("type").upper()
        if kind not in ("QLOCAL", "QMODEL", "QALIAS", "QREMOTE", "QCLUSTER"):
            raise RestBodyError(f"{what}: type {kind or '(none)'} is not a queue type")
    attrs: dict[str, str] = {}
    for key, value in o.data.items():
        if key in skip:
            continue
        if isinstance(value, list):
            attrs[key.upper()] = ",".join(_text(v, o.where(key)) for v in value)
        else:
            attrs[key.upper()] = _text(value, o.where(key))
    return Definition(qmgr, kind, name, attrs)
