"""The getting-started tour's data (docs/getting-started.md's Python snippet), for tests that
need a small estate's activity trace, events and statistics dumps: one source for both."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "getting-started.md"


def tour_snippet() -> str:
    """The page's runnable Python snippet that makes estate.mqsc, trace.dmp, events.dmp and
    stats.dmp in the current folder."""
    text = PAGE.read_text()
    match = re.search(r"^<!-- runnable -->\n```python\n(.*?)^```$", text, re.M | re.S)
    assert match, f"{PAGE}: no runnable Python snippet"
    return match.group(1)


def make_tour_data(folder: Path) -> Path:
    """Run the snippet in `folder`; the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    here = Path.cwd()
    try:
        os.chdir(folder)
        exec(compile(tour_snippet(), str(PAGE), "exec"), {"__name__": "tour"})
    finally:
        with contextlib.suppress(OSError):
            os.chdir(here)
    return folder
