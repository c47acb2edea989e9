"""Pipeline benchmark: the Spark pipeline against the single-process path, 100k to 1M reports.

Run from the project root (or anywhere):

    python benchmarks/bench_pipeline.py [--reports N] [--steps N,N,...] [--json FILE]
                                        [--workdir DIR] [--quick] [--stages N]
    python -m benchmarks.bench_pipeline ...

Inputs are Parquet files (columns source, position, md, data) of N activity reports, made by
replicating one simulated corpus with a new CorrelId per replica, so every replica is a new
set of routes. They are written once into --workdir and reused. Each path runs in a fresh
subprocess whose peak memory is sampled through /proc (the whole process tree for Spark: the
JVM and its Python workers).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import linecache
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
#: Set for the children of --against: the exported source tree of the baseline revision.
TREE_ENV = "BENCH_PIPELINE_TREE"
if os.environ.get(TREE_ENV):
    sys.path.insert(0, os.environ[TREE_ENV])

#: The base corpus every input is replicated from: traces per variant, seed.
BASE_TRACES, BASE_SEED = 200, 1
#: Rows per Parquet row group of the inputs.
ROW_GROUP = 50_000
#: Bumped whenever the way inputs are made changes, so cached inputs are rebuilt.
INPUT_FORMAT = 1
METADATA_KEY = b"mqroute.bench_pipeline"
DEFAULT_REPORTS = 1_000_000
QUICK_STEPS = (20_000, 50_000)
DEFAULT_WORKDIR = ROOT / "benchmarks" / ".cache" / "pipeline"
#: Offset of the CorrelId in a packed MQMD, and of the 4 bytes the replicas rewrite.
CORREL_ID, CORREL_ID_END = 72, 96
SAMPLE_SECONDS = 0.5
#: PSS (smaps_rollup, costly to read for a large JVM) is read every this many samples only.
PSS_EVERY = 10
HEARTBEAT_SECONDS = 30.0
SPARK_DRIVER_MEMORY = "6g"
#: Session settings of the benchmark on top of graph.pipeline.session's: no UI, loopback, quiet.
SPARK_CONFIG = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.driver.host": "127.0.0.1",
}
MB = 1_000_000
GB = 1 << 30
CHILD = "_child"


# --- inputs --------------------------------------------------------------------------------


def base_messages(traces: int = BASE_TRACES, seed: int = BASE_SEED) -> list[tuple[bytes, bytes]]:
    """(packed MQMD, data) of the corpus's activity reports and replies, in corpus order."""
    from pcf.mqmd import pack
    from traceroute.sim.corpus import corpus, is_report

    return [(pack(c.md), c.data) for c in corpus(traces, seed=seed) if is_report(c.md)]


def replica_mds(base: list[tuple[bytes, bytes]], replica: int) -> list[bytes]:
    """The base's MQMDs with the CorrelId's last 4 bytes set to a number unique to the
    (replica, original CorrelId) pair, so replicas never share a route and the reports of one
    original message in one replica still share their CorrelId."""
    index: dict[bytes, int] = {}
    for md, _ in base:
        index.setdefault(md[CORREL_ID:CORREL_ID_END], len(index))
    stride = len(index)
    out = []
    for md, _ in base:
        number = replica * stride + index[md[CORREL_ID:CORREL_ID_END]]
        out.append(md[:CORREL_ID_END - 4] + number.to_bytes(4, "big") + md[CORREL_ID_END:])
    return out


def input_rows(base: list[tuple[bytes, bytes]], n: int) -> Iterator[tuple[str, int, bytes, bytes]]:
    """N rows (source, position, md, data): replica 0, 1, ... of the base, the last cut short."""
    position = 0
    replica = 0
    while position < n:
        source = f"bench/replica-{replica:05d}"
        for md, (_, data) in zip(replica_mds(base, replica), base, strict=True):
            if position == n:
                return
            yield source, position, md, data
            position += 1
        replica += 1


def _metadata(n: int) -> dict[str, Any]:
    return {"format": INPUT_FORMAT, "traces": BASE_TRACES, "seed": BASE_SEED, "reports": n}


def cached_input(path: Path, n: int) -> bool:
    """Whether `path` is an input of this benchmark with N rows, made the current way."""
    import pyarrow.parquet as pq

    if not path.is_file():
        return False
    try:
        meta = pq.read_metadata(path)
    except Exception:
        return False
    made = (meta.metadata or {}).get(METADATA_KEY)
    return meta.num_rows == n and made is not None and json.loads(made) == _metadata(n)


def write_input(path: Path, base: list[tuple[bytes, bytes]], n: int) -> None:
    """Write N rows as Parquet (snappy, row groups of ROW_GROUP rows), atomically."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([("source", pa.string()), ("position", pa.int64()),
                        ("md", pa.binary()), ("data", pa.binary())],
                       metadata={METADATA_KEY: json.dumps(_metadata(n)).encode()})
    tmp = path.with_name(path.name + ".tmp")
    rows = input_rows(base, n)
    with pq.ParquetWriter(tmp, schema, compression="snappy") as writer:
        while True:
            chunk = [r for _, r in zip(range(ROW_GROUP), rows, strict=False)]
            if not chunk:
                break
            columns = list(zip(*chunk, strict=True))
            writer.write_table(pa.Table.from_arrays(
                [pa.array(c, type=f.type) for c, f in zip(columns, schema, strict=True)],
                schema=schema), row_group_size=ROW_GROUP)
    tmp.replace(path)


@dataclass
class Input:
    """One benchmark input file."""

    reports: int
    path: Path
    bytes_on_disk: int
    bytes_raw: int  # md + data, uncompressed
    built: bool


def prepare_inputs(steps: list[int], workdir: Path, say: Callable[[str], None]) -> list[Input]:
    """The input of every step, built (from one base corpus) only when not cached."""
    import pyarrow.parquet as pq

    workdir.mkdir(parents=True, exist_ok=True)
    base: list[tuple[bytes, bytes]] | None = None
    out = []
    for n in steps:
        path = workdir / f"reports-{n}.parquet"
        built = False
        if not cached_input(path, n):
            if base is None:
                start = time.perf_counter()
                base = base_messages()
                say(f"base corpus: corpus({BASE_TRACES}, seed={BASE_SEED}), {len(base):,} "
                    f"reports and replies, built in {time.perf_counter() - start:.1f} s")
            start = time.perf_counter()
            write_input(path, base, n)
            built = True
            say(f"wrote {path} ({n:,} reports) in {time.perf_counter() - start:.1f} s")
        meta = pq.read_metadata(path)
        raw = sum(meta.row_group(g).column(c).total_uncompressed_size
                  for g in range(meta.num_row_groups) for c in range(meta.num_columns)
                  if meta.schema.column(c).name in ("md", "data"))
        out.append(Input(n, path, path.stat().st_size, raw, built))
    return out


# --- memory of a process tree --------------------------------------------------------------


def _status_kb(pid: int, key: str) -> int:
    """A kB field of /proc/PID/status (0 when the process is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _pss_kb(pid: int) -> int:
    """Proportional set size of a process (shared pages split among their users)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cpu_ticks(pid: int) -> int:
    """utime + stime of a process, in clock ticks (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return 0
    fields = stat[stat.rindex(")") + 2:].split()
    return int(fields[11]) + int(fields[12])


def machine_busy_ticks() -> int:
    """Clock ticks all CPUs spent not idle since boot (/proc/stat)."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return sum(values) - values[3] - (values[4] if len(values) > 4 else 0)


TICK = os.sysconf("SC_CLK_TCK")


def process_tree(root: int) -> list[int]:
    """`root` and all its descendants now living."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, ()))
    return tree


class TreeSampler(threading.Thread):
    """Samples the summed VmRSS of a process tree every SAMPLE_SECONDS (PSS every PSS_EVERY
    samples) and its CPU time; prints a heartbeat line every HEARTBEAT_SECONDS while it runs."""

    def __init__(self, pid: int, label: str, say: Callable[[str], None]):
        super().__init__(daemon=True)
        self.pid, self.label, self.say = pid, label, say
        self.peak_rss_kb = self.peak_pss_kb = self.peak_processes = 0
        self.current_rss_kb = 0
        self.started = time.perf_counter()
        self.cpu: dict[int, int] = {}  # pid -> last seen CPU ticks, for every process of the tree
        self.busy_start = machine_busy_ticks()
        self.busy_ticks = 0
        self.samples = 0
        self._stop_event = threading.Event()

    @property
    def cpu_seconds(self) -> float:
        """CPU time of the tree (each process up to its last sample)."""
        return sum(self.cpu.values()) / TICK

    @property
    def others_cpu_seconds(self) -> float:
        """CPU time the machine spent on other processes meanwhile."""
        return max(0.0, self.busy_ticks / TICK - self.cpu_seconds)

    def run(self) -> None:
        beat = self.started + HEARTBEAT_SECONDS
        while not self._stop_event.is_set():
            self.sample()
            now = time.perf_counter()
            if now >= beat:
                beat += HEARTBEAT_SECONDS
                self.say(f"    [{self.label}] still running: {now - self.started:,.0f} s, "
                         f"{self.current_rss_kb / (1 << 20):.1f} GiB RSS now "
                         f"(peak {self.peak_rss_kb / (1 << 20):.1f})")
            self._stop_event.wait(SAMPLE_SECONDS)

    def sample(self) -> None:
        pids = process_tree(self.pid)
        rss = sum(_status_kb(p, "VmRSS") for p in pids)
        pss = sum(_pss_kb(p) for p in pids) if self.samples % PSS_EVERY == 0 else 0
        self.samples += 1
        for p in pids:
            ticks = _cpu_ticks(p)
            if ticks:
                self.cpu[p] = max(ticks, self.cpu.get(p, 0))
        self.busy_ticks = machine_busy_ticks() - self.busy_start
        self.current_rss_kb = rss
        self.peak_rss_kb = max(self.peak_rss_kb, rss)
        self.peak_pss_kb = max(self.peak_pss_kb, pss)
        self.peak_processes = max(self.peak_processes, len(pids))

    def stop(self) -> None:
        self._stop_event.set()
        self.join()


# --- running one path in a subprocess ------------------------------------------------------


def wait_for_quiet(max_seconds: float, say: Callable[[str], None], *, below: float = 0.3) -> float:
    """Wait (up to `max_seconds`) until other processes keep fewer than `below` CPUs busy;
    the load seen last, in CPUs."""
    deadline = time.perf_counter() + max_seconds
    said = False
    while True:
        before = machine_busy_ticks()
        time.sleep(2.0)
        load = (machine_busy_ticks() - before) / TICK / 2.0
        if load < below or time.perf_counter() >= deadline:
            if said:
                say(f"    machine {'quiet' if load < below else 'still busy'}: other processes "
                    f"use {load:.1f} CPUs")
            return load
        if not said:
            say(f"    waiting up to {max_seconds:.0f} s for other processes to quieten "
                f"(they use {load:.1f} CPUs) ...")
            said = True


@dataclass
class Run:
    """One subprocess: what it reported, its wall time and the tree's peak memory."""

    label: str
    ok: bool
    wall: float
    peak_rss_kb: int
    peak_pss_kb: int
    processes: int
    cpu_seconds: float
    others_cpu_seconds: float
    result: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    @property
    def others_cores(self) -> float:
        """Average CPUs that other processes of the machine kept busy during the run."""
        return self.others_cpu_seconds / self.wall if self.wall else 0.0

    @property
    def seconds(self) -> float | None:
        """Time of the work itself (run_local, or pipeline.run), as the child measured it."""
        return self.result.get("seconds") if self.ok else None


def run_child(label: str, args: list[str], log: Path, say: Callable[[str], None],
              quiet_wait: float = 0.0, tree: Path | None = None) -> Run:
    """Run `bench_pipeline.py _child ARGS`, relaying its PROGRESS lines; stderr goes to `log`.

    With `tree`, the child (and Spark's Python workers) import the project from that folder.
    """
    if quiet_wait > 0:
        wait_for_quiet(quiet_wait, say)
    env = dict(os.environ)
    if tree is not None:
        env[TREE_ENV] = str(tree)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(tree), env.get("PYTHONPATH")) if p)
    cmd = [sys.executable, str(Path(__file__).resolve()), CHILD, *args]
    start = time.perf_counter()
    with open(log, "a") as err:
        err.write(f"\n=== {label}: {' '.join(cmd)}\n")
        err.flush()
        # its own session, so that an interrupt ends it with the JVM and workers it started
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True,
                                cwd=tree or ROOT, start_new_session=True, env=env)
        sampler = TreeSampler(proc.pid, label, say)
        sampler.start()
        result: dict[str, Any] = {}
        assert proc.stdout is not None
        try:
            for line in proc.stdout:
                if line.startswith("PROGRESS "):
                    say(f"    [{label}] {line[9:].rstrip()}")
                elif line.startswith("RESULT "):
                    result = json.loads(line[7:])
                else:
                    err.write(line)
            code = proc.wait()
        except BaseException:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            raise
        finally:
            sampler.stop()
    wall = time.perf_counter() - start
    error = None
    if code != 0 or not result:
        tail = [ln for ln in log.read_text(errors="replace").splitlines() if ln.strip()][-3:]
        error = f"exit code {code}" + (f": {' | '.join(tail)}" if tail else "")
        if code < 0 or code == 137:
            error += " (killed: out of memory?)"
    return Run(label, error is None, wall, sampler.peak_rss_kb, sampler.peak_pss_kb,
               sampler.peak_processes, sampler.cpu_seconds, sampler.others_cpu_seconds, result,
               error)


# --- the children --------------------------------------------------------------------------


def _emit(kind: str, payload: Any) -> None:
    print(f"{kind} {payload if isinstance(payload, str) else json.dumps(payload)}", flush=True)


def _vm_hwm_kb() -> int:
    return _status_kb(os.getpid(), "VmHWM")


def child_local(path: str, how: str = "run_local") -> None:
    """Time the single process over the input (`how`: "analyze" = the one-process analyze,
    `run_single`, writing every table, where the tree has it, else `run_local`, as analyze's
    single process was before issue 33; "run_local" = the in-memory reference); report
    counts and this process's peak RSS."""
    start = time.perf_counter()
    from graph.pipeline.local import run_local

    run_single = None
    if how == "analyze":
        with contextlib.suppress(ImportError):  # a tree before it: run_local is its one
            from graph.pipeline.single import run_single
    imported = time.perf_counter()
    if run_single is not None:
        import tempfile

        import pyarrow.parquet as pq

        from graph.pipeline.inputs import list_inputs

        with tempfile.TemporaryDirectory(prefix="bench-single-") as temp:
            out = str(Path(temp) / "out")
            summary = run_single([path], out, listing=list_inputs([path]))
            seconds = time.perf_counter() - imported
            hops = sum(pq.ParquetFile(f).metadata.num_rows
                       for f in (Path(out) / "hops").rglob("*.parquet"))
        _emit("RESULT", {"seconds": seconds, "startup": imported - start,
                         "code": str(Path(sys.modules[run_single.__module__].__file__).parent),
                         "path": "run_single", "messages": summary.messages,
                         "routes": summary.routes, "hops": hops,
                         "rejected": summary.rejected, "verdicts": summary.verdicts,
                         "vm_hwm_kb": _vm_hwm_kb()})
        return
    result = run_local([path])
    seconds = time.perf_counter() - imported
    if hasattr(result, "route_table"):  # column-wise result (since issue 14)
        column = result.route_table().column("verdict").value_counts().to_pylist()
        verdicts = {v["values"]: v["counts"] for v in column}
        routes, hops = result.route_count, result.hop_count
    else:  # a baseline (--against) whose result is lists of dicts
        verdicts = dict(Counter(r["verdict"] for r in result.routes))
        routes, hops = len(result.routes), len(result.hops)
    _emit("RESULT", {"seconds": seconds, "startup": imported - start,
                     "code": str(Path(sys.modules[run_local.__module__].__file__).parent),
                     "path": "run_local", "messages": result.messages, "routes": routes,
                     "hops": hops, "rejected": len(result.rejects),
                     "verdicts": verdicts,
                     "vm_hwm_kb": _vm_hwm_kb()})


def _spark(master: str, conf: dict[str, str]):
    from graph.pipeline.session import spark_session

    spark = spark_session(master, app_name="mqroute bench_pipeline",
                          config={**SPARK_CONFIG, **conf}, driver_memory=SPARK_DRIVER_MEMORY)
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def label_jobs(spark) -> dict[str, str]:
    """Give every Spark job the description FILE:LINE of the Python line whose action started
    it (DataFrame.count/collect, DataFrameWriter.parquet), AQE's helper jobs included; the
    returned dict gets each such FILE:LINE's code, read as the action runs."""
    import functools

    from pyspark.sql import DataFrameWriter

    try:  # the class of DataFrames in a classic (non-Connect) session
        from pyspark.sql.classic.dataframe import DataFrame
    except ImportError:  # pyspark < 4
        from pyspark.sql import DataFrame

    sc = spark.sparkContext
    code: dict[str, str] = {}

    def wrap(cls: type, name: str) -> None:
        original = getattr(cls, name)

        @functools.wraps(original)
        def action(self, *args, **kwargs):
            if sc.getLocalProperty("spark.job.description"):
                return original(self, *args, **kwargs)
            caller = sys._getframe(1)
            where = f"{caller.f_code.co_filename}:{caller.f_lineno}"
            code[where] = linecache.getline(caller.f_code.co_filename, caller.f_lineno).strip()
            sc.setJobDescription(where)
            try:
                return original(self, *args, **kwargs)
            finally:
                sc.setLocalProperty("spark.job.description", None)  # type: ignore[arg-type]

        setattr(cls, name, action)

    for cls, name in ((DataFrame, "count"), (DataFrame, "collect"), (DataFrame, "first"),
                      (DataFrameWriter, "parquet")):
        wrap(cls, name)
    return code


def child_spark(path: str, out: str, master: str, conf: dict[str, str]) -> None:
    """Time pipeline.run over the input (session start-up apart); report counts and jobs."""
    start = time.perf_counter()
    from graph import pipeline

    spark = _spark(master, conf)
    code = label_jobs(spark)
    began = time.perf_counter()

    def progress(text: str) -> None:
        _emit("PROGRESS", f"+{time.perf_counter() - began:.1f} s: {text}")

    summary = pipeline.run(spark, [path], out, progress=progress)
    seconds = time.perf_counter() - began
    jobs = spark_jobs(spark)
    settings = {k: spark.conf.get(k) for k in (
        "spark.sql.shuffle.partitions", "spark.sql.adaptive.enabled",
        "spark.sql.adaptive.coalescePartitions.enabled",
        "spark.sql.execution.arrow.maxRecordsPerBatch", "spark.sql.files.maxPartitionBytes")}
    cores = spark.sparkContext.defaultParallelism
    spark.stop()
    _emit("RESULT", {"seconds": seconds, "startup": began - start,
                     "messages": summary.messages, "operations": summary.operations,
                     "routes": summary.routes, "rejected": summary.rejected,
                     "verdicts": summary.verdicts, "jobs": jobs, "code": code, "settings": settings,
                     "cores": cores, "out_bytes": _tree_bytes(Path(out))})


def child_stages(path: str, master: str, conf: dict[str, str]) -> None:
    """The pipeline's parts one at a time: read, read+decode (cached), group+routes."""
    from pyspark.sql import functions as F

    from graph import pipeline

    spark = _spark(master, conf)
    timings = []

    def timed(name: str, action: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        value = action()
        timings.append({"stage": name, "seconds": time.perf_counter() - start, "value": value})
        _emit("PROGRESS", f"{name}: {timings[-1]['seconds']:.1f} s ({value:,})")
        return value

    raw = pipeline.read_inputs(spark, [path])
    timed("read: Parquet scan (sum of md+data lengths)", lambda: raw.select(
        F.sum(F.length("data") + F.coalesce(F.length("md"), F.lit(0)))).first()[0])
    ops, _rejects = pipeline.decode(raw)
    timed("decode: read + mapInArrow classify_batches, cached (operation rows)", ops.count)
    timed("decode again: from the cache (operation rows)", ops.count)
    routes, _hops = pipeline.build_routes(ops)
    timed("routes: shuffle by correl_id + sorted mapInArrow routes_of_batches (routes)",
          routes.count)
    spark.stop()
    _emit("RESULT", {"stages": timings})


def spark_jobs(spark) -> list[dict[str, Any]]:
    """Every job of the session from Spark's status store (works with the UI off)."""
    store = spark.sparkContext._jsc.sc().statusStore()
    jobs = store.jobsList(None)
    out = []
    for i in range(jobs.size()):
        job = jobs.apply(i)
        stage_ids = [job.stageIds().apply(k) for k in range(job.stageIds().size())]
        stages = []
        for sid in stage_ids:
            with contextlib.suppress(Exception):
                s = store.lastStageAttempt(sid)
                if str(s.status()) != "COMPLETE":
                    continue
                stages.append({"id": sid, "tasks": s.numTasks(), "run_ms": s.executorRunTime(),
                               "gc_ms": s.jvmGcTime(), "input_records": s.inputRecords(),
                               "output_records": s.outputRecords(),
                               "shuffle_write": s.shuffleWriteBytes(),
                               "shuffle_read": s.shuffleReadBytes(),
                               "spilled": s.diskBytesSpilled()})
        submitted, completed = job.submissionTime(), job.completionTime()
        description = job.description()
        out.append({"id": job.jobId(), "name": job.name(),
                    "description": description.get() if description.isDefined() else None,
                    "start_ms": submitted.get().getTime() if submitted.isDefined() else None,
                    "end_ms": completed.get().getTime() if completed.isDefined() else None,
                    "stages": stages})
    return sorted(out, key=lambda j: j["id"])


def _tree_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.exists() else 0


def child_main(argv: list[str]) -> int:
    """`bench_pipeline.py _child local PATH | spark PATH OUT MASTER CONF | stages PATH ...`."""
    mode, rest = argv[0], argv[1:]
    if mode == "local":
        child_local(rest[0], *rest[1:2])
    elif mode == "spark":
        child_spark(rest[0], rest[1], rest[2], json.loads(rest[3]))
    elif mode == "stages":
        child_stages(rest[0], rest[1], json.loads(rest[2]))
    else:
        raise SystemExit(f"unknown child mode {mode}")
    return 0


# --- what Spark spent its time on ----------------------------------------------------------

_CALLSITE = re.compile(r"^(?:\w+ at )?(.+\.py):(\d+)$")


def actions(jobs: list[dict[str, Any]], code: dict[str, str] | None = None
            ) -> list[dict[str, Any]]:
    """Jobs grouped by the Python line that started them (their description, else a Python
    call site in their name), with wall time, task time, tasks and shuffle bytes; `code` has
    the line's text as the child read it (else it is read now, from the file as it is now)."""
    groups: list[dict[str, Any]] = []
    for job in jobs:
        m = _CALLSITE.match(job.get("description") or "") or _CALLSITE.match(job["name"] or "")
        where = f"{m.group(1)}:{m.group(2)}" if m else "(unlabelled)"
        if not groups or groups[-1]["key"] != where:
            text = (code or {}).get(where)
            if text is None:
                text = linecache.getline(m.group(1), int(m.group(2))).strip() if m else ""
            groups.append({"key": where, "where": f"{Path(m.group(1)).name}:{m.group(2)}"
                           if m else where, "code": text, "jobs": []})
        groups[-1]["jobs"].append(job)
    for g in groups:
        starts = [j["start_ms"] for j in g["jobs"] if j["start_ms"] is not None]
        ends = [j["end_ms"] for j in g["jobs"] if j["end_ms"] is not None]
        stages = [s for j in g["jobs"] for s in j["stages"]]
        g["seconds"] = (max(ends) - min(starts)) / 1000 if starts and ends else 0.0
        g["task_seconds"] = sum(s["run_ms"] for s in stages) / 1000
        g["tasks"] = sum(s["tasks"] for s in stages)
        g["stages"] = len(stages)
        g["shuffle_write"] = sum(s["shuffle_write"] for s in stages)
        g["spilled"] = sum(s["spilled"] for s in stages)
    return groups


def render_actions(groups: list[dict[str, Any]], total: float) -> str:
    """Where pipeline.run's time went, one line per action."""
    head = (f"  {'line':<17}{'wall s':>8}{'share':>7}{'task s':>8}{'busy':>6}{'stages':>7}"
            f"{'tasks':>7}{'shuffle MB':>11}  code")
    lines = [head]
    for g in groups:
        busy = g["task_seconds"] / g["seconds"] if g["seconds"] else 0.0
        lines.append(f"  {g['where']:<17}{g['seconds']:>8.1f}{g['seconds'] / total:>7.0%}"
                     f"{g['task_seconds']:>8.1f}{busy:>6.1f}{g['stages']:>7}{g['tasks']:>7}"
                     f"{g['shuffle_write'] / MB:>11.1f}  {g['code'][:60]}")
    covered = sum(g["seconds"] for g in groups)
    lines.append(f"  {'(outside jobs)':<17}{total - covered:>8.1f}{(total - covered) / total:>7.0%}"
                 "  planning, driver-side Python, gaps between jobs")
    return "\n".join(lines)


# --- report --------------------------------------------------------------------------------


@dataclass
class Step:
    """Both paths at one N."""

    input: Input
    local: Run | None = None
    spark: Run | None = None
    base_local: Run | None = None  # --against: the baseline revision's runs
    base_spark: Run | None = None

    @property
    def speedup(self) -> float | None:
        """Single-process time / Spark time (> 1: Spark is faster)."""
        if self.local and self.spark and self.local.seconds and self.spark.seconds:
            return self.local.seconds / self.spark.seconds
        return None

    @property
    def same_routes(self) -> bool | None:
        """Whether both found the same number of routes (and the same verdict counts)."""
        if not (self.local and self.spark and self.local.ok and self.spark.ok):
            return None
        a, b = self.local.result, self.spark.result
        return a["routes"] == b["routes"] and a["verdicts"] == b["verdicts"] and \
            a["messages"] == b["messages"] and a["rejected"] == b["rejected"]


def _gib(kb: int) -> str:
    return f"{kb / (1 << 20):.2f}"


def _rate(n: int, seconds: float | None) -> str:
    return f"{n / seconds:,.0f}" if seconds else "-"


def _secs(seconds: float | None) -> str:
    return f"{seconds:,.1f}" if seconds else "-"


def render(steps: list[Step]) -> str:
    """The main table, the scaling table and the route check."""
    head = (f"{'reports':>10}{'single s':>10}{'single/s':>10}{'spark s':>9}{'spark/s':>9}"
            f"{'spark÷single':>14}{'single GiB':>12}{'spark GiB':>11}{'routes':>9}{'same':>6}"
            f"{'others':>11}")
    lines = ["speed and memory (time of the work itself; spark÷single = single s / spark s, "
             "> 1 means Spark is faster; others = CPUs other processes kept busy during the "
             "single / spark run)", head, "-" * len(head)]
    for s in steps:
        n = s.input.reports
        lt = s.local.seconds if s.local else None
        st = s.spark.seconds if s.spark else None
        speed = "-" if s.speedup is None else f"{s.speedup:.2f}x"
        lmem = _gib(s.local.peak_rss_kb) if s.local else "-"
        smem = _gib(s.spark.peak_rss_kb) if s.spark else "-"
        routes = next((r.result["routes"] for r in (s.local, s.spark) if r and r.ok), None)
        same = {None: "-", True: "yes", False: "NO"}[s.same_routes]
        others = "/".join(f"{r.others_cores:.1f}" if r else "-" for r in (s.local, s.spark))
        lines.append(f"{n:>10,}{_secs(lt):>10}{_rate(n, lt):>10}{_secs(st):>9}"
                     f"{_rate(n, st):>9}{speed:>14}{lmem:>12}{smem:>11}"
                     f"{routes if routes is not None else '-':>9}{same:>6}{others:>11}")
    first = steps[0]
    lines += ["", f"scaling (each time relative to the smallest N, {first.input.reports:,}; "
                  "linear scaling: t/t0 = N/N0)"]
    head = (f"{'reports':>10}{'N/N0':>8}{'single t/t0':>13}{'spark t/t0':>12}"
            f"{'single µs/report':>18}{'spark µs/report':>17}")
    lines += [head, "-" * len(head)]
    for s in steps:
        n = s.input.reports

        def ratio(run: Run | None, base: Run | None) -> str:
            if run and base and run.seconds and base.seconds:
                return f"{run.seconds / base.seconds:.2f}"
            return "-"

        def per(run: Run | None, n: int = n) -> str:
            return f"{run.seconds / n * 1e6:.0f}" if run and run.seconds else "-"

        lines.append(f"{n:>10,}{n / first.input.reports:>8.2f}{ratio(s.local, first.local):>13}"
                     f"{ratio(s.spark, first.spark):>12}{per(s.local):>18}{per(s.spark):>17}")
    return "\n".join(lines)


def render_against(steps: list[Step], rev: str) -> str:
    """Each path at the baseline revision next to this tree, from the same run."""
    head = (f"{'reports':>10}{'single s':>10}{'(base)':>9}{'gain':>7}{'GiB':>7}{'(base)':>8}"
            f"{'spark s':>9}{'(base)':>9}{'gain':>7}{'spark/s':>9}{'(base)':>9}"
            f"{'spark÷single':>14}{'(base)':>8}{'spark CPU s':>12}{'(base)':>8}{'same':>6}")
    lines = [f"against {rev} (base), same inputs, same run; gain = base s / s; CPU s = the "
             "Spark subprocess tree's CPU time (session start included); same = both Spark "
             "runs found the same routes, verdicts, messages and rejects", head,
             "-" * len(head)]

    def gain(new: Run | None, old: Run | None) -> str:
        if new and old and new.seconds and old.seconds:
            return f"{old.seconds / new.seconds:.2f}x"
        return "-"

    def gib(run: Run | None) -> str:
        return _gib(run.peak_rss_kb) if run and run.ok else "-"

    for s in steps:
        if not (s.base_local or s.base_spark):
            continue
        n = s.input.reports
        sec = [r.seconds if r else None for r in (s.local, s.base_local, s.spark, s.base_spark)]
        base_ratio = "-"
        if s.base_local and s.base_spark and sec[1] and sec[3]:
            base_ratio = f"{sec[1] / sec[3]:.2f}x"
        ours = "-" if s.speedup is None else f"{s.speedup:.2f}x"
        lines.append(f"{n:>10,}{_secs(sec[0]):>10}{_secs(sec[1]):>9}"
                     f"{gain(s.local, s.base_local):>7}{gib(s.local):>7}{gib(s.base_local):>8}"
                     f"{_secs(sec[2]):>9}{_secs(sec[3]):>9}{gain(s.spark, s.base_spark):>7}"
                     f"{_rate(n, sec[2]):>9}{_rate(n, sec[3]):>9}{ours:>14}{base_ratio:>8}"
                     f"{cpu(s.spark):>12}{cpu(s.base_spark):>8}{same(s.spark, s.base_spark):>6}")
    return "\n".join(lines)


def cpu(run: Run | None) -> str:
    """The CPU seconds of a run's process tree, or -."""
    return f"{run.cpu_seconds:,.1f}" if run and run.ok else "-"


def same(a: Run | None, b: Run | None) -> str:
    """yes/NO: two runs found the same routes, verdicts, messages and rejects; - unknown."""
    if not (a and b and a.ok and b.ok):
        return "-"
    keys = ("routes", "verdicts", "messages", "rejected")
    return "yes" if all(a.result.get(k) == b.result.get(k) for k in keys) else "NO"


def describe_run(step: Step) -> list[str]:
    """Detail lines of one step."""
    n = step.input.reports
    out = [f"  input: {step.input.path.name}, {step.input.bytes_on_disk / MB:,.1f} MB on disk "
           f"({step.input.bytes_raw / MB:,.1f} MB of md + data uncompressed)"]
    if step.local:
        r = step.local
        if r.ok:
            res = r.result
            how = res.get("path", "run_local")
            out.append(f"  single-process: {res['seconds']:.1f} s in {how} "
                       f"({n / res['seconds']:,.0f} reports/s; +{res['startup']:.1f} s imports), "
                       f"peak RSS {_gib(res['vm_hwm_kb'])} GiB (VmHWM); {res['routes']:,} "
                       f"routes, {res['hops']:,} hops, {res['rejected']} rejected")
            out.append(f"    CPU {r.cpu_seconds:,.1f} s ({r.cpu_seconds / r.wall:.2f} CPUs over "
                       f"the subprocess's {r.wall:.1f} s); other processes on the machine kept "
                       f"{r.others_cores:.2f} CPUs busy meanwhile")
        else:
            out.append(f"  single-process: FAILED after {r.wall:.0f} s: {r.error}")
    if step.spark:
        r = step.spark
        if r.ok:
            res = r.result
            out.append(f"  spark: {res['seconds']:.1f} s in pipeline.run ({n / res['seconds']:,.0f}"
                       f" reports/s; +{res['startup']:.1f} s session start), peak RSS of "
                       f"{r.processes} processes {_gib(r.peak_rss_kb)} GiB summed "
                       f"(PSS {_gib(r.peak_pss_kb)}); {res['routes']:,} routes, "
                       f"{res['operations']:,} operation rows, {res['rejected']} rejected; "
                       f"wrote {res['out_bytes'] / MB:,.1f} MB")
            out.append(f"    CPU {r.cpu_seconds:,.1f} s ({r.cpu_seconds / r.wall:.2f} CPUs over "
                       f"the subprocess's {r.wall:.1f} s); other processes on the machine kept "
                       f"{r.others_cores:.2f} CPUs busy meanwhile")
        else:
            out.append(f"  spark: FAILED after {r.wall:.0f} s: {r.error}")
    if step.base_spark:
        r = step.base_spark
        if r.ok:
            out.append(f"  spark (base): {r.result['seconds']:.1f} s; CPU {r.cpu_seconds:,.1f} s "
                       f"over {r.wall:.1f} s; peak RSS {_gib(r.peak_rss_kb)} GiB; other "
                       f"processes kept {r.others_cores:.2f} CPUs busy meanwhile")
        else:
            out.append(f"  spark (base): FAILED after {r.wall:.0f} s: {r.error}")
    if step.same_routes is False:
        a, b = step.local.result, step.spark.result  # type: ignore[union-attr]
        out.append(f"  MISMATCH: single {a['routes']} routes {a['verdicts']}, messages "
                   f"{a['messages']}, rejected {a['rejected']}; spark {b['routes']} routes "
                   f"{b['verdicts']}, messages {b['messages']}, rejected {b['rejected']}")
    return out


def to_json(steps: list[Step], args: argparse.Namespace, stages: Run | None) -> dict[str, Any]:
    """The figures as a JSON-ready dict."""
    def run(r: Run | None) -> dict[str, Any] | None:
        if r is None:
            return None
        return {"ok": r.ok, "error": r.error, "wall": r.wall, "cpu_seconds": r.cpu_seconds,
                "others_cpu_seconds": r.others_cpu_seconds, "peak_rss_kb": r.peak_rss_kb,
                "peak_pss_kb": r.peak_pss_kb, "processes": r.processes, "result": r.result}

    return {
        "python": platform.python_version(), "machine": platform.machine(),
        "cpus": os.cpu_count(), "base": {"traces": BASE_TRACES, "seed": BASE_SEED},
        "master": args.master, "spark_conf": args.spark_conf, "against": args.against,
        "driver_memory": SPARK_DRIVER_MEMORY,
        "steps": [{"reports": s.input.reports, "input": str(s.input.path),
                   "bytes_on_disk": s.input.bytes_on_disk, "bytes_raw": s.input.bytes_raw,
                   "speedup": s.speedup, "same_routes": s.same_routes,
                   "single": run(s.local), "spark": run(s.spark),
                   "base_single": run(s.base_local), "base_spark": run(s.base_spark),
                   "spark_actions": actions(s.spark.result["jobs"], s.spark.result.get("code"))
                   if s.spark and s.spark.ok else None} for s in steps],
        "stages": run(stages),
    }


# --- main ----------------------------------------------------------------------------------


def _steps(text: str) -> list[int]:
    try:
        steps = sorted({int(s.replace("_", "")) for s in text.split(",") if s.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None
    if not steps or steps[0] < 1:
        raise argparse.ArgumentTypeError("steps must be positive numbers")
    return steps


def _conf(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key, value


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command-line options."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--reports", type=int, default=DEFAULT_REPORTS,
                   help="largest input, in reports (default 1,000,000); the steps are 10%%, "
                        "30%% and 100%% of it")
    p.add_argument("--steps", type=_steps, help="input sizes instead, e.g. 100000,300000")
    p.add_argument("--quick", action="store_true",
                   help=f"a smoke run: steps {','.join(map(str, QUICK_STEPS))}")
    p.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR,
                   help="where inputs are cached and outputs go (default "
                        "benchmarks/.cache/pipeline)")
    p.add_argument("--json", metavar="FILE", type=Path, help="also write the figures as JSON")
    p.add_argument("--master", default="local[*]", help="Spark master (default local[*])")
    p.add_argument("--spark-conf", metavar="KEY=VALUE", type=_conf, action="append",
                   default=[], help="extra Spark setting (repeatable), e.g. "
                                    "spark.sql.shuffle.partitions=8")
    p.add_argument("--quiet-wait", type=float, default=60.0, metavar="SECONDS",
                   help="before each run, wait up to this long for other processes on the "
                        "machine to go idle (default 60; 0: don't wait)")
    p.add_argument("--only", choices=("single", "spark"), help="run only one of the paths")
    p.add_argument("--single", choices=("analyze", "run_local"), default="analyze",
                   help="the single process timed: analyze's one-process path (run_single, "
                        "every table written; run_local in a tree before it, default) or "
                        "the in-memory reference run_local")
    p.add_argument("--against", metavar="REV",
                   help="also run both paths with the project as it was at git revision REV "
                        "(exported into the workdir), each right before this tree's run")
    p.add_argument("--against-max", type=int, default=300_000, metavar="N",
                   help="run the --against revision only at steps up to N reports (default "
                        "300,000: before issue 14 the single process held every record, "
                        "about 14 GiB at 1M)")
    p.add_argument("--against-paths", choices=("both", "spark"), default="both",
                   help="which paths run at the --against revision (spark: only Spark, when "
                        "the single process did not change)")
    p.add_argument("--stages", type=int, metavar="N", nargs="?", const=-1,
                   help="also time read / decode / routes separately with Spark at N reports "
                        "(default: the largest step)")
    args = p.parse_args(argv)
    if args.quick:
        args.steps = list(QUICK_STEPS)
    elif args.steps is None:
        if args.reports < 10:
            p.error("--reports must be at least 10")
        args.steps = sorted({args.reports // 10, args.reports * 3 // 10, args.reports})
    if args.stages == -1:
        args.stages = args.steps[-1]
    args.spark_conf = dict(args.spark_conf)
    return args


def main(argv: list[str] | None = None) -> int:
    """Build or reuse the inputs, run both paths at each size, print the tables."""
    args = parse_args(argv)

    def say(text: str) -> None:
        print(text, flush=True)

    workdir = args.workdir.resolve()
    log = workdir / "children.log"
    say(f"Python {platform.python_version()} ({platform.machine()}), {os.cpu_count()} CPUs, "
        f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / GB:.0f} GiB; Spark "
        f"{args.master}, driver memory {SPARK_DRIVER_MEMORY}"
        + (f", {args.spark_conf}" if args.spark_conf else ""))
    say(f"steps: {', '.join(f'{n:,}' for n in args.steps)} reports; workdir {workdir}; "
        f"child stderr in {log}")
    inputs = prepare_inputs(sorted(set(args.steps) | ({args.stages} if args.stages else set())),
                            workdir, say)
    by_n = {i.reports: i for i in inputs}
    for i in inputs:
        say(f"input {i.reports:>10,}: {i.bytes_on_disk / MB:,.1f} MB on disk, "
            f"{i.bytes_raw / MB:,.1f} MB md + data uncompressed"
            + (" (built now)" if i.built else " (cached)"))
    say("")

    steps: list[Step] = []
    stages: Run | None = None
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        stages = run_steps(args, by_n, workdir, log, steps, say)
    except KeyboardInterrupt:
        say("\ninterrupted: the figures so far")
        steps = [s for s in steps if (s.local and s.local.ok) or (s.spark and s.spark.ok)]
        if not steps:
            return 130
    report(args, steps, stages, say)
    return 0


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _said(run: Run, n: int) -> str:
    if not run.ok:
        return f"FAILED: {run.error}"
    return (f"{run.seconds:.1f} s, {n / run.seconds:,.0f} reports/s, "
            f"peak {_gib(run.peak_rss_kb)} GiB")


def export_tree(rev: str, workdir: Path, say: Callable[[str], None]) -> Path:
    """The project's files at `rev` in workdir/against-REV (git archive; the repository is only
    read), with this tree's compiled extensions (not in git) copied in where it has their
    sources."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev],
                            check=True, capture_output=True, text=True).stdout.strip()
    tree = workdir / f"against-{commit}"
    if not (tree / "graph").is_dir():
        shutil.rmtree(tree, ignore_errors=True)
        tree.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    for built in ROOT.glob("pcf/*.so"):
        source = tree / "pcf" / (built.name.split(".")[0] + ".c")
        if source.exists() and not (tree / "pcf" / built.name).exists():
            shutil.copy2(built, tree / "pcf" / built.name)
    say(f"baseline: {rev} = {commit}, exported to {tree}")
    return tree


def run_steps(args: argparse.Namespace, by_n: dict[int, Input], workdir: Path, log: Path,
              steps: list[Step], say: Callable[[str], None]) -> Run | None:
    """Both paths at every step (appended to `steps` as they go), then the parts if asked."""
    tree = export_tree(args.against, workdir, say) if args.against else None
    for n in args.steps:
        step = Step(by_n[n])
        steps.append(step)
        path = str(step.input.path)
        base = tree is not None and n <= args.against_max
        if base and args.only != "spark" and args.against_paths != "spark":
            say(f"[{n:,}] single-process ({args.single}) at {args.against} ...")
            step.base_local = run_child(f"single {n:,} {args.against}",
                                        ["local", path, args.single], log, say,
                                        args.quiet_wait, tree)
            say(f"[{n:,}] single-process at {args.against}: {_said(step.base_local, n)}")
        if args.only != "spark":
            say(f"[{n:,}] single-process ({args.single}) ...")
            step.local = run_child(f"single {n:,}", ["local", path, args.single], log, say,
                                   args.quiet_wait)
            say(f"[{n:,}] single-process: " + (
                f"{step.local.seconds:.1f} s, {n / step.local.seconds:,.0f} reports/s, "
                f"peak {_gib(step.local.peak_rss_kb)} GiB" if step.local.ok
                else f"FAILED: {step.local.error}"))
        if base and args.only != "single":
            out = workdir / f"out-{n}-base"
            say(f"[{n:,}] spark pipeline.run at {args.against} ...")
            step.base_spark = run_child(f"spark {n:,} {args.against}",
                                        ["spark", path, str(out), args.master,
                                         json.dumps(args.spark_conf)], log, say,
                                        args.quiet_wait, tree)
            shutil.rmtree(out, ignore_errors=True)
            say(f"[{n:,}] spark at {args.against}: {_said(step.base_spark, n)}")
        if args.only != "single":
            out = workdir / f"out-{n}"
            say(f"[{n:,}] spark pipeline.run ...")
            step.spark = run_child(f"spark {n:,}", ["spark", path, str(out), args.master,
                                                    json.dumps(args.spark_conf)], log, say,
                                   args.quiet_wait)
            shutil.rmtree(out, ignore_errors=True)
            say(f"[{n:,}] spark: " + (
                f"{step.spark.seconds:.1f} s, {n / step.spark.seconds:,.0f} reports/s, "
                f"peak {_gib(step.spark.peak_rss_kb)} GiB" if step.spark.ok
                else f"FAILED: {step.spark.error}"))
        say("")

    stages = None
    if args.stages:
        say(f"[{args.stages:,}] spark parts one at a time ...")
        stages = run_child(f"stages {args.stages:,}",
                           ["stages", str(by_n[args.stages].path), args.master,
                            json.dumps(args.spark_conf)], log, say, args.quiet_wait)
        say("")
    return stages


def report(args: argparse.Namespace, steps: list[Step], stages: Run | None,
           say: Callable[[str], None]) -> None:
    """Print the tables and details (and write the JSON)."""
    say(render(steps))
    say("")
    if args.against:
        say(render_against(steps, args.against))
        say("")
    for step in steps:
        say(f"{step.input.reports:,} reports:")
        for line in describe_run(step):
            say(line)
    for step in steps:
        if step.spark and step.spark.ok:
            say(f"\nwhere pipeline.run spent its time at {step.input.reports:,} reports "
                f"({step.spark.seconds:.1f} s; task s = summed task time; busy = task s / wall"
                f" s, at most {step.spark.result['cores']} here):")
            say(render_actions(actions(step.spark.result["jobs"],
                                         step.spark.result.get("code")), step.spark.seconds))
    last = next((s for s in reversed(steps) if s.spark and s.spark.ok), None)
    if last is not None:
        settings = ", ".join(f"{k.removeprefix('spark.')}={v}"
                             for k, v in last.spark.result["settings"].items())
        say(f"\nspark settings: {settings}")
    if stages is not None:
        say(f"\nspark parts one at a time at {args.stages:,} reports (separate session):")
        if stages.ok:
            for t in stages.result["stages"]:
                say(f"  {t['seconds']:>8.1f} s  {args.stages / t['seconds']:>9,.0f} reports/s"
                    f"  {t['stage']}")
        else:
            say(f"  FAILED: {stages.error}")
    if any(s.same_routes is False for s in steps):
        say("\nWARNING: the two paths disagree on routes, verdicts, messages or rejects")
    if args.json is not None:
        args.json.write_text(json.dumps(to_json(steps, args, stages), indent=2) + "\n")
        say(f"\nwrote {args.json}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == CHILD:
        sys.exit(child_main(sys.argv[2:]))
    sys.exit(main())
