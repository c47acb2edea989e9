"""Queue manager events of failed MQI calls: which event a reason is, and its event data.

An application's (or a channel agent's) MQOPEN, MQPUT, MQPUT1, MQGET or MQCONN that fails
for one of the reasons of the local, remote, inhibit or authority events makes the queue
manager write that event, with the reason the call got [doc: "The reason code from the call
is the same as the reason code in the event message"]. `mqi_event` builds it from what the
call was (names from the MQOD, the application, the related object of the failure). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pcf import mqc
from traceroute.events.catalog import AUTHORITY_TYPES, BY_NAME, BY_REASON, EventKind, build
from traceroute.events.model import Event

#: Reasons of MQI calls that are queue manager events (Not Authorized: by its qualifier).
MQI_EVENT_REASONS = frozenset(
    k.reason for k in BY_REASON.values()
    if k.type == mqc.MQCMD_Q_MGR_EVENT and k.category in ("Local", "Remote", "Inhibit",
                                                          "Authority"))


@dataclass(frozen=True, slots=True)
class FailedCall:
    """What a failed MQI call was, as its event tells it."""

    reason: int
    qmgr: str
    appl_type: int
    appl_name: str
    queue: str = ""            # MQOD ObjectName (QName), '' for MQCONN
    object_qmgr: str = ""      # MQOD ObjectQMgrName as given ('' = this queue manager)
    related: str = ""          # the transmission queue / alias base queue of the failure
    related_type: int = 0      # its MQQT_* (type errors) or MQOT_* (alias base type)
    conn_name: str = ""        # a client's connection name
    channel: str = ""          # a client's SVRCONN channel
    user: str = ""             # Not Authorized: the user identifier checked
    qualifier: int = 0         # Not Authorized: MQRQ_*
    options: int = 0           # Not Authorized: the call's open/close/sub options
    command: int = 0           # Not Authorized (type 4): the MQCMD_*
    topic: str = ""            # a topic string (types 5 and 6)
    dest_qmgr: str = ""        # type 6: the destination queue's queue manager
    dest_options: int = 0      # type 6: the open options asked for the destination queue
    csp_user: str = ""         # type 1, MQRQ_CSP_NOT_AUTHORIZED: the MQCSP user id supplied


def event_kind(reason: int, qualifier: int = 0) -> EventKind | None:
    """The queue manager event of an MQI reason (Not Authorized by its qualifier), or None."""
    if reason == mqc.MQRC_NOT_AUTHORIZED:
        n = AUTHORITY_TYPES.get(qualifier)
        return BY_NAME.get(f"Not Authorized (type {n})") if n else None
    return BY_REASON.get(reason) if reason in MQI_EVENT_REASONS else None


def mqi_event(call: FailedCall, when: datetime | None) -> Event | None:
    """The event a failed MQI call makes its queue manager write (None: no such event)."""
    kind = event_kind(call.reason, call.qualifier)
    if kind is None:
        return None
    names = {p.name for p in kind.params}
    values: dict[str, object] = {"ApplType": call.appl_type, "ApplName": call.appl_name}
    if call.object_qmgr and call.object_qmgr != call.qmgr:
        values["ObjectQMgrName"] = call.object_qmgr
    if call.channel:
        values["ConnName"], values["ChannelName"] = call.conn_name, call.channel
    if call.reason == mqc.MQRC_NOT_AUTHORIZED:
        values.update(ReasonQualifier=call.qualifier, UserIdentifier=call.user)
        if "Options" in names:
            values["Options"] = call.options
        if "Command" in names:
            values = {"ReasonQualifier": call.qualifier, "Command": call.command,
                      "UserIdentifier": call.user}
        if "TopicString" in names:
            values["TopicString"] = call.topic
        if call.qualifier == mqc.MQRQ_CSP_NOT_AUTHORIZED:
            values["CSPUserIdentifier"] = call.csp_user
        if "DestQName" in names:
            values.update(DestQName=call.queue, DestOpenOptions=call.dest_options)
            if call.dest_qmgr and call.dest_qmgr != call.qmgr:
                values["DestQMgrName"] = call.dest_qmgr
            values.pop("ObjectQMgrName", None)
        elif "QName" in names and call.queue:
            values["QName"] = call.queue
    else:
        values["QName"] = call.queue
        if "TopicString" in names and call.topic:  # a put to a topic (PUB(DISABLED))
            values["TopicString"] = call.topic
    if "XmitQName" in names:
        values["XmitQName"] = call.related
    if "QType" in names:
        values["QType"] = call.related_type or mqc.MQQT_LOCAL
    if "BaseObjectName" in names:
        values["BaseObjectName"] = call.related
        values["BaseType"] = call.related_type or mqc.MQOT_Q
    return build(kind, call.qmgr, {k: v for k, v in values.items() if k in names}, when)
