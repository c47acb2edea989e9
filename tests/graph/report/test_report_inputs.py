"""`mqroute report` and `mqroute audit` on analyze outputs of every input kind (issue 25).

The outputs are written by the single-process analyze (graph.pipeline.single: the tables
the Spark job writes, equal rows) from one simulated estate's dumps: reports only, events
only, statistics only, activity trace only, and all together; then again with every column
of every table null. The report must draw each; its audit is `mqroute audit --observed`'s,
listed once; a channel event sits on the lane of its transmission queue, named in the legend.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from graph.audit import audit_output
from graph.report import build_report
from mqroute.main import main
from tests.support.estate_dumps import KINDS, analyze_in_one_process, estate_dumps
from traceroute.sim.mqsc import parse_mqsc

pytest.importorskip("pygraphviz")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
SECTIONS = ["summary", "lost", "estate", "timeline", "channels", "audit", "events",
            "routes", "rejects"]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("kinds")
    dumps = estate_dumps(base / "dumps")
    out = {kind: base / f"out_{kind}" for kind in (*KINDS, "all")}
    for kind in KINDS:
        analyze_in_one_process([str(dumps[kind])], str(out[kind]))
    analyze_in_one_process([str(dumps[k]) for k in KINDS], str(out["all"]))
    return out


def _nulled(src: Path, dst: Path) -> Path:
    """The output with every column of every table null (types kept, partitions dropped)."""
    import pyarrow.dataset as ds

    for table in sorted(p for p in src.iterdir() if p.is_dir()):
        data = ds.dataset(table, format="parquet", partitioning="hive").to_table()
        nulls = pa.table({f.name: pa.nulls(data.num_rows, f.type if f.type != pa.null()
                                           else pa.string()) for f in data.schema})
        (dst / table.name).mkdir(parents=True)
        pq.write_table(nulls, dst / table.name / "part-0.parquet")
    return dst


@pytest.mark.parametrize("kind", [*KINDS, "all"])
@pytest.mark.parametrize("config", [False, True])
def test_report_on_each_input_kind_alone_and_together(outputs, kind, config):
    network = parse_mqsc(EXAMPLE, source="qm1_qm2.mqsc") if config else None
    html = build_report(outputs[kind], network=network)
    for section in SECTIONS:
        assert f'<section id="{section}">' in html


@pytest.mark.parametrize("kind", [*KINDS, "all"])
def test_report_on_all_null_columns(outputs, kind, tmp_path):
    nulled = _nulled(outputs[kind], tmp_path / "nulled")
    html = build_report(nulled, network=parse_mqsc(EXAMPLE, source="qm1_qm2.mqsc"))
    assert all(f'<section id="{s}">' in html for s in SECTIONS)


def _report_findings(html: str) -> list[tuple[str, str, str, str]]:
    table = re.search(r'data-name="audit findings".*?<tbody>(.*?)</tbody>', html, re.S)
    if table is None:
        return []
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)
    return [tuple(re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r,
                                                                 re.S)) for r in rows]


@pytest.mark.parametrize("kind", [*KINDS, "all"])
def test_report_and_audit_give_one_list_of_findings(outputs, kind, tmp_path, capsys):
    from html import unescape

    mqsc = tmp_path / "qm1_qm2.mqsc"
    mqsc.write_text(EXAMPLE)
    network = parse_mqsc(EXAMPLE, source="qm1_qm2.mqsc")
    html = build_report(outputs[kind], network=network)
    capsys.readouterr()
    status = main(["audit", "--mqsc", str(mqsc), "--observed", str(outputs[kind]), "--json"])
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == (3 if printed else 0)
    cli = [(f["kind"], f["queue_manager"], ", ".join(f["objects"]), f["detail"])
           for f in printed]
    shown = [tuple(unescape(c) for c in row) for row in _report_findings(html)]
    assert shown == cli
    assert cli == [(f.kind, f.queue_manager, ", ".join(f.objects), f.detail)
                   for f in audit_output(network, outputs[kind])]
    # listed once: the Channels section counts them and points to the Audit section
    assert html.count('data-name="audit findings"') == (1 if cli else 0)
    assert 'data-name="dead channels"' not in html
    # the return channel carried messages no route shows: the channel statistics say so
    if kind in ("statistics", "all"):
        assert ("unused_channel", "QM2", "QM2.TO.QM1") not in {c[:3] for c in cli}
    if kind == "reports":
        assert ("unused_channel", "QM2", "QM2.TO.QM1") in {c[:3] for c in cli}
    if kind in ("events", "trace"):  # no routes, no channel statistics: nothing says unused
        assert not any(c[0] == "unused_channel" for c in cli)


def test_channel_events_on_their_transmission_queues_lane_with_a_legend(outputs):
    html = build_report(outputs["all"], network=parse_mqsc(EXAMPLE, source="x.mqsc"))
    timeline = html[html.index('<section id="timeline">'):html.index('<section id="channels">')]
    lanes = re.findall(r'<g class="lane" id="[\w-]*lane\d+"><title>([^<]*)</title>(.*?)</g>',
                       timeline, re.S)
    stopped = [name for name, body in lanes if "Channel Stopped By User (QM1.TO.QM2)" in body]
    assert stopped == ["queue QM1/QM2"]  # QM1.TO.QM2's transmission queue, not a lane of its own
    assert not any(name.endswith("QM1.TO.QM2") for name, _ in lanes)
    # the receiving end's events (QM2 writes them too) go on the sending end's lane
    received = [name for name, body in lanes if "(QM1.TO.QM2 at QM2)" in body]
    assert received == ["queue QM1/QM2"]
    legend = timeline[timeline.index('class="legend"'):]
    assert "event: channel stopped" in legend and "event: channel started" in legend
    assert "last seen: waiting on xmitq" in legend
