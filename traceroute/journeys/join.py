"""Activity reports and trace-route data joined to journeys where the same MsgId appears."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from pcf.names import name_of
from traceroute.journeys.reconstruct import Journey
from traceroute.records.parse import Record


def join_records(journeys: Iterable[Journey], records: Iterable[Record]) -> int:
    """Note on each journey what activity reports / trace-route records say of the same
    message (their CorrelId, the key, is the original MsgId); the number of records used."""
    by_key: dict[bytes, list[Record]] = defaultdict(list)
    for r in records:
        by_key[r.key].append(r)
    used = 0
    for j in journeys:
        for r in by_key.get(j.msg_id, ()):
            used += 1
            for a in r.activities:
                ops = ", ".join((name_of(o.type, "MQOPER") or str(o.type)).removeprefix(
                    "MQOPER_").title() for o in a.operations)
                j.notes.append(f"{r.kind} ({r.source or '?'}): {a.qmgr} {a.appl_name} "
                               f"{ops}".rstrip())
    return used
