"""DISPLAY CHSTATUS's bytssent/bytsrcvd/bufssent/bufsrcvd and DISPLAY QSTATUS's curfsize/
curmaxfs in runCommandJSON answers: numbers under MQSC's keywords in lower case, as mqweb
gives them, for current instances only; read back to the same typed values; absent (a queue
manager that does not report them) reads back as None."""

from __future__ import annotations

import json

from traceroute.rest.objects import (
    channel_status_json,
    channel_status_of,
    queue_status_json,
    queue_status_of,
)
from traceroute.status import ChannelStatus, QueueStatus


def test_channel_counts_in_the_answer():
    c = ChannelStatus("QM1", "TO.QM2", "SDR", "RUNNING", msgs=3, bytssent=1_404,
                      bytsrcvd=528, bufssent=5, bufsrcvd=3)
    body = json.loads(json.dumps(channel_status_json(c)))
    assert {k: body[k] for k in ("bytssent", "bytsrcvd", "bufssent", "bufsrcvd")} == {
        "bytssent": 1_404, "bytsrcvd": 528, "bufssent": 5, "bufsrcvd": 3}
    assert channel_status_of(body, "QM1") == c
    saved = channel_status_json(ChannelStatus("QM1", "TO.QM2", "SDR", "RUNNING", "SAVED",
                                              bytssent=9))
    assert "bytssent" not in saved
    older = channel_status_json(ChannelStatus("QM1", "TO.QM2", "SDR", "RUNNING"))
    assert "bytssent" not in older and channel_status_of(older, "QM1").bytssent is None
    assert channel_status_of({**older, "bytssent": "12"}, "QM1").bytssent == 12


def test_queue_file_in_the_answer():
    q = QueueStatus("QM1", "APP.Q", 4, curfsize=1, curmaxfs=2_088_960)
    body = json.loads(json.dumps(queue_status_json(q)))
    assert (body["curfsize"], body["curmaxfs"]) == (1, 2_088_960)
    assert queue_status_of(body, "QM1") == q
    older = queue_status_json(QueueStatus("QM1", "APP.Q", 4))
    assert "curfsize" not in older and queue_status_of(older, "QM1").curmaxfs is None
