"""A time in a message is a claim: past what a time can hold, it is no time, never a crash.

Every time a message carries, set to the ends of what its field can say: activity trace's
HighResTime (MQINT64 microseconds: year -290,308 to 294,247), OperationDate/Time of
activity reports and activity trace (0001-01-01 ... 9999-12-31, and garbage), an event's
PutDate/PutTime, statistics intervals, amqsevt's epoch. Every command that reads them (text
and JSON, with events explaining routes and journeys, analyze in one process, then report
and audit on its tables) ends with a documented status and no internal error.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from mqroute.main import main
from pcf import dmpmqmsg, mqc
from tests.support.hostile import EXAMPLE, simulated_day, with_strings

TIMES = [
    {mqc.MQIAMO64_HIGHRES_TIME: 2**63 - 1}, {mqc.MQIAMO64_HIGHRES_TIME: -(2**63)},
    {mqc.MQCACF_OPERATION_DATE: "0001-01-01", mqc.MQCACF_OPERATION_TIME: "00:00:00"},
    {mqc.MQCACF_OPERATION_DATE: "9999-12-31", mqc.MQCACF_OPERATION_TIME: "23:59:59"},
    {mqc.MQCACF_OPERATION_DATE: "2026-02-30", mqc.MQCACF_OPERATION_TIME: "24:61:61"},
    {mqc.MQCAMO_START_DATE: "9999-12-31", mqc.MQCAMO_START_TIME: "23.59.59",
     mqc.MQCAMO_END_DATE: "0001-01-01", mqc.MQCAMO_END_TIME: "99.99.99"},
]
PUT = [("00010101", "00000000"), ("99991231", "23595999"), ("99999999", "99999999")]
EPOCHS = [-62_135_596_800, 253_402_300_799, 253_402_300_800, 10**30, -(10**30)]


@pytest.fixture(scope="module", params=range(len(TIMES)))
def files(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("times")
    day = simulated_day()
    values = TIMES[request.param]
    out = {}
    for kind in ("reports", "trace", "stats"):
        out[kind] = str(folder / f"{kind}.dmp")
        dmpmqmsg.write_file(out[kind], [dmpmqmsg.DumpedMessage(*with_strings(md, d, values))
                                        for md, d in day[kind]])
    pd, pt = PUT[request.param % len(PUT)]
    out["events"] = str(folder / "events.dmp")
    dmpmqmsg.write_file(out["events"], [dmpmqmsg.DumpedMessage(
        replace(md, put_date=pd, put_time=pt), d) for md, d in day["events"]])
    epoch = EPOCHS[request.param % len(EPOCHS)]
    out["json"] = str(folder / "events.json")
    (folder / "events.json").write_text(json.dumps({
        "eventSource": {"objectName": "SYSTEM.ADMIN.PERFM.EVENT", "objectType": "Queue",
                        "queueMgr": "QM1"},
        "eventType": {"name": "Perfm Event", "value": 45},
        "eventReason": {"name": "Queue Depth High", "value": 2224},
        "eventCreation": {"timeStamp": "9999-99-99T99:99:99Z", "epoch": epoch},
        "eventData": {"queueMgrName": "QM1", "baseObjectName": "Q1"}}) + "\n")
    (folder / "qm1_qm2.mqsc").write_text(EXAMPLE)
    out["mqsc"] = str(folder / "qm1_qm2.mqsc")
    out["folder"] = str(folder)
    return out


def test_every_reader_of_times(files, capsys):
    f = files
    runs = [["follow", f["trace"]], ["follow", "--json", f["trace"], "--events", f["events"],
                                     f["json"]],
            ["show", f["reports"], "-v", "all", "--events", f["events"], f["json"]],
            ["show", "--json", f["reports"]], ["stats", f["stats"]],
            ["stats", "--json", f["stats"]], ["events", f["events"], f["json"]],
            ["events", "--json", f["events"]], ["decode", f["trace"], f["events"]],
            ["analyze", f["reports"], f["trace"], f["stats"], f["events"], "--out",
             f["folder"] + "/out", "--no-spark"],
            ["report", f["folder"] + "/out", "-o", f["folder"] + "/r.html"],
            ["audit", "--mqsc", f["mqsc"], "--observed", f["folder"] + "/out"],
            ["metrics", "--stats", f["stats"], "--events", f["events"], "--textfile",
             f["folder"] + "/m.prom"]]
    for words in runs:
        status = main(words)
        err = capsys.readouterr().err
        assert status in (0, 1, 3, 4, 5, 6), (words, status, err[-1500:])
        assert "internal error" not in err, (words, err[-1500:])
