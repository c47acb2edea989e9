"""Inputs of every kind whose names are hostile: a simulated day, then every name renamed.

`simulated_day()` runs IBM's QM1/QM2 example with statistics, accounting, activity trace,
activity reports and events switched on, and returns what lands on the system queues.
`hostile_messages()` decodes each PCF message, gives every name-like string (queue manager,
queue, channel, application names ...) a hostile tail (`rename`), consistently, so routes
and journeys still join up, and encodes it again (UTF-8 strings). Dates, times and ids are
left alone, so every command still reads the messages and shows the names.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from importlib import resources

import pcf
from pcf import mqc
from pcf.model import (
    Group,
    Integer,
    Integer64,
    Integer64List,
    IntegerList,
    String,
    StringList,
)
from pcf.mqmd import MQMD

#: Put after every name: terminal controls (CSI colour, OSC 8 hyperlink, C1 CSI, a carriage
#: return, bidi override), a NUL, and a line break followed by a forged line.
TAIL = "\x1b[31m\x1b]8;;http://evil/\x07\x9b2J\u202e\r\x00\nFORGED mqroute: ok"
FORGED = "FORGED"
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9._/%\\ -]*")
#: Strings that are not names (kept as they are so the data still means what it meant).
_KEEP = {"MQSTR", "MQADMIN", "MQEVENT", "MQPCF", "MQHRF2", "MQDEAD", "MQXMIT"}

EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
SETTINGS = """
* Queue manager name: QM1
ALTER QMGR ACTIVREC(QUEUE) ACTVTRC(ON) STATQ(ON) STATCHL(MEDIUM) STATMQI(ON) ACCTMQI(ON) +
      ACCTQ(ON) STATINT(60) ACCTINT(100000) CHLEV(ENABLED) PERFMEV(ENABLED)
DEFINE QLOCAL('LOCAL.Q') MAXDEPTH(3) QDPMAXEV(ENABLED) QDPHIEV(ENABLED) QDEPTHHI(50) REPLACE
* Queue manager name: QM2
ALTER QMGR ACTIVREC(QUEUE) ACTVTRC(ON) STATQ(ON) STATCHL(HIGH) ACCTQ(ON) STATINT(60) +
      PERFMEV(ENABLED) CHLEV(ENABLED)
"""


def rename(text: str) -> str:
    """A name with the hostile tail (other strings as they are)."""
    clean = text.rstrip(" \x00")
    if not clean or clean in _KEEP or not _NAME.fullmatch(clean) or clean.isdigit():
        return text
    return clean + TAIL


def _renamed(params: list) -> list:
    out = []
    for p in params:
        if isinstance(p, Group):
            out.append(Group(p.parameter, _renamed(p.parameters)))
        elif isinstance(p, String) and p.parameter not in _NOT_NAMES:
            out.append(String(p.parameter, rename(p.value), 1208))
        elif isinstance(p, StringList):
            out.append(StringList(p.parameter, [rename(v) for v in p.value], 1208))
        else:
            out.append(p)
    return out


#: String parameters that are not names.
_NOT_NAMES = {mqc.MQCACF_OPERATION_DATE, mqc.MQCACF_OPERATION_TIME, mqc.MQCAMO_START_DATE,
              mqc.MQCAMO_START_TIME, mqc.MQCAMO_END_DATE, mqc.MQCAMO_END_TIME,
              mqc.MQCA_CREATION_DATE, mqc.MQCA_CREATION_TIME, mqc.MQCA_ALTERATION_DATE,
              mqc.MQCA_ALTERATION_TIME}


def hostile(md: MQMD, data: bytes) -> tuple[MQMD, bytes]:
    """The message with every name given the hostile tail (a non-PCF message as it is)."""
    if not pcf.is_pcf_format(md.format):
        return md, data
    message = pcf.decode(data, encoding=md.encoding, ccsid=md.coded_char_set_id, fmt=md.format)
    message = replace(message, parameters=_renamed(message.parameters))
    return replace(md, coded_char_set_id=1208), pcf.encode(message, ccsid=1208)


@cache
def simulated_day() -> dict[str, tuple[tuple[MQMD, bytes], ...]]:
    """What the system queues hold after a short day on QM1/QM2: `reports` (activity
    reports and trace-route replies), `trace` (activity trace), `stats` (statistics and
    accounting), `events` (performance, channel events)."""
    from traceroute.sim.activity_trace import ActivityTracer
    from traceroute.sim.events import SimEvents
    from traceroute.sim.mqsc import parse_mqsc
    from traceroute.sim.simulator import ACTIVITY_QUEUE, Simulator
    from traceroute.sim.statistics import (
        ACCOUNTING_QUEUE,
        STATISTICS_QUEUE,
        StatisticsCollector,
    )
    from traceroute.sim.workload import Consumer, Producer, Workload

    sim = Simulator(parse_mqsc(EXAMPLE + SETTINGS, source="day.mqsc"), seed=3)
    collector = StatisticsCollector(sim)
    tracer = ActivityTracer(sim)
    SimEvents(sim)
    for i in range(4):
        md = MQMD(format="MQSTR", report=mqc.MQRO_ACTIVITY, persistence=i % 2,
                  reply_to_q="ACTIV.REPLY.Q", reply_to_q_mgr="QM1")
        sim.put("QM1", "TARG.AT.QM2", md, b"x" * 20, appl_name="payments")
    Workload(sim).add(Producer("QM1", "LOCAL.Q", count=5, interval=1.0),
                      Consumer("QM1", "LOCAL.Q", interval=4.0)).run(until=20)
    sim.stop_channel("QM1", "QM1.TO.QM2")
    sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR", report=mqc.MQRO_ACTIVITY,
                                       reply_to_q="ACTIV.REPLY.Q"), b"stuck")
    sim.run(until=sim.now + 70)
    written = collector.finish()

    def drain(qmgr: str, queue: str) -> list[tuple[MQMD, bytes]]:
        out = []
        while (got := sim.get(qmgr, queue, appl_name="amqsevt")) is not None:
            out.append(got)
        return out

    events = [m for qm in ("QM1", "QM2") for q in ("SYSTEM.ADMIN.PERFM.EVENT",
                                                   "SYSTEM.ADMIN.CHANNEL.EVENT")
              for m in drain(qm, q)]
    reports = [m for qm in ("QM1", "QM2") for q in (ACTIVITY_QUEUE, "ACTIV.REPLY.Q")
               for m in sim.browse(qm, q)]
    stats = [(w.md, w.data) for w in written]
    del STATISTICS_QUEUE, ACCOUNTING_QUEUE
    return {"reports": tuple(reports), "trace": tuple(tracer.messages()),
            "stats": tuple(stats), "events": tuple(events)}


def hostile_day() -> dict[str, list[tuple[MQMD, bytes]]]:
    """`simulated_day()` with every name hostile."""
    return {kind: [hostile(md, data) for md, data in messages]
            for kind, messages in simulated_day().items()}


#: The numbers a message may claim: MQLONG's and MQINT64's ends.
EXTREMES = (2**31 - 1, -(2**31), 2**63 - 1)


def _extreme_params(params: list, pick) -> list:
    out = []
    for p in params:
        if isinstance(p, Group):
            out.append(Group(p.parameter, _extreme_params(p.parameters, pick)))
        elif isinstance(p, Integer):
            out.append(Integer(p.parameter, pick(32)))
        elif isinstance(p, Integer64):
            out.append(Integer64(p.parameter, pick(64)))
        elif isinstance(p, IntegerList):
            out.append(IntegerList(p.parameter, [pick(32) for _ in p.value]))
        elif isinstance(p, Integer64List):
            out.append(Integer64List(p.parameter, [pick(64) for _ in p.value]))
        else:
            out.append(p)
    return out


def extreme(md: MQMD, data: bytes, *, seed: int = 0) -> tuple[MQMD, bytes]:
    """The message with every number it claims (integers, lists, MsgSeqNumber) at an
    extreme: what a 3 KB message may say, it says."""
    import random

    if not pcf.is_pcf_format(md.format):
        return md, data
    rnd = random.Random(seed)

    def pick(bits: int) -> int:
        return rnd.choice(EXTREMES if bits == 64 else EXTREMES[:2])

    message = pcf.decode(data, encoding=md.encoding, ccsid=md.coded_char_set_id, fmt=md.format)
    header = replace(message.header, msg_seq_number=2**31 - 1, control=mqc.MQCFC_NOT_LAST)
    message = replace(message, header=header,
                      parameters=_extreme_params(message.parameters, pick))
    return md, pcf.encode(message)


def extreme_day(seed: int = 0) -> dict[str, list[tuple[MQMD, bytes]]]:
    """`simulated_day()` with every number at an extreme."""
    return {kind: [extreme(md, data, seed=seed + i) for i, (md, data) in enumerate(messages)]
            for kind, messages in simulated_day().items()}


def _set_strings(params: list, values: dict) -> list:
    out = []
    for p in params:
        if isinstance(p, Group):
            out.append(Group(p.parameter, _set_strings(p.parameters, values)))
        elif isinstance(p, String) and p.parameter in values:
            out.append(String(p.parameter, values[p.parameter], 1208))
        elif isinstance(p, Integer | Integer64) and p.parameter in values:
            out.append(type(p)(p.parameter, values[p.parameter]))
        else:
            out.append(p)
    return out


def with_strings(md: MQMD, data: bytes, values: dict[int, str | int]) -> tuple[MQMD, bytes]:
    """The message with every string (integer) parameter of these ids set to these values
    (strings in UTF-8)."""
    message = pcf.decode(data, encoding=md.encoding, ccsid=md.coded_char_set_id, fmt=md.format)
    message = replace(message, parameters=_set_strings(message.parameters, values))
    return replace(md, coded_char_set_id=1208), pcf.encode(message, ccsid=1208)
