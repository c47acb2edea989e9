"""Bounding boxes of what an SVG picture draws, and which of them overlap.

Reads the SVG our pictures produce (Graphviz's, and the hand-drawn timeline's): every
`<text>` measured with the font's real metrics (DejaVu Sans, the font the pictures name),
every node's shape (`<g class="node">`: polygon, ellipse, path, rect, circle). A label may sit
on its own node, never on another node or another label. Used by the tests, and by anyone
who wants to check a picture before sharing it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache

SVG = "{http://www.w3.org/2000/svg}"
_NUM = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in the SVG's coordinates, with what drew it."""

    x0: float
    y0: float
    x1: float
    y1: float
    kind: str      # "text" or "node"
    owner: str     # id of the node/edge/cluster group it belongs to
    what: str      # the text, or the node's title

    def overlaps(self, other: Box, slack: float = 0.5) -> bool:
        """True when the two boxes share more than `slack` units each way."""
        return (min(self.x1, other.x1) - max(self.x0, other.x0) > slack
                and min(self.y1, other.y1) - max(self.y0, other.y0) > slack)

    def inside(self, other: Box, slack: float = 1.0) -> bool:
        """True when this box lies within the other (give or take `slack`)."""
        return (self.x0 >= other.x0 - slack and self.x1 <= other.x1 + slack
                and self.y0 >= other.y0 - slack and self.y1 <= other.y1 + slack)


@lru_cache(maxsize=64)
def _font(size: float, bold: bool):
    from matplotlib import font_manager
    from PIL import ImageFont

    path = font_manager.findfont(font_manager.FontProperties(
        family="DejaVu Sans", weight="bold" if bold else "normal"))
    return ImageFont.truetype(path, size=max(1, round(size * 4)))   # 4x for precision


def text_box(text: str, x: float, y: float, size: float, anchor: str = "start",
             bold: bool = False) -> tuple[float, float, float, float]:
    """The box a line of text drawn at baseline (x, y) covers."""
    font = _font(size, bold)
    width = font.getlength(text) / 4
    ascent, descent = font.getmetrics()
    top, bottom = y - ascent / 4 * 0.92, y + descent / 4 * 0.92
    if anchor == "middle":
        x0 = x - width / 2
    elif anchor == "end":
        x0 = x - width
    else:
        x0 = x
    return x0, top, x0 + width, bottom


def _points(el: ET.Element) -> list[tuple[float, float]]:
    tag = el.tag.replace(SVG, "")
    if tag in ("polygon", "polyline"):
        nums = [float(n) for n in _NUM.findall(el.get("points", ""))]
    elif tag == "path":
        nums = [float(n) for n in _NUM.findall(el.get("d", ""))]
    elif tag == "ellipse":
        cx, cy = float(el.get("cx", 0)), float(el.get("cy", 0))
        rx, ry = float(el.get("rx", 0)), float(el.get("ry", 0))
        nums = [cx - rx, cy - ry, cx + rx, cy + ry]
    elif tag == "circle":
        cx, cy, r = float(el.get("cx", 0)), float(el.get("cy", 0)), float(el.get("r", 0))
        nums = [cx - r, cy - r, cx + r, cy + r]
    elif tag == "rect":
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        nums = [x, y, x + float(el.get("width", 0)), y + float(el.get("height", 0))]
    else:
        return []
    return list(zip(nums[0::2], nums[1::2], strict=False))


def _size(el: ET.Element, inherited: float) -> float:
    value = el.get("font-size") or inherited
    return float(str(value).replace("px", "").replace("pt", ""))


def boxes(svg: str) -> list[Box]:
    """Every text line and node shape the SVG draws, as boxes."""
    root = ET.fromstring(svg)
    found: list[Box] = []

    def visit(el: ET.Element, owner: str, kind: str, size: float, bold: bool) -> None:
        tag = el.tag.replace(SVG, "")
        cls = el.get("class", "")
        if tag == "g" and cls.split() and cls.split()[0] in ("node", "edge", "cluster",
                                                             "label", "lane"):
            owner, kind = el.get("id", owner), cls.split()[0]
        size = _size(el, size)
        bold = bold or el.get("font-weight") == "bold"
        if tag == "text":
            text = "".join(el.itertext())
            if text.strip():
                x, y = float(el.get("x", 0)), float(el.get("y", 0))
                x0, y0, x1, y1 = text_box(text, x, y, size, el.get("text-anchor", "start"),
                                          bold)
                found.append(Box(x0, y0, x1, y1, "text", owner, text))
            return
        if kind == "node" and tag in ("polygon", "path", "ellipse", "circle", "rect"):
            pts = _points(el)
            if pts:
                xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                title = el.get("data-name") or owner
                found.append(Box(min(xs), min(ys), max(xs), max(ys), "node", owner, title))
        for child in el:
            if tag == "g" and child.tag.replace(SVG, "") == "title":
                continue
            visit(child, owner, kind, size, bold)

    visit(root, "", "", 14.0, False)
    return found


def node_boxes(found: list[Box]) -> dict[str, Box]:
    """One box per node: the union of its shapes."""
    out: dict[str, Box] = {}
    for b in found:
        if b.kind != "node":
            continue
        o = out.get(b.owner)
        out[b.owner] = b if o is None else Box(min(o.x0, b.x0), min(o.y0, b.y0),
                                               max(o.x1, b.x1), max(o.y1, b.y1),
                                               "node", b.owner, o.what)
    return out


def overlaps(svg: str) -> list[tuple[Box, Box]]:
    """Pairs that must not touch: label on label, label on another node, node on node."""
    found = boxes(svg)
    texts = [b for b in found if b.kind == "text"]
    nodes = list(node_boxes(found).values())
    bad = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if a.overlaps(b):
                bad.append((a, b))
        for n in nodes:
            if n.owner != a.owner and a.overlaps(n):
                bad.append((a, n))
    for i, a in enumerate(nodes):
        for b in nodes[i + 1:]:
            if a.overlaps(b):
                bad.append((a, b))
    return bad


def outside_own_node(svg: str) -> list[Box]:
    """Node labels that run out of their node's shape."""
    found = boxes(svg)
    nodes = node_boxes(found)
    return [b for b in found if b.kind == "text" and b.owner in nodes
            and not b.inside(nodes[b.owner])]
