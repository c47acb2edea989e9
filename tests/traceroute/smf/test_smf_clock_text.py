"""z/OS clocks and EBCDIC text, from their definitions (not from our own encoders)."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from traceroute.smf.clock import (
    EPOCH_1970,
    smf_date,
    smf_day,
    smf_time,
    stck_datetime,
    stck_micros,
    stck_of,
    stcke_datetime,
)
from traceroute.smf.ibmjson import time_strings
from traceroute.smf.text import FORMATTER_EXCEPTIONS, clean, ebcdic, shown


def test_stck_definition():
    """Bit 51 is one microsecond; zero is 1900-01-01 00:00 UTC; no leap seconds counted."""
    assert stck_micros(1 << 12) == 1
    assert (dt.datetime(1970, 1, 1) - dt.datetime(1900, 1, 1)) \
        // dt.timedelta(microseconds=1) << 12 == EPOCH_1970
    # any value, by the definition
    value = 0xD1F3B4E5C6A78900
    expected = dt.datetime(1900, 1, 1) + dt.timedelta(microseconds=value >> 12)
    assert stck_datetime(value) == expected
    assert stck_datetime(0) is None and stck_datetime(EPOCH_1970 - 1) is None
    assert stck_datetime((1 << 64) - 1).year == 2042  # the end of the first epoch


@given(st.datetimes(min_value=dt.datetime(1970, 1, 1), max_value=dt.datetime(2042, 9, 17)))
def test_stck_round_trip(moment):
    assert stck_datetime(stck_of(moment)) == moment


def test_stcke():
    """STCKE: an epoch byte, then the STCK bits, then more."""
    value = stck_of(dt.datetime(2024, 3, 26, 2, 30))
    raw = b"\x00" + value.to_bytes(8, "big") + bytes(7)
    assert stcke_datetime(raw) == dt.datetime(2024, 3, 26, 2, 30)
    assert stcke_datetime(b"\x01" + raw[1:]) is None  # a later epoch
    assert stcke_datetime(raw[:5]) is None


def test_smf_header_date_and_time():
    """X'0cyydddF': Figure 23's X'0100223F' is 2000, day 223; the time counts hundredths."""
    assert smf_date(bytes.fromhex("0100223F")) == (2000, 223)
    assert smf_day(2000, 223) == dt.date(2000, 8, 10)
    assert smf_date(bytes.fromhex("0124366F")) == (2024, 366)
    assert smf_day(2023, 366) is None and smf_day(2024, 0) is None
    assert smf_date(bytes.fromhex("01A4366F")) is None
    assert smf_time(0x00356124) == dt.time(9, 43, 2, 760_000)  # Figure 23: 3,498,276 hundredths


def test_ibm_time_strings():
    assert time_strings(0) == ("1970-01-01", "00:00:00.000000")
    assert time_strings(None) == ("1970-01-01", "00:00:00.000000")
    assert time_strings(stck_of(dt.datetime(2015, 11, 24, 2, 46, 19, 650439))) == (
        "2015-11-24", "02:46:19.650439")


def test_ebcdic_text():
    raw = "SYSTEM.ADMIN.Q".encode("cp037") + b"\x40\x40\x00"
    assert shown(raw) == "SYSTEM.ADMIN.Q..."[:14] + "  ."
    assert clean(raw) == "SYSTEM.ADMIN.Q"
    assert clean(b"\x04\x86\x27\x40") == ".f."  # binary bytes: controls shown as "."
    assert ebcdic("QM1", 8) == b"\xd8\xd4\xf1" + b"\x40" * 5
    # IBM's formatter's own renderings of eleven bytes, and '.' for unprintable ones
    assert shown(bytes(FORMATTER_EXCEPTIONS)) == "".join(FORMATTER_EXCEPTIONS.values())
    assert shown(bytes(range(0x40))) == "." * 0x40
    assert shown(b"\xc1\xf9\x81\xe9\x4b\x6d") == "A9aZ._"
