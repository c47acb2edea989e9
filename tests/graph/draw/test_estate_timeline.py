"""Estate and timeline pictures: readable at 300 queue managers, nothing drawn on a label."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("pygraphviz")

from graph.draw import check
from graph.draw.estate import aggregate, estate_svg
from graph.draw.timeline import Lane, depth_steps, parse_time, timeline_svg


def estate(n: int, clusters: int = 3, seed: int = 5):
    """Sends of a hub-and-spoke estate of n queue managers in `clusters` clusters."""
    rng = random.Random(seed)
    names = [f"QM{i:04d}" for i in range(n)]
    member = {q: f"CL{i % clusters:02d}" for i, q in enumerate(names)}
    hubs = {c: next(q for q in names if member[q] == c) for c in set(member.values())}
    sends = []
    for q in names:
        hub = hubs[member[q]]
        if q != hub:
            w = rng.randint(1, 400)
            sends += [(q, hub, f"{q}.{hub}"[:20], w), (hub, q, f"{hub}.{q}"[:20], w // 2 + 1)]
    for a in hubs.values():
        for b in hubs.values():
            if a != b:
                sends.append((a, b, f"{a}.{b}", 5000))
    losses = [("QM0299", "waiting_on_xmitq", 40), ("QM0150", "dead_lettered", 7),
              ("QM0001", "expired", 3), ("QM0001", "loop", 9), ("QM0222", "expired", 1)]
    return sends, losses, member


def assert_clean(svg: str) -> None:
    bad = check.overlaps(svg)
    assert not bad, "\n".join(f"{a.what!r} ({a.owner}) overlaps {b.what!r} ({b.owner})"
                              for a, b in bad[:10])
    assert not check.outside_own_node(svg)


def node_titles(svg: str) -> list[str]:
    """Queue-manager nodes (not the cluster name plates)."""
    return [t for t in re.findall(r'<g id="node\d+" class="node">\s*<title>(.*?)</title>', svg)
            if not t.startswith("group:")]


@pytest.mark.parametrize("with_clusters", [True, False])
def test_estate_of_300_queue_managers_is_aggregated_and_clean(with_clusters):
    sends, losses, member = estate(300)
    svg = estate_svg(sends, losses, member if with_clusters else None, max_nodes=40)
    assert_clean(svg)
    nodes = node_titles(svg)
    others = [n for n in nodes if n.startswith("…other")]
    assert 40 < len(nodes) <= 40 + 3 and others
    for qm, _, _ in losses:          # every place where messages were lost has its own node
        assert qm in nodes
    assert "✕ 40 lost" in svg and "✕ 12 lost" in svg       # QM0001: expired 3 + loop 9
    if with_clusters:
        assert len(re.findall(r'class="cluster"', svg)) == 3
        assert all(f"<title>group:CL0{i}</title>" in svg for i in range(3))
    # the aggregated nodes account for every queue manager
    counts = [int(m) for m in re.findall(r">(\d+) other<", svg)]
    assert sum(counts) + len(nodes) - len(others) == 300


def test_estate_edges_are_weighted_by_messages():
    sends = [("A", "B", "A.B", 1000), ("B", "C", "B.C", 10), ("C", "A", "C.A", 1)]
    svg = estate_svg(sends, [])
    widths = {}
    ns = "{http://www.w3.org/2000/svg}"
    for g in ET.fromstring(svg).iter(f"{ns}g"):
        if g.get("class") == "edge":
            path = next(g.iter(f"{ns}path"))
            widths[g.find(f"{ns}title").text] = float(path.get("stroke-width", "1"))
    assert widths["A->B"] > widths["B->C"] > widths["C->A"]
    assert_clean(svg)


def test_estate_marks_unused_channels_and_audit_findings():
    sends, losses, member = estate(200)
    svg = estate_svg(sends, losses, member, unused=[("QM0177", "QM0002", "QM0177.QM0002")],
                     flagged={"QM0177": "unused_channel", "QM0188": "alias_loop"})
    assert_clean(svg)
    nodes = node_titles(svg)
    assert {"QM0177", "QM0002", "QM0188"} <= set(nodes)
    assert "QM0177.QM0002" in svg and "never used" in svg
    assert "⚠ alias loop" in svg


def test_aggregate_keeps_lost_and_busy_queue_managers():
    sends, losses, member = estate(120)
    _, _, _, traffic, _, node_of = aggregate(sends, losses, member, max_nodes=20)
    own = {n for n, node in node_of.items() if n == node}
    assert len(own) == 20 and {q for q, _, _ in losses} <= own
    busiest = sorted(traffic, key=lambda q: -traffic[q])[:10]
    assert set(busiest) <= own


def test_timeline_lanes_markers_and_no_overlaps():
    moves = [(f"2026-11-22 {h:02d}:{m:02d}:00", 1 if (h + m) % 3 else -1)
             for h in range(8, 20) for m in range(0, 60, 7)]
    lanes = [Lane("QM0123/QM0028", depth_steps(moves), what="transmission queue",
                  markers=[("2026-11-22 12:00:00", "waiting_on_xmitq", "stuck"),
                           ("2026-11-22 12:00:01", "expired", "gone")]),
             Lane("QM.VERY.LONG.QUEUE.MANAGER.NAME.0001/" + "PAYMENTS.INBOUND." * 3,
                  depth_steps(moves[:20]),
                  markers=[("2026-11-22 09:00:00", "event", "Queue Depth High")]),
             Lane("CHANNEL.QM1.TO.QM2", [], what="channel",
                  markers=[("2026-11-22 15:00:00", "dead_lettered", "x")])]
    svg = timeline_svg(lanes, title="A day")
    assert_clean(svg)
    assert svg.count('class="lane"') == 3
    assert svg.count("<circle") >= 3 + 3        # markers and their legend entries
    assert "PAYMENTS.INBOUND.PAYMENTS.INBOUND.PAYMENTS.INBOUND." in svg   # full in title
    peak = max(d for _, d in depth_steps(moves))
    assert f"peak depth {peak}" in svg
    assert min(d for _, d in depth_steps(moves)) >= 0


def test_parse_time_forms():
    assert parse_time("10:01:58") == 36118
    assert parse_time("2026-11-22 10:01:58") - parse_time("2026-11-22 10:00:00") == 118
    assert parse_time("garbage") is None
