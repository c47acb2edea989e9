"""SMF data sets framed: RDWs, spanned records, no RDWs, and every kind of bad input."""

from __future__ import annotations

import io
import struct

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.smfrecords import (
    packed_date,
    qwhs,
    rdw_stream,
    record,
    spanned,
    structure,
    without_rdws,
)
from traceroute.readers.smf import SMFCounts, looks_smf, smf_rows
from traceroute.smf import Frame, FrameProblem, frames, row_to_ibm
from traceroute.smf.text import ebcdic


def dump_header(rtype: int = 2) -> bytes:
    """IFASMFDP's dump header (type 2) or trailer (3): the SMF header alone, 18 bytes."""
    return (struct.pack(">HHBBI", 18, 0, 0x1E, rtype, 100) + packed_date(2024, 86)
            + ebcdic("MV41", 4))


def log_record(writes: int = 7) -> bytes:
    return record(115, 1, qwhs(12), {9: [structure("QSST", {"getmainCount": 5})],
                                     11: [structure("QJST", {"wrtRequestNowait": writes})]})


def channel_record(*names: str) -> bytes:
    blocks = [structure("QCST", {"chlName": n, "msgAllCount": 10}) for n in names]
    return record(116, 10, qwhs(2), {1: blocks})


def read(data: bytes, **kw) -> tuple[list[dict], list[tuple[str, str]], SMFCounts]:
    problems: list[tuple[str, str]] = []
    counts = SMFCounts()
    rows = [row_to_ibm(r) for r in smf_rows(io.BytesIO(data), "SMF.DAT",
                                           lambda w, r: problems.append((w, r)),
                                           counts=counts, **kw)]
    return rows, problems, counts


def test_records_with_rdws_and_dump_header():
    data = rdw_stream(dump_header(2), log_record(), channel_record("A.B", "B.A"),
                      dump_header(3))
    rows, problems, counts = read(data)
    assert problems == []
    assert [(r["structure"], r.get("chlName", "").strip()) for r in rows] == [
        ("QSST", ""), ("QJST", ""), ("QCST", "A.B"), ("QCST", "B.A")]
    assert counts.skipped == {"type 2 (dump header)": 1, "type 3 (dump trailer)": 1}
    assert counts.summary() == ("2 MQ SMF records, 4 rows; skipped 1 record of type 2 (dump "
                                "header), 1 record of type 3 (dump trailer)")
    offsets = [f.offset for f in frames(io.BytesIO(data))]
    assert offsets == [0, 18, 18 + len(log_record()),
                       18 + len(log_record()) + len(channel_record("A.B", "B.A"))]


def test_spanned_record_is_joined():
    whole = channel_record("A.B", "C.D", "E.F")
    data = rdw_stream(dump_header(), spanned(whole, 100, 500), log_record())
    frames_ = list(frames(io.BytesIO(data)))
    assert all(isinstance(f, Frame) for f in frames_)
    assert frames_[1].data[4:] == whole[4:] and frames_[2].offset == 18 + len(whole) + 8
    assert read(data)[0] == read(rdw_stream(dump_header(), whole, log_record()))[0]


def test_without_rdws_reads_the_same():
    data = rdw_stream(dump_header(), log_record(), channel_record("A.B"), dump_header(3))
    assert read(without_rdws(data), rdw=False)[:2] == (read(data)[0], [])
    # offsets name places in the file as it is: no RDWs
    assert [f.offset for f in frames(io.BytesIO(without_rdws(data)), rdw=False)] == [
        0, 14, 14 + len(log_record()) - 4, 14 + len(log_record()) - 4
        + len(channel_record("A.B")) - 4]


def test_wrong_rdw_is_named_and_the_rest_read():
    good = log_record()
    bad = b"\x00\x02\x07\x00" + b"\xff" * 40  # length 2, segment flags 7: not an RDW
    data = rdw_stream(good, bad, channel_record("X.Y"))
    rows, problems, _ = read(data)
    assert [r["structure"] for r in rows] == ["QSST", "QJST", "QCST"]
    assert len(problems) == 1
    where, reason = problems[0]
    assert where == f"SMF.DAT:offset {len(good)}"
    assert "wrong RDW 00020700" in reason and f"next record at offset {len(good) + 44}" in reason


def test_record_cut_short():
    data = rdw_stream(log_record(), channel_record("A.B"))[:-10]
    rows, problems, _ = read(data)
    assert [r["structure"] for r in rows] == ["QSST", "QJST"]
    assert problems == [(f"SMF.DAT:offset {len(log_record())}",
                         f"record cut short: its RDW says {len(channel_record('A.B'))} bytes, "
                         f"{len(channel_record('A.B')) - 10} remain")]


def test_not_smf_is_one_line():
    rows, problems, _ = read(b"QMNAME(QM1) CHANNEL(A.B)\n" * 50)
    assert rows == [] and len(problems) == 1
    assert problems[0][0] == "SMF.DAT:offset 0" and "not an SMF data set" in problems[0][1]
    assert "--no-rdw" in problems[0][1]
    rows, problems, _ = read(b"\x00" * 100, rdw=False)
    assert rows == [] and len(problems) == 1 and "not an SMF data set" in problems[0][1]
    assert not looks_smf(b"QMNAME(QM1)") and looks_smf(log_record())


def test_unknown_subtype_and_sections_past_the_end():
    odd = bytearray(log_record())
    struct.pack_into(">H", odd, 22, 99)
    short = bytearray(channel_record("A.B", "C.D"))
    struct.pack_into(">H", short, 28 + 8 + 6, 9)  # QCST count 9: only 2 are there
    data = rdw_stream(bytes(odd), bytes(short), channel_record("E.F"))
    rows, problems, counts = read(data)
    assert [r["chlName"].strip() for r in rows] == ["A.B", "C.D", "E.F"]
    assert problems[0] == ("SMF.DAT:offset 0",
                           "SMF 115 record: unknown SMF 115 subtype 99 (at byte 22 of the "
                           "record)")
    assert problems[1][0] == f"SMF.DAT:offset {len(odd)}"
    assert f"claims 9 structures of {len(structure('QCST'))} bytes" in problems[1][1]
    assert "structure 3 ends past the record's" in problems[1][1]
    assert len(problems) == 2 and counts.records[(116, 10)] == 2


def test_sections_of_tiny_structures_are_refused():
    """A section claiming 4,000 structures of 8 bytes: reported, no row (a row per 8 bytes
    would multiply the input)."""
    rec = bytearray(channel_record("A.B"))
    struct.pack_into(">IHH", rec, 36, 44, 8, 4000)
    rows, problems, _ = read(bytes(rec))
    assert rows == [] and len(problems) == 1
    assert "claims 4000 structures of 8 bytes (none is shorter than 32)" in problems[0][1]


def test_a_structure_length_is_bounded_by_its_section():
    """A QJST claiming 4000 bytes in a section of X'78': only the section's bytes are read."""
    block = bytearray(structure("QJST", {"wrtRequestNowait": 3, "compRequests": 9},
                                length=0x78 + 80))
    struct.pack_into(">H", block, 2, 4000)
    rec = bytearray(record(115, 1, qwhs(12), {11: [bytes(block)]}))
    struct.pack_into(">H", rec, 28 + 88 + 4, 0x78)  # the section says X'78'
    rows, problems, _ = read(bytes(rec))
    assert problems == []
    assert rows[0]["wrtRequestNowait"] == 3 and rows[0]["compRequests"] == -1


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_damage_never_raises(data):
    """Cut, overwritten or shuffled bytes: problems named inside the file, never an error."""
    good = rdw_stream(dump_header(), log_record(), channel_record("A.B", "C.D"),
                      spanned(channel_record("E.F"), 60), dump_header(3))
    damaged = bytearray(good)
    for _ in range(data.draw(st.integers(0, 6))):
        at = data.draw(st.integers(0, len(damaged) - 1))
        damaged[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(damaged)))
    damaged = bytes(damaged[:cut])
    for rdw in (True, False):
        rows, problems, _ = read(damaged if rdw else without_rdws(damaged), rdw=rdw)
        for where, reason in problems:
            if where == "SMF.DAT":  # about the whole file: nothing in it was a record
                assert not rows and reason == "empty: no SMF records in it"
                continue
            assert 0 <= int(where.rsplit(" ", 1)[1]) <= len(damaged)
        assert len(rows) <= 20


def test_framing_problems_carry_offsets():
    items = list(frames(io.BytesIO(log_record() + b"\x00\x01")))
    assert isinstance(items[-1], FrameProblem) and items[-1].offset == len(log_record())


def test_vectors_spanned_and_without_rdws(vectors):
    """TESTCHL has spanned records of its own (flags 1 and 2): joined, they decode as IBM's
    formatter decodes them; spanning every other record too changes nothing."""
    data = (vectors / "smf" / "TESTCHL.dat").read_bytes()
    rows, problems, _ = read(data)
    assert problems == [] and len(rows) == 1245
    pieces, at, flags = [], 0, []
    while at < len(data):
        length, flag = struct.unpack_from(">HB", data, at)
        flags.append(flag)
        rec = data[at:at + length]
        pieces.append(spanned(rec, 40, length // 2) if length > 200 and flag == 0 else rec)
        at += length
    assert flags.count(1) == flags.count(2) > 0
    assert read(b"".join(pieces))[:2] == (rows, [])
    whole = b"".join(f.data for f in frames(io.BytesIO(data)))
    assert read(without_rdws(whole), rdw=False)[:2] == (rows, [])
