"""One self-contained HTML page of an estate, from `mqroute analyze`'s output folder.

`tables` aggregates the Parquet tables with pyarrow (bounded: grouped counts, capped rows);
`html` lays the page out: verdict counts, lost messages by cause and last known location,
the estate picture, a timeline, busiest and stuck channels, audit findings (with the MQSC
configuration), events when an `events/` table exists, and a section per selected route with
its picture and dspmqrte text. Search and sort run in a few lines of inline JavaScript; no
file or network is needed to view it. May import `pcf`, `traceroute`, `graph.draw`,
`graph.audit`, `graph.pipeline.rows`, `graph.routegraph` and `graph.zos` (the z/OS
section, when the folder has SMF tables).

    from graph.report import build_report
    html = build_report("routes-out", network=read_mqsc(files))
"""

from __future__ import annotations

from graph.report.html import build_report, write_report

__all__ = ["build_report", "write_report"]
