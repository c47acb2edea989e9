"""amqsact-like display: the seed's MQCONN example line for line, and journey text."""

from __future__ import annotations

from pcf.mqmd import unpack
from tests.traceroute.journeys.scenarios import M, qm1_to_qm2
from tests.traceroute.journeys.spec_build import LE, cfbs, cfgr, cfh, cfin, cfst, mqmd
from traceroute.display.amqsact import hex_dump, render_journey, render_trace
from traceroute.journeys import parse_activity_trace, reconstruct

CONN = b"AMQCTESTQM      " + bytes.fromhex("B5F642512000E601")  # EXTCONN + CONN (seed)


def _seed_message() -> tuple[bytes, bytes]:
    """The seed's amqsact -v example (activity-trace.md §6): one MQCONN on TESTQM."""
    o = LE
    top = [cfst(o, 2015, "TESTQM", width=48), cfst(o, 3191, "ADMINIB-1VTJ6N1"),
           cfst(o, 2711, "2014-03-15"), cfst(o, 2712, "12:08:10"),
           cfst(o, 2707, "2014-03-15"), cfst(o, 2708, "12:08:10"), cfin(o, 31, 750),
           cfin(o, 1079, 0), cfst(o, 3024, r"IBM MQ_1\bin\amqspu.exe", width=28),
           cfin(o, 1, 11), cfin(o, 1024, 14076), cfst(o, 3025, "Emma_Bushby", width=12),
           cfin(o, 1357, 1), cfin(o, 1358, 0), cfst(o, 3200, ""), cfin(o, 1400, 0),
           cfin(o, 1359, 2), cfin(o, 1375, 0), cfin(o, 1397, 4), cfin(o, 32, 11)]
    group = cfgr(o, 8013, [cfin(o, 1356, 3), cfin(o, 1025, 1), cfst(o, 3132, "2014-03-15"),
                           cfst(o, 3133, "12:08:10"),
                           cfbs(o, 7006, CONN), cfst(o, 2015, "TESTQM", width=48),
                           cfin(o, 1242, 0), cfin(o, 1254, 0)])
    return mqmd(o, correl_id=CONN), cfh(o, len(top) + 1) + b"".join(top) + group


def test_seed_amqsact_example_line_for_line() -> None:
    md, data = _seed_message()
    lines = render_trace(parse_activity_trace(unpack(md), data))
    dump = hex_dump(CONN)
    expected = [
        "MonitoringType: MQI Activity Trace", "Correl_id:", *dump,
        "QueueManager: 'TESTQM'", "Host Name: 'ADMINIB-1VTJ6N1'",
        "IntervalStartDate: '2014-03-15'", "IntervalStartTime: '12:08:10'",
        "IntervalEndDate: '2014-03-15'", "IntervalEndTime: '12:08:10'", "CommandLevel: 750",
        "SeqNumber: 0", r"ApplicationName: 'IBM MQ_1\bin\amqspu.exe'",
        # the seed prints MQAT_WINDOWS_7 / MQPL_WINDOWS_7, not header constants (spec §3.3)
        "Application Type: MQAT_WINDOWS_NT", "ApplicationPid: 14076",
        "UserId: 'Emma_Bushby'", "API Caller Type: MQXACT_EXTERNAL",
        "API Environment: MQXE_OTHER", "Application Function: ''",
        "Appl Function Type: MQFUN_TYPE_UNKNOWN", "Trace Detail Level: 2",
        "Trace Data Length: 0", "Pointer size: 4", "Platform: MQPL_WINDOWS_NT", "",
        "MQI Operation: 0", "Operation Id: MQXF_CONN", "ApplicationTid: 1",
        "OperationDate: '2014-03-15'", "OperationTime: '12:08:10'", "ConnectionId:", *dump,
        "QueueManager: 'TESTQM'", "Completion Code: MQCC_OK", "Reason Code: 0"]
    assert lines == expected
    assert dump[0] == "00000000: 414D 5143 5445 5354 514D 2020 2020 2020 'AMQCTESTQM      '"


def test_journey_text() -> None:
    traces = [parse_activity_trace(unpack(md), d) for md, d in qm1_to_qm2()]
    (j,) = reconstruct(traces).journeys
    lines = render_journey(j)
    assert lines[0] == f"Message {M.hex().upper()}: consumed - last seen on QM2 TARGET.Q"
    assert len(lines) == 5
    assert "TARG.AT.QM2 -> QM2" in lines[1] and "by amqsput" in lines[1]
    assert "[QM1.TO.QM2]" in lines[2] and "sent" in lines[2]
    assert "received" in lines[3] and lines[4].strip().startswith("4.")
    verbose = render_journey(j, verbose=True)
    assert any("Xmitq Remote_Q_Mgr: 'QM2'" in line for line in verbose)
