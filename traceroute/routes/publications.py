"""Publications as trees: a copy's route is a branch of the route of what was published.

A publishing activity (a Put to a topic, then one operation per subscriber considered)
hands each subscriber a copy with a MsgId of its own, given in the MQMD of its Publish or
Discarded Publish operation; what is recorded of that copy afterwards (a channel's
activities, another queue manager's engine publishing it again ...) names that MsgId as its
CorrelId, as for any message. `assemble` hangs each copy's route (or, when nothing more was
recorded of it, a branch without steps) under the activity that published it, nested as
deep as the publications went, so that one publication is one route with one branch per
subscriber it went towards (Excluded Publish operations make none: they stay operations of
the publishing activity). A fan-out's outcome is its worst branch's (`verdict.SEVERITY`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from pcf import mqc
from traceroute.records.model import Activity
from traceroute.records.parse import Record
from traceroute.routes.ordering import Gap, Route
from traceroute.routes.ordering import build_routes as routes_by_correl_id
from traceroute.routes.verdict import (
    PUBLISH_TYPES,
    Location,
    outcome_of,
    publish_outcome,
    worst,
)

#: Where a subscription sends its publications: (queue manager, SubId) -> its destination
#: queue manager and queue (Inquire Subscription), or None when not known.
Destinations = Callable[[str, bytes], Location | None]


def copies_of(activity: Activity) -> list[bytes]:
    """The MsgIds of the copies an activity published (its Publish and Discarded Publish
    operations', in order)."""
    return [op.md.msg_id for op in activity.operations
            if op.type in PUBLISH_TYPES and op.md is not None and any(op.md.msg_id)]


def published(route: Route) -> list[bytes]:
    """The MsgIds of every copy published anywhere on a route (and its branches)."""
    out: list[bytes] = []
    for a in route.activities:
        out.extend(copies_of(a))
    return out


def _last_activity(route: Route) -> Activity | None:
    for step in reversed(route.steps):
        if isinstance(step, Activity):
            return step
    return None


def _after(child: Route, publisher: Activity) -> Route:
    """A copy's route without the gap its counters show before it when that gap is only the
    publishing activity (recorded in the parent): a trace-route copy's first activity counts
    on from the publisher's."""
    if not child.steps or not isinstance(child.steps[0], Gap):
        return child
    first = next((s for s in child.steps if isinstance(s, Activity)), None)
    before = publisher.trace_route.counters if publisher.trace_route else None
    after = first.trace_route.counters if first is not None and first.trace_route else None
    if before is None and after is None:  # chained: the unknown gap is the publication
        if child.steps[0] != Gap():
            return child
        lead: tuple[Gap, ...] = ()
    else:
        if before is None or after is None or after[0] != before[0] + 1:
            return child
        unrecorded, discontinuities = after[1] - before[1], after[2] - before[2]
        lead = (Gap(0, unrecorded, discontinuities),) \
            if unrecorded > 0 or discontinuities > 0 else ()
    steps = (*lead, *child.steps[1:])
    if child.branches or not steps:
        return replace(child, steps=steps)
    return replace(child, steps=steps, outcome=outcome_of(
        next((s for s in reversed(steps) if isinstance(s, Activity)), None),
        ends_in_gap=isinstance(steps[-1], Gap)))


class _Assembler:
    def __init__(self, routes: list[Route], destinations: Destinations | None) -> None:
        self.by_key = {r.correl_id: r for r in routes}
        self.destinations = destinations

    def tree(self, route: Route, above: frozenset[bytes]) -> Route:
        """`route` with each copy it published replaced by that copy's own route (itself
        with its copies) when it is at hand, or told by the subscription's destination."""
        if not route.branches:
            return route
        above = above | {route.correl_id}
        publisher = _last_activity(route)
        branches = []
        for b in route.branches:
            op = b.via
            if op is None or b.steps or b.branches:
                branches.append(self.tree(b, above))
                continue
            child = self.by_key.get(b.correl_id) if b.correl_id not in above else None
            if child is not None and publisher is not None:
                branches.append(replace(_after(self.tree(child, above), publisher), via=op))
                continue
            dest = self.destinations(op.qmgr, op.sub_id) \
                if self.destinations is not None and op.sub_id else None
            if dest is not None and publisher is not None:
                ops = publisher.operations
                i = next((n for n, o in enumerate(ops) if o is op), len(ops))
                following = ops[i + 1] if i + 1 < len(ops) else None
                b = replace(b, outcome=publish_outcome(op, following, dest))
            branches.append(b)
        new = tuple(branches)
        if all(x is y for x, y in zip(new, route.branches, strict=True)):
            return route
        return replace(route, branches=new, outcome=worst(b.outcome for b in new))


def assemble(routes: Iterable[Route],
             destinations: Destinations | None = None) -> list[Route]:
    """Routes of publications joined: each copy's route becomes a branch of the route that
    published it; the routes that are no copy of another, in their order. `destinations`
    ((queue manager, SubId) -> the subscription's queue manager and queue, from Inquire
    Subscription) names where copies with nothing recorded after their Publish went."""
    routes = list(routes)
    asm = _Assembler(routes, destinations)
    children: set[bytes] = set()
    for r in routes:
        children.update(k for k in published(r) if k != r.correl_id)
    return [asm.tree(r, frozenset()) for r in routes if r.correl_id not in children]


def build_routes(records: Iterable[Record],
                 destinations: Destinations | None = None) -> list[Route]:
    """One Route per original message, in the order their first record was seen: the
    routes of the records' CorrelIds, a publication's copies joined into its tree."""
    return assemble(routes_by_correl_id(records), destinations)


def settled(route: Route, destinations: Destinations | None = None) -> bool:
    """True when nothing more can be learnt of the route: complete, and no copy published
    with nothing recorded after it could still be on its way to another queue manager
    (its subscription's destination is known, and local)."""
    if not route.complete:
        return False
    stack = [route]
    while stack:
        r = stack.pop()
        stack.extend(r.branches)
        op = r.via
        if op is None or r.steps or op.type != mqc.MQOPER_PUBLISH:
            continue
        dest = destinations(op.qmgr, op.sub_id) if destinations and op.sub_id else None
        if dest is None or dest.queue_manager not in (None, op.qmgr):
            return False
    return True
