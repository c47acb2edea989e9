"""Ordering activity data into routes, and displaying them as dspmqrte does."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pcf import mqc
from tests import dspmqrte_examples as ex
from traceroute.display import render_route
from traceroute.ordering import Gap, build_routes
from traceroute.parse import REPLY, REPORT, parse_message
from traceroute.verdict import Location, Verdict


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
    from traceroute.build import activity_group, operation_group
    from traceroute.tracemsg import trace_route_group
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
    from traceroute.samples import example_reports
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
