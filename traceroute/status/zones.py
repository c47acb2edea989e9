"""The time zone of a queue manager's clock, for the dates and times its PCF responses carry.

MQ writes LPUTDATE/LPUTTIME, LGETDATE/LGETTIME, LSTMSGDA/LSTMSGTI, CHSTADA/CHSTATI,
ALTDATE/ALTTIME and CRDATE/CRTIME as the queue manager's local date and time, with no
zone: reading them right needs the zone the queue manager runs in. `zone_of` reads one as
people write it: an IANA name (`Europe/Paris`, `America/New_York`), `UTC`, a fixed offset
(`+05:30`, `-0800`, `UTC+2`), or `local`: this machine's zone, daylight saving time included
(`LOCAL`), which is where a queue manager on this machine runs.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_EPOCH = datetime(1970, 1, 1)
_OFFSET = re.compile(r"(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?")


class SystemZone(tzinfo):
    """This machine's local time zone, as the C library keeps it (TZ, /etc/localtime):
    the offset of each moment, so a time in summer and one in winter both convert right."""

    def utcoffset(self, dt: datetime | None) -> timedelta:
        """The offset from UTC of a local wall-clock time here."""
        if dt is None:
            dt = datetime.now()
        wall = dt.replace(tzinfo=None)
        try:
            stamp = time.mktime((*wall.timetuple()[:8], -1))
        except (OverflowError, ValueError):
            return timedelta(seconds=-time.timezone)
        return timedelta(seconds=round((wall - _EPOCH).total_seconds() - stamp))

    def dst(self, dt: datetime | None) -> timedelta:
        """How much of the offset is daylight saving time."""
        return self.utcoffset(dt) - timedelta(seconds=-time.timezone)

    def tzname(self, dt: datetime | None) -> str:
        """The zone's abbreviation (CET, EDT ...)."""
        return time.tzname[1 if self.dst(dt) else 0]

    def fromutc(self, dt: datetime) -> datetime:
        """A UTC moment as this zone's wall-clock time."""
        naive = dt.replace(tzinfo=None)
        try:
            local = time.localtime((naive - _EPOCH).total_seconds())
        except (OverflowError, ValueError):
            return (naive - timedelta(seconds=time.timezone)).replace(tzinfo=self)
        return (naive + timedelta(seconds=local.tm_gmtoff)).replace(tzinfo=self)

    def __repr__(self) -> str:
        return "SystemZone()"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SystemZone)

    def __hash__(self) -> int:
        return hash(SystemZone)


#: This machine's zone (what `--qmgr-tz` defaults to for a real queue manager).
LOCAL = SystemZone()


class ZoneError(ValueError):
    """A time zone that cannot be read: names what was given."""


def zone_of(text: str) -> tzinfo:
    """The zone `text` names: IANA name, UTC, +HH:MM / -HHMM / UTC+H, or local."""
    given = text.strip()
    if not given:
        raise ZoneError("an empty time zone")
    if given.lower() == "local":
        return LOCAL
    if given.upper() in ("UTC", "GMT", "Z"):
        return UTC
    match = _OFFSET.fullmatch(given.upper())
    if match:
        sign, hours, minutes = match.group(1), int(match.group(2)), int(match.group(3) or 0)
        if hours > 14 or minutes > 59:
            raise ZoneError(f"{given}: an offset from UTC is at most 14 hours")
        offset = timedelta(hours=hours, minutes=minutes)
        return timezone(-offset if sign == "-" else offset)
    try:
        return ZoneInfo(given)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ZoneError(f"{given}: not a time zone (an IANA name such as Europe/Paris, UTC, "
                        "an offset such as +05:30, or local)") from None


def zone_name(zone: tzinfo) -> str:
    """How `zone_of` reads `zone` back ('local', 'UTC', 'Europe/Paris', '+05:30')."""
    if isinstance(zone, SystemZone):
        return "local"
    if zone is UTC or zone == UTC:
        return "UTC"
    if isinstance(zone, ZoneInfo):
        return zone.key
    offset = zone.utcoffset(None) or timedelta()
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
