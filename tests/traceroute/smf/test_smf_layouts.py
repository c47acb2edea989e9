"""The layout tables: every structure loads, the table language's errors are named, and the
structures only built here (queue statistics, subtype 216) read as IBM documents them."""

from __future__ import annotations

import struct

import pytest

from tests.support.smfrecords import START, qwhs, record, structure
from traceroute.smf import STRUCTURES, decode_record, layout, row_to_ibm
from traceroute.smf.layout import parse_layout


@pytest.mark.parametrize("name", STRUCTURES)
def test_every_layout_loads(name):
    lay = layout(name)
    assert lay.fields and len(set(lay.columns)) == len(lay.columns)
    assert all(f.offset is None or f.offset + f.size <= lay.extent for f in lay.fields)
    assert "structure" not in lay.columns  # IBM's second "structure" is structureName


def test_layout_errors_name_the_line():
    with pytest.raises(ValueError, match="layout X, line 2: unknown type 'u33'"):
        parse_layout("X", "@length 2\n8\tu33\tfoo\n")
    with pytest.raises(ValueError, match="line 1: unknown condition 'when>1'"):
        parse_layout("X", "8\tu32\tfoo\twhen>1\n")
    with pytest.raises(ValueError, match="unknown enumeration NOPE"):
        parse_layout("X", "8\tenum:NOPE:4\tfoo\n")


def qqst(length: int | None, flags: int) -> bytes:
    q = bytearray(structure("QQST", {"queue": "APP.Q", "currentDepth": 7, "outputHandles": 2,
                                     "qtimeShort": 55, "lastPut": START, "put": 11,
                                     "queueDepthHighWater": 9}, length=length))
    struct.pack_into(">I", q, 56, flags)  # QQSTFLAG: QQSTDISP, QQSTPART, QQSTUNCM
    return record(115, 216, qwhs(2), {1: [bytes(q)]}, release="946")


def test_queue_statistics_subtype_216():
    (row,) = decode_record(qqst(None, 0xA0000000)).rows
    q = row_to_ibm(row)
    assert (q["structure"], q["queue"].strip(), q["queueDisp"], q["record"],
            q["uncommitted"]) == ("QQST", "APP.Q", "SHARED", "FULL", "YES")
    assert (q["currentDepth"], q["outputHandles"], q["qtimeShort"], q["put"],
            q["queueDepthHighWater"]) == (7, 2, 55, 11, 9)
    assert (q["lastPutDate"], q["lastPutTime"]) == ("2024-03-26", "02:30:00.000000")


def test_queue_statistics_before_9_3_3():
    """An 84-byte QQST (the first release): no handles, QTIME, last put or uncommitted
    flag (their word is there, but the flag came with the handles), no 9.3.3 counts."""
    q = row_to_ibm(decode_record(qqst(84, 0x60000000)).rows[0])
    assert (q["record"], q["uncommitted"], q["outputHandles"], q["put"]) == (
        "PARTIAL", ".....", -1, -1)
    assert q["lastPutDate"] == "1970-01-01"
    q = row_to_ibm(decode_record(qqst(120, 0x20000000)).rows[0])
    assert (q["uncommitted"], q["outputHandles"], q["put"]) == ("YES", 2, -1)
