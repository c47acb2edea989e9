"""SMF data sets as an analyze input: recognised by content, mixed with other inputs, cut into
ranges at record boundaries, the same smf/<structure>/ tables on Spark and in one process."""

from __future__ import annotations

import struct

import pytest

from graph import pipeline
from graph.pipeline import smf as smfpipe
from graph.pipeline import storage
from graph.pipeline.inputs import list_inputs
from tests.support.smfrecords import qwhs, record, spanned, structure, without_rdws
from tests.traceroute.smf.test_smf_framing import channel_record, dump_header, log_record
from traceroute.readers.smf import smf_kind


def buffer_pools(*pools: int) -> bytes:
    return record(115, 215, qwhs(2), {1: [structure("QPST", {"bufferpool": p,
                                                              "bufferCount": 100 + p})
                                          for p in pools]})


def dataset(n: int) -> bytes:
    """n rounds of statistics and channel accounting, some records spanned."""
    out = [dump_header()]
    for k in range(n):
        out += [log_record(k), buffer_pools(0, 1, 2),
                spanned(channel_record(f"QM1.TO.QM{k}", f"QM{k}.TO.QM1"), 300)]
    return b"".join([*out, dump_header(3)])


def rows(tables: dict) -> dict[str, list[dict]]:
    return {name: t.to_pylist() for name, t in sorted(tables.items())}


def test_recognised_by_content(tmp_path):
    data = dataset(2)
    assert smf_kind(data[:512]) == "rdw" and smf_kind(without_rdws(data)[:512]) == "bare"
    assert smf_kind(b"A" * 512) is None and smf_kind(b"\x00\x00\x00\x01" * 128) is None
    (tmp_path / "MQ.SMF").write_bytes(data)
    (tmp_path / "BARE.SMF").write_bytes(without_rdws(data))
    (tmp_path / "x.dmp").write_text("junk\n")
    listing = list_inputs([str(tmp_path)])
    assert sorted((e.uri.rsplit("/", 1)[1], rdw) for e, rdw in listing.smf) == [
        ("BARE.SMF", False), ("MQ.SMF", True)]
    assert [e.uri.rsplit("/", 1)[1] for e in listing.dumps] == ["x.dmp"]


def test_ranges_start_at_record_boundaries(tmp_path):
    data = dataset(40)
    path = tmp_path / "MQ.SMF"
    path.write_bytes(data)
    entry = storage.stat(str(path))
    whole = rows(smfpipe.local_tables([(entry, True)], 1 << 30)[0])
    splits = smfpipe.plan([(entry, True)], 2000)
    assert len(splits) > 10
    starts = {s.start for s in splits}
    offsets, at = set(), 0
    while at < len(data):  # the true record starts (first segments of spanned ones)
        length, flag = struct.unpack_from(">HB", data, at)
        if flag in (0, 1):
            offsets.add(at)
        at += length
    assert starts <= offsets
    tables, result = smfpipe.local_tables([(entry, True)], 2000)
    assert rows(tables) == whole and result.problems == []
    assert result.rows == {"QSST": 40, "QJST": 40, "QPST": 120, "QCST": 80}


def test_bad_spots_are_rejects_with_offsets(tmp_path):
    data = bytearray(dataset(3))
    cut = 18 + len(log_record())
    data[cut:cut + 4] = b"\x00\x03\x07\x00"  # a wrong RDW where the buffer pools were
    path = tmp_path / "MQ.SMF"
    path.write_bytes(bytes(data))
    result = pipeline.run_local([str(path)])
    assert [r["position"] for r in result.rejects] == [cut]
    assert f"{path}:offset {cut}: wrong RDW 00030700" in result.rejects[0]["error"]
    assert [t.num_rows for t in result.smf.values()] and result.smf["QPST"].num_rows == 6


@pytest.mark.slow
def test_spark_writes_the_same_tables(spark, tmp_path):
    """Spark (ranges of 3 KB: many tasks) and the single process, with SMF data sets beside
    an activity report dump and a data set without RDWs."""
    from pcf import dmpmqmsg
    from traceroute.records import example_reports

    folder = tmp_path / "in"
    folder.mkdir()
    data = dataset(30)
    (folder / "A.SMF").write_bytes(data)
    (folder / "B.SMF").write_bytes(without_rdws(dataset(5)))
    bad = bytearray(dataset(4))
    struct.pack_into(">H", bad, 18 + 22, 99)  # an unknown subtype: named, the rest read
    (folder / "C.SMF").write_bytes(bytes(bad))
    reports = example_reports()
    (folder / "reports.dmp").write_text(
        dmpmqmsg.write([dmpmqmsg.DumpedMessage(m, d) for m, d in reports]), encoding="latin-1")
    out = tmp_path / "out"
    summary = pipeline.run(spark, [str(folder)], str(out), split_bytes=3000)
    local = pipeline.run_local([str(folder)])
    assert summary.smf == {name: t.num_rows for name, t in sorted(local.smf.items())}
    assert summary.smf["QCST"] == 2 * (30 + 5 + 4) and summary.smf["QJST"] == 30 + 5 + 3
    import pyarrow.dataset as ds

    for name, table in local.smf.items():
        written = ds.dataset(out / "smf" / name.lower(), format="parquet").to_table()
        assert written.schema == table.schema
        key = [c for c in ("time", "bufferpool", "chlName") if c in table.column_names]
        assert sorted(written.to_pylist(), key=lambda r: [str(r[k]) for k in key]) == \
            sorted(table.to_pylist(), key=lambda r: [str(r[k]) for k in key]), name
    assert summary.routes == local.route_count > 0
    rejects = spark.read.parquet(str(out / "rejects")).collect()
    smf_rejects = sorted((r["source"].rsplit("/", 1)[1], r["position"]) for r in rejects
                         if r["source"].endswith(".SMF"))
    assert smf_rejects == sorted((r["source"].rsplit("/", 1)[1], r["position"])
                                 for r in local.rejects if r["source"].endswith(".SMF"))
    assert smf_rejects == [("C.SMF", 18)]


@pytest.mark.slow
def test_smf_only_input(spark, tmp_path):
    (tmp_path / "A.SMF").write_bytes(dataset(2))
    summary = pipeline.run(spark, [str(tmp_path / "A.SMF")], str(tmp_path / "out"))
    assert summary.smf == {"QCST": 4, "QJST": 2, "QPST": 6, "QSST": 2}
    assert summary.routes == 0 and summary.rejected == 0


@pytest.mark.parametrize("split", [500, 1 << 20])
def test_vectors_on_any_split(vectors, tmp_path, split):
    path = vectors / "smf" / "TESTCHL.dat"
    entry = storage.stat(str(path))
    tables, result = smfpipe.local_tables([(entry, True)], split)
    assert result.problems == [] and sum(t.num_rows for t in tables.values()) == 1245


def test_analyze_in_one_process_writes_the_smf_tables(tmp_path):
    """analyze's single-process path (small inputs) writes smf/ as Spark does: the same
    ranges and writer; bad spots in rejects/."""
    import pyarrow.dataset as ds

    from graph.pipeline.single import run_single

    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "A.SMF").write_bytes(dataset(6))
    bad = bytearray(dataset(2))
    struct.pack_into(">H", bad, 18 + 22, 99)
    (folder / "C.SMF").write_bytes(bytes(bad))
    out = tmp_path / "out"
    counts = run_single([str(folder)], str(out), listing=list_inputs([str(folder)]))
    expected = {}
    for name in ("A.SMF", "C.SMF"):
        tables, _ = smfpipe.local_tables([(storage.stat(str(folder / name)), True)], 1 << 30)
        for kind, t in tables.items():
            expected.setdefault(kind, []).extend(t.to_pylist())
    for kind, rows_ in expected.items():
        written = ds.dataset(out / "smf" / kind.lower(), format="parquet").to_table()
        assert sorted(map(str, written.to_pylist())) == sorted(map(str, rows_)), kind
    rejects = ds.dataset(out / "rejects", format="parquet").to_table().to_pylist()
    assert [(r["source"].rsplit("/", 1)[1], r["position"]) for r in rejects] == [("C.SMF", 18)]
    assert counts.rejected == 1
