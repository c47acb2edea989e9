"""SMF benchmark: MB/s of z/OS SMF data sets into smf/<structure>/ tables, one process and Spark.

Run from the project root (or anywhere):

    python benchmarks/bench_smf.py [--megabytes 1024] [--split-mb 32] [--no-spark] [--json F]

It builds an SMF data set of --megabytes from the real data sets in ../shared/vectors/smf/
(TESTCHL, TEST115, TEST116: MQ 8.0 statistics, channel initiator, task, queue and channel
accounting), each copy of a record with its times (SMF date and time, QWHS interval start,
STCK times in the structures are kept) and names (queue manager, LPAR) varied, spanned
records kept as they are. Without ../shared it builds the records from the layouts instead
(tests/support/smfrecords.py). Then, in one run, on the same file:

* frame: the records framed (RDWs followed, spanned records joined), nothing decoded;
* decode floor: every record decoded into rows (traceroute.smf.decode_record), nothing kept:
  what any path has to do at least;
* one process: graph.pipeline.smf.write_local, the analyze single-process path (ranges,
  decode, Arrow tables, Parquet parts under smf/);
* Spark: graph.pipeline.smf.write_tables on a local[N] session (one task per range).

Each is timed on the wall clock and, for the first three, on this process's CPU time (the
machine is shared: CPU time is what an idle machine would show); Spark's CPU is in its
Python workers, so only its wall clock is given. Ratios are against the decode floor of the
same run.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from graph.pipeline import smf as smfpipe  # noqa: E402
from graph.pipeline import storage  # noqa: E402
from traceroute.smf import Frame, decode_record, frames  # noqa: E402
from traceroute.smf.text import ebcdic  # noqa: E402

VECTORS = ROOT.parent / "shared" / "vectors" / "smf"
NAMES = ("TESTCHL.dat", "TEST115.dat", "TEST116.dat")


def source_records() -> list[bytes]:
    """The records (bytes from their RDW, spanned ones as their segments) to copy."""
    out: list[bytes] = []
    if VECTORS.is_dir():
        for name in NAMES:
            data = (VECTORS / name).read_bytes()
            at, pending = 0, b""
            while at < len(data):
                length, flag = struct.unpack_from(">HB", data, at)
                piece = data[at:at + length]
                at += length
                if flag in (1, 3):  # a first or middle segment: keep the segments together
                    pending += piece
                    continue
                out.append(pending + piece)
                pending = b""
        return [r for r in out if r[5] in (115, 116)]
    from tests.support.smfrecords import qwhs, record, structure

    return [record(115, 215, qwhs(2), {1: [structure("QPST", {"bufferpool": n})
                                          for n in range(8)]}),
            record(116, 10, qwhs(2), {1: [structure("QCST", {"chlName": f"A.TO.B{n}"})
                                          for n in range(20)]}),
            record(116, 1, qwhs(4, length=36), {1: [structure("WTID")],
                                                2: [structure("WTAS", {"blockCount": 3})],
                                                3: [structure("WQ")] * 3})]


def varied(rec: bytes, n: int) -> bytes:
    """A copy of a (possibly spanned) record with its SMF time, day and names varied."""
    out = bytearray(rec)
    struct.pack_into(">I", out, 6, (struct.unpack_from(">I", out, 6)[0] + n * 100) % 8_640_000)
    day = 1 + n % 365
    digits = out[10:14].hex()
    out[10:14] = bytes.fromhex(digits[:4] + f"{day:03d}" + digits[7])
    out[14:18] = ebcdic(f"LP{n % 100:02d}", 4)
    out[18:22] = ebcdic(f"Q{n % 1000:03d}", 4)
    return bytes(out)


def build(path: Path, megabytes: int) -> int:
    """Write the data set; its size in bytes."""
    records = source_records()
    target = megabytes << 20
    size, n = 0, 0
    with open(path, "wb", buffering=8 << 20) as f:
        while size < target:
            for rec in records:
                data = varied(rec, n)
                f.write(data)
                size += len(data)
            n += 1
    return size


def timed(fn) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def frame_only(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(1 for fr in frames(f) if isinstance(fr, Frame))


def decode_floor(path: Path) -> int:
    rows = 0
    with open(path, "rb") as f:
        for fr in frames(f):
            if isinstance(fr, Frame):
                rows += len(decode_record(fr.data).rows)
    return rows


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--megabytes", type=int, default=1024)
    p.add_argument("--split-mb", type=int, default=32)
    p.add_argument("--master", default="local[2]")
    p.add_argument("--no-spark", action="store_true")
    p.add_argument("--json", metavar="FILE")
    args = p.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-smf-"))
    data = work / "MQ.SMF.DAT"
    wall, _, size = timed(lambda: build(data, args.megabytes))
    mb = size / 1e6
    kind = "real records varied" if VECTORS.is_dir() else "built records"
    print(f"SMF data set: {size:,} bytes ({kind}), written in {wall:.1f} s; "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    entry = storage.stat(str(data))
    figures: dict[str, dict] = {}

    def report(name: str, wall: float, cpu: float | None, what: str) -> None:
        figures[name] = {"wall_s": round(wall, 2),
                         "cpu_s": None if cpu is None else round(cpu, 2),
                         "mb_s_wall": round(mb / wall, 2),
                         "mb_s_cpu": None if not cpu else round(mb / cpu, 2), "result": what}
        cpu_text = f"{cpu:8.1f} s CPU {mb / cpu:7.1f} MB/s" if cpu else " " * 29
        print(f"{name:<14}{wall:8.1f} s wall {mb / wall:7.1f} MB/s  {cpu_text}  {what}")

    wall, cpu, n = timed(lambda: frame_only(data))
    report("frame", wall, cpu, f"{n:,} records")
    wall, cpu, rows = timed(lambda: decode_floor(data))
    report("decode floor", wall, cpu, f"{rows:,} rows")
    out = work / "local"
    wall, cpu, result = timed(lambda: smfpipe.write_local([(entry, True)], str(out),
                                                          args.split_mb << 20))
    report("one process", wall, cpu, f"{sum(result.rows.values()):,} rows, "
                                     f"{len(result.problems)} problems")
    if not args.no_spark:
        from graph.pipeline.session import spark_session

        spark = spark_session(args.master, app_name="bench-smf")
        spark.sparkContext.setLogLevel("ERROR")
        stage = work / "spark"
        wall, _, result = timed(lambda: smfpipe.write_tables(spark, [(entry, True)],
                                                             str(stage), args.split_mb << 20))
        report(f"Spark {args.master}", wall, None,
               f"{sum(result.rows.values()):,} rows, {len(result.problems)} problems")
        spark.stop()
    floor = figures["decode floor"]
    for f in figures.values():
        f["vs_decode_floor_wall"] = round(floor["wall_s"] / f["wall_s"], 2)
        if f["cpu_s"] and floor["cpu_s"]:
            f["vs_decode_floor_cpu"] = round(floor["cpu_s"] / f["cpu_s"], 2)
    print("against the decode floor (higher is faster): "
          + ", ".join(f"{k} {v['vs_decode_floor_wall']}x" for k, v in figures.items()))
    if args.json:
        Path(args.json).write_text(json.dumps({"bytes": size, "figures": figures}, indent=1))
    for item in sorted(work.rglob("*"), reverse=True):
        item.unlink() if item.is_file() else item.rmdir()
    work.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
