"""Graphviz (dot) through pygraphviz, whose wheel ships Graphviz itself: layout and output.

Names are wrapped at dots and underscores and shortened past three lines; the full name
goes in the SVG tooltip. Everything here is a pure function of its arguments except
`render`, which runs the bundled Graphviz in this process.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

FONT = "DejaVu Sans"
FONT_SIZE = 10
WRAP = 18
MAX_LINES = 3


def wrap(name: str, width: int = WRAP, lines: int = MAX_LINES) -> str:
    """A long name broken after '.', '_', '/' or a space into lines of about `width`, at most
    `lines` (the last one ends in '…' when the name does not fit)."""
    parts: list[str] = []
    piece = ""
    for ch in name:
        piece += ch
        if (ch in "._/" and len(piece) >= width // 2) or ch == " ":
            parts.append(piece)
            piece = ""
    if piece:
        parts.append(piece)
    out: list[str] = []
    for part in parts:
        while len(part) > width:
            out.append(part[:width])
            part = part[width:]
        if out and len(out[-1]) + len(part) <= width:
            out[-1] += part
        else:
            out.append(part)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: width - 1] + "…"
    return "\n".join(line.strip() for line in out) if out else name


def shorten(name: str, width: int = WRAP * 2) -> str:
    """The name cut to `width` characters with an ellipsis in the middle."""
    if len(name) <= width:
        return name
    half = (width - 1) // 2
    return name[:half] + "…" + name[-(width - 1 - half):]


def html_escape(text: str) -> str:
    """Text safe inside a Graphviz HTML-like label."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


@contextmanager
def _quiet_stderr():
    """Hide the bundled fontconfig's warnings about the system's newer configuration."""
    try:
        fd = os.dup(2)
    except OSError:
        yield
        return
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(fd, 2)
            os.close(fd)


def new_graph(**attrs: str):
    """A directed pygraphviz graph with the house font and the given graph attributes."""
    import pygraphviz

    g = pygraphviz.AGraph(directed=True, strict=False)
    g.graph_attr.update(fontname=FONT, fontsize=str(FONT_SIZE + 1), **attrs)
    g.node_attr.update(fontname=FONT, fontsize=str(FONT_SIZE), shape="box",
                       style="rounded,filled", fillcolor="white", margin="0.08,0.04")
    g.edge_attr.update(fontname=FONT, fontsize=str(FONT_SIZE - 1), arrowsize="0.7")
    return g


def render(g, fmt: str = "svg", prog: str = "dot") -> bytes:
    """Lay the graph out and draw it: SVG, PNG or PDF bytes."""
    with _quiet_stderr():
        g.layout(prog=prog)
        data = g.draw(format=fmt)
    if fmt == "svg":
        text = data.decode("utf-8")
        start = text.find("<svg")
        return text[start:].encode("utf-8") if start >= 0 else data
    return data


def write(g, path: str | Path, prog: str = "dot") -> Path:
    """Draw the graph to a file in the format its suffix names (.svg, .png, .pdf)."""
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("svg", "png", "pdf"):
        raise ValueError(f"{path}: use .svg, .png or .pdf")
    if fmt == "png":
        g.graph_attr["dpi"] = "110"
    path.write_bytes(render(g, fmt, prog))
    return path
