"""One contract, two transports: SimTransport and MQTransport (over a fake pymqi).

Every scenario runs on both, each on a fresh simulator of IBM's QM1/QM2 example network,
and must give the same observable results. The fake pymqi (tests/fake_pymqi.py) checks that
MQTransport drives pymqi's API as pymqi defines it; it is no real queue manager.
"""

from __future__ import annotations

import builtins
import sys
from dataclasses import replace
from importlib import resources

import pytest

from mqroute.main import main
from pcf import mqc
from pcf.mqmd import MQMD
from tests.support.fake_pymqi import make_fake_pymqi
from traceroute.display.jsonout import route_to_dict
from traceroute.mq.client import MQTransport, PymqiMissing
from traceroute.mq.collect import Source, collect, send_trace
from traceroute.mq.transport import MODEL_QUEUE, Connection, SimTransport, TransportError
from traceroute.records.tracemsg import TraceOptions
from traceroute.routes.verdict import Verdict
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.network import MQObject
from traceroute.sim.simulator import Simulator

EXAMPLE_MQSC = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
REPLY_Q = "ACTIV.REPLY.Q"
KINDS = ["sim", "mq"]


def simulator() -> Simulator:
    return Simulator(parse_mqsc(EXAMPLE_MQSC, source="qm1_qm2.mqsc"), seed=0)  # run twice, compared


def connect(kind: str, sim: Simulator, qmgr: str = "QM1"):
    if kind == "sim":
        return SimTransport(sim, qmgr)
    return MQTransport.connect(Connection(qmgr), pymqi=make_fake_pymqi(sim))


@pytest.fixture(params=KINDS)
def kind(request) -> str:
    return request.param


@pytest.fixture
def net(kind):
    """(simulator, transport to QM1) for one implementation."""
    sim = simulator()
    return sim, connect(kind, sim)


def example1(transport, reply_q: str = REPLY_Q):
    options = TraceOptions.from_dspmqrte(q="TARG.AT.QM2", rq=reply_q)
    return send_trace(transport, options, reply_q=reply_q)


def put_plain(transport, queue: str, data: bytes, correl_id: bytes = bytes(24)) -> MQMD:
    handle = transport.open_output(queue)
    return transport.put(handle, MQMD(format="MQSTR", correl_id=correl_id), data)


# --- the contract, scenario by scenario -------------------------------------------------


def test_put_returns_msg_id_and_the_resolved_queue(net):
    sim, t = net
    handle = t.open_output("TARG.AT.QM2")
    assert handle.resolved_queue == "QM2"  # the transmission queue
    put = t.put(handle, MQMD(format="MQSTR"), b"hello")
    assert len(put.msg_id) == 24 and any(put.msg_id)
    sent = example1(t)
    assert (sent.resolved_queue, sent.qmgr) == ("QM2", "QM1")
    assert any(sent.msg_id) and sent.msg_id != put.msg_id
    sim.run()
    ((md, data),) = sim.browse("QM2", "TARGET.Q")  # the trace-route message is not delivered
    assert (md.msg_id, data) == (put.msg_id, b"hello")


def test_collect_gets_the_three_reports_of_example1(net):
    sim, t = net
    sent = example1(t)
    kept = []
    found = collect([Source(t, REPLY_Q)], sent.msg_id, wait=10,
                    keep=lambda label, md, data: kept.append((label, md, data)))
    assert found.messages == 3 and not found.problems
    (route,) = found.routes
    assert route.complete and route.verdict is Verdict.DISCARDED_AT_TARGET
    assert [a.qmgr for a in route.activities] == ["QM1", "QM1", "QM2"]
    assert {label for label, _, _ in kept} == {"QM1:ACTIV.REPLY.Q"}
    assert all(md.correl_id == sent.msg_id for _, md, _ in kept)
    t.close()
    assert sim.depth("QM1", REPLY_Q) == 0  # kept, so committed: gone from the queue


def test_both_transports_give_identical_routes_and_messages():
    def run(kind: str):
        sim = simulator()
        t = connect(kind, sim)
        sent = example1(t)
        kept = []
        found = collect([Source(t, REPLY_Q)], sent.msg_id, wait=10,
                        keep=lambda label, md, data: kept.append((md, data)))
        t.close()
        # the MQMD's Version is the getter's structure (MQTransport asks for version 2)
        kept = [(replace(md, version=2), data) for md, data in kept]
        return sent.msg_id, [route_to_dict(r) for r in found.routes], kept

    assert run("sim") == run("mq")


def test_get_with_no_wait_on_an_empty_queue_is_none(net):
    sim, t = net
    assert t.get(REPLY_Q, correl_id=None, wait=0) is None
    assert t.get(REPLY_Q, correl_id=b"X" * 24, wait=0, browse=True) is None
    assert sim.now == 0.0  # no wait, no virtual time passed


def test_get_waits_in_virtual_time_for_what_is_in_flight(net):
    sim, t = net
    sent = example1(t)
    sim.run()  # all three reports arrive
    for _ in range(3):
        got = t.get(REPLY_Q, correl_id=sent.msg_id, wait=1)
        assert got is not None and got[0].correl_id == sent.msg_id
    before = sim.now
    assert t.get(REPLY_Q, correl_id=sent.msg_id, wait=2.5) is None
    assert sim.now == pytest.approx(before + 2.5)


def test_browse_does_not_remove(net):
    sim, t = net
    put = put_plain(t, REPLY_Q, b"one")
    md, data = t.get(REPLY_Q, correl_id=None, wait=0, browse=True)
    assert (md.msg_id, data) == (put.msg_id, b"one")
    assert t.get(REPLY_Q, correl_id=None, wait=0, browse=True) is None  # cursor moved past
    assert sim.depth("QM1", REPLY_Q) == 1
    md, data = t.get(REPLY_Q, correl_id=None, wait=0, syncpoint=False)
    assert md.msg_id == put.msg_id and sim.depth("QM1", REPLY_Q) == 0


def test_browsing_for_another_correl_id_starts_from_the_top(net):
    sim, t = net
    b = put_plain(t, REPLY_Q, b"b", correl_id=b"B" * 24)
    a = put_plain(t, REPLY_Q, b"a", correl_id=b"A" * 24)
    assert t.get(REPLY_Q, correl_id=b"A" * 24, wait=0, browse=True)[0].msg_id == a.msg_id
    # B's message is before A's: a browse cursor kept across CorrelIds would skip it
    assert t.get(REPLY_Q, correl_id=b"B" * 24, wait=0, browse=True)[0].msg_id == b.msg_id
    assert sim.depth("QM1", REPLY_Q) == 2


def test_syncpoint_get_then_backout_leaves_the_message(net):
    sim, t = net
    put = put_plain(t, REPLY_Q, b"keep me")
    md, _ = t.get(REPLY_Q, correl_id=None, wait=0)
    assert md.msg_id == put.msg_id and sim.depth("QM1", REPLY_Q) == 0
    t.backout()
    ((md, data),) = sim.browse("QM1", REPLY_Q)
    assert (md.msg_id, data) == (put.msg_id, b"keep me")


def test_syncpoint_get_then_commit_removes_it(net):
    sim, t = net
    put_plain(t, REPLY_Q, b"take me")
    assert t.get(REPLY_Q, correl_id=None, wait=0) is not None
    t.commit()
    t.backout()  # nothing left to back out
    t.close()
    assert sim.depth("QM1", REPLY_Q) == 0


def test_backout_restores_several_in_their_old_order(net):
    sim, t = net
    ids = [put_plain(t, REPLY_Q, bytes([n])).msg_id for n in range(3)]
    for _ in range(3):
        assert t.get(REPLY_Q, correl_id=None, wait=0) is not None
    t.close()  # close backs out
    assert [md.msg_id for md, _ in sim.browse("QM1", REPLY_Q)] == ids


def test_temporary_dynamic_reply_queue_from_the_model_queue(net):
    sim, t = net
    name = t.open_reply_queue(MODEL_QUEUE)
    assert name != MODEL_QUEUE and name.startswith("DSPMQRTE.")
    assert sim.network.qmgrs["QM1"].queues[name].get("DEFTYPE") == "TEMPDYN"
    sent = example1(t, reply_q=name)
    found = collect([Source(t, name)], sent.msg_id, wait=10)
    assert found.messages == 3 and found.complete
    t.commit()
    t.close()
    assert name not in sim.network.qmgrs["QM1"].queues
    assert sim.depth("QM1", name) == 0


def test_a_named_reply_queue_is_used_as_it_is(net):
    sim, t = net
    assert t.open_reply_queue(REPLY_Q) == REPLY_Q
    t.close()
    assert REPLY_Q in sim.network.qmgrs["QM1"].queues


def test_inquire(net):
    _, t = net
    assert t.inquire() == {"ACTIVREC": "MSG", "ROUTEREC": "MSG",
                           "DEADQ": "SYSTEM.DEAD.LETTER.QUEUE"}


def test_inquire_follows_the_mqsc():
    sims = [Simulator(parse_mqsc(EXAMPLE_MQSC + "\n* Queue manager name: QM2\n"
                                 "ALTER QMGR ACTIVREC(QUEUE) ROUTEREC(DISABLED) DEADQ(' ')\n",
                                 source="x")) for _ in KINDS]
    got = [connect(kind, sim, "QM2").inquire() for kind, sim in zip(KINDS, sims, strict=True)]
    assert got[0] == got[1] == {"ACTIVREC": "QUEUE", "ROUTEREC": "DISABLED", "DEADQ": ""}


def test_open_of_an_unknown_queue_is_2085(net):
    _, t = net
    for call in (lambda: t.open_output("NO.SUCH.Q"), lambda: t.open_reply_queue("NO.SUCH.Q")):
        with pytest.raises(TransportError) as e:
            call()
        assert e.value.reason == mqc.MQRC_UNKNOWN_OBJECT_NAME == 2085
        assert "MQRC_UNKNOWN_OBJECT_NAME" in str(e.value) and "NO.SUCH.Q" in str(e.value)


def test_get_from_an_unknown_queue_is_2085(net):
    _, t = net
    with pytest.raises(TransportError) as e:
        t.get("NO.SUCH.Q", correl_id=None, wait=0)
    assert e.value.reason == mqc.MQRC_UNKNOWN_OBJECT_NAME


def test_a_topic_publishes_on_either(net):
    sim, t = net
    sim.network.qmgrs["QM1"].queues["FRUIT.SUB"] = MQObject("QLOCAL", "FRUIT.SUB")
    assert sim.subscribe("QM1", "prices/#", destination="FRUIT.SUB").ok
    handle = t.open_output("", topic="prices/fruit")
    put = t.put(handle, MQMD(format="MQSTR"), b"apples 3")
    ((md, data),) = sim.browse("QM1", "FRUIT.SUB")
    assert data == b"apples 3" and md.msg_id != put.msg_id  # each copy has its own MsgId
    with pytest.raises(TransportError) as e:  # a publisher may not use wildcards
        t.open_output("", topic="prices/#")
    assert e.value.reason == mqc.MQRC_TOPIC_STRING_ERROR


def test_an_unknown_queue_manager_is_2058(kind):
    with pytest.raises(TransportError) as e:
        connect(kind, simulator(), "QM9")
    assert e.value.reason == mqc.MQRC_Q_MGR_NAME_ERROR


# --- MQTransport alone: how it drives pymqi ---------------------------------------------


def test_default_queue_manager_is_named_by_inquire():
    t = MQTransport.connect(Connection(""), pymqi=make_fake_pymqi(simulator()))
    assert t.qmgr_name == "QM1"  # pymqi's inquire needs the name it connected with as bytes


def test_client_connection_options():
    fake = make_fake_pymqi(simulator())
    conn = Connection("QM1", client=True, channel="APP.SVRCONN", conname="mq.example(1414)",
                      user="app", password="secret", cipher_spec="TLS_AES_256_GCM_SHA384")
    t = MQTransport.connect(conn, pymqi=fake)
    options = t.qm.connect_options
    assert options["opts"] == mqc.MQCNO_CLIENT_BINDING
    cd = options["cd"]
    assert (cd.ChannelName, cd.ConnectionName) == (b"APP.SVRCONN", b"mq.example(1414)")
    assert cd.SSLCipherSpec == b"TLS_AES_256_GCM_SHA384"
    assert (options["user"], options["password"]) == ("app", "secret")


def test_close_backs_out_before_disconnect_which_would_commit():
    sim = simulator()
    fake = make_fake_pymqi(sim)
    t = MQTransport.connect(Connection("QM1"), pymqi=fake)
    put_plain(t, REPLY_Q, b"x")
    assert t.get(REPLY_Q, correl_id=None, wait=0) is not None
    t.close()
    assert sim.depth("QM1", REPLY_Q) == 1
    calls = [c[0] for c in fake.world.calls]
    assert calls[-2:] == ["MQCLOSE", "MQDISC"]
    # the fake's MQDISC commits, as MQ's does: without the backout the message would be gone
    qm = fake.QueueManager("QM1")
    q = fake.Queue(qm, fake.OD(ObjectName=REPLY_Q.encode()), mqc.MQOO_INPUT_AS_Q_DEF)
    q.get(None, fake.MD(), fake.GMO(Options=mqc.MQGMO_SYNCPOINT))
    qm.disconnect()
    assert sim.depth("QM1", REPLY_Q) == 0


def test_fake_rejects_str_where_pymqi_does():
    fake = make_fake_pymqi(simulator())
    with pytest.raises(TypeError):
        fake.OD(ObjectName="TARGET.Q")
    with pytest.raises(AttributeError):
        fake.OD(ObjectString=b"a/topic")  # an MQCHARV: set_vs only
    qm = fake.QueueManager(None)
    qm.connect("QM1")
    with pytest.raises(TypeError):
        qm.inquire(mqc.MQCA_Q_MGR_NAME)


# --- pymqi missing ----------------------------------------------------------------------


def test_missing_pymqi_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ibmmq", None)
    monkeypatch.setitem(sys.modules, "pymqi", None)
    with pytest.raises(PymqiMissing, match=r"pymqi is not installed: pip install 'mqroute\[mq\]'"):
        MQTransport.connect(Connection("QM1"))


def test_missing_mq_client_library_is_said_so(monkeypatch):
    real_import = builtins.__import__

    def failing(name, *args, **kwargs):
        if name == "pymqi":
            raise ImportError("libmqic_r.so: cannot open shared object file")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "pymqi", raising=False)
    monkeypatch.setitem(sys.modules, "ibmmq", None)
    monkeypatch.setattr(builtins, "__import__", failing)
    with pytest.raises(PymqiMissing, match="could not load the IBM MQ client library"):
        MQTransport.connect(Connection("QM1"))


def test_cli_without_network_and_without_pymqi_exits_2(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ibmmq", None)
    monkeypatch.setitem(sys.modules, "pymqi", None)
    assert main(["trace", "-m", "QM1", "-q", "TARG.AT.QM2", "-rq", REPLY_Q]) == 2
    err = capsys.readouterr().err
    assert "mqroute: trace: ibmmq or pymqi is not installed" in err and "--network" in err
    assert "Traceback" not in err


# --- no report is lost ------------------------------------------------------------------


class Killed(BaseException):
    """The collector dies between a get and its commit (like KeyboardInterrupt)."""


@pytest.mark.parametrize("dies_at", [1, 2, 3])
@pytest.mark.parametrize("death", [Killed, KeyboardInterrupt])
def test_killed_between_get_and_commit_loses_no_report(kind, dies_at, death):
    """What the protocol guarantees: a message whose archive write completed was committed
    and is in the archive; every other one is still on its queue. None is in both."""
    sim = simulator()
    t = connect(kind, sim)
    sent = example1(t)
    archive = []

    def keep(label, md, data):
        if len(archive) + 1 == dies_at:
            raise death()
        archive.append((md, data))

    with pytest.raises(death):
        try:
            collect([Source(t, REPLY_Q)], sent.msg_id, wait=10, keep=keep)
        finally:
            t.close()  # what trace_cmd's `finally` does: back out, close, disconnect
    sim.run()  # what was still in flight arrives
    left = sim.browse("QM1", REPLY_Q)
    assert len(archive) == dies_at - 1 and len(left) == 3 - (dies_at - 1)
    archived = {md.msg_id for md, _ in archive}
    queued = {md.msg_id for md, _ in left}
    assert not archived & queued and len(archived | queued) == 3
    assert all(md.correl_id == sent.msg_id for md, _ in archive + left)
    again = SimTransport(sim, "QM1")  # and the rest can still be collected
    rest = collect([Source(again, REPLY_Q)], sent.msg_id, wait=1, stop_when_complete=False)
    assert rest.messages == 3 - (dies_at - 1)
