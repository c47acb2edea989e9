"""Every message the simulator writes has an MQMD that describes its own bytes.

IBM's rule for report messages: a report's Format, Encoding and CodedCharSetId describe the
data the report actually carries. The property: for every message the simulator writes
(COA, COD, exception, expiration reports, dead-letter copies, activity reports, trace-route
replies, transmission-queue messages, events, statistics, accounting, activity trace),
reading the data under that message's own MQMD gives a tree, with an independent reader
(tests/support/mqwalk.py) and with ours, for senders in both byte orders and queue
managers in ASCII and EBCDIC code pages. Also: simulated MsgIds are unique unless a seed
is given.
"""

from __future__ import annotations

from dataclasses import replace
from importlib import resources

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pcf
from pcf import mqc
from pcf.mqmd import MQMD
from tests.support.mqwalk import WalkError, walk
from traceroute.records.parse import decode_activity
from traceroute.records.tracemsg import TraceOptions, build_trace_message
from traceroute.sim.activity_trace import ActivityTracer
from traceroute.sim.events import SimEvents
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator
from traceroute.sim.statistics import StatisticsCollector

EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
CCSIDS = [819, 1208, 500, 1047, 37, 1252]
ENCODINGS = [mqc.MQENC_REVERSED, mqc.MQENC_NORMAL, 785]  # little, big, z/OS
_REPORTS = {  # option -> (plain, with the first 100 bytes, with all the data)
    "coa": (mqc.MQRO_COA, mqc.MQRO_COA_WITH_DATA, mqc.MQRO_COA_WITH_FULL_DATA),
    "cod": (mqc.MQRO_COD, mqc.MQRO_COD_WITH_DATA, mqc.MQRO_COD_WITH_FULL_DATA),
    "exc": (mqc.MQRO_EXCEPTION, mqc.MQRO_EXCEPTION_WITH_DATA,
            mqc.MQRO_EXCEPTION_WITH_FULL_DATA),
    "exp": (mqc.MQRO_EXPIRATION, mqc.MQRO_EXPIRATION_WITH_DATA,
            mqc.MQRO_EXPIRATION_WITH_FULL_DATA),
}
_FEEDBACK_REPORTS = (mqc.MQFB_COA, mqc.MQFB_COD, mqc.MQFB_EXPIRATION)

SETTINGS = """
* Queue manager name: QM1
ALTER QMGR CCSID({c1}) ACTVTRC(ON) CHLEV(ENABLED) PERFMEV(ENABLED) STATQ(ON) STATCHL(MEDIUM)
ALTER QMGR STATMQI(ON) ACCTMQI(ON) ACCTQ(ON) STATINT(60) ACCTINT(100000)
DEFINE QREMOTE('NOWHERE.AT.QM2') RNAME('NO.SUCH.Q') RQMNAME('QM2') XMITQ('QM2') REPLACE
DEFINE QLOCAL('LOCAL.Q') REPLACE
* Queue manager name: QM2
ALTER QMGR CCSID({c2}) ACTVTRC(ON) CHLEV(ENABLED) STATQ(ON) STATCHL(HIGH) ACCTQ(ON)
ALTER QMGR STATINT(60) ROUTEREC({routerec}) ACTIVREC({activrec})
"""


def _report(levels: dict[str, int]) -> int:
    value = 0
    for name, level in levels.items():
        if level:
            value |= _REPORTS[name][level - 1]
    return value


def _written(sim: Simulator) -> list[tuple[str, str, MQMD, bytes]]:
    """Every (qmgr, queue, MQMD, data) `sim` stores from now on (wraps its one store)."""
    seen: list[tuple[str, str, MQMD, bytes]] = []
    store = sim._store

    def recording(qm, queue, md, data, *args, **kw):
        seen.append((qm.name, queue, md, data))
        return store(qm, queue, md, data, *args, **kw)

    sim._store = recording  # type: ignore[method-assign]
    return seen


def _run_estate(c1: int, c2: int, encoding: int, ccsid: int, levels: dict[str, int],
                user_data: bool, routerec: str, activrec: str):
    text = EXAMPLE + SETTINGS.format(c1=c1, c2=c2, routerec=routerec, activrec=activrec)
    sim = Simulator(parse_mqsc(text, source="estate.mqsc"), seed=5)
    seen = _written(sim)
    SimEvents(sim)
    collector = StatisticsCollector(sim)
    ActivityTracer(sim)
    report = _report(levels)
    opts = TraceOptions.from_dspmqrte(q="TARG.AT.QM2", rq="TR.REPLY.Q", ac=True, ar=True,
                                      d="yes")
    opts = replace(opts, report=opts.report | report)
    extra = {"user_data": "order 4711 ".encode("cp500" if ccsid in (500, 37) else "latin-1")
             * 12, "user_format": "MQSTR"} if user_data else {}
    md, data = build_trace_message(opts, msg_id=bytes(24), encoding=encoding, ccsid=ccsid,
                                   **extra)
    assert sim.put("QM1", "TARG.AT.QM2", md, data).ok
    # an application's message: text in its CCSID, every report it may ask for
    text_md = MQMD(format="MQSTR", report=report, reply_to_q="TR.REPLY.Q",
                   encoding=encoding, coded_char_set_id=ccsid)
    body = "price: 12 EUR ".encode("cp500" if ccsid in (500, 37, 1047) else "latin-1") * 10
    assert sim.put("QM1", "TARG.AT.QM2", text_md, body).ok
    # a PCF message to a queue QM2 does not have: exception report + dead-letter copy
    assert sim.put("QM1", "NOWHERE.AT.QM2", md, data).ok
    sim.run()
    while sim.get("QM2", "TARGET.Q", appl_name="consumer") is not None:
        pass  # COD reports
    # expiry: one waits on the transmission queue of a stopped channel, one on a local queue
    sim.stop_channel("QM1", "QM1.TO.QM2")
    short = MQMD(format="MQSTR", report=report, reply_to_q="TR.REPLY.Q", expiry=1,
                 encoding=encoding, coded_char_set_id=ccsid)
    assert sim.put("QM1", "TARG.AT.QM2", short, body).ok
    assert sim.put("QM1", "LOCAL.Q", short, body).ok
    sim.run(until=sim.now + 5)
    assert sim.get("QM1", "LOCAL.Q") is None
    sim.start_channel("QM1", "QM1.TO.QM2")
    sim.run()
    sim.disconnect_all()
    stats = collector.finish()
    sim.run()
    left = [(qm, q, md, d) for (qm, q), msgs in sim.queues.items() for md, d in
            ((s.md, s.data) for s in msgs)]
    return seen + [(w.qmgr, w.queue, w.md, w.data) for w in stats] + left


def _check(qmgr: str, queue: str, md: MQMD, data: bytes) -> None:
    where = f"{qmgr} {queue} {md.format!r} enc {md.encoding} ccsid {md.coded_char_set_id}"
    partial = md.msg_type == mqc.MQMT_REPORT and md.feedback != mqc.MQFB_ACTIVITY
    try:
        tree = walk(md.format, md.encoding, md.coded_char_set_id, data, truncated_ok=partial)
    except WalkError as e:
        raise AssertionError(f"{where}: {e}") from e
    assert tree, where
    fmt = md.format.rstrip()
    if fmt in ("MQADMIN", "MQEVENT", "MQHEPCF", "MQDEAD") and not partial:
        try:  # ours reads it the same way (a dead-letter copy: what its MQDLH describes)
            message, _ = decode_activity(md, data)
        except pcf.PCFError as e:
            raise AssertionError(f"{where}: {e}") from e
        (count,) = [entry[1][6] for entry in tree[:3] if entry[0] == "MQCFH"]
        assert count == len(message.parameters), where


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CCSIDS), st.sampled_from(CCSIDS), st.sampled_from(ENCODINGS),
       st.sampled_from(CCSIDS),
       st.fixed_dictionaries({k: st.integers(0, 3) for k in _REPORTS}), st.booleans(),
       st.sampled_from(["MSG", "QUEUE"]), st.sampled_from(["MSG", "QUEUE"]))
def test_every_message_the_simulator_writes_decodes_under_its_own_mqmd(
        c1, c2, encoding, ccsid, levels, user_data, routerec, activrec):
    written = _run_estate(c1, c2, encoding, ccsid, levels, user_data, routerec, activrec)
    kinds = {(md.format.rstrip(), md.msg_type, md.feedback) for _, _, md, _ in written}
    assert len(written) > 20 and ("MQADMIN", mqc.MQMT_DATAGRAM, 0) in kinds
    for qmgr, queue, md, data in written:
        _check(qmgr, queue, md, data)


@pytest.mark.parametrize(("c1", "c2", "encoding"), [(819, 500, mqc.MQENC_REVERSED),
                                                     (500, 819, 785), (1047, 1208, 785)])
def test_every_kind_is_written_and_described(c1, c2, encoding):
    """The fixed cases the property rests on: each kind of message really occurs."""
    levels = {"coa": 3, "cod": 2, "exc": 3, "exp": 3}
    written = _run_estate(c1, c2, encoding, c1, levels, True, "MSG", "MSG")
    formats = {md.format.rstrip() for _, _, md, _ in written}
    assert {"MQADMIN", "MQHEPCF", "MQXMIT", "MQDEAD", "MQEVENT", "MQSTR"} <= formats
    feedback = {md.feedback for _, _, md, _ in written if md.msg_type == mqc.MQMT_REPORT}
    assert {mqc.MQFB_COA, mqc.MQFB_COD, mqc.MQFB_EXPIRATION, mqc.MQFB_ACTIVITY,
            mqc.MQRC_UNKNOWN_OBJECT_NAME} <= feedback
    assert any(md.msg_type == mqc.MQMT_REPLY for _, _, md, _ in written)
    for qmgr, queue, md, data in written:
        _check(qmgr, queue, md, data)


def test_the_coa_of_a_little_endian_trace_on_an_ebcdic_queue_manager():
    """The case an independent decoder found: QM2 (CCSID 500, big-endian) reports COA on a
    little-endian trace-route message: the report is the original's bytes, so its MQMD says
    MQADMIN, 546 and 819 (before: 785 and 500 over little-endian bytes)."""
    written = _run_estate(819, 500, mqc.MQENC_REVERSED, 819, {"coa": 3, "cod": 0, "exc": 0,
                                                             "exp": 0}, False, "MSG", "MSG")
    coas = [md for _, queue, md, _ in written if md.feedback == mqc.MQFB_COA
            and queue == "TR.REPLY.Q" and md.reply_to_q_mgr.rstrip() == "QM2"
            and md.format.rstrip() == "MQADMIN"]
    assert coas and all((md.encoding, md.coded_char_set_id) == (mqc.MQENC_REVERSED, 819)
                        for md in coas)


def test_msg_ids_are_unique_across_runs_unless_seeded():
    def ids(**kw):
        sim = Simulator(parse_mqsc(EXAMPLE), **kw)
        msg_ids = [sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"x").msg_id
                   for _ in range(3)]
        conn = sim.connection("QM1", "app").conn_id
        return msg_ids, conn

    runs = [ids() for _ in range(5)]
    every = [m for msg_ids, _ in runs for m in msg_ids]
    assert len(set(every)) == len(every) == 15
    assert len({conn for _, conn in runs}) == 5
    assert all(m.startswith(b"AMQ QM1         ") and len(m) == 24 for m in every)
    assert ids(seed=3) == ids(seed=3) and ids(seed=3) != ids(seed=4)
