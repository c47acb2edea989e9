"""The simulator writes activity trace; IBM's QM1 -> QM2 example followed end to end."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from mqroute.main import main
from pcf import mqc
from pcf.dmpmqmsg import DumpedMessage, write_file
from pcf.mqmd import MQMD
from traceroute.journeys import JourneyVerdict as V
from traceroute.journeys import Location, parse_activity_trace, reconstruct
from traceroute.sim.activity_trace import (
    TRACE_QUEUE,
    ActivityTracer,
    MqatError,
    parse_mqat_ini,
)
from traceroute.sim.mqi import SimConnection
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
TRACE_ON = EXAMPLE.replace("ALTER QMGR ACTIVREC(MSG)", "ALTER QMGR ACTVTRC(ON) ACTIVREC(MSG)")


def _sim(mqsc: str = TRACE_ON, **tracer) -> tuple[Simulator, ActivityTracer]:
    sim = Simulator(parse_mqsc(mqsc, source="qm1_qm2.mqsc"))
    return sim, ActivityTracer(sim, **tracer)


def _follow(tracer: ActivityTracer):
    return reconstruct(parse_activity_trace(md, data) for md, data in tracer.messages())


def test_ibm_example_traced_and_followed_end_to_end(tmp_path: Path, capsys) -> None:
    sim, tracer = _sim()
    put = sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"order 4711")
    sim.run()
    assert sim.get("QM2", "TARGET.Q", appl_name="amqsget") is not None
    sim.disconnect_all()
    assert {q for q, _, _ in tracer.written} == {"QM1", "QM2"}
    assert sim.depth("QM1", TRACE_QUEUE) == 2 and sim.depth("QM2", TRACE_QUEUE) == 2
    result = _follow(tracer)
    (j,) = result.journeys
    assert j.msg_id == put.msg_id and j.verdict == V.CONSUMED
    assert [(s.call.qmgr, s.call.conn.appl_name, s.role, s.queue, s.channel)
            for s in j.steps] == [
        ("QM1", "amqsput", "put", "QM2", None),
        ("QM1", "runmqchl", "mca_get", "QM2", "QM1.TO.QM2"),
        ("QM2", "amqrmppa", "mca_put", "TARGET.Q", "QM1.TO.QM2"),
        ("QM2", "amqsget", "get", "TARGET.Q", None)]
    assert j.last_location == Location("QM2", "TARGET.Q") and not result.holes
    # the same through `mqroute follow` on dumps of the two trace queues
    files = []
    for qm in ("QM2", "QM1"):
        path = tmp_path / f"{qm}.dmp"
        write_file(path, [DumpedMessage(md, d) for md, d in tracer.messages(qm)])
        files.append(str(path))
    assert main(["follow", "--json", *files]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["verdict"] == "consumed" and row["msg_id"] == put.msg_id.hex().upper()
    assert [p["operation"] for p in row["path"]] == ["MQPUT1", "MQGET", "MQPUT1", "MQGET"]


def test_stopped_channel_on_xmitq_then_in_order_after_start() -> None:
    sim, tracer = _sim()
    sim.stop_channel("QM1", "QM1.TO.QM2")
    sim.put("QM1", "TARG.AT.QM2", MQMD(), b"x")
    sim.run()
    sim.disconnect_all()
    (j,) = _follow(tracer).journeys
    assert j.verdict == V.ON_XMITQ and j.last_location == Location("QM1", "QM2")


def test_trace_records_content_and_levels() -> None:
    sim, tracer = _sim(mqat={"QM1": "AllActivityTrace:\nTraceLevel=HIGH\nTraceMessageData=5\n"})
    h = sim.open("QM1", "TARG.AT.QM2", appl_name="amqsput")
    h.put(MQMD(format="MQSTR"), b"hello world")
    h.close()
    sim.run()
    sim.disconnect_all()
    traces = [parse_activity_trace(md, d) for md, d in tracer.messages("QM1")]
    app = next(t for t in traces if t.conn.appl_name == "amqsput")
    assert [c.op_name for c in app.calls] == ["MQCONN", "MQOPEN", "MQPUT", "MQCLOSE", "MQDISC"]
    assert app.conn.detail == 3 and app.conn.environment == mqc.MQXE_OTHER
    put = app.calls[2]
    assert put.msg_data == b"hello" and put.mqmd is not None and put.pmo is not None
    assert put.mqmd.msg_id == put.msg_id and put.pmo.resolved_q_name == "TARGET.Q"
    assert (put.resolved_q_name, put.resolved_q_mgr, put.resolved_local_q_name) == \
        ("TARGET.Q", "QM2", "QM2")
    assert app.calls[0].connection_id == app.conn.conn_id
    mca = next(t for t in traces if t.conn.is_mca)
    assert mca.conn.detail == 3 and mca.conn.channel_name == "QM1.TO.QM2"
    get = next(c for c in mca.calls if c.op_name == "MQGET")
    assert get.xmitq_msg_id == put.msg_id and get.xmitq_remote_q_mgr == "QM2"
    assert get.gmo is not None and get.format == "MQXMIT"
    low_sim, low = _sim(mqat={"QM1": "AllActivityTrace:\nTraceLevel=LOW\n"})
    low_sim.put("QM1", "TARG.AT.QM2", MQMD(), b"x")
    low_sim.disconnect_all()
    (t,) = [parse_activity_trace(md, d) for md, d in low.messages("QM1")]
    assert t.calls[1].msg_id is None and t.calls[1].resolved_q_name == ""


def test_batching_by_count_and_interval_with_seqnumbers() -> None:
    sim, tracer = _sim(mqat={"QM1": "AllActivityTrace:\nActivityCount=3\nActivityInterval=0"})
    for _ in range(4):
        sim.put("QM1", "ACTIV.REPLY.Q", MQMD(), b"x", appl_name="batch")
    sim.disconnect_all()
    traces = [parse_activity_trace(md, d) for md, d in tracer.messages("QM1")
              if md.correl_id]
    mine = [t for t in traces if t.conn.appl_name == "batch"]
    assert [t.conn.seq_number for t in mine] == [0, 1]
    assert [len(t.calls) for t in mine] == [3, 3]  # CONN + 2 puts, 2 puts + DISC
    assert all(t.conn.conn_id == mine[0].conn.conn_id for t in mine)
    sim, tracer = _sim(mqat={"QM1": "AllActivityTrace:\nActivityCount=0\nActivityInterval=10"})
    sim.put("QM1", "ACTIV.REPLY.Q", MQMD(), b"x", appl_name="slow")
    sim.run(until=11)
    sim.put("QM1", "ACTIV.REPLY.Q", MQMD(), b"x", appl_name="slow")
    assert len(tracer.messages("QM1")) == 1  # written at the first call after 10 s
    sim.disconnect_all()
    assert [len(parse_activity_trace(md, d).calls) for md, d in tracer.messages("QM1")] == \
        [2, 2]


def test_byte_order_per_queue_manager() -> None:
    ebcdic = TRACE_ON.replace("* Queue manager name: QM2\nALTER QMGR",
                              "* Queue manager name: QM2\nALTER QMGR CCSID(500)")
    sim, tracer = _sim(ebcdic, encoding={"QM1": mqc.MQENC_S390})
    sim.put("QM1", "TARG.AT.QM2", MQMD(), b"x")
    sim.run()
    sim.get("QM2", "TARGET.Q")
    sim.disconnect_all()
    encodings = {q: md.encoding for q, md, _ in tracer.written}
    assert encodings == {"QM1": mqc.MQENC_S390, "QM2": mqc.MQENC_S390}
    assert {md.coded_char_set_id for q, md, _ in tracer.written if q == "QM2"} == {500}
    assert all(d[:4] == b"\x00\x00\x00\x1a" for _, _, d in tracer.written)  # big-endian
    (j,) = _follow(tracer).journeys
    assert j.verdict == V.CONSUMED


def test_actvtrc_off_and_mqat_rules() -> None:
    sim, tracer = _sim(EXAMPLE)  # ACTVTRC not set: nothing traced
    sim.put("QM1", "TARG.AT.QM2", MQMD(), b"x")
    sim.run()
    sim.disconnect_all()
    assert tracer.written == []
    ini = """
# the seed's example
AllActivityTrace:
   ActivityInterval=1
   ActivityCount=100
   TraceLevel=MEDIUM ; comment
   TraceMessageData=0
   StopOnGetTraceMsg=ON
ApplicationTrace:
   ApplClass=USER
   ApplName=amqs*
   Trace=ON
   TraceLevel=HIGH
   TraceMessageData=1000
ApplicationTrace:
   ApplClass=USER
   ApplName=amqsact*
   Trace=OFF
"""
    cfg = parse_mqat_ini(ini)

    def conn(name: str, mca: bool = False) -> SimConnection:
        return SimConnection("QM1", name, 6, bytes(24), 1, mca)

    assert cfg.settings_for(conn("/opt/mqm/samp/bin/amqsput"), False).level == 3
    assert cfg.settings_for(conn("amqsput"), False).message_data == 1000
    assert cfg.settings_for(conn("amqsactz"), True) is None  # more specific rule wins
    assert cfg.settings_for(conn("other"), False) is None
    assert cfg.settings_for(conn("other"), True).level == 2
    assert cfg.settings_for(conn("amqsput", mca=True), False) is None  # ApplClass USER
    assert cfg.settings_for(conn("runmqchl", mca=True), True).level == 2
    with pytest.raises(MqatError, match=r"mqat\.ini:2"):
        parse_mqat_ini("AllActivityTrace:\nTraceLevel=LOUD\n")
    with pytest.raises(MqatError, match=":1"):
        parse_mqat_ini("ActivityCount=5\n")


def test_stop_on_get_trace_msg() -> None:
    sim, tracer = _sim(mqat={"QM1": "AllActivityTrace:\nActivityCount=1\n"})
    sim.put("QM1", "ACTIV.REPLY.Q", MQMD(), b"x", appl_name="app")
    sim.get("QM1", TRACE_QUEUE, appl_name="amqsact")
    sim.disconnect_all()
    reader = [parse_activity_trace(md, d) for md, d in tracer.messages("QM1")]
    calls = [c.op_name for t in reader if t.conn.appl_name == "amqsact" for c in t.calls]
    assert "MQGET" not in calls and "MQCONN" in calls


@pytest.mark.parametrize(("actvtrc", "actvcono", "option", "ini", "traced"), [
    ("OFF", "ENABLED", mqc.MQCNO_ACTIVITY_TRACE_ENABLED, None, True),
    ("OFF", "DISABLED", mqc.MQCNO_ACTIVITY_TRACE_ENABLED, None, False),  # options ignored
    ("ON", "ENABLED", mqc.MQCNO_ACTIVITY_TRACE_DISABLED, None, False),
    ("ON", "DISABLED", mqc.MQCNO_ACTIVITY_TRACE_DISABLED, None, True),
    ("ON", "ENABLED", mqc.MQCNO_ACTIVITY_TRACE_DISABLED,
     "ApplicationTrace:\nApplName=app\nTrace=ON\n", True),  # mqat.ini has the last word
])
def test_mqcno_options_under_actvcono(actvtrc, actvcono, option, ini, traced) -> None:
    mqsc = EXAMPLE.replace("ALTER QMGR ACTIVREC(MSG)",
                           f"ALTER QMGR ACTVTRC({actvtrc}) ACTVCONO({actvcono}) ACTIVREC(MSG)")
    sim, tracer = _sim(mqsc, mqat={"QM1": ini} if ini else None)
    sim.connection("QM1", "app", options=option)
    sim.put("QM1", "ACTIV.REPLY.Q", MQMD(), b"x", appl_name="app")
    sim.disconnect_all()
    appls = {parse_activity_trace(md, d).conn.appl_name for md, d in tracer.messages("QM1")}
    assert ("app" in appls) is traced
