"""`mqroute analyze --graph --otlp`: the analytics tables under OUT/graph/, each computed by
the engine asked for, and the routes and hops tables as OTLP traces (one span per hop)."""

from __future__ import annotations

import json

import pytest

from graph import analytics as an
from graph import engines
from mqroute.main import main
from pcf import dmpmqmsg
from tests.traceroute.display.test_otlp import parse_otlp
from traceroute.sim.corpus import corpus


def test_row_spans_one_per_hop_chained_with_the_verdict():
    """Without Spark: the rows analyze writes for every corpus route, as spans."""
    from graph.pipeline.rows import hop_rows, route_row
    from traceroute.display.otlp import STATUS_ERROR, STATUS_OK, document, row_spans
    from traceroute.records.parse import parse_message
    from traceroute.routes import build_routes

    routes = build_routes(parse_message(c.md, c.data) for c in corpus(2, seed=11, drop=0.05))
    assert any(r.gaps for r in routes)  # a lost report: a gap row, no span
    for route in routes:
        row, hops = route_row(route), list(hop_rows(route))
        spans = [span for _, span in row_spans(row, hops)]
        assert len(spans) == sum(1 for h in hops if h["kind"] != "gap")
        ids = {s["spanId"] for s in spans}
        assert len(ids) == len(spans)
        roots = [s for s in spans if "parentSpanId" not in s]
        assert len(roots) == (1 if spans else 0)
        assert all(s["parentSpanId"] in ids for s in spans if s not in roots)
        assert all(int(s["startTimeUnixNano"]) <= int(s["endTimeUnixNano"]) for s in spans)
        finals = [s for s in spans if s["status"]["code"] != 0]
        if spans and any(not h["branch"] for h in hops if h["kind"] != "gap"):
            (final,) = finals
            ok = row["verdict"] in ("delivered", "discarded_at_target")
            assert final["status"]["code"] == (STATUS_OK if ok else STATUS_ERROR)
    request = parse_otlp(json.dumps(document(
        span for r in routes for span in row_spans(route_row(r), list(hop_rows(r))))))
    assert len({s.trace_id for rs in request.resource_spans for ss in rs.scope_spans
                for s in ss.spans}) == sum(1 for r in routes if any(
                    h["kind"] != "gap" for h in hop_rows(r)))


@pytest.mark.slow
def test_analyze_graph_and_otlp(spark, tmp_path, capsys):
    items = corpus(1, seed=5, drop=0.0, duplicate=0.0)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "r.dmp").write_text(dmpmqmsg.write(
        [dmpmqmsg.DumpedMessage(c.md, c.data) for c in items]), encoding="latin-1")
    out, traces = tmp_path / "out", tmp_path / "traces.jsonl"
    engine = engines.choose_engine(spark)
    try:
        status = main(["analyze", str(tmp_path / "in"), "--out", str(out), "--graph",
                       "--engine", engine, "--otlp", str(traces)])
    finally:
        spark.conf.set("spark.sql.shuffle.partitions", "2")  # the CLI set its own
    err = capsys.readouterr().err
    assert status == 0, err
    assert f"graph analytics on {engine}" in err
    for name in an.TABLES:
        df = spark.read.parquet(str(out / "graph" / name))
        assert df.count() > 0 or name in ("two_cycles", "loops"), name
        want = an.engine_for(spark, name, engine) if name in an.NATIVE else "dataframe"
        assert {r["engine"] for r in df.select("engine").distinct().collect()} <= {want}, name
    # the traces: every route a trace, every hop that is not a gap a span
    hops = spark.read.parquet(str(out / "hops"))
    routes = spark.read.parquet(str(out / "routes"))
    lines = traces.read_text().splitlines()
    spans = [s for line in lines for rs in parse_otlp(line).resource_spans
             for ss in rs.scope_spans for s in ss.spans]
    assert len({s.trace_id for s in spans}) == routes.count()
    assert len(spans) == hops.filter("kind != 'gap'").count()
    verdicts = {json.loads(line)["resourceSpans"][0]["resource"]["attributes"][0]["key"]
                for line in lines}
    assert verdicts == {"service.name"}
