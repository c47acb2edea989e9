"""Notebook 06 runs top to bottom on a fresh kernel and prints the numbers it promises."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"
pytestmark = pytest.mark.slow


def test_06_estate_health_from_statistics(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    work = tmp_path / "nb"
    shutil.copytree(NOTEBOOKS, work, ignore=shutil.ignore_patterns("day*", "estate", "health"))
    nb = nbformat.read(work / "06_estate_health_from_statistics.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(work)}}).execute()
    out = "\n".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
    assert "INTERVALS: 25" in out                      # 24 hours of STATINT(3600) + the end
    busiest = re.findall(r"BUSIEST: (\S+) (\S+) (\d+)", out)
    assert len(busiest) == 3 and int(busiest[0][2]) >= int(busiest[2][2]) > 0
    slow = re.search(r"SLOWEST XMITQ: QM0000 QM0056 (\d+) s", out)
    assert slow and int(slow.group(1)) > 3600         # behind the channel stopped till 14:00
    assert re.findall(r"GROWING: (\S+ \S+)", out) == ["QM0038 APP.Q.0038"]
    findings = dict(re.findall(r"FINDING (\w+): (\d+)", out))
    assert findings["growing_queue"] == "1" and findings["slow_transmission_queue"] == "1"
    assert (work / "estate_health.png").stat().st_size > 10_000
