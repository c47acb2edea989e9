"""The pipeline, unchanged, on a real standalone Spark cluster (master + worker on loopback)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graph.pipeline.local import run_local
from pcf import dmpmqmsg
from traceroute.sim.corpus import corpus

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(port: int, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.3)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


@pytest.fixture
def standalone(tmp_path):
    """A Spark master and one worker bound to 127.0.0.1, stopped by PID afterwards."""
    pyspark = pytest.importorskip("pyspark")
    spark_class = Path(pyspark.__file__).parent / "bin" / "spark-class"
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "SPARK_HOME": str(spark_class.parents[1]),
           "PYSPARK_PYTHON": sys.executable, "SPARK_LOG_DIR": str(tmp_path / "logs")}
    port, ui, worker_ui = _free_port(), _free_port(), _free_port()
    url = f"spark://127.0.0.1:{port}"
    procs = []
    try:
        procs.append(subprocess.Popen(
            [str(spark_class), "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
             "--port", str(port), "--webui-port", str(ui)], env=env,
            stdout=open(tmp_path / "master.log", "w"), stderr=subprocess.STDOUT))  # noqa: SIM115
        _wait_for(port)
        procs.append(subprocess.Popen(
            [str(spark_class), "org.apache.spark.deploy.worker.Worker", url, "--host",
             "127.0.0.1", "--cores", "2", "--memory", "2g", "--webui-port", str(worker_ui),
             "--work-dir", str(tmp_path / "work")], env=env,
            stdout=open(tmp_path / "worker.log", "w"), stderr=subprocess.STDOUT))  # noqa: SIM115
        _wait_for(worker_ui)
        yield url, env
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_pipeline_on_a_standalone_cluster(standalone, tmp_path):
    url, env = standalone
    items = corpus(20, seed=3)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "reports.dmp").write_text(
        dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in items]),
        encoding="latin-1")
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "mqroute", "analyze", str(folder), "--out", str(out),
         "--master", url, "--split-mb", "1"], env=env, capture_output=True, text=True,
        timeout=600, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "routes built" in result.stderr and "verdict" in result.stdout
    import pyarrow.parquet as pq

    got = pq.read_table(out / "routes").to_pylist()
    local = run_local([str(folder)])
    assert sorted((r["correl_id"], str(r["verdict"])) for r in got) == \
        sorted((r["correl_id"], r["verdict"]) for r in local.routes)
