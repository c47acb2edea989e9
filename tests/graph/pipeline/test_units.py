"""The Spark job's units plan (graph.pipeline.units): partition folders named as Spark names
them, Parquet read by row-group units exactly as whole, and Spark's tables equal to the
one-process analyze's on a Parquet input with neither `source` nor `position`."""

from __future__ import annotations

import json
import os

import pytest

from graph import pipeline
from graph.pipeline import inputs, units
from graph.pipeline.inputs import list_inputs
from graph.pipeline.single import run_single
from pcf.mqmd import pack
from traceroute.sim.corpus import corpus

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
ds = pytest.importorskip("pyarrow.dataset")

#: Values whose folder names Spark escapes, or writes as its default partition.
AWKWARD = ["2026-11-22", "", None, "a/b", "x=y", "50%", "q?#*", "tab\there", "{[^]}", "é ü",
           "back\\slash", "quote'\"", "colon:", "\x7f", "plain.name"]


def test_partition_folders_are_named_as_spark_names_them(spark, tmp_path):
    df = spark.createDataFrame([(v, n) for n, v in enumerate(AWKWARD)], "v string, n int")
    df.write.partitionBy("v").parquet(str(tmp_path / "spark"))
    sparks = {p for p in os.listdir(tmp_path / "spark") if p.startswith("v=")}
    assert sparks == {units.partition_folder("v", v) for v in AWKWARD}


def test_partitioned_parts_read_back_as_sparks(spark, tmp_path):
    table = pa.table({"n": pa.array(range(len(AWKWARD)), pa.int32()),
                      "v": pa.array(AWKWARD, pa.string())})
    units.write_parts(table, str(tmp_path / "ours"), "part-x.parquet", "v")
    spark.createDataFrame(table.to_pylist(), "n int, v string").write.partitionBy(
        "v").parquet(str(tmp_path / "spark"))

    def rows(folder):
        return sorted((r["n"], r["v"]) for r in spark.read.parquet(str(folder)).collect())

    assert rows(tmp_path / "ours") == rows(tmp_path / "spark")


@pytest.fixture(scope="module")
def lake(tmp_path_factory):
    """Activity reports as Parquet of md + data only (no source, no position), in row
    groups of 100 rows, and a file of another shape (a reject)."""
    folder = tmp_path_factory.mktemp("lake")
    items = corpus(30, seed=7)
    pq.write_table(pa.table({"md": [pack(c.md) for c in items],
                             "data": [c.data for c in items]}),
                   folder / "reports.parquet", row_group_size=100)
    pq.write_table(pa.table({"payload": [b"x"]}), folder / "other.parquet")
    return folder


def test_row_group_units_read_what_the_whole_file_gives(lake):
    listing = list_inputs([str(lake)])
    planned = units.plan_units(listing, 1)  # every row group its own unit
    groups = [u for u in planned if u.uri is not None]
    assert len(groups) > 3 and [u.start for u in groups] == list(range(len(groups)))
    (errors,) = [u for u in planned if u.errors]
    assert "no 'data' column" in errors.errors[0][1]
    whole = pa.Table.from_batches(list(inputs.parquet_batches(groups[0].uri)))
    parts = pa.Table.from_batches([b for u in groups for b in units.unit_batches(u)])
    assert parts.equals(whole)
    assert parts.column("position").to_pylist() == list(range(whole.num_rows))


def _rows(path) -> list[str]:
    table = ds.dataset(str(path), format="parquet", partitioning="hive").to_table()
    return sorted(json.dumps({k: str(v) for k, v in sorted(r.items())})
                  for r in table.to_pylist())


@pytest.mark.slow
def test_spark_over_many_units_equals_one_process(spark, lake, tmp_path):
    one = run_single([str(lake)], str(tmp_path / "one"), listing=list_inputs([str(lake)]))
    many = pipeline.run(spark, [str(lake)], str(tmp_path / "spark"), split_bytes=1)
    assert (one.messages, one.operations, one.rejected, one.routes, one.verdicts) == \
        (many.messages, many.operations, many.rejected, many.routes, many.verdicts)
    assert one.routes > 100 and one.rejected == 1
    names = sorted(p.name for p in (tmp_path / "spark").iterdir() if p.is_dir())
    assert names == sorted(p.name for p in (tmp_path / "one").iterdir() if p.is_dir())
    assert not {units.SIDE, units.COUNTS} & set(names)
    for table in names:
        assert _rows(tmp_path / "one" / table) == _rows(tmp_path / "spark" / table), table


def test_a_part_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    table = pa.table({"n": pa.array([1, 2], pa.int32()), "v": ["a", "b"]})
    units.write_parts(table, str(tmp_path / "t"), "part-a.parquet", "v")
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.parquet"))
    assert written == ["t/v=a/part-a.parquet", "t/v=b/part-a.parquet"]

    def torn(data, sink, **kw):
        sink.write(b"PAR1 half a file")
        raise OSError("killed half way")

    monkeypatch.setattr(pq, "write_table", torn)
    with pytest.raises(OSError, match="killed half way"):
        units.write_parts(table, str(tmp_path / "t"), "part-b.parquet", "v")
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")
                  if p.is_file()) == written   # no torn part, no leftover
