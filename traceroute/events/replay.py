"""What-if replay: operations (time_ms, qmgr, queue, op[, count]) through the event engines.

OPS.csv has the header `time_ms,qmgr,queue,op[,count]`; op is PUT, GET, RESET_STATS (RESET
QSTATS) or RESTART (queue-manager restart, queue empty); BACKOUT (roll back that many
uncommitted puts) is accepted too. Queue managers start at time_ms 0 with empty queues and
statistics reset. The engines come from MQSC-defined queue managers (anything with
`.qmgrs[name].attrs` and `.queues[name].kind/.attrs`, as traceroute.sim.network has);
shared queues (QSGDISP(SHARED)) of queue managers with the same QSGNAME share one queue.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pcf import mqc
from traceroute.events.engine import Failure, Outcome, QueueAttrs, QueueManagerEngine
from traceroute.events.qsg import SharedQueue

OPS = ("PUT", "GET", "RESET_STATS", "RESTART", "BACKOUT")
MAX_COUNT = 10_000_000
#: The latest time_ms: an event's TimeSinceReset is an MQLONG of seconds.
MAX_TIME_MS = 2_147_483_647_999
#: Digits read of a number (a longer one is refused, not converted).
MAX_DIGITS = 20


@dataclass(frozen=True, slots=True)
class Op:
    """One line of OPS.csv."""

    time_ms: int
    qmgr: str
    queue: str
    op: str
    count: int = 1
    line: int = 0


@dataclass(frozen=True, slots=True)
class OpError:
    """A line of OPS.csv that cannot be used: where and why."""

    line: int
    reason: str


def parse_ops(lines: Iterable[str]) -> Iterator[Op | OpError]:
    """Ops and errors of OPS.csv lines, in file order (header checked)."""
    rows = csv.reader(lines)
    header = next(rows, None)
    names = [h.strip().lower() for h in header] if header else []
    if names[:4] != ["time_ms", "qmgr", "queue", "op"] or len(names) > 5 \
            or (len(names) == 5 and names[4] != "count"):
        yield OpError(1, "header must be time_ms,qmgr,queue,op[,count]")
        return
    for lineno, row in enumerate(rows, 2):
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) not in (4, 5):
            yield OpError(lineno, f"{len(row)} fields, expected 4 or 5")
            continue
        t, qmgr, queue, op = (c.strip() for c in row[:4])
        count_text = row[4].strip() if len(row) == 5 else ""
        op = op.upper()
        try:
            if len(t) > MAX_DIGITS or len(count_text) > MAX_DIGITS:
                raise ValueError
            time_ms = int(t)
            count = int(count_text) if count_text else 1
        except ValueError:
            yield OpError(lineno, "time_ms and count must be whole numbers (of at most "
                                  f"{MAX_DIGITS} digits)")
            continue
        if op not in OPS:
            yield OpError(lineno, f"op {op[:40]!r} is not one of {', '.join(OPS)}")
        elif not 0 <= time_ms <= MAX_TIME_MS or not 1 <= count <= MAX_COUNT:
            yield OpError(lineno, f"time_ms must be 0..{MAX_TIME_MS:,} (an event's "
                                  f"TimeSinceReset is an MQLONG of seconds) and count "
                                  f"1..{MAX_COUNT:,}")
        elif not qmgr or (op != "RESTART" and not queue):
            yield OpError(lineno, "qmgr (and, except for RESTART, queue) must be given")
        else:
            yield Op(time_ms, qmgr, queue, op, count, lineno)


class Estate:
    """The performance-event engines of some queue managers and their shared queues."""

    def __init__(self) -> None:
        self.engines: dict[str, QueueManagerEngine] = {}
        self.shared: dict[tuple[str, str], SharedQueue] = {}
        self.qsg_of: dict[str, str] = {}

    @classmethod
    def from_network(cls, network: Any) -> Estate:
        """Engines for every queue manager of an MQSC network (QLOCAL queues)."""
        estate = cls()
        groups: dict[tuple[str, str], tuple[QueueAttrs, dict[str, bool]]] = {}
        for qm in network.qmgrs.values():
            perfmev = qm.attrs.get("PERFMEV", "DISABLED").upper() == "ENABLED"
            qsg = qm.attrs.get("QSGNAME", "")
            locals_: list[QueueAttrs] = []
            for name, obj in qm.queues.items():
                if obj.kind != "QLOCAL":
                    continue
                attrs = QueueAttrs.from_mqsc(name, obj.attrs)
                if attrs.shared:
                    group = groups.setdefault((qsg, name), (attrs, {}))
                    group[1][qm.name] = perfmev
                else:
                    locals_.append(attrs)
            estate.engines[qm.name] = QueueManagerEngine(qm.name, locals_, perfmev=perfmev)
            estate.qsg_of[qm.name] = qsg
        for key, (attrs, members) in groups.items():
            estate.shared[key] = SharedQueue(attrs, members)
        return estate

    def apply(self, op: Op) -> list[Outcome]:
        """What one operation raises."""
        engine = self.engines.get(op.qmgr)
        if engine is None:
            return [Failure(op.time_ms, op.qmgr, op.queue, op.op,
                            mqc.MQRC_UNKNOWN_OBJECT_NAME)]
        if op.op == "RESTART":
            out = engine.restart(op.time_ms)
            for (qsg, _), sq in self.shared.items():
                if qsg == self.qsg_of.get(op.qmgr) and op.qmgr in sq.members:
                    sq.reset_stats(op.time_ms, op.qmgr)
            return out
        shared = self.shared.get((self.qsg_of.get(op.qmgr, ""), op.queue))
        if shared is not None and op.qmgr in shared.members:
            if op.op == "PUT":
                return shared.put(op.time_ms, op.qmgr, op.count)
            if op.op == "GET":
                return shared.get(op.time_ms, op.qmgr, op.count)
            if op.op == "RESET_STATS":
                return shared.reset_stats(op.time_ms, op.qmgr)
            return []
        if op.op == "PUT":
            return engine.put(op.time_ms, op.queue, op.count)
        if op.op == "GET":
            return engine.get(op.time_ms, op.queue, op.count)
        if op.op == "BACKOUT":
            return engine.backout(op.time_ms, op.queue, op.count)
        return engine.reset_stats(op.time_ms, op.queue)


def replay(estate: Estate, ops: Iterable[Op]) -> Iterator[tuple[Op, Outcome]]:
    """Every event and failure with its operation, in time order (ties in file order)."""
    for op in sorted(ops, key=lambda o: o.time_ms):
        for outcome in estate.apply(op):
            yield op, outcome
