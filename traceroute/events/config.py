"""Configuration and channel events built from object definitions (MQSC attributes).

Configuration events (spec/events.md §7): Create/Change/Delete/Refresh Object on
SYSTEM.ADMIN.CONFIG.EVENT when CONFIGEV(ENABLED); a change gives a before (MsgSeqNumber 1,
MQCFC_NOT_LAST) and an after (2, MQCFC_LAST) message under one CorrelId. The event data
carries origin (user, origin, queue manager), the object's type and name, then its
attributes as PCF (traceroute.events.objects: every attribute the object has, a queue's in
the order IBM MQ writes them). `channel_event` builds Channel Started/Stopped/Stopped By User
(traceroute.events.channel). Pure functions returning Events.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import pcf
from pcf import mqc
from traceroute.events import channel as ch
from traceroute.events.model import EVENT_QUEUES, Event, EventSource
from traceroute.events.objects import OBJECT, parameters

#: Object kinds whose DEFINE/ALTER/DELETE (and REFRESH QMGR TYPE(CONFIGEV)) produce
#: configuration events [doc; QLOCAL: the captures]; ALTER QMGR changes the queue manager.
CONFIG_KINDS = ("QLOCAL", "QMODEL", "QALIAS", "QREMOTE", "CHANNEL", "PROCESS", "NAMELIST",
                "TOPIC", "AUTHINFO", "LISTENER", "SERVICE", "COMMINFO", "CFSTRUCT",
                "STGCLASS", "QMGR")


def config_event(reason: int, qmgr: str, kind: str, name: str, attrs: Mapping[str, str],
                 when: datetime, *, correl_id: bytes | None = None, user: str = "mqm",
                 origin: int = mqc.MQEVO_CONSOLE, seq: int = 1,
                 control: int = mqc.MQCFC_LAST) -> Event:
    """One configuration event (Create/Change/Delete/Refresh Object) for an object: origin,
    the object's type and name, then every attribute `attrs` holds that PCF has (give the
    object's effective attributes, with CRDATE/CRTIME/ALTDATE/ALTTIME, for all of them)."""
    object_type, name_id, width = OBJECT[kind]
    data: list[pcf.Parameter] = [
        pcf.String(mqc.MQCACF_EVENT_USER_ID, user, width=12),
        pcf.Integer(mqc.MQIACF_EVENT_ORIGIN, origin),
        pcf.String(mqc.MQCACF_EVENT_Q_MGR, qmgr, width=48),
        pcf.Integer(mqc.MQIACF_OBJECT_TYPE, object_type),
        pcf.String(name_id, name, width=width if len(name) <= width else None),
        *parameters(kind, attrs)]
    return Event(EventSource(EVENT_QUEUES[mqc.MQCMD_CONFIG_EVENT], "Queue", qmgr),
                 mqc.MQCMD_CONFIG_EVENT, reason, when, data, correl_id=correl_id,
                 msg_seq_number=seq, control=control)


def change_events(qmgr: str, kind: str, name: str, before: Mapping[str, str],
                  after: Mapping[str, str], when: datetime, correl_id: bytes, *,
                  user: str = "mqm", origin: int = mqc.MQEVO_CONSOLE) -> list[Event]:
    """A Change Object pair: the before and the after image under one CorrelId."""
    return [config_event(mqc.MQRC_CONFIG_CHANGE_OBJECT, qmgr, kind, name, before, when,
                         correl_id=correl_id, seq=1, control=mqc.MQCFC_NOT_LAST, user=user,
                         origin=origin),
            config_event(mqc.MQRC_CONFIG_CHANGE_OBJECT, qmgr, kind, name, after, when,
                         correl_id=correl_id, seq=2, control=mqc.MQCFC_LAST, user=user,
                         origin=origin)]


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
