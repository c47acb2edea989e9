"""The topology audit: configured (MQSC) against observed (routes); every fault, nothing else."""

from __future__ import annotations

import json
from importlib import resources

from graph.audit import ObservedSend, audit
from mqroute.main import main
from traceroute.sim.mqsc import parse_mqsc

EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
BOTH_WAYS = [ObservedSend("QM1", "QM2", "QM1.TO.QM2", 3), ObservedSend("QM2", "QM1",
                                                                        "QM2.TO.QM1", 1)]

FAULTS = """
* Queue manager name: QM1
DEFINE QREMOTE(DEAD.Q) RNAME(X) RQMNAME(QM9) XMITQ(QM9) REPLACE
DEFINE QLOCAL(QM9) USAGE(XMITQ) REPLACE
DEFINE QREMOTE(QMX) RNAME(' ') RQMNAME(QMX) XMITQ(QM2) REPLACE
DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) CONNAME('qm3') XMITQ(QM3) REPLACE
DEFINE QLOCAL(QM3) USAGE(XMITQ) REPLACE
DEFINE CHANNEL(FROM.NOWHERE) CHLTYPE(RCVR) REPLACE
STOP CHANNEL(QM1.TO.QM3)
* Queue manager name: QM2
DEFINE QREMOTE(QMX) RNAME(' ') RQMNAME(QMX) XMITQ(QM1) REPLACE
* Queue manager name: QM3
DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(RCVR) REPLACE
DEFINE CHANNEL(TO.QM3) CHLTYPE(CLUSRCVR) CLUSTER(SOLO) CONNAME('qm3') REPLACE
ALTER QMGR REPOS(SOLO)
* Queue manager name: QM4
DEFINE CHANNEL(TO.QM4) CHLTYPE(CLUSRCVR) CLUSTER(SOLO) CONNAME('qm4') REPLACE
"""


def test_a_clean_network_has_no_findings():
    assert audit(parse_mqsc(EXAMPLE, source="x"), BOTH_WAYS) == []


def test_every_planted_fault_and_nothing_else():
    network = parse_mqsc(EXAMPLE + FAULTS, source="faults.mqsc")
    observed = [*BOTH_WAYS, ObservedSend("QM2", "QM3", "QM2.TO.QM3", 7)]
    found = {(f.kind, f.queue_manager, f.objects) for f in audit(network, observed)}
    assert found == {
        ("remote_definition_without_channel", "QM1", ("DEAD.Q", "QM9")),
        ("alias_loop", "QM1", ("QMX", "QM1", "QM2")),
        ("stopped_channel", "QM1", ("QM1.TO.QM3",)),
        ("unused_channel", "QM1", ("QM1.TO.QM3",)),
        ("receiver_without_sender", "QM1", ("FROM.NOWHERE",)),
        ("unexplained_route", "QM2", ("QM2.TO.QM3", "QM3")),
        ("single_repository_cluster", "QM3", ("SOLO",)),
        # receivers, and no DEADQ: what their MCAs cannot put stops the channel
        ("no_dead_letter_queue", "QM3", ("QM1.TO.QM3", "TO.QM3")),
        ("no_dead_letter_queue", "QM4", ("TO.QM4",)),
    }


def test_audit_command(tmp_path, capsys):
    cfg = tmp_path / "all.mqsc"
    cfg.write_text(EXAMPLE + FAULTS)
    assert main(["audit", "--mqsc", str(cfg), "--json"]) == 3
    kinds = {json.loads(line)["kind"] for line in capsys.readouterr().out.splitlines()}
    # nothing observed: configuration checks only, no channel is 'unused' (issue 25)
    assert "alias_loop" in kinds and "stopped_channel" in kinds
    assert "unused_channel" not in kinds and "unexplained_route" not in kinds


def test_configuration_checks_only_are_every_check_but_the_observed_ones():
    network = parse_mqsc(EXAMPLE + FAULTS, source="faults.mqsc")
    observed = {(f.kind, f.queue_manager, f.objects) for f in audit(network, [])}
    config_only = {(f.kind, f.queue_manager, f.objects) for f in audit(network, None)}
    assert config_only == {f for f in observed if f[0] != "unused_channel"}
    assert ("unused_channel", "QM1", ("QM1.TO.QM2",)) in observed


def test_audit_against_pipeline_output(spark, tmp_path, capsys):
    from graph import pipeline
    from graph.audit import audit_dataframe
    from pcf import dmpmqmsg
    from traceroute.sim.corpus import simulate

    items = list(simulate("discarded_at_target", 5))
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "r.dmp").write_text(dmpmqmsg.write(
        [dmpmqmsg.DumpedMessage(c.md, c.data) for c in items]), encoding="latin-1")
    pipeline.run(spark, [str(tmp_path / "in")], str(tmp_path / "out"))
    cfg = tmp_path / "qm.mqsc"
    cfg.write_text(EXAMPLE)
    capsys.readouterr()
    assert main(["audit", "--mqsc", str(cfg), "--observed", str(tmp_path / "out")]) == 3
    out = capsys.readouterr().out
    # the traces went QM1 -> QM2 only; the reports came back on QM2.TO.QM1 unrecorded
    assert out.count("\n") == 1 and "unused_channel" in out and "QM2.TO.QM1" in out
    network = parse_mqsc(EXAMPLE, source="x")
    hops = spark.read.parquet(str(tmp_path / "out" / "hops"))
    df = audit_dataframe(spark, network, hops)
    assert [r["kind"] for r in df.collect()] == ["unused_channel"]
