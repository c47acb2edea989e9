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


@pytest.fixture(scope="module")
def damaged(tmp_path_factory):
    """Activity reports as Parquet in two row groups of 20, the second's first data page
    overwritten (its footer intact, so listing and planning see a good file)."""
    folder = tmp_path_factory.mktemp("damaged")
    items = corpus(40, seed=11)
    path = folder / "damaged.parquet"
    pq.write_table(pa.table({"md": [pack(c.md) for c in items[:40]],
                             "data": [c.data for c in items[:40]]}),
                   path, row_group_size=20, compression="NONE")
    page = pq.ParquetFile(path).metadata.row_group(1).column(1).data_page_offset
    data = bytearray(path.read_bytes())
    data[page:page + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    return folder


def _errors(batches) -> list[tuple]:
    table = batches if isinstance(batches, pa.Table) else pa.Table.from_batches(list(batches))
    return [(r["source"], r["position"], r["error"]) for r in table.to_pylist() if r["error"]]


def test_a_damaged_row_group_is_one_reject_naming_the_file_and_row(damaged):
    uri = str(damaged / "damaged.parquet")
    whole = pa.Table.from_batches(list(inputs.parquet_batches(uri)))
    assert whole.num_rows == 21 and whole.column("error").null_count == 20
    ((source, position, error),) = _errors(whole)
    assert (source, position) == (uri, 20) and error.startswith(f"{uri}: ")
    planned = units.plan_units(list_inputs([str(damaged)]), 1)
    assert [(u.start, u.end) for u in planned] == [(0, 1), (1, 2)]
    assert _errors(units.unit_batches(planned[0])) == []
    assert _errors(units.unit_batches(planned[1])) == [(source, position, error)]


def test_a_parquet_file_gone_after_listing_is_a_reject_not_a_failed_job(tmp_path):
    pq.write_table(pa.table({"data": [b"x"] * 3}), tmp_path / "a.parquet")
    listing = list_inputs([str(tmp_path)])
    planned = units.plan_units(listing, 1)
    (tmp_path / "a.parquet").unlink()
    ((source, position, error),) = _errors(units.unit_batches(planned[0]))
    assert (source, position) == (str(tmp_path / "a.parquet"), 0) and "no such file" in error
    gone = units.plan_units(listing, 1)  # gone before the footers are read: an error unit
    assert [u.errors[0][0] for u in gone] == [str(tmp_path / "a.parquet")]


def test_raw_batches_are_bounded_by_bytes(monkeypatch):
    monkeypatch.setattr(inputs, "BATCH_BYTES", 1000)
    rows = [("f", i, None, b"x" * 400, None) for i in range(7)]
    sizes = [b.num_rows for b in inputs.raw_row_batches(iter(rows))]
    assert sizes == [3, 3, 1]


def test_parquet_batches_are_bounded_by_bytes(tmp_path, monkeypatch):
    pq.write_table(pa.table({"data": [os.urandom(1000) for _ in range(10)]}),
                   tmp_path / "w.parquet")
    monkeypatch.setattr(inputs, "BATCH_BYTES", 2500)
    got = list(inputs.parquet_batches(str(tmp_path / "w.parquet")))
    assert max(b.num_rows for b in got) <= 2 and sum(b.num_rows for b in got) == 10
    assert pa.Table.from_batches(got).column("position").to_pylist() == list(range(10))


def test_a_task_holds_a_bounded_number_of_bytes_of_a_table(tmp_path, monkeypatch):
    monkeypatch.setattr(units, "FLUSH_BYTES", 5000)
    parts = units._Parts(str(tmp_path / "t"), "part-u00000")
    batch = pa.RecordBatch.from_pydict({"data": [b"z" * 1000] * 2})
    for _ in range(6):
        parts.add(batch)
        assert parts.bytes < 5000
    parts.flush()
    written = sorted(p.name for p in (tmp_path / "t").iterdir())
    assert len(written) == 2  # 3 batches of ~2,000 bytes pass 5,000: two parts of 6 rows
    assert pq.read_table(tmp_path / "t").num_rows == 12


@pytest.mark.slow
def test_spark_over_many_units_equals_one_process(spark, lake, damaged, tmp_path):
    given = [str(lake), str(damaged)]
    one = run_single(given, str(tmp_path / "one"), listing=list_inputs(given))
    many = pipeline.run(spark, given, str(tmp_path / "spark"), split_bytes=1)
    assert (one.messages, one.operations, one.rejected, one.routes, one.verdicts) == \
        (many.messages, many.operations, many.rejected, many.routes, many.verdicts)
    assert one.routes > 100 and one.rejected == 2
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


def test_each_task_gets_its_own_unit_only(spark):
    """The plan grows with the input (a unit per 256 raw files): a task must not carry it
    all (every task unpickling the whole plan was quadratic in the number of files)."""
    import pickle

    listing = inputs.Listing(raws=[inputs.storage.Entry(f"/in/m{i:06d}.bin", 10, None)
                                   for i in range(3 * units.RAWS_PER_UNIT)])
    planned = units.plan_units(listing, 1)
    rows = units.unit_rows(spark, planned)
    held = rows.rdd.glom().map(lambda part: [pickle.loads(r["unit"]) for r in part]).collect()
    assert held == [[u] for u in planned]


def test_temporary_parts_of_killed_attempts_are_removed(tmp_path):
    """A task attempt killed between writing its part and the rename leaves a hidden
    temporary file; the job removes such files before it commits (and nothing else)."""
    part = tmp_path / "operations" / "date=2026-11-28" / "part-u00000-000.parquet"
    part.parent.mkdir(parents=True)
    part.write_bytes(b"PAR1")
    left = units._temp_name(str(part))
    with open(left, "wb") as f:
        f.write(b"PAR1 half")
    keep = [tmp_path / ".hidden-user-file", tmp_path / "x.tmp", part]
    for k in keep[:2]:
        k.write_bytes(b"")
    assert units.remove_temps(str(tmp_path)) == 1
    assert not os.path.exists(left) and all(k.exists() for k in keep)
    assert units.remove_temps("s3://bucket/stage") == 0
