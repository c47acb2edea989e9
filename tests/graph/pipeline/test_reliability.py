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

    def broken(ops):
        raise RuntimeError("killed half way")

    monkeypatch.setattr(job, "build_routes", broken)  # operations written, then a failure
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


def test_cli_refuses_out_inside_input_before_reading(tmp_path):
    _dump(corpus(1, seed=1)[:5], tmp_path / "a.dmp")
    result = _cli(str(tmp_path), "--out", str(tmp_path / "tables"))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"mqroute: --out {tmp_path / 'tables'} is inside the input {tmp_path}: the next run "
        "would read its own tables; choose a folder outside the inputs"]
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
