"""Graphviz (dot) through pygraphviz, whose wheel ships Graphviz itself: layout and output.

Names are data, never Graphviz markup. A `Picture` is built from keys (any text: queue
manager, queue and channel names as the data holds them) and texts; Graphviz only ever
sees synthetic ids (`n12`, `cluster_3`), so no name is taken as an HTML-like label (a value
in `<...>`), a record field (`{`, `|`, `<port>`), a `%` name or an escape (`\\N`, `\\G`,
`\\l`, `\\E`). Every label goes through `label_text` (controls shown as `\\uXXXX`, then
Graphviz's own escapes: a backslash doubled, `<>{}|"` escaped), every HTML-like label is
built from `html_text`; tooltips and titles are written into the SVG after the layout
(XML-escaped by us), since Graphviz expands escapes in them twice. A label that is one lone
backslash, or ends in one, made the bundled Graphviz read past the end of the string and
crash the whole process (SIGSEGV, or SIGABRT from the heap it overwrote); escaped, none does.

Graphviz also runs in a child process (`render`): should it still crash, hang (past
`LAYOUT_SECONDS`) or fail, the caller gets a `LayoutError` naming why, and goes on.

Names are wrapped at dots and underscores and shortened past three lines; the full name
goes in the SVG tooltip. Everything here is a pure function of its arguments except
`render`, which runs the bundled Graphviz.
"""

from __future__ import annotations

import faulthandler
import os
import re
import secrets
import select
import signal
import tempfile
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape

from pcf.text import printable

FONT = "DejaVu Sans"
FONT_SIZE = 10
WRAP = 18
MAX_LINES = 3
#: The longest a picture's layout may take before it is given up (LayoutError).
LAYOUT_SECONDS = 300.0
#: The largest picture a layout may return (bytes).
MAX_PICTURE_BYTES = 512 * 1024 * 1024


class LayoutError(RuntimeError):
    """Graphviz could not lay out or draw a picture (the reason in the message)."""


def wrap(name: str, width: int = WRAP, lines: int = MAX_LINES) -> str:
    """A long name broken after '.', '_', '/' or a space into lines of about `width`, at most
    `lines` (the last one ends in '…' when the name does not fit). Control characters in
    the name are shown escaped first, so every line break is one of ours."""
    name = printable(name)
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
    """The name (controls shown escaped) cut to `width` characters with an ellipsis in the
    middle."""
    name = printable(name)
    if len(name) <= width:
        return name
    half = (width - 1) // 2
    return name[:half] + "…" + name[-(width - 1 - half):]


def html_text(text: str) -> str:
    """Text safe inside a Graphviz HTML-like label: controls shown escaped, markup
    characters as entities (a backslash means nothing there)."""
    return xml_escape(printable(str(text)), {'"': "&quot;"})


_LABEL_SPECIAL = re.compile(r'([\\<>{}|"])')


def label_text(text: str) -> str:
    """A plain Graphviz label showing `text` as it is: its line breaks (\\n) are ours, every
    other control is shown escaped, and nothing in it is a Graphviz escape (a backslash is
    doubled), an entity (Graphviz decodes `&...;` in plain labels: `&` becomes `&amp;`), a
    record field or an HTML-like label (`<>{}|"` escaped). The bundled Graphviz crashes on a
    label that starts with a line break, so an empty first line is a space."""
    lines = [_LABEL_SPECIAL.sub(r"\\\1", printable(line)).replace("&", "&amp;")
             for line in str(text).split("\n")]
    if len(lines) > 1 and not lines[0]:
        lines[0] = " "
    return "\\n".join(lines)


class Html(str):
    """An HTML-like label already built from `html_text` pieces (set as `<...>`)."""


@dataclass
class _Item:
    key: object
    gid: str
    label: str | Html | None = None
    tooltip: str | None = None
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass
class _Edge:
    u: str
    v: str
    gkey: str
    title: str
    label: str | None = None
    tooltip: str | None = None
    attrs: dict[str, str] = field(default_factory=dict)


class Picture:
    """A directed Graphviz graph built from data: keys become synthetic ids, texts are
    escaped when the graph is made (see the module). Nodes go into the picture itself or
    into a cluster (`cluster` returns its id)."""

    def __init__(self, **graph_attrs: str) -> None:
        self.graph_attrs = {"fontname": FONT, "fontsize": str(FONT_SIZE + 1), **graph_attrs}
        self.title: str | Html | None = None
        self.title_tooltip: str | None = None
        self.nodes: dict[object, _Item] = {}
        self.node_parent: dict[object, str | None] = {}
        self.clusters: dict[str, _Item] = {}
        self.edges: list[_Edge] = []
        self.unflatten_args: str | None = None
        self._nonce = secrets.token_hex(4)

    def __contains__(self, key: object) -> bool:
        return key in self.nodes

    def node_id(self, key: object) -> str:
        """The synthetic id of a node key (KeyError if there is no such node)."""
        return self.nodes[key].gid

    def cluster(self, *, label: str | Html | None = None, tooltip: str | None = None,
                **attrs: str) -> str:
        """A new cluster (a box around nodes); its id, to give `node(parent=...)`."""
        gid = f"cluster_{len(self.clusters)}"
        self.clusters[gid] = _Item(gid, gid, label, tooltip, attrs)
        return gid

    def node(self, key: object, *, label: str | Html, tooltip: str | None = None,
             parent: str | None = None, **attrs: str) -> str:
        """Add (or update) the node `key`; its synthetic id."""
        item = self.nodes.get(key)
        if item is None:
            item = self.nodes[key] = _Item(key, f"n{len(self.nodes)}")
            self.node_parent[key] = parent
        item.label, item.tooltip = label, tooltip
        item.attrs.update(attrs)
        return item.gid

    def edge(self, u: object, v: object, *, label: str | Html | None = None,
             tooltip: str | None = None, **attrs: str) -> None:
        """An edge between two nodes added before."""
        a, b = self.nodes[u], self.nodes[v]
        self.edges.append(_Edge(a.gid, b.gid, f"e{len(self.edges)}",
                                f"{printable(str(u))}->{printable(str(v))}", label,
                                tooltip, attrs))

    # --- the pygraphviz graph ------------------------------------------------------------

    def _token(self, n: int) -> str:
        return f"mqroute{self._nonce}t{n}"

    def agraph(self, *, tokens: dict[str, str] | None = None):
        """The pygraphviz graph (unflattened when asked); tooltips become tokens listed in
        `tokens` (token -> text), for `render` to put in the SVG."""
        import pygraphviz

        tokens = {} if tokens is None else tokens

        def tip(text: str | None) -> dict[str, str]:
            if text is None:
                return {}
            token = self._token(len(tokens))
            tokens[token] = printable(str(text))
            return {"tooltip": token}

        g = pygraphviz.AGraph(directed=True, strict=False)
        g.graph_attr.update(self.graph_attrs)
        g.node_attr.update(fontname=FONT, fontsize=str(FONT_SIZE), shape="box",
                           style="rounded,filled", fillcolor="white", margin="0.08,0.04",
                           label="")
        g.edge_attr.update(fontname=FONT, fontsize=str(FONT_SIZE - 1), arrowsize="0.7")
        subs = {gid: g.add_subgraph(name=gid, **c.attrs) for gid, c in self.clusters.items()}
        for key, item in self.nodes.items():
            parent = self.node_parent.get(key)
            (subs[parent] if parent else g).add_node(item.gid, **item.attrs)
        for e in self.edges:
            g.add_edge(e.u, e.v, key=e.gkey, **e.attrs)
        if self.unflatten_args:  # stagger the many leaves of a hub over several ranks
            with suppress(OSError, ValueError):  # no unflatten program: plain layout works
                g = g.unflatten(self.unflatten_args)
        # texts last, on the graph that is drawn: Graphviz's DOT round trip never sees them
        for gid, c in self.clusters.items():  # explicit: a cluster inherits the root's
            sub = g.get_subgraph(gid)
            if sub is not None:
                sub.graph_attr.update({"label": "", "tooltip": ""})
                sub.graph_attr.update({**_label(c.label), **tip(c.tooltip)})
        for item in self.nodes.values():
            g.get_node(item.gid).attr.update(_label(item.label), **tip(item.tooltip))
        for e in self.edges:
            attrs = {**_label(e.label), **tip(e.tooltip)}
            if attrs:
                g.get_edge(e.u, e.v, e.gkey).attr.update(attrs)
        if self.title is not None:
            g.graph_attr.update(_label(self.title))
        if self.title_tooltip is not None:
            g.graph_attr.update(tip(self.title_tooltip))
        return g

    def titles(self) -> dict[str, str]:
        """Synthetic SVG <title> text -> the escaped text it stands for."""
        out = {item.gid: printable(str(key)) for key, item in self.nodes.items()}
        out.update({f"{e.u}&#45;&gt;{e.v}": e.title for e in self.edges})
        for gid, c in self.clusters.items():
            out[gid] = printable(str(c.tooltip if c.tooltip is not None else gid))
        return out


def _label(label: str | Html | None) -> dict[str, str]:
    if label is None:
        return {}
    if isinstance(label, Html):
        return {"label": f"<{label}>"}
    return {"label": label_text(label)}


# --- layout in a child process ---------------------------------------------------------------

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


def _draw(g, fmt: str, prog: str) -> bytes:
    with _quiet_stderr():
        g.layout(prog=prog)
        return g.draw(format=fmt)


def _isolated(g, fmt: str, prog: str, seconds: float) -> bytes:
    """_draw in a forked child: a crash, hang or error there is a LayoutError here."""
    if not hasattr(os, "fork"):
        try:
            return _draw(g, fmt, prog)
        except Exception as e:
            raise LayoutError(f"Graphviz failed: {e}") from None
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: draw, send the bytes (or the error), leave without clean-up
        status = 0
        try:
            faulthandler.disable()   # a crash here is reported by the parent, in one line
            os.close(read_end)
            try:
                data = b"+" + _draw(g, fmt, prog)
            except Exception as e:
                data, status = b"-" + f"{type(e).__name__}: {e}".encode("utf-8", "replace"), 3
            view = memoryview(data)
            while view:
                view = view[os.write(write_end, view[:1 << 20]):]
        except BaseException:
            status = 4
        finally:
            os._exit(status)
    os.close(write_end)
    chunks, size, deadline = [], 0, time.monotonic() + seconds
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([read_end], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise LayoutError(f"Graphviz took longer than {seconds:g} s: given up")
            chunk = os.read(read_end, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_PICTURE_BYTES:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise LayoutError(f"the picture is over {MAX_PICTURE_BYTES >> 20} MB: "
                                  "not drawn")
            chunks.append(chunk)
    finally:
        os.close(read_end)
    _, status = os.waitpid(pid, 0)
    data = b"".join(chunks)
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        raise LayoutError(f"Graphviz crashed ({name})")
    if not data or data[:1] != b"+":
        reason = data[1:].decode("utf-8", "replace").strip().splitlines()
        raise LayoutError(f"Graphviz failed: {reason[0] if reason else 'no output'}")
    return data[1:]


def render(picture: Picture, fmt: str = "svg", prog: str = "dot", *,
           seconds: float = LAYOUT_SECONDS) -> bytes:
    """Lay the picture out and draw it: SVG, PNG or PDF bytes; LayoutError when Graphviz
    cannot (a crash, a hang past `seconds`, an error)."""
    tokens: dict[str, str] = {}
    g = picture.agraph(tokens=tokens)
    if fmt == "png":
        g.graph_attr["dpi"] = "110"
    data = _isolated(g, fmt, prog, seconds)
    if fmt != "svg":
        return data
    text = data.decode("utf-8", "replace")
    start = text.find("<svg")
    text = text[start:] if start >= 0 else text
    return _restore_texts(text, tokens, picture.titles()).encode("utf-8")


_TOOLTIP = re.compile(r'xlink:title="(mqroute[0-9a-f]+t\d+)"')
_TITLE = re.compile(r"<title>([^<]*)</title>")


def _restore_texts(svg: str, tokens: dict[str, str], titles: dict[str, str]) -> str:
    """Put the real tooltips and titles (XML-escaped) where Graphviz wrote ids and tokens."""
    def tooltip(m: re.Match[str]) -> str:
        text = tokens.get(m.group(1))
        return m.group() if text is None else \
            f'xlink:title="{xml_escape(text, {chr(34): "&quot;"})}"'

    def title(m: re.Match[str]) -> str:
        text = titles.get(m.group(1))
        return m.group() if text is None else f"<title>{xml_escape(text)}</title>"

    return _TITLE.sub(title, _TOOLTIP.sub(tooltip, svg))


def write(picture: Picture, path: str | Path, prog: str = "dot") -> Path:
    """Draw the picture to a file in the format its suffix names (.svg, .png, .pdf)."""
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("svg", "png", "pdf"):
        raise ValueError(f"{path}: use .svg, .png or .pdf")
    path.write_bytes(render(picture, fmt, prog))
    return path
