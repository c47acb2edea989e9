"""The ordering as it was before its index: every pair of activities tried (quadratic).

The reference the indexed ordering is held equal to (tests/traceroute/routes) and the
baseline `benchmarks/bench_ordering.py` measures against in the same run.
"""

from __future__ import annotations

from traceroute.routes import ordering
from traceroute.routes.ordering import link


def _ancestor(a, b):
    node = b
    while node is not None:
        if node is a:
            return True
        node = node.parent
    return False


def reference_by_chaining(entries):
    entries.sort(key=lambda e: (ordering._time(e), e.order))
    for e in entries:
        candidates = [(link(p.activity, e.activity), p) for p in entries
                      if p is not e and not _ancestor(e, p)]
        candidates = [(score, p) for score, p in candidates if score]
        if candidates:
            t = ordering._time
            best = max(candidates, key=lambda c: (c[0], t(c[1]) <= t(e), not c[1].children,
                                                  t(c[1]), -c[1].order))[1]
            ordering._adopt(best, e)
    return [e for e in entries if e.parent is None]


def reference_by_counters(entries):
    entries.sort(key=lambda e: (e.recorded, sum(e.counters), e.order))
    roots, previous, level, current = [], [], [], None
    for e in entries:
        if e.recorded != current:
            if level:
                previous = level
            level, current = [], e.recorded
        level.append(e)
        if not previous:
            roots.append(e)
            continue
        best = max(previous, key=lambda p: (link(p.activity, e.activity),
                                            p.activity.qmgr == e.activity.qmgr, -p.order))
        ordering._adopt(best, e)
    return roots
