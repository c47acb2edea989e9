"""Accounting/statistics benchmark: records per second, and the simulator's collector cost.

Run from the project root (or anywhere):

    python benchmarks/bench_stats.py [--seconds S]

Each figure is measured against a baseline in the same run, on the same data:
* decoding: the statistics and accounting messages a simulated day writes (MQI, queue,
  channel statistics; MQI and queue accounting) plus the real queue-statistics vector when
  ../shared/vectors is present. Baseline: pcf.decode of the same bytes (the PCF codec
  alone); measured: decode_stats + typed records, then + the JSON objects (`stats --json`),
  then + amqsmon text (`stats`).
* the collector: the same simulated traffic with and without a StatisticsCollector.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pcf  # noqa: E402
from pcf.mqmd import MQMD  # noqa: E402
from traceroute.display.amqsmon import record_to_json, render_amqsmon  # noqa: E402
from traceroute.sim.netgen import generate  # noqa: E402
from traceroute.sim.simulator import Simulator  # noqa: E402
from traceroute.sim.statistics import StatisticsCollector  # noqa: E402
from traceroute.stats import decode_stats, records  # noqa: E402

VECTOR = ROOT.parent / "shared" / "vectors" / "pymqi" / "statistics_q.dat"


def day(collect: bool, n: int = 1500) -> tuple[float, list]:
    """Simulate n messages on a 40-queue-manager hub; seconds taken and what was written."""
    gen = generate("hub", 40, seed=3)
    for qm in gen.network.qmgrs.values():
        qm.attrs.update(STATQ="ON", STATCHL="MEDIUM", STATMQI="ON", STATINT="600",
                        ACCTMQI="ON", ACCTQ="ON")
    start = time.perf_counter()
    sim = Simulator(gen.network, seed=3)
    collector = StatisticsCollector(sim) if collect else None
    for i in range(n):
        origin, queue, _ = gen.targets[i % len(gen.targets)]
        sim.run(until=i * 20.0)
        sim.put(origin, queue, MQMD(format="MQSTR"), b"x" * 100, appl_name="orders")
        if i % 50 == 49:
            for _, q, d in gen.targets:
                while sim.get(d, q, appl_name="consumer") is not None:
                    pass
    sim.run()
    written = collector.finish() if collector else []
    return time.perf_counter() - start, written


def rate(fn: Callable[[], int], seconds: float) -> float:
    """Items per second of fn (which returns how many items it did) over ~seconds."""
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += fn()
    return done / (time.perf_counter() - start)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3.0)
    args = p.parse_args()
    plain, _ = day(False)
    collected, written = day(True)
    msgs = [(w.md, w.data) for w in written]
    if VECTOR.exists():
        msgs.append((None, VECTOR.read_bytes()))
    n_records = sum(len(records(decode_stats(md, d))) for md, d in msgs)
    print(f"{len(msgs)} messages, {n_records} records")

    def base() -> int:
        for md, d in msgs:
            pcf.decode(d, encoding=md.encoding if md else None)
        return len(msgs)

    def typed() -> int:
        for md, d in msgs:
            records(decode_stats(md, d))
        return len(msgs)

    def as_json() -> int:
        for md, d in msgs:
            for r in records(decode_stats(md, d)):
                record_to_json(r)
        return len(msgs)

    def as_text() -> int:
        for md, d in msgs:
            list(render_amqsmon(records(decode_stats(md, d))))
        return len(msgs)

    b = rate(base, args.seconds)
    print(f"pcf.decode (baseline)        {b:10.0f} messages/s")
    for name, fn in (("decode_stats + records", typed), ("  + JSON (stats --json)", as_json),
                     ("  + amqsmon text (stats)", as_text)):
        r = rate(fn, args.seconds)
        print(f"{name:<29}{r:10.0f} messages/s  {r / b:5.2f}x  "
              f"({r * n_records / len(msgs):.0f} records/s)")
    print(f"simulated day without collector {plain:6.2f} s, with {collected:6.2f} s "
          f"({collected / plain:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
