"""Route pictures: boxes per queue manager, numbered hops, no label on another label or node.

Routes come from the simulator over chains of 1 to 13 queue managers (1 to 49 hops), with
short and with 48-character names, a stopped channel and a gap; the SVG Graphviz draws is
measured box by box (`graph.draw.check`, the font's real metrics).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zlib

import pytest

pytest.importorskip("pygraphviz")

from graph.draw import check, route_svg
from graph.routegraph import route_graph, save
from pcf import mqc
from pcf.mqmd import MQMD
from traceroute import Simulator, build_routes, parse_message, parse_mqsc
from traceroute.routes.ordering import Gap, Route


def chain_mqsc(names: list[str], target: str, stopped: str | None = None) -> str:
    """MQSC of queue managers in a row; every one can send back to the first."""
    first, last = names[0], names[-1]
    out = []
    for i, qm in enumerate(names):
        out.append(f"* Queue manager name: {qm}")
        out.append("ALTER QMGR ACTIVREC(MSG) ROUTEREC(MSG) DEADQ(SYSTEM.DEAD.LETTER.QUEUE)")
        out.append("DEFINE QLOCAL('SYSTEM.DEAD.LETTER.QUEUE') REPLACE")  # crtmqm made it
        if i + 1 < len(names):
            nxt = names[i + 1]
            out.append(f"DEFINE QLOCAL('{last}') USAGE(XMITQ)")
            out.append(f"DEFINE CHANNEL('{qm}.TO.{nxt}'[:20]) CHLTYPE(SDR) TRPTYPE(TCP) "
                       f"CONNAME('h(1)') XMITQ('{last}')")
        if i > 0:
            prev = names[i - 1]
            out.append(f"DEFINE CHANNEL('{prev}.TO.{qm}'[:20]) CHLTYPE(RCVR) TRPTYPE(TCP)")
            out.append(f"DEFINE QLOCAL('{first}') USAGE(XMITQ)")
            out.append(f"DEFINE CHANNEL('B.{qm}'[:20]) CHLTYPE(SDR) TRPTYPE(TCP) "
                       f"CONNAME('h(1)') XMITQ('{first}')")
        else:
            out.append("DEFINE QLOCAL('REPLY.Q')")
            for other in names[1:]:
                out.append(f"DEFINE CHANNEL('B.{other}'[:20]) CHLTYPE(RCVR) TRPTYPE(TCP)")
        if qm == last:
            out.append(f"DEFINE QLOCAL('{target}')")
        out.append("")
    text = "\n".join(out)
    text = re.sub(r"'([^']*)'\[:20\]", lambda m: "'" + channel_name(m.group(1)) + "'", text)
    if stopped:
        text += f"\n* Queue manager name: {names[0]}\nSTOP CHANNEL('{stopped}')\n"
    return text


def channel_name(full: str) -> str:
    """MQ channel names are at most 20 characters."""
    return full if len(full) <= 20 else f"C{zlib.crc32(full.encode()):08x}.{full[-8:]}"[:20]


def traced_route(n: int, long_names: bool = False, stopped: bool = False) -> Route:
    """The route of one message across a chain of n queue managers."""
    if long_names:
        names = [f"QM.PAYMENTS.EUROPE.WEST.PRODUCTION.{i:04d}"[:48] for i in range(n)]
        target = "PAYMENTS.SETTLEMENT.INSTRUCTIONS.INBOUND.QUEUE.V2"[:48]
    else:
        names = [f"QM{i}" for i in range(n)]
        target = "TARGET.Q"
    chan = channel_name(f"{names[0]}.TO.{names[1]}") if stopped else None
    sim = Simulator(parse_mqsc(chain_mqsc(names, target, chan), source="chain"), seed=1)
    md = MQMD(report=mqc.MQRO_ACTIVITY, format="MQSTR", reply_to_q="REPLY.Q")
    sim.put(names[0], target, md, b"x", target_qmgr=names[-1], appl_name="payments")
    sim.run()
    records = [parse_message(m, d) for m, d in sim.browse(names[0], "REPLY.Q")]
    (route,) = build_routes(records)
    return route


SVG = "{http://www.w3.org/2000/svg}"


def edge_labels(svg: str) -> list[tuple[str, float, str]]:
    """(first line of the label, its x, the edge group's SVG) per labelled edge."""
    out = []
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if g.get("class") == "edge":
            texts = list(g.iter(f"{SVG}text"))
            if texts:
                out.append(("".join(texts[0].itertext()), float(texts[0].get("x")),
                            ET.tostring(g, encoding="unicode")))
    return out


def hop_numbers(svg: str) -> list[int]:
    """The hop numbers written on the edges."""
    nums = []
    for text, _, _ in edge_labels(svg):
        m = re.match(r"(\d+)(?:–(\d+))?\s", text)
        if m:
            nums += [int(m.group(1))] + ([int(m.group(2))] if m.group(2) else [])
    return sorted(nums)


def assert_clean(svg: str) -> None:
    bad = check.overlaps(svg)
    assert not bad, "\n".join(f"{a.what!r} ({a.owner}) overlaps {b.what!r} ({b.owner})"
                              for a, b in bad[:10])
    assert not check.outside_own_node(svg)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 9, 13])
@pytest.mark.parametrize("long_names", [False, True])
def test_chain_pictures_have_no_overlaps(n, long_names):
    route = traced_route(n, long_names)
    assert route.verdict.value == "delivered"
    hops = 1 + 4 * (n - 1)          # put; then get, send, receive, put per channel
    svg = route_svg(route_graph(route))
    assert_clean(svg)
    assert hop_numbers(svg) == list(range(1, hops + 1))
    # one box per queue manager, holding its objects
    clusters = re.findall(r'<g id="clust\d+" class="cluster">\s*<title>(.*?)</title>', svg)
    assert len(clusters) == n
    assert "▲ last known location" in svg


def test_hops_run_left_to_right():
    svg = route_svg(route_graph(traced_route(4)))
    xs = {}
    for text, x, _ in edge_labels(svg):
        m = re.match(r"(\d+)", text)
        if m:
            xs[int(m.group(1))] = x
    assert len(xs) == 1 + 3 * 3      # send and receive share one label per channel
    assert sorted(xs, key=xs.get) == sorted(xs)


def test_long_names_are_wrapped_and_full_in_tooltips():
    route = traced_route(3, long_names=True)
    svg = route_svg(route_graph(route))
    target = "PAYMENTS.SETTLEMENT.INSTRUCTIONS.INBOUND.QUEUE.V2"[:48]
    texts = ["".join(t.itertext()) for t in ET.fromstring(svg).iter(
        "{http://www.w3.org/2000/svg}text")]
    assert target not in texts                       # not on one line
    assert all(len(t) <= 40 for t in texts if "last known" not in t
               and "location" not in t and "message" not in t)
    assert f'xlink:title="queue {target} on' in svg   # the full name in the tooltip


def test_stopped_channel_marks_xmitq_and_unreached_queue_manager():
    route = traced_route(2, stopped=True)
    assert route.verdict.value == "waiting_on_xmitq"
    svg = route_svg(route_graph(route))
    assert_clean(svg)
    assert "waiting on xmitq" in svg
    assert "not reached" in svg and "stroke-dasharray" in svg
    assert len(re.findall(r'class="cluster"', svg)) == 2


def test_gap_is_dashed_and_says_what_is_missing():
    route = traced_route(3)
    steps = list(route.steps)
    holed = Route(route.correl_id, (*steps[:2], Gap(missing=2), *steps[4:]), route.outcome)
    svg = route_svg(route_graph(holed))
    assert_clean(svg)
    gap = [b for t, _, b in edge_labels(svg) if "gap" in t]
    assert gap and "stroke-dasharray" in gap[0] and "2 missing" in gap[0]


@pytest.mark.parametrize("suffix", [".svg", ".png", ".pdf"])
def test_save_writes_pictures(tmp_path, suffix):
    path = save(route_graph(traced_route(2)), tmp_path / f"r{suffix}", title="two hops")
    head = path.read_bytes()[:8]
    assert {".svg": b"<svg", ".png": b"\x89PNG", ".pdf": b"%PDF"}[suffix] in head \
        or head.startswith(b"<svg")
    assert path.stat().st_size > 1000


def test_very_long_route_is_drawn_with_its_middle_elided():
    route = traced_route(17)                      # 65 hops
    svg = route_svg(route_graph(route))
    assert_clean(svg)
    nums = hop_numbers(svg)
    assert nums[0] == 1 and nums[-1] == 65 and len(nums) < 65
    assert "hops not drawn" in svg
