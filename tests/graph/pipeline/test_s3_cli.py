"""`mqroute analyze s3://bucket/dumps/ --out DIR` against a real S3 server (moto, 127.0.0.1).

With AWS_ENDPOINT_URL pointing at the server, the Spark job gives the routes the
single-process path gives over the same files on disk; the large dump is read by several
tasks, each fetching its own byte range (the server's log shows the ranged GETs). A
missing bucket fails before Spark starts, in one line naming the URI; a denied read is
named and the rest of the bucket is still analysed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from graph import pipeline
from graph.pipeline.local import run_local
from pcf import dmpmqmsg
from tests.graph.pipeline.conftest import denying_setup
from traceroute.sim.corpus import corpus

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[3]


def _dump(items) -> bytes:
    return dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in items]).encode("latin-1")


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    full = {**{k: v for k, v in os.environ.items() if not k.startswith("AWS_")}, **env}
    return subprocess.run([sys.executable, "-m", "mqroute", "analyze", *args], cwd=ROOT,
                          env=full, capture_output=True, text=True, timeout=900, check=False)


def test_analyze_a_bucket_gives_the_local_routes(s3, tmp_path):
    items = corpus(40, seed=9)  # ~1,100 messages, a 6 MB dump
    client = s3.client()
    client.create_bucket(Bucket="mq-estate")
    local_dir = tmp_path / "local"
    local_dir.mkdir()
    files = {"dumps/big.dmp": _dump(items[:900]), "dumps/day2/small.dmp": _dump(items[900:]),
             "dumps/one.bin": items[0].data}
    for key, body in files.items():
        client.put_object(Bucket="mq-estate", Key=key, Body=body)
        (local_dir / key.replace("/", "_")).write_bytes(body)
    big = len(files["dumps/big.dmp"])
    assert big > 4 << 20
    before = len(s3.requests())
    result = _cli(s3.env, "s3://mq-estate/dumps/", "--out", str(tmp_path / "out"),
                  "--split-mb", "1")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    import pyarrow.parquet as pq

    got = pq.read_table(tmp_path / "out" / "routes").to_pylist()
    local = run_local([str(local_dir)])
    cols = [c for c, _ in pipeline.ROUTE_COLUMNS]
    assert sorted(tuple(str(r[c]) for c in cols) for r in got) == \
        sorted(tuple(str(r[c]) for c in cols) for r in local.routes)
    assert len(got) > 300
    ranged = [r for r in s3.requests()[before:]
              if "GET /mq-estate/dumps/big.dmp" in r and " 206 " in r]
    assert len(ranged) >= big // (1 << 20)  # one range (at least) per task


def test_missing_bucket_fails_fast_naming_the_uri(s3, tmp_path):
    result = _cli(s3.env, "s3://mq-not-there/dumps/", "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "mqroute: s3://mq-not-there/dumps/: the bucket does not exist" in result.stderr
    assert not (tmp_path / "out").exists()


def test_denied_read_is_named_and_the_rest_analysed(spark, s3_denying, tmp_path, monkeypatch):
    server, _ = s3_denying
    items = corpus(4, seed=6)
    env = denying_setup(server, _dump(items), _dump(corpus(1, seed=7)))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    summary = pipeline.run(spark, ["s3://mq-deny/"], str(tmp_path / "out"))
    ((uri, error),) = summary.unreadable
    assert uri == "s3://mq-deny/secret.dmp" and "no permission" in error
    assert summary.messages == len(items) + 1 and summary.rejected == 1
    rejects = spark.read.parquet(str(tmp_path / "out" / "rejects")).collect()
    assert [(r["source"], r["error"]) for r in rejects] == [(uri, error)]
    assert summary.routes == len(run_local(["s3://mq-deny/good.dmp"]).routes) > 10


def test_out_to_a_store_spark_cannot_write_is_one_line(s3, tmp_path):
    """Here Spark has no s3a connector: the run stops in one line with a hint, exit 2."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.dmp").write_bytes(_dump(corpus(1, seed=3)[:5]))
    result = _cli(s3.env, str(folder), "--out", "s3://mq-estate-out/tables")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    (line,) = [x for x in result.stderr.splitlines()
               if x.startswith("mqroute:") and not x.startswith("mqroute: [")]  # not progress
    assert line.startswith("mqroute: s3://mq-estate-out/tables: Spark cannot write there: ")
    assert "S3AFileSystem not found" in line and "hadoop-aws" in line
    assert not (tmp_path / "out").exists()
