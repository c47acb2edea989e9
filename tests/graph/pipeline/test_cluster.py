"""The pipeline on a real standalone Spark cluster whose worker Python lacks mqroute.

The worker's Python is a fresh venv that sees pyspark, pyarrow and pandas (a .pth line to
this interpreter's site-packages, whose own .pth files, mqroute's editable finder among
them, are therefore not run) but cannot `import pcf`: the test proves it. The job ships
itself (`graph.pipeline.ship`: a packed environment with native code), its routes equal
the single-process ones, and its executors decode through the compiled path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from graph.pipeline.local import run_local
from pcf import dmpmqmsg
from tests.graph.pipeline.conftest import free_port, wait_for
from traceroute.sim.corpus import corpus

pytestmark = pytest.mark.slow

#: A driver on the cluster: which decoder each executor task imports, and from where.
EXECUTOR_PROBE = """
import json, sys
from pyspark.sql import SparkSession
from graph.pipeline.ship import ship
spark = SparkSession.builder.master(sys.argv[1]).appName("probe").getOrCreate()
ship(spark)

def which(_):
    import pcf, pcf.fast
    from graph.pipeline import compiled
    return [pcf.fast.STATUS, compiled.STATUS, pcf.__file__]

print(json.dumps(spark.sparkContext.parallelize(range(2), 2).map(which).collect()))
spark.stop()
"""


@pytest.fixture
def bare_python(tmp_path) -> Path:
    """A Python with the Spark dependencies but without mqroute (proved, not assumed)."""
    venv = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True, check=True)
    (Path(site.stdout.strip()) / "spark_deps.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    ok = subprocess.run([str(python), "-c", "import pyspark, pyarrow, pandas"], cwd=tmp_path,
                        env=env, capture_output=True, text=True, check=False)
    assert ok.returncode == 0, ok.stderr
    for module in ("pcf", "traceroute", "graph", "mqroute"):
        bare = subprocess.run([str(python), "-c", f"import {module}"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, check=False)
        assert bare.returncode == 1 and "ModuleNotFoundError" in bare.stderr, module
    return python


@pytest.fixture
def standalone(tmp_path, bare_python):
    """A Spark master and one worker on 127.0.0.1 running `bare_python`, stopped by PID."""
    pyspark = pytest.importorskip("pyspark")
    spark_class = Path(pyspark.__file__).parent / "bin" / "spark-class"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update({"SPARK_LOCAL_IP": "127.0.0.1", "SPARK_HOME": str(spark_class.parents[1]),
                "PYSPARK_PYTHON": str(bare_python), "SPARK_LOG_DIR": str(tmp_path / "logs")})
    port, ui, worker_ui = free_port(), free_port(), free_port()
    url = f"spark://127.0.0.1:{port}"
    procs = []
    try:
        procs.append(subprocess.Popen(
            [str(spark_class), "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
             "--port", str(port), "--webui-port", str(ui)], env=env, cwd=tmp_path,
            stdout=open(tmp_path / "master.log", "w"), stderr=subprocess.STDOUT))  # noqa: SIM115
        wait_for(port)
        procs.append(subprocess.Popen(
            [str(spark_class), "org.apache.spark.deploy.worker.Worker", url, "--host",
             "127.0.0.1", "--cores", "2", "--memory", "2g", "--webui-port", str(worker_ui),
             "--work-dir", str(tmp_path / "work")], env=env, cwd=tmp_path,
            stdout=open(tmp_path / "worker.log", "w"), stderr=subprocess.STDOUT))  # noqa: SIM115
        wait_for(worker_ui)
        yield url, env
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_pipeline_ships_itself_to_a_bare_worker(standalone, tmp_path):
    url, env = standalone
    items = corpus(20, seed=3)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "reports.dmp").write_text(
        dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in items]),
        encoding="latin-1")
    out = tmp_path / "out"
    # the drivers import this checkout (the cluster's processes see no PYTHONPATH)
    driver = {**env, **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"}}
    result = subprocess.run(
        [sys.executable, "-m", "mqroute", "analyze", str(folder), "--out", str(out),
         "--master", url, "--split-mb", "1"], env=driver, cwd=tmp_path, capture_output=True,
        text=True, timeout=900, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "routes built" in result.stderr and "verdict" in result.stdout
    import pyarrow.parquet as pq

    got = pq.read_table(out / "routes").to_pylist()
    local = run_local([str(folder)])
    assert sorted((r["correl_id"], str(r["verdict"])) for r in got) == \
        sorted((r["correl_id"], r["verdict"]) for r in local.routes)
    shipped = list((tmp_path / "work").rglob("mqroute_env/MQROUTE_ENV.json"))
    assert shipped, "the executors were not given the packed environment"

    # the same cluster, a driver that asks its executors which decoder they run
    probe = subprocess.run([sys.executable, "-c", EXECUTOR_PROBE, url], env=driver, cwd=tmp_path,
                           capture_output=True, text=True, timeout=600, check=False)
    assert probe.returncode == 0, probe.stderr[-3000:]
    import pcf.fast
    from graph.pipeline import compiled

    seen = json.loads(probe.stdout.strip().splitlines()[-1])
    assert {tuple(s[:2]) for s in seen} == {(pcf.fast.STATUS, compiled.STATUS)}
    assert all("/mqroute_env/site/" in s[2] for s in seen)
