"""An estate's queue managers write statistics, accounting, activity trace and events by the
clock, between commands as well as during them, and keep what they counted in
DIR/QMGR/monitoring.json (traceroute.sim.estate.engines)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from importlib import resources

import pytest

from pcf import mqc
from pcf.decoder import decode
from pcf.model import Group
from pcf.mqmd import MQMD
from tests.support.cli import run
from traceroute.sim.estate import Estate, EstateError
from traceroute.sim.mqsc import parse_mqsc
from traceroute.status import commands

T0 = datetime(2026, 11, 28, 12, 0, 0, tzinfo=UTC)
STATS, ACCT = "SYSTEM.ADMIN.STATISTICS.QUEUE", "SYSTEM.ADMIN.ACCOUNTING.QUEUE"
TRACE = "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE"


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.fixture
def estate(tmp_path):
    path = tmp_path / "estate"
    text = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
    Estate.create(path, parse_mqsc(text), now=T0)
    return path


def alter(path, seconds: float, qmgr: str, **attrs: str) -> None:
    with Estate.open(path, now=at(seconds)) as e:
        e.sim.network.qmgrs[qmgr].attrs.update(attrs)


def messages(e: Estate, qmgr: str, queue: str):
    return [decode(data, encoding=md.encoding, ccsid=md.coded_char_set_id)
            for md, data in e.sim.browse(qmgr, queue)]


def test_a_statistics_interval_ends_by_the_clock_between_commands(estate):
    alter(estate, 1, "QM1", STATMQI="ON", STATQ="ON", STATINT="10")
    with Estate.open(estate, now=at(2)) as e:
        e.sim.put("QM1", "ACTIV.REPLY.Q", MQMD(), b"x")
    with Estate.open(estate, now=at(9)) as e:  # counted, kept, not yet due
        assert e.sim.depth("QM1", STATS) == 0
    state = json.loads((estate / "QM1" / "monitoring.json").read_text())
    assert state["statistics"]["statistics"]["queues"]["ACTIV.REPLY.Q"]["put1s"] == [1, 0]
    with Estate.open(estate, now=at(25)) as e:
        written = messages(e, "QM1", STATS)
    assert [m.header.command for m in written] == [mqc.MQCMD_STATISTICS_MQI,
                                                   mqc.MQCMD_STATISTICS_Q]
    q = written[1]
    assert (q.get(mqc.MQCAMO_START_TIME), q.get(mqc.MQCAMO_END_TIME)) == ("12.00.02", "12.00.12")
    group = next(p for p in q.parameters if isinstance(p, Group))
    assert group.get(mqc.MQCA_Q_NAME) == "ACTIV.REPLY.Q"
    assert group.get(mqc.MQIAMO_PUT1S) == [1, 0]


def test_reset_qmgr_type_statistics_ends_the_interval_now(estate):
    alter(estate, 1, "QM1", STATMQI="ON", STATINT="3600")
    with Estate.open(estate, now=at(2)) as e:
        e.sim.put("QM1", "ACTIV.REPLY.Q", MQMD(), b"x")
        responses = e.server.execute("QM1", commands.reset_qmgr_statistics())
        assert responses[-1].header.comp_code == mqc.MQCC_OK
        assert e.sim.depth("QM1", STATS) == 1
        bad = e.server.execute("QM1", commands.command(
            mqc.MQCMD_RESET_Q_MGR, [commands.Integer(mqc.MQIACF_ACTION,
                                                     mqc.MQACT_ADVANCE_LOG)]))
        assert bad[-1].header.reason == mqc.MQRCCF_ACTION_VALUE_ERROR
    status, out, _ = run("sim", "runmqsc", str(estate), "QM1",
                         stdin="RESET QMGR TYPE(STATISTICS)\n")
    assert status == 0 and "statistics written; a new statistics interval begins" in out


def test_applications_end_with_their_command_channel_agents_by_the_clock_and_on_stop(estate):
    for qmgr in ("QM1", "QM2"):
        alter(estate, 1, qmgr, ACTVTRC="ON", ACCTMQI="ON")
    with Estate.open(estate, now=at(2)) as e:
        assert e.sim.put("QM1", "TARG.AT.QM2", MQMD(), b"hello").ok
    with Estate.open(estate, now=at(2.5)) as e:
        # amqsput ended with its command: its trace and final accounting are there;
        # the channel's agent runs on, its records kept (ActivityInterval 1 s not over)
        names = [m.get(mqc.MQCACF_APPL_NAME) for m in messages(e, "QM1", TRACE)]
        assert names == ["amqsput"]
        assert e.sim.depth("QM1", ACCT) == 1
        state = json.loads((estate / "QM1" / "monitoring.json").read_text())
        assert [c["kind"] for c in state["connections"]] == ["sender"]
        assert [a["conn"]["appl_name"] for a in state["activity"]] == ["runmqchl"]
    with Estate.open(estate, now=at(5)) as e:  # the interval is over: written by the clock
        names = [m.get(mqc.MQCACF_APPL_NAME) for m in messages(e, "QM1", TRACE)]
        assert names == ["amqsput", "runmqchl"]
        receiver = [m.get(mqc.MQCACF_APPL_NAME) for m in messages(e, "QM2", TRACE)]
        assert receiver == ["amqrmppa"]
    with Estate.open(estate, now=at(6)) as e:
        e.sim.put("QM1", "TARG.AT.QM2", MQMD(), b"again")
    status, _, _ = run("sim", "runmqsc", str(estate), "QM1", stdin="STOP CHANNEL(QM1.TO.QM2)\n")
    assert status == 0
    with Estate.open(estate) as e:  # both agents ended: their last records and MQDISC
        last = messages(e, "QM1", TRACE)[-1]
        ops = [g.get(mqc.MQIACF_OPERATION_ID) for g in last.parameters if isinstance(g, Group)]
        assert last.get(mqc.MQCACF_APPL_NAME) == "runmqchl" and ops[-1] == mqc.MQXF_DISC
        last2 = messages(e, "QM2", TRACE)[-1]
        ops2 = [g.get(mqc.MQIACF_OPERATION_ID) for g in last2.parameters
                if isinstance(g, Group)]
        assert last2.get(mqc.MQCACF_APPL_NAME) == "amqrmppa" and ops2[-1] == mqc.MQXF_DISC
        assert not [c for c in e.sim.connections() if c.mca]


def test_a_depth_high_event_fires_once_across_commands(estate):
    run("sim", "runmqsc", str(estate), "QM1", stdin=(
        "ALTER QMGR PERFMEV(ENABLED)\nALTER QLOCAL(ACTIV.REPLY.Q) QDPHIEV(ENABLED) "
        "QDEPTHHI(20) MAXDEPTH(10)\n"))
    for n in range(4):
        with Estate.open(estate) as e:
            assert e.sim.put("QM1", "ACTIV.REPLY.Q", MQMD(), b"%d" % n).ok
    with Estate.open(estate) as e:
        reasons = [m.header.reason for m in messages(e, "QM1", "SYSTEM.ADMIN.PERFM.EVENT")]
    assert reasons == [mqc.MQRC_Q_DEPTH_HIGH]  # armed again only by a low event


def test_the_folders_mqat_ini_is_the_queue_managers(estate):
    (estate / "QM1" / "mqat.ini").write_text(
        "AllActivityTrace:\n  TraceLevel=LOW\nApplicationTrace:\n  ApplClass=USER\n"
        "  ApplName=amqsput\n  Trace=OFF\n")
    alter(estate, 1, "QM1", ACTVTRC="ON")
    with Estate.open(estate) as e:
        e.sim.put("QM1", "ACTIV.REPLY.Q", MQMD(), b"x")
    with Estate.open(estate) as e:
        assert e.sim.depth("QM1", TRACE) == 0
    (estate / "QM1" / "mqat.ini").write_text("AllActivityTrace:\n  TraceLevel=LOUD\n")
    with pytest.raises(EstateError) as error, Estate.open(estate):
        pass
    assert "mqat.ini:2" in str(error.value) and "TraceLevel" in str(error.value)


@pytest.mark.parametrize("damage, said", [
    ("{", "not JSON"),
    ('{"format": "something else"}', "not an estate's monitoring.json"),
    ('{"format": "mqroute estate monitoring", "connections": [{"kind": "sender", "name": '
     '"X", "conn": {"qmgr": "QM1"}}]}', "connections[0].conn: appl_name is missing"),
    ('{"format": "mqroute estate monitoring", "activity": [{"conn": {"qmgr": "QM1", '
     '"appl_name": "a", "appl_type": 6, "conn_id": {"hex": "00"}, "pid": 1}, "settings": {}, '
     '"records": {"hex": "zz"}}]}', "records: not hex"),
])
def test_a_damaged_monitoring_file_is_one_line_naming_it(estate, damage, said):
    (estate / "QM1" / "monitoring.json").write_text(damage)
    with pytest.raises(EstateError) as error, Estate.open(estate):
        pass
    assert "QM1/monitoring.json" in str(error.value) and said in str(error.value)


def test_no_monitoring_message_holds_a_parameter_twice(estate):
    """Every statistics, accounting and trace message the estate writes lists each
    parameter once per structure (the MQI accounting record once listed its open and close
    counts twice)."""
    for qmgr in ("QM1", "QM2"):
        alter(estate, 1, qmgr, STATMQI="ON", STATQ="ON", STATCHL="HIGH", STATINT="5",
              ACCTMQI="ON", ACCTQ="ON", ACTVTRC="ON")
    with Estate.open(estate, now=at(2)) as e:
        e.sim.put("QM1", "TARG.AT.QM2", MQMD(), b"x")
        e.sim.put("QM1", "ACTIV.REPLY.Q", MQMD(), b"y")
        e.sim.get("QM1", "ACTIV.REPLY.Q")
    with Estate.open(estate, now=at(30)) as e:
        found = 0
        for qmgr in ("QM1", "QM2"):
            for queue in (STATS, ACCT, TRACE):
                for m in messages(e, qmgr, queue):
                    found += 1
                    ids = [p.parameter for p in m.parameters if not isinstance(p, Group)]
                    assert len(ids) == len(set(ids)), (queue, m.header.command)
                    for g in (p for p in m.parameters if isinstance(p, Group)):
                        inner = [p.parameter for p in g.parameters]
                        assert len(inner) == len(set(inner)), (queue, g.parameter)
        assert found >= 8
