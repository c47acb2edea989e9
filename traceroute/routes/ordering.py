"""Records -> routes: correlate, order (counters, then chaining), mark gaps, judge.

Pure functions over values. One call takes any mix of activity reports, trace-route replies
and trace-route messages for any number of original messages and returns one Route each.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise

from pcf import mqc
from traceroute.records.model import GET_TYPES, Activity, Operation, TraceRoute
from traceroute.records.parse import REPORT, Record
from traceroute.routes.verdict import (
    PUBLISH_TYPES,
    Location,
    Outcome,
    Verdict,
    outcome_of,
    publish_outcome,
    worst,
)


@dataclass(frozen=True, slots=True)
class Gap:
    """Activities that happened here but are not in the data.

    `missing`: recorded activities whose information was not collected (None when the count
    is not known, as between chained fragments); `unrecorded`: activities performed but not
    recorded (detail level, recording disabled); `discontinuities`: queue managers passed
    that do not support trace-route messaging.
    """

    missing: int | None = None
    unrecorded: int = 0
    discontinuities: int = 0


Step = Activity | Gap


@dataclass(frozen=True, slots=True)
class Route:
    """The route of one original message: ordered steps, branches after a fan-out, verdict.

    A publication's copy for one subscriber is a branch whose `via` is the Publish or
    Discarded Publish operation it began with (its `correl_id` is the copy's MsgId; its
    steps what was recorded of the copy afterwards, none when nothing was).
    """

    correl_id: bytes
    steps: tuple[Step, ...]
    outcome: Outcome
    branches: tuple[Route, ...] = ()
    trace_route: TraceRoute | None = None
    notes: tuple[str, ...] = ()
    records: int = field(default=0, compare=False)
    via: Operation | None = None

    @property
    def verdict(self) -> Verdict:
        """How the route ended (for a fan-out: its worst branch's, by SEVERITY)."""
        return self.outcome.verdict

    @property
    def location(self) -> Location:
        """The last known location."""
        return self.outcome.location

    @property
    def activities(self) -> list[Activity]:
        """Every activity of the route, trunk then branches."""
        own = [s for s in self.steps if isinstance(s, Activity)]
        return own + [a for b in self.branches for a in b.activities]

    @property
    def gaps(self) -> list[Gap]:
        """Every gap of the route, trunk then branches."""
        return [s for s in self.steps if isinstance(s, Gap)] + \
            [g for b in self.branches for g in b.gaps]

    @property
    def leaves(self) -> list[Route]:
        """The ends of the route: itself, or each branch's ends (depth first, in order)."""
        out: list[Route] = []
        stack = [self]
        while stack:
            r = stack.pop()
            if r.branches:
                stack.extend(reversed(r.branches))
            else:
                out.append(r)
        return out

    @property
    def complete(self) -> bool:
        """True when the route ends terminally with nothing missing anywhere."""
        return self.verdict.terminal and not self.gaps and \
            all(b.complete for b in self.branches)


@dataclass(slots=True)
class _Entry:
    """An activity placed in a route: its counters (recorded, unrecorded, discontinuity)."""

    activity: Activity
    counters: tuple[int, int, int] | None
    order: int  # position in the input, the final tie-break
    parent: _Entry | None = None
    children: list[_Entry] = field(default_factory=list)

    @property
    def recorded(self) -> int:
        return self.counters[0] if self.counters else 0


def _identity(activity: Activity) -> tuple:
    return (activity.appl_name, activity.appl_type, activity.description, activity.operations)


def _entries(records: list[Record]) -> tuple[list[_Entry], TraceRoute | None]:
    """The distinct activities of one message's records, with their counters.

    Activities are the same when their recorded count (as first seen) and identity are.
    They are looked up by a key cheap to hash (the count and the identity's text fields);
    only where two share one are identities hashed (operations and all), in a dict of
    that key's own, so each activity costs one or two lookups whatever the input.
    """
    found: dict[tuple, _Entry | dict[tuple, _Entry]] = {}
    entries: list[_Entry] = []
    final: TraceRoute | None = None
    for record in records:
        if record.kind != REPORT and record.trace_route is not None:
            final = _later(final, record.trace_route)
        for k, activity in enumerate(record.activities):
            tr = activity.trace_route
            counters = tr.counters if tr is not None else None
            if counters is None and record.kind != REPORT and record.trace_route is not None:
                counters = (k + 1, 0, 0)  # accumulated in order, before any reply was made
            key = (counters[0] if counters else None, activity.appl_name, activity.appl_type,
                   activity.description)
            seen = found.get(key)
            if isinstance(seen, _Entry) and _identity(seen.activity) != _identity(activity):
                seen = found[key] = {_identity(seen.activity): seen}  # two share the key
            bucket = seen if isinstance(seen, dict) else None
            entry = bucket.get(_identity(activity)) if bucket is not None else seen
            if entry is None:
                entry = _Entry(activity, counters, len(entries))
                entries.append(entry)
                if bucket is not None:
                    bucket[_identity(activity)] = entry
                else:
                    found[key] = entry
            elif entry.counters is None and counters is not None:
                entry.counters = counters
            if tr is not None:
                final = _later(final, tr)
    return entries, final


def _later(a: TraceRoute | None, b: TraceRoute) -> TraceRoute:
    if a is None or (b.counters or (0,)) >= (a.counters or (0,)):
        return b
    return a


def _gets_from(op: Operation | None, qmgr: str, queue: str) -> bool:
    return (op is not None and op.type in GET_TYPES and op.qmgr == qmgr
            and queue in (op.resolved_queue, op.queue))


def link(a: Activity, b: Activity) -> int:
    """How surely b follows a: 3 across a channel or xmitq, 2 local put→get, 0 not at all."""
    first = b.first
    if first is None:
        return 0
    for op in reversed(a.operations):
        if (op.type == mqc.MQOPER_SEND and first.type == mqc.MQOPER_RECEIVE
                and op.channel == first.channel and op.remote_qmgr == first.qmgr
                and first.remote_qmgr in (None, op.qmgr)):
            return 3
        if op.to_xmit_queue and _gets_from(first, op.qmgr, op.resolved_queue or ""):
            return 3 if first.from_xmit_queue else 2
        if op.is_put and not op.to_xmit_queue and not first.from_xmit_queue and \
                _gets_from(first, op.qmgr, op.resolved_queue or op.queue or ""):
            return 2
    return 0


def _is_origin(activity: Activity) -> bool:
    """An activity that can start a route (not a Receive or an MCA's get from an xmitq)."""
    op = activity.first
    return op is not None and op.type != mqc.MQOPER_RECEIVE and not op.from_xmit_queue \
        and op.type != mqc.MQOPER_SEND


def _adopt(parent: _Entry, child: _Entry) -> None:
    child.parent = parent
    parent.children.append(child)


def _parent_keys(b: Activity) -> list[tuple]:
    """The keys an activity that `link`s to b must offer (see `_child_keys`)."""
    first = b.first
    if first is None:
        return []
    if first.type == mqc.MQOPER_RECEIVE:
        if first.remote_qmgr is None:
            return [("s*", first.channel, first.qmgr)]
        return [("s", first.channel, first.qmgr, first.remote_qmgr)]
    if first.type not in GET_TYPES:
        return []
    keys = []
    for queue in {first.resolved_queue, first.queue} - {None}:
        keys.append(("x", first.qmgr, queue))
        if not first.from_xmit_queue:
            keys.append(("p", first.qmgr, queue))
    return keys


def _child_keys(a: Activity) -> set[tuple]:
    """Keys naming every activity `a` can be followed by: `link(a, b) > 0` only when a key
    of a is among `_parent_keys(b)` (an index, so that candidates are found without trying
    every pair)."""
    keys: set[tuple] = set()
    for op in a.operations:
        if op.type == mqc.MQOPER_SEND:
            keys.add(("s*", op.channel, op.remote_qmgr))
            keys.add(("s", op.channel, op.remote_qmgr, op.qmgr))
        if op.to_xmit_queue:
            keys.add(("x", op.qmgr, op.resolved_queue or ""))
        elif op.is_put:
            keys.add(("p", op.qmgr, op.resolved_queue or op.queue or ""))
    return keys


def _index(entries: Iterable[_Entry]) -> dict[tuple, list[_Entry]]:
    """Entries by the keys they offer as a parent, in the order given.

    An entry is in the list of one of `_parent_keys(b)` exactly when `link(entry, b) > 0`;
    and for one b every such link has the same score (3 across a channel or from an xmitq
    to its MCA, else 2), so only the tie-breaks choose among them.
    """
    by_key: dict[tuple, list[_Entry]] = {}
    for e in entries:
        for key in _child_keys(e.activity):
            by_key.setdefault(key, []).append(e)
    return by_key


def _by_counters(entries: list[_Entry]) -> list[_Entry]:
    """Parent each entry to one at the previous recorded count; returns the roots.

    The parent is the one that links to it, else one in the same queue manager, else the
    first; ties go to the earliest in the input. Each count's entries are indexed once,
    with the earliest of each key (overall and per queue manager), so every choice is
    among a few.
    """
    entries.sort(key=lambda e: (e.recorded, sum(e.counters), e.order))
    roots: list[_Entry] = []
    previous: list[_Entry] = []
    level: list[_Entry] = []
    current = None
    firsts: dict[tuple, tuple[_Entry, dict[str, _Entry]]] = {}
    earliest: _Entry | None = None
    first_in_qmgr: dict[str, _Entry] = {}
    indexed = True
    for e in entries:
        if e.recorded != current:
            if level:
                previous, indexed = level, False
            level, current = [], e.recorded
        level.append(e)
        if not previous:
            roots.append(e)
            continue
        if len(previous) == 1:  # the only choice (a chain: the common case)
            _adopt(previous[0], e)
            continue
        if not indexed:
            by_order = sorted(previous, key=lambda p: p.order)
            earliest, first_in_qmgr, firsts = by_order[0], {}, {}
            for p in by_order:
                first_in_qmgr.setdefault(p.activity.qmgr, p)
            for key, members in _index(by_order).items():
                per_qmgr: dict[str, _Entry] = {}
                for p in members:
                    per_qmgr.setdefault(p.activity.qmgr, p)
                firsts[key] = (members[0], per_qmgr)
            indexed = True
        qmgr = e.activity.qmgr
        choices = [earliest]
        if qmgr in first_in_qmgr:
            choices.append(first_in_qmgr[qmgr])
        for key in _parent_keys(e.activity):
            if key in firsts:
                first, per_qmgr = firsts[key]
                choices.append(first)
                if qmgr in per_qmgr:
                    choices.append(per_qmgr[qmgr])
        best = max(choices, key=lambda p: (link(p.activity, e.activity),
                                           p.activity.qmgr == qmgr, -p.order))
        _adopt(best, e)
    return roots


def _time(e: _Entry) -> str:
    op = e.activity.first
    return op.timestamp if op else ""


class _Trees:
    """Which tree each entry is in (union-find), to refuse a parent below the child."""

    def __init__(self, n: int) -> None:
        self.up = list(range(n))
        self.size = [1] * n
        self.top = list(range(n))  # per set representative: the index of its tree's root

    def find(self, i: int) -> int:
        up = self.up
        while up[i] != i:
            up[i] = up[up[i]]
            i = up[i]
        return i

    def root(self, i: int) -> int:
        """The index of the root of i's tree."""
        return self.top[self.find(i)]

    def hang(self, child: int, parent: int) -> None:
        """The tree rooted at `child` now hangs below `parent`."""
        a, b = self.find(child), self.find(parent)
        top = self.top[b]
        if self.size[a] > self.size[b]:
            a, b = b, a
        self.up[a] = b
        self.size[b] += self.size[a]
        self.top[b] = top


def _latest(positions: list[int], lo: int, hi: int, valid, group_start: list[int]
            ) -> int | None:
    """Of the valid positions in [lo, hi] of a sorted list: those of the latest time, and
    of them the first (positions are in (time, input order))."""
    i = bisect_right(positions, hi) - 1
    while i >= 0 and positions[i] >= lo:
        j = positions[i]
        if valid(j):
            for m in range(bisect_left(positions, max(group_start[j], lo)), i + 1):
                if valid(positions[m]):
                    return positions[m]
        i -= 1
    return None


def _by_chaining(entries: list[_Entry]) -> list[_Entry]:
    """Parent each entry to the activity it must follow (Send→Receive, Put→Get); roots.

    Of the activities that link to it the parent is one not later than it, then one
    without children yet, then the latest, then the first in the input; never one below
    it in its own tree. Each key's candidates are kept as sorted positions (all, and those
    still without children), so each choice costs a few binary searches.
    """
    entries.sort(key=lambda e: (_time(e), e.order))
    n = len(entries)
    times = [_time(e) for e in entries]
    group_start = [0] * n
    group_end = [n - 1] * n
    for j in range(1, n):
        group_start[j] = group_start[j - 1] if times[j] == times[j - 1] else j
    for j in range(n - 2, -1, -1):
        group_end[j] = group_end[j + 1] if times[j] == times[j + 1] else j
    position = {id(e): j for j, e in enumerate(entries)}
    members: dict[tuple, list[int]] = {
        key: [position[id(e)] for e in bucket] for key, bucket in _index(entries).items()}
    childless = {key: list(ps) for key, ps in members.items()}
    keys_of = [_child_keys(e.activity) & members.keys() for e in entries]
    trees = _Trees(n)
    for k, e in enumerate(entries):
        def valid(j: int, k: int = k) -> bool:
            return j != k and trees.root(j) != k

        last_not_later = group_end[k]
        found: list[int] = []
        for key in _parent_keys(e.activity):
            if key not in members:
                continue
            for positions, lo, hi in ((childless[key], 0, last_not_later),
                                      (members[key], 0, last_not_later),
                                      (childless[key], last_not_later + 1, n),
                                      (members[key], last_not_later + 1, n)):
                j = _latest(positions, lo, hi, valid, group_start)
                if j is not None:
                    found.append(j)
                    break
        if not found:
            continue
        j = max(found, key=lambda j: (times[j] <= times[k], not entries[j].children,
                                      times[j], -entries[j].order))
        parent = entries[j]
        if not parent.children:
            for key in keys_of[j]:
                bucket = childless[key]
                del bucket[bisect_left(bucket, j)]
        _adopt(parent, e)
        trees.hang(k, j)
    return [e for e in entries if e.parent is None]


def _gap_between(a: _Entry | None, b: _Entry) -> Gap | None:
    """The gap the counters show before b (after a), if any."""
    if b.counters is None:
        return None
    before = a.counters if a is not None and a.counters else (0, 0, 0)
    missing = b.counters[0] - before[0] - 1
    unrecorded = max(b.counters[1] - before[1], 0)
    discontinuities = max(b.counters[2] - before[2], 0)
    if missing > 0 or unrecorded or discontinuities:
        return Gap(max(missing, 0), unrecorded, discontinuities)
    return None


def _trunk(start: _Entry, lead: list[Step]) -> tuple[list[Step], _Entry, list[str]]:
    """Steps from `start` while the tree does not fork: (steps, last entry, notes)."""
    steps = list(lead)
    node = start
    notes: list[str] = []
    while True:
        steps.append(node.activity)
        if len(node.children) != 1:
            return steps, node, notes
        child = node.children[0]
        gap = _gap_between(node, child)
        if gap is not None:
            steps.append(gap)
        elif node.counters and child.counters and node.activity.last \
                and node.activity.last.type == mqc.MQOPER_SEND \
                and not link(node.activity, child.activity):
            notes.append(f"after the Send on {node.activity.last.channel}, the next recorded "
                         f"activity is not its Receive")
        node = child


def _path(correl_id: bytes, start: _Entry, lead: list[Step], final: TraceRoute | None,
          records: int) -> Route:
    """The route from `start` down the tree; a fork makes branches (built without recursion,
    so however deep the forks go)."""
    trunks: dict[int, tuple[list[Step], _Entry, list[str]]] = {}
    order: list[_Entry] = []
    stack = [(start, lead)]
    while stack:
        entry, entry_lead = stack.pop()
        trunks[id(entry)] = _trunk(entry, entry_lead)
        order.append(entry)
        node = trunks[id(entry)][1]
        stack.extend((c, [g] if (g := _gap_between(node, c)) else []) for c in node.children)
    built: dict[int, Route] = {}
    for entry in reversed(order):
        steps, node, notes = trunks[id(entry)]
        branches = tuple(built.pop(id(c)) for c in node.children)
        if not branches and final is not None and final.counters and node.counters and \
                final.counters[0] > node.counters[0]:
            steps.append(Gap(final.counters[0] - node.counters[0]))
        if not branches and not isinstance(steps[-1], Gap):
            branches = published_branches(node.activity, final)
        if branches:
            outcome = worst(b.outcome for b in branches)
        else:
            outcome = outcome_of(node.activity, ends_in_gap=isinstance(steps[-1], Gap))
        built[id(entry)] = Route(correl_id, tuple(steps), outcome, branches, final,
                                 tuple(notes), records if entry is start else 0)
    return built[id(start)]


def published_branches(activity: Activity, trace_route: TraceRoute | None = None
                       ) -> tuple[Route, ...]:
    """A publishing activity's copies, one branch per Publish or Discarded Publish operation
    (`via`), each as far as the operation alone tells (no steps; its correl_id the copy's
    MsgId: `traceroute.routes.publications` puts the copy's own route there when its
    records are at hand). Excluded Publish operations make none."""
    ops = activity.operations
    out = []
    for i, op in enumerate(ops):
        if op.type in PUBLISH_TYPES:
            following = ops[i + 1] if i + 1 < len(ops) else None
            key = op.md.msg_id if op.md is not None else b""
            out.append(Route(key, (), publish_outcome(op, following), trace_route=trace_route,
                             via=op))
    return tuple(out)


def route_of(correl_id: bytes, records: list[Record]) -> Route:
    """The route of one original message from all the records that name it."""
    entries, final = _entries(records)
    if not entries:
        return Route(correl_id, (Gap(final.counters[0] if final and final.counters else None),),
                     outcome_of(None), trace_route=final, records=len(records))
    counted = all(e.counters is not None for e in entries)
    roots = _by_counters(entries) if counted else _by_chaining(entries)
    if len(roots) > 1 and counted:  # branches whose common start is missing
        lead = _gap_between(None, roots[0])
        branches = tuple(_path(correl_id, r, [], final, 0) for r in roots)
        outcome = worst(b.outcome for b in branches)
        return Route(correl_id, (lead or Gap(),), outcome, branches, final,
                     records=len(records))
    roots.sort(key=lambda e: (_time(e), e.order))
    # chained fragments that nothing links: joined in time order, with unknown gaps between
    first = roots[0]
    lead: list[Step] = []
    if counted:
        gap = _gap_between(None, first)
        lead = [gap] if gap else []
    elif not _is_origin(first.activity):
        lead = [Gap()]
    for previous, fragment in pairwise(roots):
        tail = previous
        while tail.children:
            tail = tail.children[-1]
        _adopt(tail, fragment)
    route = _path(correl_id, first, lead, final, len(records))
    if len(roots) > 1:
        route = _mark_fragments(route, {id(r.activity) for r in roots[1:]})
    return route


def _mark_fragments(route: Route, starts: set[int]) -> Route:
    """Put an unknown-size gap before each fragment that chaining could not attach."""
    steps: list[Step] = []
    for s in route.steps:
        if id(s) in starts and not (steps and isinstance(steps[-1], Gap)):
            steps.append(Gap())
        steps.append(s)
    ends_in_gap = isinstance(steps[-1], Gap)
    outcome = route.outcome if route.branches else outcome_of(
        next((s for s in reversed(steps) if isinstance(s, Activity)), None),
        ends_in_gap=ends_in_gap)
    note = ("some activities could not be chained; they are placed by time, which differs "
            "between queue managers")
    return Route(route.correl_id, tuple(steps), outcome, route.branches, route.trace_route,
                 (*route.notes, note), route.records)


def build_routes(records: Iterable[Record]) -> list[Route]:
    """One Route per CorrelId, in the order their first record was seen (a publication's
    copies are each their own: `traceroute.routes.build_routes` joins them into one)."""
    by_key: dict[bytes, list[Record]] = {}
    for r in records:
        by_key.setdefault(r.key, []).append(r)
    return [route_of(key, recs) for key, recs in by_key.items()]
