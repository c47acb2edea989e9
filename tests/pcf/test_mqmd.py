"""MQMD versions 1 and 2, both byte orders, ASCII and EBCDIC, against the spec's offsets."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pcf import PCFError, mqc
from pcf.mqmd import MQMD, pack, unpack


def test_offsets_match_the_spec_table():
    md = MQMD(report=0x0102, msg_type=4, expiry=600, feedback=269, encoding=273,
              coded_char_set_id=500, format="MQHEPCF", priority=5, persistence=1,
              msg_id=bytes(range(24)), correl_id=bytes(range(24, 48)), backout_count=3,
              reply_to_q="REPLY.Q", reply_to_q_mgr="QM1", user_identifier="mqm",
              accounting_token=b"\x01" * 32, appl_identity_data="id", put_appl_type=7,
              put_appl_name="QM2", put_date="20261122", put_time="12345678",
              appl_origin_data="ab", group_id=b"\x02" * 24, msg_seq_number=9, offset=10,
              msg_flags=8, original_length=77)
    b = pack(md, encoding=273, ccsid=819)
    assert len(b) == 364
    i = lambda off: struct.unpack_from(">i", b, off)[0]  # noqa: E731
    assert b[0:4] == b"MD  " and i(4) == 2 and i(8) == 0x0102 and i(12) == 4
    assert i(16) == 600 and i(20) == 269 and i(24) == 273 and i(28) == 500
    assert b[32:40] == b"MQHEPCF " and i(40) == 5 and i(44) == 1
    assert b[48:72] == bytes(range(24)) and b[72:96] == bytes(range(24, 48)) and i(96) == 3
    assert b[100:148] == b"REPLY.Q".ljust(48) and b[148:196] == b"QM1".ljust(48)
    assert b[196:208] == b"mqm".ljust(12) and b[208:240] == b"\x01" * 32
    assert b[240:272] == b"id".ljust(32) and i(272) == 7 and b[276:304] == b"QM2".ljust(28)
    assert b[304:312] == b"20261122" and b[312:320] == b"12345678" and b[320:324] == b"ab  "
    assert b[324:348] == b"\x02" * 24 and i(348) == 9 and i(352) == 10 and i(356) == 8
    assert i(360) == 77
    assert unpack(b) == md


def test_version_1_is_324_bytes_and_ebcdic():
    md = MQMD(version=1, format="MQADMIN", reply_to_q="Q")
    b = pack(md, encoding=785, ccsid=500)
    assert len(b) == 324 and b[:4] == b"\xd4\xc4\x40\x40"
    assert b[32:40] == "MQADMIN ".encode("cp500")
    back = unpack(b)
    assert back.format == "MQADMIN" and back.version == 1 and back.reply_to_q == "Q"


def test_little_endian_detected():
    md = MQMD(priority=3)
    assert unpack(pack(md, encoding=546)).priority == 3
    assert struct.unpack_from("<i", pack(md, encoding=546), 40)[0] == 3


def test_bad_mqmd():
    with pytest.raises(PCFError, match="truncated"):
        unpack(b"MD  " + b"\0" * 100)
    with pytest.raises(PCFError, match="StrucId"):
        unpack(b"XX  " + b"\0" * 400)
    with pytest.raises(PCFError, match="Version 7"):
        unpack(b"MD  " + struct.pack("<i", 7) + b"\0" * 400)
    with pytest.raises(PCFError, match="version-2"):
        unpack(pack(MQMD())[:330])


TEXT = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ.0123456789_", max_size=12)


@settings(max_examples=100)
@given(st.builds(MQMD, version=st.sampled_from([1, 2]),
                 report=st.integers(-(2**31), 2**31 - 1), msg_id=st.binary(min_size=24,
                                                                           max_size=24),
                 reply_to_q=TEXT, put_appl_name=TEXT, format=TEXT.map(lambda s: s[:8]),
                 original_length=st.integers(-(2**31), 2**31 - 1)),
       st.sampled_from([273, 546]), st.sampled_from([819, 500, 1047, 37]))
def test_pack_unpack_round_trip(md, encoding, ccsid):
    if md.version == 1:
        md.group_id, md.msg_seq_number, md.offset, md.msg_flags = bytes(24), 1, 0, 0
        md.original_length = mqc.MQOL_UNDEFINED
    assert unpack(pack(md, encoding=encoding, ccsid=ccsid)) == md
