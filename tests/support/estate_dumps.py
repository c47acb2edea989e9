"""One simulated estate's monitoring data as dmpmqmsg dumps, one folder per input kind.

IBM's QM1/QM2 example run through the simulator with activity reports (routes delivered,
waiting behind a stopped channel, dead-lettered, expired), channel/queue events, accounting
and statistics, and application activity trace (with a client application), so that
`analyze` (Spark or one process), `report` and `audit` can be held to each kind alone and
to all together. Deterministic (seeded).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from pcf import mqc
from pcf.dmpmqmsg import DumpedMessage, write_file
from pcf.mqmd import MQMD
from traceroute.sim.activity_trace import TRACE_QUEUE, ActivityTracer
from traceroute.sim.events import SimEvents
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import ACTIVITY_QUEUE, Simulator
from traceroute.sim.statistics import ACCOUNTING_QUEUE, STATISTICS_QUEUE, StatisticsCollector

EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
SETTINGS = """
* Queue manager name: QM1
ALTER QMGR ACTIVREC(QUEUE) ACTVTRC(ON) CHLEV(ENABLED) PERFMEV(ENABLED) STATQ(ON)
ALTER QMGR STATCHL(MEDIUM) STATMQI(ON) ACCTQ(ON) STATINT(60) ACCTINT(100000)
DEFINE QLOCAL('LOCAL.Q') MAXDEPTH(3) QDPHIEV(ENABLED) QDEPTHHI(60) REPLACE
DEFINE QREMOTE('NOWHERE.AT.QM2') RNAME('NO.SUCH.Q') RQMNAME('QM2') XMITQ('QM2') REPLACE
DEFINE CHANNEL('QM1.APPS') CHLTYPE(SVRCONN) REPLACE
* Queue manager name: QM2
ALTER QMGR ACTIVREC(QUEUE) ACTVTRC(ON) CHLEV(ENABLED) STATQ(ON) STATCHL(HIGH) STATINT(60)
"""
KINDS = ("reports", "events", "statistics", "trace")
QUEUES = {"reports": (ACTIVITY_QUEUE,), "trace": (TRACE_QUEUE,),
          "statistics": (STATISTICS_QUEUE, ACCOUNTING_QUEUE),
          "events": ("SYSTEM.ADMIN.CHANNEL.EVENT", "SYSTEM.ADMIN.PERFM.EVENT",
                     "SYSTEM.ADMIN.QMGR.EVENT")}


def estate_dumps(folder: Path) -> dict[str, Path]:
    """kind -> a folder of dumps of that kind (one dump per queue manager and queue)."""
    sim = Simulator(parse_mqsc(EXAMPLE + SETTINGS, source="estate.mqsc"), seed=25,
                    latency=0.5)
    SimEvents(sim)
    stats = StatisticsCollector(sim)
    ActivityTracer(sim)
    sim.connection("QM1", "orders", client_channel="QM1.APPS", client_host="10.0.0.9")
    report = mqc.MQRO_ACTIVITY
    for i in range(4):  # delivered, then consumed
        assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR", report=report),
                       b"order %d" % i, appl_name="orders").ok
    assert sim.put("QM1", "NOWHERE.AT.QM2", MQMD(format="MQSTR", report=report),
                   b"typo").ok  # dead-lettered on QM2
    for i in range(2):  # back over QM2.TO.QM1, not traced: only channel statistics see it
        assert sim.put("QM2", "ACTIV.REPLY.Q", MQMD(format="MQSTR"), b"ack %d" % i,
                       target_qmgr="QM1", appl_name="billing").ok
    sim.run(until=sim.now + 20)
    for _ in range(2):
        assert sim.get("QM2", "TARGET.Q", appl_name="billing") is not None
    sim.stop_channel("QM1", "QM1.TO.QM2")
    for i in range(3):  # waiting on the transmission queue, one expires
        md = MQMD(format="MQSTR", report=report, expiry=30 if i == 0 else -1)
        assert sim.put("QM1", "TARG.AT.QM2", md, b"late %d" % i, appl_name="orders").ok
    for i in range(4):  # LOCAL.Q fills: queue depth high
        sim.put("QM1", "LOCAL.Q", MQMD(format="MQSTR", report=report), b"l%d" % i)
    sim.run(until=sim.now + 70)
    sim.disconnect_all()
    stats.finish()
    sim.run()
    out: dict[str, Path] = {}
    for kind in KINDS:
        sub = folder / kind
        sub.mkdir(parents=True, exist_ok=True)
        for qm in ("QM1", "QM2"):
            for queue in QUEUES[kind]:
                messages = sim.browse(qm, queue)
                if messages:
                    write_file(sub / f"{qm}.{queue}.dmp",
                               [DumpedMessage(md, data) for md, data in messages],
                               qmgr=qm, queue=queue)
        out[kind] = sub
    return out


def analyze_in_one_process(inputs: list[str], out: str):
    """`mqroute analyze --no-spark INPUT... --out OUT` (graph.pipeline.single)."""
    from graph.pipeline.inputs import list_inputs
    from graph.pipeline.single import run_single

    return run_single(inputs, out, listing=list_inputs(inputs))
