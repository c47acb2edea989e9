"""Every interpretation rule, number for number: records built to trigger it, and records just
below its threshold that must not."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.support.smfrecords import START, cf_entries, qwhs, record, structure
from traceroute.smf import decode_record
from traceroute.smf.findings import RULES, Finding, Interpreter
from traceroute.smf.text import ebcdic


def found(*records: bytes, **kw) -> list[Finding]:
    interpreter = Interpreter(**kw)
    for rec in records:
        decoded = decode_record(rec)
        assert decoded.problems == []
        for row in decoded.rows:
            interpreter.see(row)
    return interpreter.finish()


def rules(*records: bytes, **kw) -> list[str]:
    return [f.rule.id for f in found(*records, **kw)]


def qjst(seconds: int = 1800, **values) -> bytes:
    return record(115, 1, qwhs(12, seconds=seconds), {11: [structure("QJST", values)]})


def qpst(pool: int = 0, **values) -> bytes:
    values = {"bufferpool": pool, "bufferCount": 1000, "lowestStealable": 900} | values
    return record(115, 215, qwhs(2), {1: [structure("QPST", values)]})


def api(section: int, block: bytes) -> bytes:
    return record(115, 2, qwhs(9), {section: [block]})


def chinit(seconds: int = 900, *, qcct: dict | None = None, dispatchers=(), adapters=(),
           ssl=(), dns=()) -> bytes:
    blocks = {1: [structure("QCCT", qcct or {})],
              2: [structure("QCTDSP", {"taskNumber": n, **v}) for n, v in enumerate(dispatchers)],
              3: [structure("QCTADP", {"taskNumber": n, **v}) for n, v in enumerate(adapters)],
              4: [structure("QCTSSL", {"taskNumber": n, **v}) for n, v in enumerate(ssl)],
              5: [structure("QCTDNS", {"taskNumber": n, **v}) for n, v in enumerate(dns)]}
    return record(115, 231, qwhs(6, seconds=seconds, chinit=True), blocks, count=6)


def busy(percent: float, seconds: int = 900, requests: int = 10) -> dict:
    return {"requestCount": requests, "taskElapsedTimeUs": int(seconds * 10_000 * percent)}


def qmac(cpu_us: int, app_type: int, minute: int = 0) -> bytes:
    head = bytearray(qwhs(3, length=36) + bytes(92))
    head[36 + 48:36 + 52] = app_type.to_bytes(4, "big")
    head[36 + 4:36 + 12] = ebcdic("CICSUSER", 8)
    return record(116, 0, bytes(head), {2: [structure("QMAC", {"cpuTimeUs": cpu_us})]},
                  hundredths=(3600 * 10 + 60 * minute) * 100)


def qcst(**values) -> bytes:
    return record(116, 10, qwhs(2), {1: [structure("QCST", {"chlName": "QM1.TO.QM2"} | values)]})


CASES = {
    # rule: (records that trigger it, records just below its threshold)
    "log-buffer-waits": ([qjst(unavailableBufferCount=1)], [qjst(unavailableBufferCount=0)]),
    # QJSTTVC / Nlogread > 1%: 2 of 199 reads is 1.005%, 2 of 200 exactly 1%
    "log-reads-delayed": ([qjst(tapeContentionDelays=2, logReadOutputBuffer=199)],
                          [qjst(tapeContentionDelays=2, logReadOutputBuffer=200)]),
    "log-reads-from-archive": ([qjst(logReadArchiveLog=1, logReadActiveLog=99)],
                               [qjst(logReadArchiveLog=0, logReadActiveLog=99)]),
    # more than 10 an hour: 6 in 30 minutes is 12, 5 is 10; one in 3 minutes is no rate
    "log-checkpoints-frequent": ([qjst(1800, checkpoints=6), qjst(360, checkpoints=2)],
                                 [qjst(1800, checkpoints=5), qjst(180, checkpoints=1)]),
    "log-compression-ineffective": (
        [qjst(compRequests=10, compUncompressedBytes=1000, compCompressedBytes=1000),
         qjst(compRequests=10, compFail=1, compUncompressedBytes=1000,
              compCompressedBytes=10)],
        [qjst(compRequests=10, compUncompressedBytes=1000, compCompressedBytes=999),
         qjst(compRequests=0, compUncompressedBytes=0, compCompressedBytes=0)]),
    "bp-no-buffers": ([qpst(3, suspendNoBuffers=1)], [qpst(3, suspendNoBuffers=0)]),
    "bp-sync-write-threshold": ([qpst(3, syncWriteTholdReached=1)],
                                [qpst(3, syncWriteTholdReached=0)]),
    "bp-synchronous-writes": ([qpst(3, syncWrites=1)], [qpst(3, syncWrites=0)]),
    "bp-deferred-write-threshold": ([qpst(0, deferWriteTholdReached=1)],
                                    [qpst(0, deferWriteTholdReached=0),
                                     qpst(4, deferWriteTholdReached=1)]),
    # QPSTCBSL / QPSTNBUF should be greater than 15%: 150 of 1000 is not, 151 is
    "bp-stealable-low": ([qpst(0, lowestStealable=150)], [qpst(0, lowestStealable=151),
                                                          qpst(4, lowestStealable=150)]),
    "bp-dasd-reads": ([qpst(0, dasdRead=1, pagesWritten=1)], [qpst(0, dasdRead=0)]),
    "bp-new-pages": ([qpst(0, bufferSteals=1)], [qpst(0, bufferSteals=0)]),
    # much larger: more than twice, over all the intervals
    "bp-pages-reread": ([qpst(4, dasdRead=201, pagesWritten=100)],
                        [qpst(4, dasdRead=200, pagesWritten=100),
                         qpst(0, dasdRead=201, pagesWritten=100)]),
    "db2-thread-waits": (
        [api(5, structure("Q5ST", {"maxRequestQueueDepth": 2, "threadReadElapsedUs": 2001,
                                   "sqlReadElapsedUs": 1000}))],
        [api(5, structure("Q5ST", {"maxRequestQueueDepth": 2, "threadReadElapsedUs": 2000,
                                   "sqlReadElapsedUs": 1000})),
         api(5, structure("Q5ST", {"maxRequestQueueDepth": 1, "threadReadElapsedUs": 9000,
                                   "sqlReadElapsedUs": 1000}))]),
    "db2-server-abends": ([api(5, structure("Q5ST", {"db2TaskAbends": 1}))],
                          [api(5, structure("Q5ST", {"db2TaskAbends": 0}))]),
    "cf-structure-full": ([api(6, cf_entries([{"structureName": "APPL1", "structureFull": 1}]))],
                          [api(6, cf_entries([{"structureName": "APPL1",
                                               "structureFull": 0}]))]),
    "storage-short": ([record(115, 1, qwhs(12), {9: [structure("QSST", {"sosSet": 1})]})],
                      [record(115, 1, qwhs(12), {9: [structure("QSST", {"sosSet": 0})]})]),
    # tending towards the maximum: 80%
    "chinit-current-channels-near-max": (
        [chinit(qcct={"currentChlHighWater": 80, "currentChlMax": 100})],
        [chinit(qcct={"currentChlHighWater": 79, "currentChlMax": 100})]),
    "chinit-active-channels-near-max": (
        [chinit(qcct={"activeChlHighWater": 800, "activeChlMax": 1000})],
        [chinit(qcct={"activeChlHighWater": 799, "activeChlMax": 1000})]),
    "chinit-storage-near-limit": (
        [chinit(qcct={"storageUsage64": 80, "storageLimit64": 100})],
        [chinit(qcct={"storageUsage64": 79, "storageLimit64": 100})]),
    "chinit-adapters-all-used": ([chinit(adapters=[busy(1), busy(30)])],
                                 [chinit(adapters=[busy(0.99), busy(30)]),
                                  chinit(adapters=[busy(30), {"requestCount": 0}])]),
    # all busy for most of the interval: over 50%
    "chinit-adapters-busy": ([chinit(adapters=[busy(50.01), busy(90)])],
                             [chinit(adapters=[busy(50), busy(90)])]),
    "chinit-dns-busy": ([chinit(dns=[busy(25)])], [chinit(dns=[busy(24.99)])]),
    "chinit-dns-slow": ([chinit(dns=[{"requestCount": 1, "maxDnsRequestDurationUs": 1_000_000,
                                      "maxDnsRequestTime": START}])],
                        [chinit(dns=[{"requestCount": 1,
                                      "maxDnsRequestDurationUs": 999_999}])]),
    "chinit-ssl-busy": ([chinit(ssl=[busy(10), busy(25)])], [chinit(ssl=[busy(24.99)])]),
    # up to nine zero-CPU records for the CICS adapter (per minute of writing)
    "acct-zero-cpu-records": ([qmac(0, 1)] * 10,
                              [qmac(0, 1)] * 9 + [qmac(5, 1)] + [qmac(0, 1, minute=1)]),
    "channel-batches-full": ([qcst(batches=100, fullBatches=90)],
                             [qcst(batches=100, fullBatches=89)]),
}


@pytest.mark.parametrize("rule", sorted(CASES))
def test_rule_fires_at_its_threshold(rule):
    fire, _ = CASES[rule]
    assert rule in rules(*fire), rules(*fire)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_rule_quiet_just_below(rule):
    _, quiet = CASES[rule]
    for rec in quiet:
        assert rule not in rules(rec), rule


def test_every_rule_is_tested():
    assert set(CASES) | {"chinit-dispatchers-over-processors"} == set(RULES)


def test_chinit_intervals_close_one_after_the_other():
    """A channel initiator's interval is judged when its next one starts: memory holds one
    interval per channel initiator, whatever the data set's length."""
    first = chinit(adapters=[busy(60), busy(70)])
    later = record(115, 231, qwhs(6, seconds=900, chinit=True,
                                  start=START + dt.timedelta(minutes=15)),
                   {1: [structure("QCCT")], 2: [], 3: [structure("QCTADP", busy(0))]},
                   count=6)
    interpreter = Interpreter()
    for row in decode_record(first).rows + decode_record(later).rows:
        interpreter.see(row)
    (f,) = interpreter.take()  # judged when the second interval began
    assert (f.rule.id, f.interval_start) == ("chinit-adapters-busy", START)
    assert interpreter.finish() == [] and len(interpreter._chinit) == 0


def test_dispatchers_against_processors():
    rec = chinit(dispatchers=[busy(1)] * 5)
    assert "chinit-dispatchers-over-processors" in rules(rec, processors=4)
    assert "chinit-dispatchers-over-processors" not in rules(rec, processors=5)
    assert "chinit-dispatchers-over-processors" not in rules(rec)  # unknown: not checked


def test_zero_cpu_channel_initiator_bound():
    """Up to Adapters + Dispatchers + 6 for the channel initiator: 2 + 3 + 6 = 11."""
    tasks = chinit(dispatchers=[busy(1)] * 3, adapters=[busy(0.1)] * 2)
    assert "acct-zero-cpu-records" not in rules(tasks, *[qmac(0, 6)] * 11)
    hits = [f for f in found(tasks, *[qmac(0, 6)] * 12) if f.rule.id == "acct-zero-cpu-records"]
    assert hits[0].detail == {"zero_cpu_records": 12, "expected_at_most": 11, "adapters": 2,
                              "dispatchers": 3}


def test_finding_names_where_and_what():
    f = found(qpst(7, syncWrites=3))[0]
    assert f.to_json() == {
        "rule": "bp-synchronous-writes", "structure": "QPST", "qmgr": "MQ07", "lpar": "MV41",
        "interval_start": START.isoformat(timespec="microseconds"), "object": "buffer pool 7",
        "detail": {"QPSTIMW": 3}, "when": RULES["bp-synchronous-writes"].when,
        "cause": RULES["bp-synchronous-writes"].cause,
        "action": RULES["bp-synchronous-writes"].action}
    assert f.text().startswith("MQ07 (MV41) 2024-03-26 02:30:00 buffer pool 7: "
                               "bp-synchronous-writes: QPSTIMW 3\n    Pages were written")
    log = found(qjst(1800, checkpoints=6))[0]
    assert log.detail == {"QJSTLLCP": 6, "interval_seconds": 1800, "per_hour": 12.0}
    chan = found(qcst(batches=10, fullBatches=10, batchsize=50, msgAllCount=500))[0]
    assert chan.object == "channel QM1.TO.QM2" and chan.detail["percent"] == 100.0
    assert chan.interval_start == dt.datetime(2024, 3, 26, 2, 32, 10)  # when SMF wrote it


def test_pages_reread_over_all_intervals():
    """One interval reads without writing (the pages were written earlier): over the data
    set, reads are not more than twice the pages written."""
    early, late = qpst(4, dasdRead=0, pagesWritten=150), qpst(4, dasdRead=290, pagesWritten=0)
    assert "bp-pages-reread" not in rules(early, late)
    (f,) = [f for f in found(early, late, qpst(4, dasdRead=20)) if f.rule.id ==
            "bp-pages-reread"]
    assert f.detail == {"QPSTRIO": 310, "QPSTTPW": 150, "intervals": 3}


def test_short_lived_pools_are_configurable():
    assert "bp-stealable-low" in rules(qpst(4, lowestStealable=150), short_lived_pools={4})
    assert "bp-pages-reread" not in rules(qpst(4, dasdRead=900, pagesWritten=1),
                                          short_lived_pools={4})


def test_docs_list_every_rule_with_ibms_wording():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[3] / "docs" / "zos.md").read_text()
    for rule in RULES.values():
        assert f"| `{rule.id}` | {rule.structure} | {rule.when} |" in page, rule.id
