"""SMF numbers interpreted: the symptoms IBM's documentation names, each a rule with a stable id.

IBM MQ 9.4 "Monitoring and performance" (seed 002), "Interpreting IBM MQ for z/OS performance
statistics" and "... accounting data" and the channel initiator pages, state when a number
means trouble: a count that should be zero, a ratio above a threshold. Each rule below keeps
the documentation's wording of when it applies (`when`); where the documentation gives no
number ("larger than normal", "significantly greater") the rule says which number we chose.
A finding names the rule, the structure, queue manager, LPAR, interval, the object (buffer
pool, page set, log, task, channel), the numbers that triggered it, a cause and an action.
"""

from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from traceroute.smf.clock import smf_date, smf_day, smf_time, stck_datetime
from traceroute.smf.decode import Header, Row
from traceroute.smf.layout import ENUMS, layout
from traceroute.smf.text import clean


@dataclass(frozen=True)
class Rule:
    """One interpretation rule: id, structure, IBM's wording of when it applies, cause,
    action, and (when the documentation gives none) the threshold we chose."""

    id: str
    structure: str
    when: str
    cause: str
    action: str
    threshold: str = ""


@dataclass(frozen=True)
class Finding:
    """A rule that applied: where, to what, and the numbers."""

    rule: Rule
    qmgr: str
    lpar: str
    interval_start: _dt.datetime | None
    object: str
    detail: dict

    def to_json(self) -> dict:
        """The finding as one JSON object."""
        return {"rule": self.rule.id, "structure": self.rule.structure, "qmgr": self.qmgr,
                "lpar": self.lpar,
                "interval_start": (self.interval_start.isoformat(timespec="microseconds")
                                   if self.interval_start else None),
                "object": self.object, "detail": self.detail, "when": self.rule.when,
                "cause": self.rule.cause, "action": self.rule.action}

    def text(self) -> str:
        """The finding as two lines of text."""
        when = self.interval_start.strftime("%Y-%m-%d %H:%M:%S") if self.interval_start \
            else "-"
        numbers = ", ".join(f"{k} {_number(v)}" for k, v in self.detail.items())
        return (f"{self.qmgr} ({self.lpar}) {when} {self.object}: {self.rule.id}: {numbers}\n"
                f"    {self.rule.cause} {self.rule.action}")


def _number(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


_L = "QJST"
_B = "QPST"
RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("log-buffer-waits", _L, "QJSTWTB is nonzero",
         "Tasks were suspended while the in-storage log buffer was written to the active log: "
         "writing the active log has problems, or OUTBUFF (CSQ6LOGP) is too small.",
         "Look into the writes to the active log; increase OUTBUFF."),
    Rule("log-reads-delayed", _L, "the ratio QJSTTVC / Nlogread is greater than 1%",
         "Log reads had to read an archive log but could not allocate its data set because "
         "MAXRTU data sets were already allocated.", "Increase MAXRTU.",
         "Nlogread = QJSTRBUF + QJSTRACT + QJSTRARH; the 9.4 text calls the count QJSTWTL, "
         "the field is QJSTTVC"),
    Rule("log-reads-from-archive", _L, "the ratio QJSTRARH / Nlogread is larger than normal",
         "Log reads (for backouts) reached the archive logs: long-running units of recovery "
         "spread their log records over many logs, which costs extra work.",
         "Shorten the applications' units of recovery; consider larger active logs.",
         "IBM gives no number: most reads should come from the buffer or the active log, so "
         "any read from an archive log (QJSTRARH > 0) is reported"),
    Rule("log-checkpoints-frequent", _L, "QJSTLLCP is more than 10 an hour",
         "More checkpoints than a busy system needs: LOGLOAD (CSQ6SYSP) is too small, or the "
         "active logs are so small that they fill and switch often.",
         "Increase LOGLOAD, or the size of the log data sets.",
         "the interval's rate, and more than one checkpoint in it (one checkpoint in a "
         "short interval is no rate)"),
    Rule("log-compression-ineffective", _L,
         "QJSTCmpFail > 0 or QJSTCmpComp is not less than QJSTCmpUncmp",
         "The queue manager could not compress the log records significantly.",
         "Turn log compression off: SET LOG COMPLOG(NONE).",
         "only when compression was requested (QJSTCmpReq > 0)"),
    Rule("bp-no-buffers", _B, "QPSTSOS is greater than zero",
         "There were no buffers for page get requests: the queue manager is under severe "
         "stress (or the page sets' DASD has I/O contention).",
         "Increase the buffer pool, or move page sets to other buffer pools."),
    Rule("bp-sync-write-threshold", _B, "QPSTDMC is greater than zero",
         "Updates were written synchronously because more than 95% of the pool's pages waited "
         "for write I/O, or less than 5% were free for reads.",
         "Increase the buffer pool, or move page sets to other buffer pools; if that does not "
         "help, look for I/O contention on the page sets."),
    Rule("bp-synchronous-writes", _B, "QPSTIMW is greater than zero",
         "Pages were written out synchronously (with QPSTDMC zero: pages that had waited for "
         "write I/O for at least two checkpoints).",
         "Increase the buffer pool, or move page sets to other buffer pools."),
    Rule("bp-deferred-write-threshold", _B,
         "for buffer pool zero and pools with short-lived messages, QPSTDWT should be zero",
         "The asynchronous write processor started because more than 85% of the pages waited "
         "for write I/O, or less than 15% were free for reads.",
         "Increase the buffer pool; if that does not help, messages wait long between put and "
         "get.", "applies to the short-lived pools (buffer pool 0 unless told otherwise)"),
    Rule("bp-stealable-low", _B,
         "for buffer pool zero and pools with short-lived messages, QPSTCBSL / QPSTNBUF "
         "should be greater than 15%",
         "The pool ran low on buffers free for reuse.",
         "Increase the buffer pool so that it holds the peak message rate.",
         "applies to the short-lived pools (buffer pool 0 unless told otherwise)"),
    Rule("bp-dasd-reads", _B,
         "for buffer pool zero and pools with short-lived messages, QPSTRIO should be zero "
         "unless messages are read from a page set after a restart",
         "Pages had to be read from the page set: they did not stay in the pool between put "
         "and get.", "Increase the buffer pool (unless the queue manager has just restarted).",
         "applies to the short-lived pools (buffer pool 0 unless told otherwise)"),
    Rule("bp-new-pages", _B, "QPSTSTL has a value greater than zero",
         "Pages not used before are now being used: a higher message rate, messages processed "
         "more slowly than before (building up), or larger messages.",
         "Check the message rate and the getting applications; increase the buffer pool.",
         "applies to the short-lived pools (buffer pool 0 unless told otherwise)"),
    Rule("bp-pages-reread", _B, "QPSTRIO is much larger than QPSTTPW",
         "Pages are read in more than once: MQGET by MsgId or CorrelId on a queue that is not "
         "indexed, or browsing with get next.",
         "Make the pool hold the queue; index the queue (INDXTYPE); avoid MQGET by MsgId or "
         "CorrelId and browse-next; give the page set its own pool.",
         "much larger: more than twice, over all the intervals of the data (IBM: over the "
         "period the messages are processed); pools with long-lived messages (those not "
         "short-lived)"),
    Rule("db2-thread-waits", "Q5ST",
         "the average thread time is significantly greater than the average SQL time, and "
         "DHIGMAX is greater than one",
         "Thread requests waited for a Db2 server task to process their SQL.",
         "Increase the number of Db2 server tasks (QSGDATA in CSQ6SYSP).",
         "significantly greater: more than twice, over all request types"),
    Rule("db2-server-abends", "Q5ST", "the abnormal termination count is not zero",
         "Db2 server tasks ended abnormally; their queued requests were requeued to other "
         "server tasks (the requeue count).",
         "Look into the Db2 server task abends (job log, Db2)."),
    Rule("cf-structure-full", "QEST", "a 'structure full' condition occurred",
         "A coupling facility list structure filled up.",
         "Make the CF structure larger, or find the shared queues that grow."),
    Rule("storage-short", "QSST", "the short-on-storage condition was detected",
         "The queue manager ran short on storage (and possibly abended because of it).",
         "Review the queue manager's region and storage use (subtypes 5, 6, 7)."),
    Rule("chinit-current-channels-near-max", "QCCT",
         "the number of current channels is tending towards the maximum",
         "The peak of current channels approaches MAXCHL.",
         "Increase MAXCHL (ALTER QMGR MAXCHL).", "80% of MAXCHL"),
    Rule("chinit-active-channels-near-max", "QCCT",
         "the number of active channels is tending towards the maximum",
         "The peak of active channels approaches ACTCHL.",
         "Increase ACTCHL (ALTER QMGR ACTCHL).", "80% of ACTCHL"),
    Rule("chinit-storage-near-limit", "QCCT",
         "the total used is approaching the total storage available",
         "The channel initiator may run out of storage and not support many more channels.",
         "Watch the trend; reduce the storage the channels use or raise the limit.",
         "80% of the 64-bit storage limit"),
    Rule("chinit-dispatchers-over-processors", "QCTDSP",
         "the number of dispatchers should be less than, or equal to, the number of "
         "processors in the LPAR",
         "More dispatchers than processors compete for CPU.",
         "Reduce CHIDISPS (ALTER QMGR CHIDISPS; takes effect at the next start).",
         "needs the LPAR's processors (--processors)"),
    Rule("chinit-adapters-all-used", "QCTADP", "all the adapters were used",
         "Every adapter task processed requests and none was little used (under 1% busy).",
         "You might need more adapters (ALTER QMGR CHIADAPS; takes effect at the next "
         "start)."),
    Rule("chinit-adapters-busy", "QCTADP",
         "all of the adapters were used, and they were all busy for most of the interval",
         "The adapters are a bottleneck for the channels' MQ requests.",
         "Allocate more adapters (ALTER QMGR CHIADAPS).", "most: more than 50%"),
    Rule("chinit-dns-busy", "QCTDNS", "the DNS task is busy for 25% of the duration",
         "Name lookups take much of the interval (lookups leaving the enterprise, or invalid "
         "names in CONNAMEs).", "Investigate the long requests with the network team."),
    Rule("chinit-dns-slow", "QCTDNS",
         "a DNS lookup going to a server outside of your enterprise taking seconds rather "
         "than milliseconds",
         "A name lookup took seconds.",
         "Work with the network team on the long request; check the connection names.",
         "the longest request took 1 second or more"),
    Rule("chinit-ssl-busy", "QCTSSL",
         "the SSL tasks are busy for a significant proportion of the interval",
         "TLS processing takes much of the interval (or waits for the cryptographic "
         "coprocessors).",
         "More SSL tasks might help (ALTER QMGR SSLTASKS) unless they wait for coprocessors.",
         "significant: 25% of the interval, like the DNS task's"),
    Rule("acct-zero-cpu-records", "QMAC",
         "records with zero processor time: up to nine for the CICS adapter, up to Adapters + "
         "Dispatchers + 6 for the channel initiator",
         "More zero-CPU accounting records than long-running tasks explain.",
         "Look for tasks that end or are prompted to write accounting records unexpectedly.",
         "more than the documented numbers, per queue manager and minute of writing"),
    Rule("channel-batches-full", "QCST", "the actual batches are approaching the limit",
         "Most of the channel's batches were full (BATCHSZ, BATCHLIM or BATCHINT reached).",
         "Consider larger batches (BATCHSZ) if the network latency allows.",
         "90% of the batches full"),
)}

#: Buffer pools that hold short-lived messages unless the caller says otherwise.
DEFAULT_SHORT_LIVED = frozenset({0})
#: Request types of Q5ST: (thread total, SQL total) column pairs.
_DB2_PAIRS = tuple((f"{t}ElapsedUs", f"{s}ElapsedUs") for t, s in (
    ("threadDelete", "sqlDelete"), ("threadList", "sqlList"), ("threadRead", "sqlRead"),
    ("threadUpdate", "sqlUpdate"), ("threadWrite", "sqlWrite"),
    ("scstThreadSelect", "scstSqlSelect"), ("scstThreadInsert", "scstSqlInsert"),
    ("scstThreadUpdate", "scstSqlUpdate"), ("scstThreadDelete", "scstSqlDelete"),
    ("ssktThreadSelect", "ssktSqlSelect"), ("ssktThreadInsert", "ssktSqlInsert"),
    ("ssktThreadUpdate", "ssktSqlUpdate"), ("ssktThreadDelete", "ssktSqlDelete"),
    ("blobThreadSelect", "blobSqlSelect"), ("blobThreadInsert", "blobSqlInsert"),
    ("blobThreadUpdate", "blobSqlUpdate"), ("blobThreadDelete", "blobSqlDelete"),
    ("blobThreadList", "blobSqlList")))


def named(row: Row) -> dict[str, object]:
    """A row's scalar values by column name, as the tables hold them: text without padding,
    times of day as datetimes (None when unset); lists left out."""
    out: dict[str, object] = {}
    for f, v in zip(layout(row.structure).fields, row.values, strict=True):
        if f.array:
            continue
        if f.kind == "time":
            v = stck_datetime(v) if v else None
        elif isinstance(v, bytes) and f.kind in ("ebcdic", "ebcdicif"):
            v = clean(v)
        out[f.name] = v
    return out


@dataclass(frozen=True)
class Where:
    """What a finding says about where a structure came from: queue manager, LPAR, the
    statistics interval (start, seconds) and when SMF wrote the record."""

    qmgr: str
    lpar: str
    interval_start: _dt.datetime | None
    interval_seconds: int
    written: _dt.datetime | None

    @classmethod
    def of(cls, h: Header) -> Where:
        """From a record's header."""
        return cls(clean(h.qmgr), clean(h.lpar),
                   stck_datetime(h.interval_start) if h.interval_start else None,
                   h.interval_duration or 0, when_written(h))

    @classmethod
    def of_table_row(cls, r: dict) -> Where:
        """From a row of an smf/ table (its common columns)."""
        start = written = None
        if r.get("intervalStartDate") and r.get("intervalStartTime"):
            start = _dt.datetime.combine(r["intervalStartDate"], r["intervalStartTime"])
        if r.get("date") and r.get("time") is not None:
            written = _dt.datetime.combine(r["date"], r["time"])
        return cls(r.get("qmgr") or "", r.get("lpar") or "", start,
                   r.get("intervalDuration") or 0, written)

    @property
    def when(self) -> _dt.datetime | None:
        """The interval's start; for accounting, when SMF wrote the record."""
        return self.interval_start or self.written


def when_written(h: Header) -> _dt.datetime | None:
    """When SMF wrote the record (its header's date and time, local to the LPAR)."""
    parsed = smf_date(h.date)
    day = smf_day(*parsed) if parsed else None
    return _dt.datetime.combine(day, smf_time(h.time)) if day else None


def _pct(part: float, whole: float) -> float:
    return round(100.0 * part / whole, 2) if whole else 0.0


def _n(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


@dataclass
class _Chinit:
    """One channel initiator interval: its tasks' figures."""

    where: Where
    duration: int
    dispatchers: dict[int, dict] = field(default_factory=dict)
    adapters: dict[int, dict] = field(default_factory=dict)


class Interpreter:
    """Applies the rules to rows as they pass (`watch`, `see`). Rules over one structure fire
    as its row passes, those over a channel initiator's interval when its next interval
    starts, those over a minute of accounting records at the end (`finish`). `take` hands
    out what was found so far (to print as it comes); `finish` the rest. What it keeps
    between rows is one interval per channel initiator and a count per minute."""

    def __init__(self, *, short_lived_pools: Iterable[int] = DEFAULT_SHORT_LIVED,
                 processors: int | None = None) -> None:
        self.short_lived = frozenset(short_lived_pools)
        self.processors = processors
        self.found: list[Finding] = []
        self._chinit: dict[tuple[str, str], _Chinit] = {}
        self._zero_cpu: dict[tuple, int] = defaultdict(int)
        #: long-lived pools: [first Where, page reads, pages written, intervals]
        self._long_lived: dict[tuple, list] = {}
        self._tasks: dict[tuple[str, str], tuple[int, int]] = {}
        self._checks: dict[str, Callable[[Where, dict], None]] = {
            "QJST": self._qjst, "QPST": self._qpst, "Q5ST": self._q5st, "QEST": self._qest,
            "QSST": self._qsst, "QCCT": self._qcct, "QCTDSP": self._task,
            "QCTADP": self._task, "QCTDNS": self._dns, "QCTSSL": self._ssl,
            "QMAC": self._qmac, "QCST": self._qcst}

    def watch(self, rows: Iterable[Row]) -> Iterator[Row]:
        """Pass the rows through, applying the rules to each."""
        for row in rows:
            self.see(row)
            yield row

    def see(self, row: Row) -> None:
        """Apply the rules to one row."""
        check = self._checks.get(row.structure)
        if check is not None:
            check(Where.of(row.header), named(row))

    def see_values(self, structure: str, where: Where, values: dict) -> None:
        """Apply the rules to one structure's values as the smf/ tables hold them."""
        check = self._checks.get(structure)
        if check is not None:
            check(where, values)

    def take(self) -> list[Finding]:
        """The findings so far (not handed out before)."""
        found, self.found = self.found, []
        return found

    def finish(self) -> list[Finding]:
        """Every finding not taken yet, those of whole intervals included."""
        for group in self._chinit.values():
            self._chinit_interval(group)
        self._chinit.clear()
        for (lpar, qmgr, minute, kind), count in sorted(self._zero_cpu.items(),
                                                        key=lambda kv: str(kv[0])):
            adapters, dispatchers = self._tasks.get((lpar, qmgr), (None, None))
            limit = 9 if kind == "CICS" else (adapters + dispatchers + 6
                                              if adapters is not None else None)
            if limit is not None and count > limit:
                self.found.append(Finding(
                    RULES["acct-zero-cpu-records"], qmgr, lpar, minute,
                    "CICS adapter" if kind == "CICS" else "channel initiator",
                    {"zero_cpu_records": count, "expected_at_most": limit}
                    | ({"adapters": adapters, "dispatchers": dispatchers} if kind == "CHIN"
                       else {})))
        self._zero_cpu.clear()
        for (_lpar, _qmgr, pool), (where, reads, written, n) in self._long_lived.items():
            if reads > 2 * written and reads > 0:
                self._add("bp-pages-reread", where, f"buffer pool {pool}",
                          {"QPSTRIO": reads, "QPSTTPW": written, "intervals": n})
        self._long_lived.clear()
        return self.take()

    def _add(self, rule: str, where: Where, obj: str, detail: dict) -> None:
        self.found.append(Finding(RULES[rule], where.qmgr, where.lpar, where.when, obj,
                                  detail))

    # statistics: log, buffer pools, Db2, CF, storage

    def _qjst(self, where: Where, v: dict) -> None:
        reads = _n(v.get("logReadOutputBuffer")) + _n(v.get("logReadActiveLog")) \
            + _n(v.get("logReadArchiveLog"))
        writes = _n(v.get("wrtRequestNowait")) + _n(v.get("wrtRequestForce"))
        if _n(v.get("unavailableBufferCount")) > 0:
            self._add("log-buffer-waits", where, "log", {"QJSTWTB": v["unavailableBufferCount"]})
        delayed = _n(v.get("tapeContentionDelays"))
        if reads and delayed * 100 > reads:
            self._add("log-reads-delayed", where, "log",
                      {"QJSTTVC": delayed, "Nlogread": reads, "percent": _pct(delayed, reads)})
        archive = _n(v.get("logReadArchiveLog"))
        if archive > 0:
            self._add("log-reads-from-archive", where, "log",
                      {"QJSTRARH": archive, "Nlogread": reads,
                       "percent": _pct(archive, reads), "Nlogwrite": writes,
                       "Nlogread_per_Nlogwrite": round(reads / writes, 4) if writes else 0.0})
        duration = where.interval_seconds
        checkpoints = _n(v.get("checkpoints"))
        if duration > 0 and checkpoints > 1 and checkpoints * 3600 > 10 * duration:
            self._add("log-checkpoints-frequent", where, "log",
                      {"QJSTLLCP": checkpoints, "interval_seconds": duration,
                       "per_hour": round(checkpoints * 3600 / duration, 2)})
        requests = _n(v.get("compRequests"))
        failed = _n(v.get("compFail"))
        raw, packed = _n(v.get("compUncompressedBytes")), _n(v.get("compCompressedBytes"))
        if requests and (failed > 0 or packed >= raw):
            self._add("log-compression-ineffective", where, "log",
                      {"QJSTCmpReq": requests, "QJSTCmpFail": failed, "QJSTCmpUncmp": raw,
                       "QJSTCmpComp": packed})

    def _qpst(self, where: Where, v: dict) -> None:
        pool = v.get("bufferpool")
        obj = f"buffer pool {pool}"
        for rule, column, name in (("bp-no-buffers", "suspendNoBuffers", "QPSTSOS"),
                                   ("bp-sync-write-threshold", "syncWriteTholdReached",
                                    "QPSTDMC"),
                                   ("bp-synchronous-writes", "syncWrites", "QPSTIMW")):
            if _n(v.get(column)) > 0:
                self._add(rule, where, obj, {name: v[column]})
        buffers = _n(v.get("bufferCount"))
        reads, written = _n(v.get("dasdRead")), _n(v.get("pagesWritten"))
        if pool in self.short_lived:
            if _n(v.get("deferWriteTholdReached")) > 0:
                self._add("bp-deferred-write-threshold", where, obj,
                          {"QPSTDWT": v["deferWriteTholdReached"]})
            lowest = _n(v.get("lowestStealable"))
            if buffers and lowest * 100 <= 15 * buffers:
                self._add("bp-stealable-low", where, obj,
                          {"QPSTCBSL": lowest, "QPSTNBUF": buffers,
                           "percent": _pct(lowest, buffers)})
            if reads > 0:
                self._add("bp-dasd-reads", where, obj, {"QPSTRIO": reads})
            if _n(v.get("bufferSteals")) > 0:
                self._add("bp-new-pages", where, obj,
                          {"QPSTSTL": v["bufferSteals"],
                           "QPSTGETP_plus_QPSTGETN": _n(v.get("getpOldRequests"))
                           + _n(v.get("getpNewRequests"))})
        else:  # long-lived: reads against pages written, judged over all intervals at the end
            total = self._long_lived.setdefault((where.lpar, where.qmgr, pool),
                                                [where, 0, 0, 0])
            total[1] += reads
            total[2] += written
            total[3] += 1

    def _q5st(self, where: Where, v: dict) -> None:
        thread = sum(_n(v.get(t)) for t, _ in _DB2_PAIRS)
        sql = sum(_n(v.get(s)) for _, s in _DB2_PAIRS)
        depth = _n(v.get("maxRequestQueueDepth"))
        if depth > 1 and thread > 0 and thread > 2 * sql:
            self._add("db2-thread-waits", where, "Db2",
                      {"DHIGMAX": depth, "thread_time_us": thread, "sql_time_us": sql})
        abends = _n(v.get("db2TaskAbends"))
        if abends > 0:
            self._add("db2-server-abends", where, "Db2",
                      {"ABNDCNT": abends, "REQUCNT": _n(v.get("requestRequeues"))})

    def _qest(self, where: Where, v: dict) -> None:
        full = _n(v.get("structureFull"))
        if full > 0:
            name = v.get("structureName") or "?"
            self._add("cf-structure-full", where, f"CF structure {name}", {"QESTSFUL": full})

    def _qsst(self, where: Where, v: dict) -> None:
        short, abends = _n(v.get("sosSet")), _n(v.get("sosAbend"))
        if short or abends:
            self._add("storage-short", where, "storage",
                      {"QSSTCRIT": short, "QSSTABND": abends,
                       "QSSTCONT": _n(v.get("sosContractions"))})

    # channel initiator

    def _group(self, where: Where) -> _Chinit:
        """The channel initiator's current interval (its records may be split over several
        SMF records); a new interval closes the one before."""
        key = (where.lpar, where.qmgr)
        group = self._chinit.get(key)
        if group is not None and group.where.interval_start != where.interval_start:
            self._chinit_interval(group)
            group = None
        if group is None:
            group = self._chinit[key] = _Chinit(where, where.interval_seconds)
        return group

    def _qcct(self, where: Where, v: dict) -> None:
        for rule, peak, limit, names in (
                ("chinit-current-channels-near-max", "currentChlHighWater", "currentChlMax",
                 ("peak_current", "MAXCHL")),
                ("chinit-active-channels-near-max", "activeChlHighWater", "activeChlMax",
                 ("peak_active", "ACTCHL"))):
            used, most = _n(v.get(peak)), _n(v.get(limit))
            if most and used * 100 >= 80 * most:
                self._add(rule, where, "channel initiator",
                          {names[0]: used, names[1]: most, "percent": _pct(used, most)})
        used, limit = _n(v.get("storageUsage64")), _n(v.get("storageLimit64"))
        if limit and used * 100 >= 80 * limit:
            self._add("chinit-storage-near-limit", where, "channel initiator",
                      {"storage_64_used": used, "storage_64_limit": limit,
                       "percent": _pct(used, limit)})

    def _task(self, where: Where, v: dict) -> None:
        group = self._group(where)
        tasks = group.dispatchers if "taskChannelCount" in v else group.adapters
        tasks[_n(v.get("taskNumber"))] = v

    def _busy(self, where: Where, v: dict) -> tuple[int, float]:
        duration = where.interval_seconds
        elapsed = _n(v.get("taskElapsedTimeUs"))
        return duration, _pct(elapsed, duration * 1_000_000)

    def _dns(self, where: Where, v: dict) -> None:
        duration, busy = self._busy(where, v)
        task = f"DNS task {_n(v.get('taskNumber'))}"
        if duration and busy >= 25:
            self._add("chinit-dns-busy", where, task,
                      {"busy_percent": busy, "requests": _n(v.get("requestCount")),
                       "interval_seconds": duration})
        longest = _n(v.get("maxDnsRequestDurationUs"))
        if longest >= 1_000_000:
            at = v.get("maxDnsRequestTime")
            self._add("chinit-dns-slow", where, task,
                      {"longest_us": longest,
                       "at": at.isoformat(timespec="microseconds") if at else None})

    def _ssl(self, where: Where, v: dict) -> None:
        duration, busy = self._busy(where, v)
        if duration and busy >= 25:
            self._add("chinit-ssl-busy", where, f"SSL task {_n(v.get('taskNumber'))}",
                      {"busy_percent": busy, "requests": _n(v.get("requestCount")),
                       "interval_seconds": duration})

    def _chinit_interval(self, group: _Chinit) -> None:
        where = group.where
        self._tasks[(where.lpar, where.qmgr)] = (len(group.adapters), len(group.dispatchers))
        if self.processors is not None and len(group.dispatchers) > self.processors:
            self._add("chinit-dispatchers-over-processors", where, "dispatchers",
                      {"dispatchers": len(group.dispatchers), "processors": self.processors})
        if not group.adapters or not group.duration:
            return
        busy = {n: _pct(_n(v.get("taskElapsedTimeUs")), group.duration * 1_000_000)
                for n, v in group.adapters.items()}
        used = all(_n(v.get("requestCount")) > 0 for v in group.adapters.values())
        if used and all(b > 50 for b in busy.values()):
            self._add("chinit-adapters-busy", where, "adapters",
                      {"adapters": len(busy), "least_busy_percent": min(busy.values())})
        elif used and all(b >= 1 for b in busy.values()):
            self._add("chinit-adapters-all-used", where, "adapters",
                      {"adapters": len(busy), "least_busy_percent": min(busy.values())})

    # accounting

    def _qmac(self, where: Where, v: dict) -> None:
        kind = v.get("applicationType")
        kind = ENUMS["CONNTYPE"].get(kind, "") if isinstance(kind, int) else kind
        if v.get("cpuTimeUs") == 0 and kind in ("CICS", "CHIN"):
            minute = where.written.replace(second=0, microsecond=0) if where.written else None
            self._zero_cpu[(where.lpar, where.qmgr, minute, kind)] += 1

    def _qcst(self, where: Where, v: dict) -> None:
        batches, full = _n(v.get("batches")), _n(v.get("fullBatches"))
        if batches and full * 100 >= 90 * batches:
            name = v.get("chlName") or "?"
            self._add("channel-batches-full", where, f"channel {name}",
                      {"batches": batches, "full_batches": full,
                       "percent": _pct(full, batches), "batch_size": _n(v.get("batchsize")),
                       "messages": _n(v.get("msgAllCount"))})
