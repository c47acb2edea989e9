"""Between a receiving MCA's message retries its channel is PAUSED (seed 002: "Between
MQPUT attempts the channel will have STATUS(PAUSED), indicating that it is waiting for the
message-retry interval to pass"), and the sending end waits for its batch: RUNNING, SUBSTATE
RECEIVE, INDOUBT(YES). MQ has no substate for the wait itself (MQCHSSTATE_* has none):
SUBSTATE is blank. A retry still pending when an estate is saved is backed out onto the
transmission queue, as a batch is when its channel ends: nothing is lost."""

from __future__ import annotations

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.sim.cmdserver import attach
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator
from traceroute.status import commands
from traceroute.status.responses import channel_status_from

NET = """\
* Queue manager name: QM1
DEFINE QREMOTE(TO.QM2) RNAME(APP.C) RQMNAME(QM2) XMITQ(QM2)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1414)') XMITQ(QM2)
* Queue manager name: QM2
ALTER QMGR DEADQ(DLQ)
DEFINE QLOCAL(DLQ)
DEFINE QLOCAL(APP.C) PUT(DISABLED)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) MRRTY(3) MRTMR(2000)
"""


def _sim():
    sim = Simulator(parse_mqsc(NET), seed=5)
    server = attach(sim)
    assert sim.put("QM1", "TO.QM2", MQMD(), b"order").ok
    return sim, server


def _status(server, qmgr: str):
    [response] = server.execute(qmgr, commands.inquire_channel_status("QM1.TO.QM2"))
    assert response.header.comp_code == mqc.MQCC_OK
    return response, channel_status_from(response, qmgr)


def test_the_receiving_end_is_paused_between_put_attempts():
    sim, server = _sim()
    sim.run(until=1.0)  # the first put failed (MQRC_PUT_INHIBITED); the retry is 2 s away
    [retry] = sim.message_retries("QM2", "QM1.TO.QM2")
    assert retry.sender == "QM1" and retry.attempt == 1 and retry.due > 1.0
    response, end = _status(server, "QM2")
    assert response.get(mqc.MQIACH_CHANNEL_STATUS) == mqc.MQCHS_PAUSED
    assert response.get(mqc.MQIACH_CHANNEL_SUBSTATE) == mqc.MQCHSSTATE_OTHER
    assert end.status == "PAUSED" and end.substate is None and end.to_json()["substate"] is None
    _, sender = _status(server, "QM1")
    assert (sender.status, sender.substate, sender.indoubt, sender.curmsgs) == \
        ("RUNNING", "RECEIVE", True, 1)


def test_the_put_that_works_at_a_retry_ends_the_pause():
    sim, server = _sim()
    sim.run(until=1.0)
    sim.network.qmgrs["QM2"].queues["APP.C"].attrs["PUT"] = "ENABLED"
    sim.run()
    assert sim.depth("QM2", "APP.C") == 1 and not sim.message_retries("QM2", "QM1.TO.QM2")
    assert _status(server, "QM2")[1].status == "RUNNING"
    sender = _status(server, "QM1")[1]
    assert (sender.status, sender.substate, sender.indoubt) == ("RUNNING", "MQGET", False)


def test_retries_used_up_dead_letter_the_message_and_the_channel_runs_on():
    sim, server = _sim()
    sim.run()
    assert sim.depth("QM2", "DLQ") == 1 and sim.depth("QM2", "APP.C") == 0
    assert _status(server, "QM2")[1].status == "RUNNING"


def test_a_pending_retry_is_backed_out_onto_the_transmission_queue():
    sim, _ = _sim()
    sim.run(until=1.0)
    assert sim.depth("QM1", "QM2") == 0  # taken by the sending MCA, its batch in doubt
    assert sim.back_out_message_retries() == 1
    assert sim.depth("QM1", "QM2") == 1 and not sim.message_retries("QM2", "QM1.TO.QM2")
    sim.run()  # the cancelled retry does nothing; the message is still there, once
    assert sim.depth("QM1", "QM2") + sim.depth("QM2", "DLQ") + sim.depth("QM2", "APP.C") == 1


def test_an_estate_saved_during_a_long_message_retry_loses_nothing(tmp_path):
    from traceroute.sim.estate import Estate
    from traceroute.sim.estate.runmqsc import run_mqsc

    network = parse_mqsc(NET.replace("MRRTY(3) MRTMR(2000)", "MRRTY(1000) MRTMR(1000)"))
    Estate.create(tmp_path / "e", network)
    with Estate.open(tmp_path / "e") as estate:
        assert estate.sim.put("QM1", "TO.QM2", MQMD(), b"order").ok
    with Estate.open(tmp_path / "e") as estate:  # it went again and waits again
        assert estate.sim.depth("QM1", "QM2") + sum(
            1 for _ in estate.sim.message_retries("QM2", "QM1.TO.QM2")) == 1
        assert estate.monitor.channel_state("QM2", "QM1.TO.QM2")[0] == "PAUSED"
        assert run_mqsc(estate, "QM2", "ALTER QLOCAL(APP.C) PUT(ENABLED)\n").ok
    with Estate.open(tmp_path / "e") as estate:
        assert estate.sim.depth("QM2", "APP.C") == 1 and estate.sim.depth("QM1", "QM2") == 0
