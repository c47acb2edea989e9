"""Status and definitions as runmqsc shows them: KEYWORD(value) items, two to a line.

`queue_status_items`, `handle_items`, `channel_status_items`, `definition_items`,
`reset_items` and `cluster_qmgr_items` give the items DISPLAY QSTATUS, DISPLAY CHSTATUS,
DISPLAY QUEUE/CHANNEL/QMGR, RESET QSTATS and DISPLAY CLUSQMGR show (all of them, or those
asked for); `columns` lays them out as runmqsc does. Values are shown as MQ shows them:
dates 'YYYY-MM-DD', times 'HH.MM.SS' in the queue manager's time zone (`tz`), pairs
'short,long', what is not available blank. Text is data: a value with a control character
or a parenthesis that could end it early is shown quoted, so one line stays one line.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, tzinfo

from traceroute.status.attributes import FLAGS
from traceroute.status.values import (
    ChannelStatus,
    ClusterQmgr,
    Definition,
    HandleStatus,
    QmgrStatus,
    QueueStatus,
    ResetStats,
)

#: DISPLAY QSTATUS TYPE(QUEUE): what MONITOR adds, and everything (ALL).
QSTATUS_MONITOR = ("MONQ", "QTIME", "MSGAGE", "LPUTDATE", "LPUTTIME", "LGETDATE", "LGETTIME")
QSTATUS_ALL = ("CURDEPTH", "IPPROCS", "OPPROCS", "UNCOM", *QSTATUS_MONITOR, "MEDIALOG",
               "CURFSIZE", "CURMAXFS")
#: DISPLAY CHSTATUS: shown always, with MONITOR, and with ALL.
CHSTATUS_ALWAYS = ("CHLTYPE", "CONNAME", "INSTANCE", "RQMNAME", "STATUS", "SUBSTATE", "XMITQ")
CHSTATUS_MONITOR = ("MONCHL", "XQTIME", "NETTIME", "EXITTIME", "XBATCHSZ", "COMPTIME",
                    "STOPREQ")
CHSTATUS_ALL = (*CHSTATUS_ALWAYS, "BATCHES", "BUFSRCVD", "BUFSSENT", "BYTSRCVD", "BYTSSENT",
                "CHSTADA", "CHSTATI", "CURMSGS", "CURSEQNO",
                "INDOUBT", "LSTMSGDA", "LSTMSGTI", "LSTSEQNO", "MSGS", *CHSTATUS_MONITOR)


def text_value(value: str) -> str:
    """A value shown inside KEYWORD(...): as it is, or quoted ('' for ') when it holds a
    control character, a quote or an unbalanced parenthesis."""
    depth, balanced = 0, True
    for c in value:
        depth += c == "("
        depth -= c == ")"
        balanced = balanced and depth >= 0
    plain = balanced and depth == 0 and "'" not in value and value.isprintable()
    if plain:
        return value
    shown = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in value)
    return "'" + shown.replace("'", "''") + "'"


def item(keyword: str, value: object = None) -> str:
    """KEYWORD(value); KEYWORD alone when value is None; blank values as ( )."""
    if value is None:
        return keyword
    text = text_value(str(value)) if value != "" else " "
    return f"{keyword}({text})"


def _date(moment: datetime | None, tz: tzinfo) -> tuple[str, str]:
    if moment is None:
        return "", ""
    local = moment.astimezone(tz)
    return local.strftime("%Y-%m-%d"), local.strftime("%H.%M.%S")


def _pair(value: tuple[int, int] | None) -> str:
    return " , " if value is None else f"{value[0]},{value[1]}"


def _number(value: int | None) -> str:
    return "" if value is None else str(value)


def _chosen(values: dict[str, str | None], wanted: Iterable[str] | None,
            order: Iterable[str]) -> list[str]:
    keys = list(order) if wanted is None else [k for k in order if k in set(wanted)]
    return [item(k, values[k]) for k in keys if k in values]


def queue_status_items(s: QueueStatus, wanted: Iterable[str] | None = None,
                       tz: tzinfo = UTC) -> list[str]:
    """DISPLAY QSTATUS TYPE(QUEUE): QUEUE, TYPE and the items asked for (None: ALL)."""
    put_date, put_time = _date(s.last_put, tz)
    get_date, get_time = _date(s.last_get, tz)
    values: dict[str, str | None] = {
        "CURDEPTH": str(s.curdepth), "IPPROCS": str(s.ipprocs), "OPPROCS": str(s.opprocs),
        "UNCOM": "NO" if not s.uncom else str(s.uncom), "MONQ": s.monq,
        "QTIME": _pair(s.qtime), "MSGAGE": _number(s.msgage), "LPUTDATE": put_date,
        "LPUTTIME": put_time, "LGETDATE": get_date, "LGETTIME": get_time, "MEDIALOG": "",
    }
    for key, size in (("CURFSIZE", s.curfsize), ("CURMAXFS", s.curmaxfs)):
        if size is not None:  # a queue manager that reports the queue file
            values[key] = str(size)
    return [item("QUEUE", s.name), item("TYPE", "QUEUE"),
            *_chosen(values, wanted, QSTATUS_ALL)]


def handle_items(h: HandleStatus) -> list[str]:
    """DISPLAY QSTATUS TYPE(HANDLE) ALL for one handle."""
    yes = {True: "YES", False: "NO"}
    return [item("QUEUE", h.queue), item("TYPE", "HANDLE"), item("APPLTAG", h.appl_tag),
            item("APPLTYPE", "SYSTEM" if h.appl_type == 7 else "USER"),
            item("CHANNEL", h.channel), item("CONNAME", h.conname), item("PID", h.pid),
            item("USERID", h.user), item("INPUT", h.input), item("OUTPUT", yes[h.output]),
            item("BROWSE", yes[h.browse]), item("INQUIRE", yes[h.inquire]),
            item("SET", yes[h.set]), item("HSTATE", "ACTIVE" if h.active else "INACTIVE")]


def channel_status_items(c: ChannelStatus, wanted: Iterable[str] | None = (),
                         tz: tzinfo = UTC) -> list[str]:
    """DISPLAY CHSTATUS: CHANNEL, the items always shown, and those asked for (None: ALL)."""
    start_date, start_time = _date(c.started, tz)
    msg_date, msg_time = _date(c.last_msg, tz)
    yes = {True: "YES", False: "NO"}
    values: dict[str, str | None] = {
        "CHLTYPE": c.chltype, "CONNAME": c.conname, "RQMNAME": c.rqmname,
        "STATUS": c.status, "SUBSTATE": c.substate or "", "XMITQ": c.xmitq,
        "BATCHES": _number(c.batches), "CHSTADA": start_date, "CHSTATI": start_time,
        "CURMSGS": _number(c.curmsgs), "CURSEQNO": _number(c.curseqno),
        "INDOUBT": yes[c.indoubt], "LSTMSGDA": msg_date, "LSTMSGTI": msg_time,
        "LSTSEQNO": _number(c.lstseqno), "MSGS": _number(c.msgs), "STOPREQ": yes[c.stopreq],
        "MONCHL": c.monchl, "XQTIME": _pair(c.xqtime), "NETTIME": _pair(c.nettime),
        "EXITTIME": _pair(c.exittime), "XBATCHSZ": _pair(c.xbatchsz),
        "COMPTIME": _pair(c.comptime),
    }
    for key, count in (("BUFSRCVD", c.bufsrcvd), ("BUFSSENT", c.bufssent),
                       ("BYTSRCVD", c.bytsrcvd), ("BYTSSENT", c.bytssent)):
        if count is not None:  # a queue manager that reports them
            values[key] = str(count)
    if c.instance == "SAVED":
        keep = ("CHLTYPE", "CONNAME", "STATUS", "XMITQ", "CURSEQNO", "LSTSEQNO", "INDOUBT")
        values = {k: v for k, v in values.items() if k in keep}
    chosen = list(CHSTATUS_ALWAYS) + ([] if wanted is None else list(wanted))
    if wanted is None:
        chosen = list(CHSTATUS_ALL)
    items = [item("CHANNEL", c.name)]
    for key in CHSTATUS_ALL:
        if key == "INSTANCE" and key in chosen:
            items.append(item(c.instance))
        elif key in chosen and key in values:
            items.append(item(key, values[key]))
    return items


def definition_items(d: Definition, wanted: Iterable[str] | None = None) -> list[str]:
    """DISPLAY QUEUE/CHANNEL/QMGR: the name, the type, and the attributes (None: all)."""
    if d.kind == "QMGR":
        head = [item("QMNAME", d.name)]
    elif d.kind == "CHANNEL":
        head = [item("CHANNEL", d.name), item("CHLTYPE", d.attrs.get("CHLTYPE", ""))]
    elif d.kind == "TOPIC":
        head = [item("TOPIC", d.name), item("TYPE", d.attrs.get("TYPE", "LOCAL"))]
    elif d.kind == "SUB":
        head = [item("SUB", d.name), item("SUBID", d.attrs.get("SUBID", ""))]
    elif d.kind == "TPSTATUS":
        head = [item("TOPICSTR", d.name)]
    elif d.kind == "TPSTATUS_SUB":
        head = [item("TOPICSTR", d.name), item("SUBID", d.attrs.get("SUBID", ""))]
    else:
        head = [item("QUEUE", d.name), item("TYPE", d.kind)]
    keys = [k for k in d.attrs if k != "CHLTYPE" and not (d.kind == "TOPIC" and k == "TYPE")
            and not (k == "SUBID" and d.kind in ("SUB", "TPSTATUS_SUB"))]
    if wanted is not None:
        chosen = set(wanted)
        keys = [k for k in keys if k in chosen]
    out = list(head)
    for k in keys:
        value = d.attrs[k]
        if k in FLAGS and value in ("YES", "NO"):
            out.append(item(FLAGS[k][value == "NO"]))  # SHARE / NOSHARE, as runmqsc shows
        else:
            out.append(item(k, value))  # a blank value shows as DESCR( ), as runmqsc does
    return out


def reset_items(r: ResetStats) -> list[str]:
    """RESET QSTATS's items."""
    return [item("QSTATS", r.name), item("RESETINT", r.time_since_reset),
            item("HIQDEPTH", r.high_depth), item("MSGSIN", r.enqueued),
            item("MSGSOUT", r.dequeued)]


def cluster_qmgr_items(c: ClusterQmgr) -> list[str]:
    """DISPLAY CLUSQMGR's items."""
    return [item("CLUSQMGR", c.name), item("CHANNEL", c.channel), item("CLUSTER", c.cluster),
            item("CONNAME", c.conname), item("DEFTYPE", c.deftype), item("QMTYPE", c.qmtype),
            item("STATUS", c.status), item("SUSPEND", "YES" if c.suspended else "NO")]


#: DISPLAY QMSTATUS ALL's items after QMNAME and STATUS, in runmqsc's order.
QMSTATUS_ALL = ("CHINIT", "CMDSERV", "CONNS", "HOSTNAME", "INSTDESC", "INSTNAME",
                "INSTPATH", "STARTDA", "STARTTI")
_QMSTA = {1: "STARTING", 2: "RUNNING", 3: "QUIESCING"}
_SVC = {0: "STOPPED", 1: "STARTING", 2: "RUNNING", 3: "STOPPING"}


def qmstatus_items(s: QmgrStatus, wanted: Iterable[str] | None = (),
                   tz: tzinfo = UTC) -> list[str]:
    """DISPLAY QMSTATUS: QMNAME, STATUS and the items asked for (None: ALL)."""
    date, time = _date(s.start, tz)
    values: dict[str, str | None] = {
        "CHINIT": _SVC.get(s.channel_initiator, "") if s.channel_initiator is not None
        else None,
        "CMDSERV": _SVC.get(s.command_server, "") if s.command_server is not None else None,
        "CONNS": None if s.connections is None else str(s.connections),
        "HOSTNAME": s.host_name, "INSTDESC": s.installation_desc,
        "INSTNAME": s.installation_name, "INSTPATH": s.installation_path,
        "STARTDA": date, "STARTTI": time}
    values = {k: v for k, v in values.items() if v is not None}
    return [item("QMNAME", s.queue_manager), item("STATUS", _QMSTA.get(s.status, s.status)),
            *_chosen(values, wanted, QMSTATUS_ALL)]


def columns(items: list[str], width: int = 40, indent: str = "   ") -> list[str]:
    """runmqsc's layout: two items a line, the first padded to `width`; a long item alone."""
    lines: list[str] = []
    pending: str | None = None
    for text in items:
        if len(text) >= width - 1:
            if pending is not None:
                lines.append(indent + pending)
                pending = None
            lines.append(indent + text)
        elif pending is None:
            pending = text
        else:
            lines.append(indent + pending.ljust(width) + text)
            pending = None
    if pending is not None:
        lines.append(indent + pending)
    return lines
