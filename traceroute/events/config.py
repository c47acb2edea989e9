"""Configuration and channel events built from object definitions (MQSC attributes).

Configuration events (spec/events.md §7): Create/Change/Delete/Refresh Object on
SYSTEM.ADMIN.CONFIG.EVENT when CONFIGEV(ENABLED); a change gives a before (MsgSeqNumber 1,
MQCFC_NOT_LAST) and an after (2, MQCFC_LAST) message under one CorrelId. The event data
carries origin (user, origin, queue manager), the object's type and name, then its
attributes: the MQSC keywords in the tables below become their PCF parameters (other
keywords are left out). Channel events: Channel Started and Channel Stopped By
User on SYSTEM.ADMIN.CHANNEL.EVENT. Pure functions returning Events.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import pcf
from pcf import mqc
from traceroute.events.model import EVENT_QUEUES, Event, EventSource

#: Object kinds whose DEFINE/ALTER/DELETE produce configuration events [doc; QLOCAL: captures].
CONFIG_KINDS = ("QLOCAL", "QMODEL", "QALIAS", "QREMOTE", "CHANNEL", "PROCESS", "NAMELIST",
                "TOPIC", "AUTHINFO", "CFSTRUCT", "STGCLASS")

#: kind -> (MQOT_* object type, the parameter naming the object)
_OBJECT: dict[str, tuple[int, int]] = {
    **{k: (mqc.MQOT_Q, mqc.MQCA_Q_NAME) for k in ("QLOCAL", "QMODEL", "QALIAS", "QREMOTE")},
    "CHANNEL": (mqc.MQOT_CHANNEL, mqc.MQCACH_CHANNEL_NAME),
    "PROCESS": (mqc.MQOT_PROCESS, mqc.MQCA_PROCESS_NAME),
    "NAMELIST": (mqc.MQOT_NAMELIST, mqc.MQCA_NAMELIST_NAME),
    "TOPIC": (mqc.MQOT_TOPIC, mqc.MQCA_TOPIC_NAME),
    "AUTHINFO": (mqc.MQOT_AUTH_INFO, mqc.MQCA_AUTH_INFO_NAME),
    "CFSTRUCT": (mqc.MQOT_CF_STRUC, mqc.MQCA_CF_STRUC_NAME),
    "STGCLASS": (mqc.MQOT_STORAGE_CLASS, mqc.MQCA_STORAGE_CLASS),
}
_Q_TYPES = {"QLOCAL": mqc.MQQT_LOCAL, "QMODEL": mqc.MQQT_MODEL, "QALIAS": mqc.MQQT_ALIAS,
            "QREMOTE": mqc.MQQT_REMOTE}
_EVR = {"ENABLED": mqc.MQEVR_ENABLED, "DISABLED": mqc.MQEVR_DISABLED}
_CHLTYPES = {"SDR": mqc.MQCHT_SENDER, "SVR": mqc.MQCHT_SERVER, "RCVR": mqc.MQCHT_RECEIVER,
             "RQSTR": mqc.MQCHT_REQUESTER, "CLNTCONN": mqc.MQCHT_CLNTCONN,
             "SVRCONN": mqc.MQCHT_SVRCONN, "CLUSSDR": mqc.MQCHT_CLUSSDR,
             "CLUSRCVR": mqc.MQCHT_CLUSRCVR}

#: MQSC keyword -> (parameter id, value map or None for numbers/text) for queues.
QUEUE_ATTRIBUTES: dict[str, tuple[int, Mapping[str, int] | type]] = {
    "DESCR": (mqc.MQCA_Q_DESC, str),
    "PROCESS": (mqc.MQCA_PROCESS_NAME, str),
    "INITQ": (mqc.MQCA_INITIATION_Q_NAME, str),
    "BOQNAME": (mqc.MQCA_BACKOUT_REQ_Q_NAME, str),
    "CLUSTER": (mqc.MQCA_CLUSTER_NAME, str),
    "CLUSNL": (mqc.MQCA_CLUSTER_NAMELIST, str),
    "TARGET": (mqc.MQCA_BASE_OBJECT_NAME, str),
    "RNAME": (mqc.MQCA_REMOTE_Q_NAME, str),
    "RQMNAME": (mqc.MQCA_REMOTE_Q_MGR_NAME, str),
    "XMITQ": (mqc.MQCA_XMIT_Q_NAME, str),
    "GET": (mqc.MQIA_INHIBIT_GET, {"ENABLED": mqc.MQQA_GET_ALLOWED,
                                   "DISABLED": mqc.MQQA_GET_INHIBITED}),
    "PUT": (mqc.MQIA_INHIBIT_PUT, {"ENABLED": mqc.MQQA_PUT_ALLOWED,
                                   "DISABLED": mqc.MQQA_PUT_INHIBITED}),
    "DEFPRTY": (mqc.MQIA_DEF_PRIORITY, int),
    "DEFPSIST": (mqc.MQIA_DEF_PERSISTENCE, {"NO": mqc.MQPER_NOT_PERSISTENT,
                                            "YES": mqc.MQPER_PERSISTENT}),
    "MAXDEPTH": (mqc.MQIA_MAX_Q_DEPTH, int),
    "MAXMSGL": (mqc.MQIA_MAX_MSG_LENGTH, int),
    "BOTHRESH": (mqc.MQIA_BACKOUT_THRESHOLD, int),
    "USAGE": (mqc.MQIA_USAGE, {"NORMAL": mqc.MQUS_NORMAL, "XMITQ": mqc.MQUS_TRANSMISSION}),
    "QDEPTHHI": (mqc.MQIA_Q_DEPTH_HIGH_LIMIT, int),
    "QDEPTHLO": (mqc.MQIA_Q_DEPTH_LOW_LIMIT, int),
    "QDPMAXEV": (mqc.MQIA_Q_DEPTH_MAX_EVENT, _EVR),
    "QDPHIEV": (mqc.MQIA_Q_DEPTH_HIGH_EVENT, _EVR),
    "QDPLOEV": (mqc.MQIA_Q_DEPTH_LOW_EVENT, _EVR),
    "QSVCINT": (mqc.MQIA_Q_SERVICE_INTERVAL, int),
    "QSVCIEV": (mqc.MQIA_Q_SERVICE_INTERVAL_EVENT, {"NONE": mqc.MQQSIE_NONE,
                                                    "HIGH": mqc.MQQSIE_HIGH,
                                                    "OK": mqc.MQQSIE_OK}),
}
CHANNEL_ATTRIBUTES: dict[str, tuple[int, Mapping[str, int] | type]] = {
    "DESCR": (mqc.MQCACH_DESC, str),
    "CONNAME": (mqc.MQCACH_CONNECTION_NAME, str),
    "XMITQ": (mqc.MQCACH_XMIT_Q_NAME, str),
    "CLUSTER": (mqc.MQCA_CLUSTER_NAME, str),
    "CHLTYPE": (mqc.MQIACH_CHANNEL_TYPE, _CHLTYPES),
}


def _attributes(kind: str, attrs: Mapping[str, str]) -> list[pcf.Parameter]:
    table = (CHANNEL_ATTRIBUTES if kind == "CHANNEL"
             else QUEUE_ATTRIBUTES if kind in _Q_TYPES else {})
    out: list[pcf.Parameter] = []
    for keyword, (pid, how) in table.items():
        if keyword not in attrs:
            continue
        text = attrs[keyword]
        if how is str:
            width = 264 if pid == mqc.MQCACH_CONNECTION_NAME else 64 if pid in (
                mqc.MQCA_Q_DESC, mqc.MQCACH_DESC) else 48
            out.append(pcf.String(pid, text, width=width))
        elif how is int:
            try:
                out.append(pcf.Integer(pid, int(text)))
            except ValueError:
                continue
        elif isinstance(how, Mapping) and text.upper() in how:
            out.append(pcf.Integer(pid, how[text.upper()]))
    if kind in _Q_TYPES:
        out.append(pcf.Integer(mqc.MQIA_Q_TYPE, _Q_TYPES[kind]))
    return out


def config_event(reason: int, qmgr: str, kind: str, name: str, attrs: Mapping[str, str],
                 when: datetime, *, correl_id: bytes | None = None, user: str = "mqm",
                 origin: int = mqc.MQEVO_CONSOLE, seq: int = 1,
                 control: int = mqc.MQCFC_LAST) -> Event:
    """One configuration event (Create/Change/Delete/Refresh Object) for an object."""
    object_type, name_id = _OBJECT[kind]
    data: list[pcf.Parameter] = [
        pcf.String(mqc.MQCACF_EVENT_USER_ID, user, width=12),
        pcf.Integer(mqc.MQIACF_EVENT_ORIGIN, origin),
        pcf.String(mqc.MQCACF_EVENT_Q_MGR, qmgr, width=48),
        pcf.Integer(mqc.MQIACF_OBJECT_TYPE, object_type),
        pcf.String(name_id, name, width=48 if name_id != mqc.MQCACH_CHANNEL_NAME else 20),
        *_attributes(kind, attrs)]
    return Event(EventSource(EVENT_QUEUES[mqc.MQCMD_CONFIG_EVENT], "Queue", qmgr),
                 mqc.MQCMD_CONFIG_EVENT, reason, when, data, correl_id=correl_id,
                 msg_seq_number=seq, control=control)


def change_events(qmgr: str, kind: str, name: str, before: Mapping[str, str],
                  after: Mapping[str, str], when: datetime, correl_id: bytes) -> list[Event]:
    """A Change Object pair: the before and the after image under one CorrelId."""
    return [config_event(mqc.MQRC_CONFIG_CHANGE_OBJECT, qmgr, kind, name, before, when,
                         correl_id=correl_id, seq=1, control=mqc.MQCFC_NOT_LAST),
            config_event(mqc.MQRC_CONFIG_CHANGE_OBJECT, qmgr, kind, name, after, when,
                         correl_id=correl_id, seq=2, control=mqc.MQCFC_LAST)]


def channel_event(reason: int, qmgr: str, channel: str, when: datetime, *,
                  xmitq: str = "", conname: str = "",
                  qualifier: int | None = None) -> Event:
    """Channel Started / Channel Stopped (By User) on SYSTEM.ADMIN.CHANNEL.EVENT."""
    data: list[pcf.Parameter] = [pcf.String(mqc.MQCA_Q_MGR_NAME, qmgr, width=48),
                                 pcf.String(mqc.MQCACH_CHANNEL_NAME, channel, width=20)]
    if xmitq:
        data.append(pcf.String(mqc.MQCACH_XMIT_Q_NAME, xmitq, width=48))
    if conname:
        data.append(pcf.String(mqc.MQCACH_CONNECTION_NAME, conname, width=264))
    if qualifier is not None:
        data.append(pcf.Integer(mqc.MQIACF_REASON_QUALIFIER, qualifier))
    return Event(EventSource(EVENT_QUEUES[mqc.MQCMD_CHANNEL_EVENT], "Queue", qmgr),
                 mqc.MQCMD_CHANNEL_EVENT, reason, when, data)
