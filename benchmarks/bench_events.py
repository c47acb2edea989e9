"""Events benchmark: event messages decoded per second, engine operations per second.

Run from the project root (or anywhere):

    python benchmarks/bench_events.py [--seconds S] [--rounds N] [--json FILE]

Each figure is measured against a baseline in the same run, on the same data:
* decoding: a mix of event messages (performance, channel, configuration with ~60 queue
  attributes, command with groups) as a queue manager writes them. Baseline: pcf.decode of
  the same bytes (the PCF codec alone); measured: decode_event (typed Event), and
  decode_event + the amqsevt JSON object.
* the engine: puts and gets on a queue with every performance event enabled (depth High/
  Low/Full toggling, service interval High/OK). Baseline: the same operations on a plain
  depth counter (the Python loop and a dict lookup, nothing else).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pcf  # noqa: E402
from pcf import mqc  # noqa: E402
from traceroute.display.amqsevt import from_json, iter_json, to_json  # noqa: E402
from traceroute.events import decode_event  # noqa: E402
from traceroute.events.build import event_message, perf_event  # noqa: E402
from traceroute.events.config import channel_event, config_event  # noqa: E402
from traceroute.events.engine import PerfEvent, QueueAttrs, QueueManagerEngine  # noqa: E402

CAPTURES = ROOT.parent / "shared" / "vectors" / "amqsevt-json"
T = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def messages() -> list[tuple[pcf.MQMD, bytes]]:
    """The mix: 40 % performance, 30 % channel, 20 % configuration, 10 % command events."""
    out = []
    for i in range(40):
        out.append(event_message(perf_event(PerfEvent(i * 1000, "QM1", f"APP.Q{i % 7}",
                                                      mqc.MQRC_Q_DEPTH_HIGH, i, 800 + i,
                                                      1000 + i, 200 + i))))
    for i in range(30):
        out.append(event_message(channel_event(mqc.MQRC_CHANNEL_STOPPED, "QM1",
                                               f"QM1.TO.QM{i % 5}", T, xmitq=f"QM{i % 5}",
                                               qualifier=mqc.MQRQ_CHANNEL_STOPPED_ERROR)))
    captured = []
    if CAPTURES.is_dir():
        for name in ("2368-config-change-object.json.txt", "2412-command-mqsc.json.txt"):
            path = CAPTURES / name
            if path.exists():
                captured.append(next(iter(iter_json(path.read_text()))).event)
    if len(captured) == 2:
        config, command = captured
        out += [event_message(config)] * 20 + [event_message(command)] * 10
    else:  # no ../shared: configuration events from MQSC-like attributes
        attrs = {"DESCR": "orders", "MAXDEPTH": "5000", "QDEPTHHI": "80", "QDPHIEV": "ENABLED",
                 "PUT": "ENABLED", "GET": "ENABLED", "DEFPSIST": "YES", "USAGE": "NORMAL"}
        out += [event_message(config_event(mqc.MQRC_CONFIG_CREATE_OBJECT, "QM1", "QLOCAL",
                                           "APP.Q", attrs, T))] * 30
    return out


def rate(fn: Callable[[], int], seconds: float, rounds: int) -> float:
    """Items per second: the median of `rounds` runs of at least `seconds` each."""
    rates = []
    for _ in range(rounds):
        done, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            done += fn()
        rates.append(done / elapsed)
    return statistics.median(rates)


def bench_decode(seconds: float, rounds: int) -> dict[str, float]:
    """Event messages per second: pcf.decode (baseline), decode_event, + amqsevt JSON."""
    data = messages()

    def codec() -> int:
        for md, raw in data:
            pcf.decode(raw, encoding=md.encoding, ccsid=md.coded_char_set_id, fmt=md.format)
        return len(data)

    def typed() -> int:
        for md, raw in data:
            decode_event(raw, md)
        return len(data)

    def as_json() -> int:
        for md, raw in data:
            to_json(decode_event(raw, md))
        return len(data)

    def from_amqsevt() -> int:
        for obj in texts:
            from_json(json.loads(obj))
        return len(texts)

    texts = [json.dumps(to_json(decode_event(raw, md))) for md, raw in data]
    return {"pcf.decode (baseline)": rate(codec, seconds, rounds),
            "decode_event": rate(typed, seconds, rounds),
            "decode_event + amqsevt JSON": rate(as_json, seconds, rounds),
            "amqsevt JSON -> Event": rate(from_amqsevt, seconds, rounds)}


def _ops(n: int) -> list[tuple[int, str]]:
    """A saw-tooth of puts and gets that crosses every threshold many times."""
    ops, t = [], 0
    for cycle in range(n // 2200 + 1):
        for _ in range(1100):
            t += 7
            ops.append((t, "PUT"))
        for _ in range(1100):
            t += 5 + (cycle % 3) * 40
            ops.append((t, "GET"))
    return ops[:n]


def bench_engine(seconds: float, rounds: int) -> dict[str, float]:
    """Operations per second: a plain depth counter (baseline) and the event engine."""
    ops = _ops(22_000)

    def counter() -> int:
        depth = {"Q": 0}
        for _t, op in ops:
            if op == "PUT":
                if depth["Q"] < 1000:
                    depth["Q"] += 1
            elif depth["Q"]:
                depth["Q"] -= 1
        return len(ops)

    events = [0]

    def engine() -> int:
        e = QueueManagerEngine("QM1", [QueueAttrs(
            "Q", max_depth=1000, depth_high_event=True, depth_low_event=True,
            depth_max_event=True, service_interval=200,
            service_interval_event=mqc.MQQSIE_HIGH)])
        put, get = e.put, e.get
        for t, op in ops:
            events[0] += len(put(t, "Q") if op == "PUT" else get(t, "Q"))
        return len(ops)

    return {"depth counter (baseline)": rate(counter, seconds, rounds),
            "performance-event engine": rate(engine, seconds, rounds)}


def main(argv: list[str] | None = None) -> int:
    """Run both benchmarks and print the figures with their ratios to the baselines."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=1.0, help="per measurement (default 1)")
    p.add_argument("--rounds", type=int, default=3, help="median of N runs (default 3)")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = p.parse_args(argv)
    results = {"python": platform.python_version(), "machine": platform.machine(),
               "decode (events/s)": bench_decode(args.seconds, args.rounds),
               "engine (operations/s)": bench_engine(args.seconds, args.rounds)}
    for title in ("decode (events/s)", "engine (operations/s)"):
        figures = results[title]
        base = next(v for k, v in figures.items() if "baseline" in k)
        print(title)
        for name, value in figures.items():
            print(f"  {name:<32}{value:>14,.0f}  {value / base:6.2f}x baseline")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
