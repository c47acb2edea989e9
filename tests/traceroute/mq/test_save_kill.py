"""The crash test with a real kill: a collector process is SIGKILLed at a random moment while
it gets, saves (`Archive`) and commits; afterwards every report is on its queue or, byte for
byte, in the dump, and the earlier dump is intact.

The queue must outlive the process, so it is a folder (one file per message): a get under
syncpoint moves the file to `inflight/` (atomic rename), a commit deletes what is in flight,
and after a death the queue manager's backout of the broken connection is moving the files
in flight back. That is the queue manager's part modelled; the part under test — collect's
order of get, save, fsync, commit, and the archive — is the real code in a real process.
"""

from __future__ import annotations

import os
import pickle
import random
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from pcf import dmpmqmsg
from pcf.mqmd import MQMD

ROOT = Path(__file__).resolve().parents[3]
CORREL = b"K" * 24

#: The folder queue and the collector, as the child process runs them.
CHILD = textwrap.dedent('''
    import os, pickle, sys, time
    from traceroute.mq.archive import Archive
    from traceroute.mq.collect import Source, collect

    class FolderQueue:
        """A queue manager whose one queue is a folder of message files."""

        qmgr_name = "QM1"

        def __init__(self, root):
            self.root, self.now = root, 0.0

        def clock(self):
            self.now += 1.0
            return self.now

        def get(self, queue, *, correl_id, wait, browse=False, syncpoint=True):
            time.sleep(0.002)
            names = sorted(os.listdir(os.path.join(self.root, "queue")))
            if not names:
                return None
            os.rename(os.path.join(self.root, "queue", names[0]),
                      os.path.join(self.root, "inflight", names[0]))
            with open(os.path.join(self.root, "inflight", names[0]), "rb") as f:
                return pickle.load(f)

        def commit(self):
            for name in os.listdir(os.path.join(self.root, "inflight")):
                os.unlink(os.path.join(self.root, "inflight", name))

    root, dump = sys.argv[1], sys.argv[2]
    archive = Archive(dump)
    print("ready", flush=True)
    collect([Source(FolderQueue(root), "Q")], b"K" * 24, wait=0.0, keep=archive.keep)
    print("done", flush=True)
''')


def _messages(n: int, tag: str) -> list[tuple[MQMD, bytes]]:
    return [(replace(MQMD(), msg_id=f"{tag}{i:023d}".encode(), correl_id=CORREL),
             f"report {tag}{i} ".encode() * (1 + i % 7) + bytes(range(256))) for i in range(n)]


def _recover(root: Path) -> None:
    """What the queue manager does for a broken connection: back the unit of work out."""
    for name in os.listdir(root / "inflight"):
        os.rename(root / "inflight" / name, root / "queue" / name)


def _queued(root: Path) -> set[tuple[bytes, bytes]]:
    out = set()
    for name in os.listdir(root / "queue"):
        with open(root / "queue" / name, "rb") as f:
            md, data = pickle.load(f)
        out.add((md.msg_id, data))
    return out


def _dumped(path: Path) -> set[tuple[bytes, bytes]]:
    if not path.exists():
        return set()
    return {(m.md.msg_id, m.data) for m in dmpmqmsg.iter_file(path, on_error=lambda e: None)
            if m.md is not None}


def _run_child(root: Path, dump: Path, kill_after: float | None) -> bool:
    script = root / "child.py"
    script.write_text(CHILD)
    child = subprocess.Popen([sys.executable, str(script), str(root), str(dump)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready", child.stderr.read()
    if kill_after is not None:
        time.sleep(kill_after)
        child.send_signal(signal.SIGKILL)
    _, err = child.communicate(timeout=120)
    assert "Traceback" not in err, err
    return child.returncode == 0


@pytest.mark.parametrize("seed", range(12))
def test_sigkill_at_a_random_moment_loses_no_report(tmp_path, seed):
    rng = random.Random(seed)
    (tmp_path / "queue").mkdir()
    (tmp_path / "inflight").mkdir()
    reports = _messages(rng.randint(5, 40), "M")
    for i, message in enumerate(reports):
        with open(tmp_path / "queue" / f"{i:06d}.msg", "wb") as f:
            pickle.dump(message, f)
    dump = tmp_path / "saved.dmp"
    earlier = dmpmqmsg.write([dmpmqmsg.DumpedMessage(md, data)
                              for md, data in _messages(3, "E")]).encode("latin-1")
    dump.write_bytes(earlier)
    wanted = {(md.msg_id, data) for md, data in reports}

    finished = _run_child(tmp_path, dump, kill_after=rng.uniform(0.0, 0.25))
    _recover(tmp_path)

    after = dump.read_bytes()
    assert after.startswith(earlier)  # the earlier dump is intact
    dumped, queued = _dumped(dump), _queued(tmp_path)
    assert wanted <= dumped | queued, "a report is neither on its queue nor in the dump"
    if finished:
        assert not queued

    assert _run_child(tmp_path, dump, kill_after=None)  # the next run saves the rest
    assert not _queued(tmp_path) and wanted <= _dumped(dump)
    assert dump.read_bytes().startswith(after)
    assert {(md.msg_id, data) for md, data in _messages(3, "E")} <= _dumped(dump)
