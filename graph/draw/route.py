"""The picture of a route: queue managers as boxes holding their queues, transmission queues
and applications; channels as edges between the boxes; hops numbered in order, left to right.

Input is the networkx graph of `graph.routegraph.route_graph` (one route or several merged),
so every picture and export starts from the same graph. The verdict, the last known location
and a legend of what is present sit in the picture's title block; gaps are dashed edges;
a queue manager a route was bound for but never reached is a dashed, empty box.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from graph.draw import dot
from graph.draw.palette import KIND_FILL, VERDICT_COLOURS, verdict_colour

SHAPES = {"queue": "cylinder", "xmitq": "cylinder", "application": "box",
          "discard": "octagon", "unknown": "circle", "channel": "cds",
          "queue_manager": "box", "topic": "hexagon"}
KIND_TEXT = {"queue": "queue", "xmitq": "transmission queue", "application": "application",
             "discard": "discarded", "channel": "channel", "unknown": "unknown",
             "queue_manager": "queue manager not reached", "topic": "topic"}


def _pair_channels(g) -> tuple[list[tuple], set[str]]:
    """Send→channel→Receive edge pairs merged into one edge between two boxes."""
    merged, used_channels = [], set()
    for node, data in g.nodes(data=True):
        if data.get("kind") != "channel":
            continue
        ins = sorted(((u, d) for u, _, d in g.in_edges(node, data=True)
                      if d.get("style") != "dashed"),
                     key=lambda e: (e[1].get("route", ""), e[1].get("seq", 0)))
        outs = sorted(((v, d) for _, v, d in g.out_edges(node, data=True)
                       if d.get("style") != "dashed"),
                      key=lambda e: (e[1].get("route", ""), e[1].get("seq", 0)))
        if not ins or len(ins) != len(outs) or len(ins) != g.degree(node) / 2:
            continue
        for (u, du), (v, dv) in zip(ins, outs, strict=True):
            merged.append((u, v, du, dv, data.get("name", node)))
        used_channels.add(node)
    return merged, used_channels


def _location_node(g, loc: dict) -> str | None:
    qm, queue = loc.get("queue_manager"), loc.get("queue")
    if qm and queue and f"{qm}/{queue}" in g:
        return f"{qm}/{queue}"
    if loc.get("channel") and f"channel:{loc['channel']}" in g:
        return f"channel:{loc['channel']}"
    return None


def _forks(g, info: dict) -> bool:
    """True for a branch that itself fans out (its ends are counted, not it)."""
    return bool(info.get("forks"))


def _title(g, kinds: set[str]) -> dot.Html:
    rows = []
    if g.graph.get("title"):
        rows.append(f'<TR><TD ALIGN="LEFT"><B>{dot.html_text(g.graph["title"])}</B></TD></TR>')
    for info in g.graph.get("routes", [])[:4]:
        colour = VERDICT_COLOURS.get(info["verdict"], "#424242")
        where = ", ".join(f"{k.replace('_', ' ')} {dot.html_text(dot.shorten(str(v)))}"
                          for k, v in info["location"].items() if v)
        fb = f" · {dot.html_text(info['feedback'])}" if info.get("feedback") else ""
        rows.append(
            f'<TR><TD ALIGN="LEFT"><FONT COLOR="{colour}"><B>'
            f'{dot.html_text(str(info["verdict"]).replace("_", " "))}</B></FONT>{fb}'
            f'  <FONT COLOR="#616161">message {dot.html_text(str(info["correl_id"])[:16])}…'
            f'</FONT></TD></TR>'
            f'<TR><TD ALIGN="LEFT">last known location: {where or "unknown"}</TD></TR>')
    ends = [b for b in g.graph.get("branches", []) if not _forks(g, b)]
    if ends:  # a fan-out: how each subscriber's copy (each branch's end) fared
        counts: dict[str, int] = defaultdict(int)
        for b in ends:
            counts[str(b["verdict"])] += 1
        parts = ", ".join(
            f'<FONT COLOR="{VERDICT_COLOURS.get(v, "#424242")}">{n} '
            f'{dot.html_text(v.replace("_", " "))}</FONT>' for v, n in sorted(counts.items()))
        rows.append(f'<TR><TD ALIGN="LEFT">fan-out: {len(ends)} branches ({parts})</TD></TR>')
    legend = "".join(
        f'<TD BGCOLOR="{KIND_FILL[k]}" BORDER="1">{KIND_TEXT[k]}</TD>' for k in
        ("application", "topic", "queue", "xmitq", "channel", "discard", "queue_manager",
         "unknown")
        if k in kinds)
    rows.append(f'<TR><TD ALIGN="LEFT"><TABLE BORDER="0" CELLSPACING="4" ALIGN="LEFT"><TR>{legend}'
                '<TD>- - - gap</TD></TR></TABLE></TD></TR>')
    return dot.Html(f'<TABLE BORDER="0" CELLSPACING="1">{"".join(rows)}</TABLE>')


def _hop_label(d: dict) -> str:
    seq = d.get("seq", "")
    if d.get("kind") == "elided":
        return f"{seq}\n{d['operation']}"
    if d.get("kind") == "unknown" or d.get("style") == "dashed":
        missing = d.get("missing", -1)
        what = f"{missing} missing" if missing not in (None, -1) else "not recorded"
        return f"{seq}  gap: {what}"
    op = str(d.get("operation", "")).lower()
    fb = f"\n{d['feedback']}" if d.get("feedback") else ""
    return f"{seq}  {op}{fb}"


def _elide(g, max_hops: int):
    """A copy of the graph with only the first and last hops of a long route (a loop)."""
    seqs = sorted({d.get("seq", 0) for _, _, d in g.edges(data=True)})
    if len(seqs) <= max_hops:
        return g, 0
    head, tail = seqs[max_hops * 3 // 4 - 1], seqs[-(max_hops // 4)]
    h = g.copy()
    drop = [(u, v, k) for u, v, k, d in h.edges(keys=True, data=True)
            if head < d.get("seq", 0) < tail]
    h.remove_edges_from(drop)
    h.remove_nodes_from([n for n in list(h) if h.degree(n) == 0 and g.degree(n) > 0])
    after = next((v for _, v, d in g.edges(data=True) if d.get("seq") == head), None)
    before = next((u for u, _, d in g.edges(data=True) if d.get("seq") == tail), None)
    if after is not None and before is not None:
        h.add_edge(after, before, key="elided", seq=f"{head + 1}…{tail - 1}",
                   style="dashed", kind="elided", operation=f"{tail - head - 1} hops not drawn")
    return h, tail - head - 1


def route_dot(g, max_hops: int = 60) -> dot.Picture:
    """The picture of a route graph: clusters, numbered hops, title and legend; past
    `max_hops` hops only the first three quarters and the last quarter are drawn."""
    g, _ = _elide(g, max_hops)
    out = dot.Picture(rankdir="LR", newrank="true", nodesep="0.25", ranksep="0.45",
                        labelloc="t", labeljust="l", compound="true", pad="0.2",
                        outputorder="edgesfirst")
    merged, merged_channels = _pair_channels(g)
    marks = {}
    ends = [*g.graph.get("routes", []), *g.graph.get("branches", [])]  # (a fan-out's too)
    for info in ends:
        node = _location_node(g, info["location"])
        if node:
            marks[node] = info["verdict"]
    by_qm: dict[str, list[str]] = defaultdict(list)
    loose: list[str] = []
    kinds: set[str] = set()
    for node, data in g.nodes(data=True):
        if node in merged_channels:
            continue
        kind = data.get("kind", "unknown")
        if kind == "queue_manager":
            continue
        qm = data.get("queue_manager")
        (by_qm[qm] if qm else loose).append(node)
    for node, data in g.nodes(data=True):   # queue managers seen only as a send's target
        if data.get("kind") == "queue_manager" and node not in by_qm:
            by_qm[node].append(node)
    for qm in sorted(by_qm, key=str):
        members = by_qm[qm]
        unreached = members == [qm] and g.nodes[qm].get("kind") == "queue_manager"
        sub = out.cluster(label=dot.wrap(str(qm), 24, 2), tooltip=f"queue manager {qm}",
                          style="rounded,filled" if not unreached else "rounded,dashed",
                          fillcolor="#e3f2fd", color="#1565c0" if not unreached
                          else "#9e9e9e", fontcolor="#0d47a1", penwidth="1.4", margin="10")
        for node in members:
            _add_node(out, sub, g, node, marks, kinds)
    for node in loose:
        _add_node(out, None, g, node, marks, kinds)
    if merged_channels:
        kinds.add("channel")
    for u, v, du, dv, name in merged:
        colour = du.get("colour", "#424242")
        out.edge(u, v, label=f"{du.get('seq')}–{dv.get('seq')}  send → receive\n"
                             f"channel {dot.wrap(str(name), 22, 2)}",
                 tooltip=f"hops {du.get('seq')}-{dv.get('seq')}: channel {name}",
                 color=str(colour), fontcolor="#4a148c", penwidth="2.2")
    for u, v, d in g.edges(data=True):
        if u in merged_channels or v in merged_channels:
            continue
        if g.nodes[u].get("kind") == "queue_manager" or g.nodes[v].get("kind") == \
                "queue_manager":
            continue
        dashed = d.get("style") == "dashed"
        out.edge(u, v, label=_hop_label(d),
                 tooltip=f"hop {d.get('seq')}: {d.get('operation')}"
                         + (f" ({d['feedback']})" if d.get("feedback") else ""),
                 color="#9e9e9e" if dashed else str(d.get("colour", "#424242")),
                 style="dashed" if dashed else "solid", fontcolor="#212121")
    for info in ends:   # bound for a queue manager it never reached
        nxt = info["location"].get("remote_queue_manager")
        last = info.get("node") or _location_node(g, info["location"])
        if not nxt or not last or (nxt in by_qm and by_qm[nxt] != [nxt]):
            continue
        if nxt not in by_qm:
            kinds.add("queue_manager")
            by_qm[nxt] = [nxt]
            sub = out.cluster(label=dot.wrap(str(nxt), 24, 2),
                              tooltip=f"queue manager {nxt} (not reached)",
                              style="rounded,dashed", color="#9e9e9e", fontcolor="#616161",
                              margin="10")
            out.node(nxt, parent=sub, label="not reached", shape="box", style="dashed",
                     color="#9e9e9e", fontcolor="#757575",
                     tooltip=f"queue manager {nxt}: the message never got here")
        if (nxt in g or nxt in by_qm) and nxt in out and last in out:
            out.edge(last, nxt, style="dotted", color="#9e9e9e", label="not sent",
                     fontcolor="#757575", tooltip=f"bound for {nxt}")
    out.title = _title(g, kinds)
    return out


def _add_node(out: dot.Picture, parent: str | None, g, node: str, marks: dict,
              kinds: set[str]) -> None:
    data = g.nodes[node]
    kind = data.get("kind", "unknown")
    kinds.add(kind)
    name = str(data.get("name") or data.get("label") or node)
    if kind == "application":
        name = name.split("\\")[-1].split("/")[-1] or name
    label = dot.wrap(name) if kind != "queue_manager" else "not reached"
    attrs = {"label": label, "shape": SHAPES.get(kind, "box"),
             "fillcolor": KIND_FILL.get(kind, "#eeeeee"),
             "tooltip": f"{KIND_TEXT.get(kind, kind)} {data.get('name') or node}"
                        + (f" on {data['queue_manager']}" if data.get("queue_manager") else ""),
             "color": "#455a64"}
    if kind in ("queue", "xmitq", "topic"):
        attrs["style"] = "filled"
    if kind in ("unknown", "queue_manager"):
        attrs["style"] = "dashed"
    if node in marks:
        attrs.update(penwidth="3", color=verdict_colour(str(marks[node])),
                     label=label + "\n▲ last known location",
                     tooltip=attrs["tooltip"] + f" — last known location ({marks[node]})")
    out.node(node, parent=parent, **attrs)


def route_svg(g) -> str:
    """The route graph drawn as SVG text (LayoutError when Graphviz cannot draw it)."""
    return dot.render(route_dot(g), "svg").decode("utf-8")


def route_picture(g, fmt: str) -> bytes:
    """The route graph drawn as svg, png or pdf bytes (LayoutError when it cannot be)."""
    return dot.render(route_dot(g), fmt)


def draw_route(g, path: str | Path) -> Path:
    """The route graph drawn to a file (.svg, .png or .pdf by its suffix)."""
    return dot.write(route_dot(g), path)
