"""The command server's commands that define (Change/Create/Copy Queue and Channel, Change
Queue Manager): applied as runmqsc applies ALTER/DEFINE, and a number outside the range MQ
documents refused with the reason IBM's PCF reference names for that parameter, the
parameter named by MQIACF_PARAMETER_ID, nothing changed."""

from __future__ import annotations

import pytest

from pcf import mqc
from pcf.model import Header, Integer, Message, String
from tests.support import pcfbytes as b
from tests.traceroute.sim.cmdserver.test_command_server import NET, ask
from traceroute.sim.cmdserver import attach
from traceroute.sim.crtmqm import CHANNEL_DEFAULTS
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator
from traceroute.status.attributes import CHANNEL, QMGR, QUEUE


@pytest.fixture
def sim():
    s = Simulator(parse_mqsc(NET), seed=3)
    attach(s)
    return s


def run(sim, command: int, *params) -> Message:
    (response,) = attach(sim).execute("QM1", Message(Header(mqc.MQCFT_COMMAND, command),
                                                     list(params)))
    return response


def _channel_type(keyword: str) -> int | None:
    words = CHANNEL["CHLTYPE"].words
    return next((words[t] for t, (_, attrs) in CHANNEL_DEFAULTS.items() if keyword in attrs),
                None)


QUEUE_CASES = [k for k, a in QUEUE.items() if a.limits and k not in ("CAPEXPRY",)]
CHANNEL_CASES = [k for k, a in CHANNEL.items() if a.limits and _channel_type(k) is not None]
QMGR_CASES = [k for k, a in QMGR.items() if a.limits]


def _change(sim, family: str, keyword: str, value: int) -> Message:
    if family == "QUEUE":
        a = QUEUE[keyword]
        return run(sim, mqc.MQCMD_CHANGE_Q, String(mqc.MQCA_Q_NAME, "APP.A"),
                   Integer(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL), Integer(a.param, value))
    if family == "CHANNEL":
        a = CHANNEL[keyword]
        chltype = _channel_type(keyword)
        if "NEW" not in sim.network.qmgrs["QM1"].channels:
            created = run(sim, mqc.MQCMD_CREATE_CHANNEL,
                          String(mqc.MQCACH_CHANNEL_NAME, "NEW"),
                          Integer(mqc.MQIACH_CHANNEL_TYPE, chltype))
            assert created.header.comp_code == mqc.MQCC_OK, created.header.reason
        return run(sim, mqc.MQCMD_CHANGE_CHANNEL, String(mqc.MQCACH_CHANNEL_NAME, "NEW"),
                   Integer(mqc.MQIACH_CHANNEL_TYPE, chltype), Integer(a.param, value))
    a = QMGR[keyword]
    return run(sim, mqc.MQCMD_CHANGE_Q_MGR, Integer(a.param, value))


def _stored(sim, family: str, keyword: str) -> str | None:
    qm = sim.network.qmgrs["QM1"]
    if family == "QUEUE":
        return qm.queues["APP.A"].get(keyword)
    if family == "CHANNEL":
        return qm.channels["NEW"].get(keyword)
    return qm.attrs.get(keyword)


CASES = ([("QUEUE", k) for k in QUEUE_CASES] + [("CHANNEL", k) for k in CHANNEL_CASES]
         + [("QMGR", k) for k in QMGR_CASES])
TABLE = {"QUEUE": QUEUE, "CHANNEL": CHANNEL, "QMGR": QMGR}


def test_every_numeric_attribute_is_covered():
    assert len(QUEUE_CASES) >= 12 and len(CHANNEL_CASES) >= 20 and len(QMGR_CASES) >= 25


@pytest.mark.parametrize(("family", "keyword"), CASES)
def test_the_range_is_taken_and_its_neighbours_refused(sim, family, keyword):
    a = TABLE[family][keyword]
    low, high = a.limits
    for value in (low, high):
        response = _change(sim, family, keyword, value)
        assert response.header.comp_code == mqc.MQCC_OK, (value, response.header.reason)
        assert _stored(sim, family, keyword) == str(value)
    for value in (low - 1, high + 1, -(2**31), 2**31 - 1):
        if low <= value <= high or value in a.words.values():
            continue
        response = _change(sim, family, keyword, value)
        assert (response.header.comp_code, response.header.reason) == (mqc.MQCC_FAILED,
                                                                       a.reason)
        params = {p.parameter: p.value for p in response.parameters}
        assert params[mqc.MQIACF_PARAMETER_ID] == a.param
        assert _stored(sim, family, keyword) == str(high)  # unchanged


def test_named_reasons_for_channel_numbers():
    assert CHANNEL["BATCHSZ"].reason == mqc.MQRCCF_BATCH_SIZE_ERROR == 3037
    assert CHANNEL["DISCINT"].reason == mqc.MQRCCF_DISC_INT_ERROR
    assert CHANNEL["HBINT"].reason == mqc.MQRCCF_HB_INTERVAL_ERROR
    assert QUEUE["MAXDEPTH"].reason == mqc.MQRCCF_PARM_VALUE_ERROR == 3229


def test_words_are_numbers_mq_takes(sim):
    response = run(sim, mqc.MQCMD_CHANGE_CHANNEL, String(mqc.MQCACH_CHANNEL_NAME, "QM1.TO.QM2"),
                   Integer(mqc.MQIACH_CHANNEL_TYPE, mqc.MQCHT_SENDER),
                   Integer(mqc.MQIACH_KEEP_ALIVE_INTERVAL, mqc.MQKAI_AUTO))
    assert response.header.comp_code == mqc.MQCC_OK
    assert sim.network.qmgrs["QM1"].channels["QM1.TO.QM2"].get("KAINT") == "AUTO"


def test_create_copy_and_their_refusals(sim):
    qm = sim.network.qmgrs["QM1"]
    ok = run(sim, mqc.MQCMD_CREATE_Q, String(mqc.MQCA_Q_NAME, "NEW.Q"),
             Integer(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL), Integer(mqc.MQIA_MAX_Q_DEPTH, 7),
             String(mqc.MQCA_Q_DESC, "made by PCF"))
    assert ok.header.comp_code == mqc.MQCC_OK
    assert qm.queues["NEW.Q"].get("MAXDEPTH") == "7"
    assert qm.queues["NEW.Q"].get("DESCR") == "made by PCF"
    assert qm.queues["NEW.Q"].get("MAXMSGL") == "4194304"  # the rest from the default queue
    again = run(sim, mqc.MQCMD_CREATE_Q, String(mqc.MQCA_Q_NAME, "NEW.Q"),
                Integer(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL))
    assert again.header.reason == mqc.MQRCCF_OBJECT_ALREADY_EXISTS
    copy = run(sim, mqc.MQCMD_COPY_Q, String(mqc.MQCACF_FROM_Q_NAME, "NEW.Q"),
               String(mqc.MQCACF_TO_Q_NAME, "COPY.Q"), Integer(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL))
    assert copy.header.comp_code == mqc.MQCC_OK and qm.queues["COPY.Q"].get("MAXDEPTH") == "7"
    missing = run(sim, mqc.MQCMD_CHANGE_Q, String(mqc.MQCA_Q_NAME, "NOPE"),
                  Integer(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL))
    assert missing.header.reason == mqc.MQRC_UNKNOWN_OBJECT_NAME
    wrong = run(sim, mqc.MQCMD_CHANGE_Q, String(mqc.MQCA_Q_NAME, "TO.QM2"),
                Integer(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL))
    assert wrong.header.reason == mqc.MQRCCF_Q_WRONG_TYPE
    no_chl = run(sim, mqc.MQCMD_CHANGE_CHANNEL, String(mqc.MQCACH_CHANNEL_NAME, "NOPE"),
                 Integer(mqc.MQIACH_CHANNEL_TYPE, mqc.MQCHT_SENDER))
    assert no_chl.header.reason == mqc.MQRCCF_CHANNEL_NOT_FOUND
    chl_type = run(sim, mqc.MQCMD_CHANGE_CHANNEL, String(mqc.MQCACH_CHANNEL_NAME, "QM1.TO.QM2"),
                   Integer(mqc.MQIACH_CHANNEL_TYPE, mqc.MQCHT_RECEIVER))
    assert chl_type.header.reason == mqc.MQRCCF_CHANNEL_TYPE_ERROR
    unknown = run(sim, mqc.MQCMD_CHANGE_Q, String(mqc.MQCA_Q_NAME, "APP.A"),
                  Integer(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL),
                  Integer(mqc.MQIA_CURRENT_Q_DEPTH, 3))  # shown, never set
    assert unknown.header.reason == mqc.MQRCCF_CFIN_PARM_ID_ERROR


def test_change_queue_over_the_command_queue_byte_for_byte(sim):
    """A Change Queue built from the PCF reference's layout (not our encoder), put to the
    command queue: MAXDEPTH 1000000000 refused with MQRCCF_PARM_VALUE_ERROR, 999999999 set."""
    params = [b.cfst(mqc.MQCA_Q_NAME, b"APP.A"), b.cfin(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL)]
    _, [(md, data)] = ask(sim, mqc.MQCMD_CHANGE_Q,
                          [*params, b.cfin(mqc.MQIA_MAX_Q_DEPTH, 1_000_000_000)])
    cfh = b.read_cfh(data, "<" if md.encoding & 0xF == 2 else ">")
    assert (cfh["CompCode"], cfh["Reason"]) == (mqc.MQCC_FAILED, 3229)
    assert {pid: v for _, pid, v in b.read_parameters(data)}[mqc.MQIACF_PARAMETER_ID] == \
        mqc.MQIA_MAX_Q_DEPTH
    assert sim.network.qmgrs["QM1"].queues["APP.A"].get("MAXDEPTH") == "100"
    _, [(md, data)] = ask(sim, mqc.MQCMD_CHANGE_Q,
                          [*params, b.cfin(mqc.MQIA_MAX_Q_DEPTH, 999_999_999)])
    assert b.read_cfh(data)["CompCode"] == mqc.MQCC_OK
    assert sim.network.qmgrs["QM1"].queues["APP.A"].get("MAXDEPTH") == "999999999"


def test_change_queue_from_the_command_queue_writes_its_configuration_events():
    """With CONFIGEV(ENABLED), a Change Queue from the command queue is a Change Object pair
    (EventOrigin MQEVO_MSG) under the PCF command event's CorrelId; a refused one is none."""
    from tests.traceroute.events.sim_events import read_events
    from traceroute.sim.events import SimEvents

    net = parse_mqsc("ALTER QMGR CONFIGEV(ENABLED) CMDEV(ENABLED)\nDEFINE QLOCAL(APP.A)\n"
                     "DEFINE QLOCAL(R)\n", qmgr="QM1")
    sim = Simulator(net, seed=1)
    SimEvents(sim)
    attach(sim)
    read_events(sim, "QM1", "SYSTEM.ADMIN.CONFIG.EVENT")
    params = [b.cfst(mqc.MQCA_Q_NAME, b"APP.A"), b.cfin(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL)]
    ask(sim, mqc.MQCMD_CHANGE_Q, [*params, b.cfin(mqc.MQIA_MAX_Q_DEPTH, 42)])
    before, after = read_events(sim, "QM1", "SYSTEM.ADMIN.CONFIG.EVENT")
    [command] = read_events(sim, "QM1", "SYSTEM.ADMIN.COMMAND.EVENT")
    assert before.reason == after.reason == mqc.MQRC_CONFIG_CHANGE_OBJECT
    assert after.get(mqc.MQIA_MAX_Q_DEPTH) == 42 and before.get(mqc.MQIA_MAX_Q_DEPTH) == 5000
    assert after.get(mqc.MQIACF_EVENT_ORIGIN) == mqc.MQEVO_MSG
    assert after.correl_id == command.correl_id
    ask(sim, mqc.MQCMD_CHANGE_Q, [*params, b.cfin(mqc.MQIA_MAX_Q_DEPTH, -1)])
    assert read_events(sim, "QM1", "SYSTEM.ADMIN.CONFIG.EVENT") == []
