"""A small object authority manager: SET AUTHREC / setmqaut grants checked as MQ's OAM does.

Authority records (`SET AUTHREC PROFILE(p) OBJTYPE(t) PRINCIPAL(u)|GROUP(g) AUTHADD(...)
AUTHRMV(...)`, kept on the queue manager by traceroute.sim.mqsc) grant authorities to a user
or a group on the objects a profile names: the object's own name, or a generic profile (`?`
one character, `*` any characters within one qualifier, `**` any qualifiers). For each
principal and group of a user the most specific profile that matches counts (an exact name
before any generic one; then the one with more fixed characters); the user's authorities are
the union over them (SecurityPolicy=user: PRINCIPAL is the user itself). The user `mqm` and
members of the group `mqm` are authorized for everything, as on a real queue manager, so a
simulation that names no users checks nothing.

Which call needs what [mq]: MQCONN +connect on the queue manager; MQOPEN/MQPUT1 for output
+put, for input +get (+browse to browse); MQCLOSE deleting a permanent dynamic queue it did
not create +dlt; MQSUB +sub on the topic object; a subscription's own destination queue
+put; commands +dsp/+chg/+crt/+dlt/+clr/+ctrl on their object. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from traceroute.sim.network import QueueManager

#: The MQI authorities and the administrative ones, as AUTHADD names them.
MQI = ("ALTUSR", "BROWSE", "CONNECT", "GET", "INQ", "PASSALL", "PASSID", "PUB", "PUT",
       "RESUME", "SET", "SETALL", "SETID", "SUB")
ADMIN = ("CHG", "CLR", "CTRL", "CTRLX", "DLT", "DSP")
ALL = (*MQI, *ADMIN, "CRT", "SYSTEM")
GROUPS = {"ALL": ALL, "ALLMQI": MQI, "ALLADM": ADMIN, "NONE": ()}
#: OBJTYPE of SET AUTHREC -> the object kinds (MQSC) it covers.
OBJECT_TYPES = {"QMGR": ("QMGR",), "QUEUE": ("QLOCAL", "QREMOTE", "QALIAS", "QMODEL"),
                "TOPIC": ("TOPIC",), "CHANNEL": ("CHANNEL",), "PROCESS": ("PROCESS",),
                "NAMELIST": ("NAMELIST",), "AUTHINFO": ("AUTHINFO",),
                "LISTENER": ("LISTENER",), "SERVICE": ("SERVICE",), "COMMINFO": ("COMMINFO",),
                "CLNTCONN": ("CHANNEL",), "RQMNAME": ()}
SUPERUSER = "mqm"


def expand(words: str) -> set[str]:
    """AUTHADD/AUTHRMV text ('PUT,GET', 'ALLMQI', 'NONE') -> the authorities named."""
    out: set[str] = set()
    for word in re.split(r"[\s,]+", words.upper().strip()):
        if word:
            out.update(GROUPS.get(word, (word,)))
    return out


def spelled(auths: Iterable[str]) -> str:
    """Authorities as one AUTHADD list in MQ's order ('NONE' when there are none)."""
    given = set(auths)
    return ",".join(a for a in ALL if a in given) or "NONE"


@lru_cache(maxsize=4096)
def _pattern(profile: str) -> re.Pattern[str]:
    parts = []
    i = 0
    while i < len(profile):
        if profile.startswith("**", i):
            parts.append(".*")
            i += 2
        elif profile[i] == "*":
            parts.append("[^.]*")
            i += 1
        elif profile[i] == "?":
            parts.append(".")
            i += 1
        else:
            parts.append(re.escape(profile[i]))
            i += 1
    return re.compile("".join(parts) + r"\Z")


def matches(profile: str, name: str) -> bool:
    """Whether a (generic) profile names `name`."""
    if not any(c in profile for c in "*?"):
        return profile == name
    return _pattern(profile).match(name) is not None


def _specificity(profile: str) -> tuple[int, int]:
    generic = any(c in profile for c in "*?")
    return (0 if generic else 1, sum(1 for c in profile if c not in "*?"))


def _profile(record_name: str, objtype: str, qmgr: str) -> str:
    if objtype == "QMGR" and record_name in ("", "self", "@self"):
        return qmgr
    return record_name


def authorities(qm: QueueManager, objtype: str, name: str, user: str,
                groups: Iterable[str] = ()) -> frozenset[str]:
    """What `user` (in `groups`) may do with the object `name` of OBJTYPE `objtype` on qm."""
    groups = set(groups)
    if user == SUPERUSER or SUPERUSER in groups:
        return frozenset(ALL)
    best: dict[tuple[str, str], tuple[tuple[int, int], set[str]]] = {}
    for key, record in qm.records.items():
        if key[0] != "AUTHREC":
            continue
        attrs = record.attrs
        if attrs.get("OBJTYPE", "").upper() != objtype:
            continue
        principal, group = attrs.get("PRINCIPAL", ""), attrs.get("GROUP", "")
        if principal:
            entity = ("p", principal)
            if principal != user:
                continue
        elif group:
            entity = ("g", group)
            if group not in groups:
                continue
        else:
            continue
        profile = _profile(attrs.get("PROFILE", record.name), objtype, qm.name)
        if not matches(profile, name):
            continue
        rank = _specificity(profile)
        if entity not in best or rank > best[entity][0]:
            best[entity] = (rank, expand(attrs.get("AUTHADD", "")))
    out: set[str] = set()
    for _rank, auths in best.values():
        out |= auths
    return frozenset(out)


def authorized(qm: QueueManager, objtype: str, name: str, user: str,
               groups: Iterable[str], needed: Iterable[str]) -> bool:
    """Whether `user` has every authority in `needed` on the object."""
    return set(needed) <= authorities(qm, objtype, name, user, groups)


#: MQSC verb -> the authority a command needs on its object (DEFINE: +crt on the type).
COMMAND_AUTHORITY = {"DISPLAY": "DSP", "ALTER": "CHG", "DEFINE": "CRT", "DELETE": "DLT",
                     "CLEAR": "CLR", "START": "CTRL", "STOP": "CTRL", "PING": "CTRL",
                     "RESET": "CHG", "RESOLVE": "CTRLX", "REFRESH": "CHG", "SET": "CHG",
                     "PURGE": "CHG", "SUSPEND": "CHG", "RESUME": "CHG"}
#: MQSC object kind -> OBJTYPE of its authority records.
KIND_OBJTYPE: Mapping[str, str] = {
    **{k: "QUEUE" for k in ("QLOCAL", "QREMOTE", "QALIAS", "QMODEL", "QUEUE", "QSTATUS")},
    "CHANNEL": "CHANNEL", "CHSTATUS": "CHANNEL", "TOPIC": "TOPIC", "PROCESS": "PROCESS",
    "NAMELIST": "NAMELIST", "AUTHINFO": "AUTHINFO", "LISTENER": "LISTENER",
    "SERVICE": "SERVICE", "COMMINFO": "COMMINFO", "QMGR": "QMGR"}


def command_authorized(qm: QueueManager, verb: str, kind: str, name: str | None, user: str,
                       groups: Iterable[str] = ()) -> bool:
    """Whether `user` may run the command VERB KIND(name) on qm: +dsp on the queue manager
    for any command, and the verb's authority on its object (DEFINE: +crt on the type,
    checked on the queue manager's class profile)."""
    if not authorized(qm, "QMGR", qm.name, user, groups, ("DSP",)):
        return False
    need = COMMAND_AUTHORITY.get(verb.upper())
    objtype = KIND_OBJTYPE.get(kind.upper())
    if need is None or objtype is None:
        return True
    if verb.upper() == "DEFINE":
        return authorized(qm, objtype, "@class", user, groups, ("CRT",)) or \
            authorized(qm, "QMGR", qm.name, user, groups, ("CRT",))
    target = qm.name if objtype == "QMGR" else (name or "")
    return authorized(qm, objtype, target, user, groups, (need,))
