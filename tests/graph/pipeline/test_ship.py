"""The shipped zip holds everything an executor runs: a Python without mqroute decodes with it."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

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
