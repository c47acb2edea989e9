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

Workloads (--workload-messages, 0 skips them): producers on the traces' origins put to the
same targets and consumers get them at the destinations (traceroute.sim.workload) on the
large network, three times in the same run: plain, with activity trace on every queue
manager (ACTVTRC(ON), traceroute.sim.activity_trace) and with performance and channel
events on (traceroute.sim.events); messages/s and MQI calls/s of each against plain.

--against REV runs this same benchmark code in a subprocess on the `traceroute/` package of
git revision REV (the rest of the tree as now), so a change's gain is measured in one
invocation on one machine state: the machine may be shared, so compare ratios. Both halves
then also hash what the simulator writes (--bytes: corpus(200, seed=1), traces through
150-queue-manager estates of every kind, the workloads' queues and trace messages) and the
run says, item by item, whether the bytes are identical; it exits 1 if any differ.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import cycle, islice
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if len(sys.argv) > 2 and sys.argv[1] == "--_library":  # --against: the library of another tree
    sys.path.insert(0, sys.argv[2])
    del sys.argv[1:3]
elif str(ROOT) not in sys.path:
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
    cpu_seconds: float = 0.0
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

    @property
    def cpu_rate(self) -> float:
        """Trace-routes per second of this process's CPU time, in the best round."""
        return self.traces / self.best.cpu_seconds if self.best.cpu_seconds else 0.0

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
    cpu = time.process_time()
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
    outcome.cpu_seconds = time.process_time() - cpu
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
            f"{'vs base':>9}{'CPU tr/s':>10}")
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(
            f"{r.name:<14}{r.qmgrs:>6}{r.stats['queues']:>8}{r.stats['channels']:>9}"
            f"{r.build_seconds:>9.3f}{r.traces:>7}{r.per_trace(r.best.activities):>7.2f}"
            f"{r.per_trace(r.best.records):>7.2f}{1000 * r.per_trace(r.best.seconds):>9.2f}"
            f"{r.rate:>10.1f}{r.rate / baseline.rate:>8.2f}x{r.cpu_rate:>10.1f}")
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
                "traces_per_cpu_second": r.cpu_rate,
                "cpu_seconds": r.best.cpu_seconds,
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
    p.add_argument("--workload-messages", type=int, default=3000, metavar="N",
                   help="messages per workload run on the large network (0: no workloads)")
    p.add_argument("--against", metavar="REV",
                   help="also run this benchmark on traceroute/ of git revision REV")
    p.add_argument("--bytes", action="store_true",
                   help="also hash what the simulator writes (implied by --against: both "
                        "halves must write the same bytes)")
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
    workloads: list[Workload] = []
    if args.workload_messages > 0:
        gen, _ = build(args.kind, args.qmgrs, args.seed, args.traces)
        workloads = [run_workload(gen, mode, args) for mode in WORKLOAD_MODES]
        print()
        print(render_workloads(workloads, f"{args.kind}-{args.qmgrs}"))
    digests: dict[str, str] = {}
    if args.bytes or args.against:
        digests = byte_digests(args.seed)
    against = None
    if args.against:
        against = run_against(args)
        print()
        print(render_against(against, results, workloads, args.against))
    wall = time.perf_counter() - started
    print(f"\nwall time {wall:.1f} s")
    if args.json is not None:
        data = to_json(results, baseline, args, wall)
        data["workloads"] = [w.to_json() for w in workloads]
        data["digests"] = digests
        if against is not None:
            data["against"] = {"revision": args.against, **against}
        args.json.write_text(json.dumps(data, indent=2) + "\n")
        print(f"wrote {args.json}")
    differ = False
    if against is not None:
        print()
        differ = render_bytes(digests, workloads, against, args.against)
    wrong = any(r.best.wrong for r in results) or any(w.wrong for w in workloads)
    return 1 if wrong or differ else 0


def render_bytes(digests: dict[str, str], workloads: list[Workload], against: dict[str, Any],
                 rev: str) -> bool:
    """Print whether this code wrote the same bytes as REV's; True when anything differs."""
    then = dict(against.get("digests", {}))
    now = dict(digests)
    for w in workloads:
        now[f"workload {w.mode}"] = w.digest
    for w in against.get("workloads", []):
        then[f"workload {w['mode']}"] = w.get("digest", "")
    differ = False
    for name, value in now.items():
        same = then.get(name) == value
        differ |= not same
        print(f"bytes {name:<32} {'identical to ' + rev if same else 'DIFFERENT from ' + rev}"
              f"  sha256 {value[:16]}")
    return differ


# --- workloads: activity trace and events against plain ----------------------------------------

WORKLOAD_MODES = ("plain", "activity-trace", "events")


@dataclass
class Workload:
    """One workload run: what moved, how long it took, what the observer wrote."""

    mode: str
    seconds: float
    cpu_seconds: float
    put: int
    got: int
    calls: int
    written: int
    wrong: str = ""
    digest: str = ""

    @property
    def messages(self) -> int:
        return self.put + self.got

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "seconds": self.seconds, "cpu_seconds": self.cpu_seconds,
                "messages_put": self.put, "messages_got": self.got, "mqi_calls": self.calls,
                "written": self.written, "messages_per_second": self.messages / self.seconds,
                "mqi_calls_per_second": self.calls / self.seconds, "problem": self.wrong,
                "digest": self.digest}


def run_workload(gen: netgen.GeneratedNetwork, mode: str,
                 args: argparse.Namespace) -> Workload:
    """Producers at the traces' origins put to their targets, consumers get at the
    destinations; `mode` adds activity trace or events on every queue manager."""
    from traceroute.sim.resolve import resolve
    from traceroute.sim.workload import Consumer, Producer
    from traceroute.sim.workload import Workload as Apps

    sim = Simulator(gen.network, seed=args.seed)
    targets = gen.targets[:MAX_TARGETS]
    per = max(1, args.workload_messages // len(targets))
    interval = 0.1
    observer: Any = None
    if mode == "activity-trace":
        from traceroute.sim.activity_trace import ActivityTracer

        for qm in sim.network.qmgrs.values():
            qm.attrs["ACTVTRC"] = "ON"
        observer = ActivityTracer(sim)
    elif mode == "events":
        from traceroute.sim.events import SimEvents

        for qm in sim.network.qmgrs.values():
            qm.attrs.update(PERFMEV="ENABLED", CHLEV="ENABLED")
            for q in qm.queues.values():
                if q.kind == "QLOCAL" and not q.name.startswith("SYSTEM."):
                    q.attrs.update(QDPHIEV="ENABLED", QDPLOEV="ENABLED", QDEPTHHI="2",
                                   QDEPTHLO="1", QSVCIEV="HIGH", QSVCINT="50")
        observer = SimEvents(sim)
    calls = [0]
    if observer is not None:
        def count(_call: object) -> None:
            calls[0] += 1
        sim.add_observer(count)
    apps = Apps(sim)
    consumers: set[tuple[str, str]] = set()
    for i, (origin, queue, _dest) in enumerate(targets):
        apps.add(Producer(origin, queue, count=per, interval=interval, start=i * 0.001,
                          appl_name=f"producer{i % 10}"))
        r = resolve(sim.network, origin, queue)
        where = (r.remote_qmgr, r.remote_q) if r.xmitq else (origin, r.queue)
        if r.ok and where not in consumers:
            consumers.add(where)
            apps.add(Consumer(*where, interval=0.5, batch=1000))
    gc.collect()
    start, cpu = time.perf_counter(), time.process_time()
    apps.run(until=per * interval + 5.0)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    digest = _queues_digest(sim, observer.written if mode == "activity-trace" else ())
    written = 0
    if mode == "activity-trace":
        written = len(observer.written)
    elif mode == "events":
        written = len(observer.events)
    wrong = ""
    if apps.failed:
        wrong = f"{len(apps.failed)} puts failed"
    elif len(apps.got) != len(apps.sent):
        wrong = f"{len(apps.sent) - len(apps.got)} messages not got"
    return Workload(mode, seconds, cpu_seconds, len(apps.sent), len(apps.got), calls[0],
                    written, wrong, digest)


# --- bytes: what this code writes, for comparing with --against REV ----------------------------

def _md_bytes(md: Any) -> bytes:
    from pcf.mqmd import pack
    return pack(md, ccsid=1208)


def _queues_digest(sim: Simulator, written: Any = ()) -> str:
    """SHA-256 of every message left on every queue (MQMD packed, then data) and `written`."""
    h = hashlib.sha256()
    for (qmgr, queue), stored in sorted(sim.queues.items()):
        h.update(f"{qmgr}/{queue}/{len(stored)}".encode())
        for s in stored:
            h.update(_md_bytes(s.md))
            h.update(s.data)
    for qmgr, md, data in written:
        h.update(qmgr.encode())
        h.update(_md_bytes(md))
        h.update(data)
    return h.hexdigest()


def byte_digests(seed: int) -> dict[str, str]:
    """SHA-256 of what the simulator writes: corpus(200, seed=1) (every MQMD and body) and,
    on 150-queue-manager estates of every kind, the MQSC content and the messages left on
    every queue after 20 traces from each of its targets."""
    from traceroute.sim.corpus import corpus

    h = hashlib.sha256()
    for c in corpus(200, seed=1):
        h.update(f"{c.variant}/{c.qmgr}/{c.queue}".encode())
        h.update(_md_bytes(c.md))
        h.update(c.data)
    out = {"corpus(200, seed=1)": h.hexdigest()}
    for kind in netgen.KINDS:
        gen = netgen.generate(kind, 150, seed=seed, targets=20, origins=ORIGINS)
        out[f"{kind}-150 estate"] = hashlib.sha256(
            repr(sorted(netgen.content(gen.network).items())).encode()).hexdigest()
        sim = Simulator(gen.network, seed=seed)
        for n, (origin, queue, _dest) in enumerate(gen.targets):
            options = TraceOptions.from_dspmqrte(q=queue, rq=netgen.REPLY_Q)
            md, data = build_trace_message(options, msg_id=n.to_bytes(24, "big"))
            sim.put(origin, queue, md, data, appl_name="dspmqrte")
            sim.run()
        out[f"{kind}-150 traces"] = _queues_digest(sim)
    return out


def render_workloads(workloads: list[Workload], network: str) -> str:
    plain = workloads[0]
    head = (f"{'workload on ' + network:<28}{'put':>7}{'got':>7}{'MQI calls':>10}"
            f"{'written':>9}{'s':>8}{'msgs/s':>9}{'vs plain':>9}{'CPU msgs/s':>11}")
    lines = [head, "-" * len(head)]
    for w in workloads:
        lines.append(f"{w.mode:<28}{w.put:>7}{w.got:>7}{w.calls if w.calls else '-':>10}"
                     f"{w.written if w.mode != 'plain' else '-':>9}{w.seconds:>8.2f}"
                     f"{w.messages / w.seconds:>9.0f}"
                     f"{(w.messages / w.seconds) / (plain.messages / plain.seconds):>8.2f}x"
                     f"{w.messages / w.cpu_seconds:>11.0f}")
    lines.append("msgs = messages put + got; written = activity-trace messages or events; MQI "
                 "calls counted by an extra observer (not on plain)")
    for w in workloads:
        if w.wrong:
            lines.append(f"{w.mode}: {w.wrong}")
    return "\n".join(lines)


# --- --against REV: the same benchmark on another revision's traceroute/ ------------------------

def run_against(args: argparse.Namespace) -> dict[str, Any]:
    """Run this file on traceroute/ of args.against (pcf and the rest as now); its JSON."""
    with tempfile.TemporaryDirectory(prefix="bench_sim_") as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.against,
                                  "traceroute"], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        for name in os.listdir(ROOT):
            if name != "traceroute" and (ROOT / name / "__init__.py").exists():
                os.symlink(ROOT / name, Path(tmp) / name)
        out = Path(tmp) / "against.json"
        cmd = [sys.executable, str(Path(__file__).resolve()), "--_library", tmp,
               "--qmgrs", str(args.qmgrs), "--traces", str(args.traces),
               "--rounds", str(args.rounds), "--seed", str(args.seed), "--kind", args.kind,
               "--workload-messages", str(args.workload_messages), "--bytes",
               "--json", str(out)]
        print(f"\n--against {args.against}: the same benchmark on its traceroute/ ...",
              flush=True)
        proc = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True)
        if proc.returncode not in (0, 1) or not out.exists():
            raise SystemExit(f"--against {args.against} failed: {proc.stderr.strip()[-800:]}")
        return json.loads(out.read_text())


def render_against(against: dict[str, Any], results: list[Result],
                   workloads: list[Workload], rev: str) -> str:
    old = {r["network"]: r for r in against["results"]}
    head = (f"{'now vs ' + rev:<28}{'traces/s':>10}{'then':>10}{'gain':>8}"
            f"{'CPU tr/s':>10}{'then':>10}{'gain':>8}")
    lines = [head, "-" * len(head)]
    for r in results:
        o = old.get(r.name)
        if o is None:
            continue
        lines.append(f"{r.name:<28}{r.rate:>10.1f}{o['traces_per_second']:>10.1f}"
                     f"{r.rate / o['traces_per_second']:>7.2f}x"
                     f"{r.cpu_rate:>10.1f}{o['traces_per_cpu_second']:>10.1f}"
                     f"{r.cpu_rate / o['traces_per_cpu_second']:>7.2f}x")
    then = {w["mode"]: w for w in against.get("workloads", [])}
    for w in workloads:
        o = then.get(w.mode)
        if o is None:
            continue
        now_rate, then_rate = w.messages / w.seconds, o["messages_per_second"]
        now_cpu = w.messages / w.cpu_seconds
        then_cpu = (o["messages_put"] + o["messages_got"]) / o["cpu_seconds"]
        lines.append(f"{'workload ' + w.mode + ' msgs':<28}{now_rate:>10.0f}{then_rate:>10.0f}"
                     f"{now_rate / then_rate:>7.2f}x{now_cpu:>10.0f}{then_cpu:>10.0f}"
                     f"{now_cpu / then_cpu:>7.2f}x")
    lines.append(f"then = this benchmark on traceroute/ of {rev}, run in the same invocation "
                 "just after (pcf and the rest of the tree as now)")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
