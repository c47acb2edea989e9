"""PCF status dates and times (LPUTDATE/LPUTTIME, LSTMSGDA/LSTMSGTI, CHSTADA/CHSTATI) are
the queue manager's local time: a simulated estate keeps the zone its clocks show (`sim init
--qmgr-tz`), a real queue manager's is this machine's unless `--qmgr-tz` says otherwise, and
`last_put`/`last_get`/`last_msg` are the right moment in ISO 8601 UTC whatever the zones."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import pytest

from pcf.mqmd import MQMD
from tests.support.cli import run
from tests.support.fake_ibmmq import make_fake_ibmmq
from traceroute.status.zones import LOCAL, ZoneError, zone_name, zone_of

ZONES = ["Asia/Kolkata", "America/New_York", "Pacific/Chatham", "+05:45", "UTC"]


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.fixture
def estate(tmp_path):
    """Demo estate in a zone 5 h 30 min from UTC, monitoring on, a message on QM1's QM2."""
    path = str(tmp_path / "estate")
    assert run("sim", "init", path, "--network", "demo", "--qmgr-tz", "Asia/Kolkata")[0] == 0
    assert run("sim", "runmqsc", path, "QM1", stdin="ALTER QMGR MONQ(MEDIUM) MONCHL(HIGH)\n"
               "STOP CHANNEL(QM1.TO.QM2)\n")[0] == 0
    assert run("sim", "put", path, "-m", "QM1", "-q", "TARG.AT.QM2")[0] == 0
    return path


def test_status_of_an_estate_in_another_zone_says_the_right_utc_moment(estate):
    now = datetime.now(UTC)
    status, out, _ = run("status", "--network", estate, "-m", "QM1", "--queue", "QM2",
                         "--json")
    assert status == 0
    put = _moment(json.loads(out)["last_put"])
    assert abs(put - now) < timedelta(seconds=60), (put, now)
    # the queue manager shows its own wall clock: 5 h 30 min ahead of UTC
    status, out, _ = run("sim", "runmqsc", estate, "QM1", stdin="DISPLAY QSTATUS(QM2) MONITOR\n")
    shown = out.split("LPUTTIME(")[1][:8]
    local = put.astimezone(zone_of("Asia/Kolkata"))
    assert shown == local.strftime("%H.%M.%S")
    # --qmgr-tz overrides: said to be UTC, the same local time reads 5 h 30 min later
    status, out, _ = run("status", "--network", estate, "-m", "QM1", "--queue", "QM2",
                         "--json", "--qmgr-tz", "UTC")
    assert _moment(json.loads(out)["last_put"]) - put == timedelta(hours=5, minutes=30)


def test_channel_times_too(estate):
    run("sim", "runmqsc", estate, "QM1", stdin="START CHANNEL(QM1.TO.QM2)\n")
    status, out, _ = run("status", "--network", estate, "-m", "QM1", "--channel", "QM1.TO.QM2",
                         "--json")
    assert status == 0
    last = _moment(json.loads(out)["last_msg"])
    assert abs(last - datetime.now(UTC)) < timedelta(seconds=60)


def test_a_bad_zone_is_one_line_and_status_2(estate, tmp_path):
    status, _, err = run("status", "--network", estate, "-m", "QM1", "--qmgr-tz", "Mars/Base")
    assert status == 2 and err.count("\n") == 1 and "Mars/Base: not a time zone" in err
    status, _, err = run("sim", "init", str(tmp_path / "x"), "--network", "demo",
                         "--qmgr-tz", "+25:00")
    assert status == 2 and "--qmgr-tz +25:00" in err
    status, _, err = run("sim", "put", estate, "-m", "QM1", "-q", "X", "--qmgr-tz", "UTC")
    assert status == 2 and "belongs to sim init" in err


def test_the_estate_keeps_its_zone(estate):
    data = json.loads((__import__("pathlib").Path(estate) / "estate.json").read_text())
    assert data["time_zone"] == "Asia/Kolkata"


@pytest.mark.parametrize("zone", ZONES)
def test_zones_read_back(zone):
    assert zone_name(zone_of(zone)) == zone
    assert zone_of("local") is LOCAL and zone_name(LOCAL) == "local"
    with pytest.raises(ZoneError):
        zone_of("Nowhere/Land")


def _real_status(monkeypatch, server_zone: str, *words: str) -> dict:
    """`mqroute status -m QM1` against a real queue manager (a fake ibmmq over the
    simulator) whose clock shows `server_zone`."""
    from importlib import resources

    from traceroute.mq import client
    from traceroute.sim.cmdserver import attach
    from traceroute.sim.mqsc import parse_mqsc
    from traceroute.sim.simulator import Simulator

    text = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
    sim = Simulator(parse_mqsc(text + "\n* Queue manager name: QM1\nALTER QMGR MONQ(HIGH)\n"
                               "STOP CHANNEL(QM1.TO.QM2)\n"), seed=2,
                    start=datetime(2026, 7, 1, 12, 0, 0))
    attach(sim).tz = zone_of(server_zone)
    sim.put("QM1", "TARG.AT.QM2", MQMD(), b"waits")
    sim.run()
    monkeypatch.setattr(client, "load_pymqi", lambda: make_fake_ibmmq(sim))
    status, out, err = run("status", "-m", "QM1", "--queue", "QM2", "--json", *words)
    assert status == 0, err
    return json.loads(out)


def test_a_real_queue_manager_in_this_machines_zone_by_default(monkeypatch):
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        got = _real_status(monkeypatch, "America/New_York")
    finally:
        monkeypatch.undo()
        time.tzset()
    assert _moment(got["last_put"]).astimezone(UTC).date().isoformat() == "2026-07-01"
    assert got["last_put"].startswith("2026-07-01T12:00:")  # summer time, EDT, read right


def test_a_real_queue_manager_elsewhere_with_qmgr_tz(monkeypatch):
    got = _real_status(monkeypatch, "Pacific/Chatham", "--qmgr-tz", "Pacific/Chatham")
    assert got["last_put"].startswith("2026-07-01T12:00:")
