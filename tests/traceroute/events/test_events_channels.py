"""Channel and start/stop events of the simulator: channels that start, stop, retry and fail
(nobody listening at the CONNAME, no channel at the other end, a CipherSpec mismatch, a
CHLAUTH block), their AMQ messages as ErrorIdentifier, both ends, the switches."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from pcf import mqc
from pcf.mqmd import MQMD
from tests.traceroute.events.sim_events import event_data, read_events
from traceroute.display.amqsevt import to_json
from traceroute.sim import Simulator, parse_mqsc
from traceroute.sim.events import SimEvents

CHL = "SYSTEM.ADMIN.CHANNEL.EVENT"
QM1 = """
ALTER QMGR CHLEV(ENABLED) SSLEV(ENABLED)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE QREMOTE(TARG) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('{conname}') XMITQ(QM2) {sdr}
"""
QM2 = """
ALTER QMGR CHLEV(ENABLED) SSLEV(ENABLED) {qmgr}
DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1414) IPADDR('qm2host') CONTROL(QMGR)
DEFINE QLOCAL(APP.IN)
{rcvr}
"""
RCVR = "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)"


def _sim(*, sdr: str = "", qmgr: str = "", rcvr: str = RCVR, qm2: bool = True,
         conname: str = "qm2host(1414)"):
    net = parse_mqsc(QM1.format(sdr=sdr, conname=conname), qmgr="QM1")
    if qm2:
        net = parse_mqsc(QM2.format(qmgr=qmgr, rcvr=rcvr), qmgr="QM2", network=net)
    sim = Simulator(net, seed=1)
    watcher = SimEvents(sim)
    return sim, watcher






def test_a_channel_starts_at_both_ends_and_stops_by_user_at_both_ends() -> None:
    sim, _ = _sim()
    assert sim.put("QM1", "TARG", MQMD(), b"x").ok
    sim.run()
    assert sim.depth("QM2", "APP.IN") == 1
    sim.stop_channel("QM1", "QM1.TO.QM2")
    mine, theirs = read_events(sim, "QM1", CHL), read_events(sim, "QM2", CHL)
    assert [e.reason for e in mine] == [2282, 2283, 2279]
    assert event_data(mine[0]) == {"queueMgrName": "QM1", "channelName": "QM1.TO.QM2",
                              "xmitQueueName": "QM2", "connectionName": "qm2host(1414)"}
    assert event_data(mine[1]) == {
        "queueMgrName": "QM1", "channelName": "QM1.TO.QM2", "xmitQueueName": "QM2",
        "connectionName": "qm2host(1414)", "reasonQualifier": "Channel Stopped Disabled",
        "errorId": "0x10009528", "auxErrorDataInt1": 0, "auxErrorDataInt2": 0,
        "auxErrorDataStr1": "QM1.TO.QM2", "auxErrorDataStr2": "qm2host (qm2host)(1414)",
        "auxErrorDataStr3": ""}
    assert [e.reason for e in theirs] == [2282, 2283]
    assert event_data(theirs[0]) == {"queueMgrName": "QM2", "channelName": "QM1.TO.QM2",
                                "connectionName": "qm1"}
    assert event_data(theirs[1])["reasonQualifier"] == "Channel Stopped Ok"


def test_a_conname_nobody_listens_on_retries_then_stops() -> None:
    sim, _ = _sim(conname="nowhere(1414)",
                  sdr="SHORTRTY(2) SHORTTMR(10) LONGRTY(1) LONGTMR(100)")
    assert sim.put("QM1", "TARG", MQMD(), b"x").ok
    sim.run(until=50)
    assert sim.channel_status("QM1", "QM1.TO.QM2") == "RETRYING"
    sim.run(until=500)
    assert sim.channel_status("QM1", "QM1.TO.QM2") == "STOPPED"
    assert sim.depth("QM1", "QM2") == 1  # the message waits on the transmission queue
    events = read_events(sim, "QM1", CHL)
    assert [e.reason for e in events] == [2283] * 4  # the first try and three retries
    assert [event_data(e)["reasonQualifier"] for e in events] == [
        "Channel Stopped Retry"] * 3 + ["Channel Stopped Disabled"]
    assert event_data(events[0]) == {
        "queueMgrName": "QM1", "channelName": "QM1.TO.QM2", "xmitQueueName": "QM2",
        "connectionName": "nowhere(1414)", "reasonQualifier": "Channel Stopped Retry",
        "errorId": "0x20009202", "auxErrorDataInt1": 111, "auxErrorDataInt2": 0,
        "auxErrorDataStr1": "nowhere (nowhere)(1414)", "auxErrorDataStr2": "TCP/IP",
        "auxErrorDataStr3": "QM1.TO.QM2"}
    times = [e.time for e in events]
    assert [(b - a).total_seconds() for a, b in itertools.pairwise(times)] == [
        10, 10, 100]


def test_a_stopped_listener_is_nobody_listening_and_starting_it_lets_messages_go() -> None:
    sim, watcher = _sim()
    watcher.mqsc("STOP LISTENER(L1)", "QM2")
    sim.put("QM1", "TARG", MQMD(), b"x")
    sim.run(until=5)
    [event] = read_events(sim, "QM1", CHL)
    assert event_data(event)["errorId"] == "0x20009202"
    watcher.mqsc("START LISTENER(L1)", "QM2")
    sim.run(until=200)
    assert sim.depth("QM2", "APP.IN") == 1 and sim.channel_status("QM1", "QM1.TO.QM2") \
        == "RUNNING"
    assert [e.reason for e in read_events(sim, "QM1", CHL)] == [2282]


def test_a_channel_not_defined_at_the_other_end() -> None:
    sim, _ = _sim(rcvr="")
    sim.put("QM1", "TARG", MQMD(), b"x")
    sim.run(until=5)
    [event] = read_events(sim, "QM1", CHL)
    assert event_data(event)["errorId"] == "0x20009520"
    assert event_data(event)["auxErrorDataStr1"] == "QM1.TO.QM2"
    assert read_events(sim, "QM2", CHL) == []


def test_chad_defines_the_receiver_and_says_so() -> None:
    sim, _ = _sim(rcvr="", qmgr="CHAD(ENABLED) CHADEV(ENABLED)")
    sim.put("QM1", "TARG", MQMD(), b"x")
    sim.run()
    assert sim.depth("QM2", "APP.IN") == 1
    assert sim.network.qmgrs["QM2"].channels["QM1.TO.QM2"].get("CHLTYPE") == "RCVR"
    theirs = read_events(sim, "QM2", CHL)
    assert [e.reason for e in theirs] == [mqc.MQRC_CHANNEL_AUTO_DEF_OK, 2282]
    assert event_data(theirs[0]) == {"queueMgrName": "QM2", "channelName": "QM1.TO.QM2",
                                "channelType": "Receiver", "connectionName": "qm1"}


def test_chad_without_its_template_is_an_auto_definition_error() -> None:
    sim, _ = _sim(rcvr="DELETE CHANNEL(SYSTEM.AUTO.RECEIVER)",
                  qmgr="CHAD(ENABLED) CHADEV(ENABLED)")
    sim.put("QM1", "TARG", MQMD(), b"x")
    sim.run(until=5)
    [theirs] = read_events(sim, "QM2", CHL)
    assert theirs.reason == mqc.MQRC_CHANNEL_AUTO_DEF_ERROR
    assert event_data(theirs)["errorId"] == "0x00000825"  # MQRC_UNKNOWN_OBJECT_NAME, 2085
    assert event_data(read_events(sim, "QM1", CHL)[0])["errorId"] == "0x20009520"


def test_mismatched_sslciph_is_a_channel_ssl_error_at_the_receiving_end() -> None:
    sim, _ = _sim(sdr="SSLCIPH(TLS_AES_256_GCM_SHA384)",
                  rcvr=RCVR + " SSLCIPH(TLS_AES_128_GCM_SHA256)")
    sim.put("QM1", "TARG", MQMD(), b"x")
    sim.run(until=5)
    [mine], [theirs] = read_events(sim, "QM1", CHL), read_events(sim, "QM2", CHL)
    assert event_data(mine)["errorId"] == "0x20009641"
    assert theirs.reason == mqc.MQRC_CHANNEL_SSL_ERROR
    assert event_data(theirs) == {"queueMgrName": "QM2", "channelName": "QM1.TO.QM2",
                             "connectionName": "qm1",
                             "reasonQualifier": "SSL Cipher Spec Error"}
    assert sim.depth("QM1", "QM2") == 1


def test_a_chlauth_record_blocks_the_channel() -> None:
    sim, _ = _sim(rcvr=RCVR + "\nSET CHLAUTH('QM1.*') TYPE(QMGRMAP) QMNAME('QM1') "
                              "USERSRC(NOACCESS)")
    sim.put("QM1", "TARG", MQMD(), b"x")
    sim.run(until=5)
    [mine], [theirs] = read_events(sim, "QM1", CHL), read_events(sim, "QM2", CHL)
    assert event_data(mine)["errorId"] == "0x20009777"
    assert theirs.reason == mqc.MQRC_CHANNEL_BLOCKED
    assert event_data(theirs) == {"queueMgrName": "QM2", "channelName": "QM1.TO.QM2",
                             "connectionName": "qm1",
                             "reasonQualifier": "Channel Blocked Noaccess",
                             "remoteQueueMgrName": "QM1"}


def test_a_stopped_receiving_end() -> None:
    sim, watcher = _sim()
    watcher.mqsc("STOP CHANNEL(QM1.TO.QM2)", "QM2")
    sim.put("QM1", "TARG", MQMD(), b"x")
    sim.run(until=5)
    [mine] = read_events(sim, "QM1", CHL)
    assert event_data(mine)["errorId"] == "0x20009558"


def test_discint_ends_the_channel_normally_and_the_next_message_starts_it() -> None:
    sim, _ = _sim(sdr="DISCINT(30)")
    sim.put("QM1", "TARG", MQMD(), b"x")
    sim.run(until=100)
    assert sim.channel_running("QM1", "QM1.TO.QM2") == ""
    sim.put("QM1", "TARG", MQMD(), b"y")
    sim.run(until=110)
    assert sim.depth("QM2", "APP.IN") == 2
    mine = read_events(sim, "QM1", CHL)
    assert [e.reason for e in mine] == [2282, 2283, 2282]
    assert event_data(mine[1])["reasonQualifier"] == "Channel Stopped Ok"
    assert event_data(mine[1])["errorId"] == "0x10009545"
    assert (mine[1].time - mine[0].time).total_seconds() == pytest.approx(30, abs=1)


def test_chlev_exception_writes_only_the_exceptions() -> None:
    sim, _ = _sim(sdr="DISCINT(30) SHORTTMR(20)")
    sim.network.qmgrs["QM1"].attrs["CHLEV"] = "EXCEPTION"
    sim.put("QM1", "TARG", MQMD(), b"x")
    sim.run(until=100)  # started and ended normally: neither is an exception
    assert read_events(sim, "QM1", CHL) == []
    sim.network.qmgrs["QM2"].channels["QM1.TO.QM2"].attrs["SSLCIPH"] = "X"
    sim.put("QM1", "TARG", MQMD(), b"x")
    sim.run(until=110)
    assert [event_data(e)["reasonQualifier"] for e in read_events(sim, "QM1", CHL)] == [
        "Channel Stopped Retry"]


def test_the_start_channel_command_has_its_own_started_event() -> None:
    sim, _ = _sim()
    sim.stop_channel("QM1", "QM1.TO.QM2")
    sim.start_channel("QM1", "QM1.TO.QM2")
    # STOP CHANNEL of a channel that is not running: Channel Stopped By User all the same
    # (IBM: "issued when a user issues a STOP CHL command"), then the START's Channel Started
    stop, start = read_events(sim, "QM1", CHL)
    assert stop.reason == mqc.MQRC_CHANNEL_STOPPED_BY_USER
    assert event_data(stop)["reasonQualifier"] == "Channel Stopped Disabled"
    assert event_data(start) == {"queueMgrName": "QM1", "channelName": "QM1.TO.QM2"}


def test_stop_channel_writes_one_stopped_by_user_event_running_or_not() -> None:
    sim, _ = _sim()
    sim.put("QM1", "TARG", MQMD(), b"1")
    sim.run(until=sim.now + 5)  # the channel runs (DISCINT not yet passed)
    read_events(sim, "QM1", CHL)
    sim.stop_channel("QM1", "QM1.TO.QM2")
    by_user = [e for e in read_events(sim, "QM1", CHL)
               if e.reason == mqc.MQRC_CHANNEL_STOPPED_BY_USER]
    assert len(by_user) == 1
    sim.stop_channel("QM1", "QM1.TO.QM2")  # again, stopped already: the command's own
    assert [e.reason for e in read_events(sim, "QM1", CHL)] == [
        mqc.MQRC_CHANNEL_STOPPED_BY_USER]


def test_a_queue_manager_that_ends_and_starts_again() -> None:
    sim, _ = _sim()
    sim.put("QM1", "TARG", MQMD(), b"1")
    sim.run()
    sim.end_qmgr("QM2")
    assert sim.put("QM2", "APP.IN", MQMD(), b"x").reason == mqc.MQRC_Q_MGR_NOT_AVAILABLE
    sim.put("QM1", "TARG", MQMD(), b"2")
    sim.run(until=sim.now + 5)
    assert sim.depth("QM1", "QM2") == 1
    sim.start_qmgr("QM2")
    sim.run(until=sim.now + 5)
    assert sim.depth("QM1", "QM2") == 0 and sim.depth("QM2", "APP.IN") == 2
    qm2 = read_events(sim, "QM2", "SYSTEM.ADMIN.QMGR.EVENT")
    assert [(e.reason, event_data(e)) for e in qm2] == [
        (mqc.MQRC_Q_MGR_NOT_ACTIVE, {"queueMgrName": "QM2",
                                     "reasonQualifier": "Queue Mgr Quiescing"}),
        (mqc.MQRC_Q_MGR_ACTIVE, {"queueMgrName": "QM2", "hostName": "qm2host",
                                 "reasonQualifier": "Failover Not Permitted"})]
    mine = read_events(sim, "QM1", CHL)
    assert [(e.reason, event_data(e)["errorId"] if e.reason == 2283 else "") for e in mine] == [
        (2282, ""), (2283, "0x20009999"), (2282, "")]  # retried when QM2 came back


@pytest.mark.parametrize("capture", ["2282-channel-started", "2283-channel-stopped",
                                     "2279-channel-stopped-by-user", "2222-queue-mgr-active"])
def test_the_real_channel_and_start_captures_have_our_parameters(vectors: Path, capture):
    """The same kind of situation (a sender started by command, stopped by STOP CHANNEL; a
    queue manager started) gives the capture's parameters in the capture's order, and the
    values that do not depend on names and addresses."""
    text = (vectors / "amqsevt-json" / f"{capture}.json.txt").read_text()
    real = json.loads(text.split("\n", 1)[1])
    sim, _ = _sim()
    sim.put("QM1", "TARG", MQMD(), b"x")
    sim.run()
    sim.stop_channel("QM1", "QM1.TO.QM2")
    sim.start_channel("QM1", "QM1.TO.QM2")
    sim.end_qmgr("QM1")
    sim.start_qmgr("QM1")
    queue = real["eventSource"]["objectName"]
    ours = [e for e in read_events(sim, "QM1", queue)
            if e.reason == real["eventReason"]["value"]]
    got = to_json(ours[-1])
    for key in ("eventType", "eventReason"):
        assert got[key] == real[key]
    assert got["eventSource"]["objectName"] == queue
    assert list(got["eventData"]) == list(real["eventData"])
    fixed = ("errorId", "auxErrorDataInt1", "auxErrorDataInt2", "auxErrorDataStr3")
    if capture != "2222-queue-mgr-active":  # theirs is a native HA replica's start
        fixed += ("reasonQualifier",)
    for key in fixed:
        if key in real["eventData"]:
            assert got["eventData"][key] == real["eventData"][key], key


def test_convert_yes_with_a_format_mq_cannot_convert_is_a_conversion_error() -> None:
    sim, _ = _sim(sdr="CONVERT(YES)", qmgr="CCSID(500)")  # QM2 speaks EBCDIC
    sim.put("QM1", "TARG", MQMD(format="MQSTR"), b"text converts")
    sim.put("QM1", "TARG", MQMD(format="MYFMT"), b"mine does not")
    sim.run()
    assert sim.depth("QM2", "APP.IN") == 2  # sent all the same, unconverted
    events = [e for e in read_events(sim, "QM1", CHL) if e.reason == 2284]
    [event] = events
    assert event_data(event) == {
        "queueMgrName": "QM1", "channelName": "QM1.TO.QM2", "xmitQueueName": "QM2",
        "connectionName": "qm2host(1414)", "convReasonCode": "Format Error",
        "formatName": "MYFMT"}


def test_a_message_backed_out_for_want_of_a_dead_letter_queue_retries_the_channel() -> None:
    """No DEADQ on QM2 and a persistent message for a queue it has not: the receiving MCA
    backs the batch out, the channel ends and retries (Channel Stopped RETRY at QM1, the
    receiving end's Stopped with an error) with the message first on the xmitq again."""
    sim, _ = _sim(sdr="SHORTTMR(30)")
    sim.put("QM1", "NOWHERE", MQMD(persistence=mqc.MQPER_PERSISTENT), b"x",
            target_qmgr="QM2")
    sim.run(until=40)
    assert sim.depth("QM1", "QM2") == 1 and sim.channel_status("QM1", "QM1.TO.QM2") \
        == "RETRYING"
    mine = [(e.reason, event_data(e).get("reasonQualifier")) for e in
            read_events(sim, "QM1", CHL)]
    assert mine[:2] == [(2282, None), (2283, "Channel Stopped Retry")]
    theirs = [(e.reason, event_data(e).get("reasonQualifier")) for e in
              read_events(sim, "QM2", CHL)]
    assert theirs[:2] == [(2282, None), (2283, "Channel Stopped Error")]
