"""The objects `crtmqm` makes on IBM MQ 9.4 for Multiplatforms, with IBM's default values.

IBM documents them in "System and default objects" (the tables of queues, topics, server
and client channels, authentication information, communication information, listeners,
namelists, processes and services) and each attribute's supplied default in the syntax
diagrams of DEFINE QLOCAL / QREMOTE / QALIAS / QMODEL / CHANNEL / TOPIC / SUB / NAMELIST /
PROCESS / LISTENER / SERVICE / AUTHINFO / COMMINFO and ALTER QMGR ("values shown above the
main line are the defaults supplied with IBM MQ"). The values are those of Linux (APPLTYPE
UNIX, CCSID 819 as this project's simulator has always assumed).

*Type defaults* are the objects DEFINE takes unnamed attributes from: a QLOCAL from
SYSTEM.DEFAULT.LOCAL.QUEUE, a sender channel from SYSTEM.DEF.SENDER, an AUTHINFO of
AUTHTYPE(IDPWOS) from SYSTEM.DEFAULT.AUTHINFO.IDPWOS, and so on (`type_default`). Every
other system object is stored as what it has that differs from its type default (USAGE,
DEFTYPE, the channel type ...). An object's full attributes are its type default's
pristine values overlaid with its own (`traceroute.sim.network.MQObject.get`), which is how
a queue manager that never altered its default objects behaves; the MQSC applier copies
the *altered* attributes of a default object into what DEFINE makes after the ALTER.

Flags are stored as one keyword with YES/NO: TRIGGER/NOTRIGGER as TRIGGER(YES|NO), SHARE/
NOSHARE as SHARE(YES|NO), HARDENBO/NOHARDENBO as HARDENBO(YES|NO).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType

__all__ = ["CHANNEL_DEFAULTS", "DEFAULT_RECORDS", "FLAGS", "KNOWN_KEYWORDS", "QMGR_DEFAULTS",
           "RECORD_KEYS", "SUBTYPE_KEYWORDS", "SYSTEM_OBJECTS", "TYPE_DEFAULTS",
           "default_object", "is_system_name", "record_key", "system_objects", "type_default"]

#: Flag keyword -> its negative spelling (stored as FLAG(YES) / FLAG(NO)).
FLAGS = {"TRIGGER": "NOTRIGGER", "SHARE": "NOSHARE", "HARDENBO": "NOHARDENBO"}

_PAIR = re.compile(r"([A-Z][A-Z0-9]*)\(([^)]*)\)")


def _attrs(text: str) -> Mapping[str, str]:
    """'KEY(VALUE) KEY() ...' as a read-only mapping (values as MQSC stores them)."""
    return MappingProxyType({k: v.strip("'") for k, v in _PAIR.findall(text)})


def _without(attrs: Mapping[str, str], *keywords: str) -> Mapping[str, str]:
    """`attrs` less some keywords."""
    return MappingProxyType({k: v for k, v in attrs.items() if k not in keywords})


_COMMON_Q = ("CAPEXPRY(NOLIMIT) CUSTOM() DEFPRESP(SYNC) DEFPRTY(0) DEFPSIST(NO) DESCR() "
             "PUT(ENABLED) ")
_CLUSTER_Q = "CLUSNL() CLUSTER() CLWLPRTY(0) CLWLRANK(0) DEFBIND(OPEN) SCOPE(QMGR) "
_LOCAL_Q = ("ACCTQ(QMGR) BOQNAME() BOTHRESH(0) DEFREADA(NO) DEFSOPT(SHARED) DISTL(NO) "
            "GET(ENABLED) HARDENBO(YES) INITQ() MAXDEPTH(5000) MAXFSIZE(DEFAULT) "
            "MAXMSGL(4194304) MONQ(QMGR) MSGDLVSQ(PRIORITY) NPMCLASS(NORMAL) PROCESS() "
            "PROPCTL(COMPAT) QDEPTHHI(80) QDEPTHLO(20) QDPHIEV(DISABLED) QDPLOEV(DISABLED) "
            "QDPMAXEV(ENABLED) QSVCIEV(NONE) QSVCINT(999999999) RETINTVL(999999999) "
            "SHARE(YES) STATQ(QMGR) STREAMQ() STRMQOS(BESTEF) TRIGDATA() TRIGDPTH(1) "
            "TRIGGER(NO) TRIGMPRI(0) TRIGTYPE(FIRST) USAGE(NORMAL) ")

#: The attributes MQ has for every channel type, with the supplied defaults (blank where an
#: attribute does not apply to the type: the per-type defaults below say which apply).
_SENDING = ("BATCHHB(0) BATCHINT(0) BATCHLIM(5000) BATCHSZ(50) CONNAME() DISCINT(6000) "
            "LOCLADDR() LONGRTY(999999999) LONGTMR(1200) MCANAME() MCATYPE(PROCESS) "
            "MODENAME() PASSWORD() PROPCTL(COMPAT) SHORTRTY(10) SHORTTMR(60) TPNAME() "
            "USERID() CONVERT(NO) ")
_RECEIVING = "MRDATA() MREXIT() MRRTY(10) MRTMR(1000) PUTAUT(DEF) SSLCAUTH(REQUIRED) "
_MESSAGE_CHL = ("CERTLABL() COMPHDR(NONE) COMPMSG(NONE) DESCR() HBINT(300) KAINT(AUTO) "
                "MAXMSGL(4194304) MCAUSER() MONCHL(QMGR) MSGDATA() MSGEXIT() NPMSPEED(FAST) "
                "RCVDATA() RCVEXIT() SCYDATA() SCYEXIT() SENDDATA() SENDEXIT() "
                "SEQWRAP(999999999) SPLPROT(PASSTHRU) SSLCIPH() SSLPEER() STATCHL(QMGR) "
                "TRPTYPE(TCP) USEDLQ(YES) ")
_CLUSTER_CHL = "CLUSNL() CLUSTER() CLWLPRTY(0) CLWLRANK(0) CLWLWGHT(50) "
_CONN_CHL = ("CERTLABL() COMPHDR(NONE) COMPMSG(NONE) DESCR() HBINT(300) KAINT(AUTO) "
             "MAXMSGL(4194304) RCVDATA() RCVEXIT() SCYDATA() SCYEXIT() SENDDATA() SENDEXIT() "
             "SHARECNV(10) SSLCIPH() SSLPEER() TRPTYPE(TCP) ")

#: Channel type -> (its default object, its attributes and IBM's default values).
CHANNEL_DEFAULTS: dict[str, tuple[str, Mapping[str, str]]] = {
    "SDR": ("SYSTEM.DEF.SENDER", _attrs("CHLTYPE(SDR) XMITQ() " + _MESSAGE_CHL + _SENDING)),
    "SVR": ("SYSTEM.DEF.SERVER",
            _attrs("CHLTYPE(SVR) XMITQ() SSLCAUTH(REQUIRED) " + _MESSAGE_CHL + _SENDING)),
    "RCVR": ("SYSTEM.DEF.RECEIVER",
             _attrs("CHLTYPE(RCVR) BATCHSZ(50) " + _MESSAGE_CHL + _RECEIVING)),
    "RQSTR": ("SYSTEM.DEF.REQUESTER",
              _attrs("CHLTYPE(RQSTR) BATCHSZ(50) CONNAME() LOCLADDR() MCANAME() "
                     "MCATYPE(PROCESS) MODENAME() PASSWORD() TPNAME() USERID() "
                     + _MESSAGE_CHL + _RECEIVING)),
    # cluster channels run as threads of the channel initiator: MCATYPE(THREAD); a cluster
    # sender has no CERTLABL (its cluster receiver's is used), a cluster receiver no
    # PASSWORD/USERID (DISPLAY CHANNEL(SYSTEM.DEF.CLUS*) ALL of IBM MQ 9.4.2)
    "CLUSSDR": ("SYSTEM.DEF.CLUSSDR",
                _without(_attrs("CHLTYPE(CLUSSDR) " + _CLUSTER_CHL + _MESSAGE_CHL + _SENDING
                                + "MCATYPE(THREAD)"), "CERTLABL")),
    "CLUSRCVR": ("SYSTEM.DEF.CLUSRCVR",
                 _without(_attrs("CHLTYPE(CLUSRCVR) NETPRTY(0) " + _CLUSTER_CHL + _MESSAGE_CHL
                                 + _SENDING + _RECEIVING + "MCATYPE(THREAD)"),
                          "PASSWORD", "USERID")),
    "SVRCONN": ("SYSTEM.DEF.SVRCONN",
                _attrs("CHLTYPE(SVRCONN) DISCINT(0) MAXINST(999999999) MAXINSTC(999999999) "
                       "MCAUSER() MONCHL(QMGR) SSLCAUTH(REQUIRED) " + _CONN_CHL)),
    "CLNTCONN": ("SYSTEM.DEF.CLNTCONN",
                 _attrs("CHLTYPE(CLNTCONN) AFFINITY(PREFERRED) CLNTWGHT(0) CONNAME() "
                        "DEFRECON(NO) LOCLADDR() MODENAME() PASSWORD() QMNAME() TPNAME() "
                        "USERID() " + _CONN_CHL)),
    "AMQP": ("SYSTEM.DEF.AMQP",
             _attrs("CHLTYPE(AMQP) AMQPKA(AUTO) CERTLABL() DESCR() LOCLADDR() "
                    "MAXINST(999999999) MAXMSGL(4194304) MCAUSER() "
                    "PORT(5672) SSLCAUTH(REQUIRED) SSLCIPH() SSLPEER() "
                    "TMPMODEL(SYSTEM.DEFAULT.MODEL.QUEUE) TMPQPRFX(AMQP.*) "
                    "TPROOT(SYSTEM.BASE.TOPIC) USECLTID(NO)")),
    # MQTT channels belong to the telemetry service; crtmqm defines no default one
    "MQTT": ("", _attrs("CHLTYPE(MQTT) BACKLOG(4096) DESCR() JAASCFG() LOCLADDR() "
                        "MCAUSER() PORT(1883) PROTOCOL(MQTTV3,MQTTV311,HTTP) "
                        "SSLCAUTH(REQUIRED) SSLCIPH() SSLKEYF() SSLKEYP() TRPTYPE(TCP) "
                        "USECLNTID(NO) DEFPSIST(NO)")),
}

_AUTHINFO = {
    "IDPWOS": ("SYSTEM.DEFAULT.AUTHINFO.IDPWOS",
               "AUTHTYPE(IDPWOS) ADOPTCTX(NO) CHCKCLNT(NONE) CHCKLOCL(OPTIONAL) DESCR() "
               "FAILDLAY(1) AUTHENMD(OS)"),
    "IDPWLDAP": ("SYSTEM.DEFAULT.AUTHINFO.IDPWLDAP",
                 "AUTHTYPE(IDPWLDAP) ADOPTCTX(NO) AUTHORMD(OS) BASEDNG() BASEDNU() "
                 "CHCKCLNT(NONE) CHCKLOCL(OPTIONAL) CLASSGRP() CLASSUSR() CONNAME() DESCR() "
                 "FAILDLAY(1) FINDGRP() GRPFIELD() LDAPPWD() LDAPUSER() NESTGRP(NO) "
                 "SECCOMM(NO) SHORTUSR() USRFIELD() LDAPSNDT() LDAPRCVT()"),
    "CRLLDAP": ("SYSTEM.DEFAULT.AUTHINFO.CRLLDAP",
                "AUTHTYPE(CRLLDAP) CONNAME() DESCR() LDAPPWD() LDAPUSER()"),
    "OCSP": ("SYSTEM.DEFAULT.AUTHINFO.OCSP", "AUTHTYPE(OCSP) DESCR() OCSPURL()"),
}

#: Object type (and, for CHANNEL and AUTHINFO, its CHLTYPE/AUTHTYPE) -> (default object's
#: name, IBM's default attribute values).
TYPE_DEFAULTS: dict[tuple[str, str], tuple[str, Mapping[str, str]]] = {
    ("QLOCAL", ""): ("SYSTEM.DEFAULT.LOCAL.QUEUE",
                     _attrs(_COMMON_Q + _CLUSTER_Q + _LOCAL_Q + "CLCHNAME() CLWLUSEQ(QMGR) "
                            "IMGRCOVQ(QMGR)")),
    ("QMODEL", ""): ("SYSTEM.DEFAULT.MODEL.QUEUE",
                     _attrs(_COMMON_Q + _LOCAL_Q + "DEFTYPE(TEMPDYN) IMGRCOVQ(QMGR)")),
    ("QALIAS", ""): ("SYSTEM.DEFAULT.ALIAS.QUEUE",
                     _attrs(_COMMON_Q + _CLUSTER_Q + "DEFREADA(NO) GET(ENABLED) "
                            "PROPCTL(COMPAT) TARGET() TARGTYPE(QUEUE)")),
    ("QREMOTE", ""): ("SYSTEM.DEFAULT.REMOTE.QUEUE",
                      _attrs(_COMMON_Q + _CLUSTER_Q + "RNAME() RQMNAME() XMITQ()")),
    **{("CHANNEL", t): d for t, d in CHANNEL_DEFAULTS.items()},
    **{("AUTHINFO", t): (n, _attrs(a)) for t, (n, a) in _AUTHINFO.items()},
    ("TOPIC", ""): ("SYSTEM.DEFAULT.TOPIC",
                    _attrs("CAPEXPRY(ASPARENT) CLROUTE(DIRECT) CLUSTER() COMMINFO() CUSTOM() "
                           "DEFPRESP(ASPARENT) DEFPRTY(ASPARENT) DEFPSIST(ASPARENT) DESCR() "
                           "DURSUB(ASPARENT) MCAST(ASPARENT) MDURMDL() MNDURMDL() "
                           "NPMSGDLV(ASPARENT) PMSGDLV(ASPARENT) PROXYSUB(FIRSTUSE) "
                           "PUB(ASPARENT) PUBSCOPE(ASPARENT) SUB(ASPARENT) "
                           "SUBSCOPE(ASPARENT) TOPICSTR() TYPE(LOCAL) USEDLQ(ASPARENT) "
                           "WILDCARD(PASSTHRU)")),
    ("SUB", ""): ("SYSTEM.DEFAULT.SUB",
                  _attrs("DEST() DESTCLAS(PROVIDED) DESTCORL() DESTQMGR() EXPIRY(UNLIMITED) "
                         "PSPROP(MSGPROP) PUBACCT() PUBAPPID() PUBPRTY(ASPUB) REQONLY(NO) "
                         "SELECTOR() SUBLEVEL(1) SUBSCOPE(ALL) SUBUSER() TOPICOBJ() "
                         "TOPICSTR() USERDATA() VARUSER(ANY) WSCHEMA(TOPIC)")),
    ("NAMELIST", ""): ("SYSTEM.DEFAULT.NAMELIST", _attrs("DESCR() NAMES()")),
    ("PROCESS", ""): ("SYSTEM.DEFAULT.PROCESS",
                      _attrs("APPLICID() APPLTYPE(UNIX) DESCR() ENVRDATA() USERDATA()")),
    ("LISTENER", ""): ("SYSTEM.DEFAULT.LISTENER.TCP",
                       _attrs("BACKLOG(0) CONTROL(MANUAL) DESCR() IPADDR() PORT(0) "
                              "TRPTYPE(TCP)")),
    ("SERVICE", ""): ("SYSTEM.DEFAULT.SERVICE",
                      _attrs("CONTROL(MANUAL) DESCR() SERVTYPE(COMMAND) STARTARG() "
                             "STARTCMD() STDERR() STDOUT() STOPARG() STOPCMD()")),
    ("COMMINFO", ""): ("SYSTEM.DEFAULT.COMMINFO.MULTICAST",
                       _attrs("BRIDGE(ENABLED) CCSID(0) COMMEV(DISABLED) DESCR() "
                              "ENCODING(AS_PUBLISHED) GRPADDR(239.0.0.0) MCHBINT(2000) "
                              "MCPROP(COMPAT) MONINT(60) MSGHIST(100) NSUBHIST(NONE) "
                              "PORT(1414) TYPE(MULTICAST)")),
}

#: ALTER QMGR's attributes (Multiplatforms, and z/OS ones MQSC also reads) with the values a
#: new queue manager has; CMDLEVEL is display-only in MQ and settable here (the simulator
#: models older queue managers with it).
QMGR_DEFAULTS: Mapping[str, str] = _attrs(
    "ACCTCONO(DISABLED) ACCTINT(1800) ACCTMQI(OFF) ACCTQ(OFF) ACTIVREC(MSG) "
    "ACTVCONO(DISABLED) ACTVTRC(OFF) ADVCAP(ENABLED) AMQPCAP(NO) AUTHOREV(DISABLED) "
    "BRIDGEEV(DISABLED) CCSID(819) CERTLABL(ibmwebspheremq) CERTVPOL(ANY) CHAD(DISABLED) "
    "CHADEV(DISABLED) CHADEXIT() CHLAUTH(ENABLED) CHLEV(DISABLED) CLWLDATA() CLWLEXIT() "
    "CLWLLEN(100) CLWLMRUC(999999999) CLWLUSEQ(LOCAL) CMDEV(DISABLED) CMDLEVEL(940) "
    "CONFIGEV(DISABLED) CONNAUTH(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) CUSTOM() DEADQ() "
    "DEFCLXQ(SCTQ) DEFXMITQ() DESCR() IMGINTVL(60) IMGLOGLN(OFF) IMGRCOVO(YES) "
    "IMGRCOVQ(YES) IMGSCHED(MANUAL) INHIBTEV(DISABLED) INITKEY() IPADDRV(IPV4) "
    "KEYRPWD() LOCALEV(DISABLED) LOGGEREV(DISABLED) MARKINT(5000) MAXHANDS(256) "
    "MAXMSGL(4194304) MAXPROPL(NOLIMIT) MAXUMSGS(10000) MONACLS(QMGR) MONCHL(OFF) "
    "MONQ(OFF) PARENT() PERFMEV(DISABLED) PSCLUS(ENABLED) PSMODE(ENABLED) "
    "PSNPMSG(DISCARD) PSNPRES(NORMAL) PSRTYCNT(5) PSSYNCPT(IFPER) REMOTEEV(DISABLED) "
    "REPOS() REPOSNL() REVDNS(ENABLED) ROUTEREC(MSG) SCHINIT(QMGR) SCMDSERV(QMGR) "
    "SSLCRLNL() SSLCRYP() SSLEV(DISABLED) SSLFIPS(NO) SSLKEYR() SSLRKEYC(0) "
    "STATACLS(QMGR) STATCHL(OFF) STATINT(1800) STATMQI(OFF) STATQ(OFF) "
    "STRSTPEV(ENABLED) SUITEB(NONE) TREELIFE(1800) TRIGINT(999999999)")
#: z/OS-only ALTER QMGR attributes: read and kept, no default here.
_QMGR_ZOS = frozenset({
    "ACTCHL", "ADOPTCHK", "ADOPTMCA", "CFCONLOS", "CHIADAPS", "CHIDISPS", "CHISERVP",
    "DNSGROUP", "DNSWLM", "EXPRYINT", "GROUPUR", "IGQ", "IGQAUT", "IGQUSER", "LSTRTMR",
    "LUGROUP", "LUNAME", "LU62ARM", "LU62CHL", "MAXCHL", "OPORTMAX", "OPORTMIN", "QSGCERTL",
    "QSGNAME", "RCVTIME", "RCVTMIN", "RCVTTYPE", "SCYCASE", "SQQMNAME", "SSLTASKS", "TCPCHL",
    "TCPKEEP", "TCPNAME", "TCPSTACK", "TRAXSTR", "TRAXTBL", "OTELTRAC", "OTELPCTL"})

# System objects: (kind, name) -> attributes that differ from the type default.
_Q = "QLOCAL"
_SYSTEM_TEXT: list[tuple[str, str, str]] = [
    *((_Q, n, "") for n in (
        "SYSTEM.ADMIN.ACCOUNTING.QUEUE", "SYSTEM.ADMIN.ACTIVITY.QUEUE",
        "SYSTEM.ADMIN.CHANNEL.EVENT", "SYSTEM.ADMIN.COMMAND.EVENT",
        "SYSTEM.ADMIN.COMMAND.QUEUE", "SYSTEM.ADMIN.CONFIG.EVENT",
        "SYSTEM.ADMIN.LOGGER.EVENT", "SYSTEM.ADMIN.PERFM.EVENT", "SYSTEM.ADMIN.PUBSUB.EVENT",
        "SYSTEM.ADMIN.QMGR.EVENT", "SYSTEM.ADMIN.STATISTICS.QUEUE",
        "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE", "SYSTEM.ADMIN.TRACE.ROUTE.QUEUE",
        "SYSTEM.AUTH.DATA.QUEUE", "SYSTEM.BROKER.ADMIN.STREAM",
        "SYSTEM.BROKER.CONTROL.QUEUE", "SYSTEM.BROKER.DEFAULT.STREAM",
        "SYSTEM.BROKER.DEFAULT.SUBPOINT", "SYSTEM.BROKER.INTER.BROKER.COMMUNICATIONS",
        "SYSTEM.CHANNEL.INITQ", "SYSTEM.CHANNEL.SYNCQ", "SYSTEM.CHLAUTH.DATA.QUEUE",
        "SYSTEM.CICS.INITIATION.QUEUE", "SYSTEM.CLUSTER.COMMAND.QUEUE",
        "SYSTEM.CLUSTER.HISTORY.QUEUE", "SYSTEM.CLUSTER.REPOSITORY.QUEUE",
        "SYSTEM.DEAD.LETTER.QUEUE", "SYSTEM.DEFAULT.INITIATION.QUEUE",
        "SYSTEM.DEFAULT.LOCAL.QUEUE", "SYSTEM.DURABLE.SUBSCRIBER.QUEUE",
        "SYSTEM.HIERARCHY.STATE", "SYSTEM.INTER.QMGR.CONTROL", "SYSTEM.INTER.QMGR.FANREQ",
        "SYSTEM.INTER.QMGR.PUBS", "SYSTEM.PENDING.DATA.QUEUE",
        "SYSTEM.PROTECTION.ERROR.QUEUE", "SYSTEM.PROTECTION.POLICY.QUEUE",
        "SYSTEM.RETAINED.PUB.QUEUE", "SYSTEM.SELECTION.EVALUATION.QUEUE",
        "SYSTEM.SELECTION.VALIDATION.QUEUE", "SYSTEM.DDELAY.LOCAL.QUEUE")),
    (_Q, "SYSTEM.CLUSTER.TRANSMIT.QUEUE", "USAGE(XMITQ) MAXDEPTH(999999999) DEFPSIST(YES)"),
    ("QALIAS", "SYSTEM.DEFAULT.ALIAS.QUEUE", ""),
    ("QREMOTE", "SYSTEM.DEFAULT.REMOTE.QUEUE", ""),
    *(("QMODEL", n, d) for n, d in (
        ("SYSTEM.DEFAULT.MODEL.QUEUE", ""),
        ("SYSTEM.CLUSTER.TRANSMIT.MODEL.QUEUE", "USAGE(XMITQ) DEFTYPE(PERMDYN)"),
        ("SYSTEM.DURABLE.MODEL.QUEUE", "DEFTYPE(PERMDYN) DEFPSIST(YES)"),
        ("SYSTEM.NDURABLE.MODEL.QUEUE", ""),
        ("SYSTEM.JMS.TEMPQ.MODEL", ""),
        ("SYSTEM.MQEXPLORER.REPLY.MODEL", ""),
        ("SYSTEM.MQSC.REPLY.QUEUE", ""))),
    *(("CHANNEL", name, f"CHLTYPE({t})") for t, (name, _) in CHANNEL_DEFAULTS.items() if name),
    ("CHANNEL", "SYSTEM.AUTO.RECEIVER", "CHLTYPE(RCVR) DESCR(Auto-defined by)"),
    ("CHANNEL", "SYSTEM.AUTO.SVRCONN", "CHLTYPE(SVRCONN) DESCR(Auto-defined by)"),
    ("CHANNEL", "SYSTEM.ADMIN.SVRCONN", "CHLTYPE(SVRCONN)"),
    *(("AUTHINFO", name, f"AUTHTYPE({t})") for t, (name, _) in _AUTHINFO.items()),
    ("TOPIC", "SYSTEM.DEFAULT.TOPIC", ""),
    ("TOPIC", "SYSTEM.BASE.TOPIC",
     "CAPEXPRY(NOLIMIT) DEFPRESP(SYNC) DEFPRTY(0) DEFPSIST(NO) DURSUB(YES) MCAST(DISABLED) "
     "MDURMDL(SYSTEM.DURABLE.MODEL.QUEUE) MNDURMDL(SYSTEM.NDURABLE.MODEL.QUEUE) "
     "NPMSGDLV(ALLAVAIL) PMSGDLV(ALLDUR) PUB(ENABLED) PUBSCOPE(ALL) SUB(ENABLED) "
     "SUBSCOPE(ALL) USEDLQ(YES)"),
    ("TOPIC", "SYSTEM.BROKER.ADMIN.STREAM", "TOPICSTR(SYSTEM.BROKER.ADMIN.STREAM)"),
    ("TOPIC", "SYSTEM.BROKER.DEFAULT.STREAM", "TOPICSTR()"),
    ("TOPIC", "SYSTEM.BROKER.DEFAULT.SUBPOINT", "TOPICSTR()"),
    ("TOPIC", "SYSTEM.ADMIN.TOPIC", "TOPICSTR($SYS/MQ)"),
    ("SUB", "SYSTEM.DEFAULT.SUB", ""),
    ("NAMELIST", "SYSTEM.DEFAULT.NAMELIST", ""),
    ("NAMELIST", "SYSTEM.QPUBSUB.QUEUE.NAMELIST",
     "NAMES(SYSTEM.BROKER.DEFAULT.STREAM,SYSTEM.BROKER.ADMIN.STREAM)"),
    ("NAMELIST", "SYSTEM.QPUBSUB.SUBPOINT.NAMELIST", "NAMES(SYSTEM.BROKER.DEFAULT.SUBPOINT)"),
    ("PROCESS", "SYSTEM.DEFAULT.PROCESS", ""),
    ("LISTENER", "SYSTEM.DEFAULT.LISTENER.TCP", ""),
    ("SERVICE", "SYSTEM.DEFAULT.SERVICE", ""),
    ("SERVICE", "SYSTEM.AMQP.SERVICE",
     "CONTROL(MANUAL) SERVTYPE(SERVER) "
     "STARTCMD(+MQ_INSTALL_PATH+/amqp/bin/startAMQPService.sh) STARTARG(-m +QMNAME+) "
     "STOPCMD(+MQ_INSTALL_PATH+/amqp/bin/endAMQPService.sh) STOPARG(-m +QMNAME+)"),
    ("COMMINFO", "SYSTEM.DEFAULT.COMMINFO.MULTICAST", ""),
]

#: (kind, name) -> the system object's own attributes (the rest are its type default's).
SYSTEM_OBJECTS: dict[tuple[str, str], Mapping[str, str]] = {
    (kind, name): _attrs(text) for kind, name, text in _SYSTEM_TEXT}
_BY_NAME: dict[str, list[tuple[str, str]]] = {}
for _key in SYSTEM_OBJECTS:
    _BY_NAME.setdefault(_key[1], []).append(_key)


#: kind -> the attribute naming its subtype, for the kinds whose defaults depend on one
SUBTYPE_KEYWORDS = {"CHANNEL": "CHLTYPE", "AUTHINFO": "AUTHTYPE"}


def type_default(kind: str, attrs: Mapping[str, str] | None = None) -> Mapping[str, str]:
    """IBM's defaults for an object of `kind` (a CHANNEL's by its CHLTYPE, an AUTHINFO's by
    its AUTHTYPE, read from `attrs`); empty for a type with no default object."""
    sub = SUBTYPE_KEYWORDS.get(kind)
    found = TYPE_DEFAULTS.get((kind, attrs.get(sub, "") if sub and attrs else ""))
    return found[1] if found else _EMPTY


_EMPTY: Mapping[str, str] = MappingProxyType({})


def default_object(kind: str, subtype: str = "") -> str:
    """The name of the object DEFINE `kind` copies unnamed attributes from ('' if none)."""
    found = TYPE_DEFAULTS.get((kind, subtype))
    return found[0] if found else ""


def is_system_name(name: str) -> bool:
    """True for a name MQ reserves for its own objects (SYSTEM.*)."""
    return name.startswith("SYSTEM.")


def system_objects(kind: str | None = None) -> Iterator[tuple[str, str, Mapping[str, str]]]:
    """(kind, name, own attributes) of every object crtmqm makes (of one `kind` if given)."""
    for (k, name), attrs in SYSTEM_OBJECTS.items():
        if kind is None or k == kind:
            yield k, name, attrs


def _keywords() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for (kind, _sub), (_name, attrs) in TYPE_DEFAULTS.items():
        out.setdefault(kind, set()).update(attrs)
    out["QMGR"] = set(QMGR_DEFAULTS) | _QMGR_ZOS
    return {k: frozenset(v) for k, v in out.items()}


#: Object type -> every attribute keyword MQSC has for it on DEFINE/ALTER.
KNOWN_KEYWORDS = _keywords()


#: SET CHLAUTH / SET AUTHREC / SET POLICY: the keywords that tell one record from another of
#: the same profile (for CHLAUTH: its TYPE and what the TYPE maps; a BLOCKUSER or BLOCKADDR
#: record is one per profile, its USERLIST/ADDRLIST is its content).
RECORD_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "CHLAUTH": ("TYPE", "ADDRESS", "CLNTUSER", "QMNAME", "SSLPEER", "SSLCERTI"),
    "AUTHREC": ("OBJTYPE", "PRINCIPAL", "GROUP", "PROFILE"),
    "POLICY": (),
})


def record_key(kind: str, name: str, attrs: Mapping[str, str]) -> tuple[str, ...]:
    """What identifies a SET CHLAUTH/AUTHREC/POLICY record on its queue manager."""
    return (kind, name, *(attrs.get(k, "") for k in RECORD_KEYS[kind]))


#: The channel authentication records crtmqm makes (IBM MQ, "Resolving CHLAUTH access
#: issues": no access to SYSTEM.* channels, no MQ-admin users on any channel, access to
#: SYSTEM.ADMIN.SVRCONN), as (kind, profile, attributes).
DEFAULT_RECORDS: tuple[tuple[str, str, Mapping[str, str]], ...] = (
    ("CHLAUTH", "SYSTEM.ADMIN.SVRCONN", MappingProxyType({
        "TYPE": "ADDRESSMAP", "ADDRESS": "*", "USERSRC": "CHANNEL",
        "DESCR": "Default rule to allow MQ Explorer access"})),
    ("CHLAUTH", "*", MappingProxyType({
        "TYPE": "BLOCKUSER", "USERLIST": "*MQADMIN",
        "DESCR": "Default rule to disallow privileged users"})),
    ("CHLAUTH", "SYSTEM.*", MappingProxyType({
        "TYPE": "ADDRESSMAP", "ADDRESS": "*", "USERSRC": "NOACCESS",
        "DESCR": "Default rule to disable all SYSTEM channels"})),
)
