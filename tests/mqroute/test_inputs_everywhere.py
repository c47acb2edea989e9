"""Every command that reads files takes folders, URIs and Parquet as analyze does; messages of
another kind are skipped and counted in one summary line; `show -i` names a MsgId not found."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from mqroute.main import main
from pcf import dmpmqmsg
from tests.support import dspmqrte_examples as ex
from tests.support.tour import make_tour_data


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    return make_tour_data(tmp_path_factory.mktemp("tour"))


@pytest.fixture
def mixed(tmp_path, tour):
    """A folder of every kind: activity reports at the top, the rest in a subfolder, a hidden
    file that must not be read."""
    folder = tmp_path / "mixed"
    (folder / "more").mkdir(parents=True)
    (folder / "activity.dmp").write_text(dmpmqmsg.write(
        [dmpmqmsg.DumpedMessage(md, d) for md, d in ex.reports(ex.trace_md(), [0, 1, 2])]),
        encoding="latin-1")
    for name in ("trace.dmp", "events.dmp", "stats.dmp"):
        shutil.copy(tour / name, folder / "more" / name)
    (folder / ".hidden.dmp").write_text("not a dump")
    (folder / "_SUCCESS").write_text("")
    return folder


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqroute", *args], capture_output=True,
                          text=True, check=False)


def test_show_on_a_mixed_folder_says_one_line(mixed):
    r = run("show", str(mixed))
    assert r.returncode == 0, r.stderr
    assert "Route of message" in r.stdout
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("mqroute: 1 routes; skipped ")
    assert lines[0].endswith(" messages that are not activity data")
    assert ".hidden" not in r.stderr and "_SUCCESS" not in r.stderr


@pytest.mark.parametrize("command,found", [
    ("stats", "records"), ("events", "events"), ("follow", "journeys")])
def test_every_reading_command_takes_the_folder(mixed, command, found, capsys):
    status = main([command, str(mixed)])
    err = capsys.readouterr().err
    assert status in (0, 3, 4), err  # follow: messages wait on the stopped channel's xmitq
    summary = [line for line in err.splitlines() if f" {found}" in line][-1]
    assert "skipped" in summary and "Is a directory" not in err


def test_decode_takes_the_folder(mixed, capsys):
    assert main(["decode", "--json", str(mixed)]) == 0
    assert capsys.readouterr().out.count('"message"') > 10


def test_file_uri_and_empty_folder(mixed, tmp_path, capsys):
    assert main(["show", f"file://{mixed / 'activity.dmp'}"]) == 0
    assert "Route of message" in capsys.readouterr().out
    (tmp_path / "nothing").mkdir()
    assert main(["show", str(tmp_path / "nothing"), str(mixed / "activity.dmp")]) == 1
    assert f"mqroute: {tmp_path / 'nothing'}: no files in it" in capsys.readouterr().err


def test_parquet_with_a_data_column(mixed, tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from pcf.mqmd import pack

    messages = ex.reports(ex.trace_md(), [0, 1, 2])
    table = pa.table({"md": [pack(md) for md, _ in messages], "data": [d for _, d in messages]})
    pq.write_table(table, tmp_path / "lake.parquet")
    assert main(["show", "--json", str(tmp_path / "lake.parquet")]) == 0
    from_parquet = capsys.readouterr().out
    assert main(["show", "--json", str(mixed / "activity.dmp")]) == 0
    assert capsys.readouterr().out == from_parquet
    pq.write_table(pa.table({"x": [1]}), tmp_path / "other.parquet")
    assert main(["show", str(tmp_path / "other.parquet")]) == 1
    assert "without a binary data column" in capsys.readouterr().err


@pytest.mark.parametrize("given,named", [
    ("41" * 24, "41" * 24),
    ("414d5120", "414D5120" + "00" * 20),  # padded with nulls as MQ pads it, all shown
    ("00", "00" * 24),  # MQMI_NONE is named, not left blank
])
def test_show_names_the_msg_id_not_found(mixed, capsys, given, named):
    assert main(["show", "-i", given, str(mixed / "activity.dmp")]) == 1
    err = capsys.readouterr().err
    assert f"mqroute: no activity data of MsgId {named} in the input\n" in err
    assert main(["follow", "--msg-id", given, str(mixed / "more" / "trace.dmp")]) == 0
    assert f"MsgId {named} " in capsys.readouterr().err  # follow names it the same way


@pytest.mark.slow
def test_s3_folder(mixed, tmp_path):
    """A bucket of a real S3-compatible server on 127.0.0.1 (moto) read as a folder."""
    pytest.importorskip("pyarrow")
    from tests.graph.pipeline.conftest import start_moto, stop

    proc, server = start_moto(tmp_path)
    try:
        s3 = server.client()
        s3.create_bucket(Bucket="estate")
        s3.put_object(Bucket="estate", Key="dumps/activity.dmp",
                      Body=(mixed / "activity.dmp").read_bytes())
        env = {**server.env}
        r = subprocess.run([sys.executable, "-m", "mqroute", "show", "s3://estate/dumps/"],
                           capture_output=True, text=True, check=False,
                           env={**__import__("os").environ, **env})
        assert r.returncode == 0, r.stderr
        assert "Route of message" in r.stdout
        r = subprocess.run([sys.executable, "-m", "mqroute", "show", "s3://nobucket/x/"],
                           capture_output=True, text=True, check=False,
                           env={**__import__("os").environ, **env})
        assert r.returncode == 1 and "s3://nobucket/x/" in r.stderr
    finally:
        stop(proc)
