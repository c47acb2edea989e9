"""The simulated command server answers PCF commands put to SYSTEM.ADMIN.COMMAND.QUEUE as
IBM's does: requests built byte by byte from the PCF reference (tests/support/pcfbytes.py,
not our encoder), responses read back the same way -- MQMD, MQCFH Type/Command/
MsgSeqNumber/Control/CompCode/Reason, one message per object, MQCFC_LAST on the last."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest

from pcf import mqc
from pcf.mqmd import MQMD
from tests.support import pcfbytes as b
from traceroute.mq.admin import Admin, PCFOverQueues
from traceroute.mq.transport import SimTransport
from traceroute.sim.cmdserver import attach
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

NET = """\
* Queue manager name: QM1
ALTER QMGR DEADQ(DLQ) PERFMEV(ENABLED)
DEFINE QLOCAL(DLQ)
DEFINE QLOCAL(R)
DEFINE QLOCAL(APP.A) DESCR('orders in') MAXDEPTH(100)
DEFINE QLOCAL(APP.B) DESCR('orders out')
DEFINE QREMOTE(TO.QM2) RNAME(APP.C) RQMNAME(QM2) XMITQ(QM2)
DEFINE QREMOTE(QM2.ADMIN) RNAME(SYSTEM.ADMIN.COMMAND.QUEUE) RQMNAME(QM2) XMITQ(QM2)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1414)') XMITQ(QM2)
DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(RCVR)
* Queue manager name: QM2
DEFINE QLOCAL(APP.C)
DEFINE QLOCAL(QM1) USAGE(XMITQ)
DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(SDR) CONNAME('qm1(1414)') XMITQ(QM1)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)
"""


@pytest.fixture
def sim():
    s = Simulator(parse_mqsc(NET), seed=3)
    attach(s)
    return s


def ask(sim, command: int, parameters: list[bytes], *, qmgr="QM1", queue=None,
        md: MQMD | None = None, reply_qmgr: str = ""):
    """Put a command, run, and return (request MQMD, [(MQMD, data)] of the responses)."""
    data = b.message(parameters, typ=b.MQCFT_COMMAND, command=command)
    md = md or MQMD(msg_type=mqc.MQMT_REQUEST, format="MQADMIN", reply_to_q="R",
                    reply_to_q_mgr=reply_qmgr, encoding=546, coded_char_set_id=1208)
    put = sim.put(qmgr, queue or "SYSTEM.ADMIN.COMMAND.QUEUE", md, data)
    assert put.ok, put.reason
    sim.run()
    got = []
    home = reply_qmgr or qmgr
    while (m := sim.get(home, "R")) is not None:
        got.append(m)
    return put.msg_id, got


def q_name(name: bytes) -> bytes:
    return b.cfst(mqc.MQCA_Q_NAME, name)


def test_one_response_per_object_the_last_one_last(sim):
    msg_id, got = ask(sim, mqc.MQCMD_INQUIRE_Q, [q_name(b"APP.*")])
    assert len(got) == 2
    for n, (md, data) in enumerate(got, start=1):
        assert md.msg_type == mqc.MQMT_REPLY and md.format == "MQADMIN"
        assert md.correl_id == msg_id  # CorrelId: the command's MsgId
        cfh = b.read_cfh(data, "<" if md.encoding & 0xF == 2 else ">")
        assert cfh["Type"] == mqc.MQCFT_RESPONSE and cfh["Command"] == mqc.MQCMD_INQUIRE_Q
        assert cfh["MsgSeqNumber"] == n and (cfh["CompCode"], cfh["Reason"]) == (0, 0)
        assert cfh["Control"] == (mqc.MQCFC_LAST if n == 2 else mqc.MQCFC_NOT_LAST)
    params = {pid: v for _, pid, v in b.read_parameters(got[0][1])}
    assert params[mqc.MQCA_Q_NAME].rstrip() == b"APP.A"
    assert params[mqc.MQIA_Q_TYPE] == mqc.MQQT_LOCAL
    assert params[mqc.MQIA_MAX_Q_DEPTH] == 100
    assert params[mqc.MQCA_Q_DESC].rstrip() == b"orders in"
    assert params[mqc.MQIA_CURRENT_Q_DEPTH] == 0


def test_queue_status_of_a_queue_with_messages(sim):
    sim.network.qmgrs["QM1"].attrs["MONQ"] = "HIGH"
    sim.put("QM1", "APP.A", MQMD(), b"one")
    sim.now += 12
    _, [(_md, data)] = ask(sim, mqc.MQCMD_INQUIRE_Q_STATUS,
                          [q_name(b"APP.A"), b.cfin(mqc.MQIACF_Q_STATUS_TYPE, mqc.MQIACF_Q_STATUS)])
    params = {pid: v for _, pid, v in b.read_parameters(data)}
    assert params[mqc.MQIA_CURRENT_Q_DEPTH] == 1
    assert params[mqc.MQIACF_OLDEST_MSG_AGE] == 12
    assert params[mqc.MQIA_MONITORING_Q] == mqc.MQMON_HIGH
    assert params[mqc.MQIACF_Q_TIME_INDICATOR] == [-1, -1]  # nothing got yet
    assert len(params[mqc.MQCACF_LAST_PUT_DATE].rstrip()) == 10  # yyyy-mm-dd
    assert params[mqc.MQCACF_LAST_PUT_TIME].count(b".") == 2     # hh.mm.ss


def test_channel_status_always_returns_what_ibm_always_returns(sim):
    # "Inquire Channel Status (Response)": ChannelName, ChannelInstanceType, ChannelStatus,
    # ChannelType, ConnectionName, RemoteQMgrName, StopRequested, SubState and XmitQName are
    # always returned, whatever ChannelInstanceAttrs selects (here only Msgs).
    sim.put("QM1", "TO.QM2", MQMD(), b"one")
    sim.run()
    _, [(_md, data)] = ask(sim, mqc.MQCMD_INQUIRE_CHANNEL_STATUS, [
        b.cfst(mqc.MQCACH_CHANNEL_NAME, b"QM1.TO.QM2"),
        b.cfil(mqc.MQIACH_CHANNEL_INSTANCE_ATTRS, [mqc.MQIACH_MSGS])])
    params = {pid: v for _, pid, v in b.read_parameters(data)}
    assert params[mqc.MQIACH_MSGS] == 1
    assert params[mqc.MQIACH_CHANNEL_STATUS] == mqc.MQCHS_RUNNING
    assert params[mqc.MQIACH_CHANNEL_TYPE] == mqc.MQCHT_SENDER
    assert params[mqc.MQIACH_CHANNEL_INSTANCE_TYPE] == mqc.MQOT_CURRENT_CHANNEL
    assert params[mqc.MQCA_REMOTE_Q_MGR_NAME].rstrip() == b"QM2"
    assert params[mqc.MQCACH_XMIT_Q_NAME].rstrip() == b"QM2"
    assert params[mqc.MQCACH_CONNECTION_NAME].rstrip() == b"qm2(1414)"
    assert params[mqc.MQIACH_STOP_REQUESTED] == mqc.MQCHSR_STOP_NOT_REQUESTED
    assert mqc.MQIACH_CHANNEL_SUBSTATE in params
    assert mqc.MQIACH_BATCHES not in params  # not asked for


@pytest.mark.parametrize("filter_, names", [
    (b.cfif(mqc.MQIA_MAX_Q_DEPTH, mqc.MQCFOP_LESS, 1000), [b"APP.A"]),
    (b.cfif(mqc.MQIA_MAX_Q_DEPTH, mqc.MQCFOP_NOT_EQUAL, 100), [b"APP.B"]),
    (b.cfsf(mqc.MQCA_Q_DESC, mqc.MQCFOP_LIKE, b"orders o*"), [b"APP.B"]),
    (b.cfsf(mqc.MQCA_Q_DESC, mqc.MQCFOP_EQUAL, b"orders in"), [b"APP.A"]),
    (b.cfsf(mqc.MQCA_Q_DESC, mqc.MQCFOP_NOT_LIKE, b"orders*"), []),
])
def test_filters_are_honoured(sim, filter_, names):
    _, got = ask(sim, mqc.MQCMD_INQUIRE_Q, [q_name(b"APP.*"), filter_])
    found = [dict((pid, v) for _, pid, v in b.read_parameters(d)).get(mqc.MQCA_Q_NAME, b"")
             .rstrip() for _, d in got]
    if names:
        assert found == names
    else:
        assert b.read_cfh(got[0][1])["Reason"] == mqc.MQRCCF_NONE_FOUND


@pytest.mark.parametrize("command, parameters, reason, error_parameter", [
    (mqc.MQCMD_INQUIRE_Q, [q_name(b"NOPE")], mqc.MQRC_UNKNOWN_OBJECT_NAME, None),
    (mqc.MQCMD_INQUIRE_Q, [], mqc.MQRCCF_PARM_COUNT_TOO_SMALL, mqc.MQCA_Q_NAME),
    (mqc.MQCMD_INQUIRE_Q, [q_name(b"A"), b.cfin(9999, 1)], mqc.MQRCCF_CFIN_PARM_ID_ERROR, 9999),
    (mqc.MQCMD_INQUIRE_Q, [q_name(b"A"), q_name(b"B")], mqc.MQRCCF_CFST_DUPLICATE_PARM,
     mqc.MQCA_Q_NAME),
    (mqc.MQCMD_INQUIRE_Q, [q_name(b"*"), b.cfif(mqc.MQIA_MAX_Q_DEPTH, 2, 1),
                           b.cfif(mqc.MQIA_MAX_Q_DEPTH, 2, 2)], mqc.MQRCCF_TOO_MANY_FILTERS,
     None),
    (mqc.MQCMD_INQUIRE_Q, [q_name(b"*"), b.cfif(mqc.MQIA_MAX_Q_DEPTH, 99, 1)],
     mqc.MQRCCF_CFIF_OPERATOR_ERROR, None),
    (mqc.MQCMD_INQUIRE_Q, [q_name(b"X" * 49)], mqc.MQRCCF_CFST_STRING_LENGTH_ERR,
     mqc.MQCA_Q_NAME),
    (9999, [], mqc.MQRCCF_CFH_COMMAND_ERROR, None),
    (mqc.MQCMD_INQUIRE_Q_STATUS, [q_name(b"TO.QM2")], mqc.MQRCCF_Q_WRONG_TYPE, None),
    (mqc.MQCMD_INQUIRE_CHANNEL, [b.cfst(mqc.MQCACH_CHANNEL_NAME, b"NOPE")],
     mqc.MQRCCF_CHANNEL_NOT_FOUND, None),
    (mqc.MQCMD_INQUIRE_CHANNEL_STATUS, [b.cfst(mqc.MQCACH_CHANNEL_NAME, b"QM1.TO.QM2")],
     mqc.MQRCCF_CHL_STATUS_NOT_FOUND, None),
    (mqc.MQCMD_STOP_CHANNEL, [b.cfst(mqc.MQCACH_CHANNEL_NAME, b"NOPE")],
     mqc.MQRCCF_CHANNEL_NOT_FOUND, None),
])
def test_errors_are_one_failed_response_with_the_reason(sim, command, parameters, reason,
                                                        error_parameter):
    _, got = ask(sim, command, parameters)
    assert len(got) == 1
    cfh = b.read_cfh(got[0][1])
    assert (cfh["Type"], cfh["Command"]) == (mqc.MQCFT_RESPONSE, command)
    assert (cfh["CompCode"], cfh["Reason"], cfh["Control"]) == (mqc.MQCC_FAILED, reason,
                                                               mqc.MQCFC_LAST)
    if error_parameter is not None:
        assert (mqc.MQCFT_INTEGER, mqc.MQIACF_PARAMETER_ID, error_parameter) in \
            b.read_parameters(got[0][1])


def test_start_and_stop_channel_and_their_errors(sim):
    chl = [b.cfst(mqc.MQCACH_CHANNEL_NAME, b"QM1.TO.QM2")]
    assert b.read_cfh(ask(sim, mqc.MQCMD_STOP_CHANNEL, chl)[1][0][1])["Reason"] == 0
    assert "QM1.TO.QM2" in sim.network.qmgrs["QM1"].stopped
    assert b.read_cfh(ask(sim, mqc.MQCMD_STOP_CHANNEL, chl)[1][0][1])["Reason"] == \
        mqc.MQRCCF_CHANNEL_NOT_ACTIVE
    assert b.read_cfh(ask(sim, mqc.MQCMD_START_CHANNEL, chl)[1][0][1])["Reason"] == 0
    assert b.read_cfh(ask(sim, mqc.MQCMD_START_CHANNEL, chl)[1][0][1])["Reason"] == \
        mqc.MQRCCF_CHANNEL_IN_USE


def test_reset_queue_statistics_reads_then_resets(sim):
    for _ in range(3):
        sim.put("QM1", "APP.A", MQMD(), b"x")
    sim.get("QM1", "APP.A")
    _, [(_, data)] = ask(sim, mqc.MQCMD_RESET_Q_STATS, [q_name(b"APP.A")])
    params = {pid: v for _, pid, v in b.read_parameters(data)}
    assert (params[mqc.MQIA_MSG_ENQ_COUNT], params[mqc.MQIA_MSG_DEQ_COUNT],
            params[mqc.MQIA_HIGH_Q_DEPTH]) == (3, 1, 3)
    _, [(_, data)] = ask(sim, mqc.MQCMD_RESET_Q_STATS, [q_name(b"APP.A")])
    params = {pid: v for _, pid, v in b.read_parameters(data)}
    assert (params[mqc.MQIA_MSG_ENQ_COUNT], params[mqc.MQIA_HIGH_Q_DEPTH]) == (0, 2)


def test_names_lists(sim):
    _, [(_, data)] = ask(sim, mqc.MQCMD_INQUIRE_Q_NAMES, [q_name(b"APP.*")])
    [(typ, pid, _body), (_, types_pid, types)] = b.read_parameters(data)
    assert (typ, pid) == (mqc.MQCFT_STRING_LIST, mqc.MQCACF_Q_NAMES)
    assert types_pid == mqc.MQIACF_Q_TYPES and types == [mqc.MQQT_LOCAL, mqc.MQQT_LOCAL]


def test_what_is_not_a_command_message(sim):
    md = MQMD(msg_type=mqc.MQMT_REQUEST, format="MQSTR", reply_to_q="R")
    _, [(_, data)] = ask(sim, mqc.MQCMD_INQUIRE_Q, [q_name(b"*")], md=md)
    assert b.read_cfh(data)["Reason"] == mqc.MQRCCF_MD_FORMAT_ERROR
    md = MQMD(msg_type=mqc.MQMT_REQUEST, format="MQADMIN")  # no ReplyToQ: no answer
    _, got = ask(sim, mqc.MQCMD_INQUIRE_Q, [q_name(b"*")], md=md)
    assert got == [] and sim.depth("QM1", "SYSTEM.ADMIN.COMMAND.QUEUE") == 0
    sim.put("QM1", "SYSTEM.ADMIN.COMMAND.QUEUE",
            MQMD(format="MQADMIN", reply_to_q="R"), b"\x01\x00")  # truncated PCF
    sim.run()
    assert b.read_cfh(sim.get("QM1", "R")[1])["Reason"] == mqc.MQRCCF_STRUCTURE_TYPE_ERROR


def test_pass_correl_id_and_expiry(sim):
    md = MQMD(msg_type=mqc.MQMT_REQUEST, format="MQADMIN", reply_to_q="R",
              correl_id=b"C" * 24, expiry=600,
              report=mqc.MQRO_PASS_CORREL_ID | mqc.MQRO_PASS_DISCARD_AND_EXPIRY)
    _, [(reply, _)] = ask(sim, mqc.MQCMD_INQUIRE_Q_MGR, [], md=md)
    assert reply.correl_id == b"C" * 24 and 0 < reply.expiry <= 600


def test_a_command_to_another_queue_managers_command_server_comes_back_over_channels(sim):
    msg_id, got = ask(sim, mqc.MQCMD_INQUIRE_Q, [q_name(b"APP.C")], queue="QM2.ADMIN",
                      reply_qmgr="QM1")
    assert len(got) == 1 and got[0][0].correl_id == msg_id
    params = {pid: v for _, pid, v in b.read_parameters(got[0][1])}
    assert params[mqc.MQCA_Q_NAME].rstrip() == b"APP.C"  # QM2's queue, answered by QM2


def test_inquire_queue_manager_says_its_platform_and_command_level(sim):
    # Inquire Queue Manager (Response) always carries Platform: a simulated queue manager
    # is MQ 9.4 for Multiplatforms (crtmqm's defaults), on UNIX (Linux)
    _, [(_md, data)] = ask(sim, mqc.MQCMD_INQUIRE_Q_MGR, [
        b.cfil(mqc.MQIACF_Q_MGR_ATTRS, [mqc.MQIA_PLATFORM, mqc.MQIA_COMMAND_LEVEL])])
    params = {pid: v for _, pid, v in b.read_parameters(data)}
    assert params[mqc.MQIA_PLATFORM] == mqc.MQPL_UNIX
    assert params[mqc.MQIA_COMMAND_LEVEL] == 940
    assert params[mqc.MQCA_Q_MGR_NAME].rstrip() == b"QM1"


def test_inquire_queue_manager_status_answers_as_ibm_lists_it(sim):
    # "Inquire Queue Manager Status (Response)" on Multiplatforms: QMgrName and QMgrStatus
    # always; StartDate (MQCFST yyyy-mm-dd), StartTime (hh.mm.ss), ConnectionCount,
    # CommandServerStatus, ChannelInitiatorStatus ... when QMStatusAttrs asks (default: all)
    sim.now += 3600
    msg_id, got = ask(sim, mqc.MQCMD_INQUIRE_Q_MGR_STATUS, [])
    assert len(got) == 1 and got[0][0].correl_id == msg_id
    cfh = b.read_cfh(got[0][1])
    assert (cfh["Type"], cfh["Command"], cfh["Control"], cfh["CompCode"]) == (
        mqc.MQCFT_RESPONSE, mqc.MQCMD_INQUIRE_Q_MGR_STATUS, mqc.MQCFC_LAST, mqc.MQCC_OK)
    kinds = {pid: kind for kind, pid, _ in b.read_parameters(got[0][1])}
    params = {pid: v for _, pid, v in b.read_parameters(got[0][1])}
    assert params[mqc.MQCA_Q_MGR_NAME].rstrip() == b"QM1"
    assert params[mqc.MQIACF_Q_MGR_STATUS] == mqc.MQQMSTA_RUNNING == 2
    # started with the simulation (not moved by the hour that passed since)
    assert params[mqc.MQCACF_Q_MGR_START_DATE].rstrip() == sim.start.strftime(
        "%Y-%m-%d").encode()
    assert params[mqc.MQCACF_Q_MGR_START_TIME].rstrip() == sim.start.strftime(
        "%H.%M.%S").encode()
    assert params[mqc.MQIACF_CMD_SERVER_STATUS] == mqc.MQSVC_STATUS_RUNNING == 2
    assert params[mqc.MQIACF_CHINIT_STATUS] == mqc.MQSVC_STATUS_RUNNING
    # the connections open when it answered: all but the one that got the answer since
    # (amqsget, ask()'s reader), the asker's (amqsput's) among them
    then = {c.appl_name for c in sim.connections() if c.qmgr == "QM1"} - {"amqsget"}
    assert params[mqc.MQIACF_CONNECTION_COUNT] == len(then) >= 1
    assert params[mqc.MQCA_INSTALLATION_NAME].rstrip() == b"Installation1"
    assert kinds[mqc.MQIACF_CONNECTION_COUNT] == mqc.MQCFT_INTEGER
    assert kinds[mqc.MQCACF_Q_MGR_START_DATE] == mqc.MQCFT_STRING


def test_inquire_queue_manager_status_returns_what_is_asked_and_the_status(sim):
    _, [(_md, data)] = ask(sim, mqc.MQCMD_INQUIRE_Q_MGR_STATUS, [
        b.cfil(mqc.MQIACF_Q_MGR_STATUS_ATTRS, [mqc.MQIACF_CONNECTION_COUNT])])
    assert {pid for _, pid, _ in b.read_parameters(data)} == {
        mqc.MQCA_Q_MGR_NAME, mqc.MQIACF_Q_MGR_STATUS, mqc.MQIACF_CONNECTION_COUNT}


def test_queue_manager_status_start_is_its_last_strmqm(sim):
    sim.now += 600
    sim.end_qmgr("QM2")
    sim.now += 60
    sim.start_qmgr("QM2")
    sim.now += 30
    status = Admin(PCFOverQueues(SimTransport(sim, "QM2"))).qmgr_status()
    assert status.start == (sim.start + timedelta(seconds=660)).replace(tzinfo=UTC)
    assert sim.qmgr_started("QM1") == sim.start  # the other one runs since the start


def test_listener_status_answers_for_running_listeners_only():
    # Inquire Channel Listener Status: one response per listener that runs (ListenerName and
    # Status always); none runs: MQRCCF_LSTR_STATUS_NOT_FOUND (mq_prometheus counts answers)
    s = Simulator(parse_mqsc(NET + "* Queue manager name: QM1\n"
                             "DEFINE LISTENER(L.QMGR) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)\n"
                             "DEFINE LISTENER(L.MANUAL) TRPTYPE(TCP) PORT(1415) CONTROL(MANUAL)\n"),
                  seed=3)
    attach(s)
    _, got = ask(s, mqc.MQCMD_INQUIRE_LISTENER_STATUS, [b.cfst(mqc.MQCACH_LISTENER_NAME, b"*")])
    assert len(got) == 1
    params = {pid: v for _, pid, v in b.read_parameters(got[0][1])}
    assert params[mqc.MQCACH_LISTENER_NAME].rstrip() == b"L.QMGR"
    assert params[mqc.MQIACH_LISTENER_STATUS] == mqc.MQSVC_STATUS_RUNNING
    assert params[mqc.MQIACH_PORT] == 1414
    _, [(_md, data)] = ask(s, mqc.MQCMD_INQUIRE_LISTENER_STATUS,
                           [b.cfst(mqc.MQCACH_LISTENER_NAME, b"L.MANUAL")])
    cfh = b.read_cfh(data)
    assert (cfh["CompCode"], cfh["Reason"]) == (mqc.MQCC_FAILED, mqc.MQRCCF_LSTR_STATUS_NOT_FOUND)
    assert Admin(PCFOverQueues(SimTransport(s, "QM2"))).active_listeners() == 0
