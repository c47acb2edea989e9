"""The real messages from real queue managers decode exactly."""

from __future__ import annotations

import hashlib

import pytest

import pcf
from pcf import mqc


def _read(vectors, name: str) -> bytes:
    return (vectors / name).read_bytes()


def test_statistics_q_decodes_completely(vectors):
    data = _read(vectors, "pymqi/statistics_q.dat")
    assert len(data) == 8960
    m = pcf.decode(data)
    assert m.header.type == mqc.MQCFT_STATISTICS
    assert m.header.command == mqc.MQCMD_STATISTICS_Q
    assert m.parameter_count == 23
    assert m.user_data == b""  # all 8960 bytes consumed
    assert m.get(mqc.MQCA_Q_MGR_NAME) == "mq_mgr1"
    assert m.get(mqc.MQIAMO_OBJECT_COUNT) == 16
    groups = m.find_all(mqc.MQGACF_Q_STATISTICS_DATA)
    assert len(groups) == 16
    assert all(len(g.parameters) == 22 for g in groups)
    first = groups[0]
    assert first.get(mqc.MQCA_Q_NAME) == "SYSTEM.ADMIN.COMMAND.QUEUE"
    assert first.get(mqc.MQIAMO_PUTS) == [14, 0]
    assert isinstance(first.find(mqc.MQIAMO64_PUT_BYTES), pcf.Integer64List)
    assert first.get(mqc.MQIAMO64_PUT_BYTES) == [1056, 0]
    kinds = {type(p) for _, p in m.walk()}
    assert {pcf.String, pcf.Integer, pcf.IntegerList, pcf.Integer64List, pcf.Group} <= kinds


def test_statistics_q_reencodes_byte_exact(vectors):
    data = _read(vectors, "pymqi/statistics_q.dat")
    assert pcf.encode(pcf.decode(data)) == data


@pytest.mark.parametrize("name, filter_type", [
    ("pymqi/pcf_with_cfif.dat", pcf.IntegerFilter),
    ("pymqi/pcf_with_cfsf.dat", pcf.StringFilter),
])
def test_command_events(vectors, name, filter_type):
    m = pcf.decode(_read(vectors, name))
    assert (m.header.type, m.header.command, m.header.reason) == (
        mqc.MQCFT_EVENT, mqc.MQCMD_COMMAND_EVENT, mqc.MQRC_COMMAND_MQSC)
    context, data = m.parameters
    assert context.label == "CommandContext" and data.label == "CommandData"
    user = context.find(mqc.MQCACF_EVENT_USER_ID)
    assert (user.value, user.ccsid) == ("mqm", 819)
    assert context.get(mqc.MQCACF_EVENT_Q_MGR) == "MQTEST"
    assert context.get(mqc.MQIACF_EVENT_ORIGIN) == mqc.MQEVO_CONSOLE
    assert context.get(mqc.MQIACF_COMMAND) == mqc.MQCMD_INQUIRE_Q
    q_name = data.find(mqc.MQCA_Q_NAME)
    assert (q_name.value, q_name.ccsid) == ("*", 0)  # padding bytes 01 06 01 are not data
    assert data.get(mqc.MQIA_Q_TYPE) == mqc.MQQT_LOCAL
    (flt,) = [p for p in data.parameters if isinstance(p, filter_type)]
    if filter_type is pcf.IntegerFilter:
        assert (flt.parameter, flt.operator, flt.value) == (mqc.MQIA_CURRENT_Q_DEPTH,
                                                            mqc.MQCFOP_GREATER, 0)
        assert data.get(mqc.MQIACF_Q_ATTRS) == [3, 2016]
    else:
        assert (flt.parameter, flt.operator, flt.value) == (mqc.MQCA_Q_DESC,
                                                            mqc.MQCFOP_LIKE, "test*")
        assert data.get(mqc.MQIACF_Q_ATTRS) == [2013, 2016]


def test_command_event_names_in_tree(vectors):
    text = pcf.render_tree(pcf.decode(_read(vectors, "pymqi/pcf_with_cfsf.dat")))
    assert "MQCACF_EVENT_USER_ID: 'mqm'" in text
    assert "MQCA_Q_DESC: MQCFOP_LIKE 'test*'" in text
    assert "Reason: MQRC_COMMAND_MQSC (2412)" in text


def test_command_event_reencodes_except_padding(vectors):
    data = _read(vectors, "pymqi/pcf_with_cfif.dat")
    again = pcf.encode(pcf.decode(data))
    assert len(again) == len(data)
    differing = [i for i in range(len(data)) if data[i] != again[i]]
    assert differing == [221, 222, 223]  # the non-zero padding after '*', written as NULs


@pytest.mark.parametrize("name, size", [
    ("partial/pymqi_issue204_statistics_q_TRUNCATED.bin", 241),
    ("partial/pymqi_issue75_accounting_mqi_TRUNCATED.bin", 448),
])
def test_truncated_vectors_fail_with_offset(vectors, name, size):
    data = _read(vectors, name)
    assert len(data) == size
    with pytest.raises(pcf.PCFError) as err:
        pcf.decode(data)
    assert err.value.offset is not None and 36 <= err.value.offset <= size
    assert "truncated" in err.value.reason or "past the end" in err.value.reason


def test_vector_checksums_match_readme(vectors):
    digest = hashlib.sha256(_read(vectors, "pymqi/statistics_q.dat")).hexdigest()
    assert digest.startswith("6266288c28fd2df4")
