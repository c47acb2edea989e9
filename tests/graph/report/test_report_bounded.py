"""The report's memory and page size are bounded, whatever the number of lost messages.

A million lost messages in a million groups (each stopped on a queue of its own, on a
thousand queue managers): `mqroute report` writes the page with the first 200 groups, the
rest counted and pointed at in the Parquet table, in bounded memory (the peak resident size
of the process is measured) and a page of a bounded size.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
np = pytest.importorskip("numpy")
pytest.importorskip("pygraphviz")

from graph.pipeline.rows import HOP_COLUMNS, ROUTE_COLUMNS  # noqa: E402
from graph.pipeline.schema import arrow_schema  # noqa: E402

N = 1_000_000
#: Peak resident memory allowed for the report of N lost messages (measured: about 680 MB).
MEMORY = 1200 * 1024 * 1024
PAGE = 1024 * 1024


def numbered(prefix: str, values) -> object:
    import pyarrow.compute as pc

    return pc.binary_join_element_wise(prefix, pc.cast(pa.array(values), pa.string()), "")


def million_lost(folder: Path, n: int = N) -> Path:
    """routes/ of n dead-lettered messages, each on its own queue; an empty hops/."""
    import pyarrow.compute as pc

    schema = arrow_schema(ROUTE_COLUMNS)
    i = np.arange(n)
    cols = {}
    for f in schema:
        if f.name == "correl_id":
            cols[f.name] = pc.utf8_lpad(pc.cast(pa.array(i), pa.string()), 48, "0")
        elif f.name == "verdict":
            cols[f.name] = pa.array(np.full(n, "dead_lettered"), pa.string())
        elif f.name == "last_queue_manager":
            cols[f.name] = numbered("QM", i % 1000)
        elif f.name == "last_queue":
            cols[f.name] = numbered("LOST.Q.", i)
        elif f.name in ("first_time", "last_time"):
            cols[f.name] = pa.array(np.full(n, "2026-11-22 10:00:00"), pa.string())
        elif f.type == pa.int32():
            cols[f.name] = pa.array(np.ones(n, dtype="int32"))
        elif f.type == pa.bool_():
            cols[f.name] = pa.array(np.ones(n, dtype=bool))
        else:
            cols[f.name] = pa.nulls(n, f.type)
    (folder / "routes").mkdir(parents=True)
    pq.write_table(pa.table(cols, schema=schema), folder / "routes" / "part-0.parquet")
    hops = arrow_schema(HOP_COLUMNS)
    (folder / "hops").mkdir()
    pq.write_table(hops.empty_table(), folder / "hops" / "part-0.parquet")
    return folder


def peak_of(argv: list[str]) -> tuple[int, int, str]:
    """Run a command; (exit status, its peak resident bytes, stderr)."""
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[3])})
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, usage.ru_maxrss * 1024, err


@pytest.mark.slow
def test_a_million_lost_messages_in_a_million_groups(tmp_path):
    out = million_lost(tmp_path / "out")
    page = tmp_path / "report.html"
    status, peak, err = peak_of([sys.executable, "-m", "mqroute", "report", str(out), "-o",
                                 str(page)])
    assert status == 0, err
    assert peak < MEMORY, f"peak resident {peak >> 20} MB"
    html = page.read_text(encoding="utf-8")
    assert len(html.encode()) < PAGE
    lost = re.search(r'<table class="data" data-name="lost messages">.*?</table>', html,
                     flags=re.S).group()
    assert lost.count("<tr>") == 1 + 200               # the head and the first 200 groups
    assert "999,800 more groups of lost messages (999,800 messages) not shown" in html
    assert str(out / "routes") in html
    assert '<span class="count">1,000,000</span> lost' in html


def test_the_groups_and_their_numbers(tmp_path):
    """The bounded aggregates equal a plain count in Python on a small folder."""
    from collections import Counter

    from graph.report.tables import read_estate

    out = million_lost(tmp_path / "out", n=5000)
    rows = pq.read_table(out / "routes").to_pylist()
    est = read_estate(out, limit=50)
    groups = Counter((r["last_queue_manager"], r["last_queue"]) for r in rows)
    assert len(est.lost_groups) == 50 and est.more["lost_groups"] == (len(groups) - 50,
                                                                        5000 - 50)
    places = Counter(r["last_queue_manager"] for r in rows)
    assert {(q, n) for q, _, n in est.losses} == set(places.items())
    assert est.lost == 5000 and est.causes == [("dead_lettered", 5000)]


def reference_groups(out: Path) -> dict:
    """The lost-message groups counted row by row in Python (what the report did before it
    was bounded): key -> (messages, first time, last time, example)."""
    from graph.report.tables import DELIVERED, looping_routes

    loops = looping_routes(out)
    groups: dict = {}
    for r in pq.read_table(out / "routes").to_pylist():
        if r["verdict"] in DELIVERED:
            continue
        cause = "loop" if r["correl_id"] in loops else r["verdict"]
        key = (cause, r["last_queue_manager"] or "", r["last_queue"] or "",
               r["last_channel"] or "", r["next_queue_manager"] or "")
        n, first, last, example = groups.get(key, (0, None, None, None))
        best = min(filter(None, [example, (r["activities"] or 0, r["correl_id"])]))
        times = [t for t in (first, r["first_time"]) if t is not None]
        lasts = [t for t in (last, r["last_time"]) if t is not None]
        groups[key] = (n + 1, min(times) if times else None, max(lasts) if lasts else None,
                       best)
    return groups


def test_groups_equal_a_row_by_row_count_on_every_verdict(tmp_path):
    from graph.report.tables import read_estate
    from tests.graph.report.test_report import analyze_output

    out = analyze_output(tmp_path / "out", with_events=False)
    want = reference_groups(out)
    est = read_estate(out)
    got = {(g["cause"], g["queue_manager"], g["queue"], g["channel"],
            g["next_queue_manager"]): (g["messages"], g["first_time"] or None,
                                       g["last_time"] or None,
                                       (g["example_activities"], g["example"]))
           for g in est.lost_groups}
    assert got == want and len(want) > 3
    assert [g["messages"] for g in est.lost_groups] == sorted(
        (g["messages"] for g in est.lost_groups), reverse=True)
