"""Activity reports as the simulator writes them fast: the same tree and bytes as the plain way.

records.build.MDGroup stands for descriptor.md_group (members made on first access, written
straight from the MQMD's values by pcf.fastencode.encode_fast); both must be invisible.
"""

from __future__ import annotations

import copy
import pickle

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pcf
from pcf import mqc
from pcf.fastencode import encode_fast
from pcf.mqmd import MQMD
from tests.support.strategies import I32, text_in
from traceroute.records.build import MDGroup, activity_group, activity_report, operation_group
from traceroute.records.descriptor import md_group

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ORDERS = [mqc.MQENC_NATIVE, mqc.MQENC_REVERSED, 0x111, 0x222]

MQMDS = st.builds(
    MQMD, version=st.sampled_from([1, 2, 3, 0]), report=I32, msg_type=I32, expiry=I32,
    feedback=I32, encoding=I32, coded_char_set_id=I32,
    format=st.sampled_from(["", "MQADMIN", "MQHEPCF", "MQSTR", "TOO.LONG.FORMAT"]),
    priority=I32, persistence=I32, msg_id=st.binary(max_size=30),
    correl_id=st.binary(max_size=24), backout_count=I32,
    reply_to_q=text_in(819), reply_to_q_mgr=st.text("QM.0123456789", max_size=60),
    user_identifier=text_in(500), accounting_token=st.binary(max_size=32),
    appl_identity_data=text_in(819), put_appl_type=I32, put_appl_name=text_in(819),
    put_date=st.sampled_from(["20261123", "", "2026112"]), put_time=text_in(819),
    appl_origin_data=text_in(819), group_id=st.binary(max_size=24), msg_seq_number=I32,
    offset=I32, msg_flags=I32, original_length=I32)

GROUPS = st.sampled_from([mqc.MQGACF_MQMD, mqc.MQGACF_EMBEDDED_MQMD])
CCSIDS = st.sampled_from([819, 500, 1047, 37, 1208, 1200, 0])


def _message(group: pcf.Group, encoding: int, ccsid: int) -> pcf.Message:
    return pcf.Message(pcf.Header(mqc.MQCFT_REPORT, mqc.MQCMD_ACTIVITY_MSG),
                       [pcf.Group(mqc.MQGACF_MESSAGE, [pcf.Integer(1, 2), group])],
                       pcf.EmbeddedHeader(0, 0, "", mqc.MQEPH_CCSID_EMBEDDED),
                       encoding=encoding, ccsid=ccsid)


@SETTINGS
@given(MQMDS, GROUPS, CCSIDS, st.booleans(), st.sampled_from(ORDERS), st.sampled_from(
    [819, 500, 1208]))
def test_md_group_stand_in_is_equal_and_writes_the_same(md, group, ccsid, subset, encoding,
                                                        message_ccsid):
    plain = md_group(md, group=group, ccsid=ccsid, subset=subset)
    fast = MDGroup(md, group=group, ccsid=ccsid, subset=subset)
    want = None
    try:
        want = pcf.encode(_message(plain, encoding, message_ccsid))
    except (ValueError, UnicodeError) as e:
        try:
            encode_fast(_message(fast, encoding, message_ccsid))
        except type(e):
            pass
        else:
            raise AssertionError(f"encode_fast did not raise {type(e).__name__}") from e
    if want is not None:
        assert encode_fast(_message(fast, encoding, message_ccsid)) == want
        assert encode_fast(_message(fast, encoding, message_ccsid)) == want  # cached
        assert pcf.encode(_message(fast, encoding, message_ccsid)) == want
    assert fast == plain and plain == fast
    assert fast.parameter == plain.parameter and fast.parameters == plain.parameters
    assert repr(fast) == repr(plain)
    for other in (copy.copy(fast), copy.deepcopy(fast), pickle.loads(pickle.dumps(fast))):
        assert type(other) is pcf.Group and other == plain


def test_md_group_stand_in_keeps_the_values_it_was_made_with():
    md = MQMD(reply_to_q_mgr="QM1", msg_id=b"A" * 24)
    fast = MDGroup(md)
    md.reply_to_q_mgr = "QM2"
    md.msg_id = b"B" * 24
    assert fast == md_group(MQMD(reply_to_q_mgr="QM1", msg_id=b"A" * 24))
    assert fast != md_group(md)


@SETTINGS
@given(MQMDS, st.one_of(st.none(), MQMDS), st.sampled_from(
    [mqc.MQOPER_PUT, mqc.MQOPER_GET, mqc.MQOPER_PUBLISH, mqc.MQOPER_DISCARDED_PUBLISH]),
    st.sampled_from(ORDERS), st.sampled_from([819, 500, 1208]))
def test_operation_groups_as_built_before(md, embedded, op, encoding, ccsid):
    got = operation_group(op, date="2026-11-23", time="19.01.23", qmgr="QM1", md=md,
                          msg_length=7, embedded=embedded)
    subset = op in (mqc.MQOPER_PUBLISH, mqc.MQOPER_DISCARDED_PUBLISH)
    message = [pcf.Integer(mqc.MQIACF_MSG_LENGTH, 7), md_group(md, ccsid=819, subset=subset)]
    if embedded is not None:
        message.append(md_group(embedded, group=mqc.MQGACF_EMBEDDED_MQMD, ccsid=819))
    want = pcf.Group(mqc.MQGACF_OPERATION, [
        pcf.Integer(mqc.MQIACF_OPERATION_TYPE, op),
        pcf.String(mqc.MQCACF_OPERATION_DATE, "2026-11-23", 819, 12),
        pcf.String(mqc.MQCACF_OPERATION_TIME, "19.01.23", 819, 8),
        pcf.Group(mqc.MQGACF_MESSAGE, message),
        pcf.String(mqc.MQCA_Q_MGR_NAME, "QM1", 819, 48)])
    assert got == want
    report = activity_report(activity_group(appl_name="a", appl_type=7, description="d",
                                            operations=[got]))
    plain = activity_report(activity_group(appl_name="a", appl_type=7, description="d",
                                           operations=[want]))
    try:
        data = pcf.encode(plain, encoding=encoding, ccsid=ccsid)
    except (ValueError, UnicodeError):
        return
    assert encode_fast(report, encoding=encoding, ccsid=ccsid) == data


def _descriptor_as_before(original: MQMD, *, qmgr: str, msg_id: bytes, put_date: str,
                          put_time: str, encoding: int) -> MQMD:
    """report_descriptor as it was written with dataclasses.replace (the reference)."""
    from dataclasses import replace

    report, expiry = mqc.MQRO_NONE, mqc.MQEI_UNLIMITED
    if original.report & mqc.MQRO_PASS_DISCARD_AND_EXPIRY:
        expiry = original.expiry
        if original.report & mqc.MQRO_DISCARD_MSG:
            report = mqc.MQRO_DISCARD_MSG
    return replace(
        original, report=report, msg_type=mqc.MQMT_REPORT, expiry=expiry,
        feedback=mqc.MQFB_ACTIVITY, encoding=encoding, coded_char_set_id=819,
        format="MQHEPCF",
        msg_id=original.msg_id if original.report & mqc.MQRO_PASS_MSG_ID else msg_id,
        correl_id=original.correl_id if original.report & mqc.MQRO_PASS_CORREL_ID
        else original.msg_id,
        backout_count=0, reply_to_q="", reply_to_q_mgr=qmgr, put_appl_type=mqc.MQAT_QMGR,
        put_appl_name=qmgr[:28], put_date=put_date, put_time=put_time, appl_origin_data="")


@SETTINGS
@given(MQMDS, st.text("QM.0123456789", max_size=40), st.binary(min_size=24, max_size=24),
       st.sampled_from(ORDERS))
def test_report_descriptor_as_before(md, qmgr, msg_id, encoding):
    from traceroute.records.build import report_descriptor

    kw = dict(qmgr=qmgr, msg_id=msg_id, put_date="20261123", put_time="19012345",
              encoding=encoding)
    got = report_descriptor(md, **kw)
    assert type(got) is MQMD
    assert got == _descriptor_as_before(md, **kw)


@SETTINGS
@given(st.datetimes(), st.integers(0, 999999))
def test_moments_formatted_as_strftime_does(t, other_microsecond):
    from traceroute.sim.simulator import moment_strings

    for moment in (t, t.replace(microsecond=other_microsecond)):  # the second's texts kept
        assert moment_strings(moment) == (
            moment.strftime("%Y-%m-%d"), moment.strftime("%H:%M:%S"),
            moment.strftime("%Y%m%d"),
            moment.strftime("%H%M%S") + f"{moment.microsecond // 10000:02d}")


DETAILS = st.lists(st.one_of(
    st.builds(pcf.String, st.sampled_from([mqc.MQCA_Q_NAME, mqc.MQCACH_CHANNEL_NAME]),
              text_in(819), st.sampled_from([819, 0, 500]), st.sampled_from([None, 20, 48])),
    st.builds(pcf.Integer, st.sampled_from([mqc.MQIACF_FEEDBACK, mqc.MQIACH_CHANNEL_TYPE]),
              I32),
    st.builds(pcf.Integer64, st.just(7), st.integers(-2**63, 2**63 - 1)),
    st.builds(pcf.ByteString, st.just(mqc.MQBACF_SUB_ID), st.binary(max_size=30))),
    max_size=4)


@SETTINGS
@given(MQMDS, st.one_of(st.none(), MQMDS), st.sampled_from(
    [mqc.MQOPER_PUT, mqc.MQOPER_GET, mqc.MQOPER_PUBLISH, mqc.MQOPER_DISCARD]),
    st.booleans(), DETAILS, st.sampled_from([None, "", "QSG1"]), st.sampled_from(ORDERS),
    st.sampled_from([819, 500, 1208]), st.sampled_from(["QM1", "QM.WITH.A.LONG.NAME", "é"]))
def test_operation_group_stand_in_writes_what_its_members_write(
        md, embedded, op, with_md, details, qsg, encoding, ccsid, qmgr):
    """Written straight from its arguments (nothing read its members first), an Operation
    group is byte for byte the plain group of the same members, as pcf.encode writes it."""
    def made() -> pcf.Group:
        return operation_group(op, date="2026-11-28", time="19.20.00", qmgr=qmgr,
                               md=md if with_md else None, msg_length=9, embedded=embedded,
                               details=list(details), qsg=qsg)
    plain = pcf.Group(mqc.MQGACF_OPERATION, list(made().parameters))
    fresh = made()
    want = None
    try:
        want = pcf.encode(_message(plain, encoding, ccsid))
    except (ValueError, UnicodeError, OverflowError) as e:
        try:
            encode_fast(_message(fresh, encoding, ccsid))
        except (ValueError, UnicodeError, OverflowError):
            pass
        else:
            raise AssertionError(f"encode_fast did not raise {type(e).__name__}") from e
    if want is not None:
        assert encode_fast(_message(fresh, encoding, ccsid)) == want
        assert fresh._members is None  # written from the arguments
    assert fresh == plain and repr(fresh) == repr(plain)
    for other in (copy.copy(fresh), copy.deepcopy(fresh), pickle.loads(pickle.dumps(fresh))):
        assert type(other) is pcf.Group and other == plain


def test_operation_group_changed_through_its_members_is_written_so():
    group = operation_group(mqc.MQOPER_PUT, date="2026-11-28", time="19.20.00", qmgr="QM1",
                            md=MQMD(), details=[pcf.String(mqc.MQCA_Q_NAME, "Q1", 819, 48)])
    group.parameters.append(pcf.Integer(mqc.MQIACF_FEEDBACK, 258))
    group.parameters[0].value = mqc.MQOPER_DISCARD
    plain = pcf.Group(mqc.MQGACF_OPERATION, group.parameters)
    assert encode_fast(_message(group, 0x222, 819)) == pcf.encode(_message(plain, 0x222, 819))
