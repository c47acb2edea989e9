"""`mqroute report`: one self-contained HTML page, checked as data and in headless Chromium.

The analyze output is written here without Spark, row for row with the pipeline's own row
functions and column types (graph.pipeline.rows), from the simulator's corpus of every
verdict. Chromium (Debian's `chromium`; `.ci/run` installs it) loads the page offline, a
probe script reports JavaScript errors, sections, picture sizes and label boxes as the
browser measures them, exercises search and sort, and a screenshot must not be blank.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from graph.pipeline.events import EVENT_COLUMNS
from graph.pipeline.rows import (
    HOP_COLUMNS,
    OPERATION_COLUMNS,
    REJECT_COLUMNS,
    ROUTE_COLUMNS,
    hop_rows,
    route_row,
)
from graph.pipeline.schema import arrow_schema
from graph.report import build_report
from mqroute.main import main
from tests.support.stage_reference import operation_rows
from traceroute.records.parse import NotActivityData, parse_message
from traceroute.routes.ordering import build_routes
from traceroute.sim.corpus import corpus

pytest.importorskip("pygraphviz")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

SECTIONS = ["summary", "lost", "estate", "timeline", "channels", "audit", "events",
            "routes", "rejects"]


def write_table(folder: Path, name: str, columns, rows: list[dict]) -> None:
    schema = arrow_schema(columns)
    (folder / name).mkdir(parents=True)
    table = pa.Table.from_pylist([{c: r.get(c) for c in schema.names} for r in rows],
                                 schema=schema)
    pq.write_table(table, folder / name / "part-0.parquet")


def analyze_output(folder: Path, *, with_events: bool) -> Path:
    """operations/, routes/, hops/, rejects/ (and events/) of a corpus of every verdict."""
    records, ops = [], []
    for i, c in enumerate(corpus(6, seed=4)):
        try:
            rec = parse_message(c.md, c.data, source=f"{c.qmgr}.{c.queue}.dmp", line=i)
        except NotActivityData:
            continue
        records.append(rec)
        ops += list(operation_rows(rec, position=i))
    routes = list(build_routes(records))
    write_table(folder, "operations", OPERATION_COLUMNS, ops)
    write_table(folder, "routes", ROUTE_COLUMNS, [route_row(r) for r in routes])
    write_table(folder, "hops", HOP_COLUMNS, [h for r in routes for h in hop_rows(r)])
    write_table(folder, "rejects", REJECT_COLUMNS,
                [{"source": "bad.dmp", "position": 1234, "msg_id": None,
                  "error": "bad.dmp: line 7, offset 1234: MQCFH StrucLength 12"}])
    if with_events:
        write_table(folder, "events", EVENT_COLUMNS, [
            {"category": "channel", "event_type_name": "Channel",
             "reason_name": "Channel Stopped By User", "queue_manager": "QM1",
             "object": None, "channel": "QM1.TO.QM2", "xmit_queue": "QM2",
             "time": "2026-11-22T10:00:00Z", "epoch": 0},
            {"category": "performance", "event_type_name": "Perfm",
             "reason_name": "Queue Depth High", "queue_manager": "QM1", "object": "QM2",
             "time": "2026-11-22T10:05:00Z", "epoch": 300}])
    return folder


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    base = tmp_path_factory.mktemp("analyze")
    return (analyze_output(base / "plain", with_events=False),
            analyze_output(base / "events", with_events=True))


def test_report_has_every_section_and_is_self_contained(outputs):
    plain, _ = outputs
    html = build_report(plain)
    for section in SECTIONS:
        assert f'<section id="{section}">' in html
    # nothing to fetch at view time: only in-page links, no src= at all
    assert not re.search(r"\bsrc=", html)
    assert all(h.startswith("#") for h in re.findall(r'\bhref="([^"]*)"', html))
    urls = set(re.findall(r"https?://[^\s\"'<>]+", html))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    assert "no <code>events/</code> table" in html
    assert "--mqsc" in html                       # the audit says how to get it


def test_report_numbers_match_the_tables(outputs):
    plain, _ = outputs
    routes = pq.read_table(plain / "routes").to_pylist()
    html = build_report(plain)
    counts: dict[str, int] = {}
    for r in routes:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    for verdict, n in counts.items():
        label = verdict.replace("_", " ")
        assert re.search(rf">{re.escape(label)}</span></td><td class=\"n\">{n:,}</td>", html)
    lost = sum(n for v, n in counts.items() if v not in ("delivered", "discarded_at_target"))
    assert f'<span class="count">{lost:,}</span> lost' in html
    # each route page has its picture and its dspmqrte text
    pages = re.findall(r'<article id="route-([0-9a-f]+)"', html)
    assert pages and len(pages) <= 12
    assert html.count("<pre>") == len(pages)
    assert "AMQ8653I" in html or "Activity:" in html or "Operation:" in html
    assert "bad.dmp: line 7, offset 1234" in html


def test_report_with_events_and_config(outputs, tmp_path):
    _, with_events = outputs
    from importlib import resources

    mqsc = tmp_path / "qm1_qm2.mqsc"
    mqsc.write_text(resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc")
                    .read_text())
    out = tmp_path / "r.html"
    assert main(["report", str(with_events), "-o", str(out), "--mqsc", str(mqsc)]) == 0
    html = out.read_text()
    assert "Channel Stopped By User" in html and "Queue Depth High" in html
    assert 'data-name="audit findings"' in html or "no findings" in html


def test_report_command_errors_are_one_line(tmp_path, capsys):
    assert main(["report", str(tmp_path / "nothing"), "-o", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("mqroute: ") and "routes/" in err[0]
    bad = tmp_path / "bad.mqsc"
    bad.write_text("DEFINE QLOCAL(\n")
    (tmp_path / "out" / "routes").mkdir(parents=True)
    assert main(["report", str(tmp_path / "out"), "--mqsc", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()   # runmqsc's lines, then the folder's
    assert all(line.startswith("mqroute: ") for line in err) and "bad.mqsc" in err[0]
    assert "routes: no column" in err[-1] and "internal error" not in "".join(err)


# --- in a real browser -------------------------------------------------------------------

PROBE = """<script>
(function () {
  var out = {errors: (window.__errors || []).slice(),
             ready: document.documentElement.getAttribute('data-ready')};
  out.sections = Array.prototype.map.call(document.querySelectorAll('main > section'),
    function (s) { return s.id; });
  out.pictures = Array.prototype.map.call(document.querySelectorAll('.picture'), function (p) {
    var svg = p.querySelector('svg'), r = svg.getBoundingClientRect();
    return {name: p.getAttribute('data-picture'), w: r.width, h: r.height,
            shapes: svg.querySelectorAll('path,polygon,ellipse,circle,polyline').length,
            texts: svg.querySelectorAll('text').length};
  });
  out.overlaps = [];
  document.querySelectorAll('.picture svg').forEach(function (svg) {
    var texts = Array.prototype.filter.call(svg.querySelectorAll('text'),
      function (t) { return t.textContent.trim(); });
    var boxes = texts.map(function (t) { var b = t.getBBox(); return {t: t, b: b}; });
    var nodes = Array.prototype.map.call(svg.querySelectorAll('g.node'),
      function (g) { return {g: g, b: g.getBBox()}; });
    function hit(a, b) {
      return Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 1 &&
             Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 1;
    }
    for (var i = 0; i < boxes.length; i++) {
      for (var j = i + 1; j < boxes.length; j++) {
        if (hit(boxes[i].b, boxes[j].b)) out.overlaps.push(
          [boxes[i].t.textContent, boxes[j].t.textContent]);
      }
      nodes.forEach(function (n) {
        if (!n.g.contains(boxes[i].t) && hit(boxes[i].b, n.b)) out.overlaps.push(
          [boxes[i].t.textContent, 'node ' + n.g.querySelector('title').textContent]);
      });
    }
  });
  var table = document.querySelector('table[data-name="verdicts"]');
  var search = table.previousElementSibling;
  search.value = 'delivered';
  search.dispatchEvent(new Event('input'));
  out.shownAfterSearch = Array.prototype.filter.call(table.tBodies[0].rows,
    function (r) { return r.style.display !== 'none'; }).map(function (r) {
      return r.cells[0].textContent; });
  search.value = ''; search.dispatchEvent(new Event('input'));
  var th = table.tHead.rows[0].cells[1];
  th.click();
  out.ascending = Array.prototype.map.call(table.tBodies[0].rows,
    function (r) { return Number(r.cells[1].textContent.replace(/,/g, '')); });
  th.click();
  out.descending = Array.prototype.map.call(table.tBodies[0].rows,
    function (r) { return Number(r.cells[1].textContent.replace(/,/g, '')); });
  var pre = document.createElement('pre');
  pre.id = 'probe'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no chromium here (Debian: apt-get install chromium; .ci/run installs it)")


def browse(page: Path, profile: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}",
                           "--virtual-time-budget=10000", *extra, page.as_uri()],
                          capture_output=True, text=True, timeout=180, check=False)


@pytest.fixture(scope="module")
def rendered(outputs, tmp_path_factory):
    _, with_events = outputs
    folder = tmp_path_factory.mktemp("browser")
    html = build_report(with_events)
    page = folder / "report.html"
    page.write_text(html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = browse(page, folder / "profile1", "--dump-dom")
    m = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout, flags=re.S)
    assert m, f"no probe output; chromium said: {dom.stderr[-2000:]}"
    probe = json.loads(m.group(1).replace("&quot;", '"').replace("&lt;", "<")
                       .replace("&gt;", ">").replace("&amp;", "&"))
    shot = folder / "report.png"
    browse(page, folder / "profile2", f"--screenshot={shot}", "--window-size=1280,2200")
    return probe, shot


def test_browser_no_javascript_errors_and_every_section(rendered):
    probe, _ = rendered
    assert probe["errors"] == []
    assert probe["ready"] == "1"
    assert probe["sections"] == SECTIONS


def test_browser_pictures_are_drawn_and_labels_do_not_overlap(rendered):
    probe, _ = rendered
    names = [p["name"] for p in probe["pictures"]]
    assert "estate" in names and "timeline" in names and any(n.startswith("route")
                                                             for n in names)
    for p in probe["pictures"]:
        assert p["w"] > 100 and p["h"] > 50 and p["shapes"] > 3 and p["texts"] > 3, p
    assert probe["overlaps"] == []


def test_browser_search_and_sort(rendered):
    probe, _ = rendered
    assert probe["shownAfterSearch"] == ["delivered"]
    assert probe["ascending"] == sorted(probe["ascending"])
    assert probe["descending"] == sorted(probe["ascending"], reverse=True)


def test_browser_screenshot_is_not_blank(rendered):
    from PIL import Image

    _, shot = rendered
    assert shot.exists(), "chromium wrote no screenshot"
    img = Image.open(shot).convert("RGB")
    assert img.size == (1280, 2200)
    small = img.resize((128, 220))
    colours = small.getcolors(maxcolors=1 << 16)
    assert colours is not None and len(colours) > 50
    white = sum(n for n, c in colours if min(c) > 245)
    assert white < 0.9 * 128 * 220
    # the header band is the report's blue
    r, _, b = img.getpixel((640, 10))
    assert b > 120 and r < 60


# --- the committed example: notebook 02's day on 300 queue managers ------------------------

EXAMPLE = Path(__file__).resolve().parents[3] / "notebooks" / "lost_messages_report.html"


def test_example_report_is_complete_and_offline():
    html = EXAMPLE.read_text(encoding="utf-8")
    for section in SECTIONS:
        assert f'<section id="{section}">' in html
    assert not re.search(r"\bsrc=", html)
    assert all(h.startswith("#") for h in re.findall(r'\bhref="([^"]*)"', html))
    for cause in ("dead lettered", "expired", "loop", "waiting on xmitq"):
        assert f">{cause}</span>" in html
    assert 'data-picture="estate"' in html and 'data-picture="route0"' in html
    assert 'data-name="audit findings"' in html      # the notebook gives the MQSC


def test_example_report_in_the_browser(tmp_path):
    page = tmp_path / "example.html"
    page.write_text(EXAMPLE.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"),
                    encoding="utf-8")
    dom = browse(page, tmp_path / "profile", "--dump-dom")
    m = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout, flags=re.S)
    assert m, f"no probe output; chromium said: {dom.stderr[-2000:]}"
    probe = json.loads(m.group(1).replace("&quot;", '"').replace("&lt;", "<")
                       .replace("&gt;", ">").replace("&amp;", "&"))
    assert probe["errors"] == [] and probe["ready"] == "1"
    assert probe["sections"] == SECTIONS
    assert all(p["w"] > 100 and p["h"] > 50 for p in probe["pictures"])
    assert probe["overlaps"] == []
