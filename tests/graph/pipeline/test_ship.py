"""The shipped zip holds everything an executor runs: a Python without mqroute decodes with it."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest

from graph.pipeline import ship

PROBE = """
import sys
from graph.pipeline.dumpsplit import Split, read_range
from graph.pipeline.classify import classify_batches
from traceroute.records.parse import parse_message
import pcf
assert ".zip" in pcf.__file__, pcf.__file__
path = sys.argv[1]
import os
entries = list(read_range(Split(path, 0, os.path.getsize(path))))
records = [parse_message(e.md, e.data) for e in entries]
print(len(records), sum(len(r.activities) for r in records))
"""


def test_zip_runs_in_a_python_without_mqroute(tmp_path):
    from pcf import dmpmqmsg
    from traceroute.sim.corpus import corpus

    items = corpus(1, seed=2)[:10]
    dump = tmp_path / "a.dmp"
    dump.write_text(dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in items]),
                    encoding="latin-1")
    assert ship.main([str(tmp_path / "build")]) == 0
    zipped = tmp_path / "build" / "mqroute.zip"
    names = zipfile.ZipFile(zipped).namelist()
    for package in ship.PACKAGES:
        assert f"{package}/__init__.py" in names
    assert not any("__pycache__" in n for n in names)
    launcher = (tmp_path / "build" / "mqroute_analyze.py").read_text()
    assert "from graph.pipeline.job import main" in launcher

    # -S: no site-packages at all, so no editable install of mqroute; -E: no PYTHONPATH
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    bare = subprocess.run([sys.executable, "-S", "-E", "-c", "import pcf"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, check=False)
    assert "ModuleNotFoundError" in bare.stderr
    shipped = subprocess.run([sys.executable, "-S", "-E", "-c",
                              f"import sys; sys.path.insert(0, {str(zipped)!r}); " + PROBE,
                              str(dump)], cwd=tmp_path, env=env, capture_output=True,
                             text=True, check=False)
    assert shipped.returncode == 0, shipped.stderr
    count, activities = map(int, shipped.stdout.split())
    assert count == len(items) and activities >= count


ENV_PROBE = """
import json, sys
import pcf, pcf.fast
from pcf import dmpmqmsg
from traceroute.records.parse import parse_message
assert "/mqroute_env/site/" in pcf.__file__, pcf.__file__
messages = dmpmqmsg.read(open(sys.argv[1], encoding="latin-1").read()).messages
records = [parse_message(m.md, m.data) for m in messages]
print(json.dumps({"status": pcf.fast.STATUS, "records": len(records),
                  "activities": sum(len(r.activities) for r in records)}))
"""


def _bare_venv(where):
    """A Python of the same version without mqroute and without any site-packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True,
                   timeout=120)
    return where / "bin" / "python"


def test_packed_environment_decodes_compiled_in_a_python_without_mqroute(tmp_path):
    import json
    import tarfile

    from pcf import dmpmqmsg
    from traceroute.sim.corpus import corpus

    items = corpus(1, seed=2)[:10]
    dump = tmp_path / "a.dmp"
    dump.write_text(dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in items]),
                    encoding="latin-1")
    packed = ship.build_environment(tmp_path / ship.ARCHIVE)
    unpacked = tmp_path / "work" / ship.UNPACKED
    with tarfile.open(packed) as tar:
        tar.extractall(unpacked, filter="data")
    about = json.loads((unpacked / "MQROUTE_ENV.json").read_text())
    import pcf.fast

    if not pcf.fast.available():
        assert about["native"] == []
        return
    assert {n.split(".")[0] for n in about["native"]} >= {"pcf/_cdecode",
                                                         "graph/pipeline/_ccolumns"}
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "MQROUTE_PCF_PURE")}
    env["MQROUTE_BASE_PYTHON"] = str(_bare_venv(tmp_path / "bare"))
    bare = subprocess.run([env["MQROUTE_BASE_PYTHON"], "-c", "import pcf"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, check=False)
    assert "ModuleNotFoundError" in bare.stderr
    run = subprocess.run([str(unpacked / "bin" / "python"), "-c", ENV_PROBE, str(dump)],
                         cwd=tmp_path / "work", env=env, capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["status"] == "compiled (pcf._cdecode)"
    assert got["records"] == len(items) and got["activities"] >= len(items)


def test_dependencies_are_packed_with_their_requirements():
    names = {rel.split("/")[0] for _file, rel in ship.dependency_files()}
    assert {"pyarrow", "pandas", "numpy"} <= names
    assert not any(n.endswith(".pyc") or "__pycache__" in n
                   for _f, n in ship.dependency_files(["ebcdic"]))


def test_ship_usage_errors(capsys):
    with pytest.raises(SystemExit) as exc:
        ship.main([])
    assert exc.value.code == 2
