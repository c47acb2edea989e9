"""qm.ini's MaxChannels / MaxActiveChannels in the simulator: a sending channel that must
become active while every active slot is taken waits in STARTING (Channel Not Activated)
and takes the first slot released (Channel Activated); an inbound channel or a client the
queue manager cannot take is turned away (Channel Not Available, the limit in its own
parameter). Event data field by field against IBM's event reference (QMgrName, ChannelName,
XmitQName, ConnectionName)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pcf import mqc
from pcf.mqmd import MQMD
from tests.traceroute.events.sim_events import event_data, read_events
from traceroute.events import catalog
from traceroute.sim import Simulator, parse_mqsc
from traceroute.sim.cmdserver import attach
from traceroute.sim.estate import Estate, EstateError
from traceroute.sim.events import SimEvents
from traceroute.sim.qmini import QmIniError, parse_qm_ini, qm_ini_text

CHL = "SYSTEM.ADMIN.CHANNEL.EVENT"
SENDERS = """
ALTER QMGR CHLEV({chlev})
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE QLOCAL(QM3) USAGE(XMITQ)
DEFINE QREMOTE(T2) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)
DEFINE QREMOTE(T3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2host(1414)') XMITQ(QM2) DISCINT({discint})
DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) CONNAME('qm3host(1414)') XMITQ(QM3) DISCINT({discint})
"""
PARTNER = """
ALTER QMGR CHLEV(ENABLED)
DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1414) IPADDR('qm{n}host') CONTROL(QMGR)
DEFINE QLOCAL(APP.IN)
DEFINE CHANNEL(QM1.TO.QM{n}) CHLTYPE(RCVR)
DEFINE CHANNEL(QM4.TO.QM{n}) CHLTYPE(RCVR)
DEFINE CHANNEL(APPS) CHLTYPE(SVRCONN)
"""
QM4 = """
ALTER QMGR CHLEV(ENABLED)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE QREMOTE(T2) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)
DEFINE CHANNEL(QM4.TO.QM2) CHLTYPE(SDR) CONNAME('qm2host(1414)') XMITQ(QM2) DISCINT(30) +
  SHORTRTY(3) SHORTTMR(20)
"""


def _sim(*, chlev: str = "ENABLED", qm1: str = "", qm2: str = "", discint: int = 30):
    net = parse_mqsc(SENDERS.format(chlev=chlev, discint=discint), qmgr="QM1")
    for n in (2, 3):
        net = parse_mqsc(PARTNER.format(n=n), qmgr=f"QM{n}", network=net)
    net = parse_mqsc(QM4, qmgr="QM4", network=net)
    if qm1:
        net.qmgrs["QM1"].ini = parse_qm_ini(qm1)
    if qm2:
        net.qmgrs["QM2"].ini = parse_qm_ini(qm2)
    sim = Simulator(net, seed=1)
    SimEvents(sim)
    return sim


def _where(n: int) -> dict:
    return {"queueMgrName": "QM1", "channelName": f"QM1.TO.QM{n}",
            "xmitQueueName": f"QM{n}", "connectionName": f"qm{n}host(1414)"}


def test_a_channel_waits_in_starting_for_the_slot_another_releases() -> None:
    sim = _sim(qm1=qm_ini_text(max_active=1))
    server = attach(sim)
    assert sim.put("QM1", "T2", MQMD(), b"x").ok
    sim.run(until=1)
    assert sim.put("QM1", "T3", MQMD(), b"y").ok
    sim.run(until=2)
    assert sim.channel_status("QM1", "QM1.TO.QM3") == "STARTING"
    assert server.monitor.channel_state("QM1", "QM1.TO.QM3")[0] == "STARTING"
    import pcf  # the command server answers Inquire Channel Status with MQCHS_STARTING
    (status,) = server.execute("QM1", pcf.Message(
        pcf.Header(type=mqc.MQCFT_COMMAND, command=mqc.MQCMD_INQUIRE_CHANNEL_STATUS),
        [pcf.String(mqc.MQCACH_CHANNEL_NAME, "QM1.TO.QM3")]))
    assert status.get(mqc.MQIACH_CHANNEL_STATUS) == mqc.MQCHS_STARTING
    assert sim.starting("QM1") == ["QM1.TO.QM3"] and sim.active_channels("QM1") == 1
    assert sim.depth("QM1", "QM3") == 1  # its message waits on its transmission queue
    sim.run(until=200)
    assert sim.depth("QM3", "APP.IN") == 1 and sim.starting("QM1") == []
    events = read_events(sim, "QM1", CHL)
    assert [(e.reason, event_data(e)["channelName"]) for e in events] == [
        (2282, "QM1.TO.QM2"), (2296, "QM1.TO.QM3"), (2283, "QM1.TO.QM2"),
        (2295, "QM1.TO.QM3"), (2282, "QM1.TO.QM3"), (2283, "QM1.TO.QM3")]
    not_activated, activated = events[1], events[3]
    # IBM's event data for both: QMgrName, ChannelName, XmitQName (a sender), ConnectionName
    for e in (not_activated, activated):
        assert [p.parameter for p in e.data] == [
            mqc.MQCA_Q_MGR_NAME, mqc.MQCACH_CHANNEL_NAME, mqc.MQCACH_XMIT_Q_NAME,
            mqc.MQCACH_CONNECTION_NAME]
        assert event_data(e) == _where(3)
        assert e.type == mqc.MQCMD_CHANNEL_EVENT and e.comp_code == mqc.MQCC_WARNING
    assert not_activated.reason == mqc.MQRC_CHANNEL_NOT_ACTIVATED
    assert activated.reason == mqc.MQRC_CHANNEL_ACTIVATED
    assert not_activated.time.timestamp() == pytest.approx(
        events[0].time.timestamp() + 1)  # when its message arrived
    assert activated.time == events[2].time  # the moment the other ended (DISCINT)
    assert sim.active_channels("QM1") == 0


def test_a_channel_that_starts_without_waiting_writes_neither() -> None:
    sim = _sim(qm1=qm_ini_text(max_active=2))
    for target in ("T2", "T3"):
        assert sim.put("QM1", target, MQMD(), b"x").ok
    sim.run(until=5)
    assert {e.reason for e in read_events(sim, "QM1", CHL)} == {2282}


def test_chlev_exception_writes_activated_and_not_activated_but_not_started() -> None:
    sim = _sim(chlev="EXCEPTION", qm1=qm_ini_text(max_active=1))
    for target in ("T2", "T3"):
        assert sim.put("QM1", target, MQMD(), b"x").ok
    sim.run(until=200)
    assert [e.reason for e in read_events(sim, "QM1", CHL)] == [2296, 2295]
    assert catalog.BY_NAME["Channel Activated"].exception
    assert catalog.BY_NAME["Channel Not Activated"].exception


def test_a_waiting_channel_stopped_is_stopped_and_the_slot_goes_to_the_next() -> None:
    sim = _sim(qm1=qm_ini_text(max_active=1))
    for target in ("T2", "T3"):
        assert sim.put("QM1", target, MQMD(), b"x").ok
    sim.run(until=5)
    sim.stop_channel("QM1", "QM1.TO.QM3")
    assert sim.channel_status("QM1", "QM1.TO.QM3") == "STOPPED"
    assert sim.starting("QM1") == []
    sim.run(until=200)
    reasons = [e.reason for e in read_events(sim, "QM1", CHL)]
    assert mqc.MQRC_CHANNEL_ACTIVATED not in reasons and reasons.count(2296) == 1
    assert sim.depth("QM1", "QM3") == 1  # it waits for START CHANNEL
    sim.start_channel("QM1", "QM1.TO.QM3")
    sim.run(until=300)
    assert sim.depth("QM3", "APP.IN") == 1


@pytest.mark.parametrize("ini, qualifier, param, word", [
    (qm_ini_text(max_channels=1), mqc.MQRQ_MAX_CHANNELS, mqc.MQIA_MAX_CHANNELS,
     "maxChannels"),
    (qm_ini_text(max_active=1), mqc.MQRQ_MAX_ACTIVE_CHANNELS, mqc.MQIA_ACTIVE_CHANNELS,
     "activeChannels"),
])
def test_a_partner_at_its_limit_turns_a_sender_and_a_client_away(ini, qualifier, param,
                                                                   word) -> None:
    sim = _sim(qm2=ini)
    assert sim.put("QM1", "T2", MQMD(), b"x").ok  # QM1.TO.QM2 takes QM2's one channel
    sim.run(until=1)
    assert sim.put("QM4", "T2", MQMD(), b"y").ok
    sim.run(until=2)
    assert sim.channel_status("QM4", "QM4.TO.QM2") == "RETRYING"
    stopped = read_events(sim, "QM4", CHL)[0]
    assert stopped.reason == mqc.MQRC_CHANNEL_STOPPED
    assert event_data(stopped)["errorId"] == "0x20009558"  # AMQ9558E remote not available
    sim.connection("QM2", "app", client_channel="APPS")
    assert sim.refusal("QM2", "app") == mqc.MQRC_CHANNEL_NOT_AVAILABLE
    refused = [e for e in read_events(sim, "QM2", CHL)
               if e.reason == mqc.MQRC_CHANNEL_NOT_AVAILABLE]
    assert [event_data(e)["channelName"] for e in refused] == ["QM4.TO.QM2", "APPS"]
    for e, conname in zip(refused, ("qm4", "app.client"), strict=True):
        assert [p.parameter for p in e.data] == [
            mqc.MQCA_Q_MGR_NAME, mqc.MQCACH_CHANNEL_NAME, mqc.MQCACH_CONNECTION_NAME,
            mqc.MQIACF_REASON_QUALIFIER, param]
        assert e.get(mqc.MQIACF_REASON_QUALIFIER) == qualifier and e.get(param) == 1
        assert event_data(e)[word] == 1 and event_data(e)["connectionName"] == conname
    sim.run(until=200)  # QM1.TO.QM2 ends after DISCINT: QM4's retry gets in
    assert sim.depth("QM2", "APP.IN") == 2
    assert all(sim.active_channels(q) == 0 for q in ("QM1", "QM2", "QM4"))


def test_qm_ini_reads_the_channels_stanza_and_keeps_the_rest() -> None:
    text = ("#* qm.ini *#\nLog:\n   LogPrimaryFiles=3\nchannels:\n"
            "   maxchannels = 200 ; comment\n   MAXACTIVECHANNELS=150\n")
    ini = parse_qm_ini(text)
    assert (ini.max_channels, ini.max_active_channels) == (200, 150)
    assert ini.value("LOG", "logprimaryfiles") == "3" and ini.text == text
    assert parse_qm_ini("CHANNELS:\n MaxChannels=7\n").max_active_channels == 7
    assert not parse_qm_ini("").given


def test_without_a_limit_in_its_qm_ini_a_hub_takes_any_number_of_channels() -> None:
    """MQ's default MaxChannels is 100, but a definitions dump carries no qm.ini: the
    simulator enforces only the limits a qm.ini sets (a hub of 1998 channels, as netgen's,
    would otherwise turn its spokes away for a limit nobody configured)."""
    assert parse_qm_ini("").max_channels == parse_qm_ini("Log:\n").max_active_channels \
        == 999_999_999
    sim = _sim()
    sim._active["QM2"] = 5000
    assert sim._inbound_refusal(sim.network.qmgrs["QM2"]) == (0, 0)
    sim.network.qmgrs["QM2"].ini = parse_qm_ini(qm_ini_text(max_channels=5000))
    assert sim._inbound_refusal(sim.network.qmgrs["QM2"]) == (
        mqc.MQRQ_MAX_CHANNELS, 5000)


@pytest.mark.parametrize("text, line, says", [
    ("CHANNELS:\n  MaxChannels=0\n", 2, "a whole number from 1"),
    ("CHANNELS:\n  MaxActiveChannels=ten\n", 2, "a whole number from 1"),
    ("MaxChannels=5\n", 1, "outside any stanza"),
    ("CHANNELS:\n\n  what is this\n", 3, "neither a stanza"),
])
def test_a_qm_ini_line_it_cannot_read_names_the_file_and_line(text, line, says) -> None:
    with pytest.raises(QmIniError, match=says) as e:
        parse_qm_ini(text, "DIR/QM1/qm.ini")
    assert e.value.line == line and str(e.value).startswith(f"DIR/QM1/qm.ini:{line}: ")


@settings(max_examples=15, deadline=None)
@given(max_active=st.integers(1, 3),
       puts=st.lists(st.tuples(st.sampled_from(["T2", "T3"]),
                               st.integers(0, 12).map(lambda n: n * 5)),
                     min_size=1, max_size=8),
       stop=st.booleans())
def test_never_more_active_than_allowed_and_every_message_arrives(max_active, puts,
                                                                  stop) -> None:
    """Whatever the workload: at no moment more active channels than MaxActiveChannels,
    every Not Activated is followed by an Activated or a stop, every message arrives, and
    once everything has ended no slot is left taken."""
    sim = _sim(qm1=qm_ini_text(max_active=max_active))
    for t in range(0, 70, 5):
        for target, at in puts:
            if at == t:
                assert sim.put("QM1", target, MQMD(), b"m").ok
        if stop and t == 30:
            sim.stop_channel("QM1", "QM1.TO.QM3")
            sim.start_channel("QM1", "QM1.TO.QM3")
        sim.run(until=t + 5)
        assert sim.active_channels("QM1") <= max_active
    sim.run(until=1000)
    assert sim.depth("QM2", "APP.IN") + sim.depth("QM3", "APP.IN") == len(puts)
    assert sim.starting("QM1") == [] and sim.active_channels("QM1") == 0
    assert all(sim.active_channels(q) == 0 for q in ("QM2", "QM3"))
    waits = [e.reason for e in read_events(sim, "QM1", CHL) if e.reason in (2295, 2296)]
    assert waits.count(2296) >= waits.count(2295)


def test_a_discint_check_does_not_spin_at_one_instant() -> None:
    """A channel whose idle time float sums of delays reach only approximately (a slot
    handed over at 45.05 s, the clock moved on in 5 s steps) ends after DISCINT; its check
    used to find it busy by a rounding error and look again at the same instant a million
    times."""
    sim = _sim(qm1=qm_ini_text(max_active=1))
    puts = {15: "T3", 25: "T3", 35: "T2"}
    ran = 0
    for t in range(0, 70, 5):
        if t in puts:
            assert sim.put("QM1", puts[t], MQMD(), b"m").ok
        ran += sim.run(until=t + 5)
    ran += sim.run(until=1000)
    assert ran < 1000 and sim.depth("QM2", "APP.IN") == 1


T0 = datetime(2026, 11, 28, 12, 0, 0, tzinfo=UTC)
INI = "# ours\nLog:\n   LogType=CIRCULAR\nCHANNELS:\n   MaxActiveChannels=1 ; one slot\n"


def test_an_estate_keeps_its_qm_ini_and_its_channels_waiting_between_commands(tmp_path):
    folder = tmp_path / "estate"
    Estate.create(folder, _sim(qm1=INI, discint=600).network, now=T0)
    assert (folder / "QM1" / "qm.ini").read_text() == INI  # kept as written
    assert not (folder / "QM2" / "qm.ini").exists()  # MQ's defaults: no file of its own
    with Estate.open(folder, now=T0 + timedelta(seconds=1)) as e:
        for target in ("T2", "T3"):
            assert e.sim.put("QM1", target, MQMD(), b"x").ok
    saved = json.loads((folder / "QM1" / "channels.json").read_text())
    assert saved["QM1.TO.QM3"] == {"starting": 0, "status": "STARTING", "stopped": False}
    with Estate.open(folder, now=T0 + timedelta(seconds=100)) as e:
        assert e.sim.starting("QM1") == ["QM1.TO.QM3"]
        assert e.monitor.channel_state("QM1", "QM1.TO.QM3")[0] == "STARTING"
        assert e.sim.active_channels("QM1") == 1 and e.sim.depth("QM1", "QM3") == 1
    with Estate.open(folder, now=T0 + timedelta(seconds=700)) as e:  # QM1.TO.QM2 ended
        assert e.sim.depth("QM3", "APP.IN") == 1 and e.sim.starting("QM1") == []
        events = read_events(e.sim, "QM1", CHL)
    assert [ev.reason for ev in events] == [2282, 2296, 2283, 2295, 2282]
    assert events[1].time - T0 == timedelta(seconds=1.05)
    # the idle channel ends when the estate is next opened after its DISCINT (the engines'
    # clock), and hands its slot over at that moment
    assert events[2].time == events[3].time == T0 + timedelta(seconds=700)
    assert (folder / "QM1" / "qm.ini").read_text() == INI


def test_an_estate_refuses_a_qm_ini_it_cannot_read_naming_file_and_line(tmp_path):
    folder = tmp_path / "estate"
    Estate.create(folder, _sim().network, now=T0)
    (folder / "QM2" / "qm.ini").write_text("CHANNELS:\n  MaxChannels=lots\n")
    with pytest.raises(EstateError, match=r"QM2/qm\.ini:2: MaxChannels='lots'"), \
            Estate.open(folder):
        pass


def test_a_retrying_channel_must_become_active_again_for_its_next_attempt() -> None:
    """IBM: a channel needs an active slot 'because it is starting, or because it is about
    to make another attempt to establish connection with its partner'. A retrying channel
    is current but not active; when it tries again while the only slot is taken it writes
    Channel Not Activated, and starts once the slot is released."""
    sim = _sim(qm1=qm_ini_text(max_active=1))
    sim.stop_channel("QM3", "QM1.TO.QM3")  # its receiving end is stopped: it retries
    assert sim.put("QM1", "T3", MQMD(), b"y").ok
    sim.run(until=5)
    assert sim.channel_status("QM1", "QM1.TO.QM3") == "RETRYING"
    assert sim.active_channels("QM1") == 0  # retrying: not active
    assert sim.put("QM1", "T2", MQMD(), b"x").ok  # QM1.TO.QM2 takes the slot
    sim.run(until=8)
    sim.start_channel("QM3", "QM1.TO.QM3")  # QM1.TO.QM3 tries again: no slot
    sim.run(until=12)
    assert sim.channel_status("QM1", "QM1.TO.QM3") == "STARTING"
    sim.run(until=200)
    assert sim.depth("QM3", "APP.IN") == 1
    assert [(e.reason, event_data(e)["channelName"]) for e in read_events(sim, "QM1", CHL)] \
        == [(2283, "QM1.TO.QM3"), (2282, "QM1.TO.QM2"), (2296, "QM1.TO.QM3"),
            (2283, "QM1.TO.QM2"), (2295, "QM1.TO.QM3"), (2282, "QM1.TO.QM3"),
            (2283, "QM1.TO.QM3")]


def test_a_message_behind_a_waiting_channel_is_explained_by_its_starting_status() -> None:
    """What `trace`/`follow` say of a message on a transmission queue whose channel waits
    for an active slot: the channel's status as the command server answers it, and why."""
    from traceroute.status.explain import XMITQ, Stop, explain
    from traceroute.status.values import ChannelStatus

    said = explain(Stop(XMITQ, "QM1", "QM3", "QM1.TO.QM3"),
                   channel=ChannelStatus("QM1", "QM1.TO.QM3", "SDR", "STARTING"))
    assert said.startswith("channel QM1.TO.QM3 is STARTING (waiting for an active slot: "
                           "every one its queue manager's qm.ini MaxActiveChannels allows "
                           "is taken)")
