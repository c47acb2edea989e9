"""Names are data in every picture and export: no Graphviz markup, escape or crash from them.

Hypothesis draws names from what breaks Graphviz, XML and terminals (backslashes, HTML-like
labels, record fields, `%`, quotes, NUL and other controls, separators, very long names) and
puts them in every place a route picture, an estate picture, a timeline and the GraphML and
JSON exports take text from. Every SVG must parse as XML; every name must be shown as the
data holds it (controls escaped as `\\uXXXX`) and never as markup; distinct names stay
distinct nodes; Graphviz failing is a LayoutError, never the end of the process.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("pygraphviz")

from graph.draw import dot
from graph.draw.estate import Other, aggregate, estate_svg
from graph.draw.route import route_svg
from graph.draw.timeline import Lane, timeline_svg
from graph.routegraph import graphml_bytes, node_link_bytes
from pcf.text import is_printable, printable

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
HOSTILE = ["\\", "\\N", "\\G", "\\l", "\\E", "<", ">", "<B>", "</S>", "{", "|", "}", "%",
           '"', "'", "&", "&amp;", "&#92;", "&#x5c;", "\x00", "\x1b[31m",
           "\x1b]8;;http://x\x07", "\x9b", "\n", "\r", "\t", "\u2028", "\u202e", "\ufffe", "é",
           "…", "Q", "A.B_C/D", " "]
NAMES = st.lists(st.sampled_from(HOSTILE), min_size=1, max_size=24).map("".join)
FAST = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def route_graph_of(names: list[str]) -> nx.MultiDiGraph:
    """A route graph (as graph.routegraph builds it) whose every text is a hostile name."""
    qm, queue, channel, app, other = (names * 5)[:5]
    g = nx.MultiDiGraph()
    g.graph["title"] = other
    g.graph["routes"] = [{"correl_id": app, "verdict": queue, "feedback": channel,
                          "location": {"queue_manager": qm, "queue": queue,
                                       "channel": channel, "remote_queue_manager": other}}]
    nodes = {
        "app": dict(kind="application", queue_manager=qm, name=app, label=app),
        "queue": dict(kind="queue", queue_manager=qm, name=queue, label=queue),
        "xmitq": dict(kind="xmitq", queue_manager=qm, name=other, label=other),
        "chan": dict(kind="channel", name=channel, label=channel),
        "app2": dict(kind="application", queue_manager=other, name=queue, label=queue),
    }
    keys = {k: f"{v.get('queue_manager', '')}/{v['name']}/{k}" for k, v in nodes.items()}
    for k, attrs in nodes.items():
        g.add_node(keys[k], **attrs)
    for seq, (u, v, op) in enumerate([("app", "queue", app), ("queue", "app", "Get"),
                                      ("app", "xmitq", "Put"), ("xmitq", "chan", channel),
                                      ("chan", "app2", "Receive")], start=1):
        g.add_edge(keys[u], keys[v], key=f"{seq}", route="r", seq=seq, colour="#000000",
                   verdict=queue, style="solid", operation=op, feedback=other)
    return g


def texts_and_tips(svg: str) -> tuple[list[str], list[str]]:
    root = ET.fromstring(svg)   # well-formed XML, or this raises
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    tips = [a.get(f"{XLINK}title") for a in root.iter() if a.get(f"{XLINK}title")]
    tips += [t.text or "" for t in root.iter(f"{SVG}title")]
    return texts, tips


def assert_shown_as_data(svg: str, names: list[str]) -> None:
    texts, tips = texts_and_tips(svg)
    for piece in texts + tips:
        assert is_printable(piece), repr(piece)
    for name in names:   # the whole name, escaped, in a tooltip or title
        assert any(printable(name) in t for t in tips), (name, tips[:20])
    # no markup from data: Graphviz never produced a struck-through or link element
    assert "text-decoration" not in svg
    assert "<a xlink:href" not in svg


@FAST
@given(st.lists(NAMES, min_size=5, max_size=5, unique=True))
def test_route_picture_shows_hostile_names_as_data(names):
    svg = route_svg(route_graph_of(names))
    assert_shown_as_data(svg, names)
    root = ET.fromstring(svg)
    nodes = [g for g in root.iter(f"{SVG}g") if g.get("class") == "node"]
    assert len(nodes) == 4      # the channel is drawn as an edge


@FAST
@given(st.lists(NAMES, min_size=4, max_size=4, unique=True))
def test_estate_picture_shows_hostile_names_as_data(names):
    a, b, c, d = names
    svg = estate_svg([(a, b, c, 5), (b, d, d, 3), (d, a, a, 1)], [(b, c, 2), (a, d, 1)],
                     {a: c, b: c, d: ""}, title=d, unused=[(a, d, b)], flagged={d: a})
    assert_shown_as_data(svg, [a, b, d])


def test_a_name_like_the_aggregate_node_is_its_own_node():
    sends = [(f"QM{i}", "HUB", "C", 10 + i) for i in range(30)]
    sends.append(("…other", "HUB", "C", 1))
    *_, node_of = aggregate(sends, [], None, max_nodes=5)
    assert isinstance(node_of["QM0"], Other) and node_of["QM29"] == "QM29"
    assert Other("") != "…other"


def test_names_differing_after_a_nul_stay_two_nodes():
    names = ["QM\x00A", "QM\x00B", "Q\x00X", "Q\x00Y", "C\x00"]
    svg = route_svg(route_graph_of(names))
    _, tips = texts_and_tips(svg)
    assert any("QM\\u0000A" in t for t in tips) and any("QM\\u0000B" in t for t in tips)
    est = estate_svg([("QM\x00A", "QM\x00B", "C", 1)], [])
    titles = re.findall(r"<title>(.*?)</title>", est)
    assert "QM\\u0000A" in titles and "QM\\u0000B" in titles


@FAST
@given(st.lists(NAMES, min_size=3, max_size=3))
def test_timeline_is_well_formed_with_hostile_names(names):
    lanes = [Lane(names[0], [("2026-01-01 10:00:00", 3), ("2026-01-01 10:05:00", 1)],
                  [("2026-01-01 10:01:00", names[1], names[2])], what=names[2])]
    svg = timeline_svg(lanes, title=names[1])
    texts, tips = texts_and_tips(svg)
    assert all(is_printable(t) for t in texts + tips)


@FAST
@given(st.lists(NAMES, min_size=5, max_size=5, unique=True))
def test_graphml_and_json_exports_keep_every_name(names):
    g = route_graph_of(names)
    root = ET.fromstring(graphml_bytes(g))   # well-formed
    ids = [n.get("id") for n in root.iter("{http://graphml.graphdrawing.org/xmlns}node")]
    assert len(ids) == len(set(ids)) == g.number_of_nodes()
    assert all(is_printable(i) for i in ids)
    back = json.loads(node_link_bytes(g))
    assert {n["id"] for n in back["nodes"]} == set(g.nodes)   # JSON keeps them exactly


def test_escaping_in_labels():
    assert dot.label_text("a\\b") == "a\\\\b"
    assert dot.label_text("<B>x</B>") == "\\<B\\>x\\</B\\>"
    assert dot.label_text("{a|b}") == "\\{a\\|b\\}"
    assert dot.label_text("one\ntwo") == "one\\ntwo"        # our line break
    assert dot.label_text("\x1b[1m") == "\\\\u001b[1m"      # shown as \u001b
    assert dot.html_text("<b>&\x00") == "&lt;b&gt;&amp;\\u0000"


def test_lone_backslash_that_crashed_graphviz_is_drawn():
    """The bundled Graphviz read past the end of a label ending in a backslash: SIGSEGV on
    a lone '\\\\', SIGABRT (heap overwritten) on longer names at some lengths."""
    for name in ["\\", " \\", "A" * 52 + "\\", "\\" * 53, "QM\\", "\\\\\\"]:
        assert_shown_as_data(route_svg(route_graph_of([name, "Q", "C", "A", "B"])), [name])


def test_a_crash_in_graphviz_is_a_layout_error(monkeypatch):
    pic = dot.Picture()
    pic.node("a", label="a")
    monkeypatch.setattr(dot, "_draw", lambda g, fmt, prog: os.abort())
    with pytest.raises(dot.LayoutError, match="SIGABRT"):
        dot.render(pic)
    monkeypatch.setattr(dot, "_draw", lambda g, fmt, prog: 1 / 0)
    with pytest.raises(dot.LayoutError, match="ZeroDivisionError"):
        dot.render(pic)


def test_a_hanging_layout_is_given_up(monkeypatch):
    import time

    pic = dot.Picture()
    pic.node("a", label="a")
    monkeypatch.setattr(dot, "_draw", lambda g, fmt, prog: time.sleep(30))
    with pytest.raises(dot.LayoutError, match="longer than"):
        dot.render(pic, seconds=0.5)
