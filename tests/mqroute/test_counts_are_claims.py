"""An input of N bytes costs O(N) time and memory, whatever numbers it holds.

Every command reads a simulated day twice: as the simulator wrote it, and with every number
every message claims at an extreme (every MQCFIN, MQCFIN64 and list item at MQLONG's or
MQINT64's ends, MsgSeqNumber 2**31-1 and not LAST: counts, sequence numbers, depths, sizes,
lengths, times ...), the same bytes long. Each run is a process of its own whose time and
peak memory are measured: the extreme day may not cost more than a few times the plain one,
and four copies of it not more than about four times one. A number that made work (a loop
to a count, a list of the missing, a buffer of a claimed size) would cost seconds to hours
and gigabytes here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mqroute.main import COMMANDS
from pcf import dmpmqmsg
from tests.support.hostile import extreme_day, simulated_day

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
#: Seconds any one run may take (the plain ones take a few).
LIMIT = 180
#: Commands also run on four copies of the extreme day (time and memory within ~4x one).
SCALED = {"decode", "show", "follow", "stats", "events", "analyze", "metrics"}


def _write(path: Path, messages, copies: int = 1) -> str:
    dmpmqmsg.write_file(path, [dmpmqmsg.DumpedMessage(md, d) for md, d in messages] * copies)
    return str(path)


def day_files(folder: Path, day: dict, copies: int = 1) -> dict[str, str]:
    folder.mkdir()
    files = {kind: _write(folder / f"{kind}.dmp", messages, copies)
             for kind, messages in day.items()}
    extreme = "MAXDEPTH(999999999) MAXMSGL(104857600) QDEPTHHI(100) QSVCINT(999999999)"
    (folder / "QM1.mqsc").write_text(
        "ALTER QMGR PERFMEV(ENABLED) MAXMSGL(104857600)\n"
        f"DEFINE QLOCAL(Q) {extreme} QDPHIEV(ENABLED)\n"
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) OFFLOAD(SMDS) OFFLD1SZ(63K) OFFLD1TH(100)\n")
    files["mqsc"] = str(folder / "QM1.mqsc")
    (folder / "ops.csv").write_text("time_ms,qmgr,queue,op,count\n" + "".join(
        f"{t},QM1,Q,{'PUT' if t % 3 else 'GET'},10000000\n" for t in range(200 * copies)))
    files["ops"] = str(folder / "ops.csv")
    return files


def runs(f: dict[str, str], out: Path) -> list[list[str]]:
    every = [f["reports"], f["trace"], f["stats"], f["events"]]
    return [
        ["decode", *every], ["show", f["reports"], "-v", "all"], ["show", "--json", *every],
        ["follow", f["trace"], "-v"], ["follow", "--json", *every],
        ["stats", f["stats"]], ["stats", "--json", *every],
        ["events", *every], ["events", "--json", *every],
        ["events", "replay", "--mqsc", f["mqsc"], "--ops", f["ops"]],
        ["cfstruct", "--mqsc", f["mqsc"], "--name", "APP1", "--backlog", "1M", "--size", "4G"],
        ["analyze", *every, "--out", str(out / "analyzed"), "--no-spark"],
        ["report", str(out / "analyzed"), "-o", str(out / "report.html")],
        ["audit", "--mqsc", f["mqsc"], "--observed", str(out / "analyzed")],
        ["trace", "--network", f["mqsc"], "-m", "QM1", "-q", "Q", "-w", "1", "--count", "3"],
        ["metrics", "--stats", f["stats"], "--events", f["events"], "--textfile",
         str(out / "m.prom")],
        ["smf", f["stats"]],
        ["sim", "init", str(out / "estate"), f["mqsc"]],
        ["status", "--network", f["mqsc"], "-m", "QM1", "--json"],
        ["config", "--network", f["mqsc"], "-m", "QM1"],
    ]


def measure(words: list[str]) -> tuple[float, int]:
    """(seconds, peak resident bytes) of one run in a process of its own."""
    start = time.monotonic()
    p = subprocess.Popen([sys.executable, "-m", "mqroute", *words], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    watchdog = threading.Timer(LIMIT, p.kill)   # a claim that makes work: killed, failed
    watchdog.start()
    try:
        err = p.stderr.read().decode("utf-8", "replace")
        _, status, usage = os.wait4(p.pid, 0)
    finally:
        watchdog.cancel()
    took = time.monotonic() - start
    assert took < LIMIT, (words, "killed after", LIMIT, "s")
    code = os.waitstatus_to_exitcode(status)
    assert code in (0, 1, 2, 3, 4, 5, 6), (words, code, err[-2000:])
    assert "internal error" not in err and "Traceback" not in err, (words, err[-2000:])
    return took, usage.ru_maxrss * 1024


@pytest.fixture(scope="module")
def days(tmp_path_factory):
    base = tmp_path_factory.mktemp("claims")
    plain = day_files(base / "plain", simulated_day())
    extreme = day_files(base / "extreme", extreme_day())
    four = day_files(base / "four", extreme_day(), copies=4)
    return base, plain, extreme, four


def test_extreme_numbers_cost_what_plain_ones_do(days):
    base, plain, extreme, four = days
    for k, (a, b, c) in enumerate(zip(runs(plain, base / "p"), runs(extreme, base / "x"),
                                      runs(four, base / "f"), strict=True)):
        for d in ("p", "x", "f"):
            (base / d).mkdir(exist_ok=True)
        t_plain, m_plain = measure(a)
        t_extreme, m_extreme = measure(b)
        assert t_extreme < 3 * t_plain + 3, (k, b[:2], t_plain, t_extreme)
        assert m_extreme < 1.5 * m_plain + 100e6, (k, b[:2], m_plain, m_extreme)
        if b[0] in SCALED:   # the readers of messages: four times the bytes
            t_four, m_four = measure(c)
            assert t_four < 6 * t_extreme + 3, (k, c[:2], t_extreme, t_four)
            assert m_four < 2 * m_extreme + 100e6, (k, c[:2], m_extreme, m_four)


def test_every_subcommand_is_measured(days):
    """A new subcommand must join `runs`."""
    base, plain, *_ = days
    covered = {words[0] for words in runs(plain, base)}
    assert not [c for c in COMMANDS if c not in covered]
