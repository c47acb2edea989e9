"""Publish/subscribe figures of MQI statistics and accounting (accounting-statistics.md §4.2:
PutTopicCount/Put1TopicCount/PutTopicBytes, PublishMsgCount/PublishMsgBytes, SubCountDur/
SubCountNDur, SubFailCount, UnsubCountDur/UnsubCountNDur, the subscription high and low
water marks) held against what the simulator did: every publisher's put, every copy the
engines put (a Watcher of our own counts them independently), every MQSUB and removal.
Messages are read with pcf.decode alone.
"""

from __future__ import annotations

import pcf
from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator, Watcher
from traceroute.sim.statistics import STATISTICS_QUEUE, StatisticsCollector

MQSC = """\
* Queue manager name: QM1
ALTER QMGR STATMQI(ON) ACCTMQI(ON) STATINT(3600) DEADQ(SYSTEM.DEAD.LETTER.QUEUE)
DEFINE TOPIC(NEWS) TOPICSTR('News')
DEFINE TOPIC(QUIET) TOPICSTR('Quiet') PUB(DISABLED)
DEFINE QALIAS(NEWS.ALIAS) TARGET(NEWS) TARGTYPE(TOPIC)
DEFINE QLOCAL(ALL.NEWS)
DEFINE QLOCAL(FULL.NEWS) MAXDEPTH(0)
DEFINE SUB(ALL) TOPICSTR('News/#') DEST(ALL.NEWS)
DEFINE SUB(FULL) TOPICSTR('News/Sport') DEST(FULL.NEWS)
"""


class Copies(Watcher):
    """Counts the engine's copies by persistence, independently of the collector."""

    def __init__(self) -> None:
        self.count = [0, 0]
        self.bytes = [0, 0]

    def published(self, qmgr, subscription, md, length) -> None:
        i = 1 if md.persistence == mqc.MQPER_PERSISTENT else 0
        self.count[i] += 1
        self.bytes[i] += length


def _values(message: pcf.Message) -> dict[int, object]:
    return {p.parameter: p.value for p in message.parameters
            if not isinstance(p, pcf.model.Group)}


def test_mqi_statistics_count_what_the_engine_did():
    sim = Simulator(parse_mqsc(MQSC), seed=3)
    collector = StatisticsCollector(sim)
    copies = Copies()
    sim.add_watcher(copies)
    durable = sim.subscribe("QM1", "News/+", name="MINE", durable=True, appl_name="reader")
    passing = sim.subscribe("QM1", "News/#", appl_name="glance")
    refused = sim.subscribe("QM1", "News/#", name="MINE", durable=True, appl_name="reader")
    assert durable.ok and passing.ok and refused.reason == mqc.MQRC_SUB_ALREADY_EXISTS
    persistent = MQMD(persistence=mqc.MQPER_PERSISTENT)
    assert sim.publish("QM1", "News/Sport", MQMD(), b"12345").ok          # MQPUT1, 4 subs
    assert sim.publish("QM1", "News/Weather", persistent, b"123").ok      # MQPUT1, 3 subs
    handle = sim.open_topic("QM1", "News/Sport")
    assert handle.put(MQMD(), b"1234567").ok                              # MQPUT
    assert sim.put("QM1", "NEWS.ALIAS", MQMD(), b"xy").ok         # MQPUT1 of an alias: topic
    assert sim.publish("QM1", "Quiet", MQMD(), b"no").reason == mqc.MQRC_PUT_INHIBITED
    assert sim.unsubscribe("QM1", durable.subscription.sub_id)
    sim.disconnect_all()   # the non-durable one ends with its connection
    sim.run()
    collector.finish()
    stats = [pcf.decode(d) for _, d in sim.browse("QM1", STATISTICS_QUEUE)]
    mqi = [m for m in stats if m.header.command == mqc.MQCMD_STATISTICS_MQI]
    assert len(mqi) == 1
    v = _values(mqi[0])
    assert v[mqc.MQIAMO_TOPIC_PUT1S] == [2, 1] and v[mqc.MQIAMO_TOPIC_PUTS] == [1, 0]
    assert v[mqc.MQIAMO_TOPIC_PUT1S_FAILED] == 1 and v[mqc.MQIAMO_TOPIC_PUTS_FAILED] == 0
    assert v[mqc.MQIAMO64_TOPIC_PUT_BYTES] == [5 + 7 + 2, 3]
    assert v[mqc.MQIAMO_PUTS] == [0, 0] and v[mqc.MQIAMO_PUT1S] == [0, 0]  # not queue puts
    # every copy the engine put, and no more
    assert v[mqc.MQIAMO_PUBLISH_MSG_COUNT] == copies.count and sum(copies.count) > 0
    assert v[mqc.MQIAMO64_PUBLISH_MSG_BYTES] == copies.bytes
    assert v[mqc.MQIAMO_SUBS_DUR] == [1, 0, 0] and v[mqc.MQIAMO_SUBS_NDUR] == [1, 0, 0]
    assert v[mqc.MQIAMO_SUBS_FAILED] == 1
    assert v[mqc.MQIAMO_UNSUBS_DUR] == [0, 1] and v[mqc.MQIAMO_UNSUBS_NDUR] == [0, 1]
    # durable: the two DEFINE SUBs (ADMIN) throughout, MINE (API) for a while
    assert v[mqc.MQIAMO_SUB_DUR_HIGHWATER] == [3, 1, 2, 0]
    assert v[mqc.MQIAMO_SUB_DUR_LOWWATER] == [2, 0, 2, 0]
    assert v[mqc.MQIAMO_SUB_NDUR_HIGHWATER] == [1, 1, 0, 0]
    assert v[mqc.MQIAMO_SUB_NDUR_LOWWATER] == [0, 0, 0, 0]
    # topic opens: MQOT_TOPIC (8); the alias queue's open is a queue open
    assert v[mqc.MQIAMO_OPENS][mqc.MQOT_TOPIC] == 3  # two MQPUT1s and one MQOPEN


def test_a_put_to_a_topic_with_pub_disabled_is_a_put_inhibited_event_naming_the_topic():
    """Inhibit events on (INHIBTEV(ENABLED)): MQPUT1 to 'Quiet' (PUB(DISABLED)) fails 2051
    and the queue manager writes Put Inhibited with the topic string it was put to."""
    from traceroute.sim.events import SimEvents

    sim = Simulator(parse_mqsc(MQSC.replace("ALTER QMGR ", "ALTER QMGR INHIBTEV(ENABLED) ")),
                    seed=3)
    SimEvents(sim)
    assert sim.publish("QM1", "Quiet/Today", MQMD(), b"no").reason == mqc.MQRC_PUT_INHIBITED
    assert sim.publish("QM1", "News/Sport", MQMD(), b"yes").ok
    events = [pcf.decode(d) for _, d in sim.browse("QM1", "SYSTEM.ADMIN.QMGR.EVENT")]
    assert [e.header.reason for e in events] == [mqc.MQRC_PUT_INHIBITED]
    v = _values(events[0])
    assert v[mqc.MQCA_TOPIC_STRING].strip() == "Quiet/Today"
    assert v[mqc.MQCACF_APPL_NAME].strip() == "amqspub"
