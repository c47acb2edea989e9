"""Simulator benchmark: trace-routes/s through a generated 1000-queue-manager network.

Run from the project root (or anywhere):

    python benchmarks/bench_simulator.py [--qmgrs 1000] [--traces 300] [--json FILE]
    python -m benchmarks.bench_simulator ...

It builds a `mixed` network (clusters joined by a gateway, `traceroute.sim.netgen`; --kind for
another topology) and runs the same number of dspmqrte-style traces (activity reports, the
default -ro activity,discard and -d no) through it and, as the baseline measured in the same
run, through a 10-queue-manager network of the same kind. Each trace is timed end to end:
build the trace-route message, put it and run the simulator until nothing moves, collect the
reports from the reply queue and parse them, order them into a route.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import cycle, islice
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from traceroute import (  # noqa: E402
    Simulator,
    TraceOptions,
    Verdict,
    build_routes,
    build_trace_message,
    parse_message,
)
from traceroute.sim import netgen  # noqa: E402

BASELINE_QMGRS = 10
#: Traces start from this many queue managers (they hold the reply queue).
ORIGINS = 8
#: Distinct (origin, queue, destination) routes at most; the traces go round them.
MAX_TARGETS = 200
PHASES = ("generate", "simulate", "collect", "order")


@dataclass
class Round:
    """One timed pass of all the traces over a fresh simulator."""

    seconds: float
    phases: dict[str, float]
    activities: int = 0
    records: int = 0
    events: int = 0
    verdicts: Counter = field(default_factory=Counter)
    wrong: int = 0


@dataclass
class Result:
    """One network: how it was built and its best round."""

    name: str
    qmgrs: int
    build_seconds: float
    stats: dict[str, int]
    traces: int
    best: Round
    rounds: list[float]

    @property
    def rate(self) -> float:
        """Trace-routes per second, end to end, in the best round."""
        return self.traces / self.best.seconds

    def per_trace(self, value: float) -> float:
        return value / self.traces


def build(kind: str, qmgrs: int, seed: int,
          traces: int) -> tuple[netgen.GeneratedNetwork, float]:
    """The network, and how long generating it took."""
    gc.collect()
    start = time.perf_counter()
    gen = netgen.generate(kind, qmgrs, seed=seed, targets=min(traces, MAX_TARGETS),
                          origins=ORIGINS)
    return gen, time.perf_counter() - start


def run_round(gen: netgen.GeneratedNetwork, traces: int, seed: int) -> Round:
    """All the traces, one after the other, each timed from message to route."""
    sim = Simulator(gen.network, seed=seed)  # outside the timing: adds SYSTEM queues
    plan = list(islice(cycle(gen.targets), traces))
    phases = dict.fromkeys(PHASES, 0.0)
    outcome = Round(0.0, phases)
    gc.collect()
    clock = time.perf_counter
    start = clock()
    for origin, queue, dest in plan:
        t0 = clock()
        options = TraceOptions.from_dspmqrte(q=queue, rq=netgen.REPLY_Q)
        md, data = build_trace_message(options, msg_id=bytes(24))
        t1 = clock()
        put = sim.put(origin, queue, md, data, appl_name="dspmqrte")
        outcome.events += sim.run()
        t2 = clock()
        records = []
        while (message := sim.get(origin, netgen.REPLY_Q)) is not None:
            records.append(parse_message(*message))
        t3 = clock()
        routes = build_routes(records)
        t4 = clock()
        phases["generate"] += t1 - t0
        phases["simulate"] += t2 - t1
        phases["collect"] += t3 - t2
        phases["order"] += t4 - t3
        route = next((r for r in routes if r.correl_id == put.msg_id), None)
        outcome.records += len(records)
        if route is None:
            outcome.wrong += 1
            continue
        outcome.activities += len(route.activities)
        outcome.verdicts[route.verdict.value] += 1
        if route.verdict is not Verdict.DISCARDED_AT_TARGET or \
                route.location.queue_manager != dest:
            outcome.wrong += 1
    outcome.seconds = clock() - start
    return outcome


def measure(name: str, qmgrs: int, args: argparse.Namespace) -> Result:
    gen, build_seconds = build(args.kind, qmgrs, args.seed, args.traces)
    rounds = [run_round(gen, args.traces, args.seed) for _ in range(args.rounds)]
    best = min(rounds, key=lambda r: r.seconds)
    return Result(name, qmgrs, build_seconds, gen.stats(), args.traces, best,
                  [r.seconds for r in rounds])


# --- report -----------------------------------------------------------------------------------


def render(results: list[Result], baseline: Result) -> str:
    head = (f"{'network':<14}{'qmgrs':>6}{'queues':>8}{'channels':>9}{'build s':>9}"
            f"{'traces':>7}{'act/tr':>7}{'rep/tr':>7}{'ms/trace':>9}{'traces/s':>10}"
            f"{'vs base':>9}")
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(
            f"{r.name:<14}{r.qmgrs:>6}{r.stats['queues']:>8}{r.stats['channels']:>9}"
            f"{r.build_seconds:>9.3f}{r.traces:>7}{r.per_trace(r.best.activities):>7.2f}"
            f"{r.per_trace(r.best.records):>7.2f}{1000 * r.per_trace(r.best.seconds):>9.2f}"
            f"{r.rate:>10.1f}{r.rate / baseline.rate:>8.2f}x")
    return "\n".join(lines)


def render_phases(results: list[Result]) -> str:
    head = f"{'network':<14}" + "".join(f"{p:>10}" for p in PHASES) + f"{'events/tr':>11}"
    lines = ["ms per trace by phase (best round):", head, "-" * len(head)]
    for r in results:
        lines.append(f"{r.name:<14}" + "".join(
            f"{1000 * r.per_trace(r.best.phases[p]):>10.3f}" for p in PHASES)
            + f"{r.per_trace(r.best.events):>11.1f}")
    return "\n".join(lines)


def to_json(results: list[Result], baseline: Result, args: argparse.Namespace,
            wall: float) -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "kind": args.kind,
        "seed": args.seed,
        "traces": args.traces,
        "rounds": args.rounds,
        "wall_seconds": wall,
        "results": [
            {
                "network": r.name,
                "qmgrs": r.qmgrs,
                **{k: v for k, v in r.stats.items() if k != "qmgrs"},
                "build_seconds": r.build_seconds,
                "round_seconds": r.rounds,
                "traces_per_second": r.rate,
                "ratio_to_baseline": r.rate / baseline.rate,
                "ms_per_trace": 1000 * r.per_trace(r.best.seconds),
                "ms_per_trace_by_phase": {p: 1000 * r.per_trace(r.best.phases[p])
                                          for p in PHASES},
                "activities_per_trace": r.per_trace(r.best.activities),
                "reports_per_trace": r.per_trace(r.best.records),
                "events_per_trace": r.per_trace(r.best.events),
                "verdicts": dict(r.best.verdicts),
                "unexpected": r.best.wrong,
            }
            for r in results
        ],
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--qmgrs", type=int, default=1000,
                   help="queue managers in the large network (default 1000)")
    p.add_argument("--traces", type=int, default=300,
                   help="trace-routes per network and round (default 300)")
    p.add_argument("--rounds", type=int, default=3, help="rounds; the best is reported (3)")
    p.add_argument("--seed", type=int, default=0, help="network and simulator seed (0)")
    p.add_argument("--kind", choices=netgen.KINDS, default="mixed",
                   help="topology of both networks (default mixed)")
    p.add_argument("--json", metavar="FILE", type=Path, help="also write the figures as JSON")
    args = p.parse_args(argv)
    if args.qmgrs < 3 or args.traces < 1 or args.rounds < 1:
        p.error("--qmgrs must be >= 3, --traces and --rounds >= 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    print(f"Python {platform.python_version()} ({platform.python_implementation()}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs); network '{args.kind}', seed {args.seed}")
    print(f"{args.traces} trace-routes per network, dspmqrte -rq {netgen.REPLY_Q} "
          f"(activity reports, discard, -d no); best of {args.rounds} rounds\n")
    baseline = measure(f"{args.kind}-{BASELINE_QMGRS}", BASELINE_QMGRS, args)
    large = measure(f"{args.kind}-{args.qmgrs}", args.qmgrs, args)
    results = [large, baseline]
    print(render(results, baseline))
    print(f"\nvs base = traces/s / the {BASELINE_QMGRS}-queue-manager baseline's traces/s "
          "(same run, same options, same number of traces);")
    print("act/tr = activities in a route, rep/tr = reports collected per trace; build s = "
          "netgen.generate.\n")
    print(render_phases(results))
    for r in results:
        verdicts = ", ".join(f"{k} {v}" for k, v in sorted(r.best.verdicts.items()))
        print(f"{r.name}: {verdicts}; unexpected {r.best.wrong}; rounds "
              + " ".join(f"{s:.2f}s" for s in r.rounds))
    wall = time.perf_counter() - started
    print(f"\nwall time {wall:.1f} s")
    if args.json is not None:
        args.json.write_text(json.dumps(to_json(results, baseline, args, wall), indent=2)
                             + "\n")
        print(f"wrote {args.json}")
    return 1 if any(r.best.wrong for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
