"""The z/OS SMF tables of an analyze output (smf/<structure>/) as observations and summaries.

Channel accounting (QCST: messages, bytes and batches per channel instance and interval) is
observed channel traffic, as the distributed platforms' channel statistics are
(`channel_traffic`; graph.audit makes a sending channel that moved messages an observed send
for the audit and the report). Queue-level accounting (WQ: one row per task and queue) is
per-queue activity (`queue_rows`). `summary`
aggregates what the report's z/OS section shows: CPU per task and per queue, buffer pools,
the log, and the findings of `traceroute.smf.findings` over the same tables.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path

FOLDER = "smf"
#: Rows per table of the report's z/OS section.
LIMIT = 200


def has_smf(out: str | Path) -> bool:
    """True when the analyze output has SMF tables."""
    from graph.pipeline.storage import location

    folder = location(out) / FOLDER
    return folder.is_dir() and any(p.is_dir() for p in folder.iterdir())


def table(out: str | Path, structure: str, columns: list[str] | None = None):
    """An smf/ table (pyarrow), only these columns; None when the output has none."""
    from graph.pipeline.storage import dataset, location

    folder = location(out) / FOLDER / structure.lower()
    if not folder.is_dir() or not any(folder.glob("*.parquet")):
        return None
    data = dataset(folder, format="parquet")
    names = set(data.schema.names)
    return data.to_table(columns=[c for c in columns if c in names] if columns else None)


def _rows(out: str | Path, structure: str, columns: list[str]) -> list[dict]:
    found = table(out, structure, columns)
    return found.to_pylist() if found is not None else []


def channel_traffic(out: str | Path) -> list[dict]:
    """Channel accounting per queue manager, channel and partner: instances, messages,
    persistent messages, bytes, batches, full batches, first and last collection."""
    columns = ["qmgr", "chlName", "type", "remoteQmgrOrApp", "connectionName", "msgAllCount",
               "msgPersistentCount", "numberBytes", "batches", "fullBatches",
               "collectionTimeDate", "collectionTimeTime", "netTimeAvg"]
    total: dict[tuple, dict] = {}
    for r in _rows(out, "QCST", columns):
        key = (r["qmgr"] or "", r["chlName"] or "", r["type"] or "",
               r["remoteQmgrOrApp"] or "")
        t = total.setdefault(key, {"qmgr": key[0], "channel": key[1], "type": key[2],
                                   "remote": key[3], "connection": r["connectionName"] or "",
                                   "instances": 0, "messages": 0, "persistent": 0,
                                   "bytes": 0, "batches": 0, "full_batches": 0,
                                   "first": None, "last": None})
        t["instances"] += 1
        for name, column in (("messages", "msgAllCount"), ("persistent", "msgPersistentCount"),
                             ("bytes", "numberBytes"), ("batches", "batches"),
                             ("full_batches", "fullBatches")):
            t[name] += r[column] or 0
        when = (f"{r['collectionTimeDate']} {r['collectionTimeTime']}"
                if r["collectionTimeDate"] else None)
        if when:
            t["first"] = min(t["first"] or when, when)
            t["last"] = max(t["last"] or when, when)
    return sorted(total.values(), key=lambda t: (-t["messages"], t["qmgr"], t["channel"]))


def _cpu(r: dict, names: tuple[str, ...]) -> int:
    return sum(r.get(n) or 0 for n in names)


_WQ_CPU = ("openCtUs", "closeCtUs", "getCtUs", "putCtUs", "put1CtUs", "inqCtUs", "setCtUs",
           "callbackCtUs")


def queue_rows(out: str | Path) -> list[dict]:
    """Queue-level accounting per queue manager and queue: tasks, opens, puts, gets, bytes,
    CPU (µs), the deepest depth seen and the average time messages waited."""
    columns = ["qmgr", "baseName", "openName", "queue", "openCount", "putCount", "put1Count",
               "getCount", "totalBytesPut", "totalBytesGet", "totalValidGets", "maxDepth",
               "totalTimeOnQueueUs", "maxTimeOnQueueUs", "openDate", "openTime", "closeDate",
               "closeTime", *_WQ_CPU]
    total: dict[tuple[str, str], dict] = {}
    for r in _rows(out, "WQ", columns):
        name = r.get("baseName") or r.get("openName") or ""
        key = (r["qmgr"] or "", name)
        t = total.setdefault(key, {"qmgr": key[0], "queue": name, "type": r.get("queue") or "",
                                   "tasks": 0, "opens": 0, "puts": 0, "gets": 0,
                                   "bytes_put": 0, "bytes_got": 0, "cpu_us": 0,
                                   "max_depth": 0, "valid_gets": 0, "time_on_queue_us": 0,
                                   "first": None, "last": None})
        t["tasks"] += 1
        t["opens"] += r.get("openCount") or 0
        t["puts"] += (r.get("putCount") or 0) + (r.get("put1Count") or 0)
        t["gets"] += r.get("getCount") or 0
        t["bytes_put"] += max(0, r.get("totalBytesPut") or 0)
        t["bytes_got"] += max(0, r.get("totalBytesGet") or 0)
        t["cpu_us"] += _cpu(r, _WQ_CPU)
        t["max_depth"] = max(t["max_depth"], r.get("maxDepth") or 0)
        t["valid_gets"] += max(0, r.get("totalValidGets") or 0)
        t["time_on_queue_us"] += max(0, r.get("totalTimeOnQueueUs") or 0)
        for edge, date, time in (("first", "openDate", "openTime"),
                                 ("last", "closeDate", "closeTime")):
            if r.get(date):
                when = f"{r[date]} {r[time]}"
                t[edge] = (min if edge == "first" else max)(t[edge] or when, when)
    for t in total.values():
        t["avg_time_on_queue_us"] = (t["time_on_queue_us"] // t["valid_gets"]
                                     if t["valid_gets"] else 0)
    return sorted(total.values(), key=lambda t: (-t["cpu_us"], t["qmgr"], t["queue"]))


def task_rows(out: str | Path) -> list[dict]:
    """Message manager accounting (QMAC) per queue manager and task: records, CPU (µs),
    puts and gets by size."""
    columns = ["qmgr", "connectionName", "applicationType", "authorisationId", "operatorId",
               "cpuTimeUs", "putsLen0to99", "putsLen100to999", "putsLen1000to9999",
               "putsLen10000", "getsLen0to99", "getsLen100to999", "getsLen1000to9999",
               "getsLen10000"]
    total: dict[tuple, dict] = {}
    for r in _rows(out, "QMAC", columns):
        key = (r["qmgr"] or "", r["connectionName"] or "", r["applicationType"] or "",
               r["authorisationId"] or "")
        t = total.setdefault(key, {"qmgr": key[0], "task": key[1], "type": key[2],
                                   "user": key[3], "records": 0, "cpu_us": 0, "puts": 0,
                                   "gets": 0, "zero_cpu_records": 0})
        t["records"] += 1
        t["cpu_us"] += r["cpuTimeUs"] or 0
        t["zero_cpu_records"] += 1 if r["cpuTimeUs"] == 0 else 0
        t["puts"] += sum(r[c] or 0 for c in columns if c.startswith("puts"))
        t["gets"] += sum(r[c] or 0 for c in columns if c.startswith("gets"))
    return sorted(total.values(), key=lambda t: (-t["cpu_us"], t["qmgr"], t["task"]))


def buffer_pool_rows(out: str | Path) -> list[dict]:
    """Buffer pools per queue manager: buffers, the lowest stealable share seen, and over
    all intervals the page reads, writes and the counts that should stay zero."""
    columns = ["qmgr", "bufferpool", "bufferCount", "lowestStealable", "getpOldRequests",
               "getpNewRequests", "dasdRead", "pagesWritten", "dasdWrite", "syncWrites",
               "deferWriteTholdReached", "syncWriteTholdReached", "suspendNoBuffers"]
    total: dict[tuple, dict] = {}
    for r in _rows(out, "QPST", columns):
        key = (r["qmgr"] or "", r["bufferpool"])
        t = total.setdefault(key, {"qmgr": key[0], "pool": key[1], "intervals": 0,
                                   "buffers": 0, "lowest_stealable_pct": None, "gets": 0,
                                   "dasd_reads": 0, "pages_written": 0, "sync_writes": 0,
                                   "deferred_write_threshold": 0,
                                   "sync_write_threshold": 0, "no_buffers": 0})
        t["intervals"] += 1
        t["buffers"] = max(t["buffers"], r["bufferCount"] or 0)
        if r["bufferCount"]:
            pct = round(100.0 * (r["lowestStealable"] or 0) / r["bufferCount"], 1)
            low = t["lowest_stealable_pct"]
            t["lowest_stealable_pct"] = pct if low is None else min(low, pct)
        t["gets"] += (r["getpOldRequests"] or 0) + (r["getpNewRequests"] or 0)
        for name, column in (("dasd_reads", "dasdRead"), ("pages_written", "pagesWritten"),
                             ("sync_writes", "syncWrites"),
                             ("deferred_write_threshold", "deferWriteTholdReached"),
                             ("sync_write_threshold", "syncWriteTholdReached"),
                             ("no_buffers", "suspendNoBuffers")):
            t[name] += max(0, r[column] or 0)
    return sorted(total.values(), key=lambda t: (t["qmgr"], t["pool"]))


def log_rows(out: str | Path) -> list[dict]:
    """The log manager per queue manager over all intervals: log writes and reads (from the
    buffer, the active and the archive logs), waits for buffers, checkpoints per hour."""
    columns = ["qmgr", "intervalDuration", "wrtRequestNowait", "wrtRequestForce",
               "logReadOutputBuffer", "logReadActiveLog", "logReadArchiveLog",
               "unavailableBufferCount", "checkpoints", "logCi"]
    total: dict[str, dict] = {}
    for r in _rows(out, "QJST", columns):
        t = total.setdefault(r["qmgr"] or "", {
            "qmgr": r["qmgr"] or "", "intervals": 0, "seconds": 0, "writes": 0,
            "reads_buffer": 0, "reads_active": 0, "reads_archive": 0, "buffer_waits": 0,
            "checkpoints": 0, "cis_written": 0})
        t["intervals"] += 1
        t["seconds"] += r["intervalDuration"] or 0
        t["writes"] += (r["wrtRequestNowait"] or 0) + (r["wrtRequestForce"] or 0)
        for name, column in (("reads_buffer", "logReadOutputBuffer"),
                             ("reads_active", "logReadActiveLog"),
                             ("reads_archive", "logReadArchiveLog"),
                             ("buffer_waits", "unavailableBufferCount"),
                             ("checkpoints", "checkpoints"), ("cis_written", "logCi")):
            t[name] += max(0, r[column] or 0)
    for t in total.values():
        t["checkpoints_per_hour"] = (round(t["checkpoints"] * 3600 / t["seconds"], 1)
                                     if t["seconds"] else 0.0)
    return sorted(total.values(), key=lambda t: t["qmgr"])


def findings(out: str | Path, **options) -> list:
    """The rules of traceroute.smf.findings over the output's smf/ tables."""
    from traceroute.smf.findings import Interpreter, Where

    interpreter = Interpreter(**options)
    for structure in ("QSST", "QJST", "QPST", "Q5ST", "QEST", "QCCT", "QCTDSP", "QCTADP",
                      "QCTSSL", "QCTDNS", "QMAC", "QCST"):
        found = table(out, structure)
        if found is None:
            continue
        for batch in found.to_batches(max_chunksize=4096):
            for r in batch.to_pylist():
                for stem in [k[:-4] for k in r if k.endswith("Date") and k != "date"]:
                    day, time = r.get(stem + "Date"), r.get(stem + "Time")
                    if isinstance(day, _dt.date) and isinstance(time, _dt.time):
                        r[stem] = _dt.datetime.combine(day, time)
                interpreter.see_values(structure, Where.of_table_row(r), r)
    return interpreter.finish()


@dataclass
class Summary:
    """What the report's z/OS section shows."""

    queue_managers: list[str] = field(default_factory=list)
    tasks: list[dict] = field(default_factory=list)
    queues: list[dict] = field(default_factory=list)
    channels: list[dict] = field(default_factory=list)
    buffer_pools: list[dict] = field(default_factory=list)
    log: list[dict] = field(default_factory=list)
    findings: list = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)


def summary(out: str | Path) -> Summary:
    """The z/OS section's figures of an analyze output (empty when it has no SMF tables)."""
    if not has_smf(out):
        return Summary()
    rows: dict[str, int] = {}
    managers: set[str] = set()
    from graph.pipeline.storage import location

    for folder in sorted((location(out) / FOLDER).iterdir(), key=str):
        found = table(out, folder.name, ["qmgr"])
        if found is not None:
            rows[folder.name.upper()] = found.num_rows
            managers.update(v for v in found.column("qmgr").unique().to_pylist() if v)
    return Summary(sorted(managers), task_rows(out)[:LIMIT], queue_rows(out)[:LIMIT],
                   channel_traffic(out)[:LIMIT], buffer_pool_rows(out), log_rows(out),
                   findings(out), rows)
