"""Ordering benchmark: route building for 1k/10k/100k activities of ONE message.

Run from the project root:

    python benchmarks/bench_ordering.py [--sizes 1000,10000,100000] [--pairwise 1000]

Four shapes of one message's activity reports, shuffled: `chained` (a message crossing
queue managers QM0 → QM1 → ..., linked by Send → Receive and Put → MCA Get, no TraceRoute
counters), `unchained` (activities nothing links: browses of distinct queues, placed by
time), `counted` (the chain with TraceRoute counters) and `one-queue` (put to one queue
and got back, again and again: every get has every earlier put as a candidate). For each
size it prints the time of `build_routes` and, as the baseline measured in the same run on
the same input,
the time of sorting the records by (time, position), a pure O(n log n) operation: the ratio
`build ÷ sort` stays flat (or falls) as n grows when ordering is O(n log n). It also counts
the pairs of activities examined (link tests, tree checks), a measure of work that machine
load does not disturb: constant per activity here, n² before. `--pairwise N` also times
the ordering as it was before the index (every pair tried), at size N only.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pcf import mqc  # noqa: E402
from pcf.mqmd import MQMD  # noqa: E402
from tests.support.ordering_reference import reference_by_chaining  # noqa: E402
from traceroute.records.model import Activity, Operation, TraceRoute  # noqa: E402
from traceroute.records.parse import REPORT, Record  # noqa: E402
from traceroute.routes import ordering  # noqa: E402

KEY = b"K" * 24
DATE = "2026-11-22"


def _t(k: int) -> str:
    return f"{k // 3600 % 24:02d}:{k // 60 % 60:02d}:{k % 60:02d}"


def _act(ops: list[Operation], recorded: int | None) -> Activity:
    tr = TraceRoute(recorded_activities=recorded) if recorded is not None else None
    return Activity("app", mqc.MQAT_QMGR, "", tuple(ops), tr)


def chained(n: int, counted: bool = False) -> list[Activity]:
    """n activities of a message hopping QM0 → QM1 → ... (sender get+send, receive+put)."""
    out: list[Activity] = []
    hop = 0
    while len(out) < n:
        qm, nxt, t = f"QM{hop}", f"QM{hop + 1}", _t(hop)
        put = Operation(mqc.MQOPER_PUT, DATE, t, qm, queue="Q", resolved_queue=nxt,
                        remote_queue="Q", remote_qmgr="QMX")
        if hop == 0:
            ops = [put]
        else:
            ops = [Operation(mqc.MQOPER_RECEIVE, DATE, t, qm, channel=f"{qm}.CH",
                             remote_qmgr=f"QM{hop - 1}"), put]
        out.append(_act(ops, len(out) + 1 if counted else None))
        out.append(_act([Operation(mqc.MQOPER_GET, DATE, t, qm, queue=nxt, resolved_queue=nxt,
                                   embedded_md=MQMD()),
                         Operation(mqc.MQOPER_SEND, DATE, t, qm, channel=f"{nxt}.CH",
                                   remote_qmgr=nxt, xmit_queue=nxt)],
                        len(out) + 1 if counted else None))
        hop += 1
    return out[:n]


def unchained(n: int) -> list[Activity]:
    """n activities that nothing links (browses of distinct queues)."""
    return [_act([Operation(mqc.MQOPER_BROWSE, DATE, _t(k), "QM1", queue=f"Q{k}")], None)
            for k in range(n)]


def loop(n: int) -> list[Activity]:
    """n activities putting the message to one queue and getting it back, again and again
    (every get has every earlier put as a candidate)."""
    return [_act([Operation(mqc.MQOPER_PUT if k % 2 == 0 else mqc.MQOPER_GET,
                            f"2026-11-{10 + k // 86400:02d}", _t(k), "QM1", queue="Q",
                            resolved_queue="Q")], None) for k in range(n)]


SHAPES = {"chained": chained, "unchained": unchained,
          "counted": lambda n: chained(n, counted=True), "one-queue": loop}


def timed(fn, *, at_least: float = 0.0) -> float:
    """Seconds per call of fn (gc paused; repeated until `at_least` seconds have passed)."""
    gc.collect()
    gc.disable()
    try:
        calls, start = 0, time.perf_counter()
        while True:
            fn()
            calls += 1
            spent = time.perf_counter() - start
            if spent >= at_least:
                return spent / calls
    finally:
        gc.enable()


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--pairwise", type=int, default=1000,
                    help="also time the old every-pair ordering at this size (0: skip)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    rnd = random.Random(args.seed)
    print(f"{'shape':<10} {'activities':>10} {'build s':>9} {'sort s':>8} {'build/sort':>10} "
          f"{'µs/act':>8} {'pairs/act':>9}")
    calls = [0]  # pairs examined: link tests (counted ordering), tree checks (chaining)
    real_link, real_root = ordering.link, ordering._Trees.root

    def counting_link(a, b):
        calls[0] += 1
        return real_link(a, b)

    def counting_root(self, i):
        calls[0] += 1
        return real_root(self, i)
    first_ratio: dict[str, float] = {}
    for shape, make in SHAPES.items():
        for n in sizes:
            acts = make(n)
            records = [Record(REPORT, KEY, (a,)) for a in acts]
            rnd.shuffle(records)
            routes: list = []
            calls[0] = 0
            ordering.link, ordering._Trees.root = counting_link, counting_root
            try:
                build = timed(lambda r=records, out=routes: out.append(ordering.build_routes(r)))
            finally:
                ordering.link, ordering._Trees.root = real_link, real_root
            (route,) = routes[0]
            assert len(route.activities) == n
            keys = [(ordering._time(ordering._Entry(r.activities[0], None, k)), k)
                    for k, r in enumerate(records)]
            sort = timed(lambda k=keys: sorted(k), at_least=0.2)
            ratio = build / sort
            first_ratio.setdefault(shape, ratio)
            print(f"{shape:<10} {n:>10,} {build:>9.3f} {sort:>8.4f} {ratio:>10.1f} "
                  f"{build / n * 1e6:>8.1f} {calls[0] / n:>9.2f}   (build/sort "
                  f"x{ratio / first_ratio[shape]:.2f} of the smallest)")
    if args.pairwise:
        n = args.pairwise
        for shape in ("chained", "unchained", "one-queue"):
            records = [Record(REPORT, KEY, (a,)) for a in SHAPES[shape](n)]
            rnd.shuffle(records)
            new = timed(lambda r=records: ordering.build_routes(r))
            saved = ordering._by_chaining
            ordering._by_chaining = reference_by_chaining
            try:
                old_routes: list = []
                old = timed(lambda r=records, out=old_routes: out.append(ordering.build_routes(r)))
            finally:
                ordering._by_chaining = saved
            assert old_routes[0] == ordering.build_routes(records)
            print(f"every-pair ordering ({shape}, {n:,} activities): {old:.2f} s; "
                  f"indexed {new:.3f} s ({old / new:.0f}x faster, same route)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
