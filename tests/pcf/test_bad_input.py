"""Malformed PCF: always a PCFError with offset, structure path and reason; nothing else."""

from __future__ import annotations

import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pcf
from pcf import mqc
from pcf.decoder import MAX_DEPTH
from tests.pcf.test_codec_spec import activity, cfgr, cfh, cfin, cfst
from traceroute.records.samples import example_reports, large_activity_report


def _error(data: bytes, **kw) -> pcf.PCFError:
    with pytest.raises(pcf.PCFError) as err:
        pcf.decode(data, **kw)
    return err.value


def test_truncated_header():
    e = _error(cfh("<", 2, 13, 1)[:30], encoding=546)
    assert e.offset == 0 and e.path == "MQCFH" and "truncated" in e.reason


def test_error_path_names_the_nested_structure():
    good = cfh("<", 12, 69, 1) + activity("<", 819, b"QM1")
    # corrupt the StrucLength of the MQCFST QMgrName inside Activity[0]/Operation[0]
    qm = good.index(b"QM1", 120)
    at = qm - 20
    bad = good[:at + 4] + struct.pack("<i", 18) + good[at + 8:]
    e = _error(bad)
    assert e.offset == at
    assert e.path == "Activity[0]/Operation[0]/MQCFST"
    assert "multiple of 4" in e.reason
    assert str(e).startswith(f"offset {at}, Activity[0]/Operation[0]/MQCFST:")


def test_second_group_of_a_kind_is_indexed():
    body = cfgr("<", 8004, 1) + cfin("<", 1, 1) + cfgr("<", 8004, 1) + \
        struct.pack("<3i", 99, 16, 1) + b"\0" * 4
    e = _error(cfh("<", 2, 13, 1) + cfgr("<", 8005, 2) + body)
    assert e.path == "Activity[0]/Operation[1]"
    assert "unknown structure Type 99" in e.reason


def test_length_past_end():
    data = cfh("<", 2, 13, 1) + cfst("<", 3024, b"ABCDEFGH", 819)[:-4]
    e = _error(data)
    assert e.offset == 36 and "runs past the end" in e.reason


def test_string_length_larger_than_structure():
    raw = struct.pack("<5i", 4, 24, 3024, 819, 9) + b"ABCD"
    e = _error(cfh("<", 2, 13, 1) + raw)
    assert "StringLength 9" in e.reason and e.path == "MQCFST"


def test_count_larger_than_bytes_left():
    e = _error(cfh("<", 2, 13, 1_000_000) + cfin("<", 1, 1))
    assert "parameter 2 of 1000000" in e.reason and e.offset == 52


def test_group_count_larger_than_bytes_left():
    e = _error(cfh("<", 2, 13, 1) + cfgr("<", 8005, 2**31 - 1) + cfin("<", 1, 1))
    assert e.path == "Activity[0]" and "truncated" in e.reason


def test_negative_counts():
    assert "negative" in _error(cfh("<", 2, 13, -1)).reason
    assert "negative" in _error(cfh("<", 2, 13, 1) + cfgr("<", 8005, -5)).reason
    bad_list = struct.pack("<4i", 5, 16, 1002, -1)
    assert "Count -1" in _error(cfh("<", 2, 13, 1) + bad_list).reason


def test_string_list_count_cannot_allocate_without_bound():
    # StringLength 0 with an absurd count must not build two billion empty strings
    bad = struct.pack("<6i", 6, 24, 3011, 819, 2**31 - 1, 0)
    assert "Count" in _error(cfh("<", 2, 13, 1) + bad).reason


def test_nesting_deeper_than_bound():
    data = cfh("<", 2, 13, 1) + cfgr("<", 8005, 1) * (MAX_DEPTH + 1) + cfin("<", 1, 1)
    e = _error(data)
    assert f"deeper than {MAX_DEPTH}" in e.reason
    assert e.path.count("/") == MAX_DEPTH


def test_eph_struc_length_disagrees_with_parameters():
    params = cfin("<", 1, 1)
    data = b"EPH " + struct.pack("<4i", 1, 68 + 16 + 16, 0, 0) + b" " * 8 + \
        struct.pack("<i", 1) + cfh("<", 12, 69, 1) + params + b"\0" * 16
    e = _error(data)
    assert e.path == "MQEPH" and "StrucLength" in e.reason


def test_undefined_encoding():
    assert "Encoding 0" in str(_error(cfh("<", 2, 13, 0), encoding=0))


def test_not_a_pcf_header():
    e = _error(b"hello world, this is not PCF at all....")
    assert "byte order" in e.reason


def _samples() -> list[bytes]:
    out = [data for _, data in example_reports()]
    out.append(large_activity_report(5)[1])
    out.append(cfh(">", 12, 69, 1) + activity(">", 500, "QM1".encode("cp500")))
    return out


SAMPLES = _samples()


def _decode_or_pcferror(data: bytes, **kw) -> None:
    try:
        m = pcf.decode(data, **kw)
    except pcf.PCFError as e:
        assert e.reason and (e.offset is None or 0 <= e.offset <= len(data))
        return
    assert isinstance(m, pcf.Message)
    pcf.render_tree(m)
    pcf.message_to_dict(m)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=600), st.sampled_from([None, 273, 546, 0, 785]),
       st.sampled_from([None, "MQHEPCF ", "MQADMIN "]), st.sampled_from([None, 0, 500, 9999]))
def test_fuzz_random_bytes(data, encoding, fmt, ccsid):
    _decode_or_pcferror(data, encoding=encoding, fmt=fmt, ccsid=ccsid)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SAMPLES), st.data())
def test_fuzz_mutated_messages(sample, data):
    buf = bytearray(sample)
    for _ in range(data.draw(st.integers(1, 6))):
        kind = data.draw(st.sampled_from(["flip", "word", "cut", "insert"]))
        at = data.draw(st.integers(0, max(len(buf) - 1, 0)))
        if kind == "flip" and buf:
            buf[at] ^= 1 << data.draw(st.integers(0, 7))
        elif kind == "word" and len(buf) >= at + 4:
            value = data.draw(st.sampled_from([0, -1, 1, 3, 4, 20, 2**31 - 1, -(2**31), 4096]))
            buf[at:at + 4] = struct.pack(data.draw(st.sampled_from(["<i", ">i"])), value)
        elif kind == "cut":
            del buf[at:]
        else:
            buf[at:at] = data.draw(st.binary(min_size=1, max_size=8))
    _decode_or_pcferror(bytes(buf))


@pytest.mark.parametrize("vector", ["pymqi/statistics_q.dat", "pymqi/pcf_with_cfif.dat"])
def test_every_truncation_of_a_real_message(vectors, vector):
    data = (vectors / vector).read_bytes()
    for n in range(len(data)):
        with pytest.raises(pcf.PCFError):
            pcf.decode(data[:n])


def test_mqmd_group_bound_holds_for_huge_real_like_nesting():
    # 10 000 sibling groups at one level are fine (no recursion per sibling)
    data = cfh("<", 2, 13, 10_000) + cfgr("<", mqc.MQGACF_OPERATION, 0) * 10_000
    assert len(pcf.decode(data).parameters) == 10_000
