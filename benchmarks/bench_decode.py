"""Decode benchmark: our pcf.decode against pymqi's pure-Python PCFExecute.unpack.

Run from the project root (or anywhere):

    python benchmarks/bench_decode.py [--seconds S] [--rounds N] [--json FILE]
    python -m benchmarks.bench_decode ...

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
    """Rates of one decoder on one case; rate is None when the decoder was not run."""

    msg_per_s: float | None = None
    mb_per_s: float | None = None
    error: str | None = None


@dataclass
class Row:
    """One line of the table: a case, both decoders' results and notes on their output."""

    case: Case
    ours: Result
    pymqi: Result
    notes: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        """Our messages/s divided by pymqi's."""
        if self.ours.msg_per_s and self.pymqi.msg_per_s:
            return self.ours.msg_per_s / self.pymqi.msg_per_s
        return None


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


def best_rate(run: Callable[[], object], seconds: float, rounds: int) -> float:
    """Calls per second of `run`: warm up, then the best of `rounds` rounds of ≥ `seconds`."""
    warm_until = time.perf_counter() + min(0.2, seconds)
    run()
    while time.perf_counter() < warm_until:
        run()
    best = 0.0
    for _ in range(rounds):
        gc.collect()
        calls = 0
        start = time.perf_counter()
        while True:
            run()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        best = max(best, calls / elapsed)
    return best


def _ours_runner(case: Case) -> Callable[[], None]:
    """Decode every message of the case with pcf.decode."""
    pairs = list(zip(case.messages, case.decode_kwargs, strict=True))
    decode = pcf.decode

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


def _rates(calls_per_s: float, case: Case) -> Result:
    """Messages/s and MB/s (of the messages as received) from calls of the whole case per s."""
    return Result(calls_per_s * len(case.messages), calls_per_s * case.size / MB)


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


def render(rows: list[Row]) -> str:
    """The results table."""
    head = (f"{'input':<26}{'msgs':>5}{'bytes':>9}{'ours msg/s':>12}{'ours MB/s':>11}"
            f"{'pymqi msg/s':>13}{'pymqi MB/s':>12}{'ratio':>8}")
    lines = [head, "-" * len(head)]
    for r in rows:
        ratio = "-" if r.ratio is None else f"{r.ratio:.2f}x"
        lines.append(f"{r.case.name:<26}{len(r.case.messages):>5}{r.case.size:>9}"
                     f"{_fmt(r.ours.msg_per_s):>12}{_fmt(r.ours.mb_per_s, 2):>11}"
                     f"{_fmt(r.pymqi.msg_per_s):>13}{_fmt(r.pymqi.mb_per_s, 2):>12}{ratio:>8}")
    return "\n".join(lines)


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
        "results": [
            {
                "input": r.case.name,
                "messages": len(r.case.messages),
                "bytes": r.case.size,
                "ours": vars(r.ours),
                "pymqi": vars(r.pymqi),
                "ratio": r.ratio,
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
          f"{platform.machine()}); {pymqi_status}")
    print(f"each rate: best of {args.rounds} rounds of >= {args.seconds:g} s; "
          f"MB = {MB:,} bytes of message data as received (MQMD excluded)\n")

    rows: list[Row] = []
    for case in cases:
        ours = _rates(best_rate(_ours_runner(case), args.seconds, args.rounds), case)
        theirs = Result(error="not run")
        if unpack is not None:
            theirs = _rates(best_rate(_pymqi_runner(unpack, case), args.seconds, args.rounds),
                            case)
        notes = correctness_notes(case, unpack)
        theirs.error = next((n for n in notes if n.startswith("pymqi cannot")), theirs.error)
        rows.append(Row(case, ours, theirs, notes))

    print(render(rows))
    print("\nratio = ours msg/s / pymqi msg/s. pymqi is given each message from its MQCFH on "
          f"(MQEPH-first reports minus {EPH_CFH_OFFSET} bytes), ours the whole message.")
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
