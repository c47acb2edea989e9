"""Ordering activity data into routes, and displaying them as dspmqrte does."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pcf import mqc
from tests.support import dspmqrte_examples as ex
from traceroute.display.dspmqrte import render_route
from traceroute.records.parse import REPLY, REPORT, parse_message
from traceroute.routes.ordering import Gap, build_routes
from traceroute.routes.verdict import Location, Verdict


def records(messages):
    return [parse_message(md, data) for md, data in messages]


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]


def shown(route, *args) -> list[str]:
    return [line.strip() for line in render_route(route, *args)]


def test_example1_summary_from_three_reports():
    md = ex.trace_md()
    (route,) = build_routes(records(ex.reports(md, [2, 0, 1])))  # arrival order is meaningless
    assert route.correl_id == ex.TRACE_MSG_ID
    assert [a.appl_name for a in route.activities] == [ex.DSPMQRTE, ex.SENDER, ex.RECEIVER]
    assert route.verdict is Verdict.DISCARDED_AT_TARGET
    assert route.location == Location("QM2", "TARGET.Q")
    assert route.complete
    assert shown(route) == lines(ex.SUMMARY)


def test_example2_summary_from_one_reply():
    md = ex.trace_md(report=mqc.MQRO_DISCARD_MSG, msg_type=mqc.MQMT_REQUEST,
                     reply_q="TR.REPLY.Q")
    recs = records([ex.reply(md)])
    assert recs[0].kind == REPLY and len(recs[0].activities) == 3
    (route,) = build_routes(recs)
    assert route.verdict is Verdict.DISCARDED_AT_TARGET and route.complete
    assert shown(route) == lines(ex.SUMMARY)


def test_example3_outline_identifiers_then_follow_up():
    md = ex.trace_md()
    (route,) = build_routes(records(ex.reports(md, [1, 0])))  # QM2's report is elsewhere
    assert route.verdict is Verdict.INCOMPLETE
    assert route.location == Location("QM1", "QM2", "QM1.TO.QM2", "QM2")
    assert shown(route, "outline", ["identifiers"]) == lines(ex.EXAMPLE3)
    # dspmqrte -m QM2 -q SYSTEM.ADMIN.ACTIVITY.QUEUE -i <MsgId> -v outline
    (follow,) = build_routes(records(ex.reports(md, [2])))
    assert follow.steps[0] == Gap(missing=2)
    assert shown(follow, "outline") == lines(ex.EXAMPLE3_FOLLOW_UP)
    assert follow.verdict is Verdict.DISCARDED_AT_TARGET and not follow.complete
    # all reports together: the whole route, complete
    (whole,) = build_routes(records(ex.reports(md, [2, 1, 0])))
    assert whole.complete and not whole.gaps


def test_example4_stuck_on_transmission_queue():
    (route,) = build_routes(records(ex.reports(ex.trace_md(), [0])))
    assert route.verdict is Verdict.WAITING_ON_XMITQ
    assert route.location == Location("QM1", "QM2", None, "QM2")
    assert shown(route, "outline") == lines(ex.EXAMPLE4)


@pytest.mark.parametrize("seed", range(5))
def test_shuffled_duplicated_and_mixed_messages(seed):
    rng = random.Random(seed)
    md_a = ex.trace_md()
    md_b = replace(ex.trace_md(), msg_id=ex.PREFIX + b"\x99")
    msgs = ex.reports(md_a, [0, 1, 2]) * 2 + ex.reports(md_b, [0, 1]) + ex.reports(md_a, [1])
    rng.shuffle(msgs)
    routes = {r.correl_id: r for r in build_routes(records(msgs))}
    assert set(routes) == {md_a.msg_id, md_b.msg_id}
    a, b = routes[md_a.msg_id], routes[md_b.msg_id]
    assert len(a.activities) == 3 and a.complete  # duplicates counted once
    assert len(b.activities) == 2 and b.verdict is Verdict.INCOMPLETE
    assert all(x.operations[0].qmgr for x in b.activities)


def test_missing_middle_report_is_a_gap_of_one():
    (route,) = build_routes(records(ex.reports(ex.trace_md(), [2, 0])))
    assert [type(s).__name__ for s in route.steps] == ["Activity", "Gap", "Activity"]
    assert route.steps[1] == Gap(missing=1)
    assert route.verdict is Verdict.DISCARDED_AT_TARGET and not route.complete


@pytest.mark.parametrize("encoding, ccsid", [(273, 500), (785, 1047), (546, 1208)])
def test_big_endian_and_ebcdic_reports(encoding, ccsid):
    msgs = ex.reports(ex.trace_md(), [2, 1, 0], encoding=encoding, ccsid=ccsid)
    (route,) = build_routes(records(msgs))
    assert route.complete and shown(route) == lines(ex.SUMMARY)


def test_reply_with_fifty_activities():
    from pcf.encoder import encode
    from pcf.model import Header, Message, String
    from traceroute.records.build import activity_group, operation_group
    from traceroute.records.tracemsg import trace_route_group
    acc = mqc.MQROUTE_ACCUMULATE_AND_REPLY
    groups = []
    for n in range(50):
        qm = f"QM{n}"
        groups.append(activity_group(
            appl_name="app", appl_type=mqc.MQAT_UNIX, description="hop",
            trace_route=trace_route_group(recorded_activities=n + 1, accumulate=acc),
            operations=[operation_group(mqc.MQOPER_PUT, date="2026-11-22", time="10:00:00",
                                        qmgr=qm, md=None, details=[
                                            String(mqc.MQCA_Q_NAME, f"Q{n}", 819)])]))
    rng = random.Random(1)
    rng.shuffle(groups)  # the counters, not the position, order them
    md = replace(ex.trace_md(), msg_type=mqc.MQMT_REPLY, correl_id=ex.TRACE_MSG_ID)
    top = trace_route_group(recorded_activities=50, accumulate=acc)
    data = encode(Message(Header(mqc.MQCFT_TRACE_ROUTE, mqc.MQCMD_TRACE_ROUTE),
                          [top, *groups]))
    (route,) = build_routes(records([(md, data)]))
    assert [a.qmgr for a in route.activities] == [f"QM{n}" for n in range(50)]
    assert route.verdict is Verdict.DELIVERED and route.complete


def test_reply_missing_trailing_activities_is_incomplete():
    md = ex.trace_md()
    rmd, data = ex.reply(md)
    rec = records([(rmd, data)])[0]
    shorter = replace(rec, activities=rec.activities[:2])
    (route,) = build_routes([shorter])
    assert route.steps[-1] == Gap(missing=1)
    assert route.verdict is Verdict.INCOMPLETE


def test_reports_without_counters_are_chained():
    from traceroute.records.samples import example_reports
    msgs = example_reports()
    for seed in range(4):
        rng = random.Random(seed)
        shuffled = msgs[:]
        rng.shuffle(shuffled)
        (route,) = build_routes(records(shuffled))
        assert [a.appl_name for a in route.activities] == ["amqsput", "runmqchl", "amqrmppa",
                                                           "amqsget"]
        assert route.complete and route.verdict is Verdict.DELIVERED
    (partial,) = build_routes(records([msgs[2], msgs[3]]))
    assert isinstance(partial.steps[0], Gap) and partial.steps[0].missing is None


def test_report_kinds():
    recs = records(ex.reports(ex.trace_md(), [0]))
    assert recs[0].kind == REPORT and recs[0].key == ex.TRACE_MSG_ID


def _report(activity_group_, qmgr="QM1", correl=ex.TRACE_MSG_ID, n=1):
    from traceroute.records.build import activity_report, encode_report, report_descriptor
    md = replace(ex.trace_md(), msg_id=correl)
    rmd = report_descriptor(md, qmgr=qmgr, msg_id=ex.PREFIX + bytes([0x40 + n]),
                            put_date="20261122", put_time="10000000")
    return rmd, encode_report(rmd, activity_report(activity_group_))


def _activity(op_type, qmgr, *, details=(), recorded=None, extra=(), time="10:00:00"):
    from traceroute.records.build import activity_group, operation_group
    from traceroute.records.tracemsg import trace_route_group
    tr = trace_route_group(recorded_activities=recorded) if recorded is not None else None
    return activity_group(appl_name="app", appl_type=mqc.MQAT_UNIX, description="d",
                          trace_route=tr, extra=list(extra), operations=[operation_group(
                              op_type, date="2026-11-22", time=time, qmgr=qmgr, md=None,
                              details=list(details))])


def test_value_naming_and_unknown_parameters_shown():
    from pcf.model import Group, String
    named = Group(mqc.MQGACF_VALUE_NAMING, [String(mqc.MQCACF_VALUE_NAME, "Colour", 819),
                                            String(65537, "Blue", 819)])
    group = _activity(mqc.MQOPER_PUT, "QM1", extra=[named, String(65536, "Red", 819)],
                      details=[String(mqc.MQCA_Q_NAME, "Q", 819)])
    (route,) = build_routes(records([_report(group)]))
    text = shown(route, "outline")
    assert "Colour: 'Blue'" in text and "65536: 'Red'" in text
    from traceroute.display.jsonout import route_to_dict
    extra = route_to_dict(route)["activities"][0]["extra"]
    assert extra["Colour"]["value"] == "Blue" and extra["65536"]["value"] == "Red"


def test_fan_out_makes_branches():
    from pcf.model import String
    s = lambda pid, v: String(pid, v, 819)  # noqa: E731
    publish = _activity(mqc.MQOPER_PUT, "QM1", recorded=1,
                        details=[s(mqc.MQCA_TOPIC_STRING, "price/fruit")])
    subs = [_activity(mqc.MQOPER_PUT, qm, recorded=2, details=[s(mqc.MQCA_Q_NAME, f"SUB.{qm}"),
                                                                 s(mqc.MQCACF_RESOLVED_Q_NAME,
                                                                   f"SUB.{qm}")])
            for qm in ("QM1", "QM1B")]
    msgs = [_report(g, n=k) for k, g in enumerate([subs[1], publish, subs[0]])]
    (route,) = build_routes(records(msgs))
    assert len(route.steps) == 1 and len(route.branches) == 2
    assert sorted(b.location.queue for b in route.branches) == ["SUB.QM1", "SUB.QM1B"]
    assert route.verdict is Verdict.DELIVERED and route.complete
    assert shown(route, "outline").count("Branch 1 of 2:") == 1


@pytest.mark.parametrize("feedback, verdict", [
    (mqc.MQFB_MAX_ACTIVITIES, Verdict.MAX_ACTIVITIES),
    (mqc.MQFB_NOT_FORWARDED, Verdict.NOT_FORWARDED),
    (mqc.MQFB_EXPIRATION, Verdict.EXPIRED),
    (mqc.MQRC_Q_FULL, Verdict.DISCARDED),
])
def test_discard_verdicts(feedback, verdict):
    from pcf.model import Integer
    group = _activity(mqc.MQOPER_DISCARD, "QM2", details=[Integer(mqc.MQIACF_FEEDBACK,
                                                                  feedback)])
    (route,) = build_routes(records([_report(group)]))
    assert route.verdict is verdict and route.outcome.feedback == feedback


def test_dead_letter_queue_verdict_and_report_found_on_a_dlq():
    from pcf.headers import MQDLH, pack_dlh
    from pcf.model import Integer, String
    group = _activity(mqc.MQOPER_PUT, "QM2", details=[
        String(mqc.MQCA_Q_NAME, "SYSTEM.DEAD.LETTER.QUEUE", 819),
        String(mqc.MQCACF_RESOLVED_Q_NAME, "SYSTEM.DEAD.LETTER.QUEUE", 819),
        Integer(mqc.MQIACF_FEEDBACK, mqc.MQRC_UNKNOWN_OBJECT_NAME)])
    md, data = _report(group, qmgr="QM2")
    dlh = MQDLH(mqc.MQRC_Q_FULL, "ACTIV.REPLY.Q", "QM1", md.encoding, md.coded_char_set_id,
                md.format)
    on_dlq = replace(md, format="MQDEAD")
    (rec,) = records([(on_dlq, pack_dlh(dlh) + data)])
    assert rec.dead_letter == dlh
    (route,) = build_routes([rec])
    assert route.verdict is Verdict.DEAD_LETTERED
    assert route.location == Location("QM2", "SYSTEM.DEAD.LETTER.QUEUE")
    assert route.outcome.feedback == mqc.MQRC_UNKNOWN_OBJECT_NAME


def test_unrecorded_activities_are_a_gap():
    from traceroute.records.build import activity_group, operation_group
    from traceroute.records.tracemsg import trace_route_group
    groups = []
    for n, (r, u) in enumerate([(1, 0), (2, 2)]):
        groups.append(activity_group(
            appl_name="app", appl_type=mqc.MQAT_UNIX, description="d",
            trace_route=trace_route_group(recorded_activities=r, unrecorded_activities=u),
            operations=[operation_group(mqc.MQOPER_GET, date="2026-11-22", time="10:00:00",
                                        qmgr=f"QM{n}", md=None)]))
    (route,) = build_routes(records([_report(g, n=k) for k, g in enumerate(groups)]))
    assert route.steps[1] == Gap(missing=0, unrecorded=2)
