"""The Spark pipeline gives the single-process answers, reports rejects, reads any split."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graph import pipeline
from graph.pipeline.dumpsplit import read_range, splits
from graph.pipeline.local import run_local
from pcf import dmpmqmsg
from pcf.mqmd import MQMD
from traceroute.sim.corpus import corpus, corrupt

pytestmark = pytest.mark.slow


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.binary(max_size=120), st.booleans()), min_size=1, max_size=25),
       st.integers(1, 400), st.integers(1, 64))
def test_every_split_reads_each_message_once(tmp_path_factory, messages, size, width):
    items = [dmpmqmsg.DumpedMessage(None if no_md else MQMD(format="MQSTR",
                                                             msg_id=bytes([n % 256]) * 24),
                                    data) for n, (data, no_md) in enumerate(messages)]
    path = tmp_path_factory.mktemp("d") / "m.dmp"
    path.write_text(dmpmqmsg.write(items, width=width), encoding="latin-1")
    got = [e for s in splits([str(path)], size) for e in read_range(s)]
    assert [(e.md, e.data) for e in got] == [(m.md, m.data) for m in items]
    assert len({e.offset for e in got}) == len(got)


@pytest.fixture(scope="module")
def messy_corpus(tmp_path_factory):
    """~2,500 collected messages of every verdict in three dumps, plus a corrupt dump."""
    folder = tmp_path_factory.mktemp("corpus")
    items = corpus(100, seed=11)
    rng = random.Random(5)
    thirds = [items[i::3] for i in range(3)]
    for n, part in enumerate(thirds):
        (folder / f"activity{n}.dmp").write_text(
            dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in part],
                           qmgr="QM1", queue="ACTIV.REPLY.Q"), encoding="latin-1")
    bad = [dmpmqmsg.DumpedMessage(c.md, corrupt(c.data, rng)) for c in items[:5]]
    text = dmpmqmsg.write(bad + [dmpmqmsg.DumpedMessage(c.md, c.data) for c in items[5:8]])
    (folder / "damaged.dmp").write_text(text.replace("A PRI", "A PRI x", 1),
                                        encoding="latin-1")
    (folder / "raw.bin").write_bytes(items[9].data)
    return folder, items


def _by_id(rows):
    return {r["correl_id"]: r for r in rows}


def test_spark_routes_equal_single_process_routes(spark, messy_corpus, tmp_path):
    folder, _ = messy_corpus
    local = run_local([str(folder)])
    summary = pipeline.run(spark, [str(folder)], str(tmp_path / "out"), split_bytes=1 << 20)
    routes = spark.read.parquet(str(tmp_path / "out" / "routes"))
    spark_rows = [r.asDict() for r in routes.collect()]
    assert len(spark_rows) == len(local.routes) > 600
    cols = [c for c, _ in pipeline.ROUTE_COLUMNS]
    assert {k: {c: v[c] for c in cols} for k, v in _by_id(spark_rows).items()} == \
        {k: {c: v[c] for c in cols} for k, v in _by_id(local.routes).items()}
    verdicts = set(summary.verdicts)
    assert {"delivered", "discarded_at_target", "waiting_on_xmitq", "max_activities",
            "dead_lettered", "not_forwarded", "incomplete"} <= verdicts
    hops = spark.read.parquet(str(tmp_path / "out" / "hops"))
    assert hops.count() == len(local.hops)
    # rejects: the corrupt reports and the bad dump line, with where and why
    rejects = [r.asDict() for r in
               spark.read.parquet(str(tmp_path / "out" / "rejects")).collect()]
    assert summary.rejected == len(rejects) == len(local.rejects) >= 3
    assert sorted((r["position"], r["error"]) for r in rejects) == \
        sorted((r["position"], r["error"]) for r in local.rejects)
    assert all(r["source"].endswith("damaged.dmp") for r in rejects)
    assert any("A PRI" in r["error"] for r in rejects)  # the bad dump line
    assert sum("PCFError" in r["error"] for r in rejects) >= 2  # damaged reports
    assert summary.messages == local.messages


def test_operations_table_and_partitions(spark, messy_corpus, tmp_path):
    folder, _ = messy_corpus
    pipeline.run(spark, [str(folder)], str(tmp_path / "out"))
    ops = spark.read.parquet(str(tmp_path / "out" / "operations"))
    names = set(ops.columns)
    assert {"correl_id", "report_msg_id", "activity_index", "recorded", "operation",
            "queue_manager", "channel", "xmit_queue", "feedback", "date"} <= names
    assert os.path.isdir(tmp_path / "out" / "operations" / "date=2026-11-22")
    assert any(p.startswith("verdict=") for p in os.listdir(tmp_path / "out" / "routes"))


def test_reports_only_input_still_writes_every_table(spark, messy_corpus, tmp_path):
    """No statistics, events or activity trace in the input: their stages are skipped (no
    Spark job), but their tables are there, empty, with their columns and Spark's types."""
    from graph.pipeline.events import EVENT_COLUMNS, ROUTE_EVENT_COLUMNS
    from graph.pipeline.journeys import CALL_COLUMNS, TABLE_COLUMNS
    from graph.pipeline.schema import ddl
    from graph.pipeline.stats import TABLES

    folder, _ = messy_corpus
    summary = pipeline.run(spark, [str(folder)], str(tmp_path / "out"))
    assert summary.stats == {t: 0 for t in TABLES} and summary.journeys == {}
    expected = {**TABLES, "events": EVENT_COLUMNS, "route_events": ROUTE_EVENT_COLUMNS,
                "calls": CALL_COLUMNS, "journeys": TABLE_COLUMNS}
    for table, columns in expected.items():
        df = spark.read.parquet(str(tmp_path / "out" / table))
        assert df.count() == 0, table
        types = {f.name: f.dataType for f in df.schema.fields}
        written = {f.name: f.dataType
                   for f in spark.createDataFrame([], ddl(columns)).schema.fields}
        assert types == written, table


def test_parquet_input_with_binary_column(spark, messy_corpus, tmp_path):
    from pcf.mqmd import pack
    _, items = messy_corpus
    rows = [(f"mem{n}", n, pack(c.md), c.data) for n, c in enumerate(items[:300])]
    df = spark.createDataFrame(rows, "source string, position long, md binary, data binary")
    df.write.parquet(str(tmp_path / "lake"))
    summary = pipeline.run(spark, [str(tmp_path / "lake")], str(tmp_path / "out"))
    assert summary.rejected == 0 and summary.messages == 300 and summary.routes > 50
