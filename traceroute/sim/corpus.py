"""Activity data for tests, demos and benchmarks: many traces, every verdict, real mess.

Built by the simulator on IBM's QM1/QM2 example network and variants of it, then shuffled,
duplicated and thinned the way collected data really is. Deterministic for a seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.records.tracemsg import TraceOptions, build_trace_message
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import ACTIVITY_QUEUE, Simulator

EXAMPLE = "examples/qm1_qm2.mqsc"

#: name -> (extra MQSC, dspmqrte options, where the reports end up besides ACTIV.REPLY.Q)
VARIANTS: dict[str, tuple[str, dict, tuple[tuple[str, str], ...]]] = {
    "discarded_at_target": ("", {}, ()),
    "delivered": ("", {"d": "yes"}, ()),
    "waiting_on_xmitq": ("* Queue manager name: QM1\nSTOP CHANNEL(QM1.TO.QM2)\n", {}, ()),
    "max_activities": (
        "* Queue manager name: QM1\n"
        "DEFINE QREMOTE(LOOP.Q) RNAME(LOOP.Q) RQMNAME(QMX) XMITQ(QM2) REPLACE\n"
        "DEFINE QREMOTE(QMX) RNAME(' ') RQMNAME(QMX) XMITQ(QM2) REPLACE\n"
        "* Queue manager name: QM2\n"
        "DEFINE QREMOTE(QMX) RNAME(' ') RQMNAME(QMX) XMITQ(QM1) REPLACE\n",
        {"q": "LOOP.Q", "s": "8"}, ()),
    "dead_lettered": (
        "* Queue manager name: QM1\n"
        "DEFINE QREMOTE(NOWHERE) RNAME(NO.SUCH.Q) RQMNAME(QM2) XMITQ(QM2) REPLACE\n",
        {"q": "NOWHERE", "d": "yes", "ro": "activity"}, ()),
    "not_forwarded": ("* Queue manager name: QM2\nALTER QMGR CMDLEVEL(530)\n", {}, ()),
    "incomplete": ("* Queue manager name: QM2\nALTER QMGR ACTIVREC(QUEUE)\n", {},
                   (("QM2", ACTIVITY_QUEUE),)),
}
#: Variants whose channel is started again after this many seconds (messages expire first).
RESTART_AFTER = {"expired": 120.0}
VARIANTS["expired"] = ("* Queue manager name: QM1\nSTOP CHANNEL(QM1.TO.QM2)\n", {"xs": "10"},
                       ())


@dataclass(frozen=True, slots=True)
class Collected:
    """One collected message: which variant made it, where it was found, MQMD and data."""

    variant: str
    qmgr: str
    queue: str
    md: MQMD
    data: bytes


def simulate(variant: str, traces: int, *, seed: int = 0) -> Iterator[Collected]:
    """Run `traces` trace-routes of one variant; every report and reply that comes back."""
    extra, options, elsewhere = VARIANTS[variant]
    text = resources.files("traceroute").joinpath(EXAMPLE).read_text()
    sim = Simulator(parse_mqsc(text + "\n" + extra, source=variant), seed=seed)
    opts = TraceOptions.from_dspmqrte(**{"q": "TARG.AT.QM2", "rq": "ACTIV.REPLY.Q",
                                         **options})
    for _ in range(traces):
        md, data = build_trace_message(opts, msg_id=sim.new_msg_id("QM1"))
        sim.put("QM1", opts.target_q, md, data, appl_name="dspmqrte")
        sim.run()
    if variant in RESTART_AFTER:
        sim.run(until=sim.now + RESTART_AFTER[variant])
        sim.start_channel("QM1", "QM1.TO.QM2")
        sim.run()
    for qmgr, queue in (("QM1", "ACTIV.REPLY.Q"), *elsewhere):
        for md, data in sim.browse(qmgr, queue):
            yield Collected(variant, qmgr, queue, md, data)


def corpus(traces_per_variant: int, *, seed: int = 0, duplicate: float = 0.05,
           drop: float = 0.02) -> list[Collected]:
    """Every variant's messages, shuffled, some duplicated, some lost (making gaps)."""
    rng = random.Random(seed)
    out: list[Collected] = []
    for n, variant in enumerate(sorted(VARIANTS)):
        for c in simulate(variant, traces_per_variant, seed=seed + n):
            if rng.random() < drop:
                continue
            out.append(c)
            if rng.random() < duplicate:
                out.append(c)
    rng.shuffle(out)
    return out


def corrupt(data: bytes, rng: random.Random) -> bytes:
    """A report damaged the way files get damaged: truncated, or a length overwritten."""
    if rng.random() < 0.5:
        return data[: rng.randrange(1, len(data))]
    at = rng.randrange(68, len(data) - 4) & ~3
    return data[:at] + (0x7FFFFFF0).to_bytes(4, "little") + data[at + 4:]


def is_report(md: MQMD) -> bool:
    """True for activity reports and trace-route replies."""
    return md.msg_type in (mqc.MQMT_REPORT, mqc.MQMT_REPLY)
