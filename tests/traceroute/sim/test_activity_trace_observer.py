"""The simulator's MQI-call observer API: every call of IBM's QM1 -> QM2 example."""

from __future__ import annotations

from importlib import resources

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.sim.mqi import SimCall
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

EXAMPLE_MQSC = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()


def _run(extra: str = "", stop: bool = False) -> tuple[Simulator, list[SimCall], bytes]:
    sim = Simulator(parse_mqsc(EXAMPLE_MQSC + "\n" + extra, source="qm1_qm2.mqsc"))
    calls: list[SimCall] = []
    sim.add_observer(calls.append)
    if stop:
        sim.stop_channel("QM1", "QM1.TO.QM2")
    handle = sim.open("QM1", "TARG.AT.QM2", appl_name="amqsput")
    result = handle.put(MQMD(format="MQSTR"), b"order 4711")
    handle.close()
    sim.run()
    sim.get("QM2", "TARGET.Q", appl_name="amqsget")
    sim.disconnect_all()
    return sim, calls, result.msg_id


def test_every_call_of_the_example_in_order() -> None:
    _, calls, msg_id = _run()
    seen = [(c.qmgr, c.conn.appl_name, c.verb) for c in calls]
    assert seen[:4] == [("QM1", "amqsput", "MQCONN"), ("QM1", "amqsput", "MQOPEN"),
                        ("QM1", "amqsput", "MQPUT"), ("QM1", "amqsput", "MQCLOSE")]
    assert ("QM1", "runmqchl", "MQGET") in seen and ("QM2", "amqrmppa", "MQPUT1") in seen
    assert ("QM2", "amqsget", "MQGET") in seen
    assert sorted(v for _, _, v in seen).count("MQDISC") == 4  # amqsput, 2 MCAs, amqsget
    put = calls[2]
    assert (put.object_name, put.resolved_queue, put.resolved_qmgr, put.local_queue) == \
        ("TARG.AT.QM2", "TARGET.Q", "QM2", "QM2")
    assert put.md is not None and put.md.msg_id == msg_id and put.data_length == 10
    mca_get = next(c for c in calls if c.conn.appl_name == "runmqchl" and c.verb == "MQGET")
    assert mca_get.conn.mca and mca_get.conn.channel == "QM1.TO.QM2"
    assert mca_get.conn.channel_type == mqc.MQCHT_SENDER and mca_get.conn.partner == "QM2"
    assert mca_get.xmit_msg_id == msg_id and mca_get.md is not None
    assert mca_get.md.format == "MQXMIT" and mca_get.md.msg_id != msg_id
    assert (mca_get.xmit_remote_q, mca_get.xmit_remote_qmgr) == ("TARGET.Q", "QM2")
    assert mca_get.time > put.time
    mca_put = next(c for c in calls if c.verb == "MQPUT1")
    assert mca_put.conn.channel == "QM1.TO.QM2" and mca_put.md.msg_id == msg_id
    assert (mca_put.object_name, mca_put.local_queue) == ("TARGET.Q", "TARGET.Q")
    got = next(c for c in calls if c.conn.appl_name == "amqsget" and c.verb == "MQGET")
    assert got.md.msg_id == msg_id and got.comp_code == 0
    ids = {c.conn.conn_id for c in calls}
    assert len(ids) == 4 and all(len(i) == 24 and i.startswith(b"AMQC") for i in ids)


def test_stopped_channel_no_mca_call_and_failed_get() -> None:
    _, calls, _ = _run(stop=True)
    assert not any(c.conn.mca for c in calls)
    got = next(c for c in calls if c.conn.appl_name == "amqsget" and c.verb == "MQGET")
    assert (got.comp_code, got.reason) == (mqc.MQCC_FAILED, mqc.MQRC_NO_MSG_AVAILABLE)


def test_unknown_target_dead_lettered_by_the_receiving_mca() -> None:
    sim = Simulator(parse_mqsc(EXAMPLE_MQSC + "\n* Queue manager name: QM1\n"
                               "DEFINE QREMOTE('BAD') RNAME('NOPE') RQMNAME('QM2') "
                               "XMITQ('QM2')\n"))
    calls: list[SimCall] = []
    sim.add_observer(calls.append)
    sim.put("QM1", "BAD", MQMD(format="MQSTR"), b"x")
    sim.run()
    puts = [c for c in calls if c.conn.appl_name == "amqrmppa" and c.verb == "MQPUT1"]
    assert [(c.comp_code, c.reason, c.local_queue) for c in puts] == [
        (2, mqc.MQRC_UNKNOWN_OBJECT_NAME, ""), (0, 0, "SYSTEM.DEAD.LETTER.QUEUE")]
    assert puts[1].md.format == "MQDEAD"
    app = [c for c in calls if c.conn.appl_name == "amqsput"]
    assert [c.verb for c in app] == ["MQCONN", "MQPUT1"]


def test_failed_open_is_a_failed_put1() -> None:
    sim = Simulator(parse_mqsc(EXAMPLE_MQSC))
    calls: list[SimCall] = []
    sim.add_observer(calls.append)
    sim.put("QM1", "NO.SUCH.Q", MQMD(), b"x")
    assert [(c.verb, c.comp_code, c.reason) for c in calls] == [
        ("MQCONN", 0, 0), ("MQPUT1", 2, mqc.MQRC_UNKNOWN_OBJECT_NAME)]


def test_no_observer_no_cost_and_remove() -> None:
    sim = Simulator(parse_mqsc(EXAMPLE_MQSC))
    calls: list[SimCall] = []
    sim.add_observer(calls.append)
    sim.remove_observer(calls.append)
    sim.put("QM1", "TARG.AT.QM2", MQMD(), b"x")
    sim.run()
    assert calls == [] and sim.depth("QM2", "TARGET.Q") == 1
