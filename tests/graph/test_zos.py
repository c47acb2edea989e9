"""z/OS SMF tables of an analyze output: channel accounting is observed traffic for the audit
and the report, queue accounting is per-queue activity, and the report has a z/OS section."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from graph import zos
from graph.audit import audit, observed_with_statistics, statistics_findings
from graph.pipeline import smf as smfpipe
from graph.pipeline import storage
from tests.support.smfrecords import START, qwhs, record, structure
from traceroute.sim.mqsc import parse_mqsc

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

MQSC = """
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1414)') XMITQ(QM2)
DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) CONNAME('qm3(1414)') XMITQ(QM2)
DEFINE QLOCAL(APP.IN)
"""
MQSC_QM2 = "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)\nDEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(RCVR)\n"


def smf_data() -> bytes:
    qcst = [structure("QCST", {"chlName": "QM1.TO.QM2", "type": "Sender",
                               "remoteQmgrOrApp": "QM2", "msgAllCount": 40,
                               "batches": 10, "fullBatches": 9,
                               "collectionTime": START}),
            structure("QCST", {"chlName": "QM1.TO.QM2", "type": "Sender",
                               "remoteQmgrOrApp": "QM2", "msgAllCount": 2, "batches": 2,
                               "collectionTime": START + dt.timedelta(minutes=15)}),
            structure("QCST", {"chlName": "APP.SVRCONN", "type": "SvrConn",
                               "remoteQmgrOrApp": "amqsput", "msgAllCount": 7})]
    wq = [structure("WQ", {"baseName": "APP.IN", "openName": "APP.IN", "queue": "Local",
                           "putCount": 5, "put1Count": 1, "putCtUs": 300, "maxDepth": 6,
                           "open": START, "close": START + dt.timedelta(seconds=9)})]
    task = record(116, 2, qwhs(3, length=36), {1: [structure("WTID")], 2: wq})
    pools = record(115, 215, qwhs(2), {1: [structure("QPST", {
        "bufferpool": 1, "bufferCount": 1000, "lowestStealable": 100, "syncWrites": 2})]})
    log = record(115, 1, qwhs(12, seconds=1800), {11: [structure("QJST", {
        "wrtRequestNowait": 100, "checkpoints": 7, "logReadArchiveLog": 1})]})
    qmac = record(116, 0, qwhs(3, length=36) + bytes(92), {2: [structure("QMAC", {
        "cpuTimeUs": 250_000, "putsLen0to99": 3})]})
    return b"".join([record(116, 10, qwhs(2), {1: qcst}, qmgr="QM1"), task, pools, log,
                     qmac])


@pytest.fixture
def out(tmp_path) -> Path:
    path = tmp_path / "SMF.DAT"
    path.write_bytes(smf_data())
    folder = tmp_path / "out"
    result = smfpipe.write_local([(storage.stat(str(path)), True)], str(folder), 1 << 20)
    assert result.problems == []
    return folder


def network():
    net = parse_mqsc(MQSC, qmgr="QM1")
    return parse_mqsc(MQSC_QM2, qmgr="QM2", network=net)


def test_channel_accounting_is_observed_traffic(out):
    traffic = zos.channel_traffic(out)
    assert [(t["qmgr"], t["channel"], t["type"], t["messages"], t["instances"])
            for t in traffic] == [("QM1", "QM1.TO.QM2", "Sender", 42, 2),
                                  ("QM1", "APP.SVRCONN", "SvrConn", 7, 1)]
    sends, queues = observed_with_statistics(out)
    assert [(s.src, s.dst, s.channel, s.messages) for s in sends] == [
        ("QM1", "QM2", "QM1.TO.QM2", 42)]
    kinds = {(f.kind, f.objects) for f in audit(network(), sends)}
    # QM1.TO.QM2 carried messages (SMF says so): not unused; QM1.TO.QM3 did not
    assert ("unused_channel", ("QM1.TO.QM3",)) in kinds
    assert ("unused_channel", ("QM1.TO.QM2",)) not in kinds
    assert [(q.qmgr, q.queue, q.puts, q.gets, q.max_depth) for q in queues] == [
        ("MQ07", "APP.IN", 6, 0, 6)]
    # puts, no gets, depth 6 at the end: nobody reads APP.IN
    (grow,) = statistics_findings(network(), queues)
    assert (grow.kind, grow.queue_manager, grow.objects) == ("growing_queue", "MQ07",
                                                             ("APP.IN",))


def test_queue_and_task_figures(out):
    (q,) = zos.queue_rows(out)
    assert (q["queue"], q["puts"], q["cpu_us"], q["max_depth"]) == ("APP.IN", 6, 300, 6)
    (t,) = zos.task_rows(out)
    assert (t["cpu_us"], t["puts"], t["records"]) == (250_000, 3, 1)
    (b,) = zos.buffer_pool_rows(out)
    assert (b["pool"], b["lowest_stealable_pct"], b["sync_writes"]) == (1, 10.0, 2)
    (g,) = zos.log_rows(out)
    assert (g["checkpoints"], g["checkpoints_per_hour"], g["reads_archive"]) == (7, 14.0, 1)


def test_findings_over_tables_equal_findings_over_records(out, tmp_path):
    from traceroute.readers.smf import read_smf
    from traceroute.smf.findings import Interpreter

    interpreter = Interpreter()
    for row in read_smf([tmp_path / "SMF.DAT"], lambda w, r: None):
        interpreter.see(row)
    direct = [(f.rule.id, f.object, f.detail, f.interval_start)
              for f in interpreter.finish()]
    tables = [(f.rule.id, f.object, f.detail, f.interval_start) for f in zos.findings(out)]
    assert sorted(map(str, tables)) == sorted(map(str, direct))
    assert {"log-checkpoints-frequent", "log-reads-from-archive", "bp-synchronous-writes",
            "channel-batches-full"} <= {f[0] for f in direct}


def test_report_has_a_zos_section(out, tmp_path):
    pytest.importorskip("pygraphviz")
    from graph.pipeline.rows import HOP_COLUMNS, REJECT_COLUMNS, ROUTE_COLUMNS
    from graph.pipeline.schema import arrow_schema
    from graph.report import build_report

    for name, columns in (("routes", ROUTE_COLUMNS), ("hops", HOP_COLUMNS),
                          ("rejects", REJECT_COLUMNS)):
        (out / name).mkdir()
        pq.write_table(arrow_schema(columns).empty_table(), out / name / "part-0.parquet")
    html = build_report(out, network=network())
    assert '<section id="zos"><h2>z/OS</h2>' in html and 'href="#zos"' in html
    for table in ("zos findings", "zos tasks", "zos queues", "zos channels",
                  "zos buffer pools", "zos log"):
        assert f'data-name="{table}"' in html, table
    assert "log-checkpoints-frequent" in html and "APP.IN" in html
    # channel accounting is observed traffic: busiest channels, and the audit
    assert "<td>QM1.TO.QM2</td><td>QM1</td><td>QM2</td><td class=\"n\">42</td>" in html
    assert "QM1.TO.QM3" in html  # unused, by the audit
    plain = tmp_path / "plain"
    for name, columns in (("routes", ROUTE_COLUMNS), ("hops", HOP_COLUMNS),
                          ("rejects", REJECT_COLUMNS)):
        (plain / name).mkdir(parents=True)
        pq.write_table(arrow_schema(columns).empty_table(), plain / name / "part-0.parquet")
    assert 'id="zos"' not in build_report(plain)
