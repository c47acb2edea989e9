"""The audit's graph-shaped findings as motifs on the configured graph, on every engine that
has them, held against the pure audit (graph.audit) on the same network.

The network: a 40-queue-manager estate from the generator (clusters, hubs) with an alias
ring of three queue managers made of remote queue definitions, a remote definition whose
transmission queue no channel serves, and a receiver nobody sends to, plus test_audit's
hand-written faults (a queue-manager alias ring of two, DEAD.Q, FROM.NOWHERE).
"""

from __future__ import annotations

import pytest

from graph import analytics as an
from graph import engines
from graph.audit import audit
from graph.network import configured_graph, configured_rows
from tests.graph.test_audit import EXAMPLE, FAULTS
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.netgen import generate

pytestmark = pytest.mark.slow
KINDS = ("alias_loop", "receiver_without_sender", "remote_definition_without_channel")


def estate():
    """The generated estate with the hand-written faults beside it (a fresh Network)."""
    gen = generate("mixed", 40, seed=3, faults={"alias_loop": 1, "remote_def_no_channel": 1,
                                               "receiver_without_sender": 1})
    gen.network.qmgrs.update(parse_mqsc(EXAMPLE + FAULTS, source="faults.mqsc").qmgrs)
    return gen.network


def _key(kind: str, qmgr: str, objects) -> tuple:
    """A finding's identity; a loop is its definition name and its set of queue managers
    (the pure audit names it where a walk first ran into it, the motif at its least member)."""
    if kind == "alias_loop":
        return kind, objects[0], frozenset(objects[1:])
    return kind, qmgr, tuple(objects)


def test_configured_rows_are_facts_of_the_configuration():
    vertices, edges = configured_rows(parse_mqsc(EXAMPLE + FAULTS, source="f"))
    kinds = {v[0]: v[1] for v in vertices}
    assert kinds["QM1"] == "queue_manager" and kinds["QM1:QM1.TO.QM2"] == "sender"
    assert kinds["QM2:QM1.TO.QM2"] == "receiver" and kinds["QM1/DEAD.Q"] == "remote_definition"
    assert kinds["QM1/QM9"] == "xmitq"
    e = {(s, d, k, n, x) for s, d, k, n, x in edges}
    assert ("QM1:QM1.TO.QM2", "QM2:QM1.TO.QM2", "partner", "QM1.TO.QM2", None) in e
    assert ("QM1:QM1.TO.QM2", "QM2", "reaches", "QM1.TO.QM2", None) in e
    assert ("QM1/QM2", "QM1:QM1.TO.QM2", "served_by", "QM1.TO.QM2", None) in e
    assert ("QM1/DEAD.Q", "QM1/QM9", "resolves", "QM9", "QM9") in e
    # the queue-manager alias ring: each hop looked up by the alias name at the next
    assert ("QM1", "QM2", "forwards", "QMX", "QMX") in e and ("QM2", "QM1", "forwards", "QMX",
                                                             "QMX") in e
    # a remote queue definition to the next queue manager is looked up there by queue name
    assert ("QM1", "QM2", "forwards", "TARG.AT.QM2", "TARGET.Q") in e
    assert not any(k == "partner" and d.endswith(":FROM.NOWHERE") for _, d, k, _, _ in e)
    assert not any(s == "QM1/QM9" for s, _, k, _, _ in e if k == "served_by")


@pytest.fixture(scope="module")
def graph_tables(spark):
    network = estate()
    v, e = configured_graph(spark, network)
    return network, v.localCheckpoint(eager=True), e.localCheckpoint(eager=True)


@pytest.mark.parametrize("engine", ["graphframes", "dataframe"])
def test_patterns_match_the_audit(spark, graph_tables, engine):
    if engine == "graphframes" and not engines.graphframes_available(spark):
        pytest.skip("GraphFrames' JVM package is not on the driver's class path (no jar in "
                    "../shared/jars)")
    network, v, e = graph_tables
    want = {_key(f.kind, f.queue_manager, f.objects): f.detail
            for f in audit(network, []) if f.kind in KINDS}
    rows = an.configuration_patterns(spark, v, e, engine=engine).collect()
    got = {_key(r["kind"], r["queue_manager"], r["objects"]): r["detail"] for r in rows}
    assert len(rows) == len(got)  # every finding once
    assert set(got) == set(want)
    for key, detail in want.items():
        if key[0] != "alias_loop":
            assert got[key] == detail
    loops = {k for k in got if k[0] == "alias_loop"}
    assert {len(k[2]) for k in loops} == {2, 3}  # QMX round two, LOOP.Q.01 round three
    assert {r["engine"] for r in rows} == {engine}
    for r in rows:
        if r["kind"] == "alias_loop":
            assert r["queue_manager"] == min(r["objects"][1:])


def test_audit_command_runs_the_patterns_on_spark(spark, tmp_path, capsys):
    from mqroute.main import main

    cfg = tmp_path / "all.mqsc"
    cfg.write_text(EXAMPLE + FAULTS)
    assert main(["audit", "--mqsc", str(cfg), "--json"]) == 3
    plain = capsys.readouterr().out
    engine = engines.choose_engine(spark)
    try:
        assert main(["audit", "--mqsc", str(cfg), "--json", "--engine", engine]) == 3
    finally:
        spark.conf.set("spark.sql.shuffle.partitions", "2")  # the CLI set its own
    captured = capsys.readouterr()
    assert captured.out == plain  # the same findings, the same lines
    assert f"graph patterns on {engine}" in captured.err
    assert main(["audit", "--mqsc", str(cfg), "--graphframes-jar",
                 str(tmp_path / "missing.jar")]) == 2
    assert "missing.jar: no such GraphFrames jar" in capsys.readouterr().err
