"""A day of a small estate where things go wrong, and every failure leaves its event.

Four queue managers. QM1 is where the applications work, with every event switched on and
activity trace running; QM2, QM3 and QM4 are its partners. Over one day (08:00 to 15:00
UTC) the applications put and get; puts fail for every reason a queue manager event
explains (an unknown queue, a put-inhibited queue, an alias with no base, a queue manager
nobody knows, a full queue, a user without authority, a deleted default transmission
queue), a channel is stopped by its administrator, another finds nobody listening until
its partner's listener starts (whose queue manager defines the channel itself, CHAD),
another fails its TLS handshake, a partner queue manager ends and starts again, clients
are refused, commands and configuration changes run through `runmqsc`, the log moves on.
`failure_day()` runs it and gives back the simulator, its event engine and its activity
tracer: the event queues (SYSTEM.ADMIN.*.EVENT), the activity trace and the dead-letter
queues hold what an administrator would find. Used by the event tests, the notebook
"Failures explained" and the docs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.sim.activity_trace import ActivityTracer
from traceroute.sim.events import SimEvents
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

START = datetime(2026, 11, 23, 8, 0, 0)

QM1 = """
ALTER QMGR ACTVTRC(ON) AUTHOREV(ENABLED) INHIBTEV(ENABLED) LOCALEV(ENABLED) +
      REMOTEEV(ENABLED) STRSTPEV(ENABLED) CHLEV(ENABLED) SSLEV(ENABLED) CMDEV(ENABLED) +
      CONFIGEV(ENABLED) LOGGEREV(ENABLED) PERFMEV(ENABLED) DEADQ(DLQ)
DEFINE QLOCAL(DLQ)
DEFINE QLOCAL(APP.ORDERS) MAXDEPTH(100) QDEPTHHI(50) QDPHIEV(ENABLED) QDEPTHLO(10) +
       QDPLOEV(ENABLED)
DEFINE QLOCAL(APP.SMALL) MAXDEPTH(3) QDPMAXEV(ENABLED)
DEFINE QLOCAL(APP.CLOSED) PUT(DISABLED) GET(DISABLED)
DEFINE QLOCAL(HR.SALARIES)
DEFINE QALIAS(APP.ALIAS) TARGET(APP.GONE)
DEFINE QMODEL(APP.MODEL) DEFTYPE(PERMDYN)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE QLOCAL(QM3) USAGE(XMITQ)
DEFINE QLOCAL(QM4) USAGE(XMITQ)
DEFINE QLOCAL(DEFAULT.XMITQ) USAGE(XMITQ)
DEFINE QREMOTE(TO.QM2) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)
DEFINE QREMOTE(TO.QM2.MISSING) RNAME(NOT.THERE) RQMNAME(QM2) XMITQ(QM2)
DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3)
DEFINE QREMOTE(TO.QM4) RNAME(APP.IN) RQMNAME(QM4) XMITQ(QM4)
DEFINE QREMOTE(TO.QM9) RNAME(APP.IN) RQMNAME(QM9)
DEFINE QREMOTE(TO.NOWHERE) RNAME(APP.IN) RQMNAME(QM5) XMITQ(NO.SUCH.XMITQ)
DEFINE QREMOTE(TO.QMALIAS) RQMNAME(QM2) XMITQ(QM2)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2host(1414)') XMITQ(QM2) SHORTTMR(300)
DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) CONNAME('qm3host(1414)') XMITQ(QM3) SHORTTMR(900)
DEFINE CHANNEL(QM1.TO.QM4) CHLTYPE(SDR) CONNAME('qm4host(1414)') XMITQ(QM4) +
       SSLCIPH(TLS_AES_256_GCM_SHA384) SHORTTMR(1800)
DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MAXINST(1)
DEFINE TOPIC(PRICES) TOPICSTR('prices')
SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.9.*')
SET AUTHREC OBJTYPE(QMGR) GROUP('apps') AUTHADD(CONNECT,INQ)
SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT,GET,BROWSE,INQ)
SET AUTHREC PROFILE('TO.**') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT)
SET AUTHREC PROFILE('QM*') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT)
SET AUTHREC PROFILE('DEFAULT.XMITQ') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT)
"""
QM2 = """
ALTER QMGR CHLEV(ENABLED) LOCALEV(ENABLED) STRSTPEV(ENABLED) LOGGEREV(ENABLED) DEADQ(DLQ) +
      ACTVTRC(ON)
DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) IPADDR('qm2host') CONTROL(QMGR)
DEFINE QLOCAL(DLQ)
DEFINE QLOCAL(APP.IN)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)
"""
QM3 = """
ALTER QMGR CHLEV(ENABLED) CHAD(ENABLED) CHADEV(ENABLED) ACTVTRC(ON)
DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) IPADDR('qm3host') CONTROL(MANUAL)
DEFINE QLOCAL(APP.IN)
"""
QM4 = """
ALTER QMGR CHLEV(ENABLED) SSLEV(ENABLED) ACTVTRC(ON)
DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) IPADDR('qm4host') CONTROL(QMGR)
DEFINE QLOCAL(APP.IN)
DEFINE CHANNEL(QM1.TO.QM4) CHLTYPE(RCVR) SSLCIPH(TLS_AES_128_GCM_SHA256)
"""


@dataclass
class Day:
    """The day's simulator, its event engine and activity tracer, and what happened."""

    sim: Simulator
    events: SimEvents
    tracer: ActivityTracer
    log: list[tuple[str, str, int]] = field(default_factory=list)  # (time, what, reason)


def failure_day(*, seed: int = 7) -> Day:
    """Run the day (see the module's description); its Day."""
    net = parse_mqsc(QM1, qmgr="QM1")
    for name, text in (("QM2", QM2), ("QM3", QM3), ("QM4", QM4)):
        net = parse_mqsc(text, qmgr=name, network=net)
    sim = Simulator(net, seed=seed, start=START)
    sim.users.update(payroll="alice", billing="alice", webapp="alice", intruder="eve",
                     audit="bob")
    sim.groups.update(alice={"apps"}, bob={"apps"})
    day = Day(sim, SimEvents(sim, log_extent=200_000), ActivityTracer(sim))

    def clock() -> str:
        return (START + timedelta(seconds=sim.now)).strftime("%H:%M:%S")

    def at(hours: float) -> None:
        sim.run(until=max(sim.now, (hours - 8) * 3600))

    def put(what: str, queue: str, target: str = "", appl: str = "payroll",
            persistent: bool = True, size: int = 2048) -> int:
        md = MQMD(format="MQSTR", persistence=mqc.MQPER_PERSISTENT if persistent
                  else mqc.MQPER_NOT_PERSISTENT)
        reason = sim.put("QM1", queue, md, bytes(size), target_qmgr=target,
                         appl_name=appl).reason
        day.log.append((clock(), what, reason))
        return reason

    def mqsc(qmgr: str, text: str) -> None:
        day.events.mqsc(text, qmgr)
        day.log.append((clock(), f"runmqsc {qmgr}: {text.strip()}", 0))

    put("an order", "APP.ORDERS")
    for _ in range(3):
        put("to QM2", "TO.QM2")
        put("to QM3 (its listener is not started)", "TO.QM3")
        put("to QM4 (CipherSpecs differ)", "TO.QM4")
    at(8.1)
    put("a queue nobody defined", "APP.NO.SUCH.Q")
    put("a put-inhibited queue", "APP.CLOSED")
    put("an alias whose base queue is gone", "APP.ALIAS")
    put("a queue manager nobody knows", "TO.QM9")
    put("a queue manager nobody knows, named on the open", "ANY.Q", target="QM7")
    put("a queue QM2 has not", "TO.QM2.MISSING")
    put("a transmission queue nobody defined", "TO.NOWHERE")
    put("a queue-manager alias opened as a queue", "TO.QMALIAS")
    day.log.append((clock(), "get from a get-inhibited queue",
                    sim.mqget("QM1", "APP.CLOSED", appl_name="billing").reason))
    at(8.25)
    put("an intruder connects", "APP.ORDERS", appl="intruder")
    put("a queue payroll may not put to", "HR.SALARIES")
    day.log.append((clock(), "subscribe without authority",
                    sim.subscribe("QM1", "prices/fish", appl_name="payroll")))
    for _ in range(4):
        put("a small queue fills up", "APP.SMALL")
    at(8.5)
    sim.connection("QM1", "webapp", client_channel="APP.SVRCONN", client_host="web1")
    sim.connection("QM1", "webapp2", client_channel="APP.SVRCONN", client_host="web2")
    sim.connection("QM1", "scanner", client_channel="APP.SVRCONN", client_host="10.9.0.7")
    day.events.command_refused("QM1", "ALTER", "QLOCAL", "APP.ORDERS", user="eve")
    reply = sim.open_model("QM1", "APP.MODEL", dynamic_name="APP.REPLY.*",
                           appl_name="payroll")
    day.log.append((clock(), "audit deletes payroll's permanent dynamic queue",
                    sim.open("QM1", reply.queue, appl_name="audit").close(mqc.MQCO_DELETE)))
    at(9)
    mqsc("QM1", "STOP CHANNEL(QM1.TO.QM2)")
    put("to QM2 while its channel is stopped", "TO.QM2")
    at(9.5)
    mqsc("QM1", "ALTER QMGR DEFXMITQ(DEFAULT.XMITQ)")
    put("the same queue manager, now by the default xmitq", "ANY.Q", target="QM7")
    at(10)
    mqsc("QM1", "DELETE QLOCAL(DEFAULT.XMITQ) PURGE")  # the message for QM7 goes too
    put("to a queue manager reached by the default xmitq", "ANY.Q", target="QM7")
    at(11)
    sim.end_qmgr("QM2")
    at(12)
    mqsc("QM3", "START LISTENER(TCP)")
    at(12.5)
    mqsc("QM1", "START CHANNEL(QM1.TO.QM2)")
    at(13)
    sim.start_qmgr("QM2")
    at(13.5)
    for _ in range(60):
        put("orders all afternoon", "APP.ORDERS", size=4096)
    at(14)
    got = sum(sim.mqget("QM1", "APP.ORDERS", appl_name="billing").ok for _ in range(60))
    day.log.append((clock(), f"billing got {got} orders", 0))
    mqsc("QM1", "RESET QMGR TYPE(ADVANCELOG)")
    mqsc("QM1", "ALTER QLOCAL(APP.SMALL) MAXDEPTH(10)")
    mqsc("QM1", "REFRESH QMGR TYPE(CONFIGEV) OBJECT(QLOCAL) NAME(APP.*)")
    at(15)
    sim.disconnect_all()  # the applications end: their activity trace is written
    return day
