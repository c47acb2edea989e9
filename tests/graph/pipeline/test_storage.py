"""The storage layer on local paths and on a real S3 server (moto on 127.0.0.1), no Spark.

Dumps uploaded to a bucket are listed, sniffed and read by byte range through pyarrow's S3
filesystem with AWS_ENDPOINT_URL pointing at the server; the single-process path over the
bucket gives the routes it gives over the same files on disk. Missing buckets, missing
keys and denied reads are errors naming the URI and the reason.
"""

from __future__ import annotations

import re

import pytest

from graph.pipeline import storage
from graph.pipeline.dumpsplit import read_range, splits
from graph.pipeline.inputs import list_inputs
from graph.pipeline.local import run_local
from pcf import dmpmqmsg
from tests.graph.pipeline.conftest import denying_setup
from traceroute.sim.corpus import corpus

pytest.importorskip("pyarrow")


def _dump(items) -> bytes:
    return dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in items]).encode("latin-1")


@pytest.fixture(scope="module")
def items():
    return corpus(12, seed=21)


@pytest.fixture
def s3_env(s3, monkeypatch):
    for name, value in s3.env.items():
        monkeypatch.setenv(name, value)
    return s3


def test_spellings():
    assert storage.scheme("s3://b/k") == "s3" and storage.scheme("/tmp/x") == ""
    assert storage.spark_path("s3://b/k/") == "s3a://b/k/"
    assert storage.spark_path("gs://b/k") == "gs://b/k"
    assert storage.within("s3a://b/dumps/out", "s3://b/dumps/")
    assert not storage.within("s3://b/dumps2", "s3://b/dumps")
    assert storage.within("/tmp/../tmp/a/b", "/tmp/a")
    assert storage.within("file:///tmp/a/b", "/tmp/a")
    assert not storage.within("/tmp/ab", "/tmp/a")


def test_local_listing_mixes_kinds_and_skips_hidden(tmp_path, items):
    import pyarrow as pa
    import pyarrow.parquet as pq

    (tmp_path / "a.dmp").write_bytes(_dump(items[:3]))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "raw.bin").write_bytes(items[0].data)
    pq.write_table(pa.table({"data": [items[1].data]}), tmp_path / "sub" / "p.parquet")
    (tmp_path / "_SUCCESS").write_bytes(b"")
    (tmp_path / ".hidden.dmp").write_bytes(b"junk")
    (tmp_path / "_temporary").mkdir()
    (tmp_path / "_temporary" / "x.dmp").write_bytes(b"junk")
    listing = list_inputs([str(tmp_path)])
    assert [e.uri for e in listing.dumps] == [str(tmp_path / "a.dmp")]
    assert [e.uri for e in listing.raws] == [str(tmp_path / "sub" / "raw.bin")]
    assert [e.uri for e in listing.parquets] == [str(tmp_path / "sub" / "p.parquet")]
    assert listing.problems == []


def test_missing_local_input_is_named(tmp_path):
    with pytest.raises(storage.StorageError, match=re.escape(f"{tmp_path}/nope: no such file")):
        storage.list_files(str(tmp_path / "nope"))
    listing = list_inputs([str(tmp_path / "nope")])
    assert listing.empty and "no such file or folder" in listing.problems[0][1]


def test_a_dump_in_a_bucket_is_read_by_byte_ranges(s3_env, items):
    client = s3_env.client()
    client.create_bucket(Bucket="mq-ranges")
    body = _dump(items)
    client.put_object(Bucket="mq-ranges", Key="dumps/big.dmp", Body=body)
    (entry,) = storage.list_files("s3://mq-ranges/dumps/")
    assert entry.uri == "s3://mq-ranges/dumps/big.dmp" and entry.size == len(body)
    before = len(s3_env.requests())
    parts = splits([entry], 16 << 10)
    assert len(parts) >= 8
    got = [e for p in parts for e in read_range(p)]
    assert [(e.md, e.data) for e in got] == [(c.md, c.data) for c in items]
    assert all(e.error is None for e in got)
    ranged = [r for r in s3_env.requests()[before:] if "GET /mq-ranges/dumps/big.dmp" in r]
    assert len(ranged) >= len(parts)  # every range fetched its own bytes
    assert all(" 206 " in r for r in ranged)


def test_local_path_over_a_bucket_gives_the_routes_of_the_files(s3_env, items, tmp_path):
    client = s3_env.client()
    client.create_bucket(Bucket="mq-routes")
    for n in range(3):
        body = _dump(items[n::3])
        client.put_object(Bucket="mq-routes", Key=f"dumps/part{n}.dmp", Body=body)
        (tmp_path / f"part{n}.dmp").write_bytes(body)
    client.put_object(Bucket="mq-routes", Key="dumps/raw.bin", Body=items[4].data)
    (tmp_path / "raw.bin").write_bytes(items[4].data)
    remote = run_local(["s3://mq-routes/dumps/"])
    local = run_local([str(tmp_path)])
    assert remote.messages == local.messages == len(items) + 1
    assert remote.routes == local.routes and len(remote.routes) > 20
    assert remote.rejects == local.rejects == []


def test_missing_bucket_and_key_name_the_uri(s3_env):
    with pytest.raises(storage.StorageError) as e:
        storage.list_files("s3://mq-no-such-bucket/dumps/")
    assert str(e.value).startswith("s3://mq-no-such-bucket/dumps/: the bucket does not exist")
    s3_env.client().create_bucket(Bucket="mq-empty")
    with pytest.raises(storage.StorageError, match=r"^s3://mq-empty/none: no such file or folder"):
        storage.list_files("s3://mq-empty/none")
    listing = list_inputs(["s3://mq-no-such-bucket/x"])
    assert listing.empty and listing.problems[0][0] == "s3://mq-no-such-bucket/x"


def test_a_denied_read_is_named_and_the_rest_is_read(s3_denying, items, monkeypatch):
    server, _ = s3_denying
    env = denying_setup(server, _dump(items[:20]), _dump(items[20:30]))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    listing = list_inputs(["s3://mq-deny/"])
    assert [e.uri for e in listing.dumps] == ["s3://mq-deny/good.dmp"]
    ((uri, error),) = listing.problems
    assert uri == "s3://mq-deny/secret.dmp"
    assert error.startswith("s3://mq-deny/secret.dmp: no permission")
    result = run_local(["s3://mq-deny/"])
    assert result.messages == 21 and len(result.rejects) == 1
    assert result.rejects[0]["source"] == "s3://mq-deny/secret.dmp"


def test_a_file_changed_since_listing_is_named(tmp_path, items):
    path = tmp_path / "a.dmp"
    path.write_bytes(_dump(items[:10]))
    parts = splits([str(path)], 1 << 10)
    with open(path, "ab") as f:
        f.write(_dump(items[10:12]))  # a collector appended while the job ran
    got = [e for p in parts for e in read_range(p)]
    (entry,) = got  # one error, from the first range; no message read twice or half
    assert entry.error.startswith(f"{path}: changed since it was listed (size ")


def test_a_changed_object_in_a_bucket_is_named(s3_env, items):
    client = s3_env.client()
    client.create_bucket(Bucket="mq-changing")
    client.put_object(Bucket="mq-changing", Key="a.dmp", Body=_dump(items[:10]))
    parts = splits(storage.list_files("s3://mq-changing/"), 1 << 10)
    client.put_object(Bucket="mq-changing", Key="a.dmp", Body=_dump(items[:3]))
    (entry,) = [e for p in parts for e in read_range(p)]
    assert entry.source == "s3://mq-changing/a.dmp"
    assert "changed since it was listed" in entry.error
