"""Object attributes as MQSC names them and as PCF carries them, both ways.

One table per object type (queues, channels, the queue manager): the MQSC keyword, the PCF
parameter identifier of the Inquire responses (and of Create/Change commands), the kind of
value, and for words (DEFPSIST(YES), MONQ(QMGR) ...) the MQ constant each stands for.
Flag pairs (SHARE/NOSHARE, TRIGGER/NOTRIGGER, HARDENBO/NOHARDENBO) are kept as the MQSC
layer keeps them, SHARE(YES) / SHARE(NO) (`FLAGS`: how MQSC writes each), one integer in
PCF. `readonly` attributes (CRDATE, ALTDATE, CMDLEVEL ...)
are shown but cannot be set: dmpmqcfg writes them as comments, and so does `mqroute config`.
`secret` ones (a channel's PASSWORD, the queue manager's INITKEY and KEYRPWD, an MQTT
channel's SSLKEYP) are shown as asterisks when set (`masked`), never as their value.

The tables hold every attribute IBM's PCF reference gives the Inquire Queue Manager, Inquire
Queue and Inquire Channel responses that has an MQSC keyword (z/OS ones included), with
MQ 9.4's parameter identifiers (`pcf.mqc`).

Values in MQSC form are the strings `traceroute.sim.mqsc` keeps (upper-case words, numbers as
digits, names and descriptions as written, trailing blanks dropped).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from pcf import mqc
from pcf.model import ByteString, Integer, IntegerList, Parameter, String, StringList
from traceroute.status.words import CHANNEL_TYPE, MONITORING, reverse

STR, INT, WORD, LIST, WORDS, BYTES = "str", "int", "word", "list", "words", "bytes"
#: Flag keywords: the keyword MQSC writes for YES, and the one for NO.
FLAGS = {"SHARE": ("SHARE", "NOSHARE"), "TRIGGER": ("TRIGGER", "NOTRIGGER"),
         "HARDENBO": ("HARDENBO", "NOHARDENBO")}


@dataclass(frozen=True)
class Attribute:
    """One attribute: MQSC keyword(s), PCF parameter, kind, words, string width."""

    keyword: str
    param: int
    kind: str = STR
    words: Mapping[str, int] = field(default_factory=dict)
    width: int = 48
    readonly: bool = False
    secret: bool = False
    #: The numbers MQ takes for an INT attribute, (lowest, highest), besides its `words`
    #: (None: not checked). See `numbers`.
    limits: tuple[int, int] | None = None
    #: The PCF reason a command server gives for a value outside `limits`.
    reason: int = mqc.MQRCCF_PARM_VALUE_ERROR


def _c(name: str) -> int:
    return getattr(mqc, name)


def _w(**words: str | int) -> dict[str, int]:
    return {k: _c(v) if isinstance(v, str) else v for k, v in words.items()}


_YESNO = {"NO": 0, "YES": 1}
_ENABLED = _w(ENABLED="MQQA_GET_ALLOWED", DISABLED="MQQA_GET_INHIBITED")
_EVENT = _w(ENABLED="MQEVR_ENABLED", DISABLED="MQEVR_DISABLED")
_MON_OBJECT = {w: n for n, w in MONITORING.items() if w != "NONE"}
_MON_QMGR = {w: n for n, w in MONITORING.items() if w != "QMGR"}
_STAT_OBJECT = _w(QMGR="MQMON_Q_MGR", OFF="MQMON_OFF", ON="MQMON_ON")
_STAT_QMGR = _w(NONE="MQMON_NONE", OFF="MQMON_OFF", ON="MQMON_ON")
_RECORDING = _w(DISABLED="MQRECORDING_DISABLED", QUEUE="MQRECORDING_Q",
                MSG="MQRECORDING_MSG")


def _table(*rows: Attribute) -> dict[str, Attribute]:
    return {a.keyword: a for a in rows}


def _a(keyword: str, param: str, kind: str = STR, words: Mapping[str, int] | None = None,
       width: int = 48, readonly: bool = False, secret: bool = False) -> Attribute:
    return Attribute(keyword, _c(param), kind, dict(words or {}), width, readonly, secret)


def _limited(table: dict[str, Attribute], limits: Mapping[str, tuple]) -> dict[str, Attribute]:
    """`table` with each INT attribute named in `limits` given its range (and PCF reason)."""
    out = dict(table)
    for keyword, (low, high, *reason) in limits.items():
        a = out[keyword]
        assert a.kind == INT and not a.readonly, keyword
        out[keyword] = replace(a, limits=(low, high),
                               reason=_c(reason[0]) if reason else a.reason)
    return out


_QSGDISP = _w(QMGR="MQQSGD_Q_MGR", COPY="MQQSGD_COPY", SHARED="MQQSGD_SHARED",
              GROUP="MQQSGD_GROUP", PRIVATE="MQQSGD_PRIVATE")
_CAP = _w(YES="MQCAP_SUPPORTED", NO="MQCAP_NOT_SUPPORTED")


#: Queue attributes (QLOCAL, QMODEL, QALIAS, QREMOTE; each type has the ones it defines).
QUEUE = _table(
    _a("DESCR", "MQCA_Q_DESC", width=64),
    _a("PUT", "MQIA_INHIBIT_PUT", WORD, _w(ENABLED="MQQA_PUT_ALLOWED",
                                           DISABLED="MQQA_PUT_INHIBITED")),
    _a("GET", "MQIA_INHIBIT_GET", WORD, _ENABLED),
    _a("DEFPRTY", "MQIA_DEF_PRIORITY", INT),
    _a("DEFPSIST", "MQIA_DEF_PERSISTENCE", WORD, _w(NO="MQPER_NOT_PERSISTENT",
                                                    YES="MQPER_PERSISTENT")),
    _a("DEFPRESP", "MQIA_DEF_PUT_RESPONSE_TYPE", WORD, _w(SYNC="MQPRT_SYNC_RESPONSE",
                                                          ASYNC="MQPRT_ASYNC_RESPONSE")),
    _a("DEFREADA", "MQIA_DEF_READ_AHEAD", WORD, _w(NO="MQREADA_NO", YES="MQREADA_YES",
                                                   DISABLED="MQREADA_DISABLED")),
    _a("DEFBIND", "MQIA_DEF_BIND", WORD, _w(OPEN="MQBND_BIND_ON_OPEN",
                                            NOTFIXED="MQBND_BIND_NOT_FIXED",
                                            GROUP="MQBND_BIND_ON_GROUP")),
    _a("PROPCTL", "MQIA_PROPERTY_CONTROL", WORD, _w(
        COMPAT="MQPROP_COMPATIBILITY", NONE="MQPROP_NONE", ALL="MQPROP_ALL",
        FORCE="MQPROP_FORCE_MQRFH2", V6COMPAT="MQPROP_V6COMPAT")),
    _a("MAXDEPTH", "MQIA_MAX_Q_DEPTH", INT),
    _a("MAXMSGL", "MQIA_MAX_MSG_LENGTH", INT),
    _a("SHARE", "MQIA_SHAREABILITY", WORD, _w(YES="MQQA_SHAREABLE",
                                              NO="MQQA_NOT_SHAREABLE")),
    _a("DEFSOPT", "MQIA_DEF_INPUT_OPEN_OPTION", WORD, _w(EXCL="MQOO_INPUT_EXCLUSIVE",
                                                         SHARED="MQOO_INPUT_SHARED")),
    _a("MSGDLVSQ", "MQIA_MSG_DELIVERY_SEQUENCE", WORD, _w(PRIORITY="MQMDS_PRIORITY",
                                                          FIFO="MQMDS_FIFO")),
    _a("HARDENBO", "MQIA_HARDEN_GET_BACKOUT", WORD, _w(
        YES="MQQA_BACKOUT_HARDENED", NO="MQQA_BACKOUT_NOT_HARDENED")),
    _a("BOTHRESH", "MQIA_BACKOUT_THRESHOLD", INT),
    _a("BOQNAME", "MQCA_BACKOUT_REQ_Q_NAME"),
    _a("TRIGGER", "MQIA_TRIGGER_CONTROL", WORD, _w(YES="MQTC_ON", NO="MQTC_OFF")),
    _a("TRIGTYPE", "MQIA_TRIGGER_TYPE", WORD, _w(NONE="MQTT_NONE", FIRST="MQTT_FIRST",
                                                 EVERY="MQTT_EVERY", DEPTH="MQTT_DEPTH")),
    _a("TRIGDPTH", "MQIA_TRIGGER_DEPTH", INT),
    _a("TRIGMPRI", "MQIA_TRIGGER_MSG_PRIORITY", INT),
    _a("TRIGDATA", "MQCA_TRIGGER_DATA", width=64),
    _a("PROCESS", "MQCA_PROCESS_NAME"),
    _a("INITQ", "MQCA_INITIATION_Q_NAME"),
    _a("USAGE", "MQIA_USAGE", WORD, _w(NORMAL="MQUS_NORMAL", XMITQ="MQUS_TRANSMISSION")),
    _a("DEFTYPE", "MQIA_DEFINITION_TYPE", WORD, _w(
        PREDEFINED="MQQDT_PREDEFINED", PERMDYN="MQQDT_PERMANENT_DYNAMIC",
        TEMPDYN="MQQDT_TEMPORARY_DYNAMIC", SHAREDYN="MQQDT_SHARED_DYNAMIC")),
    _a("RETINTVL", "MQIA_RETENTION_INTERVAL", INT),
    _a("DISTL", "MQIA_DIST_LISTS", WORD, _w(NO="MQDL_NOT_SUPPORTED", YES="MQDL_SUPPORTED")),
    _a("NPMCLASS", "MQIA_NPM_CLASS", WORD, _w(NORMAL="MQNPM_CLASS_NORMAL",
                                              HIGH="MQNPM_CLASS_HIGH")),
    _a("QDEPTHHI", "MQIA_Q_DEPTH_HIGH_LIMIT", INT),
    _a("QDEPTHLO", "MQIA_Q_DEPTH_LOW_LIMIT", INT),
    _a("QDPHIEV", "MQIA_Q_DEPTH_HIGH_EVENT", WORD, _EVENT),
    _a("QDPLOEV", "MQIA_Q_DEPTH_LOW_EVENT", WORD, _EVENT),
    _a("QDPMAXEV", "MQIA_Q_DEPTH_MAX_EVENT", WORD, _EVENT),
    _a("QSVCINT", "MQIA_Q_SERVICE_INTERVAL", INT),
    _a("QSVCIEV", "MQIA_Q_SERVICE_INTERVAL_EVENT", WORD, _w(
        NONE="MQQSIE_NONE", HIGH="MQQSIE_HIGH", OK="MQQSIE_OK")),
    _a("MONQ", "MQIA_MONITORING_Q", WORD, _MON_OBJECT),
    _a("STATQ", "MQIA_STATISTICS_Q", WORD, _STAT_OBJECT),
    _a("ACCTQ", "MQIA_ACCOUNTING_Q", WORD, _STAT_OBJECT),
    _a("SCOPE", "MQIA_SCOPE", WORD, _w(QMGR="MQSCO_Q_MGR", CELL="MQSCO_CELL")),
    _a("CLUSTER", "MQCA_CLUSTER_NAME"),
    _a("CLUSNL", "MQCA_CLUSTER_NAMELIST"),
    _a("CLWLPRTY", "MQIA_CLWL_Q_PRIORITY", INT),
    _a("CLWLRANK", "MQIA_CLWL_Q_RANK", INT),
    _a("CLWLUSEQ", "MQIA_CLWL_USEQ", WORD, _w(QMGR="MQCLWL_USEQ_AS_Q_MGR",
                                              LOCAL="MQCLWL_USEQ_LOCAL",
                                              ANY="MQCLWL_USEQ_ANY")),
    _a("CLCHNAME", "MQCA_CLUS_CHL_NAME"),
    _a("TARGET", "MQCA_BASE_OBJECT_NAME"),
    _a("TARGTYPE", "MQIA_BASE_TYPE", WORD, _w(QUEUE="MQOT_Q", TOPIC="MQOT_TOPIC")),
    _a("RNAME", "MQCA_REMOTE_Q_NAME"),
    _a("RQMNAME", "MQCA_REMOTE_Q_MGR_NAME"),
    _a("XMITQ", "MQCA_XMIT_Q_NAME"),
    _a("CUSTOM", "MQCA_CUSTOM", width=128),
    _a("STREAMQ", "MQCA_STREAM_QUEUE_NAME"),
    _a("STRMQOS", "MQIA_STREAM_QUEUE_QOS", WORD, _w(BESTEF="MQST_BEST_EFFORT",
                                                    MUSTDUP="MQST_MUST_DUP")),
    _a("CAPEXPRY", "MQIA_CAP_EXPIRY", INT, _w(NOLIMIT="MQCEX_NOLIMIT")),
    _a("MAXFSIZE", "MQIA_MAX_Q_FILE_SIZE", INT, _w(DEFAULT="MQQFS_DEFAULT")),
    _a("IMGRCOVQ", "MQIA_MEDIA_IMAGE_RECOVER_Q", WORD, _w(
        QMGR="MQIMGRCOV_AS_Q_MGR", NO="MQIMGRCOV_NO", YES="MQIMGRCOV_YES")),
    _a("OTELTRAC", "MQIA_OTEL_TRACE", WORD, _w(QMGR="MQOTEL_TRACE_QMGR",
                                               OFF="MQOTEL_TRACE_OFF",
                                               ON="MQOTEL_TRACE_ON")),
    _a("OTELPCTL", "MQIA_OTEL_PROPAGATION_CONTROL", WORD, _w(
        QMGR="MQOTEL_PCTL_QMGR", MANUAL="MQOTEL_PCTL_MANUAL", AUTO="MQOTEL_PCTL_AUTO")),
    # z/OS: coupling facility structure, storage class, index type, disposition
    _a("CFSTRUCT", "MQCA_CF_STRUC_NAME", width=12),
    _a("STGCLASS", "MQCA_STORAGE_CLASS", width=8),
    _a("INDXTYPE", "MQIA_INDEX_TYPE", WORD, _w(
        NONE="MQIT_NONE", MSGID="MQIT_MSG_ID", CORRELID="MQIT_CORREL_ID",
        MSGTOKEN="MQIT_MSG_TOKEN", GROUPID="MQIT_GROUP_ID")),
    _a("QSGDISP", "MQIA_QSG_DISP", WORD, _QSGDISP),
    # what DISPLAY shows and no DEFINE sets
    _a("CRDATE", "MQCA_CREATION_DATE", width=12, readonly=True),
    _a("CRTIME", "MQCA_CREATION_TIME", width=8, readonly=True),
    _a("ALTDATE", "MQCA_ALTERATION_DATE", width=12, readonly=True),
    _a("ALTTIME", "MQCA_ALTERATION_TIME", width=8, readonly=True),
    _a("CURDEPTH", "MQIA_CURRENT_Q_DEPTH", INT, readonly=True),
    _a("IPPROCS", "MQIA_OPEN_INPUT_COUNT", INT, readonly=True),
    _a("OPPROCS", "MQIA_OPEN_OUTPUT_COUNT", INT, readonly=True),
    _a("CLUSDATE", "MQCA_CLUSTER_DATE", width=12, readonly=True),
    _a("CLUSTIME", "MQCA_CLUSTER_TIME", width=8, readonly=True),
    _a("CLUSQMGR", "MQCA_CLUSTER_Q_MGR_NAME", readonly=True),
    _a("CLUSQT", "MQIA_CLUSTER_Q_TYPE", WORD, _w(
        QLOCAL="MQCQT_LOCAL_Q", QALIAS="MQCQT_ALIAS_Q", QREMOTE="MQCQT_REMOTE_Q",
        QMGRALIAS="MQCQT_Q_MGR_ALIAS"), readonly=True),
    _a("QMID", "MQCA_Q_MGR_IDENTIFIER", readonly=True),
    _a("PSID", "MQIA_PAGESET_ID", INT, readonly=True),
    _a("TPIPE", "MQCA_TPIPE_NAME", LIST, width=8, readonly=True),
)

#: Channel attributes (every channel type; CHLTYPE first when written).
CHANNEL = _table(
    _a("CHLTYPE", "MQIACH_CHANNEL_TYPE", WORD, reverse(CHANNEL_TYPE)),
    _a("TRPTYPE", "MQIACH_XMIT_PROTOCOL_TYPE", WORD, _w(
        LU62="MQXPT_LU62", TCP="MQXPT_TCP", NETBIOS="MQXPT_NETBIOS", SPX="MQXPT_SPX",
        DECNET="MQXPT_DECNET", UDP="MQXPT_UDP")),
    _a("DESCR", "MQCACH_DESC", width=64),
    _a("CONNAME", "MQCACH_CONNECTION_NAME", width=264),
    _a("XMITQ", "MQCACH_XMIT_Q_NAME"),
    _a("MCANAME", "MQCACH_MCA_NAME", width=20),
    _a("MODENAME", "MQCACH_MODE_NAME", width=8),
    _a("TPNAME", "MQCACH_TP_NAME", width=64),
    _a("LOCLADDR", "MQCACH_LOCAL_ADDRESS"),
    _a("BATCHSZ", "MQIACH_BATCH_SIZE", INT),
    _a("BATCHINT", "MQIACH_BATCH_INTERVAL", INT),
    _a("BATCHHB", "MQIACH_BATCH_HB", INT),
    _a("BATCHLIM", "MQIACH_BATCH_DATA_LIMIT", INT),
    _a("DISCINT", "MQIACH_DISC_INTERVAL", INT),
    _a("SHORTRTY", "MQIACH_SHORT_RETRY", INT),
    _a("SHORTTMR", "MQIACH_SHORT_TIMER", INT),
    _a("LONGRTY", "MQIACH_LONG_RETRY", INT),
    _a("LONGTMR", "MQIACH_LONG_TIMER", INT),
    _a("HBINT", "MQIACH_HB_INTERVAL", INT),
    _a("KAINT", "MQIACH_KEEP_ALIVE_INTERVAL", INT, _w(AUTO="MQKAI_AUTO")),
    _a("SPLPROT", "MQIACH_SPL_PROTECTION", WORD, _w(PASSTHRU="MQSPL_PASSTHRU",
                                                    REMOVE="MQSPL_REMOVE",
                                                    ASPOLICY="MQSPL_AS_POLICY")),
    _a("USERID", "MQCACH_USER_ID", width=12),
    _a("SEQWRAP", "MQIACH_SEQUENCE_NUMBER_WRAP", INT),
    _a("MAXMSGL", "MQIACH_MAX_MSG_LENGTH", INT),
    _a("NPMSPEED", "MQIACH_NPM_SPEED", WORD, _w(NORMAL="MQNPMS_NORMAL", FAST="MQNPMS_FAST")),
    _a("CONVERT", "MQIACH_DATA_CONVERSION", WORD, _w(NO="MQCDC_NO_SENDER_CONVERSION",
                                                     YES="MQCDC_SENDER_CONVERSION")),
    _a("PUTAUT", "MQIACH_PUT_AUTHORITY", WORD, _w(
        DEF="MQPA_DEFAULT", CTX="MQPA_CONTEXT", ONLYMCA="MQPA_ONLY_MCA",
        ALTMCA="MQPA_ALTERNATE_OR_MCA")),
    _a("MCATYPE", "MQIACH_MCA_TYPE", WORD, _w(PROCESS="MQMCAT_PROCESS",
                                              THREAD="MQMCAT_THREAD")),
    _a("MCAUSER", "MQCACH_MCA_USER_ID", width=64),
    _a("MRDATA", "MQCACH_MR_EXIT_USER_DATA", width=32),
    _a("MREXIT", "MQCACH_MR_EXIT_NAME", width=128),
    _a("MRRTY", "MQIACH_MR_COUNT", INT),
    _a("MRTMR", "MQIACH_MR_INTERVAL", INT),
    _a("SCYEXIT", "MQCACH_SEC_EXIT_NAME", width=128),
    _a("SCYDATA", "MQCACH_SEC_EXIT_USER_DATA", width=32),
    _a("MSGEXIT", "MQCACH_MSG_EXIT_NAME", LIST, width=128),
    _a("MSGDATA", "MQCACH_MSG_EXIT_USER_DATA", LIST, width=32),
    _a("SENDEXIT", "MQCACH_SEND_EXIT_NAME", LIST, width=128),
    _a("SENDDATA", "MQCACH_SEND_EXIT_USER_DATA", LIST, width=32),
    _a("RCVEXIT", "MQCACH_RCV_EXIT_NAME", LIST, width=128),
    _a("RCVDATA", "MQCACH_RCV_EXIT_USER_DATA", LIST, width=32),
    _a("COMPHDR", "MQIACH_HDR_COMPRESSION", WORDS, _w(NONE="MQCOMPRESS_NONE",
                                                      SYSTEM="MQCOMPRESS_SYSTEM")),
    _a("COMPMSG", "MQIACH_MSG_COMPRESSION", WORDS, _w(
        NONE="MQCOMPRESS_NONE", RLE="MQCOMPRESS_RLE", ZLIBFAST="MQCOMPRESS_ZLIBFAST",
        ZLIBHIGH="MQCOMPRESS_ZLIBHIGH", ANY="MQCOMPRESS_ANY")),
    _a("MONCHL", "MQIA_MONITORING_CHANNEL", WORD, _MON_OBJECT),
    _a("STATCHL", "MQIA_STATISTICS_CHANNEL", WORD, _MON_OBJECT),
    _a("CLUSTER", "MQCA_CLUSTER_NAME"),
    _a("CLUSNL", "MQCA_CLUSTER_NAMELIST"),
    _a("NETPRTY", "MQIACH_NETWORK_PRIORITY", INT),
    _a("CLWLPRTY", "MQIACH_CLWL_CHANNEL_PRIORITY", INT),
    _a("CLWLRANK", "MQIACH_CLWL_CHANNEL_RANK", INT),
    _a("CLWLWGHT", "MQIACH_CLWL_CHANNEL_WEIGHT", INT),
    _a("SSLCIPH", "MQCACH_SSL_CIPHER_SPEC", width=32),
    _a("SSLPEER", "MQCACH_SSL_PEER_NAME", width=1024),
    _a("SSLCAUTH", "MQIACH_SSL_CLIENT_AUTH", WORD, _w(REQUIRED="MQSCA_REQUIRED",
                                                      OPTIONAL="MQSCA_OPTIONAL")),
    _a("CERTLABL", "MQCA_CERT_LABEL", width=64),
    _a("MAXINST", "MQIACH_MAX_INSTANCES", INT),
    _a("MAXINSTC", "MQIACH_MAX_INSTS_PER_CLIENT", INT),
    _a("SHARECNV", "MQIACH_SHARING_CONVERSATIONS", INT),
    _a("PROPCTL", "MQIA_PROPERTY_CONTROL", WORD, _w(
        COMPAT="MQPROP_COMPATIBILITY", NONE="MQPROP_NONE", ALL="MQPROP_ALL")),
    _a("USEDLQ", "MQIA_USE_DEAD_LETTER_Q", WORD, _w(NO="MQUSEDLQ_NO", YES="MQUSEDLQ_YES")),
    # MQ shows a password as asterisks when one is set, never the password
    _a("PASSWORD", "MQCACH_PASSWORD", width=12, secret=True),
    # client connections only
    _a("QMNAME", "MQCA_Q_MGR_NAME"),
    _a("AFFINITY", "MQIACH_CONNECTION_AFFINITY", WORD, _w(PREFERRED="MQCAFTY_PREFERRED",
                                                          NONE="MQCAFTY_NONE")),
    _a("CLNTWGHT", "MQIACH_CLIENT_CHANNEL_WEIGHT", INT),
    _a("DEFRECON", "MQIACH_DEF_RECONNECT", WORD, _w(NO="MQRCN_NO", YES="MQRCN_YES",
                                                    QMGR="MQRCN_Q_MGR",
                                                    DISABLED="MQRCN_DISABLED")),
    # AMQP channels
    _a("AMQPKA", "MQIACH_AMQP_KEEP_ALIVE", INT, _w(AUTO="MQKAI_AUTO")),
    _a("PORT", "MQIACH_PORT", INT),
    _a("TPROOT", "MQCACH_TOPIC_ROOT", width=256),
    _a("TMPMODEL", "MQCACH_TEMPORARY_MODEL_Q"),
    _a("TMPQPRFX", "MQCACH_TEMPORARY_Q_PREFIX"),
    _a("USECLTID", "MQIACH_USE_CLIENT_ID", WORD, _w(NO="MQUCI_NO", YES="MQUCI_YES")),
    # MQTT (telemetry) channels (their USECLNTID is the AMQP USECLTID's parameter:
    # read as USECLTID)
    _a("BACKLOG", "MQIACH_BACKLOG", INT),
    _a("JAASCFG", "MQCACH_JAAS_CONFIG", width=1024),
    _a("PROTOCOL", "MQIACH_PROTOCOL", WORDS, _w(
        MQTTV3="MQPROTO_MQTTV3", MQTTV311="MQPROTO_MQTTV311", HTTP="MQPROTO_HTTP",
        AMQP="MQPROTO_AMQP")),
    _a("SSLKEYP", "MQCACH_SSL_KEY_PASSPHRASE", width=1024, secret=True),
    # z/OS: default channel disposition, disposition
    _a("DEFCDISP", "MQIACH_DEF_CHANNEL_DISP", WORD, _w(
        PRIVATE="MQCHLD_PRIVATE", FIXSHARED="MQCHLD_FIXSHARED", SHARED="MQCHLD_SHARED")),
    _a("QSGDISP", "MQIA_QSG_DISP", WORD, _QSGDISP),
    _a("ALTDATE", "MQCA_ALTERATION_DATE", width=12, readonly=True),
    _a("ALTTIME", "MQCA_ALTERATION_TIME", width=8, readonly=True),
)

#: Queue manager attributes (ALTER QMGR).
QMGR = _table(
    _a("DESCR", "MQCA_Q_MGR_DESC", width=64),
    _a("DEADQ", "MQCA_DEAD_LETTER_Q_NAME"),
    _a("DEFXMITQ", "MQCA_DEF_XMIT_Q_NAME"),
    _a("REPOS", "MQCA_REPOSITORY_NAME"),
    _a("REPOSNL", "MQCA_REPOSITORY_NAMELIST"),
    _a("CCSID", "MQIA_CODED_CHAR_SET_ID", INT),
    _a("MAXMSGL", "MQIA_MAX_MSG_LENGTH", INT),
    _a("MAXHANDS", "MQIA_MAX_HANDLES", INT),
    _a("MAXUMSGS", "MQIA_MAX_UNCOMMITTED_MSGS", INT),
    _a("TRIGINT", "MQIA_TRIGGER_INTERVAL", INT),
    _a("ACTIVREC", "MQIA_ACTIVITY_RECORDING", WORD, _RECORDING),
    _a("ROUTEREC", "MQIA_TRACE_ROUTE_RECORDING", WORD, _RECORDING),
    _a("ACTVTRC", "MQIA_ACTIVITY_TRACE", WORD, _w(OFF="MQMON_OFF", ON="MQMON_ON")),
    _a("MONQ", "MQIA_MONITORING_Q", WORD, _MON_QMGR),
    _a("MONCHL", "MQIA_MONITORING_CHANNEL", WORD, _MON_QMGR),
    _a("MONACLS", "MQIA_MONITORING_AUTO_CLUSSDR", WORD, _MON_OBJECT),
    _a("STATQ", "MQIA_STATISTICS_Q", WORD, _STAT_QMGR),
    _a("STATMQI", "MQIA_STATISTICS_MQI", WORD, _w(OFF="MQMON_OFF", ON="MQMON_ON")),
    _a("STATCHL", "MQIA_STATISTICS_CHANNEL", WORD, _MON_QMGR),
    _a("STATINT", "MQIA_STATISTICS_INTERVAL", INT),
    _a("ACCTQ", "MQIA_ACCOUNTING_Q", WORD, _STAT_QMGR),
    _a("ACCTMQI", "MQIA_ACCOUNTING_MQI", WORD, _w(OFF="MQMON_OFF", ON="MQMON_ON")),
    _a("ACCTINT", "MQIA_ACCOUNTING_INTERVAL", INT),
    _a("PERFMEV", "MQIA_PERFORMANCE_EVENT", WORD, _EVENT),
    _a("CONFIGEV", "MQIA_CONFIGURATION_EVENT", WORD, _EVENT),
    _a("INHIBTEV", "MQIA_INHIBIT_EVENT", WORD, _EVENT),
    _a("LOCALEV", "MQIA_LOCAL_EVENT", WORD, _EVENT),
    _a("REMOTEEV", "MQIA_REMOTE_EVENT", WORD, _EVENT),
    _a("STRSTPEV", "MQIA_START_STOP_EVENT", WORD, _EVENT),
    _a("AUTHOREV", "MQIA_AUTHORITY_EVENT", WORD, _EVENT),
    _a("CHLEV", "MQIA_CHANNEL_EVENT", WORD, _w(ENABLED="MQEVR_ENABLED",
                                               DISABLED="MQEVR_DISABLED",
                                               EXCEPTION="MQEVR_EXCEPTION")),
    _a("CMDEV", "MQIA_COMMAND_EVENT", WORD, _w(ENABLED="MQEVR_ENABLED",
                                               DISABLED="MQEVR_DISABLED",
                                               NODISPLAY="MQEVR_NO_DISPLAY")),
    _a("SSLEV", "MQIA_SSL_EVENT", WORD, _EVENT),
    _a("CHAD", "MQIA_CHANNEL_AUTO_DEF", WORD, _w(ENABLED="MQCHAD_ENABLED",
                                                 DISABLED="MQCHAD_DISABLED")),
    _a("CHADEV", "MQIA_CHANNEL_AUTO_DEF_EVENT", WORD, _EVENT),
    _a("CLWLUSEQ", "MQIA_CLWL_USEQ", WORD, _w(LOCAL="MQCLWL_USEQ_LOCAL",
                                              ANY="MQCLWL_USEQ_ANY")),
    _a("CLWLLEN", "MQIA_CLUSTER_WORKLOAD_LENGTH", INT),
    _a("CHLAUTH", "MQIA_CHLAUTH_RECORDS", WORD, _w(ENABLED="MQCHLA_ENABLED",
                                                   DISABLED="MQCHLA_DISABLED")),
    _a("PSMODE", "MQIA_PUBSUB_MODE", WORD, _w(COMPAT="MQPSM_COMPAT",
                                              DISABLED="MQPSM_DISABLED",
                                              ENABLED="MQPSM_ENABLED")),
    _a("ACCTCONO", "MQIA_ACCOUNTING_CONN_OVERRIDE", WORD, _w(ENABLED="MQMON_ENABLED",
                                                             DISABLED="MQMON_DISABLED")),
    _a("ACTVCONO", "MQIA_ACTIVITY_CONN_OVERRIDE", WORD, _w(ENABLED="MQMON_ENABLED",
                                                           DISABLED="MQMON_DISABLED")),
    _a("BRIDGEEV", "MQIA_BRIDGE_EVENT", WORD, _EVENT),
    _a("LOGGEREV", "MQIA_LOGGER_EVENT", WORD, _EVENT),
    _a("CHADEXIT", "MQCA_CHANNEL_AUTO_DEF_EXIT", width=128),
    _a("CLWLEXIT", "MQCA_CLUSTER_WORKLOAD_EXIT", width=128),
    _a("CLWLDATA", "MQCA_CLUSTER_WORKLOAD_DATA", width=32),
    _a("CLWLMRUC", "MQIA_CLWL_MRU_CHANNELS", INT),
    _a("DEFCLXQ", "MQIA_DEF_CLUSTER_XMIT_Q_TYPE", WORD, _w(SCTQ="MQCLXQ_SCTQ",
                                                           CHANNEL="MQCLXQ_CHANNEL")),
    _a("MAXPROPL", "MQIA_MAX_PROPERTIES_LENGTH", INT,
       _w(NOLIMIT="MQPROP_UNRESTRICTED_LENGTH")),
    _a("PARENT", "MQCA_PARENT"),
    _a("PSCLUS", "MQIA_PUBSUB_CLUSTER", WORD, _w(ENABLED="MQPSCLUS_ENABLED",
                                                 DISABLED="MQPSCLUS_DISABLED")),
    _a("PSNPMSG", "MQIA_PUBSUB_NP_MSG", WORD, _w(DISCARD="MQUNDELIVERED_DISCARD",
                                                 KEEP="MQUNDELIVERED_KEEP")),
    _a("PSNPRES", "MQIA_PUBSUB_NP_RESP", WORD, _w(NORMAL="MQUNDELIVERED_NORMAL",
                                                  SAFE="MQUNDELIVERED_SAFE",
                                                  DISCARD="MQUNDELIVERED_DISCARD",
                                                  KEEP="MQUNDELIVERED_KEEP")),
    _a("PSRTYCNT", "MQIA_PUBSUB_MAXMSG_RETRY_COUNT", INT),
    _a("PSSYNCPT", "MQIA_PUBSUB_SYNC_PT", WORD, _w(YES="MQSYNCPOINT_YES",
                                                   IFPER="MQSYNCPOINT_IFPER")),
    _a("REVDNS", "MQIA_REVERSE_DNS_LOOKUP", WORD, _w(ENABLED="MQRDNS_ENABLED",
                                                     DISABLED="MQRDNS_DISABLED")),
    _a("SCHINIT", "MQIA_CHINIT_CONTROL", WORD, _w(QMGR="MQSVC_CONTROL_Q_MGR",
                                                  MANUAL="MQSVC_CONTROL_MANUAL")),
    _a("SCMDSERV", "MQIA_CMD_SERVER_CONTROL", WORD, _w(QMGR="MQSVC_CONTROL_Q_MGR",
                                                       MANUAL="MQSVC_CONTROL_MANUAL")),
    _a("STATACLS", "MQIA_STATISTICS_AUTO_CLUSSDR", WORD, _MON_OBJECT),
    _a("TREELIFE", "MQIA_TREE_LIFE_TIME", INT),
    _a("IPADDRV", "MQIA_IP_ADDRESS_VERSION", WORD, _w(IPV4="MQIPADDR_IPV4",
                                                      IPV6="MQIPADDR_IPV6")),
    _a("SSLFIPS", "MQIA_SSL_FIPS_REQUIRED", WORD, _w(NO="MQSSL_FIPS_NO", YES="MQSSL_FIPS_YES")),
    _a("SSLRKEYC", "MQIA_SSL_RESET_COUNT", INT),
    _a("CONNAUTH", "MQCA_CONN_AUTH"),
    _a("SSLKEYR", "MQCA_SSL_KEY_REPOSITORY", width=256),
    _a("CERTLABL", "MQCA_CERT_LABEL", width=64),
    _a("CUSTOM", "MQCA_CUSTOM", width=128),
    _a("AMQPCAP", "MQIA_AMQP_CAPABILITY", WORD, _CAP),
    _a("CERTVPOL", "MQIA_CERT_VAL_POLICY", WORD, _w(ANY="MQ_CERT_VAL_POLICY_ANY",
                                                    RFC5280="MQ_CERT_VAL_POLICY_RFC5280",
                                                    NONE="MQ_CERT_VAL_POLICY_NONE")),
    _a("SUITEB", "MQIA_SUITE_B_STRENGTH", WORDS, _w(NONE="MQ_SUITE_B_NONE",
                                                    **{"128_BIT": "MQ_SUITE_B_128_BIT",
                                                       "192_BIT": "MQ_SUITE_B_192_BIT"})),
    _a("SSLCRLNL", "MQCA_SSL_CRL_NAMELIST"),
    _a("SSLCRYP", "MQCA_SSL_CRYPTO_HARDWARE", width=256),
    _a("IMGINTVL", "MQIA_MEDIA_IMAGE_INTERVAL", INT, _w(OFF="MQMEDIMGINTVL_OFF")),
    _a("IMGLOGLN", "MQIA_MEDIA_IMAGE_LOG_LENGTH", INT, _w(OFF="MQMEDIMGLOGLN_OFF")),
    _a("IMGRCOVO", "MQIA_MEDIA_IMAGE_RECOVER_OBJ", WORD, _w(NO="MQIMGRCOV_NO",
                                                            YES="MQIMGRCOV_YES")),
    _a("IMGRCOVQ", "MQIA_MEDIA_IMAGE_RECOVER_Q", WORD, _w(NO="MQIMGRCOV_NO",
                                                          YES="MQIMGRCOV_YES")),
    _a("IMGSCHED", "MQIA_MEDIA_IMAGE_SCHEDULING", WORD, _w(
        MANUAL="MQMEDIMGSCHED_MANUAL", AUTO="MQMEDIMGSCHED_AUTO")),
    _a("MARKINT", "MQIA_MSG_MARK_BROWSE_INTERVAL", INT, _w(NOLIMIT="MQMMBI_UNLIMITED")),
    # MQ shows these as asterisks when set, never their value
    _a("INITKEY", "MQCA_INITIAL_KEY", width=256, secret=True),
    _a("KEYRPWD", "MQCA_SSL_KEY_REPO_PASSWORD", width=256, secret=True),
    _a("OTELTRAC", "MQIA_OTEL_TRACE", WORD, _w(OFF="MQOTEL_TRACE_OFF", ON="MQOTEL_TRACE_ON",
                                               NONE="MQOTEL_TRACE_NONE")),
    _a("OTELPCTL", "MQIA_OTEL_PROPAGATION_CONTROL", WORD, _w(
        MANUAL="MQOTEL_PCTL_MANUAL", AUTO="MQOTEL_PCTL_AUTO")),
    # z/OS: the channel initiator, queue sharing group, TCP/IP and LU 6.2 attributes
    _a("ACTCHL", "MQIA_ACTIVE_CHANNELS", INT),
    _a("ADOPTCHK", "MQIA_ADOPTNEWMCA_CHECK", WORD, _w(
        ALL="MQADOPT_CHECK_ALL", NETADDR="MQADOPT_CHECK_NET_ADDR", NONE="MQADOPT_CHECK_NONE",
        QMNAME="MQADOPT_CHECK_Q_MGR_NAME")),
    _a("ADOPTMCA", "MQIA_ADOPTNEWMCA_TYPE", WORD, _w(ALL="MQADOPT_TYPE_ALL",
                                                     NO="MQADOPT_TYPE_NO")),
    _a("CFCONLOS", "MQIA_QMGR_CFCONLOS", WORD, _w(TERMINATE="MQCFCONLOS_TERMINATE",
                                                  TOLERATE="MQCFCONLOS_TOLERATE")),
    _a("CHIADAPS", "MQIA_CHINIT_ADAPTERS", INT),
    _a("CHIDISPS", "MQIA_CHINIT_DISPATCHERS", INT),
    _a("CHISERVP", "MQCA_CHINIT_SERVICE_PARM", width=32),
    _a("DNSGROUP", "MQCA_DNS_GROUP", width=18),
    _a("DNSWLM", "MQIA_DNS_WLM", WORD, _w(NO="MQDNSWLM_NO", YES="MQDNSWLM_YES")),
    _a("EXPRYINT", "MQIA_EXPIRY_INTERVAL", INT, _w(OFF="MQEXPI_OFF")),
    _a("GROUPUR", "MQIA_GROUP_UR", WORD, _w(ENABLED="MQGUR_ENABLED",
                                            DISABLED="MQGUR_DISABLED")),
    _a("IGQ", "MQIA_INTRA_GROUP_QUEUING", WORD, _w(ENABLED="MQIGQ_ENABLED",
                                                   DISABLED="MQIGQ_DISABLED")),
    _a("IGQAUT", "MQIA_IGQ_PUT_AUTHORITY", WORD, _w(
        DEF="MQIGQPA_DEFAULT", CTX="MQIGQPA_CONTEXT", ONLYIGQ="MQIGQPA_ONLY_IGQ",
        ALTIGQ="MQIGQPA_ALTERNATE_OR_IGQ")),
    _a("IGQUSER", "MQCA_IGQ_USER_ID", width=12),
    _a("LSTRTMR", "MQIA_LISTENER_TIMER", INT),
    _a("LUGROUP", "MQCA_LU_GROUP_NAME", width=8),
    _a("LUNAME", "MQCA_LU_NAME", width=8),
    _a("LU62ARM", "MQCA_LU62_ARM_SUFFIX", width=2),
    _a("LU62CHL", "MQIA_LU62_CHANNELS", INT),
    _a("MAXCHL", "MQIA_MAX_CHANNELS", INT),
    _a("OPORTMAX", "MQIA_OUTBOUND_PORT_MAX", INT),
    _a("OPORTMIN", "MQIA_OUTBOUND_PORT_MIN", INT),
    _a("QSGCERTL", "MQCA_QSG_CERT_LABEL", width=64),
    _a("RCVTIME", "MQIA_RECEIVE_TIMEOUT", INT),
    _a("RCVTMIN", "MQIA_RECEIVE_TIMEOUT_MIN", INT),
    _a("RCVTTYPE", "MQIA_RECEIVE_TIMEOUT_TYPE", WORD, _w(
        MULTIPLY="MQRCVTIME_MULTIPLY", ADD="MQRCVTIME_ADD", EQUAL="MQRCVTIME_EQUAL")),
    _a("SCYCASE", "MQIA_SECURITY_CASE", WORD, _w(UPPER="MQSCYC_UPPER", MIXED="MQSCYC_MIXED")),
    _a("SQQMNAME", "MQIA_SHARED_Q_Q_MGR_NAME", WORD, _w(USE="MQSQQM_USE",
                                                        IGNORE="MQSQQM_IGNORE")),
    _a("SSLTASKS", "MQIA_SSL_TASKS", INT),
    _a("TCPCHL", "MQIA_TCP_CHANNELS", INT),
    _a("TCPKEEP", "MQIA_TCP_KEEP_ALIVE", WORD, _w(NO="MQTCPKEEP_NO", YES="MQTCPKEEP_YES")),
    _a("TCPNAME", "MQCA_TCP_NAME", width=8),
    _a("TCPSTACK", "MQIA_TCP_STACK_TYPE", WORD, _w(SINGLE="MQTCPSTACK_SINGLE",
                                                   MULTIPLE="MQTCPSTACK_MULTIPLE")),
    _a("TRAXSTR", "MQIA_CHINIT_TRACE_AUTO_START", WORD, _w(NO="MQTRAXSTR_NO",
                                                           YES="MQTRAXSTR_YES")),
    _a("TRAXTBL", "MQIA_CHINIT_TRACE_TABLE_SIZE", INT),
    # what DISPLAY QMGR shows and ALTER QMGR does not set
    _a("ADVCAP", "MQIA_ADVANCED_CAPABILITY", WORD, _w(ENABLED="MQCAP_SUPPORTED",
                                                      DISABLED="MQCAP_NOT_SUPPORTED"),
       readonly=True),
    _a("SPLCAP", "MQIA_PROT_POLICY_CAPABILITY", WORD, _w(ENABLED="MQCAP_SUPPORTED",
                                                         DISABLED="MQCAP_NOT_SUPPORTED"),
       readonly=True),
    _a("XRCAP", "MQIA_XR_CAPABILITY", WORD, _CAP, readonly=True),
    _a("COMMANDQ", "MQCA_COMMAND_INPUT_Q_NAME", readonly=True),
    _a("DISTL", "MQIA_DIST_LISTS", WORD, _w(NO="MQDL_NOT_SUPPORTED", YES="MQDL_SUPPORTED"),
       readonly=True),
    _a("MAXPRTY", "MQIA_MAX_PRIORITY", INT, readonly=True),
    _a("SYNCPT", "MQIA_SYNCPOINT", WORD, _w(AVAILABLE="MQSP_AVAILABLE",
                                            NOTAVAILABLE="MQSP_NOT_AVAILABLE"),
       readonly=True),
    _a("QSGNAME", "MQCA_QSG_NAME", width=4, readonly=True),
    _a("CMDLEVEL", "MQIA_COMMAND_LEVEL", INT, readonly=True),
    _a("PLATFORM", "MQIA_PLATFORM", WORD, _w(UNIX="MQPL_UNIX", WINDOWSNT="MQPL_WINDOWS_NT",
                                             MVS="MQPL_ZOS", OS400="MQPL_OS400",
                                             NSK="MQPL_NSK", APPLIANCE="MQPL_APPLIANCE"),
       readonly=True),
    _a("QMID", "MQCA_Q_MGR_IDENTIFIER", readonly=True),
    _a("CRDATE", "MQCA_CREATION_DATE", width=12, readonly=True),
    _a("CRTIME", "MQCA_CREATION_TIME", width=8, readonly=True),
    _a("ALTDATE", "MQCA_ALTERATION_DATE", width=12, readonly=True),
    _a("ALTTIME", "MQCA_ALTERATION_TIME", width=8, readonly=True),
)

_PARENT_SCOPE = _w(ASPARENT="MQSCOPE_AS_PARENT", QMGR="MQSCOPE_QMGR", ALL="MQSCOPE_ALL")
_DELIVERY = _w(ASPARENT="MQDLV_AS_PARENT", ALL="MQDLV_ALL", ALLDUR="MQDLV_ALL_DUR",
               ALLAVAIL="MQDLV_ALL_AVAIL")

#: Topic object attributes (DEFINE TOPIC; Inquire Topic).
TOPIC = _table(
    _a("TOPICSTR", "MQCA_TOPIC_STRING", width=0),
    _a("DESCR", "MQCA_TOPIC_DESC", width=64),
    _a("TYPE", "MQIA_TOPIC_TYPE", WORD, _w(LOCAL="MQTOPT_LOCAL", CLUSTER="MQTOPT_CLUSTER")),
    _a("CLUSTER", "MQCA_CLUSTER_NAME"),
    _a("CLROUTE", "MQIA_CLUSTER_PUB_ROUTE", WORD, _w(DIRECT="MQCLROUTE_DIRECT",
                                                     TOPICHOST="MQCLROUTE_TOPIC_HOST",
                                                     NONE="MQCLROUTE_NONE")),
    _a("DURSUB", "MQIA_DURABLE_SUB", WORD, _w(ASPARENT="MQSUB_DURABLE_AS_PARENT",
                                              YES="MQSUB_DURABLE_ALLOWED",
                                              NO="MQSUB_DURABLE_INHIBITED")),
    _a("PUB", "MQIA_INHIBIT_PUB", WORD, _w(ASPARENT="MQTA_PUB_AS_PARENT",
                                           DISABLED="MQTA_PUB_INHIBITED",
                                           ENABLED="MQTA_PUB_ALLOWED")),
    _a("SUB", "MQIA_INHIBIT_SUB", WORD, _w(ASPARENT="MQTA_SUB_AS_PARENT",
                                           DISABLED="MQTA_SUB_INHIBITED",
                                           ENABLED="MQTA_SUB_ALLOWED")),
    _a("PROXYSUB", "MQIA_PROXY_SUB", WORD, _w(FORCE="MQTA_PROXY_SUB_FORCE",
                                              FIRSTUSE="MQTA_PROXY_SUB_FIRSTUSE")),
    _a("DEFPSIST", "MQIA_TOPIC_DEF_PERSISTENCE", WORD, _w(
        ASPARENT="MQPER_PERSISTENCE_AS_PARENT", NO="MQPER_NOT_PERSISTENT",
        YES="MQPER_PERSISTENT")),
    _a("DEFPRTY", "MQIA_DEF_PRIORITY", INT, _w(ASPARENT="MQPRI_PRIORITY_AS_PARENT")),
    _a("DEFPRESP", "MQIA_DEF_PUT_RESPONSE_TYPE", WORD, _w(
        ASPARENT="MQPRT_RESPONSE_AS_PARENT", SYNC="MQPRT_SYNC_RESPONSE",
        ASYNC="MQPRT_ASYNC_RESPONSE")),
    _a("PMSGDLV", "MQIA_PM_DELIVERY", WORD, _DELIVERY),
    _a("NPMSGDLV", "MQIA_NPM_DELIVERY", WORD, _DELIVERY),
    _a("PUBSCOPE", "MQIA_PUB_SCOPE", WORD, _PARENT_SCOPE),
    _a("SUBSCOPE", "MQIA_SUB_SCOPE", WORD, _PARENT_SCOPE),
    _a("USEDLQ", "MQIA_USE_DEAD_LETTER_Q", WORD, _w(ASPARENT="MQUSEDLQ_AS_PARENT",
                                                    NO="MQUSEDLQ_NO", YES="MQUSEDLQ_YES")),
    _a("WILDCARD", "MQIA_WILDCARD_OPERATION", WORD, _w(PASSTHRU="MQTA_PASSTHRU",
                                                       BLOCK="MQTA_BLOCK")),
    _a("MDURMDL", "MQCA_MODEL_DURABLE_Q"),
    _a("MNDURMDL", "MQCA_MODEL_NON_DURABLE_Q"),
    _a("MCAST", "MQIA_MULTICAST", WORD, _w(ASPARENT="MQMC_AS_PARENT",
                                           ENABLED="MQMC_ENABLED", DISABLED="MQMC_DISABLED",
                                           ONLY="MQMC_ONLY")),
    _a("COMMINFO", "MQCA_COMM_INFO_NAME"),
    _a("CUSTOM", "MQCA_CUSTOM", width=128),
    _a("ALTDATE", "MQCA_ALTERATION_DATE", width=12, readonly=True),
    _a("ALTTIME", "MQCA_ALTERATION_TIME", width=8, readonly=True),
)

#: Subscription attributes (DEFINE SUB; Inquire Subscription).
SUB = _table(
    _a("SUBID", "MQBACF_SUB_ID", BYTES, width=24),
    _a("TOPICSTR", "MQCA_TOPIC_STRING", width=0),
    _a("TOPICOBJ", "MQCA_TOPIC_NAME"),
    _a("DEST", "MQCACF_DESTINATION"),
    _a("DESTQMGR", "MQCACF_DESTINATION_Q_MGR"),
    _a("DESTCLAS", "MQIACF_DESTINATION_CLASS", WORD, _w(MANAGED="MQDC_MANAGED",
                                                        PROVIDED="MQDC_PROVIDED")),
    _a("DESTCORL", "MQBACF_DESTINATION_CORREL_ID", BYTES, width=24),
    _a("DURABLE", "MQIACF_DURABLE_SUBSCRIPTION", WORD, _w(YES="MQSUB_DURABLE_YES",
                                                          NO="MQSUB_DURABLE_NO"),
       readonly=True),
    _a("EXPIRY", "MQIACF_EXPIRY", INT, _w(UNLIMITED="MQEI_UNLIMITED")),
    _a("PSPROP", "MQIACF_PUBSUB_PROPERTIES", WORD, _w(NONE="MQPSPROP_NONE",
                                                      COMPAT="MQPSPROP_COMPAT",
                                                      RFH2="MQPSPROP_RFH2",
                                                      MSGPROP="MQPSPROP_MSGPROP")),
    _a("PUBACCT", "MQBACF_ACCOUNTING_TOKEN", BYTES, width=32),
    _a("PUBAPPID", "MQCACF_APPL_IDENTITY_DATA", width=32),
    _a("PUBPRTY", "MQIACF_PUB_PRIORITY", INT, _w(ASPUB="MQPRI_PRIORITY_AS_PUBLISHED",
                                                 ASQDEF="MQPRI_PRIORITY_AS_Q_DEF")),
    _a("REQONLY", "MQIACF_REQUEST_ONLY", WORD, _w(YES="MQRU_PUBLISH_ON_REQUEST",
                                                  NO="MQRU_PUBLISH_ALL")),
    _a("SELECTOR", "MQCACF_SUB_SELECTOR", width=0),
    _a("SELTYPE", "MQIACF_SELECTOR_TYPE", WORD, _w(NONE="MQSELTYPE_NONE",
                                                   STANDARD="MQSELTYPE_STANDARD",
                                                   EXTENDED="MQSELTYPE_EXTENDED"),
       readonly=True),
    _a("SUBLEVEL", "MQIACF_SUB_LEVEL", INT),
    _a("SUBSCOPE", "MQIACF_SUBSCRIPTION_SCOPE", WORD, _w(ALL="MQSCOPE_ALL",
                                                         QMGR="MQSCOPE_QMGR")),
    _a("SUBTYPE", "MQIACF_SUB_TYPE", WORD, _w(API="MQSUBTYPE_API", ADMIN="MQSUBTYPE_ADMIN",
                                              PROXY="MQSUBTYPE_PROXY"), readonly=True),
    _a("SUBUSER", "MQCACF_SUB_USER_ID", width=12),
    _a("USERDATA", "MQCACF_SUB_USER_DATA", width=0),
    _a("VARUSER", "MQIACF_VARIABLE_USER_ID", WORD, _w(ANY="MQVU_ANY_USER",
                                                      FIXED="MQVU_FIXED_USER")),
    _a("WSCHEMA", "MQIACF_WILDCARD_SCHEMA", WORD, _w(CHAR="MQWS_CHAR", TOPIC="MQWS_TOPIC")),
    _a("CRDATE", "MQCA_CREATION_DATE", width=12, readonly=True),
    _a("CRTIME", "MQCA_CREATION_TIME", width=8, readonly=True),
    _a("ALTDATE", "MQCA_ALTERATION_DATE", width=12, readonly=True),
    _a("ALTTIME", "MQCA_ALTERATION_TIME", width=8, readonly=True),
)

#: DISPLAY TPSTATUS TYPE(TOPIC): the attributes that hold for a topic string, resolved.
TPSTATUS = _table(
    _a("ADMIN", "MQCA_ADMIN_TOPIC_NAME"),
    TOPIC["CLUSTER"], TOPIC["CLROUTE"], TOPIC["DEFPRESP"],
    _a("DEFPSIST", "MQIA_TOPIC_DEF_PERSISTENCE", WORD, _w(NO="MQPER_NOT_PERSISTENT",
                                                         YES="MQPER_PERSISTENT")),
    _a("DEFPRTY", "MQIA_DEF_PRIORITY", INT),
    TOPIC["DURSUB"], TOPIC["MDURMDL"], TOPIC["MNDURMDL"], TOPIC["NPMSGDLV"],
    TOPIC["PMSGDLV"], TOPIC["PUB"], TOPIC["PUBSCOPE"], TOPIC["SUB"], TOPIC["SUBSCOPE"],
    TOPIC["USEDLQ"],
    _a("RETAINED", "MQIACF_RETAINED_PUBLICATION", WORD, _w(NO="MQQSO_NO", YES="MQQSO_YES")),
    _a("PUBCOUNT", "MQIA_PUB_COUNT", INT),
    _a("SUBCOUNT", "MQIA_SUB_COUNT", INT),
)

#: DISPLAY TPSTATUS TYPE(SUB): one subscription registered on a topic string.
TPSTATUS_SUB = _table(
    SUB["SUBID"], SUB["SUBUSER"], SUB["DURABLE"], SUB["SUBTYPE"],
    _a("RESMDATE", "MQCA_RESUME_DATE", width=12),
    _a("RESMTIME", "MQCA_RESUME_TIME", width=8),
    _a("LMSGDATE", "MQCACF_LAST_MSG_DATE", width=12),
    _a("LMSGTIME", "MQCACF_LAST_MSG_TIME", width=8),
    _a("NUMPUBS", "MQIACF_MESSAGE_COUNT", INT),
    _a("ACTCONN", "MQBACF_CONNECTION_ID", BYTES, width=24),
)

# --- the numbers MQ takes --------------------------------------------------------------
#
# The ranges of the numeric attributes, as IBM MQ 9.4's DEFINE/ALTER QLOCAL, QMODEL,
# CHANNEL, QMGR, TOPIC, SUB, LISTENER and COMMINFO pages give them for Multiplatforms (z/OS
# only attributes: the z/OS values), and the PCF reason IBM's PCF reference names for a
# bad value of that parameter (MQRCCF_PARM_VALUE_ERROR, "outside the acceptable numeric
# range for the parameter", where it names none). A word an attribute also takes (KAINT
# AUTO, CAPEXPRY NOLIMIT, EXPRYINT OFF ...) is in the attribute's `words`.
#
# Checked against IBM's pages through this project's search (`CHECKED_LIMITS`): queue
# MAXDEPTH and MAXMSGL; channel BATCHINT, BATCHHB, BATCHLIM, DISCINT, HBINT, KAINT, SEQWRAP,
# MRRTY, MRTMR, MAXINST; queue manager MAXMSGL, MAXHANDS, MAXUMSGS, TRIGINT; and the
# channel reasons (MQRCCF_BATCH_SIZE_ERROR, MQRCCF_HB_INTERVAL_ERROR ...). The others are
# the MQSC reference as remembered, NOT checked against a page here; the least certain
# are MAXFSIZE (20-267 386 880 MB), AMQPKA, the AMQP/MQTT channels' PORT and BACKLOG,
# CLNTWGHT, TREELIFE, SSLRKEYC, IMGINTVL/IMGLOGLN, MARKINT, the z/OS channel initiator
# numbers, COMMINFO's MCHBINT/MSGHIST/MONINT and AUTHINFO's FAILDLAY (0-60 s).
# LISTENER's NetBIOS/LU 6.2 numbers (ADAPTER, COMMANDS, NTBNAMES, SESSIONS) are not
# checked at all.
_N = 999_999_999
_MB100 = 104_857_600
QUEUE = _limited(QUEUE, {
    "DEFPRTY": (0, 9), "MAXDEPTH": (0, _N), "MAXMSGL": (0, _MB100), "BOTHRESH": (0, _N),
    "TRIGDPTH": (1, _N), "TRIGMPRI": (0, 9), "RETINTVL": (0, _N), "QDEPTHHI": (0, 100),
    "QDEPTHLO": (0, 100), "QSVCINT": (0, _N), "CLWLPRTY": (0, 9), "CLWLRANK": (0, 9),
    "CAPEXPRY": (1, _N), "MAXFSIZE": (20, 267_386_880),
})
CHANNEL = _limited(CHANNEL, {
    "BATCHSZ": (1, 9999, "MQRCCF_BATCH_SIZE_ERROR"),
    "BATCHINT": (0, _N, "MQRCCF_BATCH_INT_ERROR"),
    "BATCHHB": (0, 999_999), "BATCHLIM": (0, 999_999),
    "DISCINT": (0, 999_999, "MQRCCF_DISC_INT_ERROR"),
    "SHORTRTY": (0, _N, "MQRCCF_SHORT_RETRY_ERROR"),
    "SHORTTMR": (0, _N, "MQRCCF_SHORT_TIMER_ERROR"),
    "LONGRTY": (0, _N, "MQRCCF_LONG_RETRY_ERROR"),
    "LONGTMR": (0, _N, "MQRCCF_LONG_TIMER_ERROR"),
    "HBINT": (0, 999_999, "MQRCCF_HB_INTERVAL_ERROR"),
    "KAINT": (0, 99_999, "MQRCCF_KEEP_ALIVE_INT_ERROR"),
    "SEQWRAP": (100, _N, "MQRCCF_SEQ_NUMBER_WRAP_ERROR"),
    "MAXMSGL": (0, _MB100, "MQRCCF_MAX_MSG_LENGTH_ERROR"),
    "MRRTY": (0, _N, "MQRCCF_MR_COUNT_ERROR"),
    "MRTMR": (0, _N, "MQRCCF_MR_INTERVAL_ERROR"),
    "NETPRTY": (0, 9, "MQRCCF_NET_PRIORITY_ERROR"),
    "CLWLPRTY": (0, 9), "CLWLRANK": (0, 9), "CLWLWGHT": (1, 99),
    "MAXINST": (0, _N, "MQRCCF_MAX_INSTANCES_ERROR"),
    "MAXINSTC": (0, _N, "MQRCCF_MAX_INSTS_PER_CLNT_ERR"),
    "SHARECNV": (0, _N, "MQRCCF_SHARING_CONVS_ERROR"),
    "CLNTWGHT": (0, 99), "AMQPKA": (0, 99_999_999),
    "PORT": (0, 65_535, "MQRCCF_PORT_NUMBER_ERROR"), "BACKLOG": (0, _N),
})
QMGR = _limited(QMGR, {
    "CCSID": (1, 65_535), "MAXMSGL": (32_768, _MB100, "MQRCCF_MAX_MSG_LENGTH_ERROR"),
    "MAXHANDS": (0, _N), "MAXUMSGS": (1, _N), "TRIGINT": (0, _N),
    "STATINT": (1, 604_800), "ACCTINT": (1, 604_800), "CLWLLEN": (0, _N),
    "CLWLMRUC": (1, _N), "MAXPROPL": (0, _MB100), "PSRTYCNT": (0, _N),
    "TREELIFE": (0, 604_000), "SSLRKEYC": (0, _N), "IMGINTVL": (1, _N),
    "IMGLOGLN": (1, _N), "MARKINT": (0, _N),
    # z/OS
    "ACTCHL": (1, 9999), "CHIADAPS": (0, 9999), "CHIDISPS": (1, 9999),
    "EXPRYINT": (1, 99_999_999), "LSTRTMR": (5, 9999), "LU62CHL": (0, 9999),
    "MAXCHL": (1, 9999), "OPORTMAX": (0, 65_535), "OPORTMIN": (0, 65_535),
    "RCVTIME": (0, 999_999), "RCVTMIN": (0, 3600), "SSLTASKS": (0, 9999),
    "TCPCHL": (0, 9999), "TRAXTBL": (2, 2048),
})
TOPIC = _limited(TOPIC, {"DEFPRTY": (0, 9)})
SUB = _limited(SUB, {"EXPIRY": (0, _N), "PUBPRTY": (0, 9), "SUBLEVEL": (0, 9)})


def _worded(table: dict[str, Attribute], reasons: Mapping[str, str]) -> dict[str, Attribute]:
    """`table` with each word attribute named in `reasons` given the PCF reason a command
    server gives for a number that is none of its words."""
    out = dict(table)
    for keyword, reason in reasons.items():
        assert out[keyword].kind == WORD, keyword
        out[keyword] = replace(out[keyword], reason=_c(reason))
    return out


# The reasons IBM's PCF reference names for a bad value of these word parameters (each
# page: "The <Parameter> value was not valid. Specify ..."); the others are
# MQRCCF_PARM_VALUE_ERROR.
CHANNEL = _worded(CHANNEL, {
    "TRPTYPE": "MQRCCF_XMIT_PROTOCOL_TYPE_ERR", "PUTAUT": "MQRCCF_PUT_AUTH_ERROR",
    "CONVERT": "MQRCCF_DATA_CONV_VALUE_ERROR", "MCATYPE": "MQRCCF_MCA_TYPE_ERROR",
    "NPMSPEED": "MQRCCF_NPM_SPEED_ERROR", "SSLCAUTH": "MQRCCF_SSL_CLIENT_AUTH_ERROR",
})
QMGR = _worded(QMGR, {"CHAD": "MQRCCF_CHAD_ERROR", "CHADEV": "MQRCCF_CHAD_EVENT_ERROR"})


#: Numeric attributes of objects whose other attributes live elsewhere (LISTENER, AUTHINFO,
#: COMMINFO:
#: traceroute.events.objects; a topic's CAPEXPRY, which Inquire Topic does not return here).
MORE_NUMBERS: dict[str, dict[str, Attribute]] = {
    "TOPIC": _limited(_table(_a("CAPEXPRY", "MQIA_CAP_EXPIRY", INT,
                                _w(NOLIMIT="MQCEX_NOLIMIT", ASPARENT="MQCEX_AS_PARENT"))),
                      {"CAPEXPRY": (1, _N)}),
    "LISTENER": _limited(_table(_a("PORT", "MQIACH_PORT", INT),
                                _a("BACKLOG", "MQIACH_BACKLOG", INT)),
                         {"PORT": (0, 65_535, "MQRCCF_PORT_NUMBER_ERROR"),
                          "BACKLOG": (0, _N)}),
    "AUTHINFO": _limited(_table(_a("FAILDLAY", "MQIA_AUTHENTICATION_FAIL_DELAY", INT)),
                         {"FAILDLAY": (0, 60)}),
    "COMMINFO": _limited(_table(_a("PORT", "MQIACH_PORT", INT),
                                _a("MCHBINT", "MQIACH_MC_HB_INTERVAL", INT),
                                _a("MSGHIST", "MQIACH_MSG_HISTORY", INT),
                                _a("MONINT", "MQIA_MONITOR_INTERVAL", INT),
                                _a("CCSID", "MQIA_CODED_CHAR_SET_ID", INT)),
                         {"PORT": (1, 65_535, "MQRCCF_PORT_NUMBER_ERROR"),
                          "MCHBINT": (0, 999_999), "MSGHIST": (0, _N),
                          "MONINT": (0, 999_999), "CCSID": (0, 65_535)}),
}
#: (table, keyword) of the ranges above that an IBM page found here confirmed; the others
#: are the MQSC reference as remembered (see the comment above).
CHECKED_LIMITS = frozenset({
    ("QUEUE", "MAXDEPTH"), ("QUEUE", "MAXMSGL"),
    *(("CHANNEL", k) for k in ("BATCHINT", "BATCHHB", "BATCHLIM", "DISCINT", "HBINT", "KAINT",
                               "SEQWRAP", "MRRTY", "MRTMR", "MAXINST")),
    *(("QMGR", k) for k in ("MAXMSGL", "MAXHANDS", "MAXUMSGS", "TRIGINT")),
})

#: The attribute table of each object kind (queue kinds share one).
TABLES: dict[str, dict[str, Attribute]] = {
    "QLOCAL": QUEUE, "QMODEL": QUEUE, "QALIAS": QUEUE, "QREMOTE": QUEUE, "CHANNEL": CHANNEL,
    "QMGR": QMGR, "TOPIC": TOPIC, "SUB": SUB, "TPSTATUS": TPSTATUS,
    "TPSTATUS_SUB": TPSTATUS_SUB,
}
_BY_PARAM: dict[str, dict[int, Attribute]] = {
    kind: {a.param: a for a in table.values()} for kind, table in TABLES.items()}


#: What MQ shows for a password, key or passphrase that is set (blank when none is).
SECRET_SHOWN = "********"


def masked(kind: str, attrs: Mapping[str, str]) -> dict[str, str]:
    """An object's attributes as MQ shows them: each secret that is set (PASSWORD, INITKEY,
    KEYRPWD, SSLKEYP) as asterisks."""
    table = table_for(kind)
    return {k: SECRET_SHOWN if v and k in table and table[k].secret else v
            for k, v in attrs.items()}


def hidden_secrets(kind: str, attrs: Mapping[str, str]) -> list[str]:
    """The secret attributes of a definition read from a queue manager that are set but
    shown as asterisks (their value cannot be had)."""
    table = table_for(kind)
    return [k for k, v in attrs.items() if k in table and table[k].secret and v == SECRET_SHOWN]


def numbers(kind: str) -> dict[str, Attribute]:
    """The attributes of an object kind that take a number in a range, by MQSC keyword."""
    out = {k: a for k, a in table_for(kind).items() if a.limits is not None}
    out.update(MORE_NUMBERS.get(kind, {}))
    return out


# --- the words MQ takes ----------------------------------------------------------------
#
# An attribute whose value is one of a fixed set of words (DEFPSIST(YES), USAGE(XMITQ),
# MONQ(QMGR) ...; or a list of them: COMPMSG(RLE,ZLIBFAST)) takes exactly the words of its
# table above, the one source both for MQSC and for PCF: a DEFINE/ALTER with another word is
# that command's syntax error, and a Change/Create command with another number is refused
# with the attribute's `reason` (MQRCCF_NPM_SPEED_ERROR ..., else MQRCCF_PARM_VALUE_ERROR).
# Left unchecked (`UNCHECKED_WORDS`), where the table's words are
# not known here to be all IBM documents, rather than refuse a command MQ takes: a channel's
# PROTOCOL (MQTT channels; the MQTT protocol versions grow) and OTELTRAC/OTELPCTL (MQ 9.4
# continuous-delivery attributes, words not checked against a page here). CHLTYPE has its
# own check (the channel types), and read-only attributes cannot be set at all.
UNCHECKED_WORDS: dict[str, frozenset[str]] = {
    "QUEUE": frozenset({"OTELTRAC", "OTELPCTL"}),
    "CHANNEL": frozenset({"PROTOCOL", "CHLTYPE"}),
    "QMGR": frozenset({"OTELTRAC", "OTELPCTL"}),
}
_FAMILY = {"QLOCAL": "QUEUE", "QMODEL": "QUEUE", "QALIAS": "QUEUE", "QREMOTE": "QUEUE"}


def words(kind: str) -> dict[str, Attribute]:
    """The attributes of an object kind whose value is one of a fixed set of words (or a
    list of them), by MQSC keyword: those a DEFINE/ALTER and a Change command check."""
    unchecked = UNCHECKED_WORDS.get(_FAMILY.get(kind, kind), frozenset())
    return {k: a for k, a in table_for(kind).items()
            if a.kind in (WORD, WORDS) and a.words and not a.readonly
            and k not in unchecked}


def word_problem(a: Attribute, value: str) -> tuple[str | None, str]:
    """(why MQ refuses `value` for the word attribute `a`, or None; the value as MQ keeps
    it: upper case, a list's items joined by commas). Words are read case-insensitively,
    as runmqsc reads them."""
    items = [w.strip().upper() for w in value.split(",")] if a.kind == WORDS \
        else [value.strip().upper()]
    taken = ", ".join(a.words)
    for item in items:
        if item not in a.words:
            what = "" if len(items) == 1 else f": {shown_value(item) or 'an empty item'}"
            return (f"{a.keyword}({shown_value(value)}){what} is not a word {a.keyword} "
                    f"takes: {taken}"), value
    return None, ",".join(items)


_NUMBER = re.compile(r"-?[0-9]+")


def number_problem(a: Attribute, value: str) -> str | None:
    """Why MQ refuses `value` for the numeric attribute `a` ('not a number', 'out of
    range'), None when it takes it. Any length of digits is read without converting more
    than a few of them."""
    text = value.strip().upper()
    low, high = a.limits or (-(2**31), 2**31 - 1)
    also = f" (or {', '.join(sorted(a.words))})" if a.words else ""
    if text in a.words:
        return None
    if not _NUMBER.fullmatch(text):
        return (f"{a.keyword}({shown_value(value)}) is not a number: {a.keyword} takes "
                f"{low} to {high}{also}")
    digits = text.lstrip("-").lstrip("0") or "0"
    if len(digits) > 12 or not low <= int(digits) * (-1 if text[0] == "-" else 1) <= high:
        return (f"{a.keyword}({shown_value(value)}) is out of range: {a.keyword} takes "
                f"{low} to {high}{also}")
    return None


def shown_value(value: str, limit: int = 24) -> str:
    """A value as an error message shows it: a long one cut, with its length."""
    if len(value) <= limit:
        return value
    return f"{value[:limit]}... ({len(value)} characters)"


def table_for(kind: str) -> dict[str, Attribute]:
    """The attribute table of an object kind (QLOCAL ..., CHANNEL, QMGR); {} for others."""
    return TABLES.get(kind, {})


#: Keywords carried by another keyword's PCF parameter: an MQTT channel's USECLNTID is
#: MQIACH_USE_CLIENT_ID, the AMQP channel's USECLTID (read back as USECLTID).
_PCF_SYNONYMS = {"USECLNTID": "USECLTID"}


def to_parameters(kind: str, attrs: Mapping[str, str]) -> tuple[list[Parameter], list[str]]:
    """The PCF parameters of an object's MQSC attributes, and the keywords PCF has no
    parameter for here (or whose value is not one MQ takes) -- left out."""
    table = table_for(kind)
    out: list[Parameter] = []
    left: list[str] = []
    for keyword, value in attrs.items():
        a = table.get(keyword)
        if a is None and _PCF_SYNONYMS.get(keyword) in table \
                and _PCF_SYNONYMS[keyword] not in attrs:
            a = table[_PCF_SYNONYMS[keyword]]
        p = None if a is None else _parameter(a, value)
        if p is None:
            left.append(keyword)
        else:
            out.append(p)
    return out, left


def why_left_out(kind: str, keyword: str, value: str) -> str:
    """Why `to_parameters` left an attribute out, in one line: 'DEFPSIST(MAYBE) left out:
    DEFPSIST takes NO, YES' or 'USECLNTID(YES) left out: no PCF parameter for it here'."""
    a = table_for(kind).get(keyword)
    shown = f"{keyword}({shown_value(value)}) left out: "
    if a is None:
        return shown + f"no PCF parameter for {keyword} of {kind} here"
    if a.kind in (WORD, WORDS):
        return shown + f"{keyword} takes {', '.join(a.words)}"
    if a.kind == INT:
        return shown + f"{keyword} takes a number" + (
            f" or {', '.join(a.words)}" if a.words else "")
    return shown + f"not a value PCF can carry for {keyword}"


def _parameter(a: Attribute, value: str) -> Parameter | None:
    if a.kind == BYTES:
        try:
            raw = bytes.fromhex(value.strip()) if value.strip() else b""
        except ValueError:
            return None
        return ByteString(a.param, raw.ljust(a.width, b"\0")[:a.width])
    if a.kind == STR:  # width 0: a string of its own length (topic strings, selectors)
        return String(a.param, value, width=a.width or None)
    if a.kind == LIST:
        return StringList(a.param, value.split(",") if value else [], width=a.width)
    if a.kind == INT:
        if value.upper() in a.words:
            return Integer(a.param, a.words[value.upper()])
        try:
            return Integer(a.param, int(value))
        except ValueError:
            return None
    if a.kind == WORDS:
        items = [w.strip().upper() for w in value.split(",") if w.strip()]
        if not all(w in a.words for w in items):
            return None
        return IntegerList(a.param, [a.words[w] for w in items])
    number = a.words.get(value.upper())
    return None if number is None else Integer(a.param, number)


def from_parameters(kind: str, parameters: Iterable[Parameter], *,
                    readonly: bool = True, unread: list[Parameter] | None = None
                    ) -> dict[str, str]:
    """MQSC attributes from PCF parameters (unknown ones left out, and added to `unread`
    when given; `readonly` False leaves out CRDATE, CMDLEVEL ... too)."""
    by_param = _BY_PARAM.get(kind, {})
    out: dict[str, str] = {}
    for p in parameters:
        a = by_param.get(p.parameter)
        if a is None:
            if unread is not None:
                unread.append(p)
            continue
        if a.readonly and not readonly:
            continue
        if a.kind == WORDS and isinstance(p, IntegerList):
            names = {n: w for w, n in a.words.items()}
            out[a.keyword] = ",".join(names.get(v, str(v)) for v in p.value)
        elif a.kind == LIST and isinstance(p, StringList):
            out[a.keyword] = ",".join(_text(v) for v in p.value if _text(v))
        elif a.kind == STR and isinstance(p, String):
            out[a.keyword] = _text(p.value)
        elif a.kind == BYTES and isinstance(p, ByteString):
            out[a.keyword] = bytes(p.value).hex().upper()
        elif isinstance(p, Integer):
            if a.kind == INT:
                word = next((w for w, n in a.words.items() if n == p.value), None)
                out[a.keyword] = word or str(p.value)
            else:
                word = next((w for w, n in a.words.items() if n == p.value), None)
                out[a.keyword] = word if word is not None else str(p.value)
        elif unread is not None:  # a structure type MQ does not use for this parameter
            unread.append(p)
    return out


def _text(value: str | bytes) -> str:
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    return value.rstrip(" \x00")
