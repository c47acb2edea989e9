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


def _ini_sim(ini: str) -> tuple[Simulator, SimEvents]:
    from traceroute.sim.qmini import parse_qm_ini

    net = parse_mqsc("ALTER QMGR LOGGEREV(ENABLED)\n", qmgr="CSIM")
    net.qmgrs["CSIM"].ini = parse_qm_ini(ini)
    sim = Simulator(net, seed=1)
    return sim, SimEvents(sim)


def test_archive_log_management_reports_archlog_and_moves_it_on_set_log_archived() -> None:
    """qm.ini Log LogManagement=Archive: every logger event carries ArchiveLogExtent, the
    oldest extent waiting for archive notification (ARCHLOG); SET LOG ARCHIVED of that
    extent moves ARCHLOG on and writes a new event, of another extent writes none; RESET
    QMGR TYPE(ARCHLOG) ARCHIVED(x) archives every extent up to x [seed 002 记录器事件]."""
    sim, watcher = _ini_sim("Log:\n   LogType=LINEAR\n   LogManagement=Archive\n")
    for _ in range(3):
        watcher.mqsc("RESET QMGR TYPE(ADVANCELOG)", "CSIM")  # S0000003.LOG being written
    assert [event_data(e)["archiveLogExtentName"] for e in read_events(sim, "CSIM", LOG)] \
        == ["S0000000.LOG"] * 3
    watcher.mqsc("SET LOG ARCHIVED(S0000001.LOG)", "CSIM")  # not ARCHLOG: no event
    watcher.mqsc("SET LOG ARCHIVED(S0000003.LOG)", "CSIM")  # being written: not archived
    assert read_events(sim, "CSIM", LOG) == []
    watcher.mqsc("SET LOG ARCHIVED(S0000000.LOG)", "CSIM")  # ARCHLOG moves past 0 and 1
    watcher.mqsc("RESET QMGR TYPE(ARCHLOG) ARCHIVED(S0000002.LOG)", "CSIM")
    events = read_events(sim, "CSIM", LOG)
    assert [event_data(e)["archiveLogExtentName"] for e in events] == ["S0000002.LOG", ""]
    assert [p.parameter for p in events[0].data] == [
        mqc.MQCA_Q_MGR_NAME, mqc.MQCACF_CURRENT_LOG_EXTENT_NAME,
        mqc.MQCACF_RESTART_LOG_EXTENT_NAME, mqc.MQCACF_MEDIA_LOG_EXTENT_NAME,
        mqc.MQCACF_ARCHIVE_LOG_EXTENT_NAME, mqc.MQCACF_LOG_PATH]
    assert "Archive Log Extent Name : S0000002.LOG" in text(events[0])


def test_qm_ini_circular_logging_writes_no_logger_events_and_manual_no_archlog() -> None:
    sim, watcher = _ini_sim("Log:\n   LogType=CIRCULAR\n")
    watcher.mqsc("RESET QMGR TYPE(ADVANCELOG)", "CSIM")
    assert read_events(sim, "CSIM", LOG) == []
    sim, watcher = _ini_sim("Log:\n   LogType=LINEAR\n   LogManagement=Manual\n")
    watcher.mqsc("RESET QMGR TYPE(ADVANCELOG)", "CSIM")
    assert "archiveLogExtentName" not in event_data(read_events(sim, "CSIM", LOG)[0])


def test_an_estate_keeps_its_recovery_log_between_commands(tmp_path) -> None:
    """The log's extents go on across commands (DIR/QMGR/monitoring.json 'log'): three
    RESET QMGR TYPE(ADVANCELOG) in three commands are extents 1, 2, 3 (each command used to
    start again at S0000000.LOG), SET LOG ARCHIVED is remembered, a damaged entry is
    refused naming the file and the field."""
    import json
    from datetime import UTC, datetime, timedelta

    import pytest

    from traceroute.sim.estate import Estate, EstateError
    from traceroute.sim.qmini import parse_qm_ini

    t0 = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    net = parse_mqsc("ALTER QMGR LOGGEREV(ENABLED)\n", qmgr="CSIM")
    net.qmgrs["CSIM"].ini = parse_qm_ini("Log:\n   LogManagement=Archive\n")
    folder = tmp_path / "estate"
    Estate.create(folder, net, now=t0)
    for n in range(1, 4):
        with Estate.open(folder, now=t0 + timedelta(seconds=n)) as e:
            e.engines.events.mqsc("RESET QMGR TYPE(ADVANCELOG)", "CSIM")
    with Estate.open(folder, now=t0 + timedelta(seconds=5)) as e:
        e.engines.events.mqsc("SET LOG ARCHIVED(S0000000.LOG)", "CSIM")
    with Estate.open(folder, now=t0 + timedelta(seconds=6)) as e:
        events = read_events(e.sim, "CSIM", LOG)
    assert [(event_data(x)["currentLogExtentName"], event_data(x)["archiveLogExtentName"])
            for x in events] == [("S0000001.LOG", "S0000000.LOG"),
                                 ("S0000002.LOG", "S0000000.LOG"),
                                 ("S0000003.LOG", "S0000000.LOG"),
                                 ("S0000003.LOG", "S0000001.LOG")]
    kept = folder / "CSIM" / "monitoring.json"
    data = json.loads(kept.read_text())
    assert data["log"] == {"archived": [0], "current": 3, "media": 0, "written": 0}
    data["log"]["current"] = "three"
    kept.write_text(json.dumps(data))
    with pytest.raises(EstateError, match=r"monitoring\.json: log\.current: 'three'"), \
            Estate.open(folder):
        pass
