"""Objects as configuration and command events carry them: every attribute as PCF.

The MQSC<->PCF tables of traceroute.status.attributes (queues, channels, the queue manager)
and tables for the other object kinds the simulator keeps (process, namelist, topic,
listener, service, authentication information, communication information). A queue's
attributes are those of its type in the order IBM MQ 9.4 writes them (the real captures
2367/2368/2369: its strings, its dates, then its integers, the queue type last); other
kinds in their table's order. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping

from pcf import mqc
from pcf.model import Integer, Parameter, String
from traceroute.status.attributes import (
    INT,
    LIST,
    STR,
    WORD,
    Attribute,
    table_for,
    to_parameters,
)

CAP_EXPIRY = mqc.MQIA_CAP_EXPIRY  # MQ 9.3 (pcf.mqc has MQ 9.4's names now)


def _w(**words: int) -> dict[str, int]:
    return dict(words)


def _table(*rows: Attribute) -> dict[str, Attribute]:
    return {a.keyword: a for a in rows}


#: Queue attributes beyond traceroute.status.attributes' (IMGRCOVQ, MAXFSIZE, CAPEXPRY are
#: there now): none.
_QUEUE_EXTRA: dict[str, Attribute] = {}
_CONTROL = _w(QMGR=mqc.MQSVC_CONTROL_Q_MGR, STARTONLY=mqc.MQSVC_CONTROL_Q_MGR_START,
              MANUAL=mqc.MQSVC_CONTROL_MANUAL)
OTHER_TABLES: dict[str, dict[str, Attribute]] = {
    "PROCESS": _table(
        Attribute("DESCR", mqc.MQCA_PROCESS_DESC, width=64),
        Attribute("APPLICID", mqc.MQCA_APPL_ID, width=256),
        Attribute("ENVRDATA", mqc.MQCA_ENV_DATA, width=128),
        Attribute("USERDATA", mqc.MQCA_USER_DATA, width=128),
        Attribute("APPLTYPE", mqc.MQIA_APPL_TYPE, WORD,
                  _w(UNIX=mqc.MQAT_UNIX, WINDOWSNT=mqc.MQAT_WINDOWS_NT, CICS=mqc.MQAT_CICS,
                     IMS=mqc.MQAT_IMS, OS400=mqc.MQAT_OS400, DEF=mqc.MQAT_DEFAULT))),
    "NAMELIST": _table(
        Attribute("DESCR", mqc.MQCA_NAMELIST_DESC, width=64),
        Attribute("NAMES", mqc.MQCA_NAMES, LIST)),
    "TOPIC": _table(
        Attribute("TOPICSTR", mqc.MQCA_TOPIC_STRING, width=0),
        Attribute("DESCR", mqc.MQCA_TOPIC_DESC, width=64),
        Attribute("CLUSTER", mqc.MQCA_CLUSTER_NAME),
        Attribute("MDURMDL", mqc.MQCA_MODEL_DURABLE_Q),
        Attribute("MNDURMDL", mqc.MQCA_MODEL_NON_DURABLE_Q),
        Attribute("CUSTOM", mqc.MQCA_CUSTOM, width=128)),
    "LISTENER": _table(
        Attribute("DESCR", mqc.MQCACH_LISTENER_DESC, width=64),
        Attribute("IPADDR", mqc.MQCACH_IP_ADDRESS, width=48),
        Attribute("TRPTYPE", mqc.MQIACH_XMIT_PROTOCOL_TYPE, WORD,
                  _w(TCP=mqc.MQXPT_TCP, LU62=mqc.MQXPT_LU62, NETBIOS=mqc.MQXPT_NETBIOS,
                     SPX=mqc.MQXPT_SPX)),
        Attribute("PORT", mqc.MQIACH_PORT, INT),
        Attribute("BACKLOG", mqc.MQIACH_BACKLOG, INT),
        Attribute("CONTROL", mqc.MQIACH_LISTENER_CONTROL, WORD, _CONTROL)),
    "SERVICE": _table(
        Attribute("DESCR", mqc.MQCA_SERVICE_DESC, width=64),
        Attribute("STARTCMD", mqc.MQCA_SERVICE_START_COMMAND, width=256),
        Attribute("STARTARG", mqc.MQCA_SERVICE_START_ARGS, width=256),
        Attribute("STOPCMD", mqc.MQCA_SERVICE_STOP_COMMAND, width=256),
        Attribute("STOPARG", mqc.MQCA_SERVICE_STOP_ARGS, width=256),
        Attribute("STDOUT", mqc.MQCA_STDOUT_DESTINATION, width=256),
        Attribute("STDERR", mqc.MQCA_STDERR_DESTINATION, width=256),
        Attribute("SERVTYPE", mqc.MQIA_SERVICE_TYPE, WORD,
                  _w(COMMAND=mqc.MQSVC_TYPE_COMMAND, SERVER=mqc.MQSVC_TYPE_SERVER)),
        Attribute("CONTROL", mqc.MQIA_SERVICE_CONTROL, WORD, _CONTROL)),
    "AUTHINFO": _table(
        Attribute("DESCR", mqc.MQCA_AUTH_INFO_DESC, width=64),
        Attribute("CONNAME", mqc.MQCA_AUTH_INFO_CONN_NAME, width=264),
        Attribute("AUTHTYPE", mqc.MQIA_AUTH_INFO_TYPE, WORD,
                  _w(CRLLDAP=mqc.MQAIT_CRL_LDAP, OCSP=mqc.MQAIT_OCSP,
                     IDPWOS=mqc.MQAIT_IDPW_OS, IDPWLDAP=mqc.MQAIT_IDPW_LDAP)),
        Attribute("CHCKLOCL", mqc.MQIA_CHECK_LOCAL_BINDING, WORD, _CHECK := _w(
            NONE=mqc.MQCHK_NONE, OPTIONAL=mqc.MQCHK_OPTIONAL, REQUIRED=mqc.MQCHK_REQUIRED,
            REQDADM=mqc.MQCHK_REQUIRED_ADMIN, ASQMGR=mqc.MQCHK_AS_Q_MGR)),
        Attribute("CHCKCLNT", mqc.MQIA_CHECK_CLIENT_BINDING, WORD, _CHECK),
        Attribute("ADOPTCTX", mqc.MQIA_ADOPT_CONTEXT, WORD,
                  _w(YES=mqc.MQADPCTX_YES, NO=mqc.MQADPCTX_NO))),
    "COMMINFO": _table(
        Attribute("DESCR", mqc.MQCA_COMM_INFO_DESC, width=64),
        Attribute("GRPADDR", mqc.MQCACH_GROUP_ADDRESS, width=264),
        Attribute("PORT", mqc.MQIACH_PORT, INT)),
}

#: Word attributes of OTHER_TABLES whose word set is not all MQ takes: a process's
#: APPLTYPE is also a number (a user-defined application type, 65536-999999999).
_UNCHECKED_OTHER = frozenset({"APPLTYPE"})


def other_words(kind: str) -> dict[str, Attribute]:
    """The word attributes of the object kinds kept here (LISTENER TRPTYPE/CONTROL, SERVICE
    SERVTYPE/CONTROL, AUTHINFO AUTHTYPE/CHCKLOCL/CHCKCLNT/ADOPTCTX), by MQSC keyword: as
    `traceroute.status.attributes.words` for queues, channels and the queue manager."""
    return {k: a for k, a in OTHER_TABLES.get(kind, {}).items()
            if a.kind == WORD and a.words and not a.readonly and k not in _UNCHECKED_OTHER}


#: kind -> (MQOT_* object type, the parameter naming the object, its width)
OBJECT: dict[str, tuple[int, int, int]] = {
    **{k: (mqc.MQOT_Q, mqc.MQCA_Q_NAME, 48) for k in ("QLOCAL", "QMODEL", "QALIAS",
                                                       "QREMOTE")},
    "CHANNEL": (mqc.MQOT_CHANNEL, mqc.MQCACH_CHANNEL_NAME, 20),
    "PROCESS": (mqc.MQOT_PROCESS, mqc.MQCA_PROCESS_NAME, 48),
    "NAMELIST": (mqc.MQOT_NAMELIST, mqc.MQCA_NAMELIST_NAME, 48),
    "TOPIC": (mqc.MQOT_TOPIC, mqc.MQCA_TOPIC_NAME, 48),
    "AUTHINFO": (mqc.MQOT_AUTH_INFO, mqc.MQCA_AUTH_INFO_NAME, 48),
    "LISTENER": (mqc.MQOT_LISTENER, mqc.MQCACH_LISTENER_NAME, 48),
    "SERVICE": (mqc.MQOT_SERVICE, mqc.MQCA_SERVICE_NAME, 32),
    "COMMINFO": (mqc.MQOT_COMM_INFO, mqc.MQCA_COMM_INFO_NAME, 48),
    "CFSTRUCT": (mqc.MQOT_CF_STRUC, mqc.MQCA_CF_STRUC_NAME, 12),
    "STGCLASS": (mqc.MQOT_STORAGE_CLASS, mqc.MQCA_STORAGE_CLASS, 8),
    "QMGR": (mqc.MQOT_Q_MGR, mqc.MQCA_Q_MGR_NAME, 48),
}
QUEUE_TYPES = {"QLOCAL": mqc.MQQT_LOCAL, "QMODEL": mqc.MQQT_MODEL, "QALIAS": mqc.MQQT_ALIAS,
               "QREMOTE": mqc.MQQT_REMOTE}

#: A local queue's parameters in the order IBM MQ 9.4 writes them in configuration events
#: (the captures 2368 and 2369).
QLOCAL_ORDER: tuple[int, ...] = (
    mqc.MQCA_Q_DESC, mqc.MQCA_PROCESS_NAME, mqc.MQCA_BACKOUT_REQ_Q_NAME,
    mqc.MQCA_INITIATION_Q_NAME, mqc.MQCA_TRIGGER_DATA, mqc.MQCA_CLUS_CHL_NAME,
    mqc.MQCA_CUSTOM, mqc.MQCA_CLUSTER_NAME, mqc.MQCA_CLUSTER_NAMELIST,
    mqc.MQCA_STREAM_QUEUE_NAME, mqc.MQCA_CREATION_DATE, mqc.MQCA_CREATION_TIME,
    mqc.MQCA_ALTERATION_DATE, mqc.MQCA_ALTERATION_TIME, mqc.MQIA_INHIBIT_GET,
    mqc.MQIA_INHIBIT_PUT, mqc.MQIA_DEF_PRIORITY, mqc.MQIA_DEF_PERSISTENCE,
    mqc.MQIA_MAX_Q_DEPTH, mqc.MQIA_MAX_MSG_LENGTH, mqc.MQIA_BACKOUT_THRESHOLD,
    mqc.MQIA_SHAREABILITY, mqc.MQIA_DEF_INPUT_OPEN_OPTION, mqc.MQIA_HARDEN_GET_BACKOUT,
    mqc.MQIA_MSG_DELIVERY_SEQUENCE, mqc.MQIA_RETENTION_INTERVAL, mqc.MQIA_USAGE,
    mqc.MQIA_TRIGGER_CONTROL, mqc.MQIA_TRIGGER_TYPE, mqc.MQIA_TRIGGER_DEPTH,
    mqc.MQIA_TRIGGER_MSG_PRIORITY, mqc.MQIA_Q_DEPTH_HIGH_LIMIT, mqc.MQIA_Q_DEPTH_LOW_LIMIT,
    mqc.MQIA_Q_DEPTH_MAX_EVENT, mqc.MQIA_Q_DEPTH_HIGH_EVENT, mqc.MQIA_Q_DEPTH_LOW_EVENT,
    mqc.MQIA_Q_SERVICE_INTERVAL, mqc.MQIA_Q_SERVICE_INTERVAL_EVENT, mqc.MQIA_DIST_LISTS,
    mqc.MQIA_NPM_CLASS, mqc.MQIA_STATISTICS_Q, mqc.MQIA_ACCOUNTING_Q, mqc.MQIA_MONITORING_Q,
    mqc.MQIA_SCOPE, mqc.MQIA_DEF_BIND, mqc.MQIA_CLWL_Q_RANK, mqc.MQIA_CLWL_Q_PRIORITY,
    mqc.MQIA_CLWL_USEQ, mqc.MQIA_DEF_PUT_RESPONSE_TYPE, mqc.MQIA_DEF_READ_AHEAD,
    mqc.MQIA_PROPERTY_CONTROL, mqc.MQIA_MEDIA_IMAGE_RECOVER_Q, mqc.MQIA_MAX_Q_FILE_SIZE,
    mqc.MQIA_STREAM_QUEUE_QOS, CAP_EXPIRY, mqc.MQIA_DEFINITION_TYPE)
#: A remote queue's (the capture 2367); an alias queue's likewise, with its base [mq].
QREMOTE_ORDER: tuple[int, ...] = (
    mqc.MQCA_Q_DESC, mqc.MQCA_REMOTE_Q_NAME, mqc.MQCA_REMOTE_Q_MGR_NAME, mqc.MQCA_XMIT_Q_NAME,
    mqc.MQCA_CUSTOM, mqc.MQCA_CLUSTER_NAME, mqc.MQCA_CLUSTER_NAMELIST,
    mqc.MQCA_ALTERATION_DATE, mqc.MQCA_ALTERATION_TIME, mqc.MQIA_INHIBIT_PUT,
    mqc.MQIA_DEF_PRIORITY, mqc.MQIA_DEF_PERSISTENCE, mqc.MQIA_SCOPE, mqc.MQIA_DEF_BIND,
    mqc.MQIA_CLWL_Q_RANK, mqc.MQIA_CLWL_Q_PRIORITY, CAP_EXPIRY,
    mqc.MQIA_DEF_PUT_RESPONSE_TYPE)
QALIAS_ORDER: tuple[int, ...] = (
    mqc.MQCA_Q_DESC, mqc.MQCA_BASE_OBJECT_NAME, mqc.MQCA_CUSTOM, mqc.MQCA_CLUSTER_NAME,
    mqc.MQCA_CLUSTER_NAMELIST, mqc.MQCA_ALTERATION_DATE, mqc.MQCA_ALTERATION_TIME,
    mqc.MQIA_INHIBIT_GET, mqc.MQIA_INHIBIT_PUT, mqc.MQIA_DEF_PRIORITY,
    mqc.MQIA_DEF_PERSISTENCE, mqc.MQIA_SCOPE, mqc.MQIA_DEF_BIND, mqc.MQIA_CLWL_Q_RANK,
    mqc.MQIA_CLWL_Q_PRIORITY, CAP_EXPIRY, mqc.MQIA_DEF_PUT_RESPONSE_TYPE,
    mqc.MQIA_DEF_READ_AHEAD, mqc.MQIA_PROPERTY_CONTROL, mqc.MQIA_BASE_TYPE)
#: Each queue type's order (a model queue: a local one's, without dates it has not).
QUEUE_ORDER: dict[str, tuple[int, ...]] = {
    "QLOCAL": QLOCAL_ORDER, "QREMOTE": QREMOTE_ORDER, "QALIAS": QALIAS_ORDER,
    "QMODEL": tuple(p for p in QLOCAL_ORDER if p not in (
        mqc.MQCA_CREATION_DATE, mqc.MQCA_CREATION_TIME, mqc.MQCA_CLUS_CHL_NAME,
        mqc.MQCA_CLUSTER_NAME, mqc.MQCA_CLUSTER_NAMELIST, mqc.MQIA_SCOPE,
        mqc.MQIA_DEF_BIND, mqc.MQIA_CLWL_Q_RANK, mqc.MQIA_CLWL_Q_PRIORITY))}
_RANKS = {kind: {p: i for i, p in enumerate(order)} for kind, order in QUEUE_ORDER.items()}


def table(kind: str) -> dict[str, Attribute]:
    """Every attribute of an object kind this module can write (MQSC keyword -> Attribute)."""
    if kind in QUEUE_TYPES:
        return {**table_for(kind), **_QUEUE_EXTRA}
    return table_for(kind) or OTHER_TABLES.get(kind, {})


def parameters(kind: str, attrs: Mapping[str, str], *, whole: bool = True
               ) -> list[Parameter]:
    """The PCF parameters of an object's MQSC attributes (those PCF has a parameter for, in
    IBM's order for queues); keywords with no parameter or a value MQ does not take are
    left out. `whole`: the attributes are all the object's (a local queue is then
    DEFTYPE(PREDEFINED) unless they say otherwise); False: some a command named."""
    if whole and kind == "QLOCAL" and "DEFTYPE" not in attrs:  # a defined local queue is predefined
        attrs = {**attrs, "DEFTYPE": "PREDEFINED"}
    extra = _QUEUE_EXTRA if kind in QUEUE_TYPES else (
        {} if table_for(kind) else OTHER_TABLES.get(kind, {}))
    base, _left = to_parameters(kind, attrs)
    out = list(base)
    for keyword, a in extra.items():
        if keyword in attrs:
            p = _value(a, attrs[keyword])
            if p is not None:
                out.append(p)
    if kind in QUEUE_TYPES:
        rank = _RANKS[kind]
        out = sorted((p for p in out if p.parameter in rank), key=lambda p: rank[p.parameter])
        out.append(Integer(mqc.MQIA_Q_TYPE, QUEUE_TYPES[kind]))
    return out


def _value(a: Attribute, value: str) -> Parameter | None:
    if a.kind == STR:
        return String(a.param, value, width=a.width or None)
    if a.kind == LIST:
        from pcf.model import StringList

        return StringList(a.param, [v.strip() for v in value.split(",") if v.strip()],
                          width=48)
    if a.kind in (INT, WORD):
        word = a.words.get(value.upper())
        if word is not None:
            return Integer(a.param, word)
        try:
            return Integer(a.param, int(value))
        except ValueError:
            return None
    return None
