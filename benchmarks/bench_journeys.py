"""Journeys benchmark: MQI calls reconstructed per second, one process against Spark.

Run from the project root:

    python benchmarks/bench_journeys.py [--calls N,N,...] [--qmgrs 120] [--json FILE]
                                        [--workdir DIR] [--no-spark] [--buckets K]
                                        [--memory-max N] [--against REV]

Input: a calls/ table (the rows `mqroute analyze` writes for activity trace, CALL_COLUMNS)
of a simulated estate of --qmgrs queue managers in a chain of channels: each message is put
by an application on one queue manager, travels 0-3 hops (sending MCA get with XmitqMsgId,
receiving MCA put via the same channel) and is consumed (80 %), left on its queue, left on a
transmission queue, caught in transit or dead-lettered; a fifth of them are requests whose
reply travels back. Calls are batched 100 per trace message per connection, as
ActivityCount=100 does. The rows are generated directly (not by running the simulator, which
would take hours at 10M calls) and written once into --workdir as Parquet.

Each path runs in its own subprocess whose peak memory is sampled through /proc (the whole
process tree for Spark: the JVM and its Python workers). The single process streams
(`graph.pipeline.journeyspill.stream_parquet`, or `stream_journeys` of pyarrow's batches at a
revision without it): calls/ is written (a copy of the input file) and the table's Arrow
batches spilled by hash(journey_key) into K buckets (--buckets, else one per 200,000
calls), each bucket's journeys computed by `journeys_of_columns`, replies linked in a second
bucketed pass, journeys/ written as Parquet; its CPU time is also given by stage. Up to
--memory-max calls the in-memory path runs too (every row at once, `journeys_of_columns` +
`link_reply_rows`, then the same work timed by stage: columns -> typed calls, `reconstruct`
alone, journey rows); its journeys must equal the streaming ones (an order-free digest).
--against REV runs the in-memory path, the streaming single process (and Spark) with the
project at git revision REV, on the same input in the same run, and warns when its journeys
differ (the order-free digest). Spark runs `graph.pipeline.journeys.build_journeys` and
writes journeys/ as Parquet. The ratio Spark/single is of calls/s measured in the same run.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if os.environ.get("MQROUTE_BENCH_ROOT"):  # --against: the project of another revision
    sys.path.insert(0, os.environ["MQROUTE_BENCH_ROOT"])

DEFAULT_WORKDIR = ROOT / "benchmarks" / ".cache" / "journeys"
BATCH = 100          # calls per trace message (ActivityCount)
ROW_GROUP = 200_000


# --- the input -------------------------------------------------------------------------------

def _conn_id(qmgr: str, n: int) -> str:
    return (b"AMQC" + qmgr.ljust(12).encode()[:12] + n.to_bytes(8, "big")).hex().upper()


class _Estate:
    """Connections of a chain estate, each numbering its calls and trace messages."""

    def __init__(self, qmgrs: int) -> None:
        self.names = [f"QM{i:03d}" for i in range(qmgrs)]
        self.conns: dict[tuple, list] = {}   # key -> [conn_id, seq, index]

    def conn(self, qmgr: str, kind: str, channel: str = "") -> tuple[str, int, int]:
        key = (qmgr, kind, channel)
        state = self.conns.get(key)
        if state is None:
            state = self.conns[key] = [_conn_id(qmgr, len(self.conns) + 1), 0, 0]
        if state[2] == BATCH:
            state[1] += 1
            state[2] = 0
        state[2] += 1
        return state[0], state[1], state[2] - 1


def generate(n_calls: int, qmgrs: int, seed: int = 1):
    """Yield call rows (dicts of CALL_COLUMNS) until at least n_calls."""
    rng = random.Random(seed)
    est = _Estate(qmgrs)
    names = est.names
    made = 0
    msg = 0
    t0 = 1_795_000_000_000_000
    base = dict.fromkeys(("appl_type", "pid", "operation_date", "operation_time", "hobj",
                          "object_qmgr", "resolved_local_q_mgr", "correl_id", "msg_length",
                          "put_options", "open_options", "get_options", "call_type",
                          "xmitq_remote_q_name"))

    def row(qmgr, kind, appl, env, channel, op, op_id, key, t, **f):
        conn_id, seq, index = est.conn(qmgr, kind, channel)
        r = {**base, "journey_key": key, "queue_manager": qmgr, "conn_id": conn_id,
             "conn_key": conn_id, "seq_number": seq, "call_index": index,
             "appl_name": appl, "environment": env, "channel_name": channel or None,
             "operation": op, "operation_id": op_id, "time": None, "high_res_time": t,
             "comp_code": 0, "reason": 0, "object_name": None, "resolved_q_name": None,
             "resolved_q_mgr": None, "resolved_local_q_name": None, "msg_id": key,
             "format": "MQSTR", "msg_type": 8, "xmitq_msg_id": None, "xmitq_remote_q_mgr": None,
             "source": "bench", "position": msg}
        r.update(f)
        return r

    while made < n_calls:
        msg += 1
        key = f"414D5120{msg:040X}"
        a = rng.randrange(qmgrs)
        hops = rng.choice((0, 1, 1, 2, 2, 3))
        path = [names[(a + i) % qmgrs] for i in range(hops + 1)]
        dest, fate = path[-1], rng.random()
        t = t0 + msg * 1000
        out = [row(path[0], "app", "producer", 0, "", "MQPUT1", 8, key, t,
                   object_name="APP.Q", resolved_q_name="APP.Q", resolved_q_mgr=dest,
                   resolved_local_q_name=dest if hops else None)]
        stop = None
        if hops and fate < 0.05:
            stop = ("xmitq", 0)
        elif hops and fate < 0.10:
            stop = ("transit", rng.randrange(hops))
        for h in range(hops):
            if stop == ("xmitq", 0) or (stop and stop[0] == "transit" and h > stop[1]):
                break
            here, there = path[h], path[h + 1]
            channel = f"{here}.TO.{there}"
            out.append(row(here, "sender", "runmqchl", 1, channel, "MQGET", 10,
                           key, t + 10 * h + 1, format="MQXMIT", msg_id=f"58{key[2:]}",
                           object_name=there, resolved_q_name=there, xmitq_msg_id=key,
                           xmitq_remote_q_mgr=dest))
            if stop and stop[0] == "transit" and h == stop[1]:
                break
            dead = h == hops - 1 and 0.10 <= fate < 0.13
            out.append(row(there, "receiver", "amqrmppa", 1, channel, "MQPUT1", 8, key,
                           t + 10 * h + 2, format="MQDEAD" if dead else "MQSTR",
                           object_name="DLQ" if dead else "APP.Q",
                           resolved_q_name="DLQ" if dead else "APP.Q",
                           resolved_q_mgr=there if (dead or there == dest) else dest,
                           resolved_local_q_name=None if there == dest or dead else path[h + 2]))
        consumed = stop is None and fate >= 0.20
        if consumed:
            out.append(row(dest, "consumer", "consumer", 0, "", "MQGET", 10, key, t + 100,
                           object_name="APP.Q", resolved_q_name="APP.Q", get_options=0))
            if rng.random() < 0.2:
                msg += 1
                reply = f"414D5120{msg:040X}"
                out.append(row(dest, "consumer", "consumer", 0, "", "MQPUT1", 8, reply,
                               t + 101, object_name="REPLY.Q", resolved_q_name="REPLY.Q",
                               resolved_q_mgr=dest, correl_id=key, msg_type=2))
        made += len(out)
        yield from out


def make_input(path: Path, n_calls: int, qmgrs: int) -> int:
    """Write the calls table once (reused when it exists); the number of rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from graph.pipeline.schema import arrow_schema
    from traceroute.journeys.rows import CALL_COLUMNS

    if path.exists():
        return pq.ParquetFile(path).metadata.num_rows
    path.parent.mkdir(parents=True, exist_ok=True)
    schema = arrow_schema(CALL_COLUMNS)
    tmp = path.with_suffix(".tmp")
    n = 0
    with pq.ParquetWriter(tmp, schema) as w:
        chunk: list[dict] = []
        for r in generate(n_calls, qmgrs):
            chunk.append(r)
            if len(chunk) == ROW_GROUP:
                w.write_table(pa.Table.from_pylist(chunk, schema=schema))
                n += len(chunk)
                chunk = []
        if chunk:
            w.write_table(pa.Table.from_pylist(chunk, schema=schema))
            n += len(chunk)
    tmp.rename(path)
    return n


# --- the two paths (children) ----------------------------------------------------------------

def child_single(path: str, out: str, buckets: str = "") -> dict:
    """The streaming single process: the calls table's Arrow batches spilled into K buckets
    by journey key, journeys per bucket, replies joined per bucket, calls/ and journeys/
    written as Parquet (graph.pipeline.journeyspill)."""
    import pyarrow.parquet as pq

    from graph.pipeline.journeyspill import buckets_for, stream_journeys

    t0, c0 = time.perf_counter(), time.process_time()
    f = pq.ParquetFile(path)
    n = f.metadata.num_rows
    k = int(buckets) if buckets else buckets_for(n)
    kw = {"buckets": k, "out": out, "temp_dir": str(Path(out).parent)}
    try:  # this tree: the Parquet file itself (read in one thread; calls/ copied)
        from graph.pipeline.journeyspill import stream_parquet
    except ImportError:  # a revision before it: pyarrow's batches
        result = stream_journeys(f.iter_batches(batch_size=ROW_GROUP), **kw)
    else:
        result = stream_parquet(path, batch_size=ROW_GROUP, **kw)
    t1, c1 = time.perf_counter(), time.process_time()
    return {"calls": n, "journeys": result.journeys, "buckets": k,
            "largest_bucket": result.largest_bucket, "spill_bytes": result.spill_bytes,
            "replies_linked": result.replies_linked, "stage_cpu_seconds": result.stage_cpu,
            "seconds": t1 - t0,
            "cpu_seconds": c1 - c0, "verdicts": result.verdicts,
            "vm_hwm_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}


def child_memory(path: str) -> dict:
    """Rows in memory, then the journeys of all of them (as follow / run_local do): the
    path before streaming, and the stage profile (columns -> calls, reconstruct, rows)."""
    import pyarrow.parquet as pq

    from traceroute.journeys.reconstruct import reconstruct
    from traceroute.journeys.rows import (
        journey_row,
        journeys_of_columns,
        link_reply_rows,
        traces_of_columns,
    )

    t0 = time.perf_counter()
    cols = pq.read_table(path).to_pydict()
    n = len(cols["journey_key"])
    t1, c1 = time.perf_counter(), time.process_time()
    journeys = journeys_of_columns(cols)  # what each Spark partition does, here on all rows
    link_reply_rows(journeys)
    t2, c2 = time.perf_counter(), time.process_time()
    verdicts: dict[str, int] = {}
    for r in journeys:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    digest = _digest(journeys)
    del journeys
    # the same work by stage (CPU time, the cycle collector off as journeys_of_columns has
    # it): columns -> typed calls, reconstruct (the core alone: what `follow` does after
    # parsing), journeys -> rows
    gc_on = gc.isenabled()
    gc.disable()
    c2b = time.process_time()
    traces = traces_of_columns(cols)
    c3 = time.process_time()
    result = reconstruct(traces, sequences=False)
    c4 = time.process_time()
    for j in result.journeys:
        journey_row(j)
    c5 = time.process_time()
    if gc_on:
        gc.enable()
    return {"calls": n, "journeys": sum(verdicts.values()), "read_seconds": t1 - t0,
            "seconds": t2 - t1, "cpu_seconds": c2 - c1, "reconstruct_cpu_seconds": c4 - c3,
            "stage_cpu_seconds": {"columns_to_calls": c3 - c2b, "reconstruct": c4 - c3,
                                  "journey_rows": c5 - c4},
            "verdicts": verdicts, "digest": digest,
            "vm_hwm_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}


def _digest(rows) -> str:
    """An order-free digest of journey rows (the table's columns): equal digests, equal rows."""
    import hashlib

    names = ("msg_id", "verdict", "last_queue_manager", "last_queue", "last_channel", "hops",
             "first_time", "last_time", "applications", "steps", "reply_to", "notes")
    total = 0
    for r in rows:
        h = hashlib.blake2b(repr(tuple(r[k] for k in names)).encode(), digest_size=8)
        total = (total + int.from_bytes(h.digest(), "big")) % (1 << 64)
    return f"{total:016x}"


def journeys_digest(out: str) -> str:
    """`_digest` of a journeys/ Parquet folder, read a batch at a time."""
    import pyarrow.dataset as ds

    total = 0
    for batch in ds.dataset(out, format="parquet").to_batches(batch_size=100_000):
        total = (total + int(_digest(batch.to_pylist()), 16)) % (1 << 64)
    return f"{total:016x}"


def _worker_module(_: object) -> str:
    import graph.pipeline.journeys as module

    return module.__file__


def _tree_cpu() -> float:
    """CPU seconds of this process and its descendants (the JVM, the Python workers; those
    that ended counted in their parents' children times)."""
    from benchmarks.bench_pipeline import process_tree

    ticks = 0
    for pid in process_tree(os.getpid()):
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ticks += sum(int(x) for x in stat[stat.rindex(")") + 2:].split()[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")


def child_spark(path: str, out: str, conf: str = "") -> dict:
    """Spark: read the calls, build_journeys, write journeys/ (a count would skip work).
    `conf`: extra settings, KEY=VALUE separated by commas."""
    import graph.pipeline.journeys as module
    from graph.pipeline.journeys import build_journeys
    from graph.pipeline.session import spark_session

    t0 = time.perf_counter()
    extra = dict(kv.split("=", 1) for kv in conf.split(",") if kv)
    spark = spark_session("local[*]", app_name="bench journeys", driver_memory="6g",
                          config={"spark.ui.enabled": "false", **extra})
    spark.sparkContext.setLogLevel("ERROR")
    # the project the Python workers import (--against: the revision's, like the driver)
    worker = spark.sparkContext.parallelize([0], 1).map(_worker_module).collect()[0]
    if Path(worker).resolve() != Path(module.__file__).resolve():
        raise RuntimeError(f"workers import {worker}, the driver {module.__file__}")
    t1 = time.perf_counter()
    calls = spark.read.parquet(path)
    n = calls.count()
    t2, c2 = time.perf_counter(), _tree_cpu()
    build_journeys(calls).write.mode("overwrite").parquet(out)
    t3, c3 = time.perf_counter(), _tree_cpu()
    verdicts = {r["verdict"]: r["count"]
                for r in spark.read.parquet(out).groupBy("verdict").count().collect()}
    spark.stop()
    return {"calls": n, "journeys": sum(verdicts.values()), "startup": t1 - t0,
            "read_seconds": t2 - t1, "seconds": t3 - t2, "job_cpu_seconds": c3 - c2,
            "verdicts": verdicts, "digest": journeys_digest(out), "module": module.__file__,
            "conf": extra}


def run_child(kind: str, args: list[str], say, root: Path | None = None) -> dict:
    """Run one path in a subprocess, sampling the peak memory of its process tree (the
    project imported from `root` when given: --against)."""
    from benchmarks.bench_pipeline import TreeSampler

    cmd = [sys.executable, str(Path(__file__).resolve()), "_child", kind, *args]
    env = dict(os.environ)
    if root is not None:
        env["MQROUTE_BENCH_ROOT"] = str(root)
        # Spark's Python workers too (they find the project through PYTHONPATH first)
        env["PYTHONPATH"] = os.pathsep.join(
            x for x in (str(root), env.get("PYTHONPATH")) if x)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=root or ROOT, start_new_session=True, env=env)
    sampler = TreeSampler(proc.pid, kind, say)
    sampler.start()
    out, err = proc.communicate()
    sampler.stop()
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{kind} failed ({proc.returncode}): {err.strip()[-600:]}")
    result = json.loads(out.strip().splitlines()[-1])
    result.update(wall=wall, peak_rss_gib=sampler.peak_rss_kb / (1 << 20),
                  tree_cpu_seconds=sampler.cpu_seconds,
                  others_cpus=sampler.others_cpu_seconds / wall if wall else 0.0)
    return result


def export_revision(rev: str, into: Path) -> Path:
    """The project at git revision `rev`, exported with git archive into `into`."""
    import tarfile

    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True,
                             check=True).stdout
    import io

    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def _say_memory(label: str, rows: int, m: dict, say) -> None:
    say(f"  {label}: {rows / m['seconds']:,.0f} calls/s ({rows / m['cpu_seconds']:,.0f} per "
        f"CPU second; reconstruct alone {rows / m['reconstruct_cpu_seconds']:,.0f}), peak "
        f"{m['peak_rss_gib']:.1f} GiB; other processes kept {m['others_cpus']:.1f} CPUs busy")
    say(f"  {label}, calls per CPU second by stage: " + ", ".join(
        f"{k} {rows / v:,.0f}" for k, v in m["stage_cpu_seconds"].items() if v))


def _say_spark(label: str, rows: int, k: dict, say) -> None:
    say(f"  {label}: {rows / k['seconds']:,.0f} calls/s (job {k['seconds']:.1f} s + "
        f"{k['startup']:.1f} s session start; job {k['job_cpu_seconds']:.1f} CPU s of the "
        f"process tree: {rows / k['job_cpu_seconds']:,.0f} calls per CPU second), peak "
        f"{k['peak_rss_gib']:.1f} GiB; other processes kept {k['others_cpus']:.1f} CPUs busy")


def main(argv: list[str] | None = None) -> int:
    """Make inputs, run the paths per size, print a table (and JSON)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_child"]:
        kind, *rest = argv[1:]
        children = {"single": child_single, "memory": child_memory, "spark": child_spark}
        result = children[kind](*rest)
        if kind == "single":
            result["digest"] = journeys_digest(str(Path(rest[1]) / "journeys"))
        print(json.dumps(result))
        return 0
    p = argparse.ArgumentParser(prog="bench_journeys")
    p.add_argument("--calls", default="1000000", help="sizes, comma-separated")
    p.add_argument("--qmgrs", type=int, default=120)
    p.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR)
    p.add_argument("--json", type=Path)
    p.add_argument("--no-spark", action="store_true")
    p.add_argument("--no-single", action="store_true")
    p.add_argument("--buckets", type=int, help="spill buckets of the single process "
                   "(default: one per 200,000 calls)")
    p.add_argument("--memory-max", type=int, default=2_000_000,
                   help="also run the in-memory path (all rows at once, the stage profile) "
                   "up to this many calls (it needs ~3.5 KB per call)")
    p.add_argument("--against", metavar="REV", help="also run the in-memory (up to "
                   "--memory-max calls) and streaming paths with the project at git revision "
                   "REV (the code before), "
                   "and Spark (right before this tree's Spark run) up to --spark-against-max")
    p.add_argument("--spark-against-max", type=int, default=2_000_000)
    p.add_argument("--spark-conf", action="append", default=[], metavar="KEY=VALUE",
                   help="a Spark setting for the Spark child (repeatable)")
    args = p.parse_args(argv)

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    results = []
    s = k = None
    old_root = None
    if args.against:
        old_root = export_revision(args.against, args.workdir / f"rev-{args.against}")
    for n in (int(x) for x in args.calls.split(",")):
        path = args.workdir / f"calls-{n}-{args.qmgrs}.parquet"
        say(f"input: {n:,} calls, {args.qmgrs} queue managers -> {path}")
        rows = make_input(path, n, args.qmgrs)
        entry: dict = {"calls": rows, "qmgrs": args.qmgrs}
        if not args.no_single and old_root is not None and rows <= args.memory_max:
            entry["against"] = run_child("memory", [str(path)], say, root=old_root)
            _say_memory(f"in memory at {args.against}", rows, entry["against"], say)
        if not args.no_single and rows <= args.memory_max:
            entry["memory"] = run_child("memory", [str(path)], say)
            _say_memory("in memory", rows, entry["memory"], say)
        if not args.no_single and old_root is not None:
            entry["single_against"] = b = run_child(
                "single", [str(path), str(args.workdir / "out-single-against"),
                           str(args.buckets or "")], say, root=old_root)
            say(f"  single (streaming) at {args.against}: {rows / b['seconds']:,.0f} calls/s "
                f"({rows / b['cpu_seconds']:,.0f} per CPU second), peak "
                f"{b['peak_rss_gib']:.2f} GiB; by stage: " + ", ".join(
                    f"{k} {rows / v:,.0f}" for k, v in b["stage_cpu_seconds"].items() if v))
        if not args.no_single:
            out = args.workdir / "out-single"
            entry["single"] = run_child(
                "single", [str(path), str(out), str(args.buckets or "")], say)
            s = entry["single"]
            say(f"  single (streaming, {s['buckets']} buckets, largest "
                f"{s['largest_bucket']:,} calls, {s['spill_bytes'] / (1 << 20):,.0f} MiB "
                f"spilled): {rows / s['seconds']:,.0f} calls/s ({rows / s['cpu_seconds']:,.0f}"
                f" per CPU second), peak {s['peak_rss_gib']:.2f} GiB; other processes kept "
                f"{s['others_cpus']:.1f} CPUs busy")
            say("  single (streaming), calls per CPU second by stage: " + ", ".join(
                f"{k} {rows / v:,.0f}" for k, v in s["stage_cpu_seconds"].items() if v))
            m = entry.get("memory")
            if m and (m["verdicts"] != s["verdicts"] or m["digest"] != s["digest"]):
                say("WARNING: streaming and in-memory journeys differ")
            for label in ("against", "single_against"):
                other = entry.get(label)
                if other and other["digest"] != s["digest"]:
                    say(f"WARNING: journeys differ from {label} ({args.against})")
            b = entry.get("single_against")
            if b:
                say(f"  single (streaming) gain over {args.against}: "
                    f"{b['cpu_seconds'] / s['cpu_seconds']:.2f}x per CPU second; digest "
                    f"{s['digest']} (at {args.against}: {b['digest']})")
        conf = ",".join(args.spark_conf)
        if not args.no_spark and old_root is not None and rows <= args.spark_against_max:
            entry["spark_against"] = run_child(
                "spark", [str(path), str(args.workdir / "out-against"), conf], say,
                root=old_root)
            _say_spark(f"spark at {args.against}", rows, entry["spark_against"], say)
        if not args.no_spark:
            entry["spark"] = run_child("spark", [str(path), str(args.workdir / "out"), conf],
                                       say)
            k = entry["spark"]
            _say_spark("spark", rows, k, say)
            b = entry.get("spark_against")
            if b:
                say(f"  spark gain over {args.against}: {b['seconds'] / k['seconds']:.2f}x "
                    f"wall, {b['job_cpu_seconds'] / k['job_cpu_seconds']:.2f}x CPU; "
                    f"same journeys: {b['digest'] == k['digest']}")
            for label in ("single", "memory"):
                other = entry.get(label)
                if other and other.get("digest") and other["digest"] != k["digest"]:
                    say(f"WARNING: spark and {label} journeys differ")
        results.append(entry)
    print(f"{'calls':>12} {'single calls/s':>15} {'GiB':>5} {'spark calls/s':>14} {'GiB':>5}"
          f" {'spark/single':>13}")
    for e in results:
        s, k = e.get("single"), e.get("spark")
        sr = e["calls"] / s["seconds"] if s else None
        kr = e["calls"] / k["seconds"] if k else None
        print(f"{e['calls']:>12,} {sr or 0:>15,.0f} {s['peak_rss_gib'] if s else 0:>5.1f} "
              f"{kr or 0:>14,.0f} {k['peak_rss_gib'] if k else 0:>5.1f} "
              f"{(kr / sr) if sr and kr else 0:>13.2f}")
    for e in results:
        for label in ("against", "memory"):
            m = e.get(label)
            if m:
                st = m["stage_cpu_seconds"]
                print(f"{e['calls']:>12,} {label:>8}: whole {e['calls'] / m['cpu_seconds']:>9,.0f}"
                      f" calls/CPU s; stages " + ", ".join(
                          f"{n} {e['calls'] / v:,.0f}" for n, v in st.items() if v)
                      + f"; peak {m['peak_rss_gib']:.2f} GiB")
    if s and k and s["verdicts"] != k["verdicts"]:
        print("WARNING: the two paths disagree on verdicts", s["verdicts"], k["verdicts"])
    if args.json:
        args.json.write_text(json.dumps({"results": results, "cpus": os.cpu_count(),
                                         "against": args.against}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
