"""Topic strings as IBM MQ reads them: levels, and the two wildcard schemes (what the
simulator's publish/subscribe engine and the journeys of publications both match with).

Topic-based scheme (MQSO_WILDCARD_TOPIC, DEFINE SUB WSCHEMA(TOPIC), the default), as IBM's
"Topic-based wildcard scheme" page describes it:

* `/` separates the levels of a topic string; an empty level is a level (`/a` has two).
* `#` matches any number of levels, zero included: `USA/#` matches `USA`, `USA/Alaska` and
  `USA/Alaska/Juneau`; `#/Results` matches `Results` and `IBM/Software/Results`.
* `+` matches exactly one level: `USA/+` matches `USA/Alabama` but neither `USA` nor
  `USA/Alabama/Auburn`; `IBM/+/Results` matches `IBM/Software/Results`.
* Both are wildcards only when they are a whole level ("on its own or next to the topic level
  separator"): in `USA#`, `#+` or `level#` they are literal characters. In a publication's
  topic string they are always literal, so a publisher may use `USA#` but not a level that is
  `#` or `+` alone (`publishable`).

Character-based scheme (MQSO_WILDCARD_CHAR, WSCHEMA(CHAR)): `*` matches zero or more
characters (slashes too), `?` exactly one, and `%` makes the character after it literal (it
must be `*`, `?` or `%`). `/` has no special meaning.

The `$SYS/MQ` branch (seed 002, "System topics for monitoring and activity trace") is kept
apart: a subscription whose wildcard stands above `$SYS/MQ` (`#`, `+/MQ/#`, `$*`) matches
none of its topic strings (`matches`), and no wildcard may stand in its fixed levels `$SYS/MQ`,
`…/INFO`, `…/INFO/QMGR`, `…/QMGR/<qmgr>`, `…/<qmgr>/ActivityTrace`
(`system_wildcard_misplaced`: MQRC_ADMIN_TOPIC_STRING_ERROR).
"""

from __future__ import annotations

import re
from functools import lru_cache

SEPARATOR = "/"
MULTI_LEVEL, SINGLE_LEVEL = "#", "+"
TOPIC_SCHEME, CHAR_SCHEME = "TOPIC", "CHAR"
#: MQ_TOPIC_STR_LENGTH: the longest topic string a queue manager takes.
MAX_TOPIC_LENGTH = 10240


def levels(topic: str) -> list[str]:
    """The levels of a topic string (`a//b` has an empty middle level)."""
    return topic.split(SEPARATOR)


def join(base: str, rest: str) -> str:
    """A topic object's TOPICSTR and the string an application or subscription adds to it
    (MQ puts a `/` between them; either may be empty)."""
    if base and rest:
        return f"{base}{SEPARATOR}{rest}"
    return base or rest


def has_wildcard(topic: str, scheme: str = TOPIC_SCHEME) -> bool:
    """True when the string holds a wildcard of the scheme (a subscription's many topics)."""
    if scheme == CHAR_SCHEME:
        return _char_pattern(topic)[1]
    return any(level in (MULTI_LEVEL, SINGLE_LEVEL) for level in levels(topic))


def publishable(topic: str) -> bool:
    """True when a publisher may put to this topic string: no level is `#` or `+` alone
    (those are wildcards; mixed with other characters they are literal)."""
    return not has_wildcard(topic) and len(topic) <= MAX_TOPIC_LENGTH


def fixed_prefix(pattern: str, scheme: str = TOPIC_SCHEME) -> str:
    """The levels of a subscription's topic string before its first wildcard level (the part
    of the topic tree the whole subscription lies under)."""
    if scheme == CHAR_SCHEME:
        out = []
        for level in levels(pattern):
            if _char_pattern(level)[1]:
                break
            out.append(level)
        return SEPARATOR.join(out)
    out = []
    for level in levels(pattern):
        if level in (MULTI_LEVEL, SINGLE_LEVEL):
            break
        out.append(level)
    return SEPARATOR.join(out)


#: The queue manager's own branch of the topic tree (SYSTEM.ADMIN.TOPIC).
SYSTEM_BRANCH = "$SYS/MQ"
_SYSTEM_LEVELS = ("$SYS", "MQ")
#: How many levels of a `$SYS/...` subscription no wildcard may stand in: `$SYS`, `MQ`,
#: `INFO`, `QMGR`, the queue manager's name and `ActivityTrace` (or `Monitor` ...).
_FIXED_LEVELS = 6


def in_system_branch(topic: str) -> bool:
    """True for a topic string in the `$SYS/MQ` branch."""
    return tuple(levels(topic)[:2]) == _SYSTEM_LEVELS


def system_wildcard_misplaced(pattern: str, scheme: str = TOPIC_SCHEME) -> bool:
    """True when a subscription's topic string begins `$SYS/` and has a wildcard in one of
    the fixed levels (`$SYS/MQ/INFO/QMGR/<qmgr>/ActivityTrace` and above), which MQ refuses
    with MQRC_ADMIN_TOPIC_STRING_ERROR; False for any other topic string."""
    parts = levels(pattern)
    if parts[0] != "$SYS" or not has_wildcard(pattern, scheme):
        return False
    fixed = levels(fixed_prefix(pattern, scheme))  # the levels before the first wildcard
    return len(fixed) < min(_FIXED_LEVELS, len(parts))


def matches(pattern: str, topic: str, scheme: str = TOPIC_SCHEME) -> bool:
    """Does a subscription's topic string `pattern` select the publication topic `topic`?
    A wildcard above `$SYS/MQ` selects nothing in that branch."""
    if topic.startswith("$SYS") and in_system_branch(topic) and \
            tuple(levels(fixed_prefix(pattern, scheme))[:2]) != _SYSTEM_LEVELS:
        return False
    if scheme == CHAR_SCHEME:
        return _char_regex(pattern).fullmatch(topic) is not None
    if MULTI_LEVEL not in pattern and SINGLE_LEVEL not in pattern:
        return pattern == topic
    return _levels_match(tuple(levels(pattern)), tuple(levels(topic)))


def _levels_match(pattern: tuple[str, ...], topic: tuple[str, ...]) -> bool:
    """Level-wise matching with `#` as zero or more levels: the set of topic positions each
    pattern level can end at (linear in pattern x topic, no backtracking blow-up)."""
    positions = {0}
    for level in pattern:
        if not positions:
            return False
        if level == MULTI_LEVEL:
            start = min(positions)
            positions = set(range(start, len(topic) + 1))
        elif level == SINGLE_LEVEL:
            positions = {p + 1 for p in positions if p < len(topic)}
        else:
            positions = {p + 1 for p in positions if p < len(topic) and topic[p] == level}
    return len(topic) in positions


def _char_pattern(pattern: str) -> tuple[str, bool]:
    """The regular expression of a character-based pattern, and whether it has wildcards."""
    out: list[str] = []
    wild = False
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "%" and i + 1 < len(pattern) and pattern[i + 1] in "*?%":
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        if c == "*":
            out.append(".*")
            wild = True
        elif c == "?":
            out.append(".")
            wild = True
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out), wild


@lru_cache(maxsize=1024)
def _char_regex(pattern: str) -> re.Pattern[str]:
    return re.compile(_char_pattern(pattern)[0], re.DOTALL)
