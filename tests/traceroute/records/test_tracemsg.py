"""The trace-route message against the spec: every dspmqrte option, defaults, round trips.

Spec references: "o&d L<n>" is ../shared/spec/ordering-and-display.md line n (the §7.1
option table and the worked examples), "tr L<n>" is ../shared/spec/trace-route.md line n,
"pcf L<n>" is ../shared/spec/pcf-format.md line n. Expected numbers are written out as the
spec prints them rather than taken from pcf.mqc, so a wrong constant would show.
"""

from __future__ import annotations

import struct
from dataclasses import asdict, fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pcf
from pcf.mqmd import MQMD, pack, unpack
from traceroute.records import tracemsg
from traceroute.records.model import TraceRoute as TraceRouteInfo
from traceroute.records.parse import parse_trace_route
from traceroute.records.tracemsg import (
    TraceOptions,
    build_trace_message,
    parse_report_options,
    trace_route_group,
)

MSG_ID = bytes.fromhex("414D51204C4152474551202020202020A3C9154220001502")  # o&d L239
TRACE_ROUTE = 8003  # tr L88
DETAIL, RECORDED, UNRECORDED, DISCONTINUITY = 1234, 1235, 1257, 1237  # tr L96-99
MAX_ACTIVITIES, ACCUMULATE, FORWARD, DELIVER = 1236, 1238, 1259, 1239  # tr L100-103


def build(options: TraceOptions, **kw) -> tuple[MQMD, bytes, pcf.Message]:
    """Build the message and decode its data the way a receiver would (from the MQMD)."""
    md, data = build_trace_message(options, msg_id=MSG_ID, **kw)
    message = pcf.decode(data, encoding=md.encoding, ccsid=md.coded_char_set_id, fmt=md.format)
    return md, data, message


def info_of(message: pcf.Message) -> TraceRouteInfo:
    """The TraceRoute group of a built message, which must be its only top-level member."""
    assert len(message.parameters) == 1
    return parse_trace_route(message.parameters[0])


# --- defaults --------------------------------------------------------------------------

def test_defaults_are_dspmqrte_defaults():
    o = TraceOptions()
    assert o.persistence == 0  # o&d L143: -l default not persistent (MQPER_NOT_PERSISTENT)
    assert o.priority == -1  # o&d L144: -p default from the target (MQPRI_PRIORITY_AS_Q_DEF)
    assert o.expiry == 60 and o.md_expiry == 600  # o&d L145: -xs 60 s -> 600 tenths
    assert o.report == 0x08000004  # o&d L147: activity + discard
    assert not o.pass_expiry and o.md_report == 0x08000004  # o&d L148 (open): not set
    assert o.accumulation == 0x00010003 and o.msg_type == 8  # o&d L151: NONE, DATAGRAM
    assert o.deliver == 0x00002000  # o&d L152: -d default no
    assert o.forward == 0x00000200  # o&d L153: -f default supported
    assert o.max_activities == 0  # o&d L154: -s default unlimited
    assert o.detail == 8  # o&d L155: -t default medium
    assert o.reply_to_q == ""  # o&d L156: default is a dynamic queue, named at run time
    assert tracemsg.DEFAULT_MODEL_QUEUE == "SYSTEM.DEFAULT.MODEL.QUEUE"  # o&d L156
    assert o.reply_to_q_mgr == "" and o.target_q_mgr == ""  # o&d L157, L141: connected qmgr
    assert not o.bind_not_fixed  # o&d L142: bound to a specific destination
    assert TraceOptions.from_dspmqrte() == o


def test_every_field_has_a_dspmqrte_option():
    assert {f for f, _ in tracemsg._OPTION_FIELDS.values()} == \
        {f.name for f in fields(TraceOptions)}


def test_example_1_default_message():
    # o&d L246: dspmqrte -m QM1 -q TARG.AT.QM2 -rq ACTIV.REPLY.Q; the message: o&d L252-256.
    options = TraceOptions.from_dspmqrte(q="TARG.AT.QM2", rq="ACTIV.REPLY.Q")
    md, _, message = build(options, put_date="20050301", put_time="12345600")
    assert md == MQMD(
        version=1,  # tr L52
        report=0x08000004, msg_type=8, expiry=600, feedback=0,  # o&d L252-253, tr L56
        encoding=546, coded_char_set_id=819, format="MQADMIN",  # tr L58
        priority=-1, persistence=0, msg_id=MSG_ID, correl_id=bytes(24), backout_count=0,
        reply_to_q="ACTIV.REPLY.Q", reply_to_q_mgr="",  # blank: the connected QM1 at put
        put_date="20050301", put_time="12345600")
    assert message.header == pcf.Header(type=10, command=75, msg_seq_number=1, control=1,
                                        comp_code=0, reason=0, version=3)  # tr L76-83
    assert message.eph is None and message.user_data == b""
    # o&d L254-256: Detail MEDIUM, counters 0, UNLIMITED, NONE, IF_SUPPORTED, NO.
    assert message.parameters == [pcf.Group(TRACE_ROUTE, [
        pcf.Integer(DETAIL, 8), pcf.Integer(RECORDED, 0), pcf.Integer(UNRECORDED, 0),
        pcf.Integer(DISCONTINUITY, 0), pcf.Integer(MAX_ACTIVITIES, 0),
        pcf.Integer(ACCUMULATE, 0x00010003), pcf.Integer(FORWARD, 0x00000200),
        pcf.Integer(DELIVER, 0x00002000)])]
    assert info_of(message) == TraceRouteInfo(8, 0, 0, 0, 0, 0x00010003, 0x200, 0x2000)


@pytest.mark.parametrize(("encoding", "order"), [(546, "<"), (273, ">")])
def test_default_message_bytes_by_hand(encoding, order):
    """The exact layout from the spec's structure tables, written without the encoder."""
    options = TraceOptions(reply_to_q="ACTIV.REPLY.Q")
    md, data = build_trace_message(options, msg_id=MSG_ID, encoding=encoding)
    cfh = struct.pack(order + "9i", 10, 36, 3, 75, 1, 1, 0, 0, 1)  # pcf §7, tr L76-84
    group = struct.pack(order + "4i", 20, 16, TRACE_ROUTE, 8)  # MQCFGR, eight members
    members = [(DETAIL, 8), (RECORDED, 0), (UNRECORDED, 0), (DISCONTINUITY, 0),
               (MAX_ACTIVITIES, 0), (ACCUMULATE, 0x00010003), (FORWARD, 0x200),
               (DELIVER, 0x2000)]
    cfins = b"".join(struct.pack(order + "4i", 3, 16, pid, v) for pid, v in members)
    assert data == cfh + group + cfins
    raw = pack(md, ccsid=819)
    assert len(raw) == 324  # MQMD version 1 (tr L52, pcf §5)
    i = lambda off: struct.unpack_from(order + "i", raw, off)[0]  # noqa: E731
    assert raw[:4] == b"MD  " and i(4) == 1 and i(8) == 0x08000004 and i(12) == 8
    assert i(16) == 600 and i(20) == 0 and i(24) == encoding and i(28) == 819
    assert raw[32:40] == b"MQADMIN " and i(40) == -1 and i(44) == 0
    assert raw[48:72] == MSG_ID and raw[100:148] == b"ACTIV.REPLY.Q".ljust(48)


def test_example_2_reply_message():
    # o&d L286: -rq TR.REPLY.Q -ac -ar -ro discard; the message: o&d L288-290.
    options = TraceOptions.from_dspmqrte(q="TARG.AT.QM2", rq="TR.REPLY.Q", ac=True, ar=True,
                                         ro="discard")
    md, _, message = build(options)
    assert md.report == 0x08000000 and md.msg_type == 1 and md.reply_to_q == "TR.REPLY.Q"
    assert info_of(message) == TraceRouteInfo(detail=8, recorded_activities=0,
                                              unrecorded_activities=0, discontinuity_count=0,
                                              max_activities=0, accumulate=0x00010005,
                                              forward=0x200, deliver=0x2000)


# --- every option -----------------------------------------------------------------------

# (dspmqrte options, MQMD field or TraceRoute member, expected value), spec line in comment.
OPTION_CASES = [
    ({"l": "yes"}, "persistence", 1),  # o&d L143
    ({"l": "no"}, "persistence", 0),  # o&d L143
    ({"l": "q"}, "persistence", 2),  # o&d L143
    ({"p": "5"}, "priority", 5),  # o&d L144
    ({"p": 0}, "priority", 0),  # o&d L144
    ({"p": "-1"}, "priority", -1),  # o&d L144: MQPRI_PRIORITY_AS_Q_DEF
    ({"xs": "30"}, "expiry", 300),  # o&d L145: seconds -> tenths
    ({"xs": 1}, "expiry", 10),  # o&d L145
    ({"ro": "none"}, "report", 0),  # o&d L146
    ({"ro": "activity"}, "report", 0x00000004),  # o&d L147
    ({"ro": "coa"}, "report", 0x00000700),  # o&d L147
    ({"ro": "cod"}, "report", 0x00003800),  # o&d L147
    ({"ro": "exception"}, "report", 0x07000000),  # o&d L147
    ({"ro": "expiration"}, "report", 0x00E00000),  # o&d L147
    ({"ro": "discard"}, "report", 0x08000000),  # o&d L147
    ({"ro": "activity,coa,discard"}, "report", 0x08000704),  # o&d L147: comma-separated
    ({"xp": "yes"}, "report", 0x08004004),  # o&d L148: adds MQRO_PASS_DISCARD_AND_EXPIRY
    ({"xp": "no"}, "report", 0x08000004),  # o&d L148
    ({"xp": "yes", "ro": "none"}, "report", 0x00004000),  # o&d L146, L148
    ({"ac": True}, "msg_type", 8),  # o&d L149: accumulating alone stays a datagram
    ({"ac": True, "ar": True}, "msg_type", 1),  # o&d L150: MQMT_REQUEST
    ({"ar": True}, "msg_type", 1),  # o&d L150, open question: -ar implies accumulation
    ({"rq": "MY.REPLY"}, "reply_to_q", "MY.REPLY"),  # o&d L156
    ({"rqm": "QM9"}, "reply_to_q_mgr", "QM9"),  # o&d L157
    ({"ac": True}, "accumulate", 0x00010004),  # o&d L149: MQROUTE_ACCUMULATE_IN_MSG
    ({"ac": True, "ar": True}, "accumulate", 0x00010005),  # o&d L150: AND_REPLY
    ({"ar": True}, "accumulate", 0x00010005),  # o&d L150 (open question, see module doc)
    ({"ac": False, "ar": False}, "accumulate", 0x00010003),  # o&d L151: NONE
    ({"d": "yes"}, "deliver", 0x00001000),  # o&d L152
    ({"d": "no"}, "deliver", 0x00002000),  # o&d L152
    ({"f": "all"}, "forward", 0x00000100),  # o&d L153
    ({"f": "supported"}, "forward", 0x00000200),  # o&d L153
    ({"s": "5"}, "max_activities", 5),  # o&d L154
    ({"s": 0}, "max_activities", 0),  # o&d L154: MQROUTE_UNLIMITED_ACTIVITIES
    ({"t": "low"}, "detail", 2),  # o&d L155
    ({"t": "medium"}, "detail", 8),  # o&d L155
    ({"t": "high"}, "detail", 32),  # o&d L155
]


@pytest.mark.parametrize(("opts", "field", "expected"), OPTION_CASES,
                         ids=[f"{o}-{f}" for o, f, _ in OPTION_CASES])
def test_option_sets_its_field(opts, field, expected):
    opts = {"rq": "REPLY.Q", **opts}
    md, _, message = build(TraceOptions.from_dspmqrte(**opts))
    info = info_of(message)
    if field in {f.name for f in fields(TraceRouteInfo)} - {"extra"}:
        actual = getattr(info, field)
    else:
        actual = getattr(md, field)
    assert actual == expected


def test_target_options_are_kept():
    # o&d L139-142: -q, -ts, -qm, -o name the destination but do not change the message.
    o = TraceOptions.from_dspmqrte(q="TARG.AT.QM2", qm="QM2", o=True, rq="R")
    assert (o.target_q, o.target_q_mgr, o.bind_not_fixed) == ("TARG.AT.QM2", "QM2", True)
    t = TraceOptions.from_dspmqrte(ts="price/fruit", rq="R")
    assert t.target_topic == "price/fruit" and t.target_q == ""
    plain = build_trace_message(TraceOptions(reply_to_q="R"), msg_id=MSG_ID)
    assert build_trace_message(o, msg_id=MSG_ID) == plain
    assert build_trace_message(t, msg_id=MSG_ID) == plain


def test_keywords_ignore_case_and_spaces():
    assert parse_report_options("Activity, COA") == 0x704
    assert TraceOptions.from_dspmqrte(t="HIGH", d="Yes").detail == 32


@pytest.mark.parametrize(("opts", "error", "match"), [
    ({"ro": "none,coa"}, ValueError, "stand alone"),
    ({"ro": "pan"}, ValueError, "not one of"),
    ({"ro": ""}, ValueError, "not one of"),
    ({"t": "extreme"}, ValueError, "low, medium, high"),
    ({"l": "maybe"}, ValueError, "yes, no, q"),
    ({"d": "1"}, ValueError, "yes, no"),
    ({"f": "some"}, ValueError, "all, supported"),
    ({"xp": "true"}, ValueError, "yes, no"),
    ({"xs": "ten"}, ValueError, "whole number"),
    ({"xs": 0}, ValueError, "positive"),
    ({"p": -2}, ValueError, "priority"),
    ({"s": -1}, ValueError, "max_activities"),
    ({"ac": "yes"}, ValueError, "no value"),
    ({"w": 5}, TypeError, "-w"),
    ({"q": "Q", "ts": "T"}, ValueError, "not both"),
    ({"rq": "Q" * 49}, ValueError, "48"),
    ({"l": "yes"}, ValueError, "persistent"),  # o&d L143: with yes, -rq is mandatory
])
def test_bad_options(opts, error, match):
    with pytest.raises(error, match=match):
        TraceOptions.from_dspmqrte(**opts)


def test_direct_construction_is_validated():
    with pytest.raises(ValueError, match="pass_expiry"):
        TraceOptions(report=0x4004)
    with pytest.raises(ValueError, match="detail"):
        TraceOptions(detail=4)
    with pytest.raises(ValueError, match="forward"):
        TraceOptions(forward=0x10000)
    with pytest.raises(ValueError, match="deliver"):
        TraceOptions(deliver=0)
    with pytest.raises(ValueError, match="persistence"):
        TraceOptions(persistence=3)


def test_reply_to_q_needed_only_when_responses_are_asked_for():
    # tr L61: ReplyToQ must be non-blank for MQMT_REQUEST or report-generating options.
    for opts in ({}, {"ar": True, "ro": "none"}, {"ro": "coa"}, {"ro": "exception"}):
        with pytest.raises(ValueError, match="reply_to_q is blank"):
            build_trace_message(TraceOptions.from_dspmqrte(**opts), msg_id=MSG_ID)
    for opts in ({"ro": "none"}, {"ro": "discard"}, {"ro": "discard", "ac": True}):
        md, _ = build_trace_message(TraceOptions.from_dspmqrte(**opts), msg_id=MSG_ID)
        assert md.reply_to_q == ""


def test_msg_id():
    md, _ = build_trace_message(TraceOptions(reply_to_q="R"), msg_id=b"")
    assert md.msg_id == bytes(24)  # MQMI_NONE: the queue manager makes one at put
    md, _ = build_trace_message(TraceOptions(reply_to_q="R"), msg_id=b"AMQ ")
    assert md.msg_id == b"AMQ " + bytes(20)
    with pytest.raises(ValueError, match="24"):
        build_trace_message(TraceOptions(reply_to_q="R"), msg_id=bytes(25))


# --- user data: the MQHEPCF form ---------------------------------------------------------

@pytest.mark.parametrize(("encoding", "order"), [(546, "<"), (273, ">")])
def test_user_data_follows_an_mqeph(encoding, order):
    user = b"Hello, route" * 10
    md, data, message = build(TraceOptions(reply_to_q="R"), encoding=encoding,
                              user_data=user, user_format="MQSTR", user_ccsid=1208)
    assert md.format == "MQHEPCF"  # tr L58: user data follows -> MQFMT_EMBEDDED_PCF
    assert data[:4] == b"EPH "  # tr L67
    version, struc_length, eph_enc, eph_ccsid = struct.unpack_from(order + "4i", data, 4)
    assert version == 1
    # tr L67, pcf L232: StrucLength = MQEPH (68) + the PCF structures = offset of user data
    assert struc_length == 68 + 16 + 8 * 16
    assert data[struc_length:] == user and len(data) == struc_length + len(user)
    assert (eph_enc, eph_ccsid, data[20:28]) == (encoding, 1208, b"MQSTR   ")
    assert struct.unpack_from(order + "i", data, 28)[0] == 0  # Flags MQEPH_NONE (tr L68-69)
    assert struct.unpack_from(order + "2i", data, 32) == (10, 36)  # the MQCFH inside
    assert message.user_data == user and message.eph.format == "MQSTR"
    assert info_of(message) == parse_trace_route(trace_route_group())


def test_user_data_description_defaults_to_the_message():
    _, _, message = build(TraceOptions(reply_to_q="R"), encoding=273, ccsid=500,
                          user_data=b"\xc1")
    assert (message.eph.encoding, message.eph.ccsid, message.eph.format) == (273, 500, "")


def test_ebcdic_ccsid():
    md, data, message = build(TraceOptions(reply_to_q="REPLY.Q"), encoding=273, ccsid=500,
                              user_data=b"\xc8\x89")
    raw = pack(md, ccsid=500)
    assert raw[:4] == "MD  ".encode("cp500") and raw[32:40] == "MQHEPCF ".encode("cp500")
    assert data[:4] == b"\xc5\xd7\xc8\x40" and data[20:28] == b"\x40" * 8  # "EPH ", blanks
    assert unpack(raw) == md
    assert message.user_data == b"\xc8\x89" and info_of(message).detail == 8


# --- reading the group back ---------------------------------------------------------------

def test_parse_trace_route_missing_members_are_none():
    # spec README.md L95 (item 15): the report-format table omits Forward.
    group = trace_route_group(forward=None, recorded_activities=3, unrecorded_activities=1,
                              discontinuity_count=2)
    assert [p.parameter for p in group.parameters] == [
        DETAIL, RECORDED, UNRECORDED, DISCONTINUITY, MAX_ACTIVITIES, ACCUMULATE, DELIVER]
    info = parse_trace_route(group)
    assert info.forward is None and info.recorded_activities == 3
    assert info.total_activities == 6  # tr L100: Recorded + Unrecorded + Discontinuity
    assert parse_trace_route(pcf.Group(TRACE_ROUTE, [])) == TraceRouteInfo()
    assert TraceRouteInfo().total_activities == 0
    odd = pcf.Group(TRACE_ROUTE, [pcf.String(DETAIL, "8"), pcf.Integer64(RECORDED, 7)])
    assert parse_trace_route(odd) == TraceRouteInfo(recorded_activities=7,
                                                    extra=(pcf.String(DETAIL, "8"),))
    with pytest.raises(ValueError, match="not a TraceRoute group"):
        parse_trace_route(pcf.Group(8001, []))


def test_group_and_info_round_trip():
    info = TraceRouteInfo(32, 4, 1, 0, 10, 0x00010005, 0x100, 0x1000)
    assert parse_trace_route(trace_route_group(**asdict(info))) == info


# --- round trips over every option, both byte orders, ASCII and EBCDIC ------------------

NAMES = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._", min_size=1, max_size=48)
OPTIONS = st.builds(
    TraceOptions,
    persistence=st.sampled_from([0, 1, 2]),
    priority=st.integers(-1, 9),
    expiry=st.integers(1, 2**31 // 10 - 1),
    report=st.sets(st.sampled_from(sorted(tracemsg.REPORT_KEYWORDS.values()))).map(
        lambda bits: sum(bits)),
    pass_expiry=st.booleans(), accumulate=st.booleans(), reply=st.booleans(),
    deliver=st.sampled_from([0x1000, 0x2000]), forward=st.sampled_from([0x100, 0x200]),
    max_activities=st.integers(0, 2**31 - 1), detail=st.sampled_from([2, 8, 32]),
    reply_to_q=NAMES, reply_to_q_mgr=st.one_of(st.just(""), NAMES),
)


@settings(max_examples=150, deadline=None)
@given(options=OPTIONS, encoding=st.sampled_from([273, 546, 785]),
       ccsid=st.sampled_from([819, 500, 1208, 37]),
       user_data=st.one_of(st.just(b""), st.binary(min_size=1, max_size=40)))
def test_round_trip(options, encoding, ccsid, user_data):
    md, data, message = build(options, encoding=encoding, ccsid=ccsid, user_data=user_data)
    assert unpack(pack(md, ccsid=ccsid)) == md
    assert md.msg_type == (1 if options.reply else 8)  # tr L54
    assert md.report == options.report | (0x4000 if options.pass_expiry else 0)
    assert (md.expiry, md.persistence, md.priority) == \
        (options.expiry * 10, options.persistence, options.priority)
    assert (md.encoding, md.coded_char_set_id) == (encoding, ccsid)
    assert md.format == ("MQHEPCF" if user_data else "MQADMIN")
    assert message.header.type == 10 and message.header.command == 75
    assert message.user_data == user_data
    assert info_of(message) == TraceRouteInfo(
        detail=options.detail, recorded_activities=0, unrecorded_activities=0,
        discontinuity_count=0, max_activities=options.max_activities,
        accumulate=options.accumulation, forward=options.forward, deliver=options.deliver)
    assert pcf.encode(message, encoding=encoding, ccsid=ccsid) == data
