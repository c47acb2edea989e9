"""`analyze --out`: a symbolic link is written through, killed runs leave nothing that grows.

A link as --out: the tables go where it points and the link stays a link. Leftovers of runs
killed outright (staging folders `.NAME.mqroute-tmp-HOST-PID-TOKEN`, previous tables half
swapped out) are removed by the next run on the same --out when their process is gone (or,
from another host, when they are over a day old); a live run's are left alone; tables a kill
left swapped out are put back. SIGTERM during a run: exit 143, no staging folder, the
previous tables as they were.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graph.pipeline.commit import MARKER, _LocalFS, _token, clean_leftovers
from pcf import dmpmqmsg
from traceroute.sim.corpus import corpus

ROOT = Path(__file__).resolve().parents[3]
pytest.importorskip("pyarrow")


def analyze(*args: str, wait: bool = True):
    argv = [sys.executable, "-m", "mqroute", "analyze", *args, "--no-spark"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if not wait:
        return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, env=env)
    return subprocess.run(argv, capture_output=True, text=True, timeout=600, env=env)


@pytest.fixture(scope="module")
def dump(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("in") / "a.dmp"
    dmpmqmsg.write_file(path, [dmpmqmsg.DumpedMessage(c.md, c.data) for c in corpus(3, seed=1)])
    return path


def dead_pid() -> int:
    p = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                       capture_output=True, text=True, check=True)
    return int(p.stdout)


def test_a_link_as_out_is_written_through(dump, tmp_path):
    real = tmp_path / "real"
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    r = analyze(str(dump), "--out", str(link))
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and (real / MARKER).exists() and (real / "routes").is_dir()
    r = analyze(str(dump), "--out", str(link))      # and again: replaced through the link
    assert r.returncode == 0 and link.is_symlink(), r.stderr
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_leftovers_of_killed_runs_are_removed(dump, tmp_path):
    out = tmp_path / "out"
    host = _token().rsplit("-", 2)[0]
    dead = tmp_path / f".out.mqroute-tmp-{host}-{dead_pid()}-0123456789ab"
    live = tmp_path / f".out.mqroute-tmp-{host}-{os.getpid()}-0123456789ab"
    far_old = tmp_path / ".out.mqroute-tmp-otherhost-12-0123456789ab"
    far_new = tmp_path / ".out.mqroute-tmp-otherhost-13-0123456789ab"
    unnamed_old = tmp_path / ".out.mqroute-tmp-0123456789ab"       # an older version's
    for folder in (dead, live, far_old, far_new, unnamed_old):
        (folder / "routes").mkdir(parents=True)
    day_ago = time.time() - 2 * 24 * 3600
    for folder in (far_old, unnamed_old):
        os.utime(folder, (day_ago, day_ago))
    r = analyze(str(dump), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert not dead.exists() and not far_old.exists() and not unnamed_old.exists()
    assert live.exists() and far_new.exists()
    assert r.stderr.count("left by a run that was killed") == 3


def test_tables_a_kill_left_swapped_out_are_put_back(tmp_path):
    host = _token().rsplit("-", 2)[0]
    old = tmp_path / f".out.mqroute-old-{host}-{dead_pid()}-0123456789ab"
    (old / "routes").mkdir(parents=True)
    (old / MARKER).touch()
    done = clean_leftovers(_LocalFS(), str(tmp_path), "out")
    assert (tmp_path / "out" / MARKER).exists() and not old.exists()
    assert done and "restored" in done[0]


def test_sigterm_leaves_the_previous_tables(dump, tmp_path):
    big = tmp_path / "big.dmp"
    dmpmqmsg.write_file(big, [dmpmqmsg.DumpedMessage(c.md, c.data)
                              for c in corpus(150, seed=2)])
    out = tmp_path / "out"
    assert analyze(str(dump), "--out", str(out)).returncode in (0, 1)   # the previous run
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    p = analyze(str(big), "--out", str(out), wait=False)
    deadline = time.time() + 120
    while time.time() < deadline and not list(tmp_path.glob(".out.mqroute-tmp-*")):
        time.sleep(0.01)
    assert list(tmp_path.glob(".out.mqroute-tmp-*")), "the run never staged"
    p.send_signal(signal.SIGTERM)
    err = p.communicate(timeout=120)[1]
    assert p.returncode == 143, err
    assert "terminated" in err and "Traceback" not in err
    assert not [q for q in tmp_path.iterdir() if q.name.startswith(".out.")]
    after = {q.relative_to(out): q.read_bytes() for q in out.rglob("*") if q.is_file()}
    assert after == before
