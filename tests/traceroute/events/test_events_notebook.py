"""Notebook 05 runs top to bottom on a fresh kernel and shows the slow consumer's events."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"
pytestmark = pytest.mark.slow


def test_05_performance_events(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    work = tmp_path / "nb"
    work.mkdir()
    shutil.copy(NOTEBOOKS / "05_performance_events.ipynb", work)
    nb = nbformat.read(work / "05_performance_events.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(work)}}).execute()
    out = "\n".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
    first = dict(re.findall(r"FIRST (QUEUE [A-Z ]+) at (\d\d:\d\d)", out))
    # the consumer stops at 13:00: the service interval (2 min) is breached at once, the
    # depth reaches 80 % and then MAXDEPTH while it is away, OK when it is back at 15:00,
    # and Low once it has worked the backlog down
    assert first["QUEUE SERVICE INTERVAL HIGH"] == "13:02"
    assert first["QUEUE SERVICE INTERVAL OK"] == "15:00"
    assert "13:00" < first["QUEUE DEPTH HIGH"] < first["QUEUE FULL"] < "15:00"
    assert first["QUEUE DEPTH LOW"] > "15:00"
    assert "EVENTS: 5" in out and '"eventType": {' in out
    assert (work / "performance_events.png").stat().st_size > 10_000
