"""z/OS clocks: STCK and STCKE time-of-day values, STCK durations, the SMF header's date and time.

A STCK value counts 2**-12 microseconds (bit 51 is one microsecond) since 1900-01-01 00:00 UTC;
a STCKE value is a zero epoch byte, the STCK value, then finer bits and a programmable field.
Like IBM's formatter we count no leap seconds: the time shown is the clock's own reading.
"""

from __future__ import annotations

import datetime as _dt

#: STCK units per microsecond.
PER_MICROSECOND = 4096
#: The STCK value of 1970-01-01 00:00:00 (70 years of 365 or 366 days, 17 of them leap).
EPOCH_1970 = (70 * 365 + 17) * 86_400 * 1_000_000 * PER_MICROSECOND
_UNIX = _dt.datetime(1970, 1, 1)
_ONE_US = _dt.timedelta(microseconds=1)


def stck_micros(value: int) -> int:
    """A STCK duration (or difference) in whole microseconds."""
    return value // PER_MICROSECOND


def stck_datetime(value: int) -> _dt.datetime | None:
    """A STCK time of day as a naive UTC datetime, to the microsecond; None for zero and for
    values before 1970 (z/OS leaves such fields unset)."""
    if value < EPOCH_1970:
        return None
    return _UNIX + (value - EPOCH_1970) // PER_MICROSECOND * _ONE_US


def stcke_datetime(raw: bytes) -> _dt.datetime | None:
    """A 16-byte STCKE time of day as a naive UTC datetime (its epoch byte must be zero: the
    first epoch ends in 2042); None when unset or out of that range."""
    if len(raw) < 9 or raw[0] != 0:
        return None
    return stck_datetime(int.from_bytes(raw[1:9], "big"))


def stck_of(moment: _dt.datetime) -> int:
    """The STCK value of a naive UTC datetime (for building records)."""
    return EPOCH_1970 + (moment - _UNIX) // _ONE_US * PER_MICROSECOND


def smf_date(raw: bytes) -> tuple[int, int] | None:
    """The SMF header's packed date X'0cyydddF' as (year, day of year); None when the digits
    are not decimal."""
    if len(raw) != 4:
        return None
    digits = raw.hex()
    if not digits[1:7].isdigit():
        return None
    century, yy, ddd = int(digits[1]), int(digits[2:4]), int(digits[4:7])
    return 1900 + 100 * century + yy, ddd


def smf_day(year: int, day_of_year: int) -> _dt.date | None:
    """The calendar date of an SMF (year, day of year); None when the day does not exist."""
    if not 1 <= day_of_year <= 366 or not 1 <= year <= 9999:
        return None
    day = _dt.date(year, 1, 1) + _dt.timedelta(days=day_of_year - 1)
    return day if day.year == year else None


def smf_time(hundredths: int) -> _dt.time:
    """The SMF header's time (hundredths of a second since midnight) as a time of day."""
    seconds, hund = divmod(hundredths, 100)
    return _dt.time((seconds // 3600) % 24, (seconds // 60) % 60, seconds % 60, hund * 10_000)
