"""The system topics activity trace is published on, as amqsact's dynamic mode (-a, -c, -i)
subscribes to them (../shared/spec/activity-trace.md section 2.3, seed 002 "Subscribing to
application activity trace information"):

    $SYS/MQ/INFO/QMGR/<qmgr>/ActivityTrace/ApplName/<name>
    $SYS/MQ/INFO/QMGR/<qmgr>/ActivityTrace/ChannelName/<channel>
    $SYS/MQ/INFO/QMGR/<qmgr>/ActivityTrace/ConnectionId/<48 hex>

* `<qmgr>`: the queue manager's name, trailing blanks removed, each `/` replaced by `&`;
* ApplName: the part after the last `/` or `\\` (MQAXC.ApplName, APPLTAG), trailing blanks
  removed; ChannelName: trailing blanks removed, `/` -> `&`; ConnectionId: the full 24-byte
  id as 48 hex characters (EXTCONN then CONN of DISPLAY CONN).
* Wildcards stand only in the last level: `#` or `+` as the whole level (topic-based scheme,
  `--channel '#'`: every channel), or `*` / `?` in the name (character-based scheme,
  MQSO_WILDCARD_CHAR: `--appl 'amqs*'`). MQ refuses a wildcard in the fixed levels
  (MQRC_ADMIN_TOPIC_STRING_ERROR); none can be put there from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: What each resource type is called on the command line and in the topic.
RESOURCES = {"appl": "ApplName", "channel": "ChannelName", "conn_id": "ConnectionId"}
#: MQ's name lengths: MQ_APPL_NAME_LENGTH, MQ_CHANNEL_NAME_LENGTH, MQ_Q_MGR_NAME_LENGTH.
_LENGTHS = {"appl": 28, "channel": 20}
_QMGR_LENGTH = 48
TOPIC_SCHEME, CHAR_SCHEME = "TOPIC", "CHAR"

__all__ = ["CHAR_SCHEME", "RESOURCES", "TOPIC_SCHEME", "TraceTopic", "activity_trace_topic"]


@dataclass(frozen=True)
class TraceTopic:
    """A topic string to subscribe to and the wildcard scheme it is written in."""

    topic: str
    scheme: str = TOPIC_SCHEME

    @property
    def wildcard_char(self) -> bool:
        """True when the subscription needs MQSO_WILDCARD_CHAR."""
        return self.scheme == CHAR_SCHEME


def _level(text: str) -> str:
    """A name as a topic level: trailing blanks removed, `/` written `&` (MQ's rule)."""
    return text.rstrip(" ").replace("/", "&")


def activity_trace_topic(qmgr: str, kind: str, value: str) -> TraceTopic:
    """The topic of `kind` ('appl', 'channel' or 'conn_id') `value` on `qmgr`; ValueError
    saying what is wrong with a value MQ would refuse."""
    if kind not in RESOURCES:
        raise ValueError(f"{kind}: not one of {', '.join(RESOURCES)}")
    qm = _level(qmgr)
    if not qm or len(qm) > _QMGR_LENGTH:
        raise ValueError(f"queue manager {qmgr!r}: a name of 1 to {_QMGR_LENGTH} characters")
    if any(c in qm for c in "#+*?"):
        raise ValueError(f"queue manager {qmgr!r}: no wildcard in the queue manager's level")
    name = value
    if kind == "appl":
        name = re.split(r"[/\\]", value)[-1].rstrip(" ")
    elif kind == "channel":
        name = _level(value)
    else:
        name = value.strip().upper()
        if name not in ("#", "+") and not re.fullmatch(r"[0-9A-F]{48}", name):
            raise ValueError(f"--conn-id {value}: the full connection id is 48 hex characters "
                             "(EXTCONN then CONN of DISPLAY CONN)")
    if not name:
        raise ValueError(f"{kind.replace('_', '-')} {value!r}: empty")
    if kind in _LENGTHS and len(name) > _LENGTHS[kind] and name not in ("#", "+"):
        raise ValueError(f"{kind} {value!r}: longer than MQ's {_LENGTHS[kind]} characters")
    if any(c in name for c in "\x00\n\r"):
        raise ValueError(f"{kind} {value!r}: a control character")
    scheme = TOPIC_SCHEME
    if name in ("#", "+"):
        pass  # a whole level: the topic-based scheme's wildcard
    elif "*" in name or "?" in name:
        scheme = CHAR_SCHEME
        if "%" in name:  # a literal % would escape the next character
            raise ValueError(f"{kind} {value!r}: '%' with a character wildcard")
    return TraceTopic(f"$SYS/MQ/INFO/QMGR/{qm}/ActivityTrace/{RESOURCES[kind]}/{name}", scheme)
