"""Configuration and channel events built from object definitions (MQSC attributes).

Configuration events (spec/events.md §7): Create/Change/Delete/Refresh Object on
SYSTEM.ADMIN.CONFIG.EVENT when CONFIGEV(ENABLED); a change gives a before (MsgSeqNumber 1,
MQCFC_NOT_LAST) and an after (2, MQCFC_LAST) message under one CorrelId. The event data
carries origin (user, origin, queue manager), the object's type and name, then its
attributes as PCF (traceroute.events.objects: every attribute the object has, a queue's in
the order IBM MQ writes them). `channel_event` builds Channel Started/Stopped/Stopped By User
(traceroute.events.channel). Authority configuration events (Change/Delete/Refresh
Authority Record, seed 002 "权限配置事件") carry an authority record: `AuthorityRecord`
and `authority_record_event`/`authority_change_events`. Pure functions returning Events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

import pcf
from pcf import mqc
from traceroute.events import channel as ch
from traceroute.events.catalog import BY_NAME, build
from traceroute.events.model import EVENT_QUEUES, Event, EventSource
from traceroute.events.objects import OBJECT, parameters

#: Object kinds whose DEFINE/ALTER/DELETE (and REFRESH QMGR TYPE(CONFIGEV)) produce
#: configuration events [doc; QLOCAL: the captures]; ALTER QMGR changes the queue manager.
CONFIG_KINDS = ("QLOCAL", "QMODEL", "QALIAS", "QREMOTE", "CHANNEL", "PROCESS", "NAMELIST",
                "TOPIC", "AUTHINFO", "LISTENER", "SERVICE", "COMMINFO", "CFSTRUCT",
                "STGCLASS", "QMGR")


#: The command message's context a configuration event carries when EventOrigin is
#: MQEVO_MSG [mq: EventAccountingToken ... EventApplOrigin, "Returned: only if EventOrigin
#: is MQEVO_MSG"], in IBM's order.
CONTEXT_IDS = (mqc.MQBACF_EVENT_ACCOUNTING_TOKEN, mqc.MQCACF_EVENT_APPL_IDENTITY,
               mqc.MQIACF_EVENT_APPL_TYPE, mqc.MQCACF_EVENT_APPL_NAME,
               mqc.MQCACF_EVENT_APPL_ORIGIN)


def config_event(reason: int, qmgr: str, kind: str, name: str, attrs: Mapping[str, str],
                 when: datetime, *, correl_id: bytes | None = None, user: str = "mqm",
                 origin: int = mqc.MQEVO_CONSOLE, seq: int = 1,
                 control: int = mqc.MQCFC_LAST,
                 context: Iterable[pcf.Parameter] = ()) -> Event:
    """One configuration event (Create/Change/Delete/Refresh Object) for an object: origin
    (from a command message, its `context` too), the object's type and name, then every
    attribute `attrs` holds that PCF has (give the object's effective attributes, with
    CRDATE/CRTIME/ALTDATE/ALTTIME, for all of them)."""
    object_type, name_id, width = OBJECT[kind]
    given = {p.parameter: p for p in context} if origin == mqc.MQEVO_MSG else {}
    data: list[pcf.Parameter] = [
        pcf.String(mqc.MQCACF_EVENT_USER_ID, user, width=12),
        pcf.Integer(mqc.MQIACF_EVENT_ORIGIN, origin),
        pcf.String(mqc.MQCACF_EVENT_Q_MGR, qmgr, width=48),
        *(given[pid] for pid in CONTEXT_IDS if pid in given),
        pcf.Integer(mqc.MQIACF_OBJECT_TYPE, object_type),
        pcf.String(name_id, name, width=width if len(name) <= width else None),
        *parameters(kind, attrs)]
    return Event(EventSource(EVENT_QUEUES[mqc.MQCMD_CONFIG_EVENT], "Queue", qmgr),
                 mqc.MQCMD_CONFIG_EVENT, reason, when, data, correl_id=correl_id,
                 msg_seq_number=seq, control=control)


def change_events(qmgr: str, kind: str, name: str, before: Mapping[str, str],
                  after: Mapping[str, str], when: datetime, correl_id: bytes, *,
                  user: str = "mqm", origin: int = mqc.MQEVO_CONSOLE,
                  context: Iterable[pcf.Parameter] = ()) -> list[Event]:
    """A Change Object pair: the before and the after image under one CorrelId."""
    return [config_event(mqc.MQRC_CONFIG_CHANGE_OBJECT, qmgr, kind, name, before, when,
                         correl_id=correl_id, seq=1, control=mqc.MQCFC_NOT_LAST, user=user,
                         origin=origin, context=context),
            config_event(mqc.MQRC_CONFIG_CHANGE_OBJECT, qmgr, kind, name, after, when,
                         correl_id=correl_id, seq=2, control=mqc.MQCFC_LAST, user=user,
                         origin=origin, context=context)]


def channel_event(reason: int, qmgr: str, channel: str, when: datetime, *,
                  xmitq: str = "", conname: str = "",
                  qualifier: int | None = None) -> Event:
    """Channel Started / Channel Stopped (By User) on SYSTEM.ADMIN.CHANNEL.EVENT (the
    builders of traceroute.events.channel, by reason)."""
    if reason == mqc.MQRC_CHANNEL_STOPPED_BY_USER:
        return ch.stopped_by_user(qmgr, channel, when)
    if reason == mqc.MQRC_CHANNEL_STOPPED:
        return ch.stopped(qmgr, channel, when, xmitq=xmitq, conname=conname,
                          qualifier=mqc.MQRQ_CHANNEL_STOPPED_OK if qualifier is None
                          else qualifier)
    return ch.started(qmgr, channel, when, xmitq=xmitq, conname=conname)


# --- authority records ----------------------------------------------------------------------

#: SET AUTHREC's AUTHADD/AUTHRMV words -> the MQAUTH_* values an authorization list holds.
AUTHORITIES: dict[str, int] = {
    "ALTUSR": mqc.MQAUTH_ALT_USER_AUTHORITY, "BROWSE": mqc.MQAUTH_BROWSE,
    "CHG": mqc.MQAUTH_CHANGE, "CLR": mqc.MQAUTH_CLEAR, "CONNECT": mqc.MQAUTH_CONNECT,
    "CRT": mqc.MQAUTH_CREATE, "DLT": mqc.MQAUTH_DELETE, "DSP": mqc.MQAUTH_DISPLAY,
    "GET": mqc.MQAUTH_INPUT, "INQ": mqc.MQAUTH_INQUIRE, "PUT": mqc.MQAUTH_OUTPUT,
    "PASSALL": mqc.MQAUTH_PASS_ALL_CONTEXT, "PASSID": mqc.MQAUTH_PASS_IDENTITY_CONTEXT,
    "SET": mqc.MQAUTH_SET, "SETALL": mqc.MQAUTH_SET_ALL_CONTEXT,
    "SETID": mqc.MQAUTH_SET_IDENTITY_CONTEXT, "CTRL": mqc.MQAUTH_CONTROL,
    "CTRLX": mqc.MQAUTH_CONTROL_EXTENDED, "PUB": mqc.MQAUTH_PUBLISH,
    "SUB": mqc.MQAUTH_SUBSCRIBE, "RESUME": mqc.MQAUTH_RESUME, "SYSTEM": mqc.MQAUTH_SYSTEM}
#: SET AUTHREC's OBJTYPE -> the object type of the profile (AuthorityRecordType).
RECORD_TYPES: dict[str, int] = {
    "QMGR": mqc.MQOT_Q_MGR, "QUEUE": mqc.MQOT_Q, "TOPIC": mqc.MQOT_TOPIC,
    "CHANNEL": mqc.MQOT_CHANNEL, "CLNTCONN": mqc.MQOT_CLNTCONN_CHANNEL,
    "PROCESS": mqc.MQOT_PROCESS, "NAMELIST": mqc.MQOT_NAMELIST,
    "AUTHINFO": mqc.MQOT_AUTH_INFO, "LISTENER": mqc.MQOT_LISTENER,
    "SERVICE": mqc.MQOT_SERVICE, "COMMINFO": mqc.MQOT_COMM_INFO,
    "RQMNAME": mqc.MQOT_REMOTE_Q_MGR_NAME}
#: Entity types of cmqzc.h (not in pcf.mqc, which is generated from cmqc/cmqcfc/cmqxc).
MQZAET_PRINCIPAL, MQZAET_GROUP = 1, 2


@dataclass(frozen=True, slots=True)
class AuthorityRecord:
    """One authority record: a profile of an object type, a principal or a group, and the
    authorities granted (AUTHADD words; none: an entity with no authority)."""

    profile: str               # the object or generic profile ('self' for the qmgr)
    objtype: str               # SET AUTHREC's OBJTYPE word: QUEUE, QMGR, TOPIC ...
    entity: str                # the principal or group name
    group: bool = False        # True: a GROUP, else a PRINCIPAL
    authorities: frozenset[str] = frozenset()

    def authorization_list(self) -> list[int]:
        """The MQAUTH_* values granted, in MQAUTH order; [MQAUTH_NONE] when none."""
        return sorted(AUTHORITIES[a] for a in self.authorities if a in AUTHORITIES) \
            or [mqc.MQAUTH_NONE]


def authority_record_event(name: str, qmgr: str, record: AuthorityRecord, when: datetime,
                           *, user: str = "mqm", origin: int = mqc.MQEVO_CONSOLE,
                           context: Iterable[pcf.Parameter] = (),
                           correl_id: bytes | None = None, seq: int = 1,
                           control: int = mqc.MQCFC_LAST) -> Event:
    """One authority configuration event (`name`: Change, Delete or Refresh Authority
    Record) for a record: origin (and, from a command message, its `context`), the record's
    identity (MQOT_AUTH_REC, its profile) and its attributes."""
    values: dict[str, object] = {
        "EventQMgr": qmgr, "EventUserId": user, "EventOrigin": origin,
        "ObjectType": mqc.MQOT_AUTH_REC, "ProfileName": record.profile,
        "AuthorityRecordType": RECORD_TYPES[record.objtype],
        "AuthorizationList": record.authorization_list(), "EntityName": record.entity,
        "EntityType": MQZAET_GROUP if record.group else MQZAET_PRINCIPAL}
    if origin == mqc.MQEVO_MSG:
        named = {mqc.MQBACF_EVENT_ACCOUNTING_TOKEN: "EventAccountingToken",
                 mqc.MQCACF_EVENT_APPL_IDENTITY: "EventApplIdentity",
                 mqc.MQIACF_EVENT_APPL_TYPE: "EventApplType",
                 mqc.MQCACF_EVENT_APPL_NAME: "EventApplName",
                 mqc.MQCACF_EVENT_APPL_ORIGIN: "EventApplOrigin"}
        values.update({named[p.parameter]: p for p in context if p.parameter in named})
    event = build(BY_NAME[name], qmgr, values, when, correl_id=correl_id)
    event.msg_seq_number, event.control = seq, control
    return event


def authority_change_events(qmgr: str, before: AuthorityRecord, after: AuthorityRecord,
                            when: datetime, correl_id: bytes, *, user: str = "mqm",
                            origin: int = mqc.MQEVO_CONSOLE,
                            context: Iterable[pcf.Parameter] = ()) -> list[Event]:
    """A Change Authority Record pair: the record before and after, under one CorrelId."""
    return [authority_record_event("Change Authority Record", qmgr, record, when, user=user,
                                   origin=origin, context=context, correl_id=correl_id,
                                   seq=seq, control=control)
            for record, seq, control in ((before, 1, mqc.MQCFC_NOT_LAST),
                                         (after, 2, mqc.MQCFC_LAST))]
