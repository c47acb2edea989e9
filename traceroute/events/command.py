"""Command events (SYSTEM.ADMIN.COMMAND.EVENT): which MQCMD_* an MQSC command is, and the
event a command that ran makes.

On Multiplatforms a command event's data is always PCF, even for an MQSC command [seed 002,
"Command events": "the command data format is always PCF, even if the original request was
an MQSC command"]: CommandContext (EventUserId, EventOrigin, EventQMgr, the message context
of a command that came as a message, Command) and CommandData (the command's parameters:
for MQSC, the attributes it named as PCF parameters, as the real captures show: ALTER
QLOCAL(APP.REPLY) PUT(DISABLED) -> queueName, queueType, inhibitPut). The MsgDesc CorrelId
is shared with the configuration events the command makes. Pure functions.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import pcf
from pcf import mqc
from traceroute.events.model import EVENT_QUEUES, Event, EventSource

#: MQSC object kind -> the MQCMD_* name part of its PCF commands.
_KIND_NOUN = {
    "QLOCAL": "Q", "QREMOTE": "Q", "QALIAS": "Q", "QMODEL": "Q", "QUEUE": "Q",
    "CHANNEL": "CHANNEL", "PROCESS": "PROCESS", "NAMELIST": "NAMELIST", "TOPIC": "TOPIC",
    "AUTHINFO": "AUTH_INFO", "LISTENER": "LISTENER", "SERVICE": "SERVICE",
    "COMMINFO": "COMM_INFO", "SUB": "SUBSCRIPTION", "CFSTRUCT": "CF_STRUC",
    "STGCLASS": "STG_CLASS", "QMGR": "Q_MGR", "QSTATUS": "Q_STATUS",
    "CHSTATUS": "CHANNEL_STATUS", "LSSTATUS": "LISTENER_STATUS",
    "SVSTATUS": "SERVICE_STATUS", "CLUSQMGR": "CLUSTER_Q_MGR", "CONN": "CONNECTION",
    "AUTHREC": "AUTH_REC", "CHLAUTH": "CHLAUTH_REC", "POLICY": "PROT_POLICY",
    "QMSTATUS": "Q_MGR_STATUS", "PUBSUB": "PUBSUB", "TPSTATUS": "TOPIC_STATUS",
    "SBSTATUS": "SUB_STATUS", "CHINIT": "CHANNEL_INIT",
}
#: MQSC verb -> the MQCMD_* verb part.
_VERB = {"DEFINE": "CREATE", "ALTER": "CHANGE", "DELETE": "DELETE", "DISPLAY": "INQUIRE",
         "CLEAR": "CLEAR", "START": "START", "STOP": "STOP", "PING": "PING", "RESET": "RESET",
         "RESOLVE": "RESOLVE", "REFRESH": "REFRESH", "SET": "SET", "PURGE": "PURGE",
         "SUSPEND": "SUSPEND", "RESUME": "RESUME", "ARCHIVE": "ARCHIVE"}
#: Exceptions to the rule VERB_NOUN.
_SPECIAL = {("RESET", "QSTATS"): "RESET_Q_STATS", ("RESET", "CLUSTER"): "RESET_CLUSTER",
            ("REFRESH", "CLUSTER"): "REFRESH_CLUSTER", ("SUSPEND", "QMGR"):
            "SUSPEND_Q_MGR_CLUSTER", ("RESUME", "QMGR"): "RESUME_Q_MGR_CLUSTER",
            ("REFRESH", "SECURITY"): "REFRESH_SECURITY", ("STOP", "CONN"): "STOP_CONNECTION",
            ("START", "CHINIT"): "START_CHANNEL_INIT",
            ("START", "LISTENER"): "START_CHANNEL_LISTENER",
            ("STOP", "LISTENER"): "STOP_CHANNEL_LISTENER", ("DISPLAY", "QSTATUS"):
            "INQUIRE_Q_STATUS", ("DISPLAY", "CHSTATUS"): "INQUIRE_CHANNEL_STATUS",
            ("DELETE", "AUTHREC"): "DELETE_AUTH_REC", ("SET", "AUTHREC"): "SET_AUTH_REC",
            ("DISPLAY", "AUTHREC"): "INQUIRE_AUTH_RECS", ("SET", "CHLAUTH"):
            "SET_CHLAUTH_REC", ("DISPLAY", "CHLAUTH"): "INQUIRE_CHLAUTH_RECS"}


def mqsc_command(verb: str, kind: str) -> int | None:
    """The MQCMD_* of an MQSC command (ALTER QLOCAL -> MQCMD_CHANGE_Q), None if PCF has none."""
    verb, kind = verb.upper(), kind.upper()
    name = _SPECIAL.get((verb, kind))
    if name is None:
        noun, v = _KIND_NOUN.get(kind), _VERB.get(verb)
        if noun is None or v is None:
            return None
        name = f"{v}_{noun}"
    value = getattr(mqc, f"MQCMD_{name}", None)
    return value if isinstance(value, int) else None


#: Command keywords (not object attributes) and their PCF parameters.
_OPTION_WORDS = {
    "PURGE": (mqc.MQIACF_PURGE, {"": mqc.MQPO_YES, "YES": mqc.MQPO_YES}),
    "NOPURGE": (mqc.MQIACF_PURGE, {"": mqc.MQPO_NO, "YES": mqc.MQPO_NO}),
    "REPLACE": (mqc.MQIACF_REPLACE, {"": mqc.MQRP_YES, "YES": mqc.MQRP_YES}),
    "NOREPLACE": (mqc.MQIACF_REPLACE, {"": mqc.MQRP_NO, "YES": mqc.MQRP_NO}),
    "IGNSTATE": (mqc.MQIACF_IGNORE_STATE, {"YES": mqc.MQIS_YES, "NO": mqc.MQIS_NO}),
    "AUTHREC": (mqc.MQIACF_REMOVE_AUTHREC, {"YES": mqc.MQRAR_YES, "NO": mqc.MQRAR_NO}),
}


def command_data(verb: str, kind: str, name: str | None, object_type: int | None,
                 name_id: int | None, name_width: int, attributes: list[pcf.Parameter],
                 options: dict[str, str]) -> list[pcf.Parameter]:
    """An MQSC command's CommandData as MQ writes it: the object's name (and a queue's
    type), the attributes it named, then its options with the defaults MQ adds (DELETE:
    Purge for a local queue, RemoveAuthrec, IgnoreState; START/STOP of a service or
    listener: IgnoreState), as the real captures show."""
    verb = verb.upper()
    out: list[pcf.Parameter] = []
    if name is not None and name_id is not None:
        out.append(pcf.String(name_id, name, width=name_width if len(name) <= name_width
                              else None))
    if object_type is not None:
        out.append(pcf.Integer(mqc.MQIA_Q_TYPE, object_type))
    out += attributes
    given: dict[int, int] = {}
    for keyword, value in options.items():
        spec = _OPTION_WORDS.get(keyword.upper())
        if spec is not None and value.upper() in spec[1]:
            given[spec[0]] = spec[1][value.upper()]
    if verb == "DELETE":
        if kind.upper() == "QLOCAL":
            given.setdefault(mqc.MQIACF_PURGE, mqc.MQPO_NO)
        if kind.upper() in ("QLOCAL", "QREMOTE", "QALIAS", "QMODEL", "TOPIC"):
            given.setdefault(mqc.MQIACF_REMOVE_AUTHREC, mqc.MQRAR_YES)
        given.setdefault(mqc.MQIACF_IGNORE_STATE, mqc.MQIS_NO)
    elif verb in ("START", "STOP") and kind.upper() in ("SERVICE", "LISTENER"):
        given.setdefault(mqc.MQIACF_IGNORE_STATE, mqc.MQIS_NO)
    out += [pcf.Integer(pid, value) for pid, value in given.items()]
    return out


def is_display(verb: str) -> bool:
    """A DISPLAY command (an Inquire in PCF): CMDEV(NODISPLAY) leaves it out."""
    return verb.upper() == "DISPLAY"


def command_event(qmgr: str, command: int, data: Iterable[pcf.Parameter],
                  when: datetime | None, *, user: str = "mqm",
                  origin: int = mqc.MQEVO_CONSOLE, correl_id: bytes | None = None,
                  mqsc: bool = True, context: Iterable[pcf.Parameter] = ()) -> Event:
    """The Command event of a command that ran: MQRC_COMMAND_MQSC (2412) or _PCF (2413).
    `context`: the command message's context (EventAccountingToken ... EventApplOrigin)
    when it came as a message (EventOrigin MQEVO_MSG)."""
    ctx = pcf.Group(mqc.MQGACF_COMMAND_CONTEXT, [
        pcf.String(mqc.MQCACF_EVENT_USER_ID, user, width=12),
        pcf.Integer(mqc.MQIACF_EVENT_ORIGIN, origin),
        pcf.String(mqc.MQCACF_EVENT_Q_MGR, qmgr, width=48),
        *context,
        pcf.Integer(mqc.MQIACF_COMMAND, command)])
    body = pcf.Group(mqc.MQGACF_COMMAND_DATA, list(data))
    return Event(EventSource(EVENT_QUEUES[mqc.MQCMD_COMMAND_EVENT], "Queue", qmgr),
                 mqc.MQCMD_COMMAND_EVENT,
                 mqc.MQRC_COMMAND_MQSC if mqsc else mqc.MQRC_COMMAND_PCF, when, [ctx, body],
                 correl_id=correl_id)
