"""The simulator keeps what it reads of objects on every put (a queue's PUT/MAXMSGL/MAXDEPTH,
the queue manager's MAXMSGL, a channel's negotiated MAXMSGL, which queue manager listens at
a CONNAME, where a queue name resolves to) between changes: an ALTER, DEFINE or DELETE made
while it runs must be seen by the very next message, as a queue manager sees it. One case
per kept value: if a new cache forgets to read anew after a change, the message after the
change shows it."""

from __future__ import annotations

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.sim.mqsc import Session, parse_mqsc
from traceroute.sim.network import MQObject
from traceroute.sim.simulator import Simulator

ESTATE = """\
* Queue manager name: QM1
DEFINE QLOCAL(TARGET)
DEFINE QREMOTE(AWAY) RNAME(TARGET) RQMNAME(QM2) XMITQ(QM2)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1414)') XMITQ(QM2)
* Queue manager name: QM2
DEFINE LISTENER(TCP.LISTENER) TRPTYPE(TCP) CONTROL(QMGR) PORT(1414)
DEFINE QLOCAL(TARGET)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)
"""


def simulator() -> Simulator:
    return Simulator(parse_mqsc(ESTATE, source="anew.mqsc"), seed=3)


def alter(sim: Simulator, qmgr: str, mqsc: str) -> None:
    outcomes = Session(sim.network, qmgr=qmgr, reading=False).run(mqsc, "change.mqsc")
    assert all(o.status == "ok" for o in outcomes), [o.message for o in outcomes]


def put(sim: Simulator, queue: str = "TARGET", size: int = 100) -> int:
    md = MQMD(format="MQSTR", persistence=mqc.MQPER_PERSISTENT)  # never discarded
    result = sim.put("QM1", queue, md, b"x" * size)
    sim.run()
    return result.reason


def test_queue_put_inhibited_and_enabled_again():
    sim = simulator()
    assert put(sim) == 0
    alter(sim, "QM1", "ALTER QLOCAL(TARGET) PUT(DISABLED)")
    assert put(sim) == mqc.MQRC_PUT_INHIBITED
    alter(sim, "QM1", "ALTER QLOCAL(TARGET) PUT(ENABLED)")
    assert put(sim) == 0
    assert sim.depth("QM1", "TARGET") == 2


def test_queue_maxdepth_and_maxmsgl():
    sim = simulator()
    assert put(sim) == 0
    alter(sim, "QM1", "ALTER QLOCAL(TARGET) MAXDEPTH(1)")
    assert put(sim) == mqc.MQRC_Q_FULL
    alter(sim, "QM1", "ALTER QLOCAL(TARGET) MAXDEPTH(5) MAXMSGL(50)")
    assert put(sim) == mqc.MQRC_MSG_TOO_BIG_FOR_Q
    assert put(sim, size=50) == 0


def test_queue_replaced_by_define():
    sim = simulator()
    alter(sim, "QM1", "ALTER QLOCAL(TARGET) PUT(DISABLED)")
    assert put(sim) == mqc.MQRC_PUT_INHIBITED
    alter(sim, "QM1", "DEFINE QLOCAL(TARGET) REPLACE")
    assert put(sim) == 0


def test_queue_manager_maxmsgl():
    sim = simulator()
    assert put(sim, size=40000) == 0
    alter(sim, "QM1", "ALTER QMGR MAXMSGL(32768)")  # the lowest it takes
    assert put(sim, size=40000) == mqc.MQRC_MSG_TOO_BIG_FOR_Q_MGR


def test_channel_maxmsgl_altered_at_the_receiving_end():
    sim = simulator()
    assert put(sim, "AWAY", size=200) == 0
    assert sim.depth("QM2", "TARGET") == 1
    alter(sim, "QM2", "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) MAXMSGL(150)")
    assert put(sim, "AWAY", size=200) == 0  # the put to the transmission queue works ...
    assert sim.depth("QM2", "TARGET") == 1  # ... the channel cannot carry it: it waits
    assert sim.depth("QM1", "QM2") == 1


def test_listener_port_altered():
    sim = simulator()
    assert put(sim, "AWAY") == 0
    assert sim.depth("QM2", "TARGET") == 1
    sim.stop_channel("QM1", "QM1.TO.QM2")
    alter(sim, "QM2", "ALTER LISTENER(TCP.LISTENER) TRPTYPE(TCP) PORT(1415)")
    sim.start_channel("QM1", "QM1.TO.QM2")
    assert put(sim, "AWAY") == 0
    assert sim.depth("QM2", "TARGET") == 1  # nobody listens at qm2(1414) now
    assert sim.channel_status("QM1", "QM1.TO.QM2") == "RETRYING"
    alter(sim, "QM1", "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1415)')")
    sim.retry("QM1")
    sim.run()
    assert sim.depth("QM2", "TARGET") == 2


def test_resolution_of_a_queue_defined_later():
    sim = simulator()
    assert put(sim, "LATER") == mqc.MQRC_UNKNOWN_OBJECT_NAME
    alter(sim, "QM1", "DEFINE QLOCAL(LATER)")  # no cluster: no index changes
    assert put(sim, "LATER") == 0
    assert sim.depth("QM1", "LATER") == 1


def test_resolution_of_a_queue_added_to_the_store():
    sim = simulator()  # as a dynamic queue is made: straight into the queue manager's store
    assert put(sim, "DYNAMIC") == mqc.MQRC_UNKNOWN_OBJECT_NAME
    sim.network.qmgrs["QM1"].queues["DYNAMIC"] = MQObject("QLOCAL", "DYNAMIC")
    assert put(sim, "DYNAMIC") == 0
    assert sim.depth("QM1", "DYNAMIC") == 1


def test_resolution_after_a_remote_definition_changes():
    sim = simulator()
    assert put(sim, "AWAY") == 0
    assert sim.depth("QM2", "TARGET") == 1
    alter(sim, "QM2", "DEFINE QLOCAL(ELSEWHERE)")
    alter(sim, "QM1", "ALTER QREMOTE(AWAY) RNAME(ELSEWHERE)")
    assert put(sim, "AWAY") == 0
    assert sim.depth("QM2", "ELSEWHERE") == 1
    alter(sim, "QM1", "DELETE QREMOTE(AWAY)")
    assert put(sim, "AWAY") == mqc.MQRC_UNKNOWN_OBJECT_NAME
    alter(sim, "QM1", "DEFINE QLOCAL(AWAY)")
    assert put(sim, "AWAY") == 0
    assert sim.depth("QM1", "AWAY") == 1


def test_resolution_after_an_alias_is_replaced():
    sim = simulator()
    alter(sim, "QM1", "DEFINE QALIAS(VIA) TARGET(TARGET)")
    assert put(sim, "VIA") == 0
    assert sim.depth("QM1", "TARGET") == 1
    alter(sim, "QM1", "DEFINE QALIAS(VIA) TARGET(AWAY) REPLACE")
    assert put(sim, "VIA") == 0
    assert sim.depth("QM2", "TARGET") == 1


def test_input_resolution_after_an_alias_is_defined_and_replaced():
    sim = simulator()
    assert put(sim) == 0
    alter(sim, "QM1", "DEFINE QLOCAL(OTHER)")
    assert put(sim, "OTHER") == 0
    assert sim.mqget("QM1", "READ.VIA").reason == mqc.MQRC_UNKNOWN_OBJECT_NAME
    alter(sim, "QM1", "DEFINE QALIAS(READ.VIA) TARGET(TARGET)")
    assert sim.mqget("QM1", "READ.VIA").reason == 0  # from TARGET
    alter(sim, "QM1", "DEFINE QALIAS(READ.VIA) TARGET(OTHER) REPLACE")
    assert sim.mqget("QM1", "READ.VIA").reason == 0  # from OTHER now
    assert sim.depth("QM1", "OTHER") == 0 and sim.depth("QM1", "TARGET") == 0
    sim.network.qmgrs["QM1"].queues["READ.VIA"] = MQObject("QREMOTE", "READ.VIA", {
        "RNAME": "X", "RQMNAME": "QM2"})
    assert sim.mqget("QM1", "READ.VIA").reason == mqc.MQRC_OPTION_NOT_VALID_FOR_TYPE


def test_get_inhibited_and_enabled_again():
    sim = simulator()
    for _ in range(3):
        assert put(sim) == 0
    alter(sim, "QM1", "DEFINE QALIAS(VIA) TARGET(TARGET)")
    assert sim.mqget("QM1", "TARGET").reason == 0
    alter(sim, "QM1", "ALTER QLOCAL(TARGET) GET(DISABLED)")
    assert sim.mqget("QM1", "TARGET").reason == mqc.MQRC_GET_INHIBITED
    assert sim.mqget("QM1", "VIA").reason == mqc.MQRC_GET_INHIBITED  # its base
    alter(sim, "QM1", "ALTER QLOCAL(TARGET) GET(ENABLED)")
    assert sim.mqget("QM1", "VIA").reason == 0
    alter(sim, "QM1", "ALTER QALIAS(VIA) GET(DISABLED)")
    assert sim.mqget("QM1", "VIA").reason == mqc.MQRC_GET_INHIBITED
    assert sim.mqget("QM1", "TARGET").reason == 0
    assert sim.depth("QM1", "TARGET") == 0
