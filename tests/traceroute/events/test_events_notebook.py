"""Notebooks 05 and 07 run top to bottom on a fresh kernel: the slow consumer's events, the
day of failures explained."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"
pytestmark = pytest.mark.slow


def _run(name: str, tmp_path: Path) -> tuple[str, Path]:
    """Run notebooks/NAME.ipynb on a fresh kernel in a scratch folder: (its text, folder)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    work = tmp_path / "nb"
    work.mkdir()
    shutil.copy(NOTEBOOKS / f"{name}.ipynb", work)
    nb = nbformat.read(work / f"{name}.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(work)}}).execute()
    return "\n".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", [])), work


def test_05_performance_events(tmp_path: Path) -> None:
    out, work = _run("05_performance_events", tmp_path)
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


def test_07_failures_explained(tmp_path: Path) -> None:
    out, _work = _run("07_failures_explained", tmp_path)
    # every failed put has its event, the three messages for QM4 their channel's TLS retry
    for reason in (2085, 2051, 2082, 2087, 2196, 2184, 2035, 2053, 2197):
        assert re.search(rf"MQRC {reason}: \S.* on QM1: puts to it fail", out), reason
    assert "(no event)" not in out
    assert out.count("AMQ9641E) on QM1: messages wait on its transmission queue") == 3
    assert "Reason               : Unknown Remote Queue Mgr" in out
    kinds = int(re.search(r"KINDS: (\d+)", out).group(1))
    assert kinds >= 30
