"""run_local reads Parquet (binary data, packed MQMD) a batch at a time, with Spark's columns."""

from __future__ import annotations

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from graph.pipeline import local  # noqa: E402
from graph.pipeline.local import run_local  # noqa: E402
from pcf import dmpmqmsg  # noqa: E402
from pcf.mqmd import pack  # noqa: E402
from traceroute.sim.corpus import corpus  # noqa: E402

SCHEMA = pa.schema([("source", pa.string()), ("position", pa.int64()), ("md", pa.binary()),
                    ("data", pa.binary())])


@pytest.fixture(scope="module")
def items():
    """A small corpus of every verdict (a few hundred messages)."""
    return corpus(8, seed=4)


def _write(path, rows, schema=SCHEMA, row_group_size=50):
    columns = {name: [r[i] for r in rows] for i, name in enumerate(schema.names)}
    pq.write_table(pa.table(columns, schema=schema), path, row_group_size=row_group_size)


def test_parquet_gives_the_dump_answers(tmp_path, items, monkeypatch):
    dump = tmp_path / "all.dmp"
    dump.write_text(dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in items]),
                    encoding="latin-1")
    path = tmp_path / "all.parquet"
    _write(path, [("lake", n, pack(c.md), c.data) for n, c in enumerate(items)])
    monkeypatch.setattr(local, "PARQUET_BATCH_ROWS", 7)  # many batches, across row groups

    from_dump = run_local([str(dump)])
    from_parquet = run_local([str(path)])
    assert from_parquet.messages == from_dump.messages == len(items)
    assert from_parquet.rejects == from_dump.rejects == []
    assert len(from_parquet.routes) > 30
    assert from_parquet.routes == from_dump.routes
    assert from_parquet.hops == from_dump.hops


def test_bad_rows_are_rejected_with_their_source_and_position(tmp_path, items):
    good = [("lake", n, pack(c.md), c.data) for n, c in enumerate(items[:40])]
    bad = [("lake", 1000, pack(items[0].md), items[0].data[:60]),  # truncated report
           ("lake", 1001, pack(items[1].md)[:100], items[1].data),  # truncated MQMD
           ("lake", 1002, None, b"not PCF at all, not even close")]  # no MQMD, not PCF
    path = tmp_path / "mixed.parquet"
    _write(path, good + bad)
    result = run_local([str(path)])
    assert result.messages == 43
    assert [(r["source"], r["position"]) for r in result.rejects] == \
        [("lake", 1000), ("lake", 1001), ("lake", 1002)]
    assert all(r["error"].startswith("PCFError") for r in result.rejects)
    assert "MQMD" in result.rejects[1]["error"]
    assert result.routes == run_local([str(_only(tmp_path, good))]).routes


def _only(tmp_path, rows):
    path = tmp_path / "good.parquet"
    _write(path, rows)
    return path


def test_folder_of_parts_without_source_or_position(tmp_path, items):
    """A folder as Spark writes it: part files, _SUCCESS, hidden .crc files; data and md only."""
    folder = tmp_path / "lake"
    folder.mkdir()
    schema = pa.schema([("md", pa.binary()), ("data", pa.binary())])
    halves = [items[: len(items) // 2], items[len(items) // 2:]]
    for n, half in enumerate(halves):
        _write(folder / f"part-{n:05d}.parquet", [(pack(c.md), c.data) for c in half], schema)
    (folder / "_SUCCESS").write_bytes(b"")
    (folder / ".part-00000.parquet.crc").write_bytes(b"junk")
    result = run_local([str(folder)])
    assert result.messages == len(items) and result.rejects == []
    single = tmp_path / "single.parquet"
    _write(single, [(pack(c.md), c.data) for c in items], schema)
    assert result.routes == run_local([str(single)]).routes

    bad = tmp_path / "bad.parquet"
    _write(bad, [(pack(items[0].md)[:10], items[0].data)], schema)
    (reject,) = run_local([str(bad)]).rejects
    assert reject["source"] == str(bad) and reject["position"] == 0


def test_parquet_is_streamed_not_read_whole(tmp_path, items, monkeypatch):
    path = tmp_path / "all.parquet"
    _write(path, [("lake", n, pack(c.md), c.data) for n, c in enumerate(items)])

    def whole(*args, **kwargs):
        raise AssertionError("read the whole file at once")

    monkeypatch.setattr(pq.ParquetFile, "read", whole)
    monkeypatch.setattr(pq, "read_table", whole)
    assert run_local([str(path)]).messages == len(items)


def test_parquet_without_data_column_is_a_reject_and_the_rest_is_read(tmp_path, items):
    path = tmp_path / "other.parquet"
    pq.write_table(pa.table({"payload": [b"x"]}), path)
    good = tmp_path / "good.parquet"
    _write(good, [("lake", n, pack(c.md), c.data) for n, c in enumerate(items[:40])])
    result = run_local([str(tmp_path)])
    (reject,) = result.rejects
    assert reject["source"] == str(path) and "no 'data' column (has payload)" in reject["error"]
    assert result.routes == run_local([str(good)]).routes and result.routes
