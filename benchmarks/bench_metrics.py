"""Metrics benchmark: what a scrape and a refresh of `mqroute metrics` cost.

Run from the project root (or anywhere):

    python benchmarks/bench_metrics.py [--series N] [--seconds S]

Each figure is measured against a baseline in the same run, on the same data:
* a scrape: the text exposition of N queue-depth series through mqroute's collector
  (graph.metrics.prometheus) against prometheus_client's own labelled Gauge holding the same
  N series (its generate_latest, the library's usual path); and the scrapes after the first,
  which get the exposition kept for the snapshot;
* the cap: bounded() of 4N series down to N, against merging them (one pass over them);
* a refresh of statistics: statistics_snapshot over the records of a simulated day of
  statistics and accounting, against decode_stats + typed records of the same messages.
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

from graph.metrics.prometheus import SnapshotCollector, exposition  # noqa: E402
from graph.metrics.snapshot import Snapshot, bounded, merged  # noqa: E402
from graph.metrics.statistics import statistics_snapshot  # noqa: E402
from traceroute.stats import decode_stats, records  # noqa: E402


def rate(fn: Callable[[], object], seconds: float) -> float:
    """Calls per second of fn over about `seconds` (at least 3 calls)."""
    n, start = 0, time.perf_counter()
    while n < 3 or time.perf_counter() - start < seconds:
        fn()
        n += 1
    return n / (time.perf_counter() - start)


def depths(n: int) -> Snapshot:
    snap = Snapshot()
    for i in range(n):
        snap.put("ibmmq_queue_depth", {"qmgr": f"QM{i % 50}", "queue": f"APP.Q.{i:06d}",
                                       "usage": "NORMAL"}, i)
    return snap


def baseline_registry(n: int):
    from prometheus_client import CollectorRegistry, Gauge

    reg = CollectorRegistry()
    g = Gauge("ibmmq_queue_depth", "Queue depth", ["qmgr", "queue", "platform", "usage",
                                                    "description", "cluster"], registry=reg)
    for i in range(n):
        g.labels(f"QM{i % 50}", f"APP.Q.{i:06d}", "", "NORMAL", "", "").set(i)
    return reg


def statistics_messages() -> list[bytes]:
    """The statistics and accounting a simulated hub writes in a day (bench_stats's day)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_stats import day

    _, written = day(True, n=600)
    return [(w.md, w.data) for w in written]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--series", type=int, default=50_000)
    p.add_argument("--seconds", type=float, default=3.0)
    a = p.parse_args()
    from prometheus_client import generate_latest

    snap = depths(a.series)
    reg = baseline_registry(a.series)
    base = rate(lambda: generate_latest(reg), a.seconds)
    ours = rate(lambda: exposition(snap), a.seconds)
    size = len(exposition(snap))
    collector = SnapshotCollector(snap)
    collector.body(None, False)
    cached = rate(lambda: collector.body(None, False), a.seconds)
    print(f"scrape of {a.series:,} series ({size / 1e6:.1f} MB): prometheus_client Gauge "
          f"{1 / base * 1000:.0f} ms, mqroute's first scrape after a refresh "
          f"{1 / ours * 1000:.0f} ms ({ours / base:.2f}x the baseline's rate), the next ones "
          f"{1 / cached * 1e6:.0f} us (kept until the next refresh)")
    big = [depths(a.series) for _ in range(1)]
    four = depths(4 * a.series)
    base = rate(lambda: merged(big), a.seconds)
    ours = rate(lambda: bounded(four, a.series), a.seconds)
    print(f"cap {4 * a.series:,} -> {a.series:,} series: {1 / ours * 1000:.0f} ms "
          f"(merging {a.series:,}: {1 / base * 1000:.0f} ms)")
    messages = statistics_messages()
    recs = [r for md, d in messages for r in records(decode_stats(md, d))]
    base = rate(lambda: [r for md, d in messages for r in records(decode_stats(md, d))],
                a.seconds)
    ours = rate(lambda: statistics_snapshot(recs), a.seconds)
    both = 1 / (1 / base + 1 / ours)
    print(f"statistics refresh, {len(messages):,} messages / {len(recs):,} records: decode "
          f"{len(recs) * base:,.0f} records/s; + metric values {len(recs) * both:,.0f} "
          f"records/s ({both / base:.2f}x the decode alone)")


if __name__ == "__main__":
    main()
