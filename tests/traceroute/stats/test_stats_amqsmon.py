"""amqsmon text and JSON: the seed's examples reproduced from messages built with struct."""

from __future__ import annotations

import json

from tests.traceroute.stats.stats_pcf import CFT_ACCOUNTING, CFT_STATISTICS, Builder
from traceroute.display.amqsmon import record_to_json, render_amqsmon
from traceroute.stats import decode_stats, join_sequences

# Seed 002, amqsmon example 1 (MQI statistics), verbatim.
SEED_EXAMPLE_1 = """\
RecordType: MQIStatistics
QueueManager: 'saturn.queue.manager'
IntervalStartDate: '2005-04-30'
IntervalStartTime: '15.09.02'
IntervalEndDate: '2005-04-30'
IntervalEndTime: '15.39.02'
CommandLevel: 600
ConnCount: 23
ConnFailCount: 0
ConnsMax: 8
DiscCount: [17, 0, 0]
OpenCount: [0, 80, 1, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0]
OpenFailCount: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
CloseCount: [0, 73, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
CloseFailCount: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
InqCount: [4, 2102, 0, 0, 0, 46, 0, 0, 0, 0, 0, 0, 0, 0]
InqFailCount: [0, 31, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
SetCount: [0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
SetFailCount: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
PutCount: [26, 1]
PutFailCount: 0
Put1Count: [40, 0]
Put1FailCount: 0
PutBytes: [57064, 12320]
GetCount: [18, 1]
GetBytes: [52, 12320]
GetFailCount: 2254
BrowseCount: [18, 60]
BrowseBytes: [23784, 30760]
BrowseFailCount: 9
CommitCount: 0
CommitFailCount: 0
BackCount: 0
ExpiredMsgCount: 0
PurgeCount: 0
"""

# Seed example 2 (queue statistics of LOCALQ); the seed swaps the QueueType and
# QueueDefinitionType values (spec §10.15) and prints the group line without its index
# (example 3 prints it with): corrected here.
SEED_EXAMPLE_2 = """\
RecordType: QueueStatistics
QueueManager: 'saturn.queue.manager'
IntervalStartDate: '2005-04-30'
IntervalStartTime: '15.09.02'
IntervalEndDate: '2005-04-30'
IntervalEndTime: '15.39.02'
CommandLevel: 600
ObjectCount: 1
QueueStatistics: 0
  QueueName: 'LOCALQ'
  CreateDate: '2005-03-08'
  CreateTime: '17.07.02'
  QueueType: Local
  QueueDefinitionType: Predefined
  QMinDepth: 0
  QMaxDepth: 18
  AverageQueueTime: [29827281, 0]
  PutCount: [26, 0]
  PutFailCount: 0
  Put1Count: [0, 0]
  Put1FailCount: 0
  PutBytes: [88, 0]
  GetCount: [18, 0]
  GetBytes: [52, 0]
  GetFailCount: 0
  BrowseCount: [0, 0]
  BrowseBytes: [0, 0]
  BrowseFailCount: 1
  NonQueuedMsgCount: 0
  ExpiredMsgCount: 0
  PurgedMsgCount: 0
"""

# Seed example 4 (MQI accounting), first record verbatim (its ConnectionId has 23 bytes).
SEED_EXAMPLE_4 = """\
RecordType: MQIAccounting
QueueManager: 'saturn.queue.manager'
IntervalStartDate: '2005-04-30'
IntervalStartTime: '15.09.29'
IntervalEndDate: '2005-04-30'
IntervalEndTime: '15.09.30'
CommandLevel: 600
ConnectionId: x'414d514354524556312020202020208d0b3742010a0020'
SeqNumber: 0
ApplicationName: 'amqsput'
ApplicationPid: 8572
ApplicationTid: 1
UserId: 'admin'
ConnDate: '2005-03-16'
ConnTime: '15.09.29'
DiscDate: '2005-03-16'
DiscTime: '15.09.30'
DiscType: Normal
OpenCount: [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
OpenFailCount: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
CloseCount: [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
CloseFailCount: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
PutCount: [1, 0]
PutFailCount: 0
PutBytes: [4, 0]
GetCount: [0, 0]
GetFailCount: 0
GetBytes: [0, 0]
BrowseCount: [0, 0]
BrowseFailCount: 0
BrowseBytes: [0, 0]
CommitCount: 0
CommitFailCount: 0
BackCount: 0
InqCount: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
InqFailCount: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
SetCount: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
SetFailCount: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
"""

IDS = {  # amqsmon label -> (identifier, structure, fixed width of strings)
    "QueueManager": (2015, "MQCFST", 48), "IntervalStartDate": (2711, "MQCFST", 12),
    "IntervalStartTime": (2712, "MQCFST", 8), "IntervalEndDate": (2707, "MQCFST", 12),
    "IntervalEndTime": (2708, "MQCFST", 8), "CommandLevel": (31, "MQCFIN", None),
    "ObjectCount": (732, "MQCFIN", None), "ConnCount": (712, "MQCFIN", None),
    "ConnFailCount": (749, "MQCFIN", None), "ConnsMax": (713, "MQCFIN", None),
    "DiscCount": (714, "MQCFIL", None), "OpenCount": (733, "MQCFIL", None),
    "OpenFailCount": (751, "MQCFIL", None), "CloseCount": (709, "MQCFIL", None),
    "CloseFailCount": (757, "MQCFIL", None), "InqCount": (727, "MQCFIL", None),
    "InqFailCount": (752, "MQCFIL", None), "SetCount": (744, "MQCFIL", None),
    "SetFailCount": (753, "MQCFIL", None), "PutCount": (735, "MQCFIL", None),
    "PutFailCount": (754, "MQCFIN", None), "Put1Count": (734, "MQCFIL", None),
    "Put1FailCount": (755, "MQCFIN", None), "PutBytes": (748, "MQCFIL64", None),
    "GetCount": (722, "MQCFIL", None), "GetBytes": (747, "MQCFIL64", None),
    "GetFailCount": (725, "MQCFIN", None), "BrowseCount": (705, "MQCFIL", None),
    "BrowseBytes": (745, "MQCFIL64", None), "BrowseFailCount": (708, "MQCFIN", None),
    "CommitCount": (710, "MQCFIN", None), "CommitFailCount": (711, "MQCFIN", None),
    "BackCount": (704, "MQCFIN", None), "ExpiredMsgCount": (758, "MQCFIN", None),
    "PurgeCount": (760, "MQCFIN", None), "PurgedMsgCount": (760, "MQCFIN", None),
    "QueueName": (2016, "MQCFST", 48), "CreateDate": (2004, "MQCFST", 12),
    "CreateTime": (2005, "MQCFST", 8), "QueueType": (20, "MQCFIN", None),
    "QueueDefinitionType": (7, "MQCFIN", None), "QMinDepth": (740, "MQCFIN", None),
    "QMaxDepth": (739, "MQCFIN", None), "AverageQueueTime": (703, "MQCFIL64", None),
    "NonQueuedMsgCount": (759, "MQCFIN", None), "ConnectionId": (7006, "MQCFBS", None),
    "SeqNumber": (1079, "MQCFIN", None), "ApplicationName": (3024, "MQCFST", 28),
    "ApplicationPid": (1024, "MQCFIN", None), "ApplicationTid": (1025, "MQCFIN", None),
    "UserId": (3025, "MQCFST", 12), "ConnDate": (2703, "MQCFST", 12),
    "ConnTime": (2704, "MQCFST", 8), "DiscDate": (2705, "MQCFST", 12),
    "DiscTime": (2706, "MQCFST", 8), "DiscType": (716, "MQCFIN", None),
}
NAMED = {"Local": 1, "Predefined": 1, "Normal": 0}


def structures(b: Builder, lines: list[str]) -> list[bytes]:
    """Structures for `Label: value` lines of amqsmon text (the inverse of the display)."""
    out = []
    for line in lines:
        label, _, text = line.strip().partition(": ")
        pid, structure, width = IDS[label]
        if text.startswith("x'"):
            value: object = bytes.fromhex(text[2:-1])
        elif text.startswith("'"):
            value = text[1:-1]
        elif text.startswith("["):
            value = [int(v) for v in text[1:-1].split(", ")]
        else:
            value = NAMED.get(text)
            value = int(text) if value is None else value
        out.append(b.value(pid, structure, value, width))
    return out


def render(data: bytes) -> str:
    """amqsmon text of one message."""
    return "\n".join(render_amqsmon(next(join_sequences([decode_stats(None, data)]))
                                    .records()))


def test_seed_example_1_mqi_statistics_both_orders():
    for order in "<>":
        b = Builder(order)
        lines = SEED_EXAMPLE_1.splitlines()[1:]
        data = b.message(CFT_STATISTICS, 164, structures(b, lines))
        assert render(data) == SEED_EXAMPLE_1


def test_seed_example_2_queue_statistics():
    b = Builder(">")
    lines = SEED_EXAMPLE_2.splitlines()
    top, members = lines[1:8], lines[9:]
    data = b.message(CFT_STATISTICS, 165, structures(b, top),
                     [b.cfgr(8011, structures(b, members))])
    assert render(data) == SEED_EXAMPLE_2


def test_seed_example_4_mqi_accounting():
    b = Builder()
    data = b.message(CFT_ACCOUNTING, 167, structures(b, SEED_EXAMPLE_4.splitlines()[1:]))
    assert render(data) == SEED_EXAMPLE_4


def test_json_contract_for_queue_accounting():
    b = Builder()
    top = [*structures(b, SEED_EXAMPLE_4.splitlines()[1:13]), b.cfin(732, 2)]
    groups = [b.cfgr(8010, [b.cfst(2016, q, 48), b.cfin(20, 1), b.cfil(735, [n, 0]),
                            b.cfil64(748, [n * 10, 0]), b.cfin(4242, 9)])
              for q, n in (("Q1", 3), ("Q2", 5))]
    data = b.message(CFT_ACCOUNTING, 168, top, groups)
    recs = next(join_sequences([decode_stats(None, data)])).records()
    objs = [json.loads(json.dumps(record_to_json(r))) for r in recs]
    assert [o["object"] for o in objs] == ["Q1", "Q2"]
    first = objs[0]
    assert first["record_type"] == "QueueAccounting"
    assert first["queue_manager"] == "saturn.queue.manager"
    assert (first["interval_start"], first["interval_end"]) == \
        ("2005-04-30T15:09:29", "2005-04-30T15:09:30")
    assert set(first) == {"record_type", "queue_manager", "interval_start", "interval_end",
                          "object", "data"}
    data0 = first["data"]
    assert data0["ConnectionId"] == "414d514354524556312020202020208d0b3742010a0020"
    assert (data0["ApplicationName"], data0["ApplicationPid"], data0["UserId"]) == \
        ("amqsput", 8572, "admin")
    assert (data0["QueueName"], data0["QueueType"], data0["PutCount"], data0["PutBytes"]) == \
        ("Q1", 1, [3, 0], [30, 0])
    assert data0["4242"] == 9
    assert objs[1]["data"]["PutCount"] == [5, 0]
    assert objs[1]["data"]["ApplicationName"] == "amqsput"


def test_json_of_mqi_statistics_and_channel():
    b = Builder()
    data = b.message(CFT_STATISTICS, 164, structures(b, SEED_EXAMPLE_1.splitlines()[1:]))
    [r] = next(join_sequences([decode_stats(None, data)])).records()
    o = record_to_json(r)
    assert o["object"] is None and o["record_type"] == "MQIStatistics"
    assert o["data"]["ConnsMax"] == 8 and o["data"]["PurgeCount"] == 0
    assert "QueueManager" not in o["data"] and o["data"]["CommandLevel"] == 600
    top = [*structures(b, SEED_EXAMPLE_1.splitlines()[1:7]), b.cfin(732, 1)]
    group = b.cfgr(8012, [b.cfst(3501, "QM1.TO.QM2", 20), b.cfin(1511, 1),
                          b.cfst(2017, "QM2", 48), b.cfin(728, 40), b.cfin64(746, 2**35),
                          b.cfin(729, 1500)])
    [r] = next(join_sequences([decode_stats(None, b.message(CFT_STATISTICS, 166, top,
                                                              [group]))])).records()
    o = record_to_json(r)
    assert o["object"] == "QM1.TO.QM2"
    assert {k: o["data"][k] for k in ("ChannelType", "RemoteQmgr", "MsgCount", "TotalBytes",
                                      "NetTimeAvg")} == \
        {"ChannelType": 1, "RemoteQmgr": "QM2", "MsgCount": 40, "TotalBytes": 2**35,
         "NetTimeAvg": 1500}
    text = "\n".join(render_amqsmon([r]))
    assert "ChannelStatistics: 0\n  ChannelName: 'QM1.TO.QM2'\n  ChannelType: Sender" in text
