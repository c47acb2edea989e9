"""Live reads and the REST API benchmark: what reading the queues live costs over reading
a dump of the same messages, and what the REST API costs over PCF.

Run from the project root (or anywhere):

    python benchmarks/bench_live.py [--events N] [--rounds R] [--json FILE]

Each figure is measured against a baseline in the same run, on the same data:
* live reads: N event messages on an estate folder's SYSTEM.ADMIN.QMGR.EVENT. Baseline:
  `mqroute events DUMP` over a dump of the very same messages (decode and print); measured:
  `events -m QM1 --network DIR --browse` (visits, browse), and `events -m QM1 --network DIR
  --save FILE` (taken under syncpoint into the unit of work, printed, appended and fsynced
  to the dump, made final), each on a fresh copy of the estate.
* the REST API: `mqroute status --json --system` of the demo estate. Baseline: over PCF
  (--network, the command server through queues); measured: --rest against `mqroute sim
  rest`'s server in this process (real HTTP on 127.0.0.1).
Wall-clock and CPU seconds are both reported (the machine may be shared); the best round.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mqroute.main import main  # noqa: E402
from pcf import dmpmqmsg  # noqa: E402
from pcf.mqmd import MQMD  # noqa: E402
from traceroute.sim.estate import Estate  # noqa: E402


def quiet(*words: str) -> int:
    """`mqroute WORDS...` in this process, its output thrown away."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(list(words))


def timed(fn, rounds: int) -> tuple[float, float]:
    """(best wall seconds, best CPU seconds) of `fn()` over `rounds` runs."""
    walls, cpus = [], []
    for _ in range(rounds):
        prepare = getattr(fn, "prepare", None)
        if prepare:
            prepare()
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus)


def make_estate(folder: Path, events: int) -> Path:
    """The demo estate with `events` Local events (puts to unknown queues) on QM1."""
    path = folder / "estate"
    assert quiet("sim", "init", str(path), "--network", "demo", "--seed", "7") == 0
    with Estate.open(path) as e:
        e.sim.network.qmgrs["QM1"].attrs["LOCALEV"] = "ENABLED"
        for i in range(events):
            e.sim.put("QM1", f"NO.SUCH.{i}", MQMD(), b"x")
        messages = e.sim.browse("QM1", "SYSTEM.ADMIN.QMGR.EVENT")
    dmpmqmsg.write_file(folder / "events.dmp",
                        [dmpmqmsg.DumpedMessage(md, data) for md, data in messages])
    assert len(messages) == events
    return path


def live_reads(events: int, rounds: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="bench-live-"))
    try:
        master = make_estate(work, events)
        dump = work / "events.dmp"
        copy = work / "copy"

        def fresh():
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(master, copy)
            (work / "saved.dmp").unlink(missing_ok=True)

        def files():
            assert quiet("events", str(dump)) == 0

        def browse():
            assert quiet("events", "-m", "QM1", "--network", str(copy), "--browse") == 0

        def save():
            assert quiet("events", "-m", "QM1", "--network", str(copy), "--save",
                         str(work / "saved.dmp")) == 0

        browse.prepare = fresh  # type: ignore[attr-defined]
        save.prepare = fresh  # type: ignore[attr-defined]
        base = timed(files, rounds)
        out = {"events": events, "files": base}
        for name, fn in (("browse", browse), ("save", save)):
            wall, cpu = timed(fn, rounds)
            out[name] = (wall, cpu)
            out[f"{name}_ratio_wall"] = wall / base[0]
            out[f"{name}_ratio_cpu"] = cpu / base[1]
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def rest_vs_pcf(rounds: int) -> dict:
    from traceroute.sim.rest import RestServer

    work = Path(tempfile.mkdtemp(prefix="bench-rest-"))
    try:
        path = work / "estate"
        assert quiet("sim", "init", str(path), "--network", "demo") == 0
        server = RestServer(path, user="u", password="p").start()
        os.environ["MQROUTE_PASSWORD"] = "p"
        try:
            def pcf():
                assert quiet("status", "--json", "--system", "-m", "QM1", "--network",
                             str(path)) == 0

            def rest():
                assert quiet("status", "--json", "--system", "-m", "QM1", "--rest",
                             server.url, "-u", "u") == 0

            base = timed(pcf, rounds)
            measured = timed(rest, rounds)
        finally:
            server.shutdown()
        return {"pcf": base, "rest": measured, "rest_ratio_wall": measured[0] / base[0],
                "rest_ratio_cpu": measured[1] / base[1]}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(argv: list[str] | None = None) -> dict:
    """Run the benchmark; the figures."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--events", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--json", metavar="FILE")
    args = p.parse_args(argv)
    load = os.getloadavg()[0]
    figures = {"live": live_reads(args.events, args.rounds),
               "rest": rest_vs_pcf(args.rounds),
               "python": platform.python_version(), "machine": platform.machine(),
               "cpus": os.cpu_count(), "load_average_1min": [load, os.getloadavg()[0]]}
    live, rest = figures["live"], figures["rest"]
    n = live["events"]
    print(f"CPython {platform.python_version()} {platform.machine()}, {os.cpu_count()} CPUs, "
          f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end "
          "(the CPU-time ratios are the ones to compare on a shared machine)")
    print(f"{n} events on an estate folder's SYSTEM.ADMIN.QMGR.EVENT (best of {args.rounds}):")
    for name in ("files", "browse", "save"):
        wall, cpu = live[name]
        ratio = "" if name == "files" else (f"  x{live[f'{name}_ratio_wall']:.2f} wall, "
                                            f"x{live[f'{name}_ratio_cpu']:.2f} CPU of files")
        print(f"  {name:7s} {wall:7.2f} s wall {cpu:7.2f} s CPU  {n / wall:9,.0f} events/s"
              f"{ratio}")
    print("status --json --system of the demo estate's QM1:")
    print(f"  pcf     {rest['pcf'][0]:7.2f} s wall {rest['pcf'][1]:7.2f} s CPU")
    print(f"  rest    {rest['rest'][0]:7.2f} s wall {rest['rest'][1]:7.2f} s CPU  "
          f"x{rest['rest_ratio_wall']:.2f} wall, x{rest['rest_ratio_cpu']:.2f} CPU of pcf "
          "(the server runs in this process: its CPU counts)")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    return figures


if __name__ == "__main__":
    run()
