"""A publish/subscribe day on traceroute/examples/pubsub.mqsc, as dmpmqmsg dumps.

Every queue manager records activities on its SYSTEM.ADMIN.ACTIVITY.QUEUE (ACTIVREC(QUEUE))
and traces its applications (ACTVTRC(ON)); a publisher on QMA publishes scores with activity
reports, each subscriber application reads its queue (QMB's through a durable MQSUB of its
own, a managed queue;
QMD's archive subscribed with an MQSUB too, besides the DEFINE SUB), and QMC cannot reach
QMD (its channel is stopped): the copies for QMD wait on QMC's transmission queue.
`pubsub_dumps(folder)` writes one folder per kind ("reports", "trace") and returns them with
the simulator (to look at afterwards). Deterministic (seeded).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from pcf import mqc
from pcf.dmpmqmsg import DumpedMessage, write_file
from pcf.mqmd import MQMD
from traceroute.sim.activity_trace import TRACE_QUEUE, ActivityTracer
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import ACTIVITY_QUEUE, Simulator

EXAMPLE = resources.files("traceroute").joinpath("examples/pubsub.mqsc").read_text()
SETTINGS = "".join(f"* Queue manager name: {q}\nALTER QMGR ACTIVREC(QUEUE) ACTVTRC(ON)\n"
                   for q in ("QMA", "QMB", "QMC", "QMD"))
QMGRS = ("QMA", "QMB", "QMC", "QMD")
#: The subscriber applications and the queues they read (QMB's reader subscribes itself).
READERS = {("QMA", "A.SCORES"): "scoreboard", ("QMC", "C.SCORES"): "ticker",
           ("QMD", "D.SCORES"): "archive"}


def pubsub_day(scores: int = 3, *, seed: int = 31) -> Simulator:
    """The day, run: `scores` publications on Sport/Scores/Soccer, all read where they can."""
    sim = Simulator(parse_mqsc(EXAMPLE + SETTINGS, source="pubsub.mqsc"), seed=seed,
                    latency=0.5)
    ActivityTracer(sim)
    mine = sim.subscribe("QMB", "Sport/Scores/+", name="RESULTS", durable=True,
                         appl_name="results")
    late = sim.subscribe("QMD", "Sport/Scores/Soccer", name="LATE.EDITION", durable=True,
                         destination="D.SCORES", appl_name="archive")
    assert mine.ok and late.ok
    sim.run()
    sim.stop_channel("QMC", "QMC.QMD")  # from now on QMD is out of reach
    for n in range(scores):
        md = MQMD(format="MQSTR", report=mqc.MQRO_ACTIVITY, priority=3)
        assert sim.publish("QMA", "Sport/Scores/Soccer", md, b"goal %d" % n,
                           appl_name="scores").ok
        sim.run(until=sim.now + 5)
    for (qm, queue), appl in READERS.items():
        while sim.get(qm, queue, appl_name=appl) is not None:
            pass
    while sim.get("QMB", mine.queue, appl_name="results") is not None:
        pass
    sim.run(until=sim.now + 5)
    sim.disconnect_all()
    sim.run()
    return sim


def pubsub_dumps(folder: Path, scores: int = 3) -> tuple[dict[str, Path], Simulator]:
    """kind ("reports", "trace") -> a folder of dumps (one per queue manager), and the run."""
    sim = pubsub_day(scores)
    out: dict[str, Path] = {}
    for kind, queue in (("reports", ACTIVITY_QUEUE), ("trace", TRACE_QUEUE)):
        sub = folder / kind
        sub.mkdir(parents=True, exist_ok=True)
        for qm in QMGRS:
            messages = sim.browse(qm, queue)
            if messages:
                write_file(sub / f"{qm}.dmp", [DumpedMessage(md, data) for md, data in messages],
                           qmgr=qm, queue=queue)
        out[kind] = sub
    return out, sim
