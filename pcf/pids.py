"""Whether a process still runs: how leftovers of killed runs are told from live ones.

Used by the writers that leave temporary files or folders named after their process
(`mqroute.output`'s parts, `graph.pipeline.commit`'s staging folders) to remove only those
whose process is gone.
"""

from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """True when a process of this id runs on this host (or may: one we may not signal)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError, ValueError):
        return True
    return True
