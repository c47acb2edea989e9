"""A timeline: per queue or channel, the observed depth over time, and markers for events
and for where lost messages stopped (coloured by cause). Hand-drawn SVG, no layout engine:
names sit in a left margin shortened to fit (full name in the tooltip), time ticks are spaced
by their labels' width, so nothing overlaps by construction (the tests measure it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from xml.sax.saxutils import escape as _xml_escape

from graph.draw.dot import FONT, shorten
from graph.draw.palette import verdict_colour
from pcf.text import printable

CHAR = 0.68          # generous width of a DejaVu Sans character, in font sizes
CHAR_BOLD = 0.8
LANE_H = 44
MARGIN = 210
AXIS_H = 28


@dataclass
class Lane:
    """One queue or channel: depth steps (time, depth) and markers (time, kind, text)."""

    name: str
    depth: list[tuple[str, int]] = field(default_factory=list)
    markers: list[tuple[str, str, str]] = field(default_factory=list)
    what: str = "queue"


def escape(text: object) -> str:
    """Text for the SVG: control characters shown as `\\uXXXX` (XML cannot hold them),
    markup characters as entities."""
    return _xml_escape(printable(str(text)), {'"': "&quot;"})


#: Event marker kinds: (colour, pointing down, what the legend calls them).
EVENT_MARKS = {
    "event_channel_down": ("#c62828", True, "event: channel stopped (on its transmission "
                                            "queue's lane)"),
    "event_channel_up": ("#2e7d32", False, "event: channel started"),
    "event": ("#6d4c41", False, "event (queue full, depth high, ...)"),
}


def _triangle(x: float, top: float, down: bool) -> str:
    """An SVG path of an 8-wide, 7-high triangle from `top`, pointing down or up."""
    if down:
        return f"M{x - 4:.1f},{top} l8,0 l-4,7 z"
    return f"M{x:.1f},{top} l4,7 l-8,0 z"


def _legend_layout(causes: set[str], width: int) -> list[tuple[str, float, int, str, str]]:
    """(kind, x, row, colour, text) of each legend entry: the depth line, the event marks
    and the last-seen dots drawn, wrapped onto rows within `width`."""
    entries = [("depth", "#1e88e5", "observed depth (traced messages)")]
    entries += [(c, EVENT_MARKS[c][0], EVENT_MARKS[c][2]) for c in EVENT_MARKS if c in causes]
    entries += [(c, verdict_colour(c), "last seen: " + c.replace("_", " "))
                for c in sorted(causes) if c not in EVENT_MARKS]
    out = []
    x, row = 8.0, 0
    for kind, colour, text in entries:
        size = 18 + len(text) * CHAR * 10 + 16
        if x > 8.0 and x + size > width - 8:
            x, row = 8.0, row + 1
        out.append((kind, round(x, 1), row, colour, text))
        x += size
    return out


_EPOCH = datetime(1970, 1, 1)


def parse_time(stamp: str) -> float | None:
    """Seconds since the epoch of 'YYYY-MM-DD HH:MM:SS[.ff]' or seconds of 'HH:MM:SS'."""
    stamp = (stamp or "").strip()
    stamp = stamp.rstrip("Z")
    for fmt in ("%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S.%f",
                "%Y-%m-%dT%H:%M:%S", "%H:%M:%S.%f", "%H:%M:%S"):
        try:
            t = datetime.strptime(stamp[:26], fmt)
        except ValueError:
            continue
        if fmt.startswith("%H"):
            return t.hour * 3600 + t.minute * 60 + t.second + t.microsecond / 1e6
        return (t - _EPOCH).total_seconds()   # as UTC: no local clock, any year 1-9999
    return None


def depth_steps(moves: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Running depth after each (time, net change) move, never below zero."""
    depth, out = 0, []
    for stamp, d in sorted(moves):
        depth = max(0, depth + d)
        out.append((stamp, depth))
    return out


def _fits(text: str, size: float, width: float, bold: bool = False) -> str:
    return shorten(text, max(4, int(width / ((CHAR_BOLD if bold else CHAR) * size))))


def _tick_label(t: float, span: float, dated: bool) -> str:
    if not dated:
        h, rem = divmod(int(t), 3600)
        return f"{h % 24:02d}:{rem // 60:02d}"
    try:
        dt = _EPOCH + timedelta(seconds=t)
    except OverflowError:   # a tick past year 9999 (or before year 1): the end it passed
        dt = datetime.max if t > 0 else datetime.min
    return dt.strftime("%d %b %H:%M" if span > 86_400 else "%H:%M")


def timeline_svg(lanes: list[Lane], *, width: int = 1100, title: str = "") -> str:
    """The lanes drawn as one SVG (see the module's docstring)."""
    stamps = [parse_time(s) for lane in lanes for s, *_ in (*lane.depth, *lane.markers)]
    times = [t for t in stamps if t is not None]
    dated = any(len(s.strip()) > 10 for lane in lanes for s, *_ in lane.depth + lane.markers)
    t0, t1 = (min(times), max(times)) if times else (0.0, 1.0)
    if t1 <= t0:
        t1 = t0 + 1
    plot_x0, plot_x1 = MARGIN, width - 20
    top = 34 if title else 10
    causes = {kind for lane in lanes for stamp, kind, _ in lane.markers
              if parse_time(stamp) is not None}
    legend = _legend_layout(causes, width)
    height = top + AXIS_H + LANE_H * len(lanes) + 44 + 16 * max(y for _, _, y, *_ in legend)

    def x_of(t: float) -> float:
        return plot_x0 + (t - t0) / (t1 - t0) * (plot_x1 - plot_x0)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="10">',
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>']
    if title:
        parts.append(f'<text x="10" y="20" font-size="13" font-weight="bold">'
                     f'{escape(_fits(title, 13, width - 20, bold=True))}</text>')
    # time axis: as many ticks as their labels leave room for
    sample = _tick_label(t0, t1 - t0, dated)
    room = len(sample) * CHAR * 10 + 24
    ticks = max(2, int((plot_x1 - plot_x0) / room))
    axis_y = top + AXIS_H - 8
    parts.append('<g class="axis">')
    for i in range(ticks + 1):
        t = t0 + (t1 - t0) * i / ticks
        x = x_of(t)
        anchor = "start" if i == 0 else "end" if i == ticks else "middle"
        parts.append(f'<line x1="{x:.1f}" y1="{axis_y + 2}" x2="{x:.1f}" '
                     f'y2="{top + AXIS_H + LANE_H * len(lanes)}" stroke="#eceff1"/>')
        parts.append(f'<text x="{x:.1f}" y="{axis_y - 2}" text-anchor="{anchor}" '
                     f'fill="#546e7a">{escape(_tick_label(t, t1 - t0, dated))}</text>')
    parts.append("</g>")
    for i, lane in enumerate(lanes):
        y0 = top + AXIS_H + i * LANE_H
        base = y0 + LANE_H - 8
        peak = max((d for _, d in lane.depth), default=0)
        parts.append(f'<g class="lane" id="lane{i}"><title>{escape(lane.what)} '
                     f'{escape(lane.name)}</title>')
        parts.append(f'<rect x="{plot_x0}" y="{y0 + 2}" width="{plot_x1 - plot_x0}" '
                     f'height="{LANE_H - 6}" fill="{"#fafafa" if i % 2 else "#f5f7fa"}"/>')
        parts.append(f'<text x="8" y="{y0 + 18}" font-weight="bold">'
                     f'{escape(_fits(lane.name, 10, MARGIN - 16, bold=True))}</text>')
        sub = f"{lane.what}, peak depth {peak:,}" if lane.depth else lane.what
        parts.append(f'<text x="8" y="{y0 + 32}" fill="#607d8b" font-size="9">'
                     f'{escape(_fits(sub, 9, MARGIN - 16))}</text>')
        if lane.depth:
            pts, last_y = [], base
            for stamp, d in lane.depth:
                t = parse_time(stamp)
                if t is None:
                    continue
                x = x_of(t)
                y = base - (d / peak if peak else 0) * (LANE_H - 14)
                pts.append(f"{x:.1f},{last_y:.1f} {x:.1f},{y:.1f}")
                last_y = y
            pts.append(f"{plot_x1:.1f},{last_y:.1f}")
            parts.append(f'<polyline fill="none" stroke="#1e88e5" stroke-width="1.3" '
                         f'points="{" ".join(pts)}"/>')
        for stamp, kind, text in lane.markers:
            t = parse_time(stamp)
            if t is None:
                continue
            x, colour = x_of(t), verdict_colour(kind)
            if kind in EVENT_MARKS:
                fill, down, _ = EVENT_MARKS[kind]
                shape = (f'<path d="{_triangle(x, y0 + 5, down)}" fill="{fill}">'
                         f'<title>{escape(stamp)} {escape(text)}</title></path>')
            else:
                shape = (f'<circle cx="{x:.1f}" cy="{base - 4:.1f}" r="3.5" fill="{colour}" '
                         f'stroke="white" stroke-width="0.6"><title>{escape(stamp)} '
                         f'{escape(text)}</title></circle>')
            parts.append(shape)
        parts.append("</g>")
    # legend: each entry as wide as its text needs, on as many rows as the width asks
    base_y = top + AXIS_H + LANE_H * len(lanes) + 24
    parts.append('<g class="legend">')
    for kind, x, row, colour, text in legend:
        ly = base_y + 16 * row
        if kind == "depth":
            parts.append(f'<line x1="{x}" y1="{ly - 4}" x2="{x + 14}" y2="{ly - 4}" '
                         f'stroke="{colour}" stroke-width="2"/>')
        elif kind in EVENT_MARKS:
            parts.append(f'<path d="{_triangle(x + 7, ly - 10, EVENT_MARKS[kind][1])}" '
                         f'fill="{colour}"/>')
        else:
            parts.append(f'<circle cx="{x + 7}" cy="{ly - 4}" r="4" fill="{colour}"/>')
        parts.append(f'<text x="{x + 18}" y="{ly}">{escape(text)}</text>')
    parts.append("</g></svg>")
    return "\n".join(parts)
