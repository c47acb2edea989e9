"""calls/ and journeys/ tables: Spark gives the single-process rows, which agree with follow."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from graph.pipeline.journeylocal import run_local
from graph.pipeline.journeys import build_journeys, decode_calls
from pcf.dmpmqmsg import DumpedMessage, write_file
from traceroute.journeys import parse_activity_trace, reconstruct
from traceroute.journeys.rows import call_rows, journeys_of_rows, link_reply_rows
from traceroute.sim.activity_trace import ActivityTracer
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator
from traceroute.sim.workload import Consumer, DistributionList, Producer, Workload

EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
MQSC = EXAMPLE.replace("ALTER QMGR ACTIVREC(MSG)", "ALTER QMGR ACTVTRC(ON) ACTIVREC(MSG)") + """
* Queue manager name: QM1
DEFINE QLOCAL('LQ') REPLACE
DEFINE QLOCAL('R.Q') REPLACE
DEFINE QREMOTE('TO.NOWHERE') RNAME('NOPE') RQMNAME('QM2') XMITQ('QM2') REPLACE
"""


def _traced(tmp: Path) -> tuple[list[str], list]:
    sim = Simulator(parse_mqsc(MQSC, source="w.mqsc"), seed=3)
    tracer = ActivityTracer(sim, mqat={q: "AllActivityTrace:\nActivityCount=7\n"
                                       for q in ("QM1", "QM2")})
    Workload(sim).add(
        Producer("QM1", "TARG.AT.QM2", count=20, interval=0.3, reply_to_q="R.Q"),
        Consumer("QM2", "TARGET.Q", reply=True, interval=1.0, appl_name="server"),
        Consumer("QM1", "R.Q", interval=4.0, appl_name="client", stop_at=6.0),
        Producer("QM1", "LQ", count=5, put1=False, appl_name="batch"),
        Producer("QM1", "TO.NOWHERE", count=2, appl_name="typo"),
        Producer("QM1", "NO.SUCH.Q", appl_name="lost"),
        Producer("QM1", "NO.SUCH.Q", put1=False, appl_name="lostopen"),  # MQOPEN fails
        DistributionList("QM1", ["LQ", ("TARGET.Q", "QM2")], count=2)).run(until=12)
    sim.stop_channel("QM1", "QM1.TO.QM2")
    Workload(sim).add(Producer("QM1", "TARG.AT.QM2", count=3, appl_name="late")).run(until=14)
    files = []
    for qm in ("QM1", "QM2"):
        path = tmp / f"{qm}.dmp"
        write_file(path, [DumpedMessage(md, d) for md, d in tracer.messages(qm)])
        files.append(str(path))
    return files, tracer.messages()


def _key(row: dict) -> tuple:
    return tuple(str(v) for v in row.values())


def test_local_rows_agree_with_follow(tmp_path: Path) -> None:
    files, messages = _traced(tmp_path)
    calls, journeys = run_local(files)
    whole = reconstruct(parse_activity_trace(md, d) for md, d in messages)
    assert Counter(r["verdict"] for r in journeys) == Counter(
        str(j.verdict) for j in whole.journeys)
    assert {r["msg_id"]: r["reply_to"] for r in journeys} == {
        j.msg_id_hex: (j.reply_to.hex().upper() if j.reply_to else None)
        for j in whole.journeys}
    assert len(calls) == whole.calls
    verdicts = Counter(r["verdict"] for r in journeys)
    assert {"consumed", "on_queue", "on_xmitq", "dead_lettered", "put_failed"} <= set(verdicts)
    failed = {r["applications"]: r["last_queue"] for r in journeys
              if r["verdict"] == "put_failed"}
    assert failed["lostopen"] == failed["lost"] == "NO.SUCH.Q"  # MQOPEN as MQPUT1
    assert sum(1 for r in journeys if r["reply_to"]) >= 10
    hopped = [r for r in journeys if r["hops"] == 1 and r["verdict"] == "consumed"]
    assert hopped and all(r["first_time"] <= r["last_time"] for r in hopped)


def test_per_key_partitions_give_the_same_rows(tmp_path: Path) -> None:
    """Any partitioning by journey key gives the rows of one reconstruction."""
    _files, messages = _traced(tmp_path)
    calls = [r for md, d in messages for r in call_rows(parse_activity_trace(md, d))]
    whole = journeys_of_rows(calls)
    link_reply_rows(whole)
    for parts in (2, 5):
        split: list[dict] = []
        for p in range(parts):
            split += journeys_of_rows(r for r in calls if r["journey_key"]
                                      and hash(r["journey_key"]) % parts == p)
        link_reply_rows(split)
        assert sorted(map(_key, split)) == sorted(map(_key, whole))


@pytest.mark.slow
def test_spark_gives_the_local_rows(spark, tmp_path: Path) -> None:
    from graph.pipeline.inputs import read_inputs

    files, _ = _traced(tmp_path)
    calls_local, journeys_local = run_local(files)
    raw = read_inputs(spark, files, split_bytes=4096)
    calls = decode_calls(raw).persist()
    journeys = build_journeys(calls, partitions=3)
    got = [r.asDict() for r in journeys.collect()]
    assert sorted(map(_key, got)) == sorted(map(_key, journeys_local))
    assert calls.count() == len(calls_local)
    out = tmp_path / "out"
    journeys.write.parquet(str(out / "journeys"))
    assert spark.read.parquet(str(out / "journeys")).count() == len(journeys_local)
    calls.unpersist()


@pytest.mark.slow
def test_analyze_writes_calls_and_journeys(spark, tmp_path: Path) -> None:
    from graph.pipeline.job import run

    files, _ = _traced(tmp_path)
    _calls, journeys_local = run_local(files)
    out = tmp_path / "analyzed"
    summary = run(spark, files, str(out))
    assert summary.rejected == 0
    assert summary.journeys == dict(Counter(r["verdict"] for r in journeys_local))
    table = [r.asDict() for r in spark.read.parquet(str(out / "journeys")).collect()]
    assert sorted(map(_key, ({**r, "verdict": r["verdict"]} for r in table))) == sorted(
        map(_key, ({k: r[k] for k in table[0]} for r in journeys_local)))
    assert spark.read.parquet(str(out / "calls")).count() == len(_calls)


def test_distribution_list_rows_one_per_queue() -> None:
    from pcf.mqmd import unpack
    from tests.traceroute.journeys.scenarios import M
    from tests.traceroute.journeys.spec_build import OPEN, PUT, op, trace_message

    dl_open = [(8014, "g", [(3046, "s", "A.Q")]), (8014, "g", [(3046, "s", "B.Q")])]
    dl_put = [(8014, "g", [(7013, "b", M)]), (8014, "g", [(7013, "b", M[:-1] + b"\x09")])]
    md, data = trace_message("QM1", "amqsdl", [op(OPEN, hobj=4, extra=dl_open),
                                               op(PUT, hobj=4, extra=dl_put)])
    rows = call_rows(parse_activity_trace(unpack(md), data))
    puts = [r for r in rows if r["operation"] == "MQPUT"]
    assert [(r["object_name"], r["journey_key"][-2:]) for r in puts] == [("A.Q", "01"),
                                                                         ("B.Q", "09")]
    assert sorted(r["verdict"] for r in journeys_of_rows(rows)) == ["on_queue", "on_queue"]
