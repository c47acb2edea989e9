"""Authority configuration events (seed 002 "权限配置事件": Change, Delete and Refresh
Authority Record): SET AUTHREC, DELETE AUTHREC and REFRESH QMGR TYPE(CONFIGEV) write them on
SYSTEM.ADMIN.CONFIG.EVENT when CONFIGEV(ENABLED), a change as a before/after pair even when
nothing changed, none when the command fails or an object is deleted. The event data
parameter by parameter as IBM's reference lists it (origin, the record's identity:
MQOT_AUTH_REC and its profile, then the authority record attributes)."""

from __future__ import annotations

import pytest

from pcf import mqc
from tests.traceroute.events.sim_events import event_data, read_events
from traceroute.display.amqsevt import from_json, text, to_json
from traceroute.events.catalog import BY_NAME, kind_of
from traceroute.events.config import CONTEXT_IDS, AuthorityRecord, authority_record_event
from traceroute.sim import Simulator, parse_mqsc
from traceroute.sim.events import SimEvents

CFG = "SYSTEM.ADMIN.CONFIG.EVENT"
SET = "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT,GET)"
#: IBM's event data of the three events, in order (the context ones only from a message)
IDS = [mqc.MQCACF_EVENT_Q_MGR, mqc.MQCACF_EVENT_USER_ID, mqc.MQIACF_EVENT_ORIGIN,
       mqc.MQIACF_OBJECT_TYPE, mqc.MQCACF_AUTH_PROFILE_NAME, mqc.MQIACF_AUTH_REC_TYPE,
       mqc.MQIACF_AUTHORIZATION_LIST, mqc.MQCACF_ENTITY_NAME, mqc.MQIACF_ENTITY_TYPE]


def _sim(configev: str = "ENABLED"):
    net = parse_mqsc(f"ALTER QMGR CONFIGEV({configev}) CMDEV(ENABLED) AUTHOREV(ENABLED)\n"
                     "DEFINE QLOCAL(APP.IN)\n", qmgr="QM1")
    sim = Simulator(net, seed=1)
    return sim, SimEvents(sim)


def _data(auths: list[str], *, profile: str = "APP.**", rectype: str = "Queue",
          entity: str = "apps", etype: str = "Group") -> dict:
    return {"eventQueueMgr": "QM1", "eventUserId": "mqm", "eventOrigin": "Console",
            "objectType": "Auth Rec", "authProfileName": profile, "authRecType": rectype,
            "authorizationList": auths, "entityName": entity, "entityType": etype}


def test_set_authrec_is_a_change_pair_from_no_authority_with_the_command_correl_id():
    sim, events = _sim()
    raised = events.mqsc(SET, "QM1")
    assert [e.reason for e in raised] == [2368, 2368, 2412]
    before, after, command = raised
    for e in (before, after):
        assert [p.parameter for p in e.data] == IDS
        assert e.type == mqc.MQCMD_CONFIG_EVENT and e.correl_id == command.correl_id
        assert kind_of(e) is BY_NAME["Change Authority Record"]
        assert e.get(mqc.MQIACF_OBJECT_TYPE) == mqc.MQOT_AUTH_REC
    assert (before.msg_seq_number, before.control) == (1, mqc.MQCFC_NOT_LAST)
    assert (after.msg_seq_number, after.control) == (2, mqc.MQCFC_LAST)
    assert event_data(before) == _data(["None"])
    assert event_data(after) == _data(["Input", "Output"])
    assert after.get(mqc.MQIACF_AUTHORIZATION_LIST) == [mqc.MQAUTH_INPUT, mqc.MQAUTH_OUTPUT]
    assert after.get(mqc.MQIACF_ENTITY_TYPE) == 2  # MQZAET_GROUP (cmqzc.h)
    assert [to_json(e)["objectState"] for e in (before, after)] == [
        "Before Change", "After Change"]
    assert [e.reason for e in read_events(sim, "QM1", CFG)] == [2368, 2368]


def test_a_change_is_written_even_when_nothing_changes_and_accumulates_as_setmqaut():
    events = _sim()[1]
    events.mqsc(SET, "QM1")
    again = events.mqsc(SET, "QM1")
    assert [event_data(e)["authorizationList"] for e in again[:2]] == [
        ["Input", "Output"], ["Input", "Output"]]
    changed = events.mqsc("SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') "
                          "AUTHRMV(GET) AUTHADD(INQ,BROWSE)", "QM1")
    assert [event_data(e)["authorizationList"] for e in changed[:2]] == [
        ["Input", "Output"], ["Browse", "Inquire", "Output"]]


def test_a_principal_on_the_queue_manager_is_profile_self():
    events = _sim()[1]
    _before, after, _cmd = events.mqsc(
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(CONNECT,INQ)", "QM1")
    assert event_data(after) == _data(["Connect", "Inquire"], profile="self",
                                      rectype="Queue Mgr", entity="bob", etype="Principal")
    assert after.get(mqc.MQIACF_ENTITY_TYPE) == 1  # MQZAET_PRINCIPAL


def test_delete_authrec_writes_what_the_record_granted_and_nothing_for_no_record():
    sim, events = _sim()
    events.mqsc(SET, "QM1")
    read_events(sim, "QM1", CFG)
    deleted = events.mqsc("DELETE AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps')",
                          "QM1")
    assert [e.reason for e in deleted] == [2369, 2412]
    assert kind_of(deleted[0]) is BY_NAME["Delete Authority Record"]
    assert [p.parameter for p in deleted[0].data] == IDS
    assert event_data(deleted[0]) == _data(["Input", "Output"])
    assert deleted[0].correl_id == deleted[1].correl_id
    again = events.mqsc("DELETE AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps')",
                        "QM1")
    assert mqc.MQRC_CONFIG_DELETE_OBJECT not in [e.reason for e in again]


def test_deleting_an_object_writes_no_authority_event():
    sim, events = _sim()
    events.mqsc("SET AUTHREC PROFILE('APP.IN') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT)",
                "QM1")
    read_events(sim, "QM1", CFG)
    events.mqsc("DELETE QLOCAL(APP.IN) AUTHREC(YES)", "QM1")
    config = read_events(sim, "QM1", CFG)
    assert [(e.reason, e.get(mqc.MQIACF_OBJECT_TYPE)) for e in config] == [
        (2369, mqc.MQOT_Q)]  # the queue's Delete Object only [seed 002]


@pytest.mark.parametrize("refresh, profiles", [
    ("REFRESH QMGR TYPE(CONFIGEV) OBJECT(AUTHREC)", ["APP.**", "OTHER", "self"]),
    ("REFRESH QMGR TYPE(CONFIGEV) OBJECT(AUTHREC) NAME('APP*')", ["APP.**"]),
    ("REFRESH QMGR TYPE(CONFIGEV) OBJECT(QLOCAL)", []),
])
def test_refresh_qmgr_writes_one_refresh_authority_record_per_record(refresh, profiles):
    sim, events = _sim()
    events.mqsc(f"{SET}\nSET AUTHREC PROFILE(OTHER) OBJTYPE(QUEUE) PRINCIPAL('bob') "
                "AUTHADD(BROWSE)\nSET AUTHREC OBJTYPE(QMGR) GROUP('apps') AUTHADD(CONNECT)",
                "QM1")
    read_events(sim, "QM1", CFG)
    events.mqsc(refresh, "QM1")
    refreshed = [e for e in read_events(sim, "QM1", CFG)
                 if e.get(mqc.MQIACF_OBJECT_TYPE) == mqc.MQOT_AUTH_REC]
    assert sorted(e.get(mqc.MQCACF_AUTH_PROFILE_NAME) for e in refreshed) == profiles
    for e in refreshed:
        assert e.reason == mqc.MQRC_CONFIG_REFRESH_OBJECT
        assert kind_of(e) is BY_NAME["Refresh Authority Record"]
        assert [p.parameter for p in e.data] == IDS


def test_refresh_of_every_object_includes_the_authority_records():
    sim, events = _sim()
    events.mqsc(SET, "QM1")
    read_events(sim, "QM1", CFG)
    events.mqsc("REFRESH QMGR TYPE(CONFIGEV)", "QM1")
    types = {e.get(mqc.MQIACF_OBJECT_TYPE) for e in read_events(sim, "QM1", CFG)}
    assert {mqc.MQOT_Q, mqc.MQOT_AUTH_REC} <= types


def test_nothing_when_configev_is_disabled_or_the_command_fails():
    sim, events = _sim("DISABLED")
    events.mqsc(SET, "QM1")
    assert read_events(sim, "QM1", CFG) == []
    sim, events = _sim()
    sim.groups["eve"] = {"staff"}
    from traceroute.sim.mqsc.apply import Session
    from traceroute.sim.mqsc.syntax import _items

    command = next(c for c in _items(SET, "<t>") if hasattr(c, "verb"))
    outcome, raised = events.execute(Session(sim.network, "QM1", reading=False), command,
                                     user="eve")
    assert not outcome.ok and raised == []
    assert read_events(sim, "QM1", CFG) == []


def test_a_command_message_adds_its_context_and_amqsevt_reads_it_back():
    from pcf import ByteString, Integer, String

    context = [ByteString(mqc.MQBACF_EVENT_ACCOUNTING_TOKEN, bytes(range(32))),
               String(mqc.MQCACF_EVENT_APPL_IDENTITY, "ident", width=32),
               Integer(mqc.MQIACF_EVENT_APPL_TYPE, mqc.MQAT_JAVA),
               String(mqc.MQCACF_EVENT_APPL_NAME, "admin.jar", width=28),
               String(mqc.MQCACF_EVENT_APPL_ORIGIN, "", width=4)]
    record = AuthorityRecord("APP.**", "TOPIC", "apps", True, frozenset({"SUB", "PUB"}))
    event = authority_record_event("Refresh Authority Record", "QM1", record, None,
                                   user="admin", origin=mqc.MQEVO_MSG, context=context)
    assert [p.parameter for p in event.data] == [
        *IDS[:3], mqc.MQBACF_EVENT_ACCOUNTING_TOKEN, mqc.MQCACF_EVENT_APPL_IDENTITY,
        mqc.MQIACF_EVENT_APPL_TYPE, mqc.MQCACF_EVENT_APPL_NAME, mqc.MQCACF_EVENT_APPL_ORIGIN,
        *IDS[3:]]
    shown = to_json(event)
    assert shown["eventData"]["authorizationList"] == ["Publish", "Subscribe"]
    assert shown["eventData"]["authRecType"] == "Topic"
    back = from_json(shown)
    assert [(p.parameter, p.value) for p in back.data] == [
        (p.parameter, p.value) for p in event.data]
    assert "Auth Rec" in text(event) and "Entity Type" in text(event)


def _pcf(sim, command: int, parameters: list[bytes], user: str = "admin"):
    """A PCF command put on the command queue (built byte by byte from the PCF reference),
    answered: the response's (CompCode, Reason)."""
    from pcf.mqmd import MQMD
    from tests.support import pcfbytes as b
    from traceroute.sim.cmdserver import attach

    attach(sim)
    md = MQMD(msg_type=mqc.MQMT_REQUEST, format="MQADMIN", reply_to_q="R",
              user_identifier=user, put_appl_name="admin.tool", encoding=546,
              coded_char_set_id=1208)
    assert sim.put("QM1", "SYSTEM.ADMIN.COMMAND.QUEUE", md,
                   b.message(parameters, typ=b.MQCFT_COMMAND, command=command),
                   appl_name="admin.tool").ok
    sim.run()
    md, data = sim.get("QM1", "R")
    cfh = b.read_cfh(data)
    return cfh["CompCode"], cfh["Reason"]


def test_pcf_set_and_delete_authority_record_write_msg_origin_events_with_context():
    """Set Authority Record from the command queue [seed 002: 设置权限记录 PCF 命令]: one
    record per principal and group named, its Change pair with EventOrigin MQEVO_MSG and
    the command message's context, the PCF command event under the same CorrelId; Delete
    Authority Record likewise."""
    from tests.support import pcfbytes as b

    sim, events = _sim()
    events.mqsc("DEFINE QLOCAL(R)", "QM1")  # the reply queue
    read_events(sim, "QM1", CFG)
    read_events(sim, "QM1", "SYSTEM.ADMIN.COMMAND.EVENT")
    ok = _pcf(sim, mqc.MQCMD_SET_AUTH_REC, [
        b.cfst(mqc.MQCACF_AUTH_PROFILE_NAME, b"APP.**"),
        b.cfin(mqc.MQIACF_OBJECT_TYPE, mqc.MQOT_Q),
        b.cfsl(mqc.MQCACF_PRINCIPAL_ENTITY_NAMES, [b"bob"], 12),
        b.cfsl(mqc.MQCACF_GROUP_ENTITY_NAMES, [b"apps"], 12),
        b.cfil(mqc.MQIACF_AUTH_ADD_AUTHS, [mqc.MQAUTH_OUTPUT, mqc.MQAUTH_INQUIRE])], "mqm")
    assert ok == (mqc.MQCC_OK, 0)
    config = read_events(sim, "QM1", CFG)
    [command] = read_events(sim, "QM1", "SYSTEM.ADMIN.COMMAND.EVENT")
    assert [(e.reason, event_data(e)["entityName"]) for e in config] == [
        (2368, "bob"), (2368, "bob"), (2368, "apps"), (2368, "apps")]
    assert command.reason == mqc.MQRC_COMMAND_PCF
    for e in config:
        assert e.correl_id == command.correl_id
        assert [p.parameter for p in e.data] == [
            *IDS[:3], mqc.MQBACF_EVENT_ACCOUNTING_TOKEN, mqc.MQCACF_EVENT_APPL_IDENTITY,
            mqc.MQIACF_EVENT_APPL_TYPE, mqc.MQCACF_EVENT_APPL_NAME,
            mqc.MQCACF_EVENT_APPL_ORIGIN, *IDS[3:]]
        shown = event_data(e)
        assert shown["eventOrigin"] == "Msg" and shown["eventApplName"] == "admin.tool"
    assert event_data(config[1])["authorizationList"] == ["Inquire", "Output"]
    deleted = _pcf(sim, mqc.MQCMD_DELETE_AUTH_REC, [
        b.cfst(mqc.MQCACF_AUTH_PROFILE_NAME, b"APP.**"),
        b.cfin(mqc.MQIACF_OBJECT_TYPE, mqc.MQOT_Q),
        b.cfsl(mqc.MQCACF_GROUP_ENTITY_NAMES, [b"apps"], 12)], "mqm")
    assert deleted == (mqc.MQCC_OK, 0)
    [gone] = read_events(sim, "QM1", CFG)
    assert gone.reason == 2369 and event_data(gone)["entityName"] == "apps"


@pytest.mark.parametrize("parameters, reason", [
    ([], mqc.MQRCCF_OBJECT_TYPE_MISSING),
    (["type"], mqc.MQRCCF_PROFILE_NAME_MISSING),
    (["type", "profile"], mqc.MQRCCF_ENTITY_NAME_MISSING),
    (["type", "profile", "entity", "bad"], mqc.MQRCCF_AUTH_VALUE_ERROR),
])
def test_a_pcf_set_authority_record_missing_a_part_fails_and_writes_nothing(parameters,
                                                                            reason):
    from tests.support import pcfbytes as b

    parts = {"type": b.cfin(mqc.MQIACF_OBJECT_TYPE, mqc.MQOT_Q),
             "profile": b.cfst(mqc.MQCACF_AUTH_PROFILE_NAME, b"X'Y"),
             "entity": b.cfsl(mqc.MQCACF_PRINCIPAL_ENTITY_NAMES, [b"o'brien"], 12),
             "bad": b.cfil(mqc.MQIACF_AUTH_ADD_AUTHS, [999])}
    sim, events = _sim()
    events.mqsc("DEFINE QLOCAL(R)", "QM1")
    read_events(sim, "QM1", CFG)
    assert _pcf(sim, mqc.MQCMD_SET_AUTH_REC, [parts[p] for p in parameters], "mqm") == (
        mqc.MQCC_FAILED, reason)
    assert read_events(sim, "QM1", CFG) == []


def test_names_with_quotes_are_data_in_a_pcf_authority_record():
    from tests.support import pcfbytes as b

    sim, events = _sim()
    events.mqsc("DEFINE QLOCAL(R)", "QM1")
    read_events(sim, "QM1", CFG)
    assert _pcf(sim, mqc.MQCMD_SET_AUTH_REC, [
        b.cfst(mqc.MQCACF_AUTH_PROFILE_NAME, b"X'Y"), b.cfin(mqc.MQIACF_OBJECT_TYPE, mqc.MQOT_Q),
        b.cfsl(mqc.MQCACF_PRINCIPAL_ENTITY_NAMES, [b"o'brien"], 12),
        b.cfil(mqc.MQIACF_AUTH_ADD_AUTHS, [mqc.MQAUTH_ALL_MQI])], "mqm") == (0, 0)
    after = read_events(sim, "QM1", CFG)[1]
    assert event_data(after)["authProfileName"] == "X'Y"
    assert event_data(after)["entityName"] == "o'brien"
    assert len(event_data(after)["authorizationList"]) == 14  # ALLMQI: every MQI authority


@pytest.mark.parametrize("objtype, kinds", [
    (mqc.MQOT_AUTH_REC, {mqc.MQOT_AUTH_REC}),
    (mqc.MQOT_Q, {mqc.MQOT_Q}),
    (None, {mqc.MQOT_Q, mqc.MQOT_AUTH_REC}),
])
def test_pcf_refresh_queue_manager_refreshes_with_the_command_messages_context(objtype,
                                                                              kinds):
    """Refresh Queue Manager (MQRT_CONFIGURATION) from the command queue: Refresh Object
    and Refresh Authority Record events with EventOrigin MQEVO_MSG and the message's
    context, after EventQMgr (objects: after EventUserId, EventOrigin, EventQMgr)."""
    from tests.support import pcfbytes as b

    sim, events = _sim()
    events.mqsc(f"DEFINE QLOCAL(R)\n{SET}", "QM1")
    read_events(sim, "QM1", CFG)
    parameters = [b.cfin(mqc.MQIACF_REFRESH_TYPE, mqc.MQRT_CONFIGURATION)]
    if objtype is not None:
        parameters.append(b.cfin(mqc.MQIACF_OBJECT_TYPE, objtype))
    assert _pcf(sim, mqc.MQCMD_REFRESH_Q_MGR, parameters, "mqm") == (0, 0)
    refreshed = read_events(sim, "QM1", CFG)
    assert {e.get(mqc.MQIACF_OBJECT_TYPE) for e in refreshed} == kinds
    for e in refreshed:
        assert e.reason == mqc.MQRC_CONFIG_REFRESH_OBJECT
        # the three origin parameters (objects: user, origin, qmgr; records: qmgr first),
        # then the context in IBM's order
        assert [p.parameter for p in e.data][3:8] == list(CONTEXT_IDS)
        assert event_data(e)["eventOrigin"] == "Msg"
        assert event_data(e)["eventApplName"] == "admin.tool"


def test_refresh_object_queue_means_every_queue_type():
    sim, events = _sim()
    events.mqsc("DEFINE QALIAS(AL) TARGET(APP.IN)", "QM1")
    read_events(sim, "QM1", CFG)
    events.mqsc("REFRESH QMGR TYPE(CONFIGEV) OBJECT(QUEUE) NAME('A*')", "QM1")
    assert sorted(e.get(mqc.MQCA_Q_NAME) for e in read_events(sim, "QM1", CFG)) == [
        "AL", "APP.IN"]


def test_object_events_of_a_pcf_command_carry_the_command_messages_context_too():
    """Change Queue from the command queue: its Change Object pair says EventOrigin
    MQEVO_MSG and carries the command message's context right after the origin
    parameters [IBM, Change object: 'Returned: only if EventOrigin is MQEVO_MSG']."""
    from tests.support import pcfbytes as b

    sim, events = _sim()
    events.mqsc("DEFINE QLOCAL(R)", "QM1")
    read_events(sim, "QM1", CFG)
    assert _pcf(sim, mqc.MQCMD_CHANGE_Q, [
        b.cfst(mqc.MQCA_Q_NAME, b"APP.IN"), b.cfin(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL),
        b.cfin(mqc.MQIA_MAX_Q_DEPTH, 42)], "mqm") == (0, 0)
    before, after = read_events(sim, "QM1", CFG)
    for e in (before, after):
        ids = [p.parameter for p in e.data]
        assert ids[:8] == [mqc.MQCACF_EVENT_USER_ID, mqc.MQIACF_EVENT_ORIGIN,
                           mqc.MQCACF_EVENT_Q_MGR, *CONTEXT_IDS]
        assert event_data(e)["eventApplName"] == "admin.tool"
    assert (before.get(mqc.MQIA_MAX_Q_DEPTH), after.get(mqc.MQIA_MAX_Q_DEPTH)) == (5000, 42)
