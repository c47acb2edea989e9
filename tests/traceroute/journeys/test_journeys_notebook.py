"""Notebook 04 runs top to bottom on a fresh kernel and prints the numbers it promises."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"
pytestmark = pytest.mark.slow


def test_04_follow_real_messages(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    work = tmp_path / "nb"
    work.mkdir()
    for name in ("04_follow_real_messages.ipynb",):
        shutil.copy(NOTEBOOKS / name, work / name)
    nb = nbformat.read(work / "04_follow_real_messages.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(work)}}).execute()
    out = "\n".join(o.get("text", "") + o.get("data", {}).get("text/plain", "")
                    for cell in nb.cells for o in cell.get("outputs", []))
    sent = int(re.search(r"SENT: (\d+)", out).group(1))
    arrived = int(re.search(r"ARRIVED: (\d+)", out).group(1))
    stopped = {k: int(v) for k, v in re.findall(r"STOPPED (\w+): (\d+)", out)}
    assert sent == 120
    assert stopped == {"dead_lettered": 6, "on_queue": stopped["on_queue"], "on_xmitq": 24}
    assert stopped["on_queue"] > 0 and arrived + sum(stopped.values()) == sent
    assert "WHY dead_lettered: MQRC_UNKNOWN_OBJECT_NAME" in out
    assert "STUCK AT HUB on transmission queue S4" in out
    assert "TABLE AGREES WITH FOLLOW: True" in out
    assert "exit status 5" in out
    assert (work / "journeys_stopped.png").stat().st_size > 10_000
    assert len(list((work / "trace-out").glob("*.dmp"))) == 6
