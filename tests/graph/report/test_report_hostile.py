"""A tampered analyze folder cannot run script in the report, nor stop it being written.

Every string column of every table the report reads (operations, routes, hops, rejects,
events, route_events) gets markup that would run script if it reached the page raw (a
closing quote and tag, `<script>`, `<img onerror>`, `<svg onload>`, a `javascript:` URL),
controls (ESC, C1, NUL, a line break, a bidi override) and Graphviz escapes; event columns
get hostile *names*. The page must be written, hold the values escaped, and in headless
Chromium run none of it: no `window.__pwned`, no element or attribute the report did not
make, only the report's own two scripts, no link leaving the page.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from graph.report import build_report
from mqroute.main import main
from pcf.text import is_printable
from tests.graph.report.test_report import analyze_output, browse

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("pygraphviz")

PAYLOAD = ('"\'><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'
           '<svg onload="window.__pwned=3"><a href="javascript:window.__pwned=4">x</a>'
           '&lt;b&gt;\\N\\G&#92;\x1b[31m\x9b\u202e\x00\n</textarea></title></style>')
TABLES = ("operations", "routes", "hops", "rejects", "events", "route_events")


def tamper(folder: Path, payload: str = PAYLOAD) -> None:
    """Every string value of every table gets the payload; a route_events table of it is
    added."""
    for name in TABLES:
        path = folder / name
        if not path.exists():
            continue
        for part in path.rglob("*.parquet"):
            t = pq.read_table(part)
            cols = {}
            for field in t.schema:
                col = t[field.name]
                if pa.types.is_string(field.type):
                    col = pa.array([None if v is None else v + payload
                                    for v in col.to_pylist()], pa.string())
                cols[field.name] = col
            pq.write_table(pa.table(cols), part)
    hostile = folder / "route_events"
    hostile.mkdir(exist_ok=True)
    pq.write_table(pa.table({c: pa.array([payload, "x"]) for c in (
        "correl_id", "verdict", "last_queue_manager", "last_queue", "last_channel",
        "last_time", "reason_name", "time")}), hostile / "part-0.parquet")


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> tuple[Path, str]:
    base = tmp_path_factory.mktemp("hostile")
    out = analyze_output(base / "out", with_events=True)
    tamper(out)
    html_path = base / "report.html"
    assert main(["report", str(out), "-o", str(html_path), "--title", PAYLOAD]) == 0
    return out, html_path.read_text(encoding="utf-8")


class Tags(HTMLParser):
    """Every start tag of a page and its attributes, as a browser's tokenizer sees them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


#: The elements the report and Graphviz's SVG make.
OWN_TAGS = {"html", "head", "meta", "title", "style", "script", "body", "header", "h1", "h2",
            "h3", "p", "nav", "a", "main", "section", "span", "table", "thead", "tbody", "tr",
            "th", "td", "div", "svg", "g", "polygon", "path", "text", "ellipse", "polyline",
            "circle", "rect", "line", "article", "pre", "b", "code", "defs"}


def test_the_page_is_written_and_holds_no_markup_from_the_tables(page):
    _, html = page
    parser = Tags()
    parser.feed(html)
    tags = parser.tags
    assert {t for t, _ in tags} <= OWN_TAGS, {t for t, _ in tags} - OWN_TAGS
    assert sum(t == "script" for t, _ in tags) == 2          # the report's own two
    for tag, attrs in tags:
        assert not any(a.lower().startswith("on") for a in attrs), (tag, attrs)
        assert "src" not in attrs, (tag, attrs)
        for a in ("href", "xlink:href"):
            assert attrs.get(a) is None or attrs[a].startswith("#"), (tag, attrs)
        if "id" in attrs:
            assert re.fullmatch(r"[A-Za-z0-9_.:-]+", attrs["id"]), attrs["id"]
    assert "window.__pwned" in html                # the values are shown, as text
    assert is_printable(html, keep="\n\t")        # controls shown as \uXXXX


def test_a_table_of_hostile_column_names(tmp_path):
    out = analyze_output(tmp_path / "out", with_events=False)
    (out / "events").mkdir()
    pq.write_table(pa.table({PAYLOAD: ["a"], "<b>" + PAYLOAD: [PAYLOAD]}),
                   out / "events" / "part-0.parquet")
    html = build_report(out)
    assert html.count("<script>") == 2 and "<script>window.__pwned" not in html


PROBE = """<script>
(function () {
  var bad = [];
  document.querySelectorAll('*').forEach(function (el) {
    Array.prototype.forEach.call(el.attributes, function (a) {
      if (/^on/i.test(a.name)) bad.push(el.tagName + ' ' + a.name);
      if (/^(href|src|action|formaction|xlink:href|data)$/i.test(a.name) &&
          !/^#/.test(a.value)) bad.push(el.tagName + ' ' + a.name + '=' + a.value);
    });
    if (['IMG', 'IFRAME', 'OBJECT', 'EMBED', 'TEXTAREA', 'FORM'].indexOf(el.tagName) >= 0)
      bad.push(el.tagName);
  });
  var out = {pwned: window.__pwned || null, bad: bad,
             scripts: document.querySelectorAll('script').length,
             errors: (window.__errors || []).slice(),
             ready: document.documentElement.getAttribute('data-ready'),
             sections: Array.prototype.map.call(document.querySelectorAll('main > section'),
               function (s) { return s.id; })};
  var pre = document.createElement('pre');
  pre.id = 'probe'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


def test_nothing_from_the_tables_runs_in_chromium(page, tmp_path):
    _, html = page
    path = tmp_path / "report.html"
    path.write_text(html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = browse(path, tmp_path / "profile", "--dump-dom")
    m = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout, flags=re.S)
    assert m, f"no probe output; chromium said: {dom.stderr[-2000:]}"
    probe = json.loads(m.group(1).replace("&quot;", '"').replace("&lt;", "<")
                       .replace("&gt;", ">").replace("&amp;", "&"))
    assert probe["pwned"] is None
    assert probe["bad"] == []
    assert probe["scripts"] == 3      # the report's two and this probe
    assert probe["errors"] == [] and probe["ready"] == "1"
    assert len(probe["sections"]) == 9
