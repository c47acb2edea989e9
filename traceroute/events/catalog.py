"""Every event a queue manager writes: its name, reason, queue, switch and event data.

Seed 002's event chapters list the events (authority, inhibit, local, remote, start and
stop, channel and bridge, SSL, performance, configuration, command, logger); IBM's event
reference gives each one's event data: the PCF parameters in order, and which are returned
only sometimes [mq]. Where a real capture (../shared/vectors/amqsevt-json) shows the order
IBM MQ 9.4 writes, that order is kept here (Queue Manager Active, the channel events: the
channel name right after the queue manager's). `simulated` says whether the simulator
produces the event, and if not, why (the docs' table is made from it).

`build(kind, qmgr, values, when)` makes the Event with exactly these parameters: the ones
that are always returned must be given, optional ones appear only when given, nothing
else. Pure data and functions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

import pcf
from pcf import mqc
from traceroute.events.model import EVENT_QUEUES, Event, EventSource

STR, INT, BYTES, INTS = "MQCFST", "MQCFIN", "MQCFBS", "MQCFIL"

#: When an optional parameter is returned (IBM's wording, short).
CLIENT = "the application is a client (connected through a SVRCONN channel)"
OBJECT_QMGR = "the MQOD's ObjectQMgrName names another queue manager than this one"
SENDING = "a sender, server, cluster-sender or cluster-receiver channel"


@dataclass(frozen=True, slots=True)
class Param:
    """One event-data parameter: PCF id, IBM's name, type, string width, when returned."""

    id: int
    name: str
    type: str = STR
    width: int = 48
    returned: str = ""      # '' always; else the condition under which it is returned

    @property
    def optional(self) -> bool:
        """True when the parameter is not always returned."""
        return bool(self.returned)


@dataclass(frozen=True, slots=True)
class EventKind:
    """One event of IBM's event reference."""

    name: str               # "Unknown Object Name", "Not Authorized (type 2)" ...
    reason: int             # MQCFH Reason (MQRC_*)
    type: int               # MQCFH Command (MQCMD_*_EVENT)
    category: str           # IBM's event type: Local, Remote, Authority, Channel ...
    switch: str             # the queue-manager attribute that enables it (MQSC keyword)
    params: tuple[Param, ...]
    simulated: str = ""     # '' when the simulator produces it, else why it cannot
    exception: bool = False  # CHLEV(EXCEPTION) writes it too

    @property
    def queue(self) -> str:
        """The event queue it is put on."""
        return EVENT_QUEUES[self.type]


def _s(pid: int, name: str, width: int = 48, returned: str = "") -> Param:
    return Param(pid, name, STR, width, returned)


def _i(pid: int, name: str, returned: str = "") -> Param:
    return Param(pid, name, INT, 0, returned)


_QMGR = _s(mqc.MQCA_Q_MGR_NAME, "QMgrName")
_QNAME = _s(mqc.MQCA_Q_NAME, "QName")
_APPL = (_i(mqc.MQIA_APPL_TYPE, "ApplType"), _s(mqc.MQCACF_APPL_NAME, "ApplName", 28))
_OBJQMGR = _s(mqc.MQCACF_OBJECT_Q_MGR_NAME, "ObjectQMgrName", returned=OBJECT_QMGR)
_CLIENT = (_s(mqc.MQCACH_CONNECTION_NAME, "ConnName", 264, CLIENT),
           _s(mqc.MQCACH_CHANNEL_NAME, "ChannelName", 20, CLIENT))
_XMITQ = _s(mqc.MQCA_XMIT_Q_NAME, "XmitQName")
_QTYPE = _i(mqc.MQIA_Q_TYPE, "QType")
_RQ = _i(mqc.MQIACF_REASON_QUALIFIER, "ReasonQualifier")
_USER = _s(mqc.MQCACF_USER_IDENTIFIER, "UserIdentifier", 12)
_BASE = (_s(mqc.MQCA_BASE_OBJECT_NAME, "BaseObjectName"),)
_CHANNEL = _s(mqc.MQCACH_CHANNEL_NAME, "ChannelName", 20)
_CH_XMITQ = _s(mqc.MQCACH_XMIT_Q_NAME, "XmitQName", returned=SENDING)
_CH_CONN = _s(mqc.MQCACH_CONNECTION_NAME, "ConnectionName", 264,
              "the channel has a connection name (not for a generic START/STOP)")
_NO_PUBSUB = "publish/subscribe is not simulated"
_Q, _E, _CH = mqc.MQCMD_Q_MGR_EVENT, mqc.MQCMD_PERFM_EVENT, mqc.MQCMD_CHANNEL_EVENT


def _remote(name: str, reason: int, *middle: Param) -> EventKind:
    return EventKind(name, reason, _Q, "Remote", "REMOTEEV",
                     (_QMGR, _QNAME, *middle, *_APPL, _OBJQMGR, *_CLIENT))


def _authority(n: int, *params: Param, simulated: str = "") -> EventKind:
    return EventKind(f"Not Authorized (type {n})", mqc.MQRC_NOT_AUTHORIZED, _Q, "Authority",
                     "AUTHOREV", (_QMGR, _RQ, *params), simulated)


_PERF = (_QMGR, _s(mqc.MQCA_BASE_OBJECT_NAME, "BaseObjectName"),
         _i(mqc.MQIA_TIME_SINCE_RESET, "TimeSinceReset"),
         _i(mqc.MQIA_HIGH_Q_DEPTH, "HighQDepth"), _i(mqc.MQIA_MSG_ENQ_COUNT, "MsgEnqCount"),
         _i(mqc.MQIA_MSG_DEQ_COUNT, "MsgDeqCount"))
_CONTEXT = (_s(mqc.MQCACF_EVENT_USER_ID, "EventUserId", 12),
            _i(mqc.MQIACF_EVENT_ORIGIN, "EventOrigin"),
            _s(mqc.MQCACF_EVENT_Q_MGR, "EventQMgr"))
_TOPIC = _s(mqc.MQCA_TOPIC_STRING, "TopicString", 0)
_MSG = "EventOrigin is MQEVO_MSG (a command message on the command queue)"
#: Authority configuration events [mq: Change/Delete/Refresh Authority Record]: origin with
#: the queue manager first (as IBM lists it for these; no capture shows otherwise), the
#: command message's context, the record's identity (ObjectType MQOT_AUTH_REC, its
#: profile), then the authority record attributes [mq: "Authority Record attributes"].
_AUTH_RECORD = (
    _s(mqc.MQCACF_EVENT_Q_MGR, "EventQMgr"), _s(mqc.MQCACF_EVENT_USER_ID, "EventUserId", 12),
    _i(mqc.MQIACF_EVENT_ORIGIN, "EventOrigin"),
    Param(mqc.MQBACF_EVENT_ACCOUNTING_TOKEN, "EventAccountingToken", BYTES, 32, _MSG),
    _s(mqc.MQCACF_EVENT_APPL_IDENTITY, "EventApplIdentity", 32, _MSG),
    _i(mqc.MQIACF_EVENT_APPL_TYPE, "EventApplType", _MSG),
    _s(mqc.MQCACF_EVENT_APPL_NAME, "EventApplName", 28, _MSG),
    _s(mqc.MQCACF_EVENT_APPL_ORIGIN, "EventApplOrigin", 4, _MSG),
    _i(mqc.MQIACF_OBJECT_TYPE, "ObjectType"),
    _s(mqc.MQCACF_AUTH_PROFILE_NAME, "ProfileName"),
    _i(mqc.MQIACF_AUTH_REC_TYPE, "AuthorityRecordType"),
    Param(mqc.MQIACF_AUTHORIZATION_LIST, "AuthorizationList", INTS, 0),
    _s(mqc.MQCACF_ENTITY_NAME, "EntityName", 0),
    _i(mqc.MQIACF_ENTITY_TYPE, "EntityType"))

#: Every event of seed 002's event chapters.
EVENTS: tuple[EventKind, ...] = (
    # --- queue manager events: authority (Multiplatforms) ---------------------------------
    _authority(1, _USER, *_APPL, *_CLIENT,
               _s(mqc.MQCACF_CSP_USER_IDENTIFIER, "CSPUserIdentifier", 1024,
                  "ReasonQualifier is MQRQ_CSP_NOT_AUTHORIZED")),
    _authority(2, _i(mqc.MQIACF_OPEN_OPTIONS, "Options"), _USER, *_APPL, _OBJQMGR, _QNAME,
               *_CLIENT),
    _authority(3, _i(mqc.MQIACF_CLOSE_OPTIONS, "Options"), _USER, *_APPL, _QNAME, *_CLIENT),
    _authority(4, _i(mqc.MQIACF_COMMAND, "Command"), _USER),
    _authority(5, _i(mqc.MQIACF_SUB_OPTIONS, "Options"), _USER, *_APPL, _TOPIC, *_CLIENT),
    _authority(6, _i(mqc.MQIACF_SUB_OPTIONS, "Options"), _USER, *_APPL, _TOPIC,
               _s(mqc.MQCACF_OBJECT_Q_MGR_NAME, "DestQMgrName",
                  returned="the destination queue is on another queue manager"),
               _s(mqc.MQCA_Q_NAME, "DestQName"), _i(mqc.MQIACF_OPEN_OPTIONS, "DestOpenOptions"),
               *_CLIENT),
    # --- inhibit --------------------------------------------------------------------------
    EventKind("Get Inhibited", mqc.MQRC_GET_INHIBITED, _Q, "Inhibit", "INHIBTEV",
              (_QMGR, _QNAME, *_APPL, *_CLIENT)),
    EventKind("Put Inhibited", mqc.MQRC_PUT_INHIBITED, _Q, "Inhibit", "INHIBTEV",
              (_QMGR, _QNAME, *_APPL, _OBJQMGR,
               _s(mqc.MQCA_TOPIC_STRING, "TopicString", 0, "the put was to a topic"),
               *_CLIENT)),
    # --- local ----------------------------------------------------------------------------
    EventKind("Alias Base Queue Type Error", mqc.MQRC_ALIAS_BASE_Q_TYPE_ERROR, _Q, "Local",
              "LOCALEV", (_QMGR, _QNAME, *_BASE, *_APPL, _OBJQMGR, *_CLIENT,
                          _i(mqc.MQIA_BASE_TYPE, "BaseType"))),
    EventKind("Unknown Alias Base Queue", mqc.MQRC_UNKNOWN_ALIAS_BASE_Q, _Q, "Local",
              "LOCALEV", (_QMGR, _QNAME, *_BASE, *_APPL, _OBJQMGR, *_CLIENT,
                          _i(mqc.MQIA_BASE_TYPE, "BaseType"))),
    EventKind("Unknown Object Name", mqc.MQRC_UNKNOWN_OBJECT_NAME, _Q, "Local", "LOCALEV",
              (_QMGR, *_APPL, _s(mqc.MQCA_Q_NAME, "QName", returned="a queue was opened"),
               _s(mqc.MQCA_PROCESS_NAME, "ProcessName", returned="a process was opened"),
               _OBJQMGR, *_CLIENT)),
    # --- remote ---------------------------------------------------------------------------
    _remote("Default Transmission Queue Type Error", mqc.MQRC_DEF_XMIT_Q_TYPE_ERROR,
            _XMITQ, _QTYPE),
    _remote("Default Transmission Queue Usage Error", mqc.MQRC_DEF_XMIT_Q_USAGE_ERROR, _XMITQ),
    _remote("Queue Type Error", mqc.MQRC_Q_TYPE_ERROR),
    _remote("Remote Queue Name Error", mqc.MQRC_REMOTE_Q_NAME_ERROR),
    _remote("Transmission Queue Type Error", mqc.MQRC_XMIT_Q_TYPE_ERROR, _XMITQ, _QTYPE),
    _remote("Transmission Queue Usage Error", mqc.MQRC_XMIT_Q_USAGE_ERROR, _XMITQ),
    _remote("Unknown Default Transmission Queue", mqc.MQRC_UNKNOWN_DEF_XMIT_Q, _XMITQ),
    _remote("Unknown Remote Queue Manager", mqc.MQRC_UNKNOWN_REMOTE_Q_MGR),
    _remote("Unknown Transmission Queue", mqc.MQRC_UNKNOWN_XMIT_Q, _XMITQ),
    # --- start and stop -------------------------------------------------------------------
    EventKind("Queue Manager Active", mqc.MQRC_Q_MGR_ACTIVE, _Q, "Start And Stop", "STRSTPEV",
              (_QMGR, _s(mqc.MQCACF_HOST_NAME, "HostName", 0), _RQ)),
    EventKind("Queue Manager Not Active", mqc.MQRC_Q_MGR_NOT_ACTIVE, _Q, "Start And Stop",
              "STRSTPEV", (_QMGR, _RQ)),
    # --- channel and bridge ---------------------------------------------------------------
    EventKind("Channel Activated", mqc.MQRC_CHANNEL_ACTIVATED, _CH, "Channel", "CHLEV",
              (_QMGR, _CHANNEL, _CH_XMITQ, _CH_CONN), exception=True),
    EventKind("Channel Not Activated", mqc.MQRC_CHANNEL_NOT_ACTIVATED, _CH, "Channel",
              "CHLEV", (_QMGR, _CHANNEL, _CH_XMITQ, _CH_CONN), exception=True),
    EventKind("Channel Auto-definition OK", mqc.MQRC_CHANNEL_AUTO_DEF_OK, _CH, "Channel",
              "CHADEV", (_QMGR, _CHANNEL, _i(mqc.MQIACH_CHANNEL_TYPE, "ChannelType"),
                         _s(mqc.MQCACH_CONNECTION_NAME, "ConnectionName", 264))),
    EventKind("Channel Auto-definition Error", mqc.MQRC_CHANNEL_AUTO_DEF_ERROR, _CH,
              "Channel", "CHADEV",
              (_QMGR, _CHANNEL, _i(mqc.MQIACH_CHANNEL_TYPE, "ChannelType"),
               _i(mqc.MQIACF_ERROR_IDENTIFIER, "ErrorIdentifier"),
               _s(mqc.MQCACH_CONNECTION_NAME, "ConnectionName", 264))),
    EventKind("Channel Conversion Error", mqc.MQRC_CHANNEL_CONV_ERROR, _CH, "Channel", "CHLEV",
              (_QMGR, _CHANNEL, _CH_XMITQ, _CH_CONN,
               _i(mqc.MQIACF_CONV_REASON_CODE, "ConversionReasonCode"),
               _s(mqc.MQCACH_FORMAT_NAME, "Format", 8)), exception=True),
    EventKind("Channel Not Available", mqc.MQRC_CHANNEL_NOT_AVAILABLE, _CH, "Channel", "CHLEV",
              (_QMGR, _CHANNEL, _s(mqc.MQCACH_CONNECTION_NAME, "ConnectionName", 264), _RQ,
               _i(mqc.MQIA_ACTIVE_CHANNELS, "MaximumActiveChannels",
                  "ReasonQualifier is MQRQ_MAX_ACTIVE_CHANNELS"),
               _i(mqc.MQIA_MAX_CHANNELS, "MaximumChannels",
                  "ReasonQualifier is MQRQ_MAX_CHANNELS"),
               _i(mqc.MQIACH_MAX_INSTANCES, "MaximumInstances",
                  "ReasonQualifier is MQRQ_SVRCONN_INST_LIMIT"),
               _i(mqc.MQIACH_MAX_INSTS_PER_CLIENT, "MaximumClientInstances",
                  "ReasonQualifier is MQRQ_CLIENT_INST_LIMIT"))),
    EventKind("Channel Started", mqc.MQRC_CHANNEL_STARTED, _CH, "Channel", "CHLEV",
              (_QMGR, _CHANNEL, _CH_XMITQ, _CH_CONN)),
    EventKind("Channel Stopped", mqc.MQRC_CHANNEL_STOPPED, _CH, "Channel", "CHLEV",
              (_QMGR, _CHANNEL, _CH_XMITQ, _CH_CONN, _RQ,
               _i(mqc.MQIACF_ERROR_IDENTIFIER, "ErrorIdentifier"),
               _i(mqc.MQIACF_AUX_ERROR_DATA_INT_1, "AuxErrorDataInt1"),
               _i(mqc.MQIACF_AUX_ERROR_DATA_INT_2, "AuxErrorDataInt2"),
               _s(mqc.MQCACF_AUX_ERROR_DATA_STR_1, "AuxErrorDataStr1", 0),
               _s(mqc.MQCACF_AUX_ERROR_DATA_STR_2, "AuxErrorDataStr2", 0),
               _s(mqc.MQCACF_AUX_ERROR_DATA_STR_3, "AuxErrorDataStr3", 0)), exception=True),
    EventKind("Channel Stopped By User", mqc.MQRC_CHANNEL_STOPPED_BY_USER, _CH, "Channel",
              "CHLEV", (_QMGR, _CHANNEL, _RQ), exception=True),
    EventKind("Channel Blocked", mqc.MQRC_CHANNEL_BLOCKED, _CH, "Channel", "CHLEV",
              (_QMGR, _s(mqc.MQCACH_CHANNEL_NAME, "ChannelName", 20,
                         "the channel name is known (not for BLOCKADDR)"),
               _s(mqc.MQCACH_CONNECTION_NAME, "ConnectionName", 264), _RQ,
               _s(mqc.MQCACF_USER_IDENTIFIER, "UserIdentifier", 12,
                  "ReasonQualifier is MQRQ_CHANNEL_BLOCKED_USERID or _NOACCESS"),
               _s(mqc.MQCA_REMOTE_Q_MGR_NAME, "RemoteQMgrName",
                  returned="the partner is a queue manager"),
               _s(mqc.MQCACH_CLIENT_USER_ID, "ClientUserIdentifier", 12,
                  "the partner is a client"),
               _i(mqc.MQIA_APPL_TYPE, "ApplType", "the partner is a client"),
               _s(mqc.MQCACF_APPL_NAME, "ApplName", 28, "the partner is a client")),
              exception=True),
    EventKind("Channel SSL Error", mqc.MQRC_CHANNEL_SSL_ERROR, _CH, "SSL", "SSLEV",
              (_QMGR, _CHANNEL, _CH_XMITQ, _CH_CONN, _RQ,
               _s(mqc.MQCACH_SSL_HANDSHAKE_STAGE, "SSLHandshakeStage", 32,
                  "ReasonQualifier is MQRQ_SSL_HANDSHAKE_ERROR"),
               _i(mqc.MQIACH_SSL_RETURN_CODE, "SSLReturnCode",
                  "ReasonQualifier is MQRQ_SSL_HANDSHAKE_ERROR"),
               _s(mqc.MQCACH_SSL_PEER_NAME, "SSLPeerName", 1024,
                  "ReasonQualifier is MQRQ_SSL_PEER_NAME_ERROR"))),
    EventKind("Channel SSL Warning", mqc.MQRC_CHANNEL_SSL_WARNING, _CH, "SSL", "SSLEV",
              (_QMGR, _CHANNEL, _CH_XMITQ, _CH_CONN, _RQ),
              "certificates (their expiry, revocation) are not simulated"),
    EventKind("Bridge Started", mqc.MQRC_BRIDGE_STARTED, _CH, "IMS Bridge", "BRIDGEEV",
              (_QMGR, _s(mqc.MQCACF_BRIDGE_NAME, "BridgeName", 24)),
              "the IMS bridge exists on z/OS only"),
    EventKind("Bridge Stopped", mqc.MQRC_BRIDGE_STOPPED, _CH, "IMS Bridge", "BRIDGEEV",
              (_QMGR, _RQ, _s(mqc.MQCACF_BRIDGE_NAME, "BridgeName", 24)),
              "the IMS bridge exists on z/OS only"),
    # --- performance ----------------------------------------------------------------------
    *(EventKind(name, reason, _E, "Performance", "PERFMEV", _PERF) for name, reason in (
        ("Queue Depth High", mqc.MQRC_Q_DEPTH_HIGH), ("Queue Depth Low", mqc.MQRC_Q_DEPTH_LOW),
        ("Queue Full", mqc.MQRC_Q_FULL),
        ("Queue Service Interval High", mqc.MQRC_Q_SERVICE_INTERVAL_HIGH),
        ("Queue Service Interval OK", mqc.MQRC_Q_SERVICE_INTERVAL_OK))),
    # --- configuration, command, logger: their data is built in their own modules ---------
    *(EventKind(name, reason, mqc.MQCMD_CONFIG_EVENT, "Configuration", "CONFIGEV",
                (*_CONTEXT, _i(mqc.MQIACF_OBJECT_TYPE, "ObjectType")))
      for name, reason in (("Create Object", mqc.MQRC_CONFIG_CREATE_OBJECT),
                           ("Change Object", mqc.MQRC_CONFIG_CHANGE_OBJECT),
                           ("Delete Object", mqc.MQRC_CONFIG_DELETE_OBJECT),
                           ("Refresh Object", mqc.MQRC_CONFIG_REFRESH_OBJECT))),
    *(EventKind(name, reason, mqc.MQCMD_CONFIG_EVENT, "Configuration", "CONFIGEV",
                _AUTH_RECORD)
      for name, reason in (("Change Authority Record", mqc.MQRC_CONFIG_CHANGE_OBJECT),
                           ("Delete Authority Record", mqc.MQRC_CONFIG_DELETE_OBJECT),
                           ("Refresh Authority Record", mqc.MQRC_CONFIG_REFRESH_OBJECT))),
    EventKind("Command", mqc.MQRC_COMMAND_MQSC, mqc.MQCMD_COMMAND_EVENT, "Command", "CMDEV",
              (Param(mqc.MQGACF_COMMAND_CONTEXT, "CommandContext", "MQCFGR"),
               Param(mqc.MQGACF_COMMAND_DATA, "CommandData", "MQCFGR"))),
    EventKind("Command (PCF)", mqc.MQRC_COMMAND_PCF, mqc.MQCMD_COMMAND_EVENT, "Command",
              "CMDEV", (Param(mqc.MQGACF_COMMAND_CONTEXT, "CommandContext", "MQCFGR"),
                        Param(mqc.MQGACF_COMMAND_DATA, "CommandData", "MQCFGR"))),
    EventKind("Logger", mqc.MQRC_LOGGER_STATUS, mqc.MQCMD_LOGGER_EVENT, "Logger", "LOGGEREV",
              (_QMGR, _s(mqc.MQCACF_CURRENT_LOG_EXTENT_NAME, "CurrentLogExtent", 24),
               _s(mqc.MQCACF_RESTART_LOG_EXTENT_NAME, "RestartLogExtent", 24),
               _s(mqc.MQCACF_MEDIA_LOG_EXTENT_NAME, "MediaLogExtent", 24),
               _s(mqc.MQCACF_ARCHIVE_LOG_EXTENT_NAME, "ArchiveLogExtent", 24,
                  "log management is Archive (ARCHLOG)"),
               _s(mqc.MQCACF_LOG_PATH, "LogPath", 1024))),
)

#: Optional parameters of events the simulator produces that it never fills, and why (the
#: docs list them; every other optional parameter is produced when its condition holds).
NOT_SIMULATED_PARAMETERS: dict[tuple[str, str], str] = {
    ("Unknown Object Name", "ProcessName"):
        "the simulated applications open queues and topics, never a process definition "
        "(an MQOPEN of a process for MQINQ)",
    ("Channel SSL Error", "XmitQName"):
        "the simulator finds a TLS failure (a CipherSpec mismatch) at the receiving end, "
        "whose channel has no transmission queue",
    ("Channel SSL Error", "SSLHandshakeStage"):
        "TLS handshakes are not simulated (their stages, GSKit return codes): only a "
        "CipherSpec mismatch, MQRQ_SSL_CIPHER_SPEC_ERROR",
    ("Channel SSL Error", "SSLReturnCode"):
        "TLS handshakes are not simulated (their stages, GSKit return codes): only a "
        "CipherSpec mismatch, MQRQ_SSL_CIPHER_SPEC_ERROR",
    ("Channel SSL Error", "SSLPeerName"):
        "certificates (their distinguished names, SSLPEER matching) are not simulated",
}

#: Events by name.
BY_NAME: dict[str, EventKind] = {e.name: e for e in EVENTS}
#: Events by MQCFH reason (Not Authorized: type 2, the MQOPEN one; see BY_NAME for others).
BY_REASON: dict[int, EventKind] = {}
for _e in EVENTS:
    BY_REASON.setdefault(_e.reason, _e)
#: The authority configuration events by MQCFH reason (their ObjectType is MQOT_AUTH_REC).
_AUTH_BY_REASON: dict[int, EventKind] = {
    e.reason: e for e in EVENTS if e.name.endswith("Authority Record")}
#: The Not Authorized type of each MQRQ_* qualifier.
AUTHORITY_TYPES: dict[int, int] = {
    mqc.MQRQ_CONN_NOT_AUTHORIZED: 1, mqc.MQRQ_SYS_CONN_NOT_AUTHORIZED: 1,
    mqc.MQRQ_CSP_NOT_AUTHORIZED: 1, mqc.MQRQ_OPEN_NOT_AUTHORIZED: 2,
    mqc.MQRQ_CLOSE_NOT_AUTHORIZED: 3, mqc.MQRQ_CMD_NOT_AUTHORIZED: 4,
    mqc.MQRQ_SUB_NOT_AUTHORIZED: 5, mqc.MQRQ_SUB_DEST_NOT_AUTHORIZED: 6}


class MissingParameter(ValueError):
    """An always-returned parameter of an event was not given."""


def kind_of(event: Event) -> EventKind | None:
    """The catalog entry of an event (Not Authorized by its ReasonQualifier)."""
    if event.reason == mqc.MQRC_NOT_AUTHORIZED:
        qualifier = event.get(mqc.MQIACF_REASON_QUALIFIER)
        n = AUTHORITY_TYPES.get(qualifier) if isinstance(qualifier, int) else None
        return BY_NAME.get(f"Not Authorized (type {n})") if n else None
    if event.type == mqc.MQCMD_CONFIG_EVENT \
            and event.get(mqc.MQIACF_OBJECT_TYPE) == mqc.MQOT_AUTH_REC:
        return _AUTH_BY_REASON.get(event.reason)
    kind = BY_REASON.get(event.reason)
    return kind if kind is not None and kind.type == event.type else None


def build(kind: EventKind, qmgr: str, values: Mapping[str, object], when: datetime | None,
          *, correl_id: bytes | None = None) -> Event:
    """The Event of `kind` on `qmgr`: `values` by IBM's parameter names (QMgrName is
    `qmgr` unless given). Optional parameters appear when given (not None); MissingParameter
    when one that is always returned is missing; KeyError for a name the event has not."""
    unknown = set(values) - {p.name for p in kind.params}
    if unknown:
        raise KeyError(f"{kind.name} has no {', '.join(sorted(unknown))}")
    data: list[pcf.Parameter] = []
    for p in kind.params:
        value = values.get(p.name, qmgr if p.id == mqc.MQCA_Q_MGR_NAME else None)
        if value is None:
            if not p.optional:
                raise MissingParameter(f"{kind.name}: {p.name} is always returned")
            continue
        if isinstance(value, pcf.Parameter):  # given as PCF already (a message's context)
            data.append(value)
        elif p.type == INT:
            data.append(pcf.Integer(p.id, int(value)))  # type: ignore[call-overload]
        elif p.type == INTS:
            data.append(pcf.IntegerList(p.id, [int(v) for v in value]))  # type: ignore
        elif p.type == BYTES:
            data.append(pcf.ByteString(p.id, bytes(value)))  # type: ignore[call-overload]
        else:
            text = str(value)
            fits = p.width and len(text.encode("utf-8")) <= p.width
            data.append(pcf.String(p.id, text, width=p.width if fits else None))
    return Event(EventSource(kind.queue, "Queue", qmgr), kind.type, kind.reason, when, data,
                 correl_id=correl_id)
