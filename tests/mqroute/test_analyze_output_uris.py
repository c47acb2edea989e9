"""`mqroute report DIR` and `audit --observed DIR` read analyze output wherever analyze can
write it: a folder, a file:// URI, or a store (s3:// here, on a real S3-compatible server on
127.0.0.1: moto), through graph.pipeline.storage. The same output gives the same page and
the same findings from each; a store that cannot be read is one line naming the URI."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from mqroute.main import main

pytest.importorskip("pyarrow")
pytest.importorskip("pygraphviz")


@pytest.fixture(scope="module")
def output(tmp_path_factory) -> Path:
    from tests.graph.report.test_report import analyze_output

    return analyze_output(tmp_path_factory.mktemp("analyze") / "out", with_events=True)


@pytest.fixture(scope="module")
def mqsc(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("mqsc") / "estate.mqsc"
    path.write_text(resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc")
                    .read_text())
    return path


@pytest.fixture(scope="module")
def bucket(output, tmp_path_factory):
    """The output folder uploaded, file for file, to s3://runs/day1/out on moto."""
    from tests.graph.pipeline.conftest import start_moto, stop

    proc, server = start_moto(tmp_path_factory.mktemp("moto"))
    try:
        s3 = server.client()
        s3.create_bucket(Bucket="runs")
        for f in sorted(output.rglob("*")):
            if f.is_file():
                s3.put_object(Bucket="runs", Key=f"day1/out/{f.relative_to(output)}",
                              Body=f.read_bytes())
        yield server
    finally:
        stop(proc)


def _run(capsys, *words: str) -> tuple[int, str, str]:
    status = main(list(words))
    got = capsys.readouterr()
    return status, got.out, got.err


def _page(path: Path, *sources: str) -> str:
    text = path.read_text(encoding="utf-8")
    for source in sources:
        text = text.replace(source, "SOURCE")
    return text


@pytest.mark.slow
def test_report_and_audit_read_a_bucket_as_they_read_the_folder(output, mqsc, bucket,
                                                                 tmp_path, capsys,
                                                                 monkeypatch):
    for name, value in bucket.env.items():
        monkeypatch.setenv(name, value)
    uri = "s3://runs/day1/out"
    local, remote = tmp_path / "local.html", tmp_path / "remote.html"
    assert _run(capsys, "report", str(output), "-o", str(local), "--mqsc", str(mqsc))[0] == 0
    status, _, err = _run(capsys, "report", uri + "/", "-o", str(remote), "--mqsc", str(mqsc))
    assert status == 0, err
    assert f"report of {uri}/" in err
    assert _page(remote, uri + "/", uri) == _page(local, str(output))
    found = _run(capsys, "audit", "--mqsc", str(mqsc), "--observed", str(output), "--json")
    there = _run(capsys, "audit", "--mqsc", str(mqsc), "--observed", uri, "--json")
    assert there[0] == found[0] and there[1] == found[1]
    assert all(json.loads(line)["kind"] for line in there[1].splitlines())
    status, _, err = _run(capsys, "audit", "--mqsc", str(mqsc), "--observed", uri)
    assert status == found[0] and f"held against {uri}" in err


@pytest.mark.slow
def test_a_store_that_cannot_be_read_is_one_line_naming_it(mqsc, bucket, tmp_path, capsys,
                                                          monkeypatch):
    for name, value in bucket.env.items():
        monkeypatch.setenv(name, value)
    status, _, err = _run(capsys, "report", "s3://runs/day2/out", "-o",
                          str(tmp_path / "r.html"))
    assert status == 2 and err.count("\n") == 1
    assert "s3://runs/day2/out: no routes/ table here" in err
    status, _, err = _run(capsys, "report", "s3://nobucket/out", "-o", str(tmp_path / "r.html"))
    assert status == 2 and err.count("\n") == 1 and "s3://nobucket/out" in err
    status, _, err = _run(capsys, "audit", "--mqsc", str(mqsc), "--observed",
                          "s3://runs/day2/out")
    assert status == 2 and err.count("\n") == 1 and "s3://runs/day2/out" in err
    assert not (tmp_path / "r.html").exists()


def test_file_uris_read_as_the_folder(output, mqsc, tmp_path, capsys):
    local, uri_page = tmp_path / "local.html", tmp_path / "uri.html"
    uri = f"file://{output}"
    assert _run(capsys, "report", str(output), "-o", str(local))[0] == 0
    assert _run(capsys, "report", uri, "-o", str(uri_page))[0] == 0
    assert _page(uri_page, str(output)).replace("file://", "") == \
        _page(local, str(output))
    assert _run(capsys, "audit", "--mqsc", str(mqsc), "--observed", uri, "--json")[1] == \
        _run(capsys, "audit", "--mqsc", str(mqsc), "--observed", str(output), "--json")[1]


def test_remote_paths_behave_as_paths_for_the_readers():
    from graph.pipeline.storage import RemotePath, location

    p = location("s3://bucket/a/out/")
    assert isinstance(p, RemotePath) and str(p) == "s3://bucket/a/out"
    assert str(p / "routes") == "s3://bucket/a/out/routes" and (p / "routes").name == "routes"
    assert location("file:///tmp/x") == Path("/tmp/x") and location("rel/x") == Path("rel/x")
    assert location("gs://b/x") == location("gcs://b/x/")
