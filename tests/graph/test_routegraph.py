"""Routes as networkx graphs, pictures and exports."""

from __future__ import annotations

import json

import networkx as nx

from graph.routegraph import network_graph, route_graph, save
from mqroute.main import main
from pcf import dmpmqmsg
from tests.support import dspmqrte_examples as ex
from traceroute.records.parse import parse_message
from traceroute.routes.ordering import build_routes


def _route(which):
    (route,) = build_routes(parse_message(m, d) for m, d in ex.reports(ex.trace_md(), which))
    return route


def test_route_graph_nodes_and_ordered_edges():
    g = route_graph(_route([0, 1, 2]))
    kinds = {n: d["kind"] for n, d in g.nodes(data=True)}
    assert kinds["QM1/QM2"] == "xmitq"
    assert kinds["channel:QM1.TO.QM2"] == "channel"
    assert kinds[f"{ex.DSPMQRTE}@QM1"] == "application"
    assert kinds["discarded@QM2"] == "discard"
    edges = sorted(g.edges(data=True), key=lambda e: e[2]["seq"])
    assert [d["operation"] for _, _, d in edges] == ["Put", "Get", "Send", "Receive",
                                                     "Discard"]
    assert edges[-1][2]["feedback"] == "NotDelivered"
    assert all(d["style"] == "solid" for _, _, d in edges)
    path = [edges[0][0]] + [v for _, v, _ in edges]
    assert path[-1] == "discarded@QM2"


def test_gap_is_a_dashed_unknown_edge():
    g = route_graph(_route([0, 2]))
    dashed = [d for _, _, d in g.edges(data=True) if d["style"] == "dashed"]
    assert len(dashed) == 1 and dashed[0]["kind"] == "unknown" and dashed[0]["missing"] == 1


def test_routes_merge_into_one_network_graph():
    other = ex.trace_md()
    other.msg_id = ex.PREFIX + b"\x55"
    routes = build_routes(parse_message(m, d) for m, d in
                          ex.reports(ex.trace_md(), [0, 1, 2]) + ex.reports(other, [0]))
    g = network_graph(routes)
    assert len({d["route"] for _, _, d in g.edges(data=True)}) == 2
    assert g.number_of_edges("QM1/QM2", "channel:QM1.TO.QM2") == 0  # Get/Send go via the MCA
    assert g.number_of_edges(f"{ex.DSPMQRTE}@QM1", "QM1/QM2") == 2  # both routes put there


def test_exports(tmp_path):
    g = route_graph(_route([0, 1, 2]))
    png = save(g, tmp_path / "r.png", title="example 1")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = save(g, tmp_path / "r.svg")
    assert b"<svg" in svg.read_bytes()[:500]
    back = nx.read_graphml(save(g, tmp_path / "r.graphml"))
    assert back.number_of_nodes() == g.number_of_nodes()
    assert back.number_of_edges() == g.number_of_edges()
    data = json.loads(save(g, tmp_path / "r.json").read_text())
    assert len(data["nodes"]) == g.number_of_nodes() and len(data["edges"]) == 5


def test_show_and_trace_draw_with_graph_option(tmp_path, capsys):
    dump = tmp_path / "r.dmp"
    dump.write_text(dmpmqmsg.write([dmpmqmsg.DumpedMessage(m, d) for m, d in
                                    ex.reports(ex.trace_md(), [0, 1, 2])]), encoding="latin-1")
    assert main(["show", str(dump), "--graph", str(tmp_path / "show.png")]) == 0
    assert (tmp_path / "show.png").stat().st_size > 1000
    assert main(["trace", "--network", "demo", "-m", "QM1", "-q", "TARG.AT.QM2", "-rq",
                 "ACTIV.REPLY.Q", "--graph", str(tmp_path / "trace.svg")]) == 0
    assert b"<svg" in (tmp_path / "trace.svg").read_bytes()[:500]
    assert "route graph written" in capsys.readouterr().err
