"""The $SYS activity-trace topics a `follow --subscribe` subscribes to, after seed 002
("Subscribing to application activity trace information") and spec activity-trace.md 2.3."""

from __future__ import annotations

import pytest

from traceroute.mq.trace_topics import CHAR_SCHEME, TOPIC_SCHEME, activity_trace_topic

BASE = "$SYS/MQ/INFO/QMGR/"


@pytest.mark.parametrize("qmgr, kind, value, topic, scheme", [
    ("QMGR1", "appl", "amqsput.exe", "QMGR1/ActivityTrace/ApplName/amqsput.exe", TOPIC_SCHEME),
    # the part after the last / or \ (MQAXC.ApplName), trailing blanks removed
    ("QM1", "appl", "/opt/mqm/samp/bin/amqsput  ", "QM1/ActivityTrace/ApplName/amqsput",
     TOPIC_SCHEME),
    ("QM1", "appl", r"C:\apps\orders.exe", "QM1/ActivityTrace/ApplName/orders.exe",
     TOPIC_SCHEME),
    ("QM1", "appl", "amqs*", "QM1/ActivityTrace/ApplName/amqs*", CHAR_SCHEME),
    ("QM1", "channel", "SYSTEM.DEF.SVRCONN", "QM1/ActivityTrace/ChannelName/SYSTEM.DEF.SVRCONN",
     TOPIC_SCHEME),
    ("QM1", "channel", "#", "QM1/ActivityTrace/ChannelName/#", TOPIC_SCHEME),
    ("QM1", "channel", "A/B", "QM1/ActivityTrace/ChannelName/A&B", TOPIC_SCHEME),
    # the queue manager's name: trailing blanks removed, '/' -> '&'
    ("QM/X  ", "channel", "C", "QM&X/ActivityTrace/ChannelName/C", TOPIC_SCHEME),
    ("QMGR1", "conn_id", "414d5143514d47523120202020202020" "6b576b5420000701",
     "QMGR1/ActivityTrace/ConnectionId/414D5143514D475231202020202020206B576B5420000701",
     TOPIC_SCHEME),
])
def test_topics_as_mq_names_them(qmgr, kind, value, topic, scheme):
    made = activity_trace_topic(qmgr, kind, value)
    assert made.topic == BASE + topic and made.scheme == scheme


@pytest.mark.parametrize("qmgr, kind, value, said", [
    ("QM1", "conn_id", "414D5143514D4752312020202020202" "06B576B54200007", "48 hex"),  # 46
    ("QM1", "conn_id", "zz" * 24, "48 hex"),
    ("QM1", "appl", "a" * 29, "28 characters"),
    ("QM1", "channel", "c" * 21, "20 characters"),
    ("QM1", "appl", "dir/", "empty"),
    ("QM1", "appl", "a\nb", "control character"),
    ("QM1", "appl", "10%*", "'%'"),
    ("", "appl", "a", "1 to 48"),
    ("QM#", "appl", "a", "no wildcard"),
    ("QM1", "queue", "a", "not one of"),
])
def test_what_mq_would_refuse_is_said(qmgr, kind, value, said):
    with pytest.raises(ValueError, match=None) as e:
        activity_trace_topic(qmgr, kind, value)
    assert said in str(e.value)
