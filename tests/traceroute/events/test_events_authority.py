"""The simulator's authority model (SET AUTHREC grants as the OAM checks them) and the Not
Authorized events of types 1-6; clients refused by their channel (Channel Blocked, Channel
Not Available)."""

from __future__ import annotations

import pytest

from pcf import mqc
from pcf.mqmd import MQMD
from tests.traceroute.events.sim_events import event_data, read_events
from traceroute.events import decode_event
from traceroute.events.catalog import kind_of
from traceroute.sim import Simulator, parse_mqsc
from traceroute.sim.authority import authorities, command_authorized, matches
from traceroute.sim.events import SimEvents
from traceroute.sim.mqi import MQCONN

QM1 = """
ALTER QMGR AUTHOREV(ENABLED) CHLEV(ENABLED)
DEFINE QLOCAL(APP.IN)
DEFINE QLOCAL(APP.SECRET)
DEFINE QLOCAL(OTHER.Q)
DEFINE QALIAS(APP.ALIAS) TARGET(OTHER.Q)
DEFINE QMODEL(APP.MODEL) DEFTYPE(PERMDYN)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE TOPIC(PRICES) TOPICSTR('prices')
DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MAXINST(2) MAXINSTC(1)
SET AUTHREC OBJTYPE(QMGR) GROUP('apps') AUTHADD(CONNECT,INQ)
SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT,GET,BROWSE)
SET AUTHREC PROFILE('APP.SECRET') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(BROWSE)
SET AUTHREC PROFILE('APP.IN') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(DLT)
SET AUTHREC PROFILE('PRICES') OBJTYPE(TOPIC) PRINCIPAL('alice') AUTHADD(SUB)
SET CHLAUTH('APP.SVRCONN') TYPE(BLOCKUSER) USERLIST('mallory')
SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.9.*')
SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('10.8.*') USERSRC(NOACCESS)
"""


def _sim(text: str = QM1) -> tuple[Simulator, SimEvents]:
    sim = Simulator(parse_mqsc(text, qmgr="QM1"), seed=1)
    sim.users.update(payroll="alice", audit="bob", intruder="eve", admin="mqm")
    sim.groups.update(alice={"apps"}, bob={"apps"}, mallory={"apps"})
    return sim, SimEvents(sim)






def test_generic_profiles_the_most_specific_wins() -> None:
    qm = parse_mqsc(QM1, qmgr="QM1").qmgrs["QM1"]
    assert matches("APP.**", "APP.IN") and matches("APP.**", "APP.A.B")
    assert matches("APP.*", "APP.IN") and not matches("APP.*", "APP.A.B")
    assert matches("A?P.IN", "APP.IN") and not matches("APP.IN", "APP.INX")
    assert authorities(qm, "QUEUE", "APP.IN", "alice", {"apps"}) == {"PUT", "GET", "BROWSE"}
    # the exact profile beats the generic one for the same group: browse only
    assert authorities(qm, "QUEUE", "APP.SECRET", "alice", {"apps"}) == {"BROWSE"}
    # the principal's own record adds to the group's
    assert authorities(qm, "QUEUE", "APP.IN", "bob", {"apps"}) == {"PUT", "GET", "BROWSE",
                                                                  "DLT"}
    assert authorities(qm, "QUEUE", "APP.IN", "eve") == frozenset()
    assert authorities(qm, "QUEUE", "ANYTHING", "mqm") >= {"PUT", "DLT", "CRT"}


def test_set_authrec_adds_and_removes_as_setmqaut_does() -> None:
    net = parse_mqsc(QM1 + "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') "
                           "AUTHRMV(GET) AUTHADD(INQ)\n", qmgr="QM1")
    assert authorities(net.qmgrs["QM1"], "QUEUE", "APP.IN", "x", {"apps"}) == {
        "PUT", "BROWSE", "INQ"}


def test_type_1_a_user_without_connect_authority() -> None:
    sim, _ = _sim()
    calls = []
    sim.add_observer(calls.append)
    assert sim.put("QM1", "APP.IN", MQMD(), b"x", appl_name="intruder").reason == 2035
    assert [(c.verb, c.reason, c.qualifier) for c in calls] == [
        (MQCONN, 2035, mqc.MQRQ_CONN_NOT_AUTHORIZED)]
    [event] = read_events(sim, "QM1", appl_name="admin")
    assert kind_of(event).name == "Not Authorized (type 1)"
    assert event_data(event) == {"queueMgrName": "QM1", "reasonQualifier": "Conn Not Authorized",
                            "userIdentifier": "eve", "applType": "Unix",
                            "applName": "intruder"}


def test_type_2_puts_and_gets_without_the_authority() -> None:
    sim, _ = _sim()
    assert sim.put("QM1", "APP.IN", MQMD(), b"x", appl_name="payroll").ok
    assert sim.put("QM1", "OTHER.Q", MQMD(), b"x", appl_name="payroll").reason == 2035
    assert sim.put("QM1", "APP.SECRET", MQMD(), b"x", appl_name="payroll").reason == 2035
    assert sim.mqget("QM1", "APP.SECRET", appl_name="payroll").reason == 2035
    assert sim.mqget("QM1", "APP.SECRET", appl_name="payroll", browse=True).reason == 2033
    # the alias is what the OAM checks, not its base queue
    assert sim.put("QM1", "APP.ALIAS", MQMD(), b"x", appl_name="payroll").ok
    # a remote queue manager: its transmission queue
    assert sim.put("QM1", "X", MQMD(), b"x", target_qmgr="QM2",
                   appl_name="payroll").reason == 2035
    # an unknown queue under a profile the user has: MQ's own 2085
    assert sim.put("QM1", "APP.NONE", MQMD(), b"x", appl_name="payroll").reason == 2085
    events = read_events(sim, "QM1", appl_name="admin")
    assert [kind_of(e).name for e in events] == ["Not Authorized (type 2)"] * 4
    assert event_data(events[0]) == {
        "queueMgrName": "QM1", "reasonQualifier": "Open Not Authorized",
        "openOptions": mqc.MQOO_OUTPUT, "userIdentifier": "alice", "applType": "Unix",
        "applName": "payroll", "queueName": "OTHER.Q"}
    assert event_data(events[2])["openOptions"] == mqc.MQOO_INPUT_AS_Q_DEF | mqc.MQOO_BROWSE
    assert event_data(events[3])["objectQueueMgrName"] == "QM2"


def test_type_3_deleting_a_permanent_dynamic_queue_made_by_another() -> None:
    sim, watcher = _sim()
    made = sim.open_model("QM1", "APP.MODEL", dynamic_name="APP.DYN.*", appl_name="audit")
    assert made.reason == 0 and made.queue.startswith("APP.DYN.")
    assert sim.network.qmgrs["QM1"].queues[made.queue].get("DEFTYPE") == "PERMDYN"
    by_alice = sim.open("QM1", made.queue, appl_name="payroll")
    assert by_alice.close(mqc.MQCO_DELETE) == mqc.MQRC_NOT_AUTHORIZED
    assert made.queue in sim.network.qmgrs["QM1"].queues
    [event] = read_events(sim, "QM1", appl_name="admin")
    assert event_data(event) == {"queueMgrName": "QM1", "reasonQualifier": "Close Not Authorized",
                            "closeOptions": mqc.MQCO_DELETE, "userIdentifier": "alice",
                            "applType": "Unix", "applName": "payroll",
                            "queueName": made.queue}
    watcher.mqsc("SET AUTHREC PROFILE('APP.DYN.**') OBJTYPE(QUEUE) PRINCIPAL('alice') "
                 "AUTHADD(DLT)", "QM1")
    assert by_alice.close(mqc.MQCO_DELETE) == 0  # now she may
    assert made.queue not in sim.network.qmgrs["QM1"].queues


def test_type_4_a_command_without_the_authority() -> None:
    sim, watcher = _sim()
    qm = sim.network.qmgrs["QM1"]
    assert not command_authorized(qm, "DISPLAY", "QLOCAL", "APP.IN", "alice", {"apps"})
    assert command_authorized(qm, "DELETE", "QLOCAL", "APP.IN", "mqm")
    assert watcher.command_refused("QM1", "ALTER", "QLOCAL", "APP.IN", user="alice")
    [event] = read_events(sim, "QM1", appl_name="admin")
    assert event_data(event) == {"queueMgrName": "QM1", "reasonQualifier": "Cmd Not Authorized",
                            "command": "Change Queue", "userIdentifier": "alice"}


def test_types_5_and_6_subscriptions() -> None:
    sim, _ = _sim()
    assert sim.subscribe("QM1", "prices/fruit", appl_name="payroll").reason == 0
    assert sim.subscribe("QM1", "news", appl_name="payroll").reason == 2035
    assert sim.subscribe("QM1", "prices/fruit", appl_name="payroll",
                         destination="OTHER.Q").reason == 2035
    assert sim.subscribe("QM1", "prices/fruit", appl_name="payroll",
                         destination="APP.IN").reason == 0
    five, six = read_events(sim, "QM1", appl_name="admin")
    assert event_data(five) == {"queueMgrName": "QM1", "reasonQualifier": "Sub Not Authorized",
                           "subOptions": mqc.MQSO_CREATE | mqc.MQSO_MANAGED,
                           "userIdentifier": "alice", "applType": "Unix",
                           "applName": "payroll", "topicString": "news"}
    assert event_data(six) == {"queueMgrName": "QM1", "reasonQualifier": "Sub Dest Not Authorized",
                          "subOptions": mqc.MQSO_CREATE, "userIdentifier": "alice",
                          "applType": "Unix", "applName": "payroll",
                          "topicString": "prices/fruit", "queueName": "OTHER.Q",
                          "openOptions": mqc.MQOO_OUTPUT}


def test_authority_events_need_authorev() -> None:
    sim, _ = _sim(QM1.replace("AUTHOREV(ENABLED)", "AUTHOREV(DISABLED)"))
    assert sim.put("QM1", "OTHER.Q", MQMD(), b"x", appl_name="payroll").reason == 2035
    assert read_events(sim, "QM1", appl_name="admin") == []


def test_the_receiving_mca_puts_as_its_mcauser() -> None:
    qm2 = """
    ALTER QMGR AUTHOREV(ENABLED) DEADQ(DLQ)
    DEFINE QLOCAL(DLQ)
    DEFINE QLOCAL(APP.IN)
    DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) MCAUSER('chan')
    SET AUTHREC PROFILE('DLQ') OBJTYPE(QUEUE) PRINCIPAL('chan') AUTHADD(PUT)
    """
    qm1 = "DEFINE QLOCAL(QM2) USAGE(XMITQ)\nDEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) " \
          "CONNAME('qm2') XMITQ(QM2)\n"
    net = parse_mqsc(qm2, qmgr="QM2", network=parse_mqsc(qm1, qmgr="QM1"))
    sim = Simulator(net, seed=1)
    SimEvents(sim)
    sim.put("QM1", "APP.IN", MQMD(), b"x", target_qmgr="QM2")
    sim.run()
    assert sim.depth("QM2", "APP.IN") == 0 and sim.depth("QM2", "DLQ") == 1
    md, data = sim.get("QM2", "SYSTEM.ADMIN.QMGR.EVENT")
    event = decode_event(data, md)
    assert event_data(event)["userIdentifier"] == "chan"
    assert event_data(event)["applName"] == "amqrmppa"


CLIENT = {"channelName": "APP.SVRCONN", "userIdentifier": "mallory",
          "clientUserId": "mallory", "applType": "Unix", "applName": "app"}


@pytest.mark.parametrize(("host", "qualifier", "expected"), [
    ("h1", "Channel Blocked Userid", CLIENT),
    ("10.9.1.1", "Channel Blocked Address", {}),
    ("10.8.1.1", "Channel Blocked Noaccess", CLIENT),
])
def test_a_client_blocked_by_chlauth(host, qualifier, expected) -> None:
    sim, _ = _sim()
    sim.users["app"] = "mallory"
    sim.connection("QM1", "app", client_channel="APP.SVRCONN", client_host=host)
    assert sim.put("QM1", "APP.IN", MQMD(), b"x", appl_name="app").reason == 2035
    events = read_events(sim, "QM1", "SYSTEM.ADMIN.CHANNEL.EVENT", appl_name="admin")
    assert len(events) == 2  # the MQCONN, and the put's own try to connect again
    assert kind_of(events[0]).name == "Channel Blocked"
    data = {"queueMgrName": "QM1", "channelName": "", "connectionName": host,
            "reasonQualifier": qualifier, **expected}
    assert event_data(events[0]) == {k: v for k, v in data.items() if v != ""}
    assert list(event_data(events[0])) == [k for k in data if data[k] != ""]


def test_maxinst_and_maxinstc_refuse_clients_with_channel_not_available() -> None:
    sim, _ = _sim()
    sim.connection("QM1", "c1", client_channel="APP.SVRCONN", client_host="h1",
                   user="alice")
    sim.connection("QM1", "c2", client_channel="APP.SVRCONN", client_host="h1",
                   user="alice")  # MAXINSTC(1): a second one from h1
    sim.connection("QM1", "c3", client_channel="APP.SVRCONN", client_host="h2",
                   user="alice")
    sim.connection("QM1", "c4", client_channel="APP.SVRCONN", client_host="h3",
                   user="alice")  # MAXINST(2): a third one
    assert [sim.refusal("QM1", c) for c in ("c1", "c2", "c3", "c4")] == [0, 2537, 0, 2537]
    events = read_events(sim, "QM1", "SYSTEM.ADMIN.CHANNEL.EVENT", appl_name="admin")
    assert [event_data(e) for e in events] == [
        {"queueMgrName": "QM1", "channelName": "APP.SVRCONN", "connectionName": "h1",
         "reasonQualifier": "Client Inst Limit", "maxInstsPerClient": 1},
        {"queueMgrName": "QM1", "channelName": "APP.SVRCONN", "connectionName": "h3",
         "reasonQualifier": "Svrconn Inst Limit", "maxInstances": 2}]


def test_type_6_a_destination_on_another_queue_manager_needs_put_on_the_way_there() -> None:
    """A subscription whose destination is on another queue manager: +put is checked on
    the transmission queue that leads there (as a put naming that queue manager), and the
    event names it in DestQMgrName (MQCACF_OBJECT_QMGR_NAME) [IBM: Not Authorized type 6].
    Before, no authority was checked for such a destination at all."""
    sim, _ = _sim()
    denied = sim.subscribe("QM1", "prices/fruit", appl_name="payroll", destination="DEST",
                           destination_qmgr="QM2")
    assert (denied.reason, denied.subscription) == (mqc.MQRC_NOT_AUTHORIZED, None)
    (six,) = read_events(sim, "QM1", appl_name="admin")
    assert [p.parameter for p in six.data] == [
        mqc.MQCA_Q_MGR_NAME, mqc.MQIACF_REASON_QUALIFIER, mqc.MQIACF_SUB_OPTIONS,
        mqc.MQCACF_USER_IDENTIFIER, mqc.MQIA_APPL_TYPE, mqc.MQCACF_APPL_NAME,
        mqc.MQCA_TOPIC_STRING, mqc.MQCACF_OBJECT_Q_MGR_NAME, mqc.MQCA_Q_NAME,
        mqc.MQIACF_OPEN_OPTIONS]
    assert event_data(six)["objectQueueMgrName"] == "QM2"
    parse_mqsc("SET AUTHREC PROFILE('QM2') OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(PUT)",
               qmgr="QM1", network=sim.network)
    assert sim.subscribe("QM1", "prices/fruit", appl_name="payroll", destination="DEST",
                         destination_qmgr="QM2").reason == 0


CONNAUTH = """
ALTER QMGR AUTHOREV(ENABLED)
DEFINE CHANNEL(APPS) CHLTYPE(SVRCONN)
ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKCLNT({clnt}) +
  CHCKLOCL({locl}) ADOPTCTX({adopt})
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT)
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(CONNECT)
"""


def _connauth(clnt: str = "REQUIRED", locl: str = "OPTIONAL", adopt: str = "NO"):
    sim = Simulator(parse_mqsc(CONNAUTH.format(clnt=clnt, locl=locl, adopt=adopt),
                               qmgr="QM1"), seed=1)
    sim.passwords.update(alice="s3cret", bob="pw")
    sim.credentials.update(good=("alice", "s3cret"), wrong=("alice", "nope"),
                           stranger=("zed", "s3cret"))
    SimEvents(sim)
    return sim


def _connect(sim, app: str, *, client: bool = True, user: str = "bob") -> int:
    if client:
        sim.connection("QM1", app, client_channel="APPS", client_host="10.0.0.1", user=user)
    else:
        sim.connection("QM1", app, user=user)
    return sim.refusal("QM1", app)


@pytest.mark.parametrize("clnt, app, user, refused", [
    ("REQUIRED", "good", "bob", 0), ("REQUIRED", "wrong", "bob", 2035),
    ("REQUIRED", "stranger", "bob", 2035), ("REQUIRED", "plain", "bob", 2035),
    ("OPTIONAL", "plain", "bob", 0), ("OPTIONAL", "wrong", "bob", 2035),
    ("REQDADM", "plain", "bob", 0), ("REQDADM", "plain", "mqm", 2035),
    ("REQDADM", "good", "mqm", 0), ("NONE", "wrong", "bob", 0),
])
def test_connauth_checks_a_clients_mqcsp_as_chckclnt_says(clnt, app, user, refused):
    sim = _connauth(clnt)
    assert _connect(sim, app, user=user) == refused


def test_a_failed_authentication_is_not_authorized_type_1_with_the_csp_user() -> None:
    sim = _connauth()
    assert _connect(sim, "wrong") == _connect(sim, "plain") == mqc.MQRC_NOT_AUTHORIZED
    wrong, plain = read_events(sim, "QM1", appl_name="admin")
    assert [p.parameter for p in wrong.data] == [
        mqc.MQCA_Q_MGR_NAME, mqc.MQIACF_REASON_QUALIFIER, mqc.MQCACF_USER_IDENTIFIER,
        mqc.MQIA_APPL_TYPE, mqc.MQCACF_APPL_NAME, mqc.MQCACH_CONNECTION_NAME,
        mqc.MQCACH_CHANNEL_NAME, mqc.MQCACF_CSP_USER_IDENTIFIER]
    assert kind_of(wrong).name == "Not Authorized (type 1)"
    assert event_data(wrong) == {
        "queueMgrName": "QM1", "reasonQualifier": "CSP Not Authorized",
        "userIdentifier": "bob", "applType": "Unix", "applName": "wrong",
        "connectionName": "10.0.0.1", "channelName": "APPS", "cspUserIdentifier": "alice"}
    assert event_data(plain)["cspUserIdentifier"] == ""  # none supplied


def test_adoptctx_yes_runs_the_connection_as_its_mqcsp_user() -> None:
    sim = _connauth(adopt="YES")
    assert sim.connection("QM1", "good", client_channel="APPS", user="eve").user == "alice"
    sim = _connauth(adopt="NO")
    assert sim.connection("QM1", "good", client_channel="APPS", user="eve").user == "eve"
    assert sim.refusal("QM1", "good") == mqc.MQRC_NOT_AUTHORIZED  # eve may not connect
    (event,) = read_events(sim, "QM1", appl_name="admin")
    assert event.get(mqc.MQIACF_REASON_QUALIFIER) == mqc.MQRQ_CONN_NOT_AUTHORIZED


def test_chcklocl_for_local_applications_and_no_connauth_checks_nothing() -> None:
    sim = _connauth(clnt="NONE", locl="REQUIRED")
    assert _connect(sim, "plain", client=False) == mqc.MQRC_NOT_AUTHORIZED
    assert _connect(sim, "good", client=False) == 0
    assert _connect(sim, "plain2", client=True) == 0  # CHCKCLNT(NONE)
    sim = _connauth(locl="REQUIRED")
    parse_mqsc("ALTER QMGR CONNAUTH(' ')", qmgr="QM1", network=sim.network)
    assert _connect(sim, "wrong") == _connect(sim, "plain", client=False) == 0
