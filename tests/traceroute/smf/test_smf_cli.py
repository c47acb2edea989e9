"""`mqroute smf` end to end, as a z/OS administrator runs it (subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.smfrecords import qwhs, rdw_stream, record, structure, without_rdws
from tests.traceroute.smf.test_smf_framing import channel_record, dump_header, log_record
from tests.traceroute.smf.test_smf_vectors import ibm_json

ROOT = Path(__file__).resolve().parents[3]


def mqroute(*args: str) -> subprocess.CompletedProcess:
    """`mqroute smf ARGS` by subprocess, as a user types it."""
    return subprocess.run([sys.executable, "-m", "mqroute", "smf", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def smf(*args: str) -> subprocess.CompletedProcess:
    """`mqroute smf ARGS` in this process (the same main(); no interpreter to start): for
    the tests of options, where the subprocess ones above already cover the process."""
    status, out, err = run("smf", *args)
    return subprocess.CompletedProcess(["mqroute", "smf", *args], status, out, err)


@pytest.fixture
def dataset(tmp_path):
    path = tmp_path / "SMF.DAT"
    path.write_bytes(rdw_stream(dump_header(), log_record(),
                                record(115, 215, qwhs(2), {1: [
                                    structure("QPST", {"bufferpool": 0, "bufferCount": 1000,
                                                       "lowestStealable": 500}),
                                    structure("QPST", {"bufferpool": 1, "bufferCount": 50,
                                                       "lowestStealable": 40,
                                                       "syncWrites": 4})]}),
                                channel_record("QM1.TO.QM2", "QM2.TO.QM1"), dump_header(3)))
    return path


def test_summary(dataset):
    r = mqroute(str(dataset))
    assert r.returncode == 0, r.stderr
    assert "queue manager MQ07 on LPAR MV41, MQ 910" in r.stdout
    assert "115 subtype 1: 1, 115 subtype 215: 1, 116 subtype 10: 1" in r.stdout
    assert "QPST             2 rows" in r.stdout
    assert "3 MQ SMF records, 6 rows" in r.stderr


def test_json_lines_and_structure_filter(dataset):
    r = smf(str(dataset), "--json", "--structure", "qcst")
    assert r.returncode == 0, r.stderr
    objects = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["chlName"].strip() for o in objects] == ["QM1.TO.QM2", "QM2.TO.QM1"]
    assert objects[0]["structure"] == "QCST" and objects[0]["msgAllCount"] == 10


def test_json_equals_ibm_formatter(vectors):
    path = vectors / "smf" / "TESTCHL.dat"
    r = mqroute(str(path), "--json")
    assert r.returncode == 0, r.stderr
    ours = [json.loads(line) for line in r.stdout.splitlines()]
    assert ours == ibm_json(vectors / "smf" / "ibm-formatter" / "TESTCHL" / "json" /
                            "SMF-MQSMF.json")


def test_findings_exit_3_and_json(dataset):
    r = smf(str(dataset), "--findings")
    assert r.returncode == 3, r.stderr
    assert "MQ07 (MV41) 2024-03-26 02:30:00 buffer pool 1: bp-synchronous-writes: QPSTIMW 4" \
        in r.stdout
    assert r.stdout.rstrip().endswith("1 finding")
    r = smf(str(dataset), "--findings", "--json")
    assert r.returncode == 3
    (finding,) = [json.loads(line) for line in r.stdout.splitlines()]
    assert {"rule", "structure", "qmgr", "lpar", "interval_start", "object",
            "detail"} <= set(finding)
    assert (finding["rule"], finding["object"], finding["detail"]) == (
        "bp-synchronous-writes", "buffer pool 1", {"QPSTIMW": 4})
    r = smf(str(dataset), "--findings", "--structure", "QCST")
    assert (r.returncode, r.stdout) == (0, "no findings\n")


def test_bad_input_named_with_offset_rest_read(tmp_path, dataset):
    good = dataset.read_bytes()
    bad = tmp_path / "BAD.DAT"
    bad.write_bytes(good[:18] + b"\x00\x02\x07\x00" + b"\xff" * 30 + good[18:-40])
    text = tmp_path / "NOTSMF.TXT"
    text.write_text("DEFINE QLOCAL(Q1)\n" * 10)
    empty = tmp_path / "EMPTY.DAT"
    empty.write_bytes(b"")
    r = mqroute(str(bad), str(text), str(tmp_path / "MISSING.DAT"), str(empty), "--json")
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert f"mqroute: {bad}:offset 18: wrong RDW 00020700" in lines[0]
    assert any(line.startswith(f"mqroute: {bad}:offset ") and "cut short" in line
               for line in lines)
    assert f"mqroute: {text}:offset 0: not an SMF data set" in r.stderr
    assert f"mqroute: {tmp_path / 'MISSING.DAT'}: No such file" in r.stderr
    assert f"mqroute: {empty}: empty: no SMF records in it" in lines  # as every reader says
    assert len(r.stdout.splitlines()) == 4  # QSST, QJST, two QPST: the rest still read
    assert "Traceback" not in r.stderr


def test_no_rdw(tmp_path, dataset):
    bare = tmp_path / "BARE.DAT"
    bare.write_bytes(without_rdws(dataset.read_bytes()))
    a, b = smf(str(dataset), "--json"), smf(str(bare), "--json", "--no-rdw")
    assert a.returncode == b.returncode == 0 and a.stdout == b.stdout
    r = smf(str(bare), "--json")
    assert r.returncode == 1 and "--no-rdw" in r.stderr


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_out_tables(tmp_path, dataset, fmt):
    pytest.importorskip("pyarrow")
    out = tmp_path / "tables"
    args = ["--out", str(out)] + (["--format", fmt] if fmt != "parquet" else [])
    r = smf(str(dataset), *args)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["qcst", "qjst", "qpst", "qsst"]
    assert [p.name for p in (out / "qpst").iterdir()] == [f"part-00000.{fmt}"]
    if fmt == "parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(out / "qcst").to_pylist()
        assert [t["chlName"] for t in table] == ["QM1.TO.QM2", "QM2.TO.QM1"]
        assert table[0]["remoteProductId"] == "" and table[0]["collectionTimeDate"] is None
        qjst = pq.read_table(out / "qjst")
        assert str(qjst.schema.field("ioCount").type) == "list<element: int64>"
        assert qjst.column("intervalDuration").to_pylist() == [900]
    else:
        head = (out / "qpst" / "part-00000.csv").read_text().splitlines()
        assert head[0].startswith('"recordType","recordSubType","structure","date","time"')
        assert len(head) == 3


def test_usage_errors(dataset):
    for args in (["--structure", "XYZ"], ["--format", "csv"], ["--json", "--out", "x"]):
        r = smf(str(dataset), *args)
        assert r.returncode == 2, args
        assert r.stderr.startswith("mqroute: smf") or "usage" in r.stderr


def test_filters(dataset):
    r = smf(str(dataset), "--json", "--channel", "QM2.*")
    assert r.returncode == 0, r.stderr
    assert [json.loads(line)["chlName"].strip() for line in r.stdout.splitlines()] == [
        "QM2.TO.QM1"]
    # statistics by their interval (02:30 to 02:45 UTC), accounting by when SMF wrote it
    r = smf(str(dataset), "--json", "--since", "2024-03-26T02:44:00Z",
                "--until", "2024-03-26T02:45:00Z")
    assert {json.loads(line)["structure"] for line in r.stdout.splitlines()} == {
        "QSST", "QJST", "QPST"}
    r = smf(str(dataset), "--json", "--since", "2024-03-26 02.45.00")
    assert r.stdout == ""
    r = smf(str(dataset), "--json", "--since", "2024-03-26 02.32.00",
                "--until", "2024-03-26 02.33.00", "--structure", "QCST")
    assert len(r.stdout.splitlines()) == 2
