"""The fast encoder writes exactly what pcf.encode writes, and fails where it fails."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pcf
from pcf import fastencode, mqc
from pcf.fastencode import encode_fast
from pcf.mqmd import MQMD
from tests.support.strategies import I32, PARAM_IDS, messages, text_in
from traceroute.records.build import activity_group, activity_report, operation_group

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ORDERS = [mqc.MQENC_NATIVE, mqc.MQENC_REVERSED, 0x111, 0x222, 1, 2]
CCSIDS = [819, 1208, 500, 1047, 37, 1200, 850, 1252, 273]


def _both(m: pcf.Message, **kw) -> tuple[bytes, bytes]:
    return pcf.encode(m, **kw), encode_fast(m, **kw)


@SETTINGS
@given(messages(), st.sampled_from([None, *ORDERS]), st.sampled_from([None, 0, 819, 500]))
def test_random_trees_encode_the_same(m, encoding, ccsid):
    try:
        want = pcf.encode(m, encoding=encoding, ccsid=ccsid)
    except (ValueError, UnicodeError) as e:  # e.g. a string not in the overriding CCSID
        with pytest.raises(type(e)):
            encode_fast(m, encoding=encoding, ccsid=ccsid)
        return
    assert encode_fast(m, encoding=encoding, ccsid=ccsid) == want
    assert encode_fast(m, encoding=encoding, ccsid=ccsid) == want  # from the caches


@st.composite
def padded_strings(draw, message_ccsid: int):
    """An MQCFST with a declared width (MQ's blank padding), in any CCSID; or raw bytes."""
    ccsid = draw(st.sampled_from([0, *CCSIDS]))
    pid = draw(PARAM_IDS)
    if draw(st.integers(0, 5)) == 0:
        value: str | bytes = draw(st.binary(max_size=30))
    else:
        value = draw(text_in(ccsid or message_ccsid))
    width = draw(st.one_of(st.none(), st.integers(0, 64)))
    return pcf.String(pid, value, ccsid, width)


@SETTINGS
@given(st.sampled_from([819, 1208, 500, 37]).flatmap(
    lambda c: st.tuples(st.just(c), st.lists(padded_strings(c), min_size=1, max_size=6))),
    st.sampled_from(ORDERS[:2]), st.booleans())
def test_padded_strings_in_any_ccsid(drawn, encoding, eph):
    ccsid, params = drawn
    m = pcf.Message(pcf.Header(mqc.MQCFT_REPORT, mqc.MQCMD_ACTIVITY_MSG),
                    [pcf.Group(mqc.MQGACF_ACTIVITY, params), *params],
                    pcf.EmbeddedHeader(0, 0, "", mqc.MQEPH_CCSID_EMBEDDED) if eph else None,
                    encoding=encoding, ccsid=ccsid)
    a, b = _both(m)
    assert a == b
    assert _both(m) == (a, a)


MQMDS = st.builds(
    MQMD, version=st.sampled_from([1, 2]), report=I32, msg_type=I32, expiry=I32, feedback=I32,
    encoding=st.sampled_from(ORDERS[:2]), coded_char_set_id=st.sampled_from(CCSIDS),
    format=st.sampled_from(["", "MQADMIN", "MQHEPCF", "MQSTR"]), priority=I32,
    msg_id=st.binary(max_size=24), correl_id=st.binary(min_size=24, max_size=24),
    reply_to_q=text_in(819), reply_to_q_mgr=text_in(819), put_appl_name=text_in(819),
    put_date=st.sampled_from(["20261123", ""]), put_time=st.sampled_from(["19012345", ""]))


@SETTINGS
@given(MQMDS, st.one_of(st.none(), MQMDS), st.sampled_from(
    [mqc.MQOPER_PUT, mqc.MQOPER_GET, mqc.MQOPER_PUBLISH, mqc.MQOPER_SEND]),
    text_in(819), st.sampled_from(ORDERS[:2]), st.sampled_from([819, 500, 1047, 1208]),
    st.integers(0, 2**31 - 1))
def test_activity_reports_encode_the_same(md, embedded, op, qmgr, encoding, ccsid, length):
    ops = [operation_group(op, date="2026-11-23", time="19.01.23", qmgr=qmgr, md=md,
                           msg_length=length, embedded=embedded,
                           details=[pcf.String(mqc.MQCA_Q_NAME, qmgr, 819, 48),
                                    pcf.Integer(mqc.MQIACF_FEEDBACK, length)])]
    group = activity_group(appl_name="amqrmppa", appl_type=mqc.MQAT_QMGR,
                           description="Sending Message Channel Agent", operations=ops,
                           extra=[pcf.Integer64(1, length), pcf.ByteString(2, md.msg_id)])
    report = activity_report(group)
    a, b = _both(report, encoding=encoding, ccsid=ccsid)
    assert a == b


def test_errors_are_those_of_pcf_encode():
    bad_order = pcf.Message(pcf.Header(1, 1), [], encoding=0x333)
    for f in (pcf.encode, encode_fast):
        with pytest.raises(ValueError, match="names no integer byte order"):
            f(bad_order)
    wide_eph = pcf.Message(pcf.Header(1, 1), [pcf.Integer(1, 2)],
                           pcf.EmbeddedHeader(0, 0, "MQADMIN", 1208), ccsid=1200)
    for f in (pcf.encode, encode_fast):
        with pytest.raises(ValueError, match="single-byte CCSID"):
            f(wide_eph)
    not_latin = pcf.Message(pcf.Header(1, 1), [pcf.String(1, "\u20ac", 819)])
    for f in (pcf.encode, encode_fast):
        with pytest.raises(UnicodeEncodeError):
            f(not_latin)
    too_big = pcf.Message(pcf.Header(1, 1), [pcf.Group(1, [pcf.Integer(1, 2**31)])])
    for f in (pcf.encode, encode_fast):
        with pytest.raises(Exception, match=r"format requires|out of range"):
            f(too_big)


def test_subclasses_and_rare_structures_take_the_reference_path():
    class MyGroup(pcf.Group):
        pass

    class MyString(pcf.String):
        pass

    m = pcf.Message(pcf.Header(1, 1), [
        MyGroup(7, [MyString(3, "abc", 500, 8), pcf.IntegerList(4, [1, -2]),
                    pcf.Integer64List(5, [2**40]), pcf.StringList(6, ["a", "bcd"], 37),
                    pcf.IntegerFilter(8, 1, 2), pcf.StringFilter(9, 2, "x", 0),
                    pcf.ByteStringFilter(10, 3, b"\x01\x02")])], encoding=0x111, ccsid=500)
    assert encode_fast(m) == pcf.encode(m)


def test_the_string_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(fastencode, "CACHE_LIMIT", 8)
    fastencode._strings.clear()
    for n in range(50):
        m = pcf.Message(pcf.Header(1, 1), [pcf.String(1, f"Q{n}", 819, 48)])
        assert encode_fast(m) == pcf.encode(m)
        assert sum(map(len, fastencode._strings.values())) <= 8


ANY_MQMDS = st.builds(
    MQMD, version=st.sampled_from([1, 2, 1, 2, 3]), report=I32, msg_type=I32, expiry=I32,
    feedback=I32, encoding=st.sampled_from([*ORDERS, 0x333]), coded_char_set_id=I32,
    format=st.sampled_from(["", "MQADMIN", "MQXMIT", "TOO.LONG.FORMAT"]), priority=I32,
    msg_id=st.binary(max_size=26), correl_id=st.binary(max_size=24),
    reply_to_q=text_in(819), reply_to_q_mgr=st.text("QM.0123456789", max_size=50),
    user_identifier=text_in(500), accounting_token=st.binary(max_size=32),
    put_appl_name=text_in(819), put_date=st.sampled_from(["20261123", ""]),
    group_id=st.binary(max_size=24), msg_seq_number=I32, original_length=I32)


def _same(f, g, *args, **kw):
    """f and g give the same bytes, or both raise the same kind of error."""
    try:
        want = f(*args, **kw)
    except Exception as e:  # any error, as long as both raise it
        with pytest.raises(type(e)):
            g(*args, **kw)
        return None
    assert g(*args, **kw) == want
    return want


@SETTINGS
@given(ANY_MQMDS, st.sampled_from([None, *ORDERS]), st.sampled_from([819, 500, 1047, 37, 1208]))
def test_mqmd_packs_the_same(md, encoding, ccsid):
    from pcf import mqmd

    _same(mqmd.pack, fastencode.pack_md, md, encoding=encoding, ccsid=ccsid)
    _same(mqmd.pack, fastencode.pack_md, md, encoding=encoding, ccsid=ccsid)  # cached


@SETTINGS
@given(ANY_MQMDS, text_in(819), st.text("QM.0123456789", max_size=60), I32,
       st.sampled_from(ORDERS), st.sampled_from([819, 500, 1208]))
def test_mqxqh_packs_the_same(md, queue, qmgr, version, encoding, ccsid):
    from pcf import headers

    xqh = headers.MQXQH(queue, qmgr, md, version)
    _same(headers.pack_xqh, fastencode.pack_xqh, xqh, encoding=encoding, ccsid=ccsid)
