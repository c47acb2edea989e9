"""analyze survives bad messages and odd folders, and never leaves a mix of old and new tables.

Issue 17 items 3 and 9: a message whose MQMD cannot be re-packed is a reject, not a dead
job; a folder holding dumps, raw files and Parquet side by side is read whole; a raw file
over 2 GiB is rejected unread (a sparse file); an interrupted run leaves the previous
tables as they were; `--out` inside an input, an input inside `--out`, or a folder
something else wrote is refused before anything is read or written.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from graph import pipeline
from graph.pipeline import dumpsplit
from graph.pipeline.commit import MARKER, OutputError, check_out
from graph.pipeline.local import run_local
from pcf import dmpmqmsg
from pcf.mqmd import pack
from tests.support.stage_reference import operation_rows
from traceroute.sim.corpus import corpus

ROOT = Path(__file__).resolve().parents[3]


def _dump(items, path: Path) -> None:
    path.write_text(dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in items]),
                    encoding="latin-1")


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqroute", "analyze", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=False)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """One folder: dumps (one MQMD with Encoding 0), raw files, Parquet, a 2.1 GiB sparse file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path_factory.mktemp("mixed")
    items = corpus(6, seed=8)
    odd = replace(items[0].md, encoding=0)  # names no integer byte order
    text = dmpmqmsg.write([dmpmqmsg.DumpedMessage(odd, items[0].data)]
                          + [dmpmqmsg.DumpedMessage(c.md, c.data) for c in items[1:60]])
    (folder / "a.dmp").write_text(text, encoding="latin-1")
    (folder / "sub").mkdir()
    (folder / "sub" / "one.bin").write_bytes(items[60].data)
    rows = [(f"lake{n}", n, pack(c.md), c.data) for n, c in enumerate(items[61:120])]
    pq.write_table(pa.table({"source": [r[0] for r in rows], "position": [r[1] for r in rows],
                             "md": [r[2] for r in rows], "data": [r[3] for r in rows]}),
                   folder / "sub" / "lake.parquet")
    pq.write_table(pa.table({"payload": [b"x"]}), folder / "other.parquet")
    with open(folder / "huge.bin", "wb") as f:  # sparse: no disk used
        f.write(b"\x00\x01 not a dump")
        f.truncate((2 << 30) + (100 << 20))
    return folder, items


def test_mixed_folder_bad_mqmd_and_a_2gib_file_locally(mixed):
    folder, _ = mixed
    result = run_local([str(folder)])
    errors = {(Path(r["source"]).name, r["position"]): r["error"] for r in result.rejects}
    assert "Encoding 0 names no integer byte order" in errors[("a.dmp", 39)]
    assert "larger than IBM MQ's largest message" in errors[("huge.bin", 0)]
    assert "no 'data' column" in errors[("other.parquet", 0)]
    assert len(errors) == 3
    assert result.messages == 120 + 2  # every message, the two unusable files
    assert result.routes


def test_mixed_folder_on_spark_equals_local(spark, mixed, tmp_path):
    folder, _ = mixed
    local = run_local([str(folder)])
    summary = pipeline.run(spark, [str(folder)], str(tmp_path / "out"), split_bytes=64 << 10)
    routes = [r.asDict() for r in spark.read.parquet(str(tmp_path / "out" / "routes")).collect()]
    cols = [c for c, _ in pipeline.ROUTE_COLUMNS]
    assert sorted(tuple(str(r[c]) for c in cols) for r in routes) == \
        sorted(tuple(str(r[c]) for c in cols) for r in local.routes)
    rejects = spark.read.parquet(str(tmp_path / "out" / "rejects")).collect()
    assert sorted((r["source"], r["position"], r["error"]) for r in rejects) == \
        sorted((r["source"], r["position"], r["error"]) for r in local.rejects)
    assert summary.rejected == 3 and summary.messages == local.messages
    assert (tmp_path / "out" / MARKER).exists()


def test_an_interrupted_run_leaves_the_last_tables(spark, tmp_path, monkeypatch):
    items = corpus(2, seed=2)
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    _dump(items[:20], first / "a.dmp")
    _dump(items, second / "b.dmp")
    out = tmp_path / "out"
    pipeline.run(spark, [str(first)], str(out))
    before = _tree(out)
    assert MARKER in before and any(k.startswith("routes/") for k in before)

    from graph.pipeline import job

    def broken(spark, uris):
        raise RuntimeError("killed half way")

    # operations, routes, hops and the scratch parts written, then a failure
    monkeypatch.setattr(job, "remove_folders", broken)
    with pytest.raises(RuntimeError, match="killed half way"):
        pipeline.run(spark, [str(second)], str(out))
    assert _tree(out) == before  # the first run's tables, byte for byte
    assert [p.name for p in tmp_path.iterdir() if "mqroute-tmp" in p.name] == []

    monkeypatch.undo()
    summary = pipeline.run(spark, [f"file://{second}"], f"file://{out}")  # URIs work too
    routes = spark.read.parquet(str(out / "routes")).count()
    assert routes == summary.routes and summary.messages == len(items)
    assert _tree(out) != before and sorted(p.name for p in tmp_path.iterdir()) == \
        ["first", "out", "second"]


def test_a_folder_something_else_wrote_is_not_replaced(spark, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    _dump(corpus(1, seed=1)[:5], folder / "a.dmp")
    out = tmp_path / "home"
    out.mkdir()
    (out / "thesis.tex").write_text("years of work")
    with pytest.raises(OutputError, match="did not write"):
        pipeline.run(spark, [str(folder)], str(out))
    assert (out / "thesis.tex").read_text() == "years of work"


def test_out_inside_an_input_is_refused(tmp_path):
    with pytest.raises(OutputError, match="inside the input"):
        check_out([str(tmp_path)], str(tmp_path / "out"))
    with pytest.raises(OutputError, match="is inside --out"):
        check_out([str(tmp_path / "out" / "dumps")], str(tmp_path / "out"))
    with pytest.raises(OutputError, match="inside the input"):
        check_out(["s3://bucket/dumps/"], "s3a://bucket/dumps/tables")
    check_out(["s3://bucket/dumps"], "s3://bucket/dumps-tables")  # a sibling is fine
    from graph.pipeline.commit import _split

    for root in ("s3://bucket", "s3://bucket/", "/"):  # no parent to stage beside
        with pytest.raises(OutputError, match="must be a folder below"):
            _split(root)
    assert _split("s3://bucket/tables/") == ("s3a://bucket", "tables")


def test_cli_refuses_out_inside_input_before_reading(tmp_path):
    _dump(corpus(1, seed=1)[:5], tmp_path / "a.dmp")
    result = _cli(str(tmp_path), "--out", str(tmp_path / "tables"))
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()   # mqroute.paths' check, before any work
    assert line.startswith(f"mqroute: --out {tmp_path / 'tables'} is inside the input ")
    assert str(tmp_path) in line and "choose another place" in line
    assert not (tmp_path / "tables").exists()


def test_cli_missing_input_is_one_line_and_exit_2(tmp_path):
    result = _cli(str(tmp_path / "nope"), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"mqroute: {tmp_path / 'nope'}: no such file or folder" in result.stderr


def test_a_record_without_end_is_bounded(tmp_path, monkeypatch):
    items = corpus(1, seed=5)[:6]
    text = dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in items])
    path = tmp_path / "long.dmp"
    path.write_text(text + "\n\n" + "A" * 5000, encoding="latin-1")  # a record that never ends
    monkeypatch.setattr(dumpsplit, "MAX_RECORD_BYTES", 1000)
    monkeypatch.setattr(dumpsplit, "_CHUNK", 256)
    result = run_local([str(path)])
    (reject,) = result.rejects
    assert "more than 1000 bytes without a blank line" in reject["error"]
    assert reject["position"] == os.path.getsize(path) - 5000
    assert result.messages == len(items) + 1


def test_a_dump_over_2gib_is_read_in_ranges_in_bounded_memory(tmp_path, monkeypatch):
    import resource

    from graph.pipeline import inputs

    items = corpus(1, seed=5)[:8]
    path = tmp_path / "huge.dmp"
    with open(path, "wb") as f:  # eight messages, then 2.1 GiB of zeros (sparse: no disk)
        f.write(dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in items])
                .encode("latin-1"))
        f.truncate((2 << 30) + (100 << 20))
    monkeypatch.setattr(dumpsplit, "MAX_RECORD_BYTES", 16 << 20)
    monkeypatch.setattr(inputs, "DEFAULT_SPLIT_BYTES", 64 << 20)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = run_local([str(path)])
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert result.messages == len(items) + 1  # the eight, and the stretch of zeros
    (reject,) = result.rejects
    assert "without a blank line" in reject["error"]
    assert reject["position"] == len(dmpmqmsg.write(
        [dmpmqmsg.DumpedMessage(c.md, c.data) for c in items]).encode("latin-1"))
    assert grown_mb < 600, f"memory grew by {grown_mb:.0f} MB reading a 2.1 GiB dump"


def _failing_route_of(bad_key: bytes):
    from traceroute.routes.ordering import route_of

    def route_of_or_fail(key, records):
        if key == bad_key:
            raise TypeError("unhashable type: 'list'")  # as an ordering bug would
        return route_of(key, records)

    return route_of_or_fail


def test_a_message_whose_route_fails_is_a_reject_locally(tmp_path, monkeypatch):
    from graph.pipeline import local

    items = corpus(2, seed=4)
    _dump(items, tmp_path / "a.dmp")
    good = run_local([str(tmp_path)])
    bad = bytes.fromhex(good.routes[3]["correl_id"])
    monkeypatch.setattr(local, "route_of", _failing_route_of(bad))
    result = run_local([str(tmp_path)])
    (reject,) = result.rejects
    assert reject["error"] == f"route of message {bad.hex()}: TypeError: unhashable type: 'list'"
    assert reject["source"] == str(tmp_path / "a.dmp") and reject["position"] > 0
    assert result.routes == [r for r in good.routes if r["correl_id"] != bad.hex()]


def test_a_message_whose_route_fails_is_a_reject_on_the_executor_path(tmp_path, monkeypatch):
    """The mapInArrow body (what executors run): one failure row, every other route."""
    import pyarrow as pa

    from graph.pipeline import compiled, reports, rows
    from graph.pipeline.schema import arrow_schema
    from traceroute.records.parse import parse_message

    items = corpus(2, seed=4)
    records = [parse_message(c.md, c.data, source="s", line=n) for n, c in enumerate(items)]
    ops = sorted((r for rec in records for r in operation_rows(rec)),
                 key=lambda r: r["correl_id"])
    batch = pa.RecordBatch.from_pylist(ops, schema=arrow_schema(rows.OPERATION_COLUMNS))
    keys = sorted({r["correl_id"] for r in ops})
    monkeypatch.setattr(rows, "route_of", _failing_route_of(bytes.fromhex(keys[2])))
    monkeypatch.setattr(compiled, "_C", None)  # the Python ordering, where such a bug lives
    out = [r for b in reports.routes_of_batches(iter([batch.slice(0, 50), batch.slice(50)]))
           for r in b.to_pylist()]
    failed = [r for r in out if r["failed_error"] is not None]
    assert [r["correl_id"] for r in failed] == [keys[2]]
    assert failed[0]["failed_error"].startswith(f"route of message {keys[2]}: TypeError")
    assert failed[0]["failed_source"] == "s" and failed[0]["verdict"] is None
    assert sorted(r["correl_id"] for r in out if r["failed_error"] is None) == \
        [k for k in keys if k != keys[2]]
