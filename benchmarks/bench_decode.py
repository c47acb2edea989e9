"""Decode benchmark: our pcf.decode (compiled and pure-Python paths) against pymqi's unpack.

Run from the project root (or anywhere):

    python benchmarks/bench_decode.py [--seconds S] [--rounds N] [--json FILE] [--profile]
    python -m benchmarks.bench_decode ...

Three decoders on the same messages in one run: `pcf.decode` with its optional compiled path
(pcf._cdecode, when built), `pcf.decoder.decode_python` (the pure-Python path, what
`pcf.decode` was before the compiled path) and pymqi's PCFExecute.unpack. Each rate is taken
on two clocks: wall time and this process's CPU time (less distorted on a loaded machine).
pymqi is fetched once with pip into benchmarks/.cache/ and imported with its C extension
(pymqe, which needs an MQ client to build) replaced by a stub: PCFExecute.unpack is pure Python.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib.util
import json
import platform
import subprocess
import sys
import tarfile
import time
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pcf  # noqa: E402
import pcf.mqmd  # noqa: E402
from pcf import fast  # noqa: E402
from pcf.decoder import decode_python  # noqa: E402
from traceroute.records import samples  # noqa: E402

PYMQI_VERSION = "1.12.13"
CACHE = ROOT / "benchmarks" / ".cache"
VECTOR = ROOT.parent / "shared" / "vectors" / "pymqi" / "statistics_q.dat"
#: Offset of the MQCFH inside an MQEPH (StrucId .. Flags take 32 bytes).
EPH_CFH_OFFSET = 32
#: Command levels the stub reports, like a pymqe built against MQ 8.0.0.1 headers.
STUB_MQLEVELS = ("5.0", "5.1", "5.2", "5.3", "6.0", "7.0", "7.1", "7.5", "8.0.0", "8.0.1")
MB = 1_000_000


@dataclass
class Case:
    """One benchmark input: the messages as received, and what each decoder is given."""

    name: str
    messages: list[bytes]
    decode_kwargs: list[dict[str, Any]]
    pymqi_messages: list[bytes]

    @property
    def size(self) -> int:
        """Total bytes of the messages as received (MQMD excluded)."""
        return sum(len(m) for m in self.messages)


@dataclass
class Result:
    """Rates of one decoder on one case (wall clock and CPU time); None when not run."""

    msg_per_s: float | None = None
    mb_per_s: float | None = None
    cpu_msg_per_s: float | None = None
    cpu_mb_per_s: float | None = None
    error: str | None = None


@dataclass
class Row:
    """One line of the table: a case, each decoder's results and notes on their output.

    `ours` is pcf.decode as shipped (compiled when built), `pure` its pure-Python path.
    """

    case: Case
    ours: Result
    pymqi: Result
    notes: list[str] = field(default_factory=list)
    pure: Result = field(default_factory=Result)

    def ratio_of(self, result: Result, base: Result, cpu: bool = False) -> float | None:
        """result's messages/s divided by base's (on the CPU-time clock when `cpu`)."""
        a, b = ((result.cpu_msg_per_s, base.cpu_msg_per_s) if cpu
                else (result.msg_per_s, base.msg_per_s))
        return a / b if a and b else None

    @property
    def ratio(self) -> float | None:
        """Our messages/s divided by pymqi's (wall clock)."""
        return self.ratio_of(self.ours, self.pymqi)


# --- pymqi ------------------------------------------------------------------------------------


def fetch_pymqi(cache: Path = CACHE, version: str = PYMQI_VERSION) -> Path:
    """The unpacked sdist's pymqi package folder; downloads it with pip on first use."""
    package = cache / f"pymqi-{version}" / "code" / "pymqi"
    if (package / "__init__.py").is_file():
        return package
    cache.mkdir(parents=True, exist_ok=True)
    sdist = cache / f"pymqi-{version}.tar.gz"
    if not sdist.is_file():
        print(f"fetching pymqi {version} sdist into {cache} (pip download) ...", file=sys.stderr)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
               f"pymqi=={version}", "-d", str(cache)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0 or not sdist.is_file():
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise RuntimeError(f"pip download of pymqi=={version} failed: {tail[0]}")
    with tarfile.open(sdist) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(cache, filter="data")
        else:  # Python < 3.11.4: refuse members that would land outside the cache
            for member in tar.getmembers():
                if member.name.startswith(("/", "..")) or "/../" in member.name:
                    raise RuntimeError(f"unsafe path in {sdist.name}: {member.name}")
            tar.extractall(cache)
    if not (package / "__init__.py").is_file():
        raise RuntimeError(f"{sdist.name} has no code/pymqi/__init__.py")
    return package


def _pymqe_stub() -> types.ModuleType:
    """A stand-in for the C module pymqe: the attributes pymqi reads at import, no MQI calls."""
    stub = types.ModuleType("pymqi.pymqe", "Stub of pymqi's C extension (no MQ client here).")
    stub.__mqlevels__ = STUB_MQLEVELS  # type: ignore[attr-defined]
    stub.__mqbuild__ = "client"  # type: ignore[attr-defined]

    def missing(name: str) -> Callable[..., Any]:
        """MQI entry points (MQCONN, MQGET, ...) exist but fail; anything else is absent."""
        if not name.startswith("MQ"):
            raise AttributeError(name)

        def call(*args: object, **kwargs: object) -> Any:
            raise NotImplementedError(f"pymqe.{name}: the MQI is stubbed in this benchmark")

        return call

    stub.__getattr__ = missing  # type: ignore[attr-defined]
    return stub


def import_pymqi(package: Path) -> types.ModuleType:
    """Import the pymqi package at `package` as `pymqi`, with pymqe stubbed."""
    sys.modules["pymqi.pymqe"] = _pymqe_stub()
    spec = importlib.util.spec_from_file_location(
        "pymqi", package / "__init__.py", submodule_search_locations=[str(package)])
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load pymqi from {package}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["pymqi"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules["pymqi"]
        raise
    return module


# --- inputs -----------------------------------------------------------------------------------


def _from_md(name: str, reports: list[tuple[pcf.MQMD, bytes]]) -> Case:
    """A case of MQEPH-first reports: ours gets MQMD fields, pymqi the bytes from the MQCFH."""
    return Case(
        name,
        [data for _, data in reports],
        [{"encoding": md.encoding, "ccsid": md.coded_char_set_id, "fmt": md.format}
         for md, _ in reports],
        [data[EPH_CFH_OFFSET:] for _, data in reports],
    )


def load_cases(operations: int) -> tuple[list[Case], list[str]]:
    """The benchmark inputs, and notes on inputs that were skipped."""
    cases: list[Case] = []
    skipped: list[str] = []
    if VECTOR.is_file():
        data = VECTOR.read_bytes()
        # A statistics message as read from SYSTEM.ADMIN.STATISTICS.QUEUE: MQCFH first.
        # No MQMD is stored with the vector, so our decoder detects the byte order.
        cases.append(Case(VECTOR.name, [data], [{}], [data]))
    else:
        skipped.append(f"{VECTOR.name} skipped: {VECTOR.parent} is absent")
    examples = samples.example_reports()
    cases.append(_from_md(f"example_reports x{len(examples)}", examples))
    cases.append(_from_md(f"large_activity({operations} ops)",
                          [samples.large_activity_report(operations=operations)]))
    return cases, skipped


# --- timing -----------------------------------------------------------------------------------


def best_rates(run: Callable[[], object], seconds: float, rounds: int) -> tuple[float, float]:
    """Calls per second of `run` on the wall clock and on this process's CPU time: warm up,
    then the best of `rounds` rounds of ≥ `seconds` (wall) for each clock."""
    warm_until = time.perf_counter() + min(0.2, seconds)
    run()
    while time.perf_counter() < warm_until:
        run()
    best = best_cpu = 0.0
    for _ in range(rounds):
        gc.collect()
        calls = 0
        start, cpu_start = time.perf_counter(), time.process_time()
        while True:
            run()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        cpu = time.process_time() - cpu_start
        best = max(best, calls / elapsed)
        if cpu > 0:
            best_cpu = max(best_cpu, calls / cpu)
    return best, best_cpu


def best_rate(run: Callable[[], object], seconds: float, rounds: int) -> float:
    """Calls per second of `run` on the wall clock (see best_rates)."""
    return best_rates(run, seconds, rounds)[0]


def _ours_runner(case: Case, decode: Callable[..., pcf.Message] = pcf.decode
                 ) -> Callable[[], None]:
    """Decode every message of the case with pcf.decode (or the decode function given)."""
    pairs = list(zip(case.messages, case.decode_kwargs, strict=True))

    def run() -> None:
        for data, kwargs in pairs:
            decode(data, **kwargs)

    return run


def _pymqi_runner(unpack: Callable[[bytes], Any], case: Case) -> Callable[[], None]:
    """Unpack every message of the case with PCFExecute.unpack; its exceptions are timed too."""
    messages = case.pymqi_messages
    try:
        for data in messages:
            unpack(data)
    except Exception:
        def run() -> None:
            for data in messages:
                with contextlib.suppress(Exception):
                    unpack(data)

        return run

    def run_clean() -> None:
        for data in messages:
            unpack(data)

    return run_clean


def _rates(calls_per_s: float | tuple[float, float], case: Case) -> Result:
    """Messages/s and MB/s (of the messages as received) from calls of the whole case per s
    (a pair: wall clock and CPU time)."""
    wall, cpu = calls_per_s if isinstance(calls_per_s, tuple) else (calls_per_s, None)
    n, size = len(case.messages), case.size / MB
    return Result(wall * n, wall * size, cpu and cpu * n, cpu and cpu * size)


# --- what each decoder returns ----------------------------------------------------------------


def _name(pid: int) -> str:
    """A parameter id's MQ name, or the number."""
    return pcf.parameter_name(pid) or str(pid)


def describe_ours(message: pcf.Message) -> str:
    """Parameters, groups and depth of our decoded tree."""
    walked = list(message.walk())
    groups = [p for _, p in walked if isinstance(p, pcf.Group)]
    top_groups = [p for p in message.parameters if isinstance(p, pcf.Group)]
    sizes = sorted({len(g.parameters) for g in top_groups})
    depth = 1 + max((d for d, p in walked if isinstance(p, pcf.Group)), default=-1)
    return (f"ours: {len(message.parameters)} top-level parameters, {len(top_groups)} of them "
            f"groups (of {'/'.join(map(str, sizes)) or '-'} members); {len(walked)} parameters "
            f"in the tree, {len(walked) - len(groups)} values, {len(groups)} groups, "
            f"nested {depth} deep")


def describe_pymqi(result: dict[int, Any]) -> tuple[str, int]:
    """Keys, group lists and values kept in pymqi's result dict; also the value count."""
    lists = {k: v for k, v in result.items() if isinstance(v, list)
             and all(isinstance(g, dict) for g in v)}
    values = len(result) - len(lists) + sum(len(g) for v in lists.values() for g in v)
    shown = ", ".join(f"{_name(k)} x{len(v)}" for k, v in lists.items())
    return (f"pymqi: {len(result)} top-level keys, {len(lists)} of them group lists "
            f"({shown or 'none'}); {values} values kept", values)


def _same(mine: object, theirs: object) -> bool:
    """Whether pymqi's value equals ours (its strings are padded bytes, ours text)."""
    if isinstance(mine, list) and isinstance(theirs, list):
        return len(mine) == len(theirs) and all(map(_same, mine, theirs))
    if isinstance(mine, str) and isinstance(theirs, bytes):
        return theirs.rstrip(b" \x00").decode("latin-1") == mine
    return mine == theirs


def agreement(message: pcf.Message, result: dict[int, Any]) -> tuple[int, int]:
    """Our values that pymqi has with the same value in the same place, and our value count.

    The place of a top-level value is pymqi's top-level dict; that of a group member is the
    dict pymqi made for the n-th group with that id (document order, as pymqi appends them).
    """
    def matches(members: list[pcf.Parameter], target: object) -> int:
        if not isinstance(target, dict):
            return 0
        return sum(1 for m in members if not isinstance(m, pcf.Group)
                   and m.parameter in target and _same(m.value, target[m.parameter]))

    total = sum(1 for _, p in message.walk() if not isinstance(p, pcf.Group))
    same = matches(message.parameters, result)
    seen: dict[int, int] = {}
    for _, p in message.walk():
        if isinstance(p, pcf.Group):
            n = seen[p.parameter] = seen.get(p.parameter, -1) + 1
            dicts = result.get(p.parameter)
            if isinstance(dicts, list) and n < len(dicts):
                same += matches(p.parameters, dicts[n])
    return same, total


def correctness_notes(case: Case, unpack: Callable[[bytes], Any] | None) -> list[str]:
    """What both decoders make of the case's first message (reported, never asserted)."""
    notes: list[str] = []
    ours = pcf.decode(case.messages[0], **case.decode_kwargs[0])
    notes.append(describe_ours(ours))
    if unpack is None:
        return notes
    try:
        result, _header = unpack(case.pymqi_messages[0])
    except Exception as exc:
        notes.append(f"pymqi cannot decode this message: {type(exc).__name__}: {exc}")
        return notes
    text, kept = describe_pymqi(result)
    notes.append(text)
    same, total = agreement(ours, result)
    notes.append(f"pymqi has {same} of our {total} values, equal and in the same place "
                 f"(its strings are blank-padded bytes, ours text decoded by CCSID)")
    if any(depth > 0 and isinstance(p, pcf.Group) for depth, p in ours.walk()):
        notes.append(
            f"nested groups: pymqi does not raise but flattens them: every group, at any "
            f"depth, becomes a top-level list, and a group's members after an inner group land "
            f"at top level, where repeated ids overwrite each other ({total - kept} values "
            f"lost that way, {kept - same} misplaced)")
    return notes


# --- report -----------------------------------------------------------------------------------


def _fmt(value: float | None, digits: int = 1) -> str:
    """A rate for the table, '-' when absent."""
    return "-" if value is None else f"{value:,.{digits}f}"


def render(rows: list[Row], cpu: bool = False) -> str:
    """The results table on one clock: MB/s of each decoder and the ratios between them."""
    def mb(r: Result) -> float | None:
        return r.cpu_mb_per_s if cpu else r.mb_per_s

    def x(v: float | None) -> str:
        return "-" if v is None else f"{v:.1f}x"

    head = (f"{'input':<26}{'msgs':>5}{'bytes':>8}{'decode MB/s':>12}{'pure MB/s':>11}"
            f"{'pymqi MB/s':>12}{'decode/pymqi':>13}{'pure/pymqi':>11}{'decode/pure':>12}")
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r.case.name:<26}{len(r.case.messages):>5}{r.case.size:>8}"
                     f"{_fmt(mb(r.ours), 2):>12}{_fmt(mb(r.pure), 2):>11}"
                     f"{_fmt(mb(r.pymqi), 2):>12}{x(r.ratio_of(r.ours, r.pymqi, cpu)):>13}"
                     f"{x(r.ratio_of(r.pure, r.pymqi, cpu)):>11}"
                     f"{x(r.ratio_of(r.ours, r.pure, cpu)):>12}")
    return "\n".join(lines)


def profile(cases: list[Case], seconds: float, rounds: int) -> list[str]:
    """Where the time of pcf.decode goes, per input (CPU time, microseconds per message)."""
    lines: list[str] = []
    parse = fast.compiled_parse
    for case in cases:
        n = len(case.messages)

        def us(run: Callable[[], object], n: int = n) -> float:
            return 1e6 / best_rates(run, seconds, rounds)[1] / n

        total = us(_ours_runner(case))
        line = f"{case.name}: pcf.decode {total:.1f} us/msg"
        if parse is not None:
            spans = []
            for data, kwargs in zip(case.messages, case.decode_kwargs, strict=True):
                m = decode_python(data, **kwargs)
                start = 68 if m.eph is not None else 36
                end = len(data) - len(m.user_data)
                little = m.encoding & pcf.mqc.MQENC_INTEGER_MASK == \
                    pcf.mqc.MQENC_INTEGER_REVERSED
                spans.append((data, start, m.parameter_count, little, m.ccsid, end))

            def tree_only(spans: list = spans) -> None:
                for data, start, count, little, ccsid, end in spans:
                    parse(data, start, count, little, ccsid, end, 32)

            tree = us(tree_only)
            gc.disable()
            try:
                tree_nogc = us(tree_only)
            finally:
                gc.enable()
            nodes = sum(1 for d, k in zip(case.messages, case.decode_kwargs, strict=True)
                        for _ in pcf.decode(d, **k).walk()) / n
            line += (f"; the compiled tree walk {tree:.1f} ({100 * tree / total:.0f}%; "
                     f"{1000 * tree / nodes:.0f} ns per node over {nodes:.0f} nodes; with the "
                     f"cyclic GC off {tree_nogc:.1f}), the Python around it (header, MQEPH, "
                     f"Message) {total - tree:.1f}")
        lines.append(line)
    lines.extend(stage_profile(seconds, rounds))
    return lines


def stage_profile(seconds: float, rounds: int, copies: int = 250) -> list[str]:
    """The Spark pipeline's decode stage body, now the one pass of every stage
    (graph.pipeline.classify.classify_batches, without Spark), on the example reports, with
    and without the compiled decoder: reports/s."""
    try:
        import pyarrow as pa

        from graph.pipeline.classify import classify_batches
    except ImportError as exc:
        return [f"pipeline decode stage: not measured ({exc})"]
    reports = samples.example_reports() * copies
    batch = pa.RecordBatch.from_pylist([
        {"source": "bench", "position": i, "error": None, "md": pcf.mqmd.pack(md),
         "data": data} for i, (md, data) in enumerate(reports)])

    def run() -> None:
        for _ in classify_batches(iter([batch])):
            pass

    saved = fast.compiled_parse
    rates = {}
    try:
        for name, parse in (("compiled", saved), ("pure", None)):
            if name == "compiled" and parse is None:
                continue
            fast.compiled_parse = parse
            rates[name] = best_rates(run, seconds, rounds)[1] * len(reports)
    finally:
        fast.compiled_parse = saved
    shown = ", ".join(f"{k} {v:,.0f}" for k, v in rates.items())
    return [f"pipeline decode stage (classify_batches, the one pass of every stage, on "
            f"{len(reports)} example reports in one "
            f"Arrow batch, no Spark; reports/s of CPU time): {shown}"]


def to_json(rows: list[Row], args: argparse.Namespace, pymqi_status: str,
            skipped: list[str]) -> dict[str, Any]:
    """The figures as a JSON-ready dict."""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "pymqi": pymqi_status,
        "seconds_per_round": args.seconds,
        "rounds": args.rounds,
        "mb": MB,
        "skipped": skipped,
        "decoder": fast.STATUS,
        "results": [
            {
                "input": r.case.name,
                "messages": len(r.case.messages),
                "bytes": r.case.size,
                "ours": vars(r.ours),
                "pure": vars(r.pure),
                "pymqi": vars(r.pymqi),
                "ratio": r.ratio,
                "ratio_cpu": r.ratio_of(r.ours, r.pymqi, cpu=True),
                "pure_ratio_cpu": r.ratio_of(r.pure, r.pymqi, cpu=True),
                "notes": r.notes,
            }
            for r in rows
        ],
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command-line options."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=1.0,
                   help="minimum length of each timing round per decoder and input (default 1)")
    p.add_argument("--rounds", type=int, default=3, help="rounds; the best is reported (3)")
    p.add_argument("--operations", type=int, default=100,
                   help="Put operations in the large activity report (default 100)")
    p.add_argument("--json", metavar="FILE", type=Path, help="also write the figures as JSON")
    p.add_argument("--profile", action="store_true",
                   help="also break pcf.decode's time down (compiled tree walk, GC, Python)")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1 or args.operations < 1:
        p.error("--seconds must be > 0, --rounds and --operations ≥ 1")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table and notes."""
    args = parse_args(argv)
    cases, skipped = load_cases(args.operations)
    unpack: Callable[[bytes], Any] | None = None
    try:
        pymqi = import_pymqi(fetch_pymqi())
        unpack = pymqi.PCFExecute.unpack
        pymqi_status = f"pymqi {PYMQI_VERSION} (pure Python; pymqe stubbed)"
    except Exception as exc:
        pymqi_status = f"pymqi unavailable: {exc}"

    print(f"Python {platform.python_version()} ({platform.python_implementation()}, "
          f"{platform.machine()}); {pymqi_status}; pcf.decode: {fast.STATUS}")
    print(f"each rate: best of {args.rounds} rounds of >= {args.seconds:g} s; "
          f"MB = {MB:,} bytes of message data as received (MQMD excluded)\n")

    rows: list[Row] = []
    for case in cases:
        rate = best_rates
        ours = _rates(rate(_ours_runner(case), args.seconds, args.rounds), case)
        pure = _rates(rate(_ours_runner(case, decode_python), args.seconds, args.rounds), case)
        theirs = Result(error="not run")
        if unpack is not None:
            theirs = _rates(rate(_pymqi_runner(unpack, case), args.seconds, args.rounds), case)
        notes = correctness_notes(case, unpack)
        theirs.error = next((n for n in notes if n.startswith("pymqi cannot")), theirs.error)
        rows.append(Row(case, ours, theirs, notes, pure))

    print("Wall clock:")
    print(render(rows))
    print("\nCPU time of this process (time.process_time; less distorted by other load):")
    print(render(rows, cpu=True))
    print("\ndecode = pcf.decode as installed (" + fast.STATUS + "); pure = "
          "pcf.decoder.decode_python, the pure-Python path (pcf.decode without the compiled "
          "decoder); pymqi = PCFExecute.unpack. Ratios are of messages/s in this run. pymqi is "
          f"given each message from its MQCFH on (MQEPH-first reports minus {EPH_CFH_OFFSET} "
          "bytes), ours the whole message.")
    if args.profile:
        print("\nWhere pcf.decode's time goes (CPU time per message):")
        for line in profile(cases, args.seconds, args.rounds):
            print(f"  {line}")
    print("\nWhat each decoder returns (first message of each input; reported, not asserted):")
    for row in rows:
        print(f"  {row.case.name}:")
        for note in row.notes:
            print(f"    - {note}")
    for note in skipped:
        print(f"note: {note}")

    if args.json is not None:
        args.json.write_text(json.dumps(to_json(rows, args, pymqi_status, skipped), indent=2)
                             + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
