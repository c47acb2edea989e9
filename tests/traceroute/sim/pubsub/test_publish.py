"""Publishing on one queue manager: the publish activity as seed 002 specifies it, the
copies, the delivery rules (PMSGDLV/NPMSGDLV, USEDLQ), the exclusions and MQSUB.

The activity reports are read with pcf.decode alone (not with this project's records
parser): the parameters of each operation are held against the seed's tables ("Activity
report message data" / "Operation-specific activity report message data": the Publish /
Discarded Publish / Excluded Publish page and the Put page's "not returned for a put to a
topic" footnotes).
"""

from __future__ import annotations

import pytest

import pcf
from pcf import mqc
from pcf.model import ByteString, Group
from pcf.mqmd import MQMD
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

BASE = """\
ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)
DEFINE QLOCAL(REPLY)
DEFINE TOPIC(SPORTS) TOPICSTR('Sport')
DEFINE QLOCAL(ALL.Q)
DEFINE QLOCAL(SOCCER.Q)
DEFINE QLOCAL(FULL.Q) MAXDEPTH(0)
DEFINE QLOCAL(URGENT.Q)
DEFINE SUB(ALL) TOPICSTR('Sport/#') DEST(ALL.Q)
DEFINE SUB(SOCCER) TOPICOBJ(SPORTS) TOPICSTR('Soccer/+') DEST(SOCCER.Q) DESTCORL(C0FFEE) \
PUBPRTY(7) PUBAPPID('subscriber id') SUBUSER('app1')
DEFINE SUB(FULL) TOPICSTR('Sport/Soccer/Results') DEST(FULL.Q)
DEFINE SUB(URGENT) TOPICSTR('Sport/#') DEST(URGENT.Q) SELECTOR('JMSPriority > 5')
"""
#: The eight MQMD fields a subscription may override: all a Publish's MQMD group holds.
SUBSET = {mqc.MQCACH_FORMAT_NAME, mqc.MQIACF_PRIORITY, mqc.MQIACF_PERSISTENCE,
          mqc.MQBACF_MSG_ID, mqc.MQBACF_CORREL_ID, mqc.MQCACF_USER_IDENTIFIER,
          mqc.MQBACF_ACCOUNTING_TOKEN, mqc.MQCACF_APPL_IDENTITY_DATA}
COMMON = {mqc.MQIACF_OPERATION_TYPE, mqc.MQCACF_OPERATION_DATE, mqc.MQCACF_OPERATION_TIME,
          mqc.MQCA_Q_MGR_NAME}


def network(extra: str = ""):
    return parse_mqsc(BASE + extra, qmgr="QM1", source="pubsub.mqsc")


def publish(sim: Simulator, topic: str, **md) -> tuple[int, list[Group]]:
    """Publish with activity reports to REPLY; (reason, the Operation groups reported)."""
    result = sim.publish("QM1", topic, MQMD(report=mqc.MQRO_ACTIVITY, reply_to_q="REPLY",
                                            **md), b"score 3-1")
    sim.run()
    ops: list[Group] = []
    while (got := sim.get("QM1", "REPLY")) is not None:
        report = pcf.decode(got[1], encoding=got[0].encoding, ccsid=got[0].coded_char_set_id,
                            fmt=got[0].format)
        activity = report.find(mqc.MQGACF_ACTIVITY)
        ops += [p for p in activity.parameters if p.parameter == mqc.MQGACF_OPERATION]
    return result.reason, ops


def ids(group: Group) -> set[int]:
    return {p.parameter for p in group.parameters}


def value(group: Group, pid: int):
    found = group.find(pid)
    return found.value if found is not None else None


def md_of(op: Group) -> Group | None:
    message = op.find(mqc.MQGACF_MESSAGE)
    return message.find(mqc.MQGACF_MQMD) if message is not None else None


def test_the_publish_activity_has_the_seeds_operations_and_parameters():
    sim = Simulator(network(), seed=1)
    reason, ops = publish(sim, "Sport/Soccer/Results", priority=3)
    assert reason == 0
    types = [value(op, mqc.MQIACF_OPERATION_TYPE) for op in ops]
    # the Put to the topic, then one operation per subscriber considered (by name)
    assert types == [mqc.MQOPER_PUT, mqc.MQOPER_PUBLISH, mqc.MQOPER_DISCARDED_PUBLISH,
                     mqc.MQOPER_PUT, mqc.MQOPER_PUBLISH, mqc.MQOPER_EXCLUDED_PUBLISH]
    put, to_all, full, dead, _soccer, urgent = ops
    # Put to a topic: TopicString, and no QName/ResolvedQName/RemoteQName/RemoteQMgrName
    assert ids(put) == COMMON | {mqc.MQGACF_MESSAGE, mqc.MQCA_TOPIC_STRING}
    assert value(put, mqc.MQCA_TOPIC_STRING).rstrip() == "Sport/Soccer/Results"
    assert len(md_of(put).parameters) == 29  # the whole MQMD (MQMD_VERSION_2)
    # Publish: Message (MsgLength + the MQMD subset), SubId, SubLevel; no Feedback
    assert ids(to_all) == COMMON | {mqc.MQGACF_MESSAGE, mqc.MQBACF_SUB_ID,
                                    mqc.MQIACF_SUB_LEVEL}
    assert ids(md_of(to_all)) == SUBSET and len(md_of(to_all).parameters) == 8
    assert ids(to_all.find(mqc.MQGACF_MESSAGE)) == {mqc.MQIACF_MSG_LENGTH, mqc.MQGACF_MQMD}
    assert value(to_all, mqc.MQIACF_SUB_LEVEL) == 1
    assert isinstance(to_all.find(mqc.MQBACF_SUB_ID), ByteString)
    assert len(value(to_all, mqc.MQBACF_SUB_ID)) == 24
    # Discarded Publish: as Publish, plus Feedback (why it was not put: the queue is full)
    assert ids(full) == ids(to_all) | {mqc.MQIACF_FEEDBACK}
    assert ids(md_of(full)) == SUBSET
    assert value(full, mqc.MQIACF_FEEDBACK) == mqc.MQRC_Q_FULL
    # ... then the copy goes to the dead-letter queue (a Put with the reason as Feedback)
    assert value(dead, mqc.MQCA_Q_NAME).rstrip() == "SYSTEM.DEAD.LETTER.QUEUE"
    assert value(dead, mqc.MQIACF_FEEDBACK) == mqc.MQRC_Q_FULL
    assert value(md_of(dead), mqc.MQBACF_MSG_ID) == value(md_of(full), mqc.MQBACF_MSG_ID)
    # Excluded Publish: no Message group at all; SubId, SubLevel, Feedback (why)
    assert ids(urgent) == COMMON | {mqc.MQBACF_SUB_ID, mqc.MQIACF_SUB_LEVEL,
                                    mqc.MQIACF_FEEDBACK}
    assert value(urgent, mqc.MQIACF_FEEDBACK) == mqc.MQFB_SELECTOR_MISMATCH
    assert sim.depth("QM1", "URGENT.Q") == 0
    assert sim.depth("QM1", "SYSTEM.DEAD.LETTER.QUEUE") == 1


def test_each_copy_has_its_own_msg_id_and_the_subscriptions_fields():
    sim = Simulator(network(), seed=2)
    _reason, ops = publish(sim, "Sport/Soccer/Results", priority=3, correl_id=b"P" * 24)
    (put,) = [op for op in ops if value(op, mqc.MQIACF_OPERATION_TYPE) == mqc.MQOPER_PUT
              and op.find(mqc.MQCA_TOPIC_STRING) is not None]
    original = value(md_of(put), mqc.MQBACF_MSG_ID)
    ((all_md, all_data),) = sim.browse("QM1", "ALL.Q")
    ((soccer_md, _),) = sim.browse("QM1", "SOCCER.Q")
    assert all_data == b"score 3-1"
    assert len({original, all_md.msg_id, soccer_md.msg_id}) == 3
    assert all_md.msg_id[:4] == b"AMQ " and all_md.correl_id[:4] == b"AMQX"  # generated
    # SOCCER says DESTCORL, PUBPRTY, PUBAPPID and SUBUSER: its copy carries them
    assert soccer_md.correl_id == bytes.fromhex("C0FFEE").ljust(24, b"\0")
    assert (soccer_md.priority, soccer_md.appl_identity_data.rstrip(),
            soccer_md.user_identifier.rstrip()) == (7, "subscriber id", "app1")
    assert all_md.priority == 3  # PUBPRTY(ASPUB)
    # the Publish operations report each copy's fields
    published = {value(md_of(op), mqc.MQBACF_MSG_ID): op for op in ops
                 if value(op, mqc.MQIACF_OPERATION_TYPE) == mqc.MQOPER_PUBLISH}
    assert set(published) == {all_md.msg_id, soccer_md.msg_id}
    assert value(md_of(published[soccer_md.msg_id]), mqc.MQIACF_PRIORITY) == 7


def test_a_topic_with_no_subscriber_is_a_lone_put():
    sim = Simulator(network(), seed=3)
    reason, ops = publish(sim, "Weather/Today")
    assert reason == 0
    assert [value(op, mqc.MQIACF_OPERATION_TYPE) for op in ops] == [mqc.MQOPER_PUT]


@pytest.mark.parametrize("attrs,persistent,reason,dead", [
    # the default: persistent publications go to every durable subscriber or none (ALLDUR),
    # but a copy the dead-letter queue takes counts as delivered
    ("", True, 0, 1),
    ("USEDLQ(NO)", True, mqc.MQRC_PUBLICATION_FAILURE, 0),  # ALLDUR, durable: the put fails
    ("USEDLQ(NO)", False, 0, 0),  # NPMSGDLV(ALLAVAIL): the others get theirs
    ("USEDLQ(NO) NPMSGDLV(ALL)", False, mqc.MQRC_PUBLICATION_FAILURE, 0),
    ("USEDLQ(NO) PMSGDLV(ALLAVAIL)", True, 0, 0),
])
def test_delivery_rules_when_a_copy_cannot_be_put(attrs, persistent, reason, dead):
    text = BASE.replace("DEFINE TOPIC(SPORTS) TOPICSTR('Sport')",
                        f"DEFINE TOPIC(SPORTS) TOPICSTR('Sport') {attrs}")
    sim = Simulator(parse_mqsc(text, qmgr="QM1"), seed=4)
    per = mqc.MQPER_PERSISTENT if persistent else mqc.MQPER_NOT_PERSISTENT
    got, ops = publish(sim, "Sport/Soccer/Results", persistence=per)
    assert got == reason
    assert sim.depth("QM1", "SYSTEM.DEAD.LETTER.QUEUE") == dead
    if reason:  # nothing is published: no subscriber has it, nothing is recorded
        assert sim.depth("QM1", "ALL.Q") == sim.depth("QM1", "SOCCER.Q") == 0 and not ops
    else:
        assert sim.depth("QM1", "ALL.Q") == sim.depth("QM1", "SOCCER.Q") == 1


def test_a_dead_letter_has_the_dlh_of_its_subscription_queue():
    from pcf.headers import unpack_dlh

    sim = Simulator(network(), seed=5)
    publish(sim, "Sport/Soccer/Results")
    ((md, data),) = sim.browse("QM1", "SYSTEM.DEAD.LETTER.QUEUE")
    dlh = unpack_dlh(data)
    assert md.format.rstrip() == "MQDEAD" and dlh.reason == mqc.MQRC_Q_FULL
    assert dlh.dest_q_name.rstrip() == "FULL.Q" and dlh.dest_q_mgr_name.rstrip() == "QM1"


def test_put_inhibited_wildcards_and_psmode():
    sim = Simulator(network("DEFINE TOPIC(CLOSED) TOPICSTR('Sport/Closed') PUB(DISABLED)\n"),
                    seed=6)
    assert sim.publish("QM1", "Sport/Closed/Match", MQMD(), b"x").reason == \
        mqc.MQRC_PUT_INHIBITED
    assert sim.publish("QM1", "Sport/Open", MQMD(), b"x").reason == 0
    assert sim.open_topic("QM1", "Sport/#").reason == mqc.MQRC_TOPIC_STRING_ERROR
    assert sim.open_topic("QM1", "Sport#").reason == 0  # '#' with other text is literal
    assert sim.open_topic("QM1", topic_object="NO.SUCH").reason == \
        mqc.MQRC_UNKNOWN_OBJECT_NAME
    sim.network.qmgrs["QM1"].attrs["PSMODE"] = "DISABLED"
    assert sim.publish("QM1", "Sport/Open", MQMD(), b"x").reason == \
        mqc.MQRC_PUBSUB_INHIBITED


def test_an_alias_queue_of_a_topic_publishes():
    sim = Simulator(network("DEFINE QALIAS(SCORES) TARGET(SPORTS) TARGTYPE(TOPIC)\n"
                            "DEFINE QALIAS(CLOSED) TARGET(SPORTS) TARGTYPE(TOPIC) "
                            "PUT(DISABLED)\n"), seed=7)
    assert sim.put("QM1", "SCORES", MQMD(), b"x").reason == 0
    sim.run()
    assert sim.depth("QM1", "ALL.Q") == 1  # 'Sport' matches 'Sport/#'
    assert sim.put("QM1", "CLOSED", MQMD(), b"x").reason == mqc.MQRC_PUT_INHIBITED


def test_persistence_and_priority_as_the_topic_defines():
    sim = Simulator(network().qmgrs and parse_mqsc(
        BASE.replace("TOPICSTR('Sport')", "TOPICSTR('Sport') DEFPSIST(YES) DEFPRTY(4)"),
        qmgr="QM1"), seed=8)
    sim.publish("QM1", "Sport/Tennis", MQMD(persistence=mqc.MQPER_PERSISTENCE_AS_TOPIC_DEF,
                                           priority=mqc.MQPRI_PRIORITY_AS_TOPIC_DEF), b"x")
    ((md, _),) = sim.browse("QM1", "ALL.Q")
    assert (md.persistence, md.priority) == (mqc.MQPER_PERSISTENT, 4)


def test_sublevel_interception_and_request_only():
    text = BASE + ("DEFINE QLOCAL(INTERCEPT.Q)\n"
                   "DEFINE SUB(INTERCEPT) TOPICSTR('Sport/#') DEST(INTERCEPT.Q) SUBLEVEL(5)\n"
                   "DEFINE QLOCAL(ONREQ.Q)\n"
                   "DEFINE SUB(ONREQ) TOPICSTR('Sport/#') DEST(ONREQ.Q) SUBLEVEL(5) "
                   "REQONLY(YES)\n")
    sim = Simulator(parse_mqsc(text, qmgr="QM1"), seed=9)
    _, ops = publish(sim, "Sport/Golf")
    # "Only subscriptions with the highest subscription level less than or equal to the
    # publication's publication level will receive the publication": level 5 takes it
    considered = {value(op, mqc.MQIACF_SUB_LEVEL) for op in ops[1:]}
    assert considered == {5}
    assert sim.depth("QM1", "INTERCEPT.Q") == 1 and sim.depth("QM1", "ALL.Q") == 0
    excluded = [op for op in ops if value(op, mqc.MQIACF_OPERATION_TYPE)
                == mqc.MQOPER_EXCLUDED_PUBLISH]
    assert [value(op, mqc.MQIACF_FEEDBACK) for op in excluded] == \
        [mqc.MQFB_PUBLICATIONS_ON_REQUEST]


def test_mqsub_managed_durable_and_non_durable_subscriptions():
    from traceroute.sim.mqi import MQDISC, MQSUB

    sim = Simulator(network(), seed=10)
    calls = []
    sim.add_observer(calls.append)
    managed = sim.subscribe("QM1", "Sport/+", appl_name="reader")
    assert managed.ok and managed.queue.startswith("SYSTEM.MANAGED.NDURABLE.")
    durable = sim.subscribe("QM1", "Sport/#", name="KEEP", durable=True, appl_name="reader")
    assert durable.ok and durable.queue.startswith("SYSTEM.MANAGED.DURABLE.")
    assert sim.subscribe("QM1", "Sport/#", name="KEEP", durable=True).reason == \
        mqc.MQRC_SUB_ALREADY_EXISTS
    assert sim.subscribe("QM1", "Sport/#", durable=True).reason == mqc.MQRC_SUB_NAME_ERROR
    assert sim.subscribe("QM1", "Sport/#", selector="JMSPriority >").reason == \
        mqc.MQRC_SELECTION_STRING_ERROR
    assert sim.subscribe("QM1", "Sport/#", destination="NO.SUCH.Q").reason == \
        mqc.MQRC_UNKNOWN_OBJECT_NAME
    sub_calls = [c for c in calls if c.verb == MQSUB]
    assert sub_calls[0].topic == "Sport/+" and sub_calls[0].subscription.sub_id == \
        managed.subscription.sub_id
    assert sub_calls[-1].reason == mqc.MQRC_UNKNOWN_OBJECT_NAME
    sim.publish("QM1", "Sport/Darts", MQMD(), b"180")
    got = sim.mqget("QM1", managed.queue, appl_name="reader")
    assert got.ok and got.data == b"180" and got.md.correl_id == \
        managed.subscription.correl_id
    # the connection ends: its non-durable subscription (and managed queue) goes
    (conn,) = [c for c in sim.connections() if c.appl_name == "reader"]
    sim.disconnect(conn)
    assert any(c.verb == MQDISC for c in calls)
    assert managed.queue not in sim.network.qmgrs["QM1"].queues
    assert sim.pubsub.api_named("QM1", "KEEP") is not None
    assert sim.unsubscribe("QM1", durable.subscription.sub_id)
    assert sim.pubsub.api_named("QM1", "KEEP") is None


def test_trace_route_publication_honours_deliver_no():
    from traceroute.records.tracemsg import TraceOptions, build_trace_message

    sim = Simulator(network(), seed=11)
    md, data = build_trace_message(TraceOptions.from_dspmqrte(ts="Sport/Soccer/Results",
                                                              rq="REPLY"), msg_id=bytes(24))
    assert sim.publish("QM1", "Sport/Soccer/Results", md, data, appl_name="dspmqrte").ok
    sim.run()
    assert sim.depth("QM1", "ALL.Q") == sim.depth("QM1", "SOCCER.Q") == 0
    reports = []
    while (got := sim.get("QM1", "REPLY")) is not None:
        reports.append(got)
    (report,) = reports  # one activity: the publication (detail MEDIUM)
    message = pcf.decode(report[1], encoding=report[0].encoding,
                         ccsid=report[0].coded_char_set_id, fmt=report[0].format)
    activity = message.find(mqc.MQGACF_ACTIVITY)
    ops = [p for p in activity.parameters if p.parameter == mqc.MQGACF_OPERATION]
    feedbacks = [value(op, mqc.MQIACF_FEEDBACK) for op in ops[1:]]
    # local destinations: Discarded Publish, NotDelivered (the seed: delivery to a local
    # destination explicitly suppressed); the selector still excludes
    assert feedbacks == [mqc.MQFB_NOT_DELIVERED] * 3 + [mqc.MQFB_SELECTOR_MISMATCH]
    assert value(activity, mqc.MQCACF_APPL_NAME).rstrip() == "dspmqrte"
    trace = activity.find(mqc.MQGACF_TRACE_ROUTE)
    assert value(trace, mqc.MQIACF_RECORDED_ACTIVITIES) == 1


def test_low_detail_records_no_publish_activity():
    from traceroute.records.tracemsg import TraceOptions, build_trace_message

    sim = Simulator(network(), seed=12)
    md, data = build_trace_message(TraceOptions.from_dspmqrte(ts="Sport/Golf", rq="REPLY",
                                                              t="low"), msg_id=bytes(24))
    sim.publish("QM1", "Sport/Golf", md, data, appl_name="dspmqrte")
    sim.run()
    assert sim.depth("QM1", "REPLY") == 0  # dspmqrte -t low: publish activities are MEDIUM
