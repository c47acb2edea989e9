"""The seed's example SMF records (IBM MQ 9.4 "Monitoring and performance", Figures 21, 23, 24
and 25, and the description of Figure 20) decode as the seed describes them.

The figures print a record's first bytes in hexadecimal; the rest of each record is not shown
and is zeros here. Each expectation below is the seed's own sentence about the figure.
"""

from __future__ import annotations

import datetime as dt
import struct

from tests.support.smfrecords import qwhs
from traceroute.smf import decode_record, row_to_ibm
from traceroute.smf.decode import Decoded, _header


def figure(lines: str, length: int) -> bytearray:
    """A figure's dump lines (`OFFSET WORD WORD WORD WORD *chars*`) as bytes at their offsets,
    zeros elsewhere, `length` bytes in all."""
    out = bytearray(length)
    for line in lines.strip().splitlines():
        offset, *words = line.split("*")[0].split()
        data = bytes.fromhex("".join(words))
        start = int(offset, 16)
        out[start:start + len(data)] = data
    return out


def stck(value: int) -> dt.datetime:
    """A STCK value as a datetime, computed here from its definition (bit 51 = 1 us)."""
    return dt.datetime(1900, 1, 1) + dt.timedelta(microseconds=value >> 12)


FIGURE_21 = """
000000 09F40000 5E730033 4DBE0113 142FD4E5
000010 F4F1D4D8 F2F10002 F9F1F000 00001428
000020 00240001 00000064 00480001 000000AC
000030 00500001 00000000 00000000 000000FC
000040 00200001 0000011C 02A00001 000003BC
000050 10080001 000013C4 00640001 00000000
000060 00000000 D40F0048 D8D4E2E3 00000000
0000A0 00000000 00000000 00000000 C90F0050
0000B0 D8C9E2E3 00000000 00000000 00000000
0000F0 00000000 00000000 00000000 D30F0020
000100 D8D3E2E3 00000000 00000000 00000000
000110 00000000 00000000 00000000 F50F02A0
000120 D8F5E2E3 00000008 00000000 00000000
"""


def subtype_2_record(*, as_shown: bool = False) -> bytes:
    """Figure 21 to the end of its sections: its first section (X'1C') points to the QWHS at
    X'1428', 36 bytes (not shown; here with QWHSNSDA 9), so the record ends at X'144C' although
    the figure's length halfword says X'09F4' (kept with as_shown)."""
    rec = figure(FIGURE_21, 0x1428 + 36)
    rec[0x1428:0x1428 + 36] = qwhs(9, length=36)
    if not as_shown:
        struct.pack_into(">H", rec, 0, len(rec))
    return bytes(rec[:0x09F4]) if as_shown else bytes(rec)


def test_figure_21_header_and_sections():
    rec = subtype_2_record()
    out = Decoded()
    header, sections = _header(rec, 115, 2, out)
    assert out.problems == []
    # "MV41", "MQ21", subtype 2, version 910 (Table 34's fields)
    assert (header.lpar, header.qmgr, header.subtype, header.version) == (
        "MV41".encode("cp037"), "MQ21".encode("cp037"), 2, "910".encode("cp037"))
    assert sections == [
        (0x1428, 0x24, 1),
        (0x64, 0x48, 1),     # message manager, QMST
        (0xAC, 0x50, 1),     # data manager, QIST
        (0, 0, 0),           # buffer manager: zeros from MQ 9.1 (in subtype 215)
        (0xFC, 0x20, 1),     # lock manager, QLST
        (0x11C, 0x2A0, 1),   # Db2 manager, Q5ST
        (0x3BC, 0x1008, 1),  # coupling facility manager, QEST
        (0x13C4, 0x64, 1),   # topic manager, QTST
        (0, 0, 0),           # SMDS: zeros, not in use
    ]


def test_figure_21_structures():
    decoded = decode_record(subtype_2_record())
    assert decoded.problems == []
    # QEST's 64 entries are unused (no CF structure names): no row for them
    assert [r.structure for r in decoded.rows] == ["QMST", "QIST", "QLST", "Q5ST", "QTST"]
    q5st = row_to_ibm(decoded.rows[3])
    assert q5st["serverTasks"] == 8  # X'00000008' at X'124', NUMTASK
    assert q5st["date"] == "2013/05/22" and q5st["mqVersion"] == "910"
    qmst = row_to_ibm(decoded.rows[0])
    # a X'48'-byte QMST ends after its MQ 7.0 counts (pubs at X'44'): the MQ 9.0.3 ones
    # (persputs at X'48' on) are not in it and show -1, as IBM's formatter shows them
    assert qmst["open"] == qmst["pubs"] == 0
    assert qmst["persputs"] == qmst["nonpersputbytes"] == -1


def test_figure_21_as_shown_reports_sections_past_its_length():
    """With the length the figure shows (X'09F4'), the QWHS and the CF and topic manager
    sections lie outside the record: reported, not read."""
    decoded = decode_record(subtype_2_record(as_shown=True))
    assert decoded.rows == []
    assert len(decoded.problems) == 1 and "past the record's end" in decoded.problems[0][1]


def test_figure_20_subtype_1_as_described():
    """Subtype 1: QSST at X'11C', X'48' bytes (self-defining section at X'64'); QJST at X'164',
    X'78' bytes (section at X'74'); one of each."""
    length = 0x164 + 0x78
    rec = bytearray(length)
    rec[:28] = bytes.fromhex("0000 0000 5E73 00334DBE 0113142F D4E5F4F1 D4D8F2F1 0001"
                             "F9F1F0 00".replace(" ", ""))
    struct.pack_into(">H", rec, 0, length)
    struct.pack_into(">IHH", rec, 0x1C, 0x100, 0x1C, 1)  # the QWHS
    rec[0x100:0x11C] = qwhs(12, length=0x1C)
    struct.pack_into(">IHH", rec, 0x64, 0x11C, 0x48, 1)
    struct.pack_into(">IHH", rec, 0x74, 0x164, 0x78, 1)
    struct.pack_into(">HH", rec, 0x11C, 0x0F00, 0x48)
    rec[0x120:0x124] = b"QSST".decode().encode("cp037")
    struct.pack_into(">I", rec, 0x11C + 8, 31)  # QSSTGPLF: fixed storage pools allocated
    struct.pack_into(">HH", rec, 0x164, 0x0F00, 0x78)
    rec[0x168:0x16C] = "QJST".encode("cp037")
    struct.pack_into(">i", rec, 0x164 + 12, 1755610)  # QJSTWRNW
    decoded = decode_record(bytes(rec))
    assert decoded.problems == []
    assert [r.structure for r in decoded.rows] == ["QSST", "QJST"]
    assert row_to_ibm(decoded.rows[0])["fixedPoolsAlloc"] == 31
    qjst = row_to_ibm(decoded.rows[1])
    assert qjst["wrtRequestNowait"] == 1755610
    # a QJST of X'78' bytes has no compression or I/O fields: IBM's formatter shows -1
    assert qjst["compRequests"] == -1 and qjst["ioCount"] == [-1, -1, -1, -1]


FIGURE_23 = """
000000 01A40000 5E740035 61240100 223FD4E5
000010 F4F1D4D8 F0F70000 F6F0F000 00000134
000020 00700001 00000054 00B00001 00000104
000030 00300001 00000000 00000000 00000000
000040 00000000 00000000 00000000 00000000
000050 00000000 B478AB43 9C6C2280 B478AB47
000060 9DB47E02 00000000 04C0F631 00000001
000070 9880E72D 00000000 014D9540 00000000
000080 08480C80 00000010 40404040 40404040
000090 00000000 00000000 00000051 00000000
000100 00000000 D4140030 D8D4C1C3 00000000
000110 689C738D 00000050 00000000 00000050
000120 0000000A 00000000 00000000 00000000
000130 00000000 0024011A 00030710 02DAACF0
"""


def test_figure_23_subtype_0():
    """The message manager accounting record is at X'104', X'30' bytes long, one of it
    (self-defining section at X'2C'); the record is X'01A4' bytes, MQ07 on MV41, MQ 600."""
    rec = bytes(figure(FIGURE_23, 0x1A4))
    decoded = decode_record(rec)
    assert decoded.problems == []
    assert [r.structure for r in decoded.rows] == ["QMAC"]
    qmac = row_to_ibm(decoded.rows[0])
    assert (qmac["lpar"], qmac["qmgr"], qmac["mqVersion"]) == ("MV41", "MQ07", "600")
    assert qmac["date"] == "2000/08/10"  # X'0100223F': 2000, day 223
    assert qmac["cpuTimeUs"] == 0x689C738D >> 12  # QMACCPUT, a STCK duration
    assert [qmac[k] for k in ("putsLen0to99", "putsLen100to999", "putsLen1000to9999",
                              "putsLen10000")] == [0x50, 0, 0x50, 0x0A]
    assert qmac["getsLen0to99"] == 0


FIGURE_24 = """
000000 703C0000 5E74002D 983B0100 229FD4E5
000010 F4F1D4D8 F0F70001 F6F0F000 00006FCC
000020 00700001 0000003C 00D00001 0000010C
000030 02C00001 000003CC 02400030 F70000D0
000040 E6E3C9C4 00000000 00000000 00000040
000100 00000000 00000000 7F4A4BB8 F70102C0
000110 E6E3C1E2 B4802373 0BF07885 7F4AE718
"""

FIGURE_25 = """
000000 49740000 5E74002D 983B0100 229FD4E5
000010 F4F1D4D8 F0F70002 F6F0F000 00004904
000020 00700001 00000034 00D00001 00000104
000030 02400020 F70000D0 E6E3C9C4 00000002
000100 7F4A4BB8 F7020240 E6D8E2E3 00000001
"""


def test_figure_24_subtype_1_thread_and_48_queues():
    """X'3C': WTID, X'D0' bytes, one; X'10C': WTAS, X'2C0' bytes, one; X'3CC': the first WQST,
    X'240' bytes, X'30' of them (present because WTASWQCT is non-zero: the figure does not
    show it, here 48)."""
    rec = figure(FIGURE_24, 0x703C)
    rec[0x6FCC:0x6FCC + 36] = qwhs(4, length=36)
    struct.pack_into(">i", rec, 0x10C + 44, 48)  # WTASWQCT
    decoded = decode_record(bytes(rec))
    assert decoded.problems == []
    names = [r.structure for r in decoded.rows]
    assert names == ["WTAS"] + ["WQ"] * 48 + ["WTID"]
    wtas = row_to_ibm(decoded.rows[0])
    start = stck(0xB48023730BF07885)
    assert (wtas["startTimeDate"], wtas["startTimeTime"]) == (
        start.strftime("%Y-%m-%d"), start.strftime("%H:%M:%S.%f"))
    assert wtas["correl"] == "B48023730BF078857F4AE71800000000"[:32]
    # its version (WTASVER, zero here) says it has no MQ 7 fields: IBM's formatter shows -1
    assert wtas["recordVersion"] == 0 and wtas["topicEtUs"] == -1


def test_figure_25_subtype_2_more_queues():
    """Subtype 2: X'34': WTID, X'D0' bytes; X'104': the first WQST, X'240' bytes, X'20' of
    them; no WTAS."""
    rec = figure(FIGURE_25, 0x4974)
    rec[0x4904:0x4904 + 36] = qwhs(3, length=36)
    decoded = decode_record(bytes(rec))
    assert decoded.problems == []
    assert [r.structure for r in decoded.rows] == ["WQ"] * 32 + ["WTID"]
    assert row_to_ibm(decoded.rows[-1])["wtasCorrelator"] == "00" * 16
