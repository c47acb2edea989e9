"""Logger events of the simulator's linear recovery log: at LOGGEREV switched on, at a new
extent (full, or RESET QMGR TYPE(ADVANCELOG)), at queue manager start; none with circular
logging."""

from __future__ import annotations

from pcf import mqc
from pcf.mqmd import MQMD
from tests.traceroute.events.sim_events import event_data, read_events
from traceroute.display.amqsevt import text
from traceroute.sim import Simulator, parse_mqsc
from traceroute.sim.events import SimEvents

LOG = "SYSTEM.ADMIN.LOGGER.EVENT"


def _sim(**kw) -> tuple[Simulator, SimEvents]:
    sim = Simulator(parse_mqsc("DEFINE QLOCAL(Q) MAXDEPTH(100000)\n", qmgr="CSIM"), seed=1)
    return sim, SimEvents(sim, **kw)


def test_logger_events_of_a_linear_log() -> None:
    sim, watcher = _sim(log_extent=10_000)
    watcher.mqsc("ALTER QMGR LOGGEREV(ENABLED)", "CSIM")  # its state when switched on
    for _ in range(10):  # 10 x (1000 + 512) bytes: the first extent fills up
        sim.put("CSIM", "Q", MQMD(persistence=mqc.MQPER_PERSISTENT), bytes(1000))
    for _ in range(10):
        sim.put("CSIM", "Q", MQMD(persistence=mqc.MQPER_NOT_PERSISTENT), bytes(1000))
    watcher.mqsc("RESET QMGR TYPE(ADVANCELOG)", "CSIM")
    sim.end_qmgr("CSIM")
    sim.start_qmgr("CSIM")
    events = read_events(sim, "CSIM", LOG)
    assert [event_data(e)["currentLogExtentName"] for e in events] == [
        "S0000000.LOG", "S0000001.LOG", "S0000002.LOG", "S0000002.LOG"]
    assert event_data(events[0]) == {
        "queueMgrName": "CSIM", "currentLogExtentName": "S0000000.LOG",
        "restartLogExtentName": "S0000000.LOG", "mediaLogExtentName": "S0000000.LOG",
        "logPath": "/var/mqm/log/CSIM/active/"}
    shown = text(events[0]).splitlines()
    assert shown[1:3] == ["Event Type           : Logger Event",
                          "Reason               : Logger Status"]
    assert shown[4:] == ["  Queue Mgr Name     : CSIM",
                         "  Current Log Extent Name : S0000000.LOG",
                         "  Restart Log Extent Name : S0000000.LOG",
                         "  Media Log Extent Name : S0000000.LOG",
                         "  Log Path           : /var/mqm/log/CSIM/active/"]


def test_no_logger_events_without_loggerev_or_with_circular_logging() -> None:
    sim, watcher = _sim(log_extent=1000)
    sim.put("CSIM", "Q", MQMD(persistence=mqc.MQPER_PERSISTENT), bytes(2000))
    assert read_events(sim, "CSIM", LOG) == []
    sim, watcher = _sim(circular=["CSIM"], log_extent=1000)
    watcher.mqsc("ALTER QMGR LOGGEREV(ENABLED)", "CSIM")
    sim.put("CSIM", "Q", MQMD(persistence=mqc.MQPER_PERSISTENT), bytes(2000))
    assert read_events(sim, "CSIM", LOG) == []
