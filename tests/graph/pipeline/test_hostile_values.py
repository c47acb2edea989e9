"""One bad value is one null or one rejects row, never a failed run (Spark and one process).

Among good messages of every kind: activity reports with a malformed OperationDate and
OperationTime (a month 13, a NUL, a time of 99:99:99), every message kind with every number
at an extreme (sums of claimed counts past int64), hostile names (controls, NUL, an unpaired
surrogate), a Parquet input whose columns have other types than expected, and one whose
positions do not fit a long. The job finishes; every table is written; each bad Parquet file
is one reject naming it; the good messages' routes are all there, as a run of the good
messages alone gives them; the two paths agree.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph import pipeline
from graph.pipeline.inputs import list_inputs
from graph.pipeline.single import run_single
from pcf import dmpmqmsg, mqc
from pcf.mqmd import pack
from tests.support.hostile import extreme, hostile, simulated_day, with_strings
from traceroute.sim.corpus import corpus

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
ds = pytest.importorskip("pyarrow.dataset")

pytestmark = pytest.mark.slow

TABLES = {"operations", "rejects", "routes", "hops", "queue_stats", "channel_stats",
          "mqi_stats", "accounting", "events", "route_events", "calls", "journeys"}


def _write(path: Path, messages) -> None:
    dmpmqmsg.write_file(path, [dmpmqmsg.DumpedMessage(md, d) for md, d in messages])


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    base = tmp_path_factory.mktemp("hostile")
    good = [(c.md, c.data) for c in corpus(3, seed=5)]
    day = simulated_day()
    good_all = [*good, *day["stats"], *day["events"], *day["trace"]]
    clean = base / "clean"
    clean.mkdir()
    _write(clean / "good.dmp", good_all)
    bad = base / "bad"
    bad.mkdir()
    _write(bad / "good.dmp", good_all)
    dates = [with_strings(md, d, {mqc.MQCACF_OPERATION_DATE: date,
                                  mqc.MQCACF_OPERATION_TIME: time})
             for (md, d), (date, time) in zip(
                 day["reports"][:4], [("2026-13-45", "99:99:99"), ("\x00", "10:00:00\x00"),
                                      ("99999-01-01", "25.61.61"), ("../../x", "")],
                 strict=True)]
    extremes = [extreme(md, d, seed=i) for i, (md, d) in enumerate(
        [*day["reports"][:3], *day["stats"][:3], *day["trace"][:3], *day["events"][:2]])]
    names = [hostile(md, d) for md, d in [*day["reports"][4:7], *day["stats"][3:5]]]
    md, data = with_strings(*day["reports"][7], {mqc.MQCA_Q_MGR_NAME: "QMZZZ"})
    undecodable = (md, data.replace(b"QMZZZ", b"QM\xed\xa0\x80"))   # a UTF-8 surrogate
    _write(bad / "hostile.dmp", [*dates, *extremes, *names, undecodable])
    pq.write_table(pa.table({"source": ["a", "b"], "position": ["1", "x"],
                             "data": ["not bytes", "x"]}), bad / "typed.parquet")
    pq.write_table(pa.table({"position": pa.array([2**64 - 1], pa.uint64()),
                             "md": [pack(good[0][0])], "data": [good[0][1]]}),
                   bad / "huge_position.parquet")
    return clean, bad


def _routes(folder: Path) -> dict[str, str]:
    t = ds.dataset(folder / "routes", format="parquet", partitioning="hive").to_table()
    return {r["correl_id"]: r["verdict"] for r in t.to_pylist()}


def _check(out: Path, clean_routes: dict[str, str]) -> None:
    assert {p.name for p in out.iterdir() if p.is_dir()} >= TABLES
    for name in TABLES:   # every table readable
        ds.dataset(out / name, format="parquet", partitioning="hive").to_table()
    routes = _routes(out)
    missing = {k: v for k, v in clean_routes.items() if routes.get(k) != v}
    assert not missing, missing
    rejects = ds.dataset(out / "rejects", format="parquet").to_table().to_pylist()
    by_file = {Path(r["source"]).name: r["error"] for r in rejects if r["source"]}
    assert "column 'data' is string" in by_file["typed.parquet"]
    assert "column 'position' is uint64" in by_file["huge_position.parquet"]


def test_one_process(folders, tmp_path):
    clean, bad = folders
    run_single([str(clean)], str(tmp_path / "clean"), listing=list_inputs([str(clean)]))
    result = run_single([str(bad)], str(tmp_path / "bad"), listing=list_inputs([str(bad)]))
    assert result.rejected
    _check(tmp_path / "bad", _routes(tmp_path / "clean"))
    ops = ds.dataset(tmp_path / "bad" / "operations", partitioning="hive").to_table()
    dates = set(ops["date"].to_pylist())
    assert not {"2026-13-45", "\x00", "99999-01-01", "../../x"} & dates


def test_spark(spark, folders, tmp_path):
    clean, bad = folders
    run_single([str(clean)], str(tmp_path / "clean"), listing=list_inputs([str(clean)]))
    summary = pipeline.run(spark, [str(bad)], str(tmp_path / "bad"))
    assert summary.rejected
    _check(tmp_path / "bad", _routes(tmp_path / "clean"))
    one = run_single([str(bad)], str(tmp_path / "one"), listing=list_inputs([str(bad)]))
    assert (one.routes, one.verdicts, one.rejected) == (summary.routes, summary.verdicts,
                                                        summary.rejected)
    stats = ds.dataset(tmp_path / "bad" / "queue_stats").to_table().to_pylist()
    assert stats and all(json.loads(r["data"]) is not None for r in stats)
